#include "replay.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "reqpool.h"
#include "stats.h"
#include "submit.h"
#include "tenant.h"
#include "trace_feed.h"

/* What ends a replay besides the trace's end, as for a synthetic phase
 * (workload.warmup, requests, duration, bytes, drive_writes). */
typedef struct bounds {
    uint64_t warmup, target, byte_target, write_target;
    sim_time_t duration;
    bool loop;
} bounds;

struct replay {
    sim *s;
    ssd *d;
    trace_feed *feed;
    bounds b;
    bool measuring, stopping;
    bool runs_to_stop_at; /* a timed replay whose next record lies past its duration lasts the duration */
    sim_time_t measure_start, stop_at;
    uint64_t bytes_issued, written_issued, bytes_done, written;
    bool timed;
    double time_scale;
    uint32_t depth;
    placement place;    /* the FDP handle of each request */
    sim_handler_id on_arrival;
    sim_time_t start;
    reqpool pool;
    trace_record next;
    bool have_next, trace_done, failed;
    uint64_t issued, completed;
    tenant_stats *tenants; /* workload.tenants=devices: one per device, in order of appearance; or NULL */
    uint32_t tenant_ids[STATS_DEVICES], tenant_count, queues;
    char err[600];
};

static void fail(replay *p, const char *msg)
{
    snprintf(p->err, sizeof p->err, "%s", msg);
    p->failed = true;
    p->trace_done = true;
}

/* The next record to replay, into p->next. */
static bool load_next(replay *p)
{
    if (p->trace_done) return false;
    int rc = trace_feed_next(p->feed, &p->next);
    if (rc == 1) return true;
    if (rc < 0) fail(p, trace_feed_error(p->feed));
    p->trace_done = true;
    return false;
}

static void on_done(ssdlab_request *r, void *ctx);

/* --- bounds ----------------------------------------------------------------- */

static void start_measuring(replay *p)
{
    p->measuring = true;
    p->measure_start = sim_now(p->s);
    if (p->b.duration) p->stop_at = p->measure_start + p->b.duration;
    ssd_reset_stats(p->d);
    for (uint32_t k = 0; p->tenants && k < STATS_DEVICES; k++) tenant_stats_reset(&p->tenants[k], p->measure_start);
}

/* A device's place among the tenants (the last place holds the devices
 * past STATS_DEVICES). */
static uint32_t tenant_of(replay *p, uint32_t device)
{
    for (uint32_t k = 0; k < p->tenant_count; k++)
        if (p->tenant_ids[k] == device) return k;
    if (p->tenant_count == STATS_DEVICES) return STATS_DEVICES - 1;
    p->tenant_ids[p->tenant_count] = device;
    return p->tenant_count++;
}

static bool limits_reached(const replay *p)
{
    return (p->b.target && p->completed - p->b.warmup >= p->b.target) || (p->stop_at && sim_now(p->s) >= p->stop_at) ||
           (p->b.byte_target && p->bytes_done >= p->b.byte_target) || (p->b.write_target && p->written >= p->b.write_target);
}

/* A request or byte budget stops issuing once it is spoken for, so the
 * requests in flight do not overshoot it. */
static bool budget_spent(const replay *p)
{
    return p->stopping || (p->b.target && p->issued >= p->b.warmup + p->b.target) ||
           (p->b.byte_target && p->measuring && p->bytes_issued >= p->b.byte_target) ||
           (p->b.write_target && p->measuring && p->written_issued >= p->b.write_target);
}

/* Nothing more is to be issued and nothing is in flight: the phase ends. */
static void maybe_stop(replay *p)
{
    if (p->runs_to_stop_at && sim_now(p->s) < p->stop_at) return;
    bool no_more = budget_spent(p) || (p->trace_done && !p->have_next);
    if (no_more && p->completed == p->issued) sim_request_stop(p->s);
}

/* --- issuing ---------------------------------------------------------------- */

