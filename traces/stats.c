#include "stats.h"

#include "footprint.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rstat.h>

enum { MAX_DEVICES = 1024 };
static void count_device(trace_device *d, const trace_record *r)
{
    d->requests++;
    d->count[r->op]++;
    d->bytes[r->op] += r->bytes;
    if (r->offset < d->min_offset) d->min_offset = r->offset;
    if (r->offset + r->bytes > d->max_end) d->max_end = r->offset + r->bytes;
}

static int size_bucket(uint32_t bytes)
{
    int b = 0;
    for (uint64_t limit = 512; b < SIZE_BUCKETS - 1 && bytes > limit; limit *= 2) b++;
    return b;
}

int trace_stats_compute(const char *path, const trace_options *opt, trace_stats *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    trace_reader *t = trace_open(path, opt, err, errlen);
    if (!t) return -1;
    s->format = trace_format_of(t);
    uint64_t *next_offset = calloc(MAX_DEVICES, sizeof *next_offset);
    uint64_t *next_of_op = calloc(2 * MAX_DEVICES, sizeof *next_of_op); /* 0: none yet */
    bool *seen = calloc(MAX_DEVICES, sizeof *seen);
    int16_t *slot = calloc(MAX_DEVICES, sizeof *slot); /* dev -> its place in s->device, -1 beyond */
    gsl_rstat_workspace *gaps = gsl_rstat_alloc();
    footprint pages = {0};
    trace_record r;
    sim_time_t last_time = 0;
    int rc = next_offset && next_of_op && seen && slot && gaps ? 1 : -2;
    while (rc == 1 && (rc = trace_next(t, &r)) == 1) {
        s->requests++;
        s->count[r.op]++;
        s->bytes[r.op] += r.bytes;
        s->size_hist[size_bucket(r.bytes)]++;
        uint32_t dev = r.device % MAX_DEVICES;
        if (seen[dev] && next_offset[dev] == r.offset) s->sequential++;
        if (r.op != TRACE_TRIM) {
            uint64_t *next = &next_of_op[2 * dev + r.op];
            if (*next && *next == r.offset + 1) s->sequential_op[r.op]++;
            *next = r.offset + r.bytes + 1; /* +1: offset 0 stays "none" */
        }
        if (!seen[dev]) {
            slot[dev] = s->devices < STATS_DEVICES ? (int16_t)s->devices : -1;
            if (slot[dev] >= 0) s->device[slot[dev]] = (trace_device){.id = r.device, .min_offset = UINT64_MAX};
            s->devices++;
        }
        seen[dev] = true;
        if (slot[dev] >= 0) count_device(&s->device[slot[dev]], &r);
        next_offset[dev] = r.offset + r.bytes;
        if (r.offset + r.bytes > s->max_end) s->max_end = r.offset + r.bytes;
        if (s->requests == 1 || r.offset < s->min_offset) s->min_offset = r.offset;
        footprint_mark(&pages, r.offset, r.bytes);
        if (s->requests > 1) gsl_rstat_add(sim_time_to_sec(r.time > last_time ? r.time - last_time : 0), gaps);
        if (r.time > last_time) last_time = r.time;
    }
    if (rc == -2) snprintf(err, errlen, "%s: out of memory for the statistics", path);
    else if (rc < 0) snprintf(err, errlen, "%s", trace_error(t));
    s->duration_s = sim_time_to_sec(last_time);
    s->interarrival_mean_s = gsl_rstat_n(gaps) ? gsl_rstat_mean(gaps) : 0;
    s->interarrival_sd_s = gsl_rstat_n(gaps) > 1 ? gsl_rstat_sd(gaps) : 0;
    s->footprint_pages = pages.overflow ? UINT64_MAX : pages.set;
    footprint_free(&pages);
    if (gaps) gsl_rstat_free(gaps);
    free(next_offset);
    free(next_of_op);
    free(seen);
    free(slot);
    trace_close(t);
    return rc < 0 ? -1 : 0;
}

bool trace_time_doubtful(trace_format f, double unit_ns, uint64_t requests, double span_s, char *buf, size_t len)
{
    if (f != TRACE_DISKSIM || requests < 100 || span_s <= 0) return false;
    double rate = (double)requests / span_s;
    if (span_s < 30 * 86400.0 && (span_s < 3600 || rate >= 1)) return false;
    char unit[32];
    if (unit_ns == 0 || unit_ns == 1e6) snprintf(unit, sizeof unit, "ms (DiskSim's)");
    else snprintf(unit, sizeof unit, "%g ns", unit_ns);
    snprintf(buf, len,
             "read with times in %s, the trace spans %.1f h for %llu requests (%.3g a second); if its times are in ns "
             "(MQSim's traces are), use --time-unit ns (workload.trace_time_unit=ns)",
             unit, span_s / 3600, (unsigned long long)requests, rate);
    return true;
}

