/* Per-interval metrics, gathered at completions without events of their
 * own: when a completion falls past the end of the current interval, the
 * interval (and any empty ones after it) is closed into a row. */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "fatal.h"
#include "ssd_internal.h"

int metrics_init(ssd *d, sim_time_t interval)
{
    d->interval = interval;
    d->interval_end = interval;
    if (!interval) return 0;
    d->iv_bins = calloc(LATENCY_BINS, sizeof *d->iv_bins);
    return d->iv_bins ? 0 : -1;
}

void metrics_free(ssd *d)
{
    free(d->iv_bins);
    free(d->rows);
}

static double interval_quantile(const ssd *d, double q)
{
    if (!d->iv_requests) return 0;
    double want = q * (double)d->iv_requests, seen = 0;
    for (size_t i = 0; i < LATENCY_BINS; i++) {
        if (seen + (double)d->iv_bins[i] >= want && d->iv_bins[i]) return latency_bin_start(i);
        seen += (double)d->iv_bins[i];
    }
    return latency_bin_start(LATENCY_BINS - 1);
}

static double op_mean_us(const ssd *d, ssdlab_op op)
{
    return d->iv_op_requests[op] ? d->iv_op_latency_sum[op] / (double)d->iv_op_requests[op] / 1000.0 : 0;
}

/* Units programmed since time 0 for host data, GC and the mapping table. */
static uint64_t flash_units_written(const ssd *d)
{
    uint64_t n = 0;
    for (int s = 0; s < STREAM_COUNT; s++) n += d->f.units_written[s] - d->timed_units0[s];
    return n;
}

void metrics_start_timed(ssd *d)
{
    memcpy(d->timed_units0, d->f.units_written, sizeof d->timed_units0);
    d->host_bytes_written = 0;
    d->iv_erases0 = d->f.erases;
    d->iv_gc_units0 = d->f.units_written[STREAM_GC];
}

/* Closes the interval ending at `end` (which may be shorter than a full
 * interval when the run stops inside it). */
static void close_interval(ssd *d, sim_time_t end, sim_time_t length)
{
    if (!d->observe.interval && d->row_count == d->row_cap) {
        size_t cap = d->row_cap ? 2 * d->row_cap : 256;
        ssd_interval *rows = realloc(d->rows, cap * sizeof *rows);
        if (!rows) ssdlab_internal_error("out of memory for the time series");
        d->rows = rows;
        d->row_cap = cap;
    }
    double secs = (double)length * 1e-9;
    uint32_t free_blocks = 0, slc_blocks = 0;
    for (uint32_t die = 0; die < d->p.dies; die++) {
        free_blocks += ftl_free_blocks(&d->f, die);
        slc_blocks += d->f.dies[die].slc_blocks;
    }
    const double gib = (double)(UINT64_C(1) << 30);
    double mib_per_s = secs > 0 ? 1.0 / secs / 1048576.0 : 0;
    uint64_t gc_units = d->f.units_written[STREAM_GC];
    ssd_interval row = {
        .end_s = (double)end * 1e-9,
        .iops = secs > 0 ? (double)d->iv_requests / secs : 0,
        .mib_per_s = (double)d->iv_bytes * mib_per_s,
        .read_mib_per_s = (double)d->iv_op_bytes[SSDLAB_READ] * mib_per_s,
        .write_mib_per_s = (double)d->iv_op_bytes[SSDLAB_WRITE] * mib_per_s,
        .mean_latency_us = d->iv_requests ? d->iv_latency_sum / (double)d->iv_requests / 1000.0 : 0,
        .p99_latency_us = interval_quantile(d, 0.99) / 1000.0,
        .read_mean_latency_us = op_mean_us(d, SSDLAB_READ),
        .write_mean_latency_us = op_mean_us(d, SSDLAB_WRITE),
        /* what the host sent, not the units programmed for it: with a
         * mapping unit coarser than the writes the two differ */
        .host_gib_written = (double)d->host_bytes_written / gib,
        .flash_gib_written = (double)flash_units_written(d) * d->p.unit / gib,
        .free_blocks = free_blocks,
        .slc_gib = (double)slc_blocks * d->p.slc_units_per_block * d->p.unit / gib,
        .erases = d->f.erases - d->iv_erases0,
        .gc_units = gc_units - d->iv_gc_units0,
        .temperature_c = power_temperature(&d->power, end),
    };
    if (d->observe.interval) d->observe.interval(d->observe.ctx, &row);
    else d->rows[d->row_count++] = row;
    memset(d->iv_bins, 0, LATENCY_BINS * sizeof *d->iv_bins);
    d->iv_requests = d->iv_bytes = 0;
    memset(d->iv_op_bytes, 0, sizeof d->iv_op_bytes);
    memset(d->iv_op_requests, 0, sizeof d->iv_op_requests);
    memset(d->iv_op_latency_sum, 0, sizeof d->iv_op_latency_sum);
    d->iv_latency_sum = 0;
    d->iv_erases0 = d->f.erases;
    d->iv_gc_units0 = gc_units;
}

