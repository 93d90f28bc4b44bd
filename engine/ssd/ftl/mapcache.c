#include "mapcache.h"

#include <stdlib.h>
#include <string.h>

const mapcache_policy mapcache_policies[] = {
    {"lru", "the least recently used unit leaves (a use moves a unit to the front)", true},
    {"fifo", "the first cached unit leaves (only insertion moves a unit)", false},
    {NULL, NULL, false},
};

int mapcache_init(mapcache *m, uint32_t pages, uint32_t capacity, unsigned policy)
{
    memset(m, 0, sizeof *m);
    m->capacity = capacity;
    m->lru = mapcache_policies[policy].refresh_on_use;
    m->slot_of_page = malloc((size_t)pages * sizeof *m->slot_of_page);
    m->cached = calloc(((size_t)pages + 63) / 64, sizeof *m->cached);
    m->slots = malloc((size_t)capacity * sizeof *m->slots);
    if (!m->slot_of_page || !m->cached || !m->slots) {
        mapcache_free(m);
        return -1;
    }
    m->head = m->tail = MAPCACHE_NONE;
    return 0;
}

void mapcache_free(mapcache *m)
{
    free(m->slot_of_page);
    free(m->cached);
    free(m->slots);
    memset(m, 0, sizeof *m);
}

uint32_t mapcache_insert(mapcache *m, uint32_t page, bool dirty, bool *evicted_dirty)
{
    uint32_t s, evicted = MAPCACHE_NONE;
    *evicted_dirty = false;
    if (m->count < m->capacity) {
        s = m->count++;
    } else {
        s = m->tail;
        mapcache_unlink(m, s);
        evicted = m->slots[s].page;
        *evicted_dirty = m->slots[s].dirty;
        m->cached[evicted >> 6] &= ~(UINT64_C(1) << (evicted & 63));
    }
    m->slots[s].page = page;
    m->slot_of_page[page] = s;
    m->cached[page >> 6] |= UINT64_C(1) << (page & 63);
    m->slots[s].dirty = dirty;
    mapcache_push_front(m, s);
    return evicted;
}
