/* The DRAM-less mapping cache's timing: a miss reads the translation page
 * from flash before the command goes on; a dirty page pushed out of the
 * cache is programmed back. */
#include "ssd_internal.h"

/* --- cached mapping ------------------------------------------------------- */

static uint32_t map_page_of(const ssd *d, uint32_t lpn) { return lpn / d->p.map_entries_per_page; }
static uint32_t map_die(const ssd *d, uint32_t page) { return page % d->p.dies; }

/* Caches a translation page; a dirty page pushed out is written back. */
void map_insert(ssd *d, uint32_t page, bool dirty)
{
    bool evicted_dirty;
    uint32_t out = mapcache_insert(&d->map, page, dirty, &evicted_dirty);
    if (out == MAPCACHE_NONE || !evicted_dirty) return;
    d->map_programs++;
    txn *t = new_txn(d, TX_MAP_PROGRAM, map_die(d, out), out, d->p.units_per_page);
    t->stream = STREAM_MAP;
    die_enqueue(d, t, CLASS_PROGRAM);
}

/* Marks the translation pages of units [lpn, lpn + n) dirty. */
void map_dirty(ssd *d, uint32_t lpn, uint32_t n)
{
    for (uint32_t p = map_page_of(d, lpn); p <= map_page_of(d, lpn + n - 1); p++)
        if (!mapcache_touch(&d->map, p, true)) map_insert(d, p, true);
}

/* True when every translation page the request needs is cached; else
 * reads the first missing one from flash and returns false (the request
 * resumes when it arrives). */
bool map_ready(ssd *d, ssdlab_request *r)
{
    uint32_t lpn0 = first_unit(d, r), last = lpn0 + units_of(d, r) - 1;
    for (uint32_t p = map_page_of(d, lpn0); p <= map_page_of(d, last); p++) {
        if (mapcache_touch(&d->map, p, false)) continue;
        d->map_misses++;
        txn *t = new_txn(d, TX_MAP_READ, map_die(d, p), p, d->p.units_per_page);
        t->req = r;
        die_enqueue(d, t, CLASS_READ);
        return false;
    }
    return true;
}