/* Closes the intervals that ended before now. Called on every die's
 * activity as well as on completions, so that an interval in which no
 * request completes (a GC burst) still closes on time, with the counters
 * (flash written, free blocks, GC units) as they were at its end. */
void metrics_catch_up(ssd *d)
{
    if (!d->interval) return; /* no time series */
    sim_time_t now = sim_now(d->s);
    while (now >= d->interval_end) {
        close_interval(d, d->interval_end, d->interval);
        d->interval_end += d->interval;
    }
}

void metrics_completed(ssd *d, const ssdlab_request *r, uint64_t latency_ns)
{
    if (!d->interval) return;
    metrics_catch_up(d);
    d->iv_requests++;
    if (r->op != SSDLAB_TRIM) { /* a TRIM moves no data */
        d->iv_bytes += r->bytes;
        d->iv_op_bytes[r->op] += r->bytes;
        d->iv_op_requests[r->op]++;
        d->iv_op_latency_sum[r->op] += (double)latency_ns;
        if (r->op == SSDLAB_WRITE) d->host_bytes_written += r->bytes;
    }
    d->iv_latency_sum += (double)latency_ns;
    d->iv_bins[latency_bin(latency_ns)]++;
}

void ssd_metrics_tick(ssd *d, sim_time_t *next)
{
    if (!d->interval) {
        *next = SIM_TIME_MAX;
        return;
    }
    metrics_catch_up(d);
    *next = d->interval_end;
}

void ssd_close_interval(ssd *d)
{
    if (!d->interval) return;
    sim_time_t now = sim_now(d->s), start = d->interval_end - d->interval;
    if (now > start) close_interval(d, now, now - start);
    d->interval_end = now + d->interval;
}

void ssd_observe(ssd *d, const ssd_observers *o) { d->observe = *o; }

const ssd_interval *ssd_intervals(const ssd *d, size_t *count)
{
    *count = d->row_count;
    return d->rows;
}

void ssd_erase_counts(const ssd *d, double *min, double *mean, double *max)
{
    size_t n = (size_t)d->p.dies * d->p.blocks_per_die;
    *min = *max = d->f.blocks[0].erase_count;
    double sum = 0;
    for (size_t b = 0; b < n; b++) {
        double e = d->f.blocks[b].erase_count;
        sum += e;
        if (e < *min) *min = e;
        if (e > *max) *max = e;
    }
    *mean = sum / (double)n;
}

void ssd_erase_histogram(const ssd *d, uint64_t *counts, size_t n)
{
    memset(counts, 0, n * sizeof *counts);
    size_t blocks = (size_t)d->p.dies * d->p.blocks_per_die;
    for (size_t b = 0; b < blocks; b++) {
        size_t e = d->f.blocks[b].erase_count;
        counts[e < n ? e : n - 1]++;
    }
}
