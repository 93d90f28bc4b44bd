#include "workload.h"

#include "replay.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

const cfg_key workload_config_keys[] = {
    {"workload.pattern", CFG_ENUM, NULL, "random", NULL, NULL, "random|sequential", "Access pattern inside the region."},
    {"workload.read_share", CFG_FRACTION, NULL, "100%", "0", "1", NULL, "Share of requests that are reads; the rest are writes."},
    {"workload.block_size", CFG_SIZE, "KiB", "4KiB", "512B", "64MiB", NULL, "Bytes per request, aligned to this size."},
    {"workload.queue_depth", CFG_UINT, NULL, "32", "1", "65536", NULL, "Requests kept outstanding (closed loop)."},
    {"workload.region_offset", CFG_SIZE, "GiB", "0B", NULL, NULL, NULL, "Start of the region accessed."},
    {"workload.region_size", CFG_SIZE, "GiB", "0B", NULL, NULL, NULL, "Size of the region accessed; 0 means up to the end of the drive."},
    {"workload.requests", CFG_UINT, NULL, "1000000", "0", NULL, NULL, "Requests to complete, after any warm-up; 0 means no limit."},
    {"workload.duration", CFG_TIME, "s", "0s", NULL, NULL, NULL, "Simulated time to run for after the warm-up; 0 means no limit."},
    {"workload.warmup", CFG_UINT, NULL, "0", "0", NULL, NULL, "Requests completed and not measured first."},
    {"workload.precondition", CFG_ENUM, NULL, "fill", NULL, NULL, "none|fill|steady",
     "State before the run: empty; every LBA written once in order; or filled, then randomly overwritten (steady_overwrites times the capacity)."},
    {"workload.steady_overwrites", CFG_FLOAT, NULL, "2", "0", "100", NULL, "Random overwrites for 'steady', in multiples of the capacity."},
    {"workload.source", CFG_ENUM, NULL, "synthetic", NULL, NULL, "synthetic|trace",
     "Where requests come from: the synthetic generator (pattern, read share, ...) or a trace file (workload.trace)."},
    {"workload.trace", CFG_PATH, NULL, "none", NULL, NULL, NULL, "Trace file to replay (plain or gzip/bzip2/xz/zstd), relative to the file that names it."},
    {"workload.trace_format", CFG_ENUM, NULL, "auto", NULL, NULL, "auto|msr|fiu|umass|blkparse|disksim|fio|binary",
     "Format of workload.trace; auto guesses from its first line."},
    {"workload.trace_time_unit", CFG_TIME, "ns", "1ms", "1ns", "1s", NULL, "Time unit of DiskSim/MQSim ASCII traces (DiskSim: ms; MQSim: ns)."},
    {"workload.blkparse_event", CFG_ENUM, NULL, "Q", NULL, NULL, "Q|D", "blkparse traces: replay queue (Q) or dispatch (D) events."},
    {"workload.replay", CFG_ENUM, NULL, "timed", NULL, NULL, "timed|afap",
     "timed: each record arrives at its recorded time (open loop); afap: as fast as possible at workload.queue_depth (closed loop)."},
    {"workload.time_scale", CFG_FLOAT, NULL, "1", "0", "1000000", NULL,
     "Timed replay: recorded times are multiplied by this (0.5 replays twice as fast)."},
    {"workload.devices", CFG_STRING, NULL, "all", NULL, NULL, NULL,
     "Devices (disks, volumes, ASUs) of a multi-device trace to replay: 'all' or numbers separated by commas."},
    {"workload.lba_map", CFG_ENUM, NULL, "error", NULL, NULL, "error|wrap|scale",
     "Records past the drive's capacity: stop with an error, wrap around, or scale the trace's address range onto the drive."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

struct workload {
    sim *s;
    ssd *d;
    gsl_rng *rng;
    ssdlab_request *slots;
    uint32_t depth;
    bool random;
    double read_share;
    uint64_t block, region_start, region_blocks, next_seq;
    uint64_t warmup, target, issued, completed;
    sim_time_t duration, measure_start, stop_at;
    const char *precondition;
    double overwrites;
    bool measuring, stopping;
    replay *trace; /* workload.source = trace */
};

static void issue(workload *w, ssdlab_request *r);

static void on_done(ssdlab_request *r, void *ctx)
{
    workload *w = ctx;
    w->completed++;
    if (!w->measuring && w->completed == w->warmup) {
        w->measuring = true;
        w->measure_start = sim_now(w->s);
        if (w->duration) w->stop_at = w->measure_start + w->duration;
        ssd_reset_stats(w->d);
    }
    if (w->measuring) {
        uint64_t done = w->completed - w->warmup;
        if ((w->target && done >= w->target) || (w->stop_at && sim_now(w->s) >= w->stop_at)) w->stopping = true;
    }
    if (w->stopping) {
        if (ssd_outstanding(w->d) == 0) sim_request_stop(w->s);
        return;
    }
    issue(w, r);
}

static void issue(workload *w, ssdlab_request *r)
{
    uint64_t blk;
    if (w->random) blk = (uint64_t)(gsl_rng_uniform(w->rng) * (double)w->region_blocks);
    else blk = w->next_seq++ % w->region_blocks;
    bool read = w->read_share >= 1 || (w->read_share > 0 && gsl_rng_uniform(w->rng) < w->read_share);
    r->op = read ? SSDLAB_READ : SSDLAB_WRITE;
    r->offset = w->region_start + blk * w->block;
    r->bytes = (uint32_t)w->block;
    r->done = on_done;
    r->done_ctx = w;
    /* slots spread over the submission queues, like one thread per queue */
    r->queue = (uint32_t)(r - w->slots) % ssd_params_of(w->d)->host_queues;
    w->issued++;
    ssd_submit(w->d, r);
}

workload *workload_create(sim *s, ssd *d, const cfg *c, char *err, size_t errlen)
{
    workload *w = calloc(1, sizeof *w);
    if (!w) return snprintf(err, errlen, "out of memory"), NULL;
    w->s = s;
    w->d = d;
    w->rng = sim_rng(s, "workload");
    w->depth = (uint32_t)cfg_uint(c, "workload.queue_depth");
    w->random = strcmp(cfg_str(c, "workload.pattern"), "random") == 0;
    w->read_share = cfg_float(c, "workload.read_share");
    w->block = cfg_uint(c, "workload.block_size");
    w->precondition = cfg_str(c, "workload.precondition");
    w->overwrites = cfg_float(c, "workload.steady_overwrites");
    if (!strcmp(cfg_str(c, "workload.source"), "trace")) {
        if (!strcmp(cfg_str(c, "workload.trace"), "none")) {
            snprintf(err, errlen, "key 'workload.source' is trace but 'workload.trace' names no file; expected a trace file");
            free(w);
            return NULL;
        }
        if (!(w->trace = replay_create(s, d, c, err, errlen))) {
            free(w);
            return NULL;
        }
        return w;
    }
    uint64_t cap = ssd_capacity(d);
    w->region_start = cfg_uint(c, "workload.region_offset");
    uint64_t size = cfg_uint(c, "workload.region_size");
    if (w->region_start % w->block) {
        snprintf(err, errlen, "key 'workload.region_offset' (%llu B) is not a multiple of 'workload.block_size' (%llu B)",
                 (unsigned long long)w->region_start, (unsigned long long)w->block);
        free(w);
        return NULL;
    }
    if (w->region_start >= cap || (size && size > cap - w->region_start)) {
        snprintf(err, errlen, "the region 'workload.region_offset' + 'workload.region_size' (%llu + %llu B) lies past the drive's %llu B",
                 (unsigned long long)w->region_start, (unsigned long long)size, (unsigned long long)cap);
        free(w);
        return NULL;
    }
    if (!size) size = cap - w->region_start;
    w->region_blocks = size / w->block;
    if (!w->region_blocks) {
        snprintf(err, errlen, "the region holds no whole block of 'workload.block_size' (%llu B)", (unsigned long long)w->block);
        free(w);
        return NULL;
    }
    w->warmup = cfg_uint(c, "workload.warmup");
    w->target = cfg_uint(c, "workload.requests");
    w->duration = cfg_uint(c, "workload.duration");
    if (!w->target && !w->duration) {
        snprintf(err, errlen, "keys 'workload.requests' and 'workload.duration' are both 0: the run would never stop");
        free(w);
        return NULL;
    }
    w->slots = calloc(w->depth, sizeof *w->slots);
    if (!w->slots) {
        free(w);
        return snprintf(err, errlen, "out of memory"), NULL;
    }
    return w;
}

void workload_free(workload *w)
{
    if (!w) return;
    replay_free(w->trace);
    free(w->slots);
    free(w);
}

void workload_precondition(workload *w)
{
    if (strcmp(w->precondition, "none") == 0) return;
    uint64_t units = ssd_params_of(w->d)->logical_units;
    uint64_t over = strcmp(w->precondition, "steady") == 0 ? (uint64_t)(w->overwrites * (double)units) : 0;
    ssd_precondition(w->d, over, sim_rng(w->s, "precondition"));
}

int workload_run(workload *w, workload_result *r, char *err, size_t errlen)
{
    if (w->trace) {
        replay_result rr;
        int rc = replay_run(w->trace, &rr, err, errlen);
        r->requests = rr.requests;
        r->seconds = rr.seconds;
        ssdlab_stats st;
        ssd_stats(w->d, &st);
        r->iops = r->seconds > 0 ? (double)r->requests / r->seconds : 0;
        r->mib_per_s = r->seconds > 0 ? (double)(st.bytes[0] + st.bytes[1] + st.bytes[2]) / r->seconds / 1048576.0 : 0;
        r->remapped = rr.remapped;
        r->skipped = rr.skipped;
        return rc;
    }
    ssd_reset_stats(w->d);
    w->measuring = w->warmup == 0;
    w->measure_start = sim_now(w->s);
    if (w->measuring && w->duration) w->stop_at = w->measure_start + w->duration;
    for (uint32_t i = 0; i < w->depth; i++) issue(w, &w->slots[i]);
    sim_run(w->s, SIM_TIME_MAX);
    ssdlab_stats st;
    ssd_stats(w->d, &st);
    r->requests = st.completed[0] + st.completed[1] + st.completed[2];
    r->seconds = sim_time_to_sec(sim_now(w->s) - w->measure_start);
    r->iops = r->seconds > 0 ? (double)r->requests / r->seconds : 0;
    r->mib_per_s = r->seconds > 0 ? (double)(st.bytes[0] + st.bytes[1] + st.bytes[2]) / r->seconds / 1048576.0 : 0;
    r->remapped = r->skipped = 0;
    return 0;
}
