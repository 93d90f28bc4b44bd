/* Running a configured workload on a drive, for 'ssdlab run' and for each
 * test of an experiment: builds the model, preconditions, runs the phases
 * (groups marked with_previous as workers), reports each phase to a log,
 * and streams the result file and time series as it goes. SIGINT and
 * SIGTERM stop it at the next check with the result marked interrupted. */
#ifndef SSDLAB_RUNNER_H
#define SSDLAB_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"

typedef struct run_request {
    const cfg *config;     /* the run's configuration (the workload's, without phases) */
    cfg **phases;          /* the workload's phases, or NULL */
    size_t phase_count;
    const char *drive_label; /* how the header names the drive file */
    const char *output;    /* HDF5 result, or NULL */
    const char *timeseries; /* CSV time series, or NULL */
    bool log_requests, progress, check;
    int argc;              /* the command line, recorded in /meta */
    char **argv;
    FILE *log;             /* where the phase reports go */
    bool alone;            /* --alone: each worker of a group also runs by itself first, for its slowdown */
    /* set by runner_run for a worker's run alone: run up to the phase
     * alone_worker - 1 (0: no such run), of its group only that worker,
     * and leave its mean latency (us) in *alone_mean_us */
    size_t alone_worker;
    double *alone_mean_us;
    const double *baseline_us; /* per phase: the worker's mean latency alone (NAN: none) */
} run_request;

/* Returns an exit status (cli.h); EXIT_INTERRUPTED after SIGINT/SIGTERM. */
int runner_run(const run_request *rq);
/* Whether SIGINT or SIGTERM has asked the program to stop. */
bool runner_interrupted(void);

#endif
