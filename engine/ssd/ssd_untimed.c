/* The untimed paths: the preconditioning and the wear phases write
 * through the FTL's fast path (no events), then leave the drive settled
 * for the timed model. */
#include "ssd.h"
#include "ssd_parts.h"

#include "fastpath.h"

/* --- after the fast path ---------------------------------------------------- */

static void mark_programmed(void *ctx, uint32_t block, uint32_t units) { flash_set_programmed(ctx, block, units); }

/* The firmware's idle work has had its time, as it would have before any
 * test: background GC has collected to its threshold (the SLC cache is
 * empty already: the fast path writes native blocks). Everything written
 * is programmed; the program units the fast path left part-filled are
 * too, so the timed model starts on fresh program units. */
static void settle_after_fast_path(ssd *d)
{
    for (uint32_t die = 0; die < d->p.dies; die++) ftl_collect_idle(&d->f, die);
    size_t nblocks = (size_t)d->p.dies * d->p.blocks_per_die;
    for (size_t b = 0; b < nblocks; b++) {
        flash_set_programmed(&d->fl, (uint32_t)b, d->f.blocks[b].write_ptr);
        flash_sync_media(&d->fl, (uint32_t)b, d->f.blocks[b].erase_count, d->f.blocks[b].write_ptr);
    }
    ftl_close_partial_units(&d->f, mark_programmed, &d->fl);
    metrics_start_timed(&d->m);
}

/* --- the wear path ---------------------------------------------------------- */

bool ssd_wear_prepare(ssd *d) { return progunit_pad_all(&d->pu) > 0; }

int ssd_wear_begin(ssd *d)
{
    if (!d->p.map_persisted) return 0;
    if (mapwear_init(&d->wear, &d->map)) return -1;
    d->f.fast_relocated = mapwear_relocated;
    d->f.fast_ctx = &d->wear;
    d->f.fast_relocated_group = d->p.map_page_of;
    return 0;
}

/* 32 before; 8, 16 and 64 in pairs on the wear (which used it until it
 * was fetched by the chunk): 16 and 8 alike, 64 slower */
enum { WRITE_AHEAD = 16 };

/* What overwrite j of lpns[0..n) is to touch, fetched ahead so that the
 * cache misses of later writes overlap. */
static inline void fetch_ahead(ssd *d, const uint32_t *lpns, size_t n, size_t j)
{
    if (j + 2 * WRITE_AHEAD < n) ftl_prefetch_write(&d->f, lpns[j + 2 * WRITE_AHEAD]);
    /* The old places of the next WRITE_AHEAD writes (their entries
     * fetched above), loaded together: prefetched one at a time, the
     * clear of each old valid bit still waited (three quarters of the
     * host write's samples, TR200 480 wear); loads issued at once overlap. */
    if (j % WRITE_AHEAD == 0) ftl_warm_old(&d->f, lpns + j, (uint32_t)(n - j < WRITE_AHEAD ? n - j : WRITE_AHEAD));
}

/* The wear's writes are fetched for a chunk at a time, by the cache lines
 * they touch rather than by the unit (ftl_prefetch_entries): a request's
 * units share lines, and a fetch per unit a fixed number of units ahead
 * had few lines under way at once. 64, 128 and 512 alike on the TR200
 * 480's wear to 1.5 %. */
enum { WEAR_CHUNK = 128 };

/* Fetches for the chunk of lpns[0..n) that starts at `from`: the old
 * places of its writes, whose entries came with the chunk before, and the
 * entries of the chunk after it. Returns where the next chunk starts. */
static size_t fetch_chunk(ssd *d, const uint32_t *lpns, size_t n, size_t from)
{
    size_t next = from + WEAR_CHUNK < n ? from + WEAR_CHUNK : n;
    size_t after = next + WEAR_CHUNK < n ? next + WEAR_CHUNK : n;
    ftl_prefetch_entries(&d->f, lpns + next, after - next);
    ftl_prefetch_old_places(&d->f, lpns + from, next - from);
    return next;
}

