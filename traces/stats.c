#include "stats.h"

#include "devices.h"
#include "footprint.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_histogram.h>
#include <gsl/gsl_rstat.h>
#include <math.h>

/* The per-device footprints' bitmaps, together, stop growing here (the
 * devices past it are left uncounted); the whole trace's has its own. */
#define DEVICE_FOOTPRINTS_BYTES (UINT64_C(256) << 20)
const double trace_stats_quantiles[3] = {0.5, 0.9, 0.99};

/* Bins 2 % wide from lo to hi: quantiles of gaps, whatever their scale,
 * to 1 %. */
static gsl_histogram *log_histogram(double lo, double hi)
{
    size_t n = (size_t)ceil(log(hi / lo) / log(1.02));
    gsl_histogram *h = gsl_histogram_alloc(n);
    if (!h) return NULL;
    double *edges = malloc((n + 1) * sizeof *edges);
    if (!edges) return gsl_histogram_free(h), NULL;
    for (size_t i = 0; i <= n; i++) edges[i] = lo * pow(1.02, (double)i);
    gsl_histogram_set_ranges(h, edges, n + 1);
    free(edges);
    return h;
}

/* The quantiles of what h counted, through GSL's inverse CDF (as the run's
 * latency quantiles are); values below the lowest edge (zero gaps) count
 * as it. */
static void gap_quantiles(const gsl_histogram *h, double out[3])
{
    gsl_histogram_pdf *pdf = gsl_histogram_sum(h) > 0 ? gsl_histogram_pdf_alloc(h->n) : NULL;
    for (int i = 0; i < 3; i++) out[i] = 0;
    if (!pdf || gsl_histogram_pdf_init(pdf, h)) {
        if (pdf) gsl_histogram_pdf_free(pdf);
        return;
    }
    for (int i = 0; i < 3; i++) out[i] = gsl_histogram_pdf_sample(pdf, trace_stats_quantiles[i]);
    gsl_histogram_pdf_free(pdf);
}

/* Sizes are whole sectors: bins of 512 B up to 16 MiB, and a quantile is
 * the size that reaches it (a bin's lower edge), not a blend of two. */
static gsl_histogram *size_histogram(void)
{
    gsl_histogram *h = gsl_histogram_alloc(32768);
    if (h) gsl_histogram_set_ranges_uniform(h, 0, 32768.0 * 512);
    return h;
}

static void size_quantiles(const gsl_histogram *h, double out[3])
{
    double total = gsl_histogram_sum(h), seen = 0;
    size_t i = 0;
    for (int q = 0; q < 3; q++) {
        while (i < h->n && seen + h->bin[i] < trace_stats_quantiles[q] * total) seen += h->bin[i++];
        out[q] = total > 0 ? h->range[i < h->n ? i : h->n - 1] : 0;
    }
}

static void count_in(gsl_histogram *h, double v)
{
    double lo = h->range[0], hi = h->range[h->n];
    gsl_histogram_increment(h, v < lo ? lo : v >= hi ? nextafter(hi, 0) : v);
}

/* Gaps over a second, and the busiest second. */
typedef struct pace {
    uint64_t second, in_second;
} pace;

static void count_time(trace_stats *s, pace *pc, sim_time_t t, sim_time_t gap)
{
    if (gap > 1000000000) {
        s->idle_gaps++;
        s->idle_s += sim_time_to_sec(gap);
    }
    uint64_t sec = (uint64_t)(t / 1000000000);
    if (sec != pc->second) pc->second = sec, pc->in_second = 0;
    if (++pc->in_second > s->busiest_requests) {
        s->busiest_requests = pc->in_second;
        s->busiest_at_s = (double)sec;
    }
}

static void count_device(trace_device *d, const trace_record *r)
{
    d->requests++;
    d->count[r->op]++;
    d->bytes[r->op] += r->bytes;
    if (r->offset < d->min_offset) d->min_offset = r->offset;
    if (r->offset + r->bytes > d->max_end) d->max_end = r->offset + r->bytes;
}

