#include "mm1.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>

const cfg_key mm1_config_keys[] = {
    {"mm1.mean_interarrival", CFG_TIME, "us", "10us", "1ns", "1h", NULL,
     "Mean time between arrivals (exponential): 1/lambda."},
    {"mm1.mean_service", CFG_TIME, "us", "7us", "1ns", "1h", NULL,
     "Mean service time (exponential): 1/mu. Must be below the mean interarrival time."},
    {"mm1.customers", CFG_UINT, NULL, "2000000", "1000", "10000000000", NULL,
     "Customers served and measured after the warm-up."},
    {"mm1.warmup", CFG_UINT, NULL, "20000", "0", "1000000000", NULL,
     "Customers served first and not measured, so the queue forgets its empty start."},
    {"mm1.batches", CFG_UINT, NULL, "20", "2", "1000", NULL,
     "Batches for the batch-means confidence interval of the mean wait."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

/* FIFO of arrival times of waiting customers; grows only when the queue
 * reaches a new maximum length. */
typedef struct fifo {
    sim_time_t *items;
    size_t head, count, cap; /* cap is a power of two */
} fifo;

struct mm1 {
    sim *s;
    gsl_rng *arrival_rng, *service_rng;
    sim_handler_id on_arrival, on_departure;
    double mean_interarrival_s, mean_service_s;
    uint64_t warmup, measured_target, batches;
    uint64_t arrivals, started;
    int busy;
    sim_time_t busy_since, busy_total, measure_start;
    fifo waiting;
    double *batch_sums;
    gsl_histogram *hist;
    uint64_t hist_samples; /* measured waits, in range or not */
    bool out_of_memory;
};

static int fifo_push(fifo *q, sim_time_t t)
{
    if (q->count == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 1024;
        sim_time_t *items = malloc(cap * sizeof *items);
        if (!items) return -1;
        for (size_t i = 0; i < q->count; i++) items[i] = q->items[(q->head + i) & (q->cap - 1)];
        free(q->items);
        q->items = items;
        q->head = 0;
        q->cap = cap;
    }
    q->items[(q->head + q->count++) & (q->cap - 1)] = t;
    return 0;
}

static sim_time_t fifo_pop(fifo *q)
{
    sim_time_t t = q->items[q->head];
    q->head = (q->head + 1) & (q->cap - 1);
    q->count--;
    return t;
}

static sim_time_t draw(gsl_rng *r, double mean_s) { return sim_time_from_sec(gsl_ran_exponential(r, mean_s)); }

static void start_service(mm1 *m, sim_time_t arrived)
{
    sim_time_t now = sim_now(m->s);
    uint64_t k = m->started++;
    if (k == m->warmup) {
        m->measure_start = now;
        m->busy_total = 0;
        m->busy_since = now;
    }
    if (k >= m->warmup && k < m->warmup + m->measured_target) {
        double wait = sim_time_to_sec(now - arrived);
        uint64_t per_batch = m->measured_target / m->batches;
        uint64_t batch = (k - m->warmup) / per_batch;
        if (batch < m->batches) m->batch_sums[batch] += wait;
        gsl_histogram_increment(m->hist, wait); /* values past the last bin are dropped by GSL */
        m->hist_samples++;
    }
    sim_schedule_in(m->s, draw(m->service_rng, m->mean_service_s), m->on_departure, m, 0);
}

static void on_arrival(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)ctx, (void)arg;
    mm1 *m = obj;
    m->arrivals++;
    if (m->arrivals < m->warmup + m->measured_target)
        sim_schedule_in(s, draw(m->arrival_rng, m->mean_interarrival_s), m->on_arrival, m, 0);
    if (!m->busy) {
        m->busy = 1;
        m->busy_since = sim_now(s);
        start_service(m, sim_now(s));
    } else if (fifo_push(&m->waiting, sim_now(s))) {
        m->out_of_memory = true;
        sim_request_stop(s);
    }
}

static void on_departure(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)ctx, (void)arg;
    mm1 *m = obj;
    if (m->started >= m->warmup + m->measured_target && m->waiting.count == 0) {
        m->busy_total += sim_now(s) - m->busy_since;
        m->busy = 0;
        sim_request_stop(s);
        return;
    }
    if (m->waiting.count) {
        start_service(m, fifo_pop(&m->waiting));
        return;
    }
    m->busy_total += sim_now(s) - m->busy_since;
    m->busy = 0;
}

