#include "metrics.h"

#include <stdlib.h>
#include <string.h>

#include "oom.h"

int metrics_init(metrics *m, sim *s, const ftl *f, power_model *power, sim_time_t interval)
{
    *m = (metrics){.s = s, .p = f->p, .f = f, .power = power, .interval = interval, .interval_end = interval};
    if (op_stats_init(&m->ops)) return -1;
    if (!(m->pdf = gsl_histogram_pdf_alloc(LATENCY_BINS))) return -1;
    if (!interval) return 0;
    return (m->iv_latency = latency_histogram()) ? 0 : -1;
}

void metrics_free(metrics *m)
{
    op_stats_free(&m->ops);
    if (m->iv_latency) gsl_histogram_free(m->iv_latency);
    if (m->pdf) gsl_histogram_pdf_free(m->pdf);
    free(m->rows);
}

void metrics_reset(metrics *m)
{
    op_stats_reset(&m->ops);
}

/* The maximum is exact. */
double metrics_quantile(const metrics *m, ssdlab_op op, double q)
{
    return op_stats_quantile(&m->ops, m->pdf, op, q);
}

/* --- the time series ------------------------------------------------------- */

/* 0 for an interval in which nothing completed. */
static double interval_quantile(const metrics *m, double q)
{
    return m->iv_requests ? histogram_quantile(m->pdf, m->iv_latency, q) : 0;
}

static double op_mean_us(const metrics *m, ssdlab_op op)
{
    return m->iv_op_requests[op] ? m->iv_op_latency_sum[op] / (double)m->iv_op_requests[op] / 1000.0 : 0;
}

/* Units programmed since time 0 for host data, GC and the mapping table. */
static uint64_t flash_units_written(const metrics *m)
{
    uint64_t n = 0;
    for (int s = 0; s < STREAM_COUNT; s++) n += m->f->units_written[s] - m->timed_units0[s];
    return n;
}

void metrics_start_timed(metrics *m)
{
    memcpy(m->timed_units0, m->f->units_written, sizeof m->timed_units0);
    m->host_bytes_written = 0;
    m->iv_erases0 = m->f->erases;
    m->iv_gc_units0 = m->f->units_written[STREAM_GC];
}

static void make_room(metrics *m)
{
    if (m->observe.interval || m->row_count < m->row_cap) return;
    size_t cap = m->row_cap ? 2 * m->row_cap : 256;
    ssd_interval *rows = realloc(m->rows, cap * sizeof *rows);
    if (!rows) oom_raise("the time series");
    m->rows = rows;
    m->row_cap = cap;
}

static void start_interval(metrics *m, uint64_t gc_units)
{
    m->iv_flash0 = flash_units_written(m);
    m->iv_host0 = m->host_bytes_written;
    gsl_histogram_reset(m->iv_latency);
    m->iv_requests = m->iv_bytes = 0;
    memset(m->iv_op_bytes, 0, sizeof m->iv_op_bytes);
    memset(m->iv_op_requests, 0, sizeof m->iv_op_requests);
    memset(m->iv_op_latency_sum, 0, sizeof m->iv_op_latency_sum);
    m->iv_latency_sum = 0;
    m->iv_erases0 = m->f->erases;
    m->iv_gc_units0 = gc_units;
}

static void emit(metrics *m, const ssd_interval *row)
{
    make_room(m);
    if (m->observe.interval) m->observe.interval(m->observe.ctx, row);
    else m->rows[m->row_count++] = *row;
}

/* Nothing happened in the interval: no request completed, nothing was
 * written to flash or erased. */
static bool interval_idle(const metrics *m, uint64_t gc_units)
{
    return !m->iv_requests && m->f->erases == m->iv_erases0 && gc_units == m->iv_gc_units0 &&
           flash_units_written(m) == m->iv_flash0 && m->host_bytes_written == m->iv_host0;
}

void metrics_flush(metrics *m)
{
    if (m->idle_pending) emit(m, &m->idle_row);
    m->idle_pending = false;
}

/* Idle intervals in a row become one row from the first one's start to
 * the last one's end, so a long quiet trace costs rows only where
 * something happened; the drive's state (free blocks, SLC, written) is
 * the same all along it, and the temperature is the last one's. */
