/* The DRAM-less mapping's flash I/O. The mapping table lives in flash in
 * translation units (one mapping unit each) in blocks of their own
 * stream; the controller caches some of them (mapcache.h). A command whose
 * translation unit is not cached waits while it is read from flash; a
 * dirty unit pushed out of the cache is written to a new place
 * (programmed with the die's next program unit of translation units), and
 * GC moves translation units like data. A drive whose whole table is in
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
    /* The request waiting for a translation unit may go on (wired at assembly). */
    void (*resume)(void *ctx, ssdlab_request *r);
    void *resume_ctx;
} mapio;

int mapio_init(mapio *m, ftl *f, flash *fl, progunits *pu, reclaim *rc);
void mapio_free(mapio *m);
/* Translation unit tu, dirty and pushed out of the cache, takes a new
 * place on its die (round-robin over the dies) and counts as a write-back:
 * returns the die and the place (*ppa_out), or FTL_NONE when the die is
 * out of blocks and the unit stays where it was. Its program is the
 * caller's (timed here, none on the wear path). */
uint32_t mapio_place_writeback(mapio *m, uint32_t tu, uint32_t *ppa_out);
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