/* Marks a request on its device's footprint, within the shared budget. */
static void mark_device(footprint *f, uint64_t *budget_used, const trace_record *r)
{
    uint64_t before = f->nwords;
    footprint_mark(f, r->offset, r->bytes);
    *budget_used += (f->nwords - before) * sizeof *f->words;
    if (*budget_used > DEVICE_FOOTPRINTS_BYTES && !f->overflow) {
        *budget_used -= f->nwords * sizeof *f->words;
        footprint_free(f);
        f->overflow = true;
    }
}

/* Each device's footprint (freeing the bitmaps), and the records the
 * reader skipped. */
static void finish_devices(trace_stats *s, footprint *device_pages, const trace_reader *t)
{
    for (uint32_t i = 0; device_pages && i < s->devices && i < STATS_DEVICES; i++) {
        s->device[i].footprint_pages = device_pages[i].overflow ? UINT64_MAX : device_pages[i].set;
        footprint_free(&device_pages[i]);
    }
    free(device_pages);
    const char *kind;
    s->skipped = trace_skipped(t, &kind);
    snprintf(s->skipped_kind, sizeof s->skipped_kind, "%s", kind);
}

static int size_bucket(uint32_t bytes)
{
    int b = 0;
    for (uint64_t limit = 512; b < SIZE_BUCKETS - 1 && bytes > limit; limit *= 2) b++;
    return b;
}

/* The entry of s->device that r counts in, -1 past the first
 * STATS_DEVICES; a device's first record opens its entry. *number: the
 * device's number in ds (-1 when out of memory); *first: whether this is
 * its first record. */
static int device_slot(trace_stats *s, trace_devices *ds, const trace_record *r, int64_t *number, bool *first)
{
    *number = trace_devices_number(ds, r->device, first);
    if (*number < 0) return -1;
    if (*first) {
        if (s->devices < STATS_DEVICES) s->device[s->devices] = (trace_device){.id = r->device, .min_offset = UINT64_MAX};
        s->devices++;
    }
    return *number < STATS_DEVICES ? (int)*number : -1;
}

/* Where each device's previous request ended, of any kind and by reads
 * and writes (+1, so that 0 says "none yet"), by device number. */
typedef struct device_next {
    uint64_t any, of_op[2];
} device_next;

/* Room in *next for device number n; false when out of memory. */
static bool next_room(device_next **next, uint32_t *cap, int64_t n)
{
    if (n < *cap) return true;
    uint32_t want = *cap ? 2 * *cap : 256;
    device_next *p = realloc(*next, want * sizeof *p);
    if (!p) return false;
    memset(p + *cap, 0, (want - *cap) * sizeof *p);
    *next = p;
    *cap = want;
    return true;
}

/* The whole trace's counts and extent. */
static void count_record(trace_stats *s, const trace_record *r)
{
    s->requests++;
    s->count[r->op]++;
    s->bytes[r->op] += r->bytes;
    if (r->offset + r->bytes > s->max_end) s->max_end = r->offset + r->bytes;
    if (s->requests == 1 || r->offset < s->min_offset) s->min_offset = r->offset;
}

