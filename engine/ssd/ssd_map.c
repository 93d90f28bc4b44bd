/* The DRAM-less mapping cache's timing. The mapping table lives in flash in
 * translation units (one mapping unit each) in blocks of their own stream;
 * a miss reads the unit from where it lives before the command goes on; a
 * dirty unit pushed out of the cache is written to a new place (programmed
 * with the die's next program unit of translation units), and GC moves
 * translation units like data. */
#include "ssd_internal.h"

/* --- cached mapping ------------------------------------------------------- */

static uint32_t map_page_of(const ssd *d, uint32_t lpn) { return lpn / d->p.map_entries_per_page; }
/* Translation units are written round-robin over the dies. */
static uint32_t map_die(const ssd *d, uint32_t page) { return page % d->p.dies; }

/* Caches a translation page; a dirty page pushed out is written back. */
void map_insert(ssd *d, uint32_t page, bool dirty)
{
    bool evicted_dirty;
    uint32_t out = mapcache_insert(&d->map, page, dirty, &evicted_dirty);
    if (out == MAPCACHE_NONE || !evicted_dirty) return;
    d->map_programs++;
    uint32_t die = map_die(d, out);
    uint32_t ppa = ftl_alloc(&d->f, die, STREAM_MAP);
    if (ppa == FTL_NONE) return; /* the die is out of blocks: the unit stays where it was */
    ftl_map_unit(&d->f, out, ppa, false);
    fill_program_unit(d, die, STREAM_MAP, ppa, 1);
    after_alloc(d, die);
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
        uint32_t at = d->f.map_loc[p];
        /* never written (nothing mapped in its range yet), or still in the
         * buffer: no flash read */
        if (at == FTL_NONE || ftl_offset_of(&d->f, at) >= d->programmed[ftl_block_of(&d->f, at)]) {
            map_insert(d, p, false);
            continue;
        }
        d->map_misses++;
        txn *t = new_txn(d, TX_MAP_READ, ftl_die_of(&d->f, at), at, 1);
        t->tu = p;
        t->req = r;
        die_enqueue(d, t, CLASS_READ);
        return false;
    }
    return true;
}

