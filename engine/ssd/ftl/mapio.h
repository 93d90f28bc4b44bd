/* The DRAM-less mapping's flash I/O. The mapping table lives in flash in
 * translation units (one mapping unit each) in blocks of their own
 * stream; the controller caches some of them (mapcache.h). A command whose
 * translation unit is not cached waits while it is read from flash; a
 * dirty unit pushed out of the cache is written to a new place
 * (programmed with the die's next program unit of translation units), and
 * GC moves translation units to blocks of translation units of their own
 * (ftl_gc_stream). A drive whose whole table is in
 * DRAM writes its changed units to flash the same way when given a dirty
 * limit (ftl.map_dirty_limit): its cache then holds the dirty units only,
 * and no command waits for a read. */
#ifndef SSDLAB_MAPIO_H
#define SSDLAB_MAPIO_H

#include "flash.h"
#include "ftl.h"
#include "mapcache.h"
#include "progunit.h"
#include "reclaim.h"

typedef struct mapio {
    const ssd_params *p;
    ftl *f;
    flash *fl;
    progunits *pu;
    reclaim *rc;
    mapcache cache;
    uint64_t misses, writebacks;
    /* Write-backs owed: units pushed out dirty when their die had no block
     * they may take, queued per die and written once it frees one
     * (mapio_pay_owed). Die d's queue is a ring of owed_cap entries from
     * owed_ring + d * owed_cap, its share of the units (each owed at most
     * once, so it never overflows): in an array, the units paid next are
     * known ahead and their places fetched while earlier ones are written.
     * owed_bits: one bit a unit, set while it is owed. */
    uint32_t *owed_ring, *owed_first, *owed_count, owed_cap;
    uint64_t *owed_bits;
    uint64_t owed, owed_merged; /* owed now; write-backs asked of a unit owed already */
    /* The request waiting for a translation unit may go on (wired at assembly). */
    void (*resume)(void *ctx, ssdlab_request *r);
    void *resume_ctx;
} mapio;

int mapio_init(mapio *m, ftl *f, flash *fl, progunits *pu, reclaim *rc);
void mapio_free(mapio *m);
enum { MAPIO_NOT_OWED = UINT32_MAX };
/* The die a translation unit is written to (round-robin over the dies). */
static inline uint32_t mapio_die_of(const mapio *m, uint32_t tu) { return tu % m->p->dies; }
/* Translation unit tu, dirty and pushed out of the cache, counts as a
 * write-back and takes a new place on its die: returns the die and the
 * place (*ppa_out). When the die has no block it may take (host data and
 * write-backs leave the GC reserve alone), the unit is owed instead (once,
 * however often it is pushed out meanwhile), and FTL_NONE is returned:
 * firmware cannot drop a changed piece of its table, and dropped, most
 * write-backs went unwritten where GC keeps the dies at the reserve (65 %
 * on the 1 TiB DRAM-less bench drive; docs/ssd-model.md). Its program is
 * the caller's (timed here, none on the wear path). */
uint32_t mapio_place_writeback(mapio *m, uint32_t tu, uint32_t *ppa_out);
/* The next unit the die owes, placed (as mapio_place_writeback, not
 * counted again): its translation unit, or MAPIO_NOT_OWED when the die
 * owes none or still has no room. */
uint32_t mapio_place_owed(mapio *m, uint32_t die, uint32_t *ppa_out);
/* Writes what the dies owe while they have room, each with the die's next
 * program unit of translation units (the timed path, once GC frees a
 * block). */
void mapio_pay_owed(mapio *m);
/* Whether what the dies owe is consistent: each queued unit is its own
 * die's and marked owed, and the marks, the queues and the count agree.
 * Returns 0, or -1 with what is wrong in err. */
int mapio_check(const mapio *m, char *err, size_t errlen);
/* Marks the translation units of logical units [lpn, lpn + n) dirty. */
void mapio_dirty(mapio *m, uint32_t lpn, uint32_t n);
/* Translation units of [lpn, lpn + n) a change must read from the flash
 * first: held there and not cached. Changes nothing. */
uint32_t mapio_uncached(const mapio *m, uint32_t lpn, uint32_t n);
/* True when every translation unit of [lpn, lpn + n) is cached; else reads
 * the first missing one for r from flash and returns false (r resumes
 * through the resume callback once it is in). */
bool mapio_ready(mapio *m, ssdlab_request *r, uint32_t lpn, uint32_t n);
/* What the next evictions from the cache touch, fetched ahead (after each
 * insertion). Changes nothing. */
void mapio_prefetch_evictions(const mapio *m);
/* The translation unit that holds logical unit lpn's mapping entry. */
static inline uint32_t mapio_page_of(const mapio *m, uint32_t lpn) { return divide(m->p->map_page_of, lpn); }
/* Asks the cache for where logical unit lpn's translation unit is, which
 * mapio_ready reads when the unit is not cached: a command's admission
 * calls it, as it fetches the mapping entry. Changes nothing. */
static inline void mapio_prefetch_place(const mapio *m, uint32_t lpn)
{
    if (m->p->map_cached) __builtin_prefetch(&m->f->map_loc[mapio_page_of(m, lpn)]);
}
/* Completion of a translation-unit read (wired at assembly). */
void mapio_read_done(void *ctx, txn *t);

#endif
