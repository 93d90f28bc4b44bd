#include "buffer.h"

int buffer_init(buffer *b, ftl *f, flash *fl, progunits *pu, reclaim *rc, mapio *map, trimmap *tm)
{
    const ssd_params *p = f->p;
    *b = (buffer){.p = p, .f = f, .fl = fl, .pu = pu, .rc = rc, .map = map, .tm = tm};
    b->units = p->write_buffer / p->unit;
    return readcache_init(&b->cache, p->read_cache / p->unit);
}

void buffer_free(buffer *b) { readcache_free(&b->cache); }

void buffer_set_hooks(buffer *b, const buffer_hooks *h) { b->hooks = *h; }

/* --- writes ---------------------------------------------------------------- */

static void start_data_in(buffer *b, ssdlab_request *r)
{
    b->used += req_units(b->p, r);
    b->hooks.move_in(b->hooks.ctx, r);
}

static bool head_fits(const buffer *b)
{
    return b->waiting.head && b->used + req_units(b->p, b->waiting.head) <= b->units;
}

/* Lets the waiting writes in while they fit, a batch at a time. Each
 * batch's tables (its mapping entries, then its old places' valid bits
 * and blocks) are loaded together first, when warming pays: the writes
 * waited for room since the host's lookahead warmed them, and the lines
 * are gone by now; loaded one by one at placing, each write's chain of
 * misses stalled the run (perf, 128 GiB steady write: a fifth of the
 * samples on the old valid bit's clear). The loads change nothing. */
static void admit_waiting(buffer *b)
{
    while (head_fits(b)) {
        ssdlab_request *in[FTL_WARM_MAX];
        uint32_t lpns[FTL_WARM_MAX], n = 0;
        do {
            ssdlab_request *r = req_pop(&b->waiting);
            b->used += req_units(b->p, r);
            lpns[n] = req_first_unit(b->p, r);
            in[n++] = r;
        } while (n < FTL_WARM_MAX && head_fits(b));
        if (ftl_warm_pays(b->f)) {
            ftl_warm(b->f, lpns, n);
            ftl_warm_old(b->f, lpns, n);
            b->admits_warmed += n;
        }
        for (uint32_t i = 0; i < n; i++) b->hooks.move_in(b->hooks.ctx, in[i]);
    }
}

/* The die and stream for the next host program unit: the SLC cache while
 * it has room, else native blocks (or, with foreground folding, nothing
 * until folding frees an SLC block). A dynamic cache on a full drive may
 * have no blocks at all: then there is nothing to fold, and writes go to
 * native blocks. */
static uint32_t host_target(buffer *b, const ssdlab_request *r, ftl_stream *s)
{
    if (b->p->fdp_handles) { /* flexible data placement: the handle's reclaim units */
        *s = ftl_host_stream(r->placement);
        return ftl_host_die(b->f, *s);
    }
    if (b->p->slc != SLC_NONE) {
        uint32_t die = ftl_slc_die(b->f);
        if (die != FTL_NONE) {
            *s = STREAM_SLC;
            return die;
        }
        if (b->p->slc_fold_when_full && reclaim_start_folds(b->rc)) return FTL_NONE;
    }
    /* the FTL's own hot/cold guess: small writes apart (a stream FDP would give handle 1) */
    *s = r->bytes < b->p->hot_write_size ? ftl_host_stream(1) : STREAM_HOST;
    return ftl_host_die(b->f, *s);
}

/* Maps `got` units of r, from its unit `done` on, at ppa. */
static void map_run(buffer *b, ssdlab_request *r, uint32_t done, uint32_t ppa, uint32_t got)
{
    uint32_t lpn0 = req_first_unit(b->p, r) + done;
    for (uint32_t k = 0; k < got; k++) ftl_map(b->f, lpn0 + k, ppa + k, false);
    if (b->tm->pending)
        for (uint32_t k = 0; k < got; k++) trimmap_clear(b->tm, lpn0 + k);
    if (b->map) mapio_dirty(b->map, lpn0, got);
    if (b->cache.sets)
        for (uint32_t k = 0; k < got; k++) readcache_invalidate(&b->cache, lpn0 + k);
}

/* A zoned write goes where its zone's layout puts it: never stalled, and
 * with no conventional mapping structures (the zone map is the firmware's
 * own, small and in SRAM). */
