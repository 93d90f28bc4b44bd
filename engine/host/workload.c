#include "workload.h"
#include "workload_keys.h"
#include "tenant.h"

#include "generator.h"
#include "lookahead.h"
#include "replay.h"
#include "submit.h"
#include "reqpool.h"
#include "wear.h"
#include "precondition.h"
#include "zonewriter.h"
#include "placement.h"
#include "steadystate.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

typedef enum phase_kind { PHASE_IO, PHASE_FILL, PHASE_TRIM, PHASE_IDLE, PHASE_WEAR, PHASE_POWER_LOSS } phase_kind;

struct workload {
    sim *s;
    ssd *d;
    precondition_spec pre;
    phase_kind kind;
    uint64_t trim_start, trim_next, trim_end, trim_chunk;
    ssdlab_request trim_req;
    gsl_rng *rng;
    generator gen;
    ssdlab_request *slots; /* closed loop */
    uint32_t depth;
    int64_t queue; /* the submission queue of every request, or -1: spread */
    bool is_tenant;       /* a worker beside others: counts what it sees */
    tenant_stats tenant;
    bool open_loop, poisson;
    double rate;
    reqpool pool;          /* open loop */
    sim_handler_id on_arrival;
    uint64_t warmup, target, completed, issued;
    bool to_steady;        /* the warm-up ends at steady state (workload.warmup_until) */
    steady_rounds steady;
    uint64_t byte_target, write_target, bytes_done, written, bytes_issued, written_issued;
    sim_time_t duration, measure_start, stop_at;
    bool measuring, stopping;
    replay *trace; /* workload.source = trace */
    zonewriter *zw; /* workload.source = zoned */
    lookahead ahead; /* closed loop: warms the drive for the next draws */
    wear_phase wear; /* workload.phase = wear */
    placement place; /* the FDP handle of each request */
    int *group_active; /* workers running together: how many have not finished */
};

static void issue(workload *w, ssdlab_request *r);

/* Slots that waited for the zoned writer try again, each once. */
static void wake_parked(workload *w)
{
    for (uint32_t n = zonewriter_parked(w->zw); n > 0 && !w->stopping; n--) issue(w, &w->slots[zonewriter_unpark(w->zw)]);
}

static bool limits_reached(const workload *w)
{
    uint64_t done = w->completed - w->warmup;
    return (w->target && done >= w->target) || (w->stop_at && sim_now(w->s) >= w->stop_at) ||
           (w->byte_target && w->bytes_done >= w->byte_target) || (w->write_target && w->written >= w->write_target);
}

/* A request, byte or drive-write budget stops issuing once it is spoken
 * for, so the requests in flight do not overshoot it at any queue depth
 * or rate. */
static bool issue_budget_spent(const workload *w)
{
    if (w->to_steady && !w->measuring) return false; /* its rounds end the warm-up */
    return (w->target && w->issued >= w->warmup + w->target) ||
           (w->byte_target && w->measuring && w->bytes_issued >= w->byte_target) ||
           (w->write_target && w->measuring && w->written_issued >= w->write_target);
}

static void start_measuring(workload *w)
{
    w->measuring = true;
    w->warmup = w->completed; /* the requests in flight count as measured, as after a warm-up by count */
    w->measure_start = sim_now(w->s);
    if (w->duration) w->stop_at = w->measure_start + w->duration;
    ssd_reset_stats(w->d);
    if (w->is_tenant) tenant_stats_reset(&w->tenant, w->measure_start);
}

/* A warm-up round ended: its write amplification, and the next round's
 * statistics start afresh. */
static void end_round(workload *w)
{
    ssdlab_stats st;
    ssd_stats(w->d, &st);
    ssd_reset_stats(w->d);
    if (steady_round_done(&w->steady, st.write_amplification)) start_measuring(w);
}

static void on_done(ssdlab_request *r, void *ctx)
{
    workload *w = ctx;
    w->completed++;
    bool copy = w->zw && zonewriter_done(w->zw, (uint32_t)(r - w->slots), r);
    if (!w->measuring && w->to_steady) {
        if (ssdlab_op_class(r->op) == SSDLAB_WRITE && steady_add(&w->steady, r->bytes)) end_round(w);
    } else if (!w->measuring && w->completed == w->warmup) {
        start_measuring(w);
    }
    if (w->measuring) {
        if (w->is_tenant) tenant_stats_add(&w->tenant, r), w->tenant.copies += copy;
        w->bytes_done += r->bytes;
        if (ssdlab_op_class(r->op) == SSDLAB_WRITE) w->written += r->bytes;
        if (limits_reached(w)) w->stopping = true;
    }
    if (w->open_loop) reqpool_give(&w->pool, r);
    if (issue_budget_spent(w)) w->stopping = true;
    if (w->stopping) {
        /* this source's own requests, not the drive's: workers share it */
        if (w->issued == w->completed) {
            if (!w->group_active || --*w->group_active == 0) sim_request_stop(w->s);
        }
        return;
    }
    if (!w->open_loop) issue(w, r);
    if (w->zw) wake_parked(w);
}

