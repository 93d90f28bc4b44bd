#include "trim.h"

/* The work of trimming n units after map_reads translation-unit reads:
 * given per GiB, or derived (params.c). */
static sim_time_t trim_work_of(const ssd_params *p, uint32_t n, uint32_t map_reads)
{
    if (p->trim_ns_per_byte > 0) return (sim_time_t)(p->trim_ns_per_byte * (double)n * p->unit);
    return (sim_time_t)n * p->trim_unit_ns + (sim_time_t)map_reads * p->trim_map_read_ns;
}

void trim_start_worker(trim_work *t)
{
    if (t->worker || (!t->backlog && !(t->tm->pending && *t->idle))) return;
    t->worker = true;
    sim_schedule_in(t->s, 0, t->on_work, t, 0);
}

/* Throttled: a chunk of work holds the least busy core, then leaves it to
 * commands for long enough that the work takes trim_share of its time. */
static void throttled_chunk(trim_work *t, sim_time_t now)
{
    sim_time_t chunk = t->backlog < t->p->trim_chunk ? t->backlog : t->p->trim_chunk;
    sim_time_t end = datapath_firmware(t->dp, now, chunk);
    t->backlog -= chunk;
    sim_time_t gap = (sim_time_t)((double)chunk * (1 - t->p->trim_share) / t->p->trim_share);
    sim_schedule_at(t->s, end + gap, t->on_work, t, 0);
}

/* Deferred (in idle time only): `done` units of work were scheduled to end
 * now; they are deallocated, and so become reclaimable; then the next
 * chunk is scheduled while the drive stays idle. */
static void on_work(sim *s, void *ctx, void *obj, uint64_t done)
{
    (void)obj;
    trim_work *t = ctx;
    if (t->backlog) {
        throttled_chunk(t, sim_now(s));
        return;
    }
    trimmap_apply(t->tm, t->f, done);
    if (t->tm->pending && *t->idle) {
        sim_time_t per_unit = trim_work_of(t->p, 1, 0) + 1;
        uint64_t n = t->p->trim_chunk / per_unit + 1;
        if (n > t->tm->pending) n = t->tm->pending;
        sim_schedule_in(s, n * per_unit, t->on_work, t, n);
        return;
    }
    t->worker = false;
}

void trim_init(trim_work *t, sim *s, ftl *f, buffer *buf, trimmap *tm, datapath *dp, const bool *idle)
{
    *t = (trim_work){.s = s, .p = f->p, .f = f, .buf = buf, .tm = tm, .dp = dp, .idle = idle};
    t->on_work = sim_register_handler(s, "trim.work", on_work, t);
}

sim_time_t trim_command(trim_work *t, uint32_t lpn0, uint32_t n, uint32_t map_reads)
{
    sim_time_t now = sim_now(t->s);
    sim_time_t work = trim_work_of(t->p, n, map_reads);
    if (t->p->trim == TRIM_DEFERRED) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t lpn = lpn0 + i;
            if (ftl_lookup(t->f, lpn) == FTL_NONE || trimmap_has(t->tm, lpn)) continue;
            trimmap_mark(t->tm, lpn);
            buffer_forget(t->buf, lpn);
        }
        return now;
    }
    for (uint32_t i = 0; i < n; i++) {
        ftl_trim(t->f, lpn0 + i);
        buffer_forget(t->buf, lpn0 + i);
    }
    if (t->p->trim == TRIM_BLOCKING) {
        return datapath_firmware_all(t->dp, now, work);
    }
    if (t->p->trim == TRIM_THROTTLED) {
        t->backlog += work;
        trim_start_worker(t);
    }
    return now;
}