static void place_zoned(buffer *b, ssdlab_request *r, uint32_t n)
{
    req_state *st = req_priv(r);
    uint32_t lpn0 = req_first_unit(b->p, r);
    while (st->placed < n) {
        uint32_t got, die, lpn = lpn0 + st->placed;
        uint32_t ppa = zoneio_alloc_run(b->zio, lpn, n - st->placed, &got, &die);
        for (uint32_t k = 0; k < got; k++) ftl_map(b->f, lpn + k, ppa + k, false);
        if (b->cache.sets)
            for (uint32_t k = 0; k < got; k++) readcache_invalidate(&b->cache, lpn + k);
        zoneio_add(b->zio, lpn, die, ppa, got);
        st->placed += got;
    }
}

/* Places the units of a write whose data is in the buffer, a program
 * unit's worth at a time. Returns false when no die can take them now: the
 * rest waits for an erase. */
static bool place_write(buffer *b, ssdlab_request *r)
{
    uint32_t n = req_units(b->p, r);
    req_state *st = req_priv(r);
    if (zoneio_covers(b->zio, req_first_unit(b->p, r))) return place_zoned(b, r, n), true;
    while (st->placed < n) {
        ftl_stream s;
        uint32_t die = host_target(b, r, &s);
        if (die == FTL_NONE) return false;
        uint32_t got;
        uint32_t ppa = ftl_alloc_run(b->f, die, s, n - st->placed, &got);
        b->f->handle_host[r->placement] += got;
        if (s == STREAM_SLC) b->slc_units_written += got;
        ftl_burst_host(b->f, die, got);
        map_run(b, r, st->placed, ppa, got);
        if ((ftl_offset_of(b->f, ppa) + got) % ftl_program_units(b->f, ftl_block_of(b->f, ppa)) == 0)
            ftl_advance_host_die(b->f);
        progunit_add(b->pu, die, s, ppa, got);
        reclaim_after_alloc(b->rc, die);
        st->placed += got;
    }
    return true;
}

void buffer_data_in(buffer *b, ssdlab_request *r)
{
    if (b->stalled.head || !place_write(b, r)) {
        req_push(&b->stalled, r);
        return;
    }
    b->hooks.done(b->hooks.ctx, r);
}

bool buffer_retry_stalled(void *ctx)
{
    buffer *b = ctx;
    while (b->stalled.head) {
        if (!place_write(b, b->stalled.head)) return true;
        b->hooks.done(b->hooks.ctx, req_pop(&b->stalled));
    }
    return false;
}

/* Whether the unit lpn's data must come from the flash: it is mapped,
 * programmed (not still in the buffer) and not trimmed-pending. */
static bool in_flash(const buffer *b, uint32_t lpn, uint32_t ppa)
{
    return ppa != FTL_NONE && flash_programmed(b->fl, ppa) && !trimmap_has(b->tm, lpn);
}

/* A write that covers part of a mapping unit must merge the rest of the
 * unit's old data: the edge units held in flash are read first
 * (read-modify-write). Returns true when such reads were issued. */
static bool read_partial_edges(buffer *b, ssdlab_request *r)
{
    uint32_t unit = b->p->unit;
    uint32_t head = req_first_unit(b->p, r), tail = (uint32_t)((r->offset + r->bytes - 1) / unit);
    bool head_partial = r->offset % unit != 0, tail_partial = (r->offset + r->bytes) % unit != 0;
    uint32_t edges[2], n = 0;
    if (head_partial) edges[n++] = head;
    if (tail_partial && (tail != head || !head_partial)) edges[n++] = tail;
    req_state *st = req_priv(r);
    st->pending = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ppa = ftl_lookup(b->f, edges[i]);
        if (!in_flash(b, edges[i], ppa)) continue; /* nothing to merge, or the old data is in the buffer */
        txn *t = flash_txn(b->fl, TX_RMW_READ, ftl_die_of(b->f, ppa), ppa, 1);
        t->req = r;
        st->pending++;
        flash_submit(b->fl, t);
    }
    return st->pending > 0;
}

void buffer_write(buffer *b, ssdlab_request *r)
{
    req_state *st = req_priv(r);
    if (!st->merged && read_partial_edges(b, r)) return;
    st->placed = 0;
    if (!b->waiting.head && b->used + req_units(b->p, r) <= b->units) start_data_in(b, r);
    else req_push(&b->waiting, r);
}

/* --- reads ----------------------------------------------------------------- */

/* Asks the flash for units [lpn0, lpn0 + n) that are in flash and not in
 * the read cache, a page's run per transaction: for the request r, or, with
 * r NULL, ahead of a sequential reader (the data goes to the cache).
 * Returns the transactions issued. */
