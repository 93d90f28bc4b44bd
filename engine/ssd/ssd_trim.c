/* TRIM: deallocation and its firmware cost (free, blocking, throttled,
 * deferred to idle time). */
#include "ssd_internal.h"

/* --- TRIM ---------------------------------------------------------------- */

void trim_clear(ssd *d, uint32_t lpn)
{
    uint64_t bit = UINT64_C(1) << (lpn & 63);
    if (d->trim_pending[lpn >> 6] & bit) {
        d->trim_pending[lpn >> 6] &= ~bit;
        d->trim_pending_units--;
    }
}

void start_trim_worker(ssd *d)
{
    if (d->trim_worker || (!d->trim_backlog && !(d->trim_pending_units && d->idle))) return;
    d->trim_worker = true;
    sim_schedule_in(d->s, 0, d->on_trim_work, d, 0);
}

/* Throttled: a chunk of work holds the least busy core, then leaves it to
 * commands for long enough that the work takes trim_share of its time.
 * Deferred (in idle time only): the pending units of the next chunk of
 * work are unmapped, and so become reclaimable. */
void on_trim_work(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)obj;
    ssd *d = ctx;
    sim_time_t now = sim_now(s);
    if (d->trim_backlog) {
        sim_time_t chunk = d->trim_backlog < d->p.trim_chunk ? d->trim_backlog : d->p.trim_chunk;
        uint32_t best = 0;
        for (uint32_t c = 1; c < d->p.cores; c++)
            if (d->core_free[c] < d->core_free[best]) best = c;
        sim_time_t start = max_time(now, d->core_free[best]);
        d->core_free[best] = start + chunk;
        d->trim_backlog -= chunk;
        sim_time_t gap = (sim_time_t)((double)chunk * (1 - d->p.trim_share) / d->p.trim_share);
        sim_schedule_at(s, start + chunk + gap, d->on_trim_work, d, 0);
        return;
    }
    /* Deferred: `arg` units of work were scheduled to end now; apply them,
     * then schedule the next chunk while the drive stays idle. */
    for (uint64_t left = arg; left && d->trim_pending_units;) {
        uint64_t w = d->trim_cursor % ((d->p.logical_units + 63) / 64);
        while (d->trim_pending[w] && left) {
            uint32_t lpn = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(d->trim_pending[w]));
            trim_clear(d, lpn);
            ftl_trim(&d->f, lpn);
            left--;
        }
        if (!d->trim_pending[w]) d->trim_cursor = w + 1;
    }
    if (d->trim_pending_units && d->idle) {
        sim_time_t per_unit = (sim_time_t)(d->p.trim_ns_per_byte * d->p.unit) + 1;
        uint64_t n = d->p.trim_chunk / per_unit + 1;
        if (n > d->trim_pending_units) n = d->trim_pending_units;
        sim_schedule_in(s, n * per_unit, d->on_trim_work, d, n);
        return;
    }
    d->trim_worker = false;
}

void trim(ssd *d, ssdlab_request *r)
{
    uint32_t n = units_of(d, r), lpn0 = first_unit(d, r);
    sim_time_t now = sim_now(d->s);
    sim_time_t work = (sim_time_t)(d->p.trim_ns_per_byte * (double)n * d->p.unit);
    if (d->p.trim == TRIM_DEFERRED) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t lpn = lpn0 + i;
            if (ftl_lookup(&d->f, lpn) == FTL_NONE || trim_is_pending(d, lpn)) continue;
            d->trim_pending[lpn >> 6] |= UINT64_C(1) << (lpn & 63);
            readcache_invalidate(&d->rcache, lpn);
            d->trim_pending_units++;
        }
        complete_at(d, r, now);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        ftl_trim(&d->f, lpn0 + i);
        readcache_invalidate(&d->rcache, lpn0 + i);
    }
    if (d->p.trim == TRIM_BLOCKING) {
        /* Every core is held: no command is served until the work is done. */
        sim_time_t start = now;
        for (uint32_t c = 0; c < d->p.cores; c++) start = max_time(start, d->core_free[c]);
        for (uint32_t c = 0; c < d->p.cores; c++) d->core_free[c] = start + work;
        complete_at(d, r, start + work);
        return;
    }
    if (d->p.trim == TRIM_THROTTLED) {
        d->trim_backlog += work;
        start_trim_worker(d);
    }
    complete_at(d, r, now);
}

