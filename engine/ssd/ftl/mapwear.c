#include "mapwear.h"

#include <stdlib.h>
#include <string.h>

#include "fastpath.h"

int mapwear_init(mapwear *w, mapio *map)
{
    uint32_t dies = map->p->dies;
    memset(w, 0, sizeof *w);
    w->map = map;
    w->cache = &map->cache;
    w->page_of = map->p->map_page_of;
    w->dies = malloc((size_t)dies * sizeof *w->dies);
    w->marked = calloc(dies, 1);
    if (w->dies && w->marked) return 0;
    mapwear_free(w);
    return -1;
}

void mapwear_free(mapwear *w)
{
    free(w->dies);
    free(w->marked);
    memset(w, 0, sizeof *w);
}

/* What the next evictions will touch, fetched one eviction ahead, a step
 * further for each that is nearer the tail: the second next's slot, the
 * next but one's translation unit's place, and the next's old place's
 * valid bits and block record. At full size each of them is a cache miss,
 * and they follow from each other, so that an eviction not fetched ahead
 * waits for them in turn. Changes nothing. */
static void prefetch_evictions(const mapio *map)
{
    const mapcache *m = &map->cache;
    uint32_t next = m->tail;
    if (next == MAPCACHE_NONE) return;
    ftl_prefetch_map_unit(map->f, mapcache_page(m, next), 1);
    uint32_t second = mapcache_after(m, next);
    if (second == MAPCACHE_NONE) return;
    ftl_prefetch_map_unit(map->f, mapcache_page(m, second), 0);
    uint32_t third = mapcache_after(m, second);
    if (third != MAPCACHE_NONE) mapcache_prefetch_slot(m, third);
}

/* One pushed out dirty is written back at once, placed as the timed path
 * places it. */
void mapwear_miss(mapwear *w, uint32_t tu)
{
    mapio *map = w->map;
    bool evicted_dirty;
    uint32_t out = mapcache_insert(&map->cache, tu, true, &evicted_dirty);
    prefetch_evictions(map);
    if (out == MAPCACHE_NONE || !evicted_dirty) return;
    uint32_t ppa, die = mapio_place_writeback(map, out, &ppa);
    if (die == FTL_NONE) return;
    if (!w->marked[die]) {
        w->marked[die] = 1;
        w->dies[w->die_count++] = die;
    }
}

void mapwear_relocated(void *ctx, uint32_t lpn) { mapwear_dirty(ctx, lpn); }

void mapwear_collect_dies(mapwear *w)
{
    ftl *f = w->map->f;
    while (w->die_count) {
        uint32_t die = w->dies[--w->die_count];
        w->marked[die] = 0;
        if (ftl_free_blocks(f, die) <= f->p->gc_threshold) ftl_collect_now(f, die);
    }
}