/* The zoned writer's next command for the slot (a copy's append after its
 * read, reclaim work, or the generator's choice); false when it waits. */
static bool zoned_request(workload *w, ssdlab_request *r)
{
    uint32_t slot = (uint32_t)(r - w->slots);
    if (zonewriter_copying(w->zw, slot)) return zonewriter_copy(w->zw, slot, r), true;
    bool read;
    uint64_t offset;
    uint32_t bytes;
    if (!zonewriter_kept_draw(w->zw, slot, &read, &offset)) generator_next(&w->gen, w->rng, &read, &offset, &bytes);
    if (zonewriter_next(w->zw, slot, read, offset, r)) return true;
    zonewriter_park(w->zw, slot);
    return false;
}

static void issue(workload *w, ssdlab_request *r)
{
    if (w->zw) {
        if (!zoned_request(w, r)) return;
    } else {
        bool read;
        lookahead_warm(&w->ahead, &w->gen, w->rng, w->d);
        generator_next(&w->gen, w->rng, &read, &r->offset, &r->bytes);
        lookahead_drawn(&w->ahead, r->offset, read);
        r->op = read ? SSDLAB_READ : SSDLAB_WRITE;
        r->placement = placement_of(&w->place, r->offset, 0, 0);
    }
    if (w->measuring) w->bytes_issued += r->bytes;
    if (w->measuring && ssdlab_op_class(r->op) == SSDLAB_WRITE) w->written_issued += r->bytes;
    /* closed-loop slots spread over the submission queues, like one thread per queue */
    if (w->queue >= 0) r->queue = (uint32_t)w->queue;
    else r->queue = w->open_loop ? 0 : (uint32_t)(r - w->slots) % ssd_params_of(w->d)->host_queues;
    w->issued++;
    host_submit(w->d, r, on_done, w);
}

/* Trim phase: one TRIM command after the other over the region. */
static void trim_next(ssdlab_request *r, void *ctx)
{
    workload *w = ctx;
    if (r->finish) w->completed++;
    if (r->finish && w->is_tenant) tenant_stats_add(&w->tenant, r);
    if (w->trim_next >= w->trim_end) {
        /* a worker stops the run only when the last of its group is done */
        if (!w->group_active || --*w->group_active == 0) sim_request_stop(w->s);
        return;
    }
    uint64_t n = w->trim_end - w->trim_next;
    if (n > w->trim_chunk) n = w->trim_chunk;
    *r = (ssdlab_request){.op = SSDLAB_TRIM, .offset = w->trim_next, .bytes = (uint32_t)n};
    w->trim_next += n;
    host_submit(w->d, r, trim_next, w);
}

/* Open loop: a request arrives, and the next arrival is scheduled. */
static void on_arrival(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)ctx, (void)arg;
    workload *w = obj;
    if (w->stopping || issue_budget_spent(w)) return;
    ssdlab_request *r = reqpool_take(&w->pool);
    issue(w, r);
    double gap = w->poisson ? gsl_ran_exponential(w->rng, 1 / w->rate) : 1 / w->rate;
    sim_schedule_in(s, sim_time_from_sec(gap), w->on_arrival, w, 0);
}

/* The region a phase works on: workload.region_* as bytes or as shares
 * of the capacity. Returns -1 (with a message) when it lies past the drive. */
static int phase_region(const cfg *c, uint64_t cap, uint64_t *start, uint64_t *size, char *err, size_t errlen)
{
    *start = cfg_uint(c, "workload.region_offset");
    *size = cfg_uint(c, "workload.region_size");
    double offset_share = cfg_float(c, "workload.region_offset_share"), size_share = cfg_float(c, "workload.region_share");
    /* shares of the capacity round down to whole MiB, which any request
     * size up to 1 MiB divides, as a file system aligns files */
    const uint64_t mib = UINT64_C(1) << 20;
    if (offset_share > 0) *start = (uint64_t)(offset_share * (double)cap) / mib * mib;
    if (size_share > 0) *size = (uint64_t)(size_share * (double)cap) / mib * mib;
    if (*start >= cap || (*size && *size > cap - *start)) {
        snprintf(err, errlen, "the region 'workload.region_offset' + 'workload.region_size' (%llu + %llu B) lies past the drive's %llu B",
                 (unsigned long long)*start, (unsigned long long)*size, (unsigned long long)cap);
        return -1;
    }
    if (!*size) *size = cap - *start;
    return 0;
}

