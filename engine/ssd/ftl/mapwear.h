/* The DRAM-less mapping on the untimed path (a wear phase): a unit
 * written or moved makes its translation unit dirty in the cache; a dirty
 * one pushed out is written to flash at once, as mapio.c does in time (or
 * owed, when its die has no block, and written once the die is
 * collected), and the dies those write-backs took blocks from are
 * collected after the write under way, so that no GC starts inside
 * another. */
#ifndef SSDLAB_MAPWEAR_H
#define SSDLAB_MAPWEAR_H

#include "mapio.h"

typedef struct mapwear {
    mapio *map;
    /* what every unit's call reads, one load away */
    mapcache *cache;
    divider page_of; /* logical unit -> its translation unit */
    uint32_t *dies, die_count; /* the dies the write-backs took blocks from */
    uint8_t *marked;           /* per die: in `dies` */
} mapwear;

/* For the drive's mapping; -1 when out of memory. */
int mapwear_init(mapwear *w, mapio *map);
void mapwear_free(mapwear *w);
static inline bool mapwear_on(const mapwear *w) { return w->marked != NULL; }
/* Translation unit tu, not cached, comes in dirty (mapwear_dirty's miss). */
void mapwear_miss(mapwear *w, uint32_t tu);
/* Logical unit lpn was written or moved: its translation unit is dirty.
 * Inline, and the miss out of line: every unit written or moved calls it,
 * and most hit. */
static inline void mapwear_dirty(mapwear *w, uint32_t lpn)
{
    uint32_t tu = divide(w->page_of, lpn);
    if (!mapcache_touch(w->cache, tu, true)) mapwear_miss(w, tu);
}
/* How many of lpn, lpn + 1, ... (at most k) may be written before one
 * mapwear_dirty(w, lpn) that stands for a call after each: those in lpn's
 * translation unit when it is cached (the hit writes nothing back, and a
 * second call changes nothing), one when it is not. */
static inline size_t mapwear_quiet(const mapwear *w, uint32_t lpn, size_t k)
{
    if (!mapcache_has(w->cache, divide(w->page_of, lpn))) return 1;
    size_t in_unit = divide_left(w->page_of, lpn);
    return in_unit < k ? in_unit : k;
}
/* mapwear_dirty as the FTL's relocation hook (ctx is the mapwear). */
void mapwear_relocated(void *ctx, uint32_t lpn);
/* mapwear_collect's work, when there are dies to look at. */
void mapwear_collect_dies(mapwear *w);
/* GC on the dies the write-backs took blocks from, while they need it. */
static inline void mapwear_collect(mapwear *w)
{
    if (w->die_count) mapwear_collect_dies(w);
}

#endif