static void submit(replay *p, ssdlab_request *r)
{
    static const ssdlab_op ops[] = {[TRACE_READ] = SSDLAB_READ,         [TRACE_WRITE] = SSDLAB_WRITE,
                                    [TRACE_TRIM] = SSDLAB_TRIM,         [TRACE_ZONE_APPEND] = SSDLAB_ZONE_APPEND,
                                    [TRACE_ZONE_RESET] = SSDLAB_ZONE_RESET, [TRACE_ZONE_FINISH] = SSDLAB_ZONE_FINISH,
                                    [TRACE_ZONE_OPEN] = SSDLAB_ZONE_OPEN, [TRACE_ZONE_CLOSE] = SSDLAB_ZONE_CLOSE};
    *r = (ssdlab_request){.op = ops[p->next.op], .offset = p->next.offset, .bytes = p->next.bytes};
    if (p->place.kind != PLACE_FIXED || p->place.handle)
        r->placement = placement_of(&p->place, r->offset, p->next.device, tenant_of(p, p->next.device));
    if (p->tenants) { /* each device a tenant on a queue of its own */
        uint32_t k = tenant_of(p, p->next.device);
        r->user = (void *)(uintptr_t)(k + 1);
        r->queue = k % p->queues;
    }
    p->have_next = false;
    p->issued++;
    if (p->measuring) p->bytes_issued += r->bytes;
    if (p->measuring && ssdlab_op_class(r->op) == SSDLAB_WRITE) p->written_issued += r->bytes;
    host_submit(p->d, r, on_done, p);
}

static void schedule_next_arrival(replay *p)
{
    if (budget_spent(p) || !load_next(p)) return;
    sim_time_t at = p->start + (sim_time_t)((double)p->next.time * p->time_scale);
    if (p->stop_at && at >= p->stop_at) { /* past the phase's duration: it ends then */
        p->stopping = p->runs_to_stop_at = true;
        sim_schedule_at(p->s, p->stop_at, p->on_arrival, p, 0);
        return;
    }
    p->have_next = true;
    if (at < sim_now(p->s)) at = sim_now(p->s);
    sim_schedule_at(p->s, at, p->on_arrival, p, 0);
}

static void on_arrival(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)ctx, (void)arg;
    replay *p = obj;
    if (budget_spent(p)) {
        p->have_next = false;
        maybe_stop(p);
        return;
    }
    submit(p, reqpool_take(&p->pool));
    schedule_next_arrival(p);
    maybe_stop(p);
}

static void on_done(ssdlab_request *r, void *ctx)
{
    replay *p = ctx;
    p->completed++;
    if (p->tenants && p->measuring && r->user) tenant_stats_add(&p->tenants[(uintptr_t)r->user - 1], r);
    if (!p->measuring && p->completed == p->b.warmup) start_measuring(p);
    else if (p->measuring) {
        p->bytes_done += r->bytes;
        if (r->op == SSDLAB_WRITE) p->written += r->bytes;
    }
    if (p->measuring && limits_reached(p)) p->stopping = true;
    if (!p->timed && !p->failed && !budget_spent(p) && load_next(p)) {
        submit(p, r);
        return;
    }
    if (p->timed) reqpool_give(&p->pool, r);
    maybe_stop(p);
}

/* The keys that end or start a replay (bounds). workload.requests counts
 * only when it is set: its default (a million) would cut long traces short
 * without a word, so a trace left to itself replays whole. */
static int read_bounds(replay *p, const cfg *c, char *err, size_t errlen)
{
    char origin[64];
    bounds *b = &p->b;
    b->warmup = cfg_uint(c, "workload.warmup");
    if (strcmp(cfg_origin(c, "workload.requests", origin, sizeof origin), "default")) b->target = cfg_uint(c, "workload.requests");
    b->duration = cfg_uint(c, "workload.duration");
    b->byte_target = cfg_uint(c, "workload.bytes");
    b->write_target = (uint64_t)(cfg_float(c, "workload.drive_writes") * (double)ssd_capacity(p->d));
    b->loop = cfg_bool(c, "workload.loop");
    if (b->loop && !b->target && !b->duration && !b->byte_target && !b->write_target)
        return snprintf(err, errlen, "key 'workload.loop' is true but nothing would stop the replay; expected "
                                     "'workload.requests', 'duration', 'bytes' or 'drive_writes' as well"), -1;
    return 0;
}