mm1 *mm1_create(sim *s, const cfg *c)
{
    mm1 *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->s = s;
    m->arrival_rng = sim_rng(s, "mm1.arrivals");
    m->service_rng = sim_rng(s, "mm1.service");
    m->on_arrival = sim_register_handler(s, "mm1.arrival", on_arrival, NULL);
    m->on_departure = sim_register_handler(s, "mm1.departure", on_departure, NULL);
    m->mean_interarrival_s = sim_time_to_sec(cfg_uint(c, "mm1.mean_interarrival"));
    m->mean_service_s = sim_time_to_sec(cfg_uint(c, "mm1.mean_service"));
    m->warmup = cfg_uint(c, "mm1.warmup");
    m->measured_target = cfg_uint(c, "mm1.customers");
    m->batches = cfg_uint(c, "mm1.batches");
    m->batch_sums = calloc(m->batches, sizeof *m->batch_sums);
    /* Bins out to 12 mean waits hold all but a negligible tail. */
    double rho = m->mean_service_s / m->mean_interarrival_s;
    double wq = rho < 1 ? rho * m->mean_service_s / (1 - rho) : m->mean_service_s;
    m->hist = gsl_histogram_alloc(60);
    if (!m->batch_sums || !m->hist) {
        mm1_free(m);
        return NULL;
    }
    gsl_histogram_set_ranges_uniform(m->hist, 0.0, 12 * wq);
    return m;
}

void mm1_free(mm1 *m)
{
    if (!m) return;
    free(m->waiting.items);
    free(m->batch_sums);
    if (m->hist) gsl_histogram_free(m->hist);
    free(m);
}

void mm1_run(mm1 *m, sim_time_t stop_time, mm1_result *r)
{
    sim_schedule_in(m->s, draw(m->arrival_rng, m->mean_interarrival_s), m->on_arrival, m, 0);
    sim_run(m->s, stop_time ? stop_time : SIM_TIME_MAX);
    if (m->busy) m->busy_total += sim_now(m->s) - m->busy_since;

    uint64_t per_batch = m->measured_target / m->batches;
    uint64_t measured = m->started > m->warmup ? m->started - m->warmup : 0;
    if (measured > m->measured_target) measured = m->measured_target;
    uint64_t full = measured / per_batch;
    double means[1000];
    for (uint64_t b = 0; b < full; b++) means[b] = m->batch_sums[b] / (double)per_batch;

    double rho = m->mean_service_s / m->mean_interarrival_s;
    r->customers = measured;
    r->rho = rho;
    r->wait_mean_s = full ? gsl_stats_mean(means, 1, full) : NAN;
    r->wait_ci95_s = full > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)(full - 1)) * gsl_stats_sd(means, 1, full) / sqrt((double)full)
                              : NAN;
    r->wait_theory_s = rho < 1 ? rho * m->mean_service_s / (1 - rho) : INFINITY;
    sim_time_t span = sim_now(m->s) - m->measure_start;
    r->utilisation = span ? (double)m->busy_total / (double)span : NAN;
    r->sim_time_s = sim_time_to_sec(sim_now(m->s));
    r->events = sim_events_run(m->s);
    r->wait_p_hist_max_s = gsl_histogram_max(m->hist);
}

int mm1_write_histogram(const mm1 *m, FILE *out)
{
    double lambda = 1 / m->mean_interarrival_s, mu = 1 / m->mean_service_s, rho = lambda / mu;
    double total = (double)m->hist_samples;
    fprintf(out, "wait_lo_s,wait_hi_s,p_simulated,p_theory\n");
    for (size_t i = 0; i < gsl_histogram_bins(m->hist); i++) {
        double lo, hi;
        gsl_histogram_get_range(m->hist, i, &lo, &hi);
        /* P(lo <= Wq < hi) from P(Wq <= t) = 1 - rho exp(-(mu - lambda) t), with the
         * atom P(Wq = 0) = 1 - rho in the first bin. */
        double cdf_lo = i == 0 ? 0 : 1 - rho * exp(-(mu - lambda) * lo);
        double cdf_hi = 1 - rho * exp(-(mu - lambda) * hi);
        fprintf(out, "%.9g,%.9g,%.9g,%.9g\n", lo, hi, total ? gsl_histogram_get(m->hist, i) / total : 0, cdf_hi - cdf_lo);
    }
    return ferror(out) ? -1 : 0;
}