/* A trace (a file, or a PCMark-like trace made in memory) as the source. */
static int open_trace(workload *w, const cfg *c, const char *source, char *err, size_t errlen)
{
    if (workload_refuse_generator_keys(c, err, errlen)) return -1;
    if (!strcmp(source, "trace") && !strcmp(cfg_str(c, "workload.trace"), "none")) {
        snprintf(err, errlen, "key 'workload.source' is trace but 'workload.trace' names no file; expected a trace file");
        return -1;
    }
    w->trace = replay_create(w->s, w->d, c, err, errlen);
    return w->trace ? 0 : -1;
}

/* Synthetic requests over [start, start + size): pattern, sizes, reads. */
static int open_generator(workload *w, const cfg *c, uint64_t start, uint64_t size, char *err, size_t errlen)
{
    const char *pattern = cfg_str(c, "workload.pattern");
    gen_pattern pat = !strcmp(pattern, "sequential") ? GEN_SEQUENTIAL : !strcmp(pattern, "zipf") ? GEN_ZIPF
                    : !strcmp(pattern, "hotcold")    ? GEN_HOTCOLD
                                                     : GEN_RANDOM;
    char single[64];
    const char *sizes = cfg_str(c, "workload.block_sizes");
    if (!sizes[0]) {
        snprintf(single, sizeof single, "%lluB", (unsigned long long)cfg_uint(c, "workload.block_size"));
        sizes = single;
    }
    double read_share = cfg_float(c, "workload.read_share");
    if (w->kind == PHASE_FILL) { /* the region, written once in order */
        pat = GEN_SEQUENTIAL;
        read_share = 0;
        w->open_loop = false;
    }
    return generator_init(&w->gen, pat, read_share, start, size, sizes, cfg_uint(c, "workload.align"),
                          cfg_float(c, "workload.zipf_theta"), cfg_float(c, "workload.hot_fraction"),
                          cfg_float(c, "workload.hot_share"), err, errlen);
}

/* workload.warmup_until=steady: rounds of four blocks' worth of host
 * writes per die, so that every die collects a few victims in each. */
static int warmup_to_steady(workload *w, const cfg *c, char *err, size_t errlen)
{
    w->to_steady = w->kind == PHASE_IO && !w->zw && !strcmp(cfg_str(c, "workload.warmup_until"), "steady");
    if (!w->to_steady) return 0;
    if (w->warmup)
        return snprintf(err, errlen, "keys 'workload.warmup' (%llu) and 'workload.warmup_until' (steady) both end the warm-up; "
                                     "expected one of them", (unsigned long long)w->warmup), -1;
    if (w->gen.read_share >= 1)
        return snprintf(err, errlen, "key 'workload.warmup_until' is steady, and the phase writes nothing (workload.read_share "
                                     "100%%): its write amplification never settles; expected writes, or warmup_until: requests"), -1;
    const ssd_params *p = ssd_params_of(w->d);
    steady_init(&w->steady, 4ULL * p->dies * p->units_per_block * p->unit, (uint32_t)cfg_uint(c, "workload.warmup_rounds"));
    return 0;
}

/* When the phase stops: requests, time, bytes, drive writes (a fill: its
 * region's bytes). Returns -1 when nothing would stop it. */
static int stop_conditions(workload *w, const cfg *c, uint64_t cap, uint64_t size, char *err, size_t errlen)
{
    w->warmup = cfg_uint(c, "workload.warmup");
    if (warmup_to_steady(w, c, err, errlen)) return -1;
    w->target = cfg_uint(c, "workload.requests");
    w->byte_target = cfg_uint(c, "workload.bytes");
    w->write_target = (uint64_t)(cfg_float(c, "workload.drive_writes") * (double)cap);
    if (w->kind == PHASE_FILL) {
        w->warmup = w->target = w->write_target = 0;
        w->duration = 0;
        w->byte_target = size;
    }
    if (!w->target && !w->duration && !w->byte_target && !w->write_target) {
        snprintf(err, errlen, "keys 'workload.requests', 'workload.duration', 'workload.bytes' and 'workload.drive_writes' are all 0: the run would never stop");
        return -1;
    }
    return 0;
}

