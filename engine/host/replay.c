#include "replay.h"

#include <stdlib.h>
#include <string.h>

#include "pcmark8.h"
#include "reqpool.h"
#include "stats.h"
#include "submit.h"
#include "trace.h"

enum { MAX_DEVICES = 64 };

typedef enum lba_map { MAP_ERROR, MAP_WRAP, MAP_SCALE } lba_map;

struct replay {
    sim *s;
    ssd *d;
    trace_reader *t;
    bool timed;
    double time_scale;
    uint32_t depth;
    lba_map map;
    uint64_t capacity, max_end;
    uint32_t devices[MAX_DEVICES];
    int device_count; /* 0: all */
    sim_handler_id on_arrival;
    sim_time_t start;
    reqpool pool;
    trace_record next;
    bool have_next, trace_done, failed;
    uint64_t issued, completed, record_number, remapped, skipped;
    char err[600];
};

static bool wanted(const replay *p, uint32_t device)
{
    if (!p->device_count) return true;
    for (int i = 0; i < p->device_count; i++)
        if (p->devices[i] == device) return true;
    return false;
}

static void fail(replay *p, const char *msg)
{
    snprintf(p->err, sizeof p->err, "%s", msg);
    p->failed = true;
    p->trace_done = true;
}

/* The next record of a selected device, mapped onto the drive. */
static bool load_next(replay *p)
{
    while (!p->trace_done) {
        int rc = trace_next(p->t, &p->next);
        if (rc <= 0) {
            if (rc < 0) fail(p, trace_error(p->t));
            p->trace_done = true;
            return false;
        }
        p->record_number++;
        if (!wanted(p, p->next.device)) {
            p->skipped++;
            continue;
        }
        trace_record *r = &p->next;
        if (r->bytes > p->capacity) r->bytes = (uint32_t)p->capacity;
        /* scale: the trace's whole address range onto the drive's, so that
         * distances between requests shrink in proportion */
        if (p->map == MAP_SCALE && p->max_end > p->capacity) {
            r->offset = (uint64_t)((double)r->offset * (double)(p->capacity - r->bytes) / (double)p->max_end);
            p->remapped++;
            return true;
        }
        if (r->offset + r->bytes > p->capacity) {
            if (p->map == MAP_ERROR) {
                char msg[400];
                snprintf(msg, sizeof msg,
                         "%s: offset %llu + %u bytes lies past the drive's %llu bytes; expected "
                         "workload.lba_map=wrap or scale, or a larger drive",
                         trace_where(p->t), (unsigned long long)r->offset, r->bytes, (unsigned long long)p->capacity);
                fail(p, msg);
                return false;
            }
            r->offset %= p->capacity - r->bytes + 1; /* wrap */
            p->remapped++;
        }
        return true;
    }
    return false;
}

static void on_done(ssdlab_request *r, void *ctx);

static void submit(replay *p, ssdlab_request *r)
{
    static const ssdlab_op ops[] = {[TRACE_READ] = SSDLAB_READ, [TRACE_WRITE] = SSDLAB_WRITE, [TRACE_TRIM] = SSDLAB_TRIM};
    *r = (ssdlab_request){.op = ops[p->next.op], .offset = p->next.offset, .bytes = p->next.bytes};
    p->have_next = false;
    p->issued++;
    host_submit(p->d, r, on_done, p);
}

static void schedule_next_arrival(replay *p)
{
    if (!load_next(p)) return;
    p->have_next = true;
    sim_time_t at = p->start + (sim_time_t)((double)p->next.time * p->time_scale);
    if (at < sim_now(p->s)) at = sim_now(p->s);
    sim_schedule_at(p->s, at, p->on_arrival, p, 0);
}

static void on_arrival(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)ctx, (void)arg;
    replay *p = obj;
    ssdlab_request *r = reqpool_take(&p->pool);
    submit(p, r);
    schedule_next_arrival(p);
}

static void on_done(ssdlab_request *r, void *ctx)
{
    replay *p = ctx;
    p->completed++;
    if (!p->timed && !p->failed && load_next(p)) {
        submit(p, r);
        return;
    }
    if (p->timed) reqpool_give(&p->pool, r);
    if (p->trace_done && !p->have_next && p->completed == p->issued) sim_request_stop(p->s);
}

