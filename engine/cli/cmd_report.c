/* ssdlab report RESULT.h5 [RESULT.h5 ...]: the summaries of result files,
 * side by side. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "results.h"

#define MAX_FILES 16

static const char *const metric_names[] = {"requests",      "IOPS",         "MiB/s",      "read mean us",
                                           "read p99 us",   "write mean us", "write p99 us", "write ampl."};
enum { METRICS = sizeof metric_names / sizeof metric_names[0] };

/* Latency arrays are [mean, p50, p90, p99, ...] (docs/results-format.md). */
static double metric_value(const phase_summary *r, int m)
{
    const double v[METRICS] = {(double)r->requests, r->iops,           r->mib_per_s,      r->read_lat_us[0],
                               r->read_lat_us[3],   r->write_lat_us[0], r->write_lat_us[3], r->write_amplification};
    return v[m];
}

static void print_phase(size_t p, int files, phase_summary *const *rows, const size_t *counts)
{
    printf("\nphase %zu (%s)\n%-15s", p + 1, counts[0] > p ? rows[0][p].name : "-", "");
    for (int i = 0; i < files; i++) printf(" %14s[%d]", "", i + 1);
    printf("\n");
    for (int m = 0; m < METRICS; m++) {
        printf("%-15s", metric_names[m]);
        for (int i = 0; i < files; i++) {
            double v = p < counts[i] ? metric_value(&rows[i][p], m) : NAN;
            /* NaN marks a metric the phase has none of (no writes, say). */
            if (isnan(v))
                printf(" %17s", "-");
            else
                printf(" %17.6g", v);
        }
        printf("\n");
    }
}

int cmd_report(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs("Usage: ssdlab report RESULT.h5 [RESULT.h5 ...]\n\n"
              "Prints the summary of each result file, phase by phase and side by side:\n"
              "requests, IOPS, MiB/s, mean and p99 latencies, write amplification.\n",
              argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_BAD_INPUT : EXIT_OK;
    }
    int files = argc - 1;
    if (files > MAX_FILES) return cli_usage_error("report", "at most 16 result files");
    phase_summary *rows[MAX_FILES] = {0};
    size_t counts[MAX_FILES] = {0}, most = 0;
    char status[MAX_FILES][32];
    int rc = EXIT_OK;
    for (int i = 0; i < files && rc == EXIT_OK; i++) {
        const char *path = argv[i + 1];
        if (access(path, R_OK) != 0) {
            fprintf(stderr, "ssdlab report: %s: cannot read: %s\n", path, strerror(errno));
            rc = EXIT_BAD_INPUT;
        } else if (results_read_summary(path, &rows[i], &counts[i], status[i], sizeof status[i])) {
            fprintf(stderr, "ssdlab report: %s: not an ssdlab result file (no readable /summary); expected a file written by 'ssdlab run -o'\n",
                    path);
            rc = EXIT_BAD_INPUT;
        } else if (counts[i] > most) {
            most = counts[i];
        }
    }
    if (rc == EXIT_OK) {
        for (int i = 0; i < files; i++) printf("[%d] %s (%s)\n", i + 1, argv[i + 1], status[i]);
        for (size_t p = 0; p < most; p++) print_phase(p, files, rows, counts);
    }
    for (int i = 0; i < files; i++) free(rows[i]);
    return rc;
}
