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

static void mark(mapwear *w, uint32_t die)
{
    if (!w->marked[die]) {
        w->marked[die] = 1;
        w->dies[w->die_count++] = die;
    }
}

/* One pushed out dirty is written back at once, placed as the timed path
 * places it; owed, its die is collected and then writes it. */
void mapwear_miss(mapwear *w, uint32_t tu)
{
    mapio *map = w->map;
    bool evicted_dirty;
    uint32_t out = mapcache_insert(&map->cache, tu, true, &evicted_dirty);
    mapio_prefetch_evictions(map);
    if (out == MAPCACHE_NONE || !evicted_dirty) return;
    uint32_t ppa, die = mapio_place_writeback(map, out, &ppa);
    mark(w, die != FTL_NONE ? die : mapio_die_of(map, out));
}

void mapwear_relocated(void *ctx, uint32_t lpn) { mapwear_dirty(ctx, lpn); }

void mapwear_collect_dies(mapwear *w)
{
    ftl *f = w->map->f;
    while (w->die_count) {
        uint32_t die = w->dies[--w->die_count];
        w->marked[die] = 0;
        if (ftl_free_blocks(f, die) <= f->p->gc_threshold) ftl_collect_now(f, die);
        uint32_t ppa;
        while (mapio_place_owed(w->map, die, &ppa) != MAPIO_NOT_OWED) continue;
    }
}