static uint32_t read_units(buffer *b, ssdlab_request *r, uint32_t lpn0, uint32_t n)
{
    uint32_t upp = b->p->units_per_page, issued = 0;
    txn *open = NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ppa = ftl_lookup(b->f, lpn0 + i);
        /* Never written, trimmed (even if not yet processed), or still in
         * the write buffer: no flash. */
        if (!in_flash(b, lpn0 + i, ppa)) continue;
        if (b->cache.sets && readcache_lookup(&b->cache, lpn0 + i)) {
            if (r) b->cache_hits++;
            continue;
        }
        if (open && ppa == open->ppa + open->units && ppa / upp == open->ppa / upp) {
            open->units++;
            open->lpn_last = lpn0 + i;
            continue;
        }
        if (open) flash_submit(b->fl, open);
        open = flash_txn(b->fl, r ? TX_READ : TX_PREFETCH, ftl_die_of(b->f, ppa), ppa, 1);
        open->req = r;
        open->lpn = open->lpn_last = lpn0 + i;
        issued++;
    }
    if (open) flash_submit(b->fl, open);
    return issued;
}

/* Sequential read-ahead (controller.read_ahead): a read that starts where
 * the last one ended has the next read_ahead bytes fetched into the read
 * cache, so a reader at queue depth 1 finds its next request waiting. A
 * reader with other reads at the flash already has its next data coming:
 * its queue is its read-ahead, and fetching the same units again would
 * only take the channels from it. */
static void read_ahead(buffer *b, uint32_t lpn0, uint32_t n)
{
    bool sequential = lpn0 == b->read_end;
    b->read_end = lpn0 + n;
    if (!b->p->read_ahead_units || !sequential || b->reads_at_flash) return;
    uint32_t from = b->prefetched_to > b->read_end ? b->prefetched_to : b->read_end;
    uint64_t to = (uint64_t)b->read_end + b->p->read_ahead_units;
    if (to > b->p->logical_units) to = b->p->logical_units;
    if (from >= to) return;
    read_units(b, NULL, from, (uint32_t)(to - from));
    b->prefetched_to = (uint32_t)to;
}

void buffer_read(buffer *b, ssdlab_request *r)
{
    uint32_t n = req_units(b->p, r), lpn0 = req_first_unit(b->p, r);
    req_state *st = req_priv(r);
    st->pending = read_units(b, r, lpn0, n);
    read_ahead(b, lpn0, n);
    if (!st->pending) b->hooks.done(b->hooks.ctx, r);
    else b->reads_at_flash++;
}

/* --- flash completions ----------------------------------------------------- */

/* The units a read brought in go to the read cache, unless rewritten, moved
 * or trimmed meanwhile. A run's units are consecutive in flash and rising
 * in logical order, not always consecutive (a unit the cache or the buffer
 * held was skipped), so each still-valid unit's logical unit is found
 * after the one before. */
static void cache_what_was_read(buffer *b, const txn *t)
{
    uint32_t lpn = t->lpn;
    for (uint32_t k = 0; k < t->units; k++) {
        uint32_t ppa = t->ppa + k;
        if (!ftl_valid(b->f, ppa)) continue;
        while (lpn <= t->lpn_last && ftl_lookup(b->f, lpn) != ppa) lpn++;
        if (lpn > t->lpn_last) return;
        readcache_insert(&b->cache, lpn++);
    }
}

void buffer_read_done(void *ctx, txn *t)
{
    buffer *b = ctx;
    ssdlab_request *r = t->req;
    if (b->cache.sets) cache_what_was_read(b, t);
    bool prefetch = t->kind == TX_PREFETCH;
    if (t->ecc_failed && !prefetch) r->status = SSDLAB_STATUS_UNRECOVERED_READ;
    flash_txn_free(b->fl, t);
    if (prefetch) return; /* read ahead: the data waits in the cache */
    if (--req_priv(r)->pending == 0) {
        b->reads_at_flash--;
        b->hooks.done(b->hooks.ctx, r);
    }
}

void buffer_merge_read_done(void *ctx, txn *t)
{
    buffer *b = ctx;
    ssdlab_request *waiting = t->req;
    flash_txn_free(b->fl, t);
    req_state *st = req_priv(waiting);
    if (--st->pending == 0) {
        st->merged = 1;
        b->hooks.merged(b->hooks.ctx, waiting);
    }
}

void buffer_program_done(void *ctx, txn *t)
{
    buffer *b = ctx;
    if (t->stream == STREAM_ZONE) zoneio_program_done(b->zio, t);
    if (ftl_stream_is_host((ftl_stream)t->stream)) { /* host data leaves the buffer */
        b->used -= t->units - t->padding;
        admit_waiting(b);
    }
    flash_txn_free(b->fl, t);
}