static void set_trim_phase(workload *w, const cfg *c, uint64_t start, uint64_t size)
{
    uint64_t unit = ssd_params_of(w->d)->unit, chunk = cfg_uint(c, "workload.trim_chunk");
    uint64_t most = (UINT32_MAX / unit) * unit; /* a command covers under 4 GiB */
    w->trim_chunk = chunk && chunk < most ? chunk : most;
    w->trim_start = w->trim_next = start;
    w->trim_end = start + size;
}

/* The zoned writer (zonewriter.h): its objects are the generator's region,
 * the closed loop's slots its workers. */
static int open_zoned(workload *w, const cfg *c, char *err, size_t errlen)
{
    if (!(w->zw = calloc(1, sizeof *w->zw))) return snprintf(err, errlen, "out of memory"), -1;
    if (zonewriter_init(w->zw, w->d, c, w->depth, err, errlen)) goto undo;
    uint64_t space = zonewriter_space(w->zw);
    if (open_generator(w, c, 0, space, err, errlen)) goto undo;
    bool stops = stop_conditions(w, c, space, space, err, errlen) == 0;
    if (stops && !(w->slots = calloc(w->depth, sizeof *w->slots))) snprintf(err, errlen, "out of memory");
    if (!w->slots) {
        generator_free(&w->gen);
        goto undo;
    }
    double hot = (double)w->gen.slots * w->gen.hot_fraction; /* the generator's hot part: its first slots */
    if (w->gen.pattern == GEN_HOTCOLD) w->zw->hot_objects = hot < 1 ? 1 : (uint64_t)hot;
    return 0;
undo:
    zonewriter_free(w->zw);
    free(w->zw);
    w->zw = NULL;
    return -1;
}

/* workload.phase's choices, in phase_kind's order. */
static phase_kind kind_named(const char *name)
{
    static const char *const names[] = {"io", "fill", "trim", "idle", "wear", "power_loss"};
    for (phase_kind k = PHASE_POWER_LOSS; k > PHASE_IO; k--)
        if (!strcmp(name, names[k])) return k;
    return PHASE_IO;
}

/* The synthetic kinds of phase: io, fill, trim, idle, wear. */
static int open_phase(workload *w, const cfg *c, char *err, size_t errlen)
{
    if (workload_refuse_trace_keys(c, err, errlen)) return -1;
    const char *phase = cfg_str(c, "workload.phase");
    w->kind = kind_named(phase);
    w->duration = cfg_uint(c, "workload.duration");
    if (w->kind == PHASE_POWER_LOSS) return 0;
    if (w->kind == PHASE_IDLE) {
        if (w->duration) return 0;
        snprintf(err, errlen, "an idle phase needs 'workload.duration'; expected a time such as 15min");
        return -1;
    }
    w->depth = (uint32_t)cfg_uint(c, "workload.queue_depth");
    w->queue = cfg_int(c, "workload.queue");
    if (w->queue >= (int64_t)ssd_params_of(w->d)->host_queues)
        return snprintf(err, errlen, "key 'workload.queue' is %lld, but the drive has %u submission queues; expected 0 to %u, or -1",
                        (long long)w->queue, ssd_params_of(w->d)->host_queues, ssd_params_of(w->d)->host_queues - 1), -1;
    int priority = cfg_choice(c, "workload.priority");
    if (priority && w->queue < 0)
        return snprintf(err, errlen, "key 'workload.priority' is %s, but the phase has no queue of its own; expected workload.queue "
                                     "as well", cfg_str(c, "workload.priority")), -1;
    if (priority) ssd_set_queue_class(w->d, (uint32_t)w->queue, priority - 1);
    if (!strcmp(cfg_str(c, "workload.source"), "zoned")) return open_zoned(w, c, err, errlen);
    const char *arrival = cfg_str(c, "workload.arrival");
    w->open_loop = strcmp(arrival, "closed") != 0;
    w->poisson = !strcmp(arrival, "poisson");
    w->rate = cfg_float(c, "workload.rate");
    uint64_t cap = ssd_capacity(w->d), start, size;
    if (phase_region(c, cap, &start, &size, err, errlen)) return -1;
    if (w->kind == PHASE_TRIM) {
        set_trim_phase(w, c, start, size);
        return 0;
    }
    if (open_generator(w, c, start, size, err, errlen)) return -1;
    if (w->kind == PHASE_WEAR) {
        if (!wear_open(&w->wear, w->d, c, w->gen.read_share, err, errlen)) return 0;
        generator_free(&w->gen);
        return -1;
    }
    if (placement_init(&w->place, c, ssd_params_of(w->d)->fdp_handles, &w->gen, false, err, errlen) ||
        stop_conditions(w, c, cap, size, err, errlen)) {
        generator_free(&w->gen);
        return -1;
    }
    if (w->open_loop) {
        w->on_arrival = sim_register_handler(w->s, "workload.arrival", on_arrival, NULL);
        return 0;
    }
    if ((w->slots = calloc(w->depth, sizeof *w->slots)) && !lookahead_init(&w->ahead, &w->gen, w->rng, w->d)) return 0;
    generator_free(&w->gen);
    snprintf(err, errlen, "out of memory");
    return -1;
}