/* The wear phase's writes of lpns in turn, through the fast path, counted
 * as host bytes, with the DRAM-less mapping cache kept. A run of
 * consecutive units (a request of several) is written a program unit's
 * rest at a time where each would go without a choice
 * (ftl_write_now_within), and dirties its translation unit once where the
 * calls after each would change nothing (mapwear_quiet). Returns the
 * units written (fewer only when no die can take one). */
static size_t wear_now(ssd *d, const uint32_t *lpns, size_t n)
{
    bool mapped = mapwear_on(&d->wear);
    size_t fetched = 0, end = 0; /* lpns[i..end) are consecutive */
    ftl_prefetch_entries(&d->f, lpns, n < WEAR_CHUNK ? n : WEAR_CHUNK); /* the first chunk's */
    for (size_t i = 0; i < n;) {
        if (end <= i)
            for (end = i + 1; end < n && lpns[end] == (uint64_t)lpns[end - 1] + 1;) end++;
        size_t run = end - i;
        if (mapped) run = mapwear_quiet(&d->wear, lpns[i], run);
        while (fetched < i + run) fetched = fetch_chunk(d, lpns, n, fetched);
        size_t done = ftl_write_now_within(&d->f, lpns[i], run);
        if (!done) {
            if (ftl_write_now(&d->f, lpns[i])) return i;
            done = 1;
        }
        i += done;
        /* host bytes, so that write amplification has its denominator;
         * no command completes: nothing was timed */
        d->m.ops.bytes[SSDLAB_WRITE] += done * d->p.unit;
        if (!mapped) continue;
        mapwear_dirty(&d->wear, lpns[i - done]);
        mapwear_collect(&d->wear);
    }
    return n;
}

size_t ssd_wear(ssd *d, const uint32_t *lpns, size_t n) { return wear_now(d, lpns, n); }

void ssd_wear_end(ssd *d)
{
    /* idle GC's moves dirty translation units too, as in the timed path */
    for (uint32_t die = 0; die < d->p.dies; die++) ftl_collect_idle(&d->f, die);
    if (mapwear_on(&d->wear)) mapwear_collect(&d->wear);
    d->f.fast_relocated = NULL;
    mapwear_free(&d->wear);
    settle_after_fast_path(d);
}

uint64_t ssd_host_units_ever(const ssd *d) { return d->f.units_written[STREAM_HOST]; }

/* --- preconditioning -------------------------------------------------------- */

/* The preconditioning's random overwrites, through the fast path one at
 * a time: random units make no runs, and looking for them took a tenth
 * more instructions (callgrind, a 24 GB drive's steady preconditioning). */
static void overwrite_now(ssd *d, const uint32_t *lpns, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fetch_ahead(d, lpns, n, i);
        if (ftl_write_now(&d->f, lpns[i])) return;
    }
}

void ssd_precondition(ssd *d, uint64_t overwrites, gsl_rng *rng)
{
    ftl_write_now_range(&d->f, 0, d->p.logical_units);
    /* random overwrites, drawn a batch at a time (one draw per write, in order) */
    uint32_t batch[4096];
    for (uint64_t done = 0; done < overwrites;) {
        size_t k = overwrites - done < 4096 ? (size_t)(overwrites - done) : 4096;
        for (size_t i = 0; i < k; i++) batch[i] = (uint32_t)gsl_rng_uniform_int(rng, d->p.logical_units);
        overwrite_now(d, batch, k);
        done += k;
    }
    /* A drive that keeps its mapping table in flash (DRAM-less, or a DRAM
     * table with a dirty limit) has written all of it out too. */
    for (uint32_t tu = 0; tu < d->f.map_units; tu++) {
        uint32_t die = tu % d->p.dies, ppa = ftl_alloc(&d->f, die, STREAM_MAP);
        if (ppa == FTL_NONE) break;
        ftl_map_unit(&d->f, tu, ppa, false);
        if (ftl_free_blocks(&d->f, die) <= d->p.gc_threshold) ftl_collect_now(&d->f, die);
    }
    settle_after_fast_path(d);
}