static int parse_devices(replay *p, const char *list, char *err, size_t errlen)
{
    if (!strcmp(list, "all")) return 0;
    for (const char *c = list; *c;) {
        char *end;
        unsigned long v = strtoul(c, &end, 10);
        if (end == c || (*end && *end != ',') || p->device_count == MAX_DEVICES)
            return snprintf(err, errlen, "key 'workload.devices' ('%s'): expected 'all' or up to %d device numbers separated by commas",
                            list, MAX_DEVICES), -1;
        p->devices[p->device_count++] = (uint32_t)v;
        c = *end ? end + 1 : end;
    }
    return 0;
}

/* A PCMark-like trace, generated in memory (traces/pcmark8.c): the same
 * records 'ssdlab trace gen pcmark8' writes. */
static int open_pcmark8(replay *p, const cfg *c, char *err, size_t errlen)
{
    const pcmark8_app *app = pcmark8_find(cfg_str(c, "workload.pcmark8_app"));
    trace_record *recs;
    size_t n;
    if (!app || pcmark8_generate(app, cfg_uint(c, "workload.pcmark8_seed"), &recs, &n, err, errlen)) {
        if (!app) snprintf(err, errlen, "key 'workload.pcmark8_app': unknown application");
        return -1;
    }
    p->max_end = 1;
    for (size_t i = 0; i < n; i++)
        if (recs[i].offset + recs[i].bytes > p->max_end) p->max_end = recs[i].offset + recs[i].bytes;
    char name[96];
    snprintf(name, sizeof name, "pcmark8:%s", app->name);
    return (p->t = trace_open_records(recs, n, name, err, errlen)) ? 0 : -1;
}

replay *replay_create(sim *s, ssd *d, const cfg *c, char *err, size_t errlen)
{
    replay *p = calloc(1, sizeof *p);
    if (!p) return snprintf(err, errlen, "out of memory"), NULL;
    p->s = s;
    p->d = d;
    p->capacity = ssd_capacity(d);
    p->timed = !strcmp(cfg_str(c, "workload.replay"), "timed");
    p->time_scale = cfg_float(c, "workload.time_scale");
    p->depth = (uint32_t)cfg_uint(c, "workload.queue_depth");
    const char *map = cfg_str(c, "workload.lba_map");
    p->map = !strcmp(map, "wrap") ? MAP_WRAP : !strcmp(map, "scale") ? MAP_SCALE : MAP_ERROR;
    const char *path = cfg_str(c, "workload.trace");
    trace_options o = {.format = trace_format_parse(cfg_str(c, "workload.trace_format")),
                       .disksim_time_unit_ns = (double)cfg_uint(c, "workload.trace_time_unit"),
                       .blkparse_event = cfg_str(c, "workload.blkparse_event")[0]};
    if (parse_devices(p, cfg_str(c, "workload.devices"), err, errlen)) {
        replay_free(p);
        return NULL;
    }
    if (!strcmp(cfg_str(c, "workload.source"), "pcmark8")) {
        if (open_pcmark8(p, c, err, errlen)) {
            replay_free(p);
            return NULL;
        }
        p->on_arrival = sim_register_handler(s, "replay.arrival", on_arrival, NULL);
        return p;
    }
    if (p->map == MAP_SCALE) {
        /* scaling needs the trace's extent: one streaming pass first */
        trace_stats st;
        if (trace_stats_compute(path, &o, &st, err, errlen)) {
            replay_free(p);
            return NULL;
        }
        p->max_end = st.max_end ? st.max_end : 1;
    }
    if (!(p->t = trace_open(path, &o, err, errlen))) {
        replay_free(p);
        return NULL;
    }
    p->on_arrival = sim_register_handler(s, "replay.arrival", on_arrival, NULL);
    return p;
}

void replay_free(replay *p)
{
    if (!p) return;
    trace_close(p->t);
    reqpool_free(&p->pool);
    free(p);
}

int replay_run(replay *p, replay_result *res, char *err, size_t errlen)
{
    ssd_reset_stats(p->d);
    p->start = sim_now(p->s);
    if (p->timed) {
        schedule_next_arrival(p);
    } else {
        for (uint32_t i = 0; i < p->depth && load_next(p); i++) {
            ssdlab_request *r = reqpool_take(&p->pool);
            submit(p, r);
        }
    }
    if (p->issued || p->have_next) sim_run(p->s, SIM_TIME_MAX);
    *res = (replay_result){p->completed, p->remapped, p->skipped, sim_time_to_sec(sim_now(p->s) - p->start)};
    if (p->failed) {
        snprintf(err, errlen, "%s", p->err);
        return -1;
    }
    return 0;
}