workload *workload_create(sim *s, ssd *d, const cfg *c, char *err, size_t errlen)
{
    workload *w = calloc(1, sizeof *w);
    if (!w) return snprintf(err, errlen, "out of memory"), NULL;
    w->s = s;
    w->d = d;
    w->rng = sim_rng(s, "workload");
    if (precondition_load(&w->pre, c, d, err, errlen)) {
        free(w);
        return NULL;
    }
    const char *source = cfg_str(c, "workload.source");
    bool traced = !strcmp(source, "pcmark8") || !strcmp(source, "trace");
    if (traced ? open_trace(w, c, source, err, errlen) : open_phase(w, c, err, errlen)) {
        free(w);
        return NULL;
    }
    return w;
}

void workload_free(workload *w)
{
    if (!w) return;
    replay_free(w->trace);
    if (w->zw) zonewriter_free(w->zw);
    free(w->zw);
    generator_free(&w->gen);
    lookahead_free(&w->ahead);
    reqpool_free(&w->pool);
    if (w->is_tenant) tenant_stats_free(&w->tenant);
    free(w->slots);
    free(w);
}

void workload_precondition(workload *w) { precondition_apply(&w->pre, w->d, sim_rng(w->s, "precondition")); }

bool workload_warms_to_steady(const workload *w) { return w->to_steady; }

bool workload_can_join(const workload *w) { return (w->kind == PHASE_IO || w->kind == PHASE_TRIM) && !w->trace; }

int workload_join(workload *w, int *active, const char *stream)
{
    if (stream) w->rng = sim_rng(w->s, stream);
    w->group_active = active;
    w->is_tenant = true;
    return tenant_stats_init(&w->tenant);
}

const tenant_stats *workload_tenant(const workload *w) { return w->is_tenant ? &w->tenant : NULL; }
const zonewriter *workload_zonewriter(const workload *w) { return w->zw; }

uint32_t workload_device_tenants(const workload *w, const tenant_stats **stats, const uint32_t **ids)
{
    return w->trace ? replay_tenants(w->trace, stats, ids) : 0;
}

void workload_start(workload *w)
{
    if (w->is_tenant) tenant_stats_reset(&w->tenant, sim_now(w->s));
    if (w->kind == PHASE_TRIM) { /* TRIMs alongside other workers (a file deleted while others are read) */
        w->measure_start = sim_now(w->s);
        w->trim_req.finish = 0;
        trim_next(&w->trim_req, w);
        return;
    }
    w->measuring = w->warmup == 0 && !w->to_steady;
    w->measure_start = sim_now(w->s);
    if (w->measuring && w->duration) w->stop_at = w->measure_start + w->duration;
    if (w->open_loop) sim_schedule_in(w->s, 0, w->on_arrival, w, 0);
    else
        for (uint32_t i = 0; i < w->depth && !issue_budget_spent(w); i++) issue(w, &w->slots[i]);
}

static double share(double done, double whole) { return whole > 0 ? done / whole : -1; }

