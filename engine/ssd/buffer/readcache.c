#include "readcache.h"

#include <stdlib.h>
#include <string.h>

int readcache_init(readcache *c, uint64_t units)
{
    memset(c, 0, sizeof *c);
    c->sets = (uint32_t)(units / READCACHE_WAYS);
    if (!c->sets) return 0;
    c->tag = calloc((size_t)c->sets * READCACHE_WAYS, sizeof *c->tag);
    c->stamp = calloc((size_t)c->sets * READCACHE_WAYS, sizeof *c->stamp);
    if (!c->tag || !c->stamp) {
        readcache_free(c);
        return -1;
    }
    return 0;
}

void readcache_free(readcache *c)
{
    free(c->tag);
    free(c->stamp);
    memset(c, 0, sizeof *c);
}

/* Units hash to sets by a multiplicative hash, so strided access patterns
 * spread over the sets. */
static uint32_t *set_of(readcache *c, uint32_t lpn, uint64_t **stamps)
{
    uint32_t set = (uint32_t)(((uint64_t)(lpn * 2654435761u) * c->sets) >> 32);
    *stamps = &c->stamp[(size_t)set * READCACHE_WAYS];
    return &c->tag[(size_t)set * READCACHE_WAYS];
}

bool readcache_lookup(readcache *c, uint32_t lpn)
{
    if (!c->sets) return false;
    uint64_t *stamps;
    uint32_t *tags = set_of(c, lpn, &stamps);
    for (int w = 0; w < READCACHE_WAYS; w++)
        if (tags[w] == lpn + 1) {
            stamps[w] = ++c->clock;
            return true;
        }
    return false;
}

void readcache_insert(readcache *c, uint32_t lpn)
{
    if (!c->sets) return;
    uint64_t *stamps;
    uint32_t *tags = set_of(c, lpn, &stamps);
    int victim = 0;
    for (int w = 0; w < READCACHE_WAYS; w++) {
        if (tags[w] == lpn + 1) { /* already cached */
            stamps[w] = ++c->clock;
            return;
        }
        if (!tags[w] || (tags[victim] && stamps[w] < stamps[victim])) victim = w;
    }
    tags[victim] = lpn + 1;
    stamps[victim] = ++c->clock;
}

void readcache_invalidate(readcache *c, uint32_t lpn)
{
    if (!c->sets) return;
    uint64_t *stamps;
    uint32_t *tags = set_of(c, lpn, &stamps);
    for (int w = 0; w < READCACHE_WAYS; w++)
        if (tags[w] == lpn + 1) tags[w] = 0;
}