/* workload.tenants=devices: per-device statistics, allocated once. */
static int open_tenants(replay *p, const cfg *c, char *err, size_t errlen)
{
    if (strcmp(cfg_str(c, "workload.tenants"), "devices")) return 0;
    p->queues = ssd_params_of(p->d)->host_queues;
    p->tenants = calloc(STATS_DEVICES, sizeof *p->tenants);
    for (uint32_t k = 0; p->tenants && k < STATS_DEVICES; k++)
        if (tenant_stats_init(&p->tenants[k])) return snprintf(err, errlen, "out of memory for the tenants' statistics"), -1;
    return p->tenants ? 0 : (snprintf(err, errlen, "out of memory for the tenants' statistics"), -1);
}

replay *replay_create(sim *s, ssd *d, const cfg *c, char *err, size_t errlen)
{
    replay *p = calloc(1, sizeof *p);
    if (!p) return snprintf(err, errlen, "out of memory"), NULL;
    p->s = s;
    p->d = d;
    p->timed = !strcmp(cfg_str(c, "workload.replay"), "timed");
    p->time_scale = cfg_float(c, "workload.time_scale");
    p->depth = (uint32_t)cfg_uint(c, "workload.queue_depth");
    if (placement_init(&p->place, c, ssd_params_of(d)->fdp_handles, NULL, true, err, errlen) ||
        read_bounds(p, c, err, errlen) || !(p->feed = trace_feed_open(d, c, err, errlen)) ||
        open_tenants(p, c, err, errlen)) {
        replay_free(p);
        return NULL;
    }
    p->on_arrival = sim_register_handler(s, "replay.arrival", on_arrival, NULL);
    return p;
}

void replay_free(replay *p)
{
    if (!p) return;
    trace_feed_close(p->feed);
    reqpool_free(&p->pool);
    for (uint32_t k = 0; p->tenants && k < STATS_DEVICES; k++) tenant_stats_free(&p->tenants[k]);
    free(p->tenants);
    free(p);
}

uint32_t replay_tenants(const replay *p, const tenant_stats **stats, const uint32_t **ids)
{
    *stats = p->tenants;
    *ids = p->tenant_ids;
    return p->tenants ? p->tenant_count : 0;
}


static double share(double done, double whole) { return whole > 0 ? done / whole : -1; }

double replay_progress(const replay *p)
{
    double elapsed = (double)(sim_now(p->s) - p->measure_start), f = -1;
    double records = (double)trace_feed_total_records(p->feed), span = (double)trace_feed_span(p->feed);
    const double shares[] = {
        p->b.target && p->measuring ? share((double)(p->completed - p->b.warmup), (double)p->b.target) : -1,
        p->b.duration && p->measuring ? share(elapsed, (double)p->b.duration) : -1,
        p->b.byte_target ? share((double)p->bytes_done, (double)p->b.byte_target) : -1,
        p->b.write_target ? share((double)p->written, (double)p->b.write_target) : -1,
        !p->b.loop && !p->timed && records ? share((double)p->completed, records) : -1,
        !p->b.loop && p->timed && span ? share((double)(sim_now(p->s) - p->start), span * p->time_scale) : -1,
    };
    for (size_t i = 0; i < sizeof shares / sizeof *shares; i++)
        if (shares[i] > f) f = shares[i];
    return f > 1 ? 1 : f;
}

int replay_run(replay *p, replay_result *res, char *err, size_t errlen)
{
    ssd_reset_stats(p->d);
    p->start = p->measure_start = sim_now(p->s);
    p->measuring = p->b.warmup == 0;
    for (uint32_t k = 0; p->measuring && p->tenants && k < STATS_DEVICES; k++) tenant_stats_reset(&p->tenants[k], sim_now(p->s));
    if (p->measuring && p->b.duration) p->stop_at = p->start + p->b.duration;
    if (p->timed) {
        schedule_next_arrival(p);
    } else {
        for (uint32_t i = 0; i < p->depth && !budget_spent(p) && load_next(p); i++) submit(p, reqpool_take(&p->pool));
    }
    if (p->issued || p->have_next) sim_run(p->s, SIM_TIME_MAX);
    uint64_t measured = p->measuring ? p->completed - p->b.warmup : 0;
    trace_feed_counts taken = trace_feed_taken(p->feed);
    *res = (replay_result){measured, taken.remapped, taken.skipped, sim_time_to_sec(sim_now(p->s) - p->measure_start), ""};
    trace_feed_time_doubtful(p->feed, p->completed, res->warning, sizeof res->warning);
    if (p->failed) {
        snprintf(err, errlen, "%s", p->err);
        return -1;
    }
    return 0;
}
