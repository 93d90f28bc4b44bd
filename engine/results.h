/* A run's result in one self-describing HDF5 file: what produced it
 * (/meta), one summary row per phase (/summary), the time series
 * (/timeseries), per-die counters and the erase-count distribution
 * (/nand), and latency histograms (/histograms). The file is written under
 * a temporary name and renamed when complete. Layout: docs/results-format.md. */
#ifndef SSDLAB_RESULTS_H
#define SSDLAB_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "ssd.h"

#define RESULTS_FORMAT_VERSION 1

typedef struct phase_summary {
    char name[64];
    char kind[16];
    uint64_t requests, reads, writes, trims, bytes_read, bytes_written;
    double iops, mib_per_s;
    double read_lat_us[7];  /* mean, p50, p90, p99, p99.9, p99.99, max */
    double write_lat_us[7];
    double write_amplification;
    uint64_t gc_units, erases;
    double sim_time_s, wall_time_s;
} phase_summary;

typedef struct results_meta {
    const char *command_line;
    const char *config_yaml; /* the resolved configuration */
    const char *status;      /* complete, interrupted, failed */
    uint64_t seed;
    double start_wall, end_wall; /* seconds since the epoch */
} results_meta;

/* Fills a summary row from the drive's statistics since its last reset. */
void results_phase_row(const ssd *d, phase_summary *row, const char *name, const char *kind, double sim_s, double wall_s);

/* Returns 0, or -1 with a message in err (nothing is left under path). */
int results_write(const char *path, const results_meta *meta, const ssd *d, const phase_summary *phases, size_t count,
                  char *err, size_t errlen);

/* Reads a result file's /summary rows (allocated; the caller frees them)
 * and its /meta status. Returns 0, or -1 if the file is not a readable
 * ssdlab result. */
int results_read_summary(const char *path, phase_summary **rows, size_t *count, char *status, size_t status_len);

#endif
