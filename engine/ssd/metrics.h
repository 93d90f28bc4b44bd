/* What the drive measures: per-request statistics since the last reset
 * (counts, bytes, latency histograms), and the time series: one row per
 * metrics.interval of simulated time, closed at completions and on die
 * activity (the flash layer's watch), so it needs no events of its own.
 * It reads the layers below and is told of each completed request. */
#ifndef SSDLAB_METRICS_H
#define SSDLAB_METRICS_H

#include <math.h>
#include <stdbool.h>

#include <gsl/gsl_histogram.h>

#include "ftl.h"
#include "observe.h"
#include "opstats.h"
#include "power.h"
#include "sim.h"
#include "ssdlab.h"

typedef struct metrics {
    sim *s;
    const ssd_params *p;
    const ftl *f;
    power_model *power;
    op_stats ops; /* per-request statistics since the last reset */
    /* the time series */
    sim_time_t interval, interval_end;
    gsl_histogram *iv_latency; /* latencies of the current interval, in the same bins */
    gsl_histogram_pdf *pdf;    /* scratch for quantiles, allocated once */
    uint64_t iv_requests, iv_bytes, iv_op_bytes[2], iv_op_requests[2], iv_erases0, iv_gc_units0, iv_flash0, iv_host0;
    ssd_interval idle_row; /* idle intervals so far, merged into one row not yet given out */
    bool idle_pending;
    uint64_t timed_units0[STREAM_COUNT]; /* units written before time 0 (preconditioning) */
    uint64_t host_bytes_written;         /* bytes of host writes completed since time 0 */
    double iv_latency_sum, iv_op_latency_sum[2];
    ssd_interval *rows;
    size_t row_count, row_cap;
    ssd_observers observe;
} metrics;

int metrics_init(metrics *m, sim *s, const ftl *f, power_model *power, sim_time_t interval);
void metrics_free(metrics *m);
void metrics_reset(metrics *m);
/* Time 0 of the time series: what preconditioning wrote is not counted. */
void metrics_start_timed(metrics *m);
/* A request completed (wired to the host interface at assembly). */
void metrics_completed(void *ctx, const ssdlab_request *r);
/* Closes the interval ending at `end`, `length` long (shorter when the run
 * stops inside it). */
void metrics_close_interval(metrics *m, sim_time_t end, sim_time_t length);
/* Gives out the idle row held back (at the end of a phase or run). */
void metrics_flush(metrics *m);
/* Closes the intervals that ended by now (the flash layer's watch). */
void metrics_catch_up(void *ctx);
/* The latency below which a fraction q of completed requests of op fell. */
double metrics_quantile(const metrics *m, ssdlab_op op, double q);

#endif