static void hold_idle(metrics *m, const ssd_interval *row)
{
    ssd_interval *held = &m->idle_row;
    if (m->idle_pending && held->end_s == row->start_s && held->free_blocks == row->free_blocks && held->slc_gib == row->slc_gib) {
        held->end_s = row->end_s;
        held->temperature_c = row->temperature_c;
        return;
    }
    metrics_flush(m);
    *held = *row;
    m->idle_pending = true;
}

/* Closes the interval ending at `end` (which may be shorter than a full
 * interval when the run stops inside it). */
void metrics_close_interval(metrics *m, sim_time_t end, sim_time_t length)
{
    double secs = (double)length * 1e-9;
    uint32_t free_blocks = 0, slc_blocks = 0;
    for (uint32_t die = 0; die < m->p->dies; die++) {
        free_blocks += ftl_free_blocks(m->f, die);
        slc_blocks += m->f->dies[die].slc_blocks;
    }
    const double gib = (double)(UINT64_C(1) << 30);
    double mib_per_s = secs > 0 ? 1.0 / secs / 1048576.0 : 0;
    uint64_t gc_units = m->f->units_written[STREAM_GC];
    ssd_interval row = {
        .start_s = (double)(end - length) * 1e-9,
        .end_s = (double)end * 1e-9,
        .iops = secs > 0 ? (double)m->iv_requests / secs : 0,
        .mib_per_s = (double)m->iv_bytes * mib_per_s,
        .read_mib_per_s = (double)m->iv_op_bytes[SSDLAB_READ] * mib_per_s,
        .write_mib_per_s = (double)m->iv_op_bytes[SSDLAB_WRITE] * mib_per_s,
        .mean_latency_us = m->iv_requests ? m->iv_latency_sum / (double)m->iv_requests / 1000.0 : 0,
        .p99_latency_us = interval_quantile(m, 0.99) / 1000.0,
        .read_mean_latency_us = op_mean_us(m, SSDLAB_READ),
        .write_mean_latency_us = op_mean_us(m, SSDLAB_WRITE),
        /* what the host sent, not the units programmed for it: with a
         * mapping unit coarser than the writes the two differ */
        .host_gib_written = (double)m->host_bytes_written / gib,
        .flash_gib_written = (double)flash_units_written(m) * m->p->unit / gib,
        .free_blocks = free_blocks,
        .slc_gib = (double)slc_blocks * m->p->slc_units_per_block * m->p->unit / gib,
        .erases = m->f->erases - m->iv_erases0,
        .gc_units = gc_units - m->iv_gc_units0,
        .temperature_c = power_temperature(m->power, end),
    };
    if (interval_idle(m, gc_units)) {
        hold_idle(m, &row);
    } else {
        metrics_flush(m);
        emit(m, &row);
    }
    start_interval(m, gc_units);
}

/* Called on every die's activity as well as on completions, so that an
 * interval in which no request completes (a GC burst) still closes on
 * time, with the counters (flash written, free blocks, GC units) as they
 * were at its end. */
void metrics_catch_up(void *ctx)
{
    metrics *m = ctx;
    if (!m->interval) return; /* no time series */
    sim_time_t now = sim_now(m->s);
    while (now >= m->interval_end) {
        metrics_close_interval(m, m->interval_end, m->interval);
        m->interval_end += m->interval;
    }
}

static void interval_completed(metrics *m, const ssdlab_request *r, uint64_t latency_ns)
{
    if (!m->interval) return;
    metrics_catch_up(m);
    m->iv_requests++;
    int c = ssdlab_op_class(r->op);
    if ((c == SSDLAB_READ || c == SSDLAB_WRITE) && !r->status) { /* TRIM, zone management and refusals move no data */
        m->iv_bytes += r->bytes;
        m->iv_op_bytes[c] += r->bytes;
        m->iv_op_requests[c]++;
        m->iv_op_latency_sum[c] += (double)latency_ns;
        if (c == SSDLAB_WRITE) m->host_bytes_written += r->bytes;
    }
    m->iv_latency_sum += (double)latency_ns;
    m->iv_latency->bin[latency_bin(latency_ns)] += 1;
}

void metrics_completed(void *ctx, const ssdlab_request *r)
{
    metrics *m = ctx;
    uint64_t lat = r->finish - r->arrival;
    op_stats_add(&m->ops, r, lat);
    interval_completed(m, r, lat);
    if (m->observe.request) m->observe.request(m->observe.ctx, r);
}
