/* A run's result in one self-describing HDF5 file: what produced it
 * (/meta), one summary row per phase (/summary), the time series
 * (/timeseries), optionally every request (/requests), per-die counters
 * and the erase-count distribution (/nand), and latency histograms per
 * phase (/histograms). Layout: docs/results-format.md.
 *
 * The writer streams: time-series rows, request records and summary rows
 * go to the file as the run produces them, through buffers of fixed size,
 * so memory stays bounded however long the run. The file lives under a
 * temporary name until results_finish renames it. */
#ifndef SSDLAB_RESULTS_H
#define SSDLAB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ssd.h"
#include "summary_row.h"

#define RESULTS_FORMAT_VERSION 7

typedef struct results_meta {
    const char *command_line;
    const char *config_yaml; /* the resolved configuration */
    const cfg *config;       /* the same, as /meta/parameters (may be NULL) */
    const char *status;      /* complete, interrupted, failed */
    uint64_t seed;
    double start_wall, end_wall; /* seconds since the epoch */
} results_meta;

typedef struct results_writer results_writer;

/* Fills a summary row from the drive's statistics since its last reset;
 * the phase began at simulated second start_s and lasted sim_s. */
void results_phase_row(const ssd *d, phase_summary *row, const char *name, const char *kind, double start_s, double sim_s,
                       double wall_s);

/* Call before any other HDF5 use: a file whose writes failed (disk full,
 * file-size limit) stays open inside HDF5 1.10 after its close fails, and
 * the library's own clean-up at exit would crash on it; its temporary is
 * already gone, so the process leaves it alone. */
void results_library_init(void);

/* Creates the temporary file for `path`. With log_requests, every
 * completed request is recorded. Returns NULL with a message in err. */
results_writer *results_open(const char *path, bool log_requests, char *err, size_t errlen);
/* Observers (ssd_observe) that stream a drive's time series and requests
 * into the file. */
void results_interval(results_writer *w, const ssd_interval *row);
void results_request(results_writer *w, const ssdlab_request *r);
/* Appends a phase's summary row and its latency histograms; the keys in
 * which the phase's configuration differs from the run's (base) go to
 * /meta/phase_parameters. Either configuration may be NULL. */
/* A worker of the group whose phase row was added last, as a tenant. */
void results_add_tenant(results_writer *w, const tenant_row *row, const gsl_histogram *read, const gsl_histogram *write);
void results_add_phase(results_writer *w, const ssd *d, const phase_summary *row, const cfg *phase, const cfg *base);
/* Writes /meta and /nand, closes and renames the file, and frees w.
 * Returns 0, or -1 with a message in err; either way nothing is left under
 * a temporary name, and on failure nothing under path. */
int results_finish(results_writer *w, const results_meta *meta, const ssd *d, char *err, size_t errlen);
/* Abandons the file: the temporary is removed. */
void results_discard(results_writer *w);

/* Reads a result file's /summary rows (allocated; the caller frees them)
 * and its /meta status. Returns 0, or -1 if the file is not a readable
 * ssdlab result. */
int results_read_summary(const char *path, phase_summary **rows, size_t *count, char *status, size_t status_len);
/* Reads a result file's /timeseries (allocated; the caller frees it).
 * Returns 0, or -1 if the file is not a readable ssdlab result. */
int results_read_timeseries(const char *path, ssd_interval **rows, size_t *count);
/* Reads a string attribute of /meta (allocated; the caller frees it), or
 * NULL if there is none. */
char *results_read_meta(const char *path, const char *attribute);

#endif
