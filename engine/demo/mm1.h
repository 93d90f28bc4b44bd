/* An M/M/1 queue on the event core: Poisson arrivals, one server with
 * exponential service times, FIFO. It has closed-form answers, so it checks
 * the whole engine (clock, queue, handlers, random streams) end to end, and
 * it is the demo until the SSD model lands. */
#ifndef SSDLAB_MM1_H
#define SSDLAB_MM1_H

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "sim.h"

extern const cfg_key mm1_config_keys[];

typedef struct mm1_result {
    uint64_t customers;          /* measured (after warm-up) */
    double rho;                  /* offered load */
    double wait_mean_s;          /* mean time in queue, simulated */
    double wait_ci95_s;          /* half-width of its 95 % confidence interval (batch means) */
    double wait_theory_s;        /* rho * E[S] / (1 - rho) */
    double utilisation;          /* busy fraction of the server, simulated */
    double sim_time_s;
    uint64_t events;
    double wait_p_hist_max_s;    /* upper edge of the histogram */
} mm1_result;

typedef struct mm1 mm1;

/* Builds the model from the mm1.* keys on simulator s. Returns NULL when
 * out of memory. */
mm1 *mm1_create(sim *s, const cfg *c);
void mm1_free(mm1 *m);
/* Runs until the configured number of customers have been served or
 * sim.stop_time passes; fills r. */
void mm1_run(mm1 *m, sim_time_t stop_time, mm1_result *r);
/* Waiting-time histogram as CSV: bin edges, simulated and closed-form
 * probability of each bin. */
int mm1_write_histogram(const mm1 *m, FILE *out);

#endif