int trace_stats_compute(const char *path, const trace_options *opt, trace_stats *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    trace_reader *t = trace_open(path, opt, err, errlen);
    if (!t) return -1;
    s->format = trace_format_of(t);
    trace_devices ds = {0};
    device_next *next = NULL;
    uint32_t next_cap = 0;
    gsl_rstat_workspace *gaps = gsl_rstat_alloc();
    gsl_histogram *size_h = size_histogram(), *gap_h = log_histogram(1e-9, 1e8);
    pace pc = {0};
    footprint pages = {0};
    footprint *device_pages = calloc(STATS_DEVICES, sizeof *device_pages);
    uint64_t device_bytes = 0;
    trace_record r;
    sim_time_t last_time = 0;
    int rc = gaps && size_h && gap_h && device_pages ? 1 : -2;
    while (rc == 1 && (rc = trace_next(t, &r)) == 1) {
        count_record(s, &r);
        s->size_hist[size_bucket(r.bytes)]++;
        int64_t number;
        bool first;
        int k = device_slot(s, &ds, &r, &number, &first);
        if (number < 0 || !next_room(&next, &next_cap, number)) {
            rc = -2;
            break;
        }
        device_next *dn = &next[number];
        if (!first && dn->any == r.offset + 1) s->sequential++;
        if (r.op == TRACE_READ || r.op == TRACE_WRITE) {
            if (dn->of_op[r.op] && dn->of_op[r.op] == r.offset + 1) s->sequential_op[r.op]++;
            dn->of_op[r.op] = r.offset + r.bytes + 1;
        }
        if (k >= 0) {
            count_device(&s->device[k], &r);
            mark_device(&device_pages[k], &device_bytes, &r);
        }
        dn->any = r.offset + r.bytes + 1;
        footprint_mark(&pages, r.offset, r.bytes);
        s->aligned += r.offset % 4096 == 0 && r.bytes % 4096 == 0;
        count_in(size_h, (double)r.bytes);
        sim_time_t gap = r.time > last_time ? r.time - last_time : 0;
        if (s->requests > 1) {
            gsl_rstat_add(sim_time_to_sec(gap), gaps);
            count_in(gap_h, sim_time_to_sec(gap));
        }
        count_time(s, &pc, r.time, s->requests > 1 ? gap : 0);
        if (r.time > last_time) last_time = r.time;
    }
    if (rc == -2) snprintf(err, errlen, "%s: out of memory for the statistics", path);
    else if (rc < 0) snprintf(err, errlen, "%s", trace_error(t));
    s->duration_s = sim_time_to_sec(last_time);
    s->interarrival_mean_s = gsl_rstat_n(gaps) ? gsl_rstat_mean(gaps) : 0;
    s->interarrival_sd_s = gsl_rstat_n(gaps) > 1 ? gsl_rstat_sd(gaps) : 0;
    s->footprint_pages = pages.overflow ? UINT64_MAX : pages.set;
    finish_devices(s, device_pages, t);
    if (size_h) size_quantiles(size_h, s->size_pct);
    if (gap_h) gap_quantiles(gap_h, s->gap_pct);
    footprint_free(&pages);
    if (size_h) gsl_histogram_free(size_h);
    if (gap_h) gsl_histogram_free(gap_h);
    if (gaps) gsl_rstat_free(gaps);
    free(next);
    trace_devices_free(&ds);
    trace_close(t);
    return rc < 0 ? -1 : 0;
}

int trace_stats_extent(const char *path, const trace_options *opt, trace_stats *s, char *err, size_t errlen)
{
    return trace_stats_extent_each(path, opt, s, NULL, NULL, err, errlen);
}

int trace_stats_extent_each(const char *path, const trace_options *opt, trace_stats *s, trace_record_fn *each, void *ctx,
                            char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    trace_reader *t = trace_open(path, opt, err, errlen);
    if (!t) return -1;
    s->format = trace_format_of(t);
    s->footprint_pages = UINT64_MAX; /* not counted */
    trace_devices ds = {0};
    trace_record r;
    sim_time_t last_time = 0;
    int rc = 1;
    while (rc == 1 && (rc = trace_next(t, &r)) == 1) {
        count_record(s, &r);
        int64_t number;
        bool first;
        int k = device_slot(s, &ds, &r, &number, &first);
        if (number < 0) {
            rc = -2;
            break;
        }
        if (k >= 0) count_device(&s->device[k], &r);
        if (r.time > last_time) last_time = r.time;
        if (each) each(ctx, &r);
    }
    if (rc == -2) snprintf(err, errlen, "%s: out of memory for the statistics", path);
    else if (rc < 0) snprintf(err, errlen, "%s", trace_error(t));
    s->duration_s = sim_time_to_sec(last_time);
    for (uint32_t i = 0; i < s->devices && i < STATS_DEVICES; i++) s->device[i].footprint_pages = UINT64_MAX;
    trace_devices_free(&ds);
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