double workload_progress(const workload *w)
{
    if (w->trace) return replay_progress(w->trace);
    double elapsed = (double)(sim_now(w->s) - w->measure_start), f = -1;
    switch (w->kind) {
    case PHASE_IDLE: f = share(elapsed, (double)w->duration); break;
    case PHASE_TRIM: f = share((double)(w->trim_next - w->trim_start), (double)(w->trim_end - w->trim_start)); break;
    case PHASE_WEAR: f = wear_progress(&w->wear, w->d); break;
    default: {
        /* the budget closest to running out stops the phase */
        const double budgets[] = {
            w->target && w->measuring ? share((double)(w->completed - w->warmup), (double)w->target) : -1,
            w->duration && w->measuring ? share(elapsed, (double)w->duration) : -1,
            w->byte_target ? share((double)w->bytes_done, (double)w->byte_target) : -1,
            w->write_target ? share((double)w->written, (double)w->write_target) : -1,
        };
        for (size_t i = 0; i < sizeof budgets / sizeof *budgets; i++)
            if (budgets[i] > f) f = budgets[i];
    }
    }
    return f > 1 ? 1 : f;
}

void workload_set_rates(workload_result *r, const ssdlab_stats *st)
{
    double bytes = (double)(st->bytes[0] + st->bytes[1] + st->bytes[2]);
    r->iops = r->seconds > 0 ? (double)r->requests / r->seconds : 0;
    r->mib_per_s = r->seconds > 0 ? bytes / r->seconds / 1048576.0 : 0;
}

int workload_run(workload *w, workload_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (w->kind == PHASE_IDLE) {
        ssd_reset_stats(w->d);
        sim_time_t start = w->measure_start = sim_now(w->s), end = start + w->duration, next;
        /* interval by interval, so the time series shows what idle time does */
        for (ssd_metrics_tick(w->d, &next); sim_now(w->s) < end; ssd_metrics_tick(w->d, &next)) {
            sim_time_t to = next < end ? next : end;
            sim_stop_reason why = sim_run(w->s, to);
            if (why == SIM_STOP_REQUESTED || why == SIM_STOP_FAILED) break;
            sim_advance_to(w->s, to); /* the drive may have had nothing left to do */
        }
        r->seconds = sim_time_to_sec(sim_now(w->s) - start);
        return 0;
    }
    if (w->kind == PHASE_POWER_LOSS) {
        ssd_reset_stats(w->d);
        sim_time_t start = sim_now(w->s);
        if (ssd_power_loss(w->d)) return snprintf(err, errlen, "out of memory for the list of lost units"), -1;
        r->seconds = sim_time_to_sec(sim_now(w->s) - start);
        return 0;
    }
    if (w->kind == PHASE_WEAR) {
        ssd_reset_stats(w->d);
        int rc = wear_run(&w->wear, w->s, w->d, &w->gen, w->rng, err, errlen);
        r->requests = w->wear.requests;
        return rc < 0 ? -1 : 0;
    }
    if (w->kind == PHASE_TRIM) {
        ssd_reset_stats(w->d);
        sim_time_t start = sim_now(w->s);
        w->trim_req.finish = 0;
        trim_next(&w->trim_req, w);
        sim_run(w->s, SIM_TIME_MAX);
        r->requests = w->completed;
        r->seconds = sim_time_to_sec(sim_now(w->s) - start);
        return 0;
    }
    if (w->trace) {
        replay_result rr;
        int rc = replay_run(w->trace, &rr, err, errlen);
        r->requests = rr.requests;
        r->seconds = rr.seconds;
        ssdlab_stats st;
        ssd_stats(w->d, &st);
        workload_set_rates(r, &st);
        r->remapped = rr.remapped;
        r->skipped = rr.skipped;
        snprintf(r->warning, sizeof r->warning, "%s", rr.warning);
        return rc;
    }
    ssd_reset_stats(w->d);
    workload_start(w);
    sim_run(w->s, SIM_TIME_MAX);
    ssdlab_stats st;
    ssd_stats(w->d, &st);
    r->requests = st.completed[0] + st.completed[1] + st.completed[2];
    r->seconds = sim_time_to_sec(sim_now(w->s) - w->measure_start);
    workload_set_rates(r, &st);
    r->remapped = r->skipped = 0;
    if (w->to_steady) {
        r->warmup_rounds = w->steady.rounds;
        r->warmup_round_bytes = w->steady.round_bytes;
        r->warmup_steady = w->steady.steady;
        for (int i = 0; i < STEADY_WINDOW; i++) r->warmup_wa[i] = w->steady.wa[i];
    }
    if (w->zw) {
        r->requests += st.completed[SSDLAB_CLASS_MANAGEMENT];
        r->zone_writes = w->zw->n.user_writes, r->zone_copies = w->zw->n.copies, r->zone_resets = w->zw->n.resets;
        r->zone_stalls = w->zw->n.stalls, r->zone_objects = w->zw->objects;
    }
    return 0;
}

