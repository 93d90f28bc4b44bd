/* ssdlab report RESULT.h5 [RESULT.h5 ...]: the summaries of result files,
 * phase by phase. Files that differ only in their seed are repeats of one
 * experiment and share a column: the mean with its 95 % confidence
 * interval (Student's t). Later columns show their difference from the
 * first in percent. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "cli.h"
#include "results.h"
#include "results_types.h"

#define MAX_FILES 64

typedef struct metric {
    const char *name;
    double (*value)(const phase_summary *r);
} metric;

#define METRIC(fn, expr) \
    static double fn(const phase_summary *r) { return (expr); }
METRIC(m_requests, (double)r->requests)
METRIC(m_iops, r->iops)
METRIC(m_mibs, r->mib_per_s)
METRIC(m_rmean, r->read_lat_us[LAT_MEAN])
METRIC(m_rp50, r->read_lat_us[LAT_P50])
METRIC(m_rp99, r->read_lat_us[LAT_P99])
METRIC(m_rp999, r->read_lat_us[LAT_P999])
METRIC(m_wmean, r->write_lat_us[LAT_MEAN])
METRIC(m_wp50, r->write_lat_us[LAT_P50])
METRIC(m_wp99, r->write_lat_us[LAT_P99])
METRIC(m_wp999, r->write_lat_us[LAT_P999])
METRIC(m_wa, r->write_amplification)
METRIC(m_erases, (double)r->erases)
METRIC(m_slcw, (double)r->slc_bytes_written / 1048576.0)
METRIC(m_slcr, (double)r->slc_bytes_read / 1048576.0)
METRIC(m_busy, r->busy_s)
METRIC(m_busy_mibs, r->busy_mib_s)
METRIC(m_access, r->access_time_us)
METRIC(m_time, r->sim_time_s)

static const metric metrics[] = {
    {"requests", m_requests},         {"IOPS", m_iops},           {"MiB/s", m_mibs},
    {"read mean us", m_rmean},        {"read p50 us", m_rp50},    {"read p99 us", m_rp99},
    {"read p99.9 us", m_rp999},       {"write mean us", m_wmean}, {"write p50 us", m_wp50},     {"write p99 us", m_wp99},
    {"write p99.9 us", m_wp999},      {"write ampl.", m_wa},      {"erases", m_erases},
    {"SLC written MiB", m_slcw},      {"SLC read MiB", m_slcr},   {"busy s", m_busy},
    {"busy MiB/s", m_busy_mibs},      {"access us", m_access},    {"simulated s", m_time},
};
enum { METRICS = sizeof metrics / sizeof metrics[0] };

typedef struct result_file {
    const char *path;
    phase_summary *rows;
    size_t count;
    char status[32];
    char *config; /* without its seed: files with equal ones are repeats */
    int group;
    trace_score score; /* /score; phases 0 without trace replays */
    tenant_row *tenants; /* /tenants: the workers of its groups */
    size_t tenant_count;
} result_file;

/* Drops the seed line from a configuration's YAML. */
static void strip_seed(char *yaml)
{
    for (char *line = yaml; line && *line;) {
        char *next = strchr(line, '\n');
        const char *p = line + strspn(line, " ");
        if (!strncmp(p, "seed:", 5)) {
            memmove(line, next ? next + 1 : line + strlen(line), strlen(next ? next + 1 : "") + 1);
            continue;
        }
        line = next ? next + 1 : NULL;
    }
}

static int load(result_file *f)
{
    if (access(f->path, R_OK) != 0) {
        fprintf(stderr, "ssdlab report: %s: cannot read: %s\n", f->path, strerror(errno));
        return -1;
    }
    if (results_read_summary(f->path, &f->rows, &f->count, f->status, sizeof f->status)) {
        fprintf(stderr, "ssdlab report: %s: not an ssdlab result file (no readable /summary); expected a file written by 'ssdlab run -o'\n",
                f->path);
        return -1;
    }
    results_read_score(f->path, &f->score);
    results_read_tenants(f->path, &f->tenants, &f->tenant_count);
    f->config = results_read_meta(f->path, "configuration");
    if (f->config) strip_seed(f->config);
    return 0;
}

/* Mean of k values and the half-width of its 95 % confidence interval (0
 * for one value); returns k. */
static int mean_ci(const double *v, int k, double *mean, double *half)
{
    if (!k) return 0;
    *mean = gsl_stats_mean(v, 1, (size_t)k);
    *half = k > 1 ? gsl_cdf_tdist_Pinv(0.975, k - 1) * gsl_stats_sd_m(v, 1, (size_t)k, *mean) / sqrt(k) : 0;
    return k;
}

static int column_stats(const result_file *files, int n, int group, size_t phase, const metric *m, double *mean, double *half)
{
    double v[MAX_FILES];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (files[i].group == group && phase < files[i].count && !isnan(m->value(&files[i].rows[phase])))
            v[k++] = m->value(&files[i].rows[phase]);
    return mean_ci(v, k, mean, half);
}

/* The PCMark-style score of each column's trace replays (/score). */
static void print_scores(const result_file *files, int n, int groups)
{
    static const char *const names[] = {"busy s", "bandwidth MiB/s", "access us", "score"};
    bool any = false;
    for (int i = 0; i < n; i++) any |= files[i].score.phases > 0;
    if (!any) return;
    printf("\ntrace replays (bandwidth over busy time; score = sqrt(MiB/s x 1/s of access time))\n");
    for (int k = 0; k < 4; k++) {
        printf("%-16s", names[k]);
        for (int g = 0; g < groups; g++) {
            double v[MAX_FILES], mean = NAN, half = 0;
            int c = 0;
            for (int i = 0; i < n; i++) {
                const trace_score *s = &files[i].score;
                if (files[i].group != g || !s->phases) continue;
                v[c++] = k == 0 ? s->busy_s : k == 1 ? s->bandwidth_mib_s : k == 2 ? s->access_time_us : s->score;
            }
            int got = mean_ci(v, c, &mean, &half);
            if (!got) printf(" %14s%-12s", "-", "");
            else if (got == 1) printf(" %14.6g%-12s", mean, "");
            else printf(" %14.6g +-%-9.3g", mean, half);
        }
        printf("\n");
    }
}

static void print_phase(const result_file *files, int n, int groups, size_t p)
{
    const char *name = "-";
    for (int i = 0; i < n; i++)
        if (p < files[i].count) {
            name = files[i].rows[p].name;
            break;
        }
    printf("\nphase %zu (%s)\n%-16s", p + 1, name, "");
    for (int g = 0; g < groups; g++) printf(" %24s%-2c", "", 'A' + g);
    if (groups > 1)
        for (int g = 1; g < groups; g++) printf(" %7s%c vs A", "", 'A' + g);
    printf("\n");
    for (int k = 0; k < METRICS; k++) {
        printf("%-16s", metrics[k].name);
        double first = NAN, means[MAX_FILES];
        for (int g = 0; g < groups; g++) {
            double mean = NAN, half = 0;
            int got = column_stats(files, n, g, p, &metrics[k], &mean, &half);
            means[g] = got ? mean : NAN;
            if (!got) printf(" %14s%-12s", "-", ""); /* the phase has none of it (no writes, say) */
            else if (got == 1) printf(" %14.6g%-12s", mean, "");
            else printf(" %14.6g +-%-9.3g", mean, half);
            if (g == 0) first = means[0];
        }
        for (int g = 1; g < groups; g++) {
            if (isnan(first) || isnan(means[g]) || first == 0) printf(" %13s", "-");
            else printf(" %+12.1f%%", 100 * (means[g] - first) / first);
        }
        printf("\n");
    }
}

static void cell(double v)
{
    if (isnan(v)) printf(" %12s", "-");
    else printf(" %12.1f", v);
}

/* The tenants of phase row p in every file, side by side. */
static void print_tenants(const result_file *files, int n, size_t p)
{
    bool any = false;
    for (int i = 0; i < n; i++)
        for (size_t k = 0; k < files[i].tenant_count; k++) {
            const tenant_row *t = &files[i].tenants[k];
            if (t->summary_row != p) continue;
            if (!any)
                printf("  tenants        %-14s %12s %12s %12s %12s %12s %12s %12s\n", "", "IOPS", "MiB/s", "read mean us", "read p99 us",
                       "write mean us", "write p99 us", "slowdown");
            any = true;
            printf("    %c [%d]        %-14.14s", 'A' + files[i].group, i + 1, t->tenant);
            cell(t->iops);
            cell(t->mib_per_s);
            cell(t->reads ? t->read_lat_us[LAT_MEAN] : NAN);
            cell(t->reads ? t->read_lat_us[LAT_P99] : NAN);
            cell(t->writes ? t->write_lat_us[LAT_MEAN] : NAN);
            cell(t->writes ? t->write_lat_us[LAT_P99] : NAN);
            if (isnan(t->slowdown)) printf(" %12s\n", "-");
            else printf(" %12.3f\n", t->slowdown);
            if (!isnan(t->fairness) && (k + 1 == files[i].tenant_count || files[i].tenants[k + 1].summary_row != p))
                printf("    %c [%d]        fairness %.3f (lowest slowdown / highest)\n", 'A' + files[i].group, i + 1, t->fairness);
        }
}

int cmd_report(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs("Usage: ssdlab report RESULT.h5 [RESULT.h5 ...]\n\n"
              "Prints the summary of each result file phase by phase: requests, IOPS, MiB/s,\n"
              "latency percentiles, write amplification, erases, SLC-cache hits; the workers\n"
              "of a group as tenants side by side (with ssdlab run --alone, their slowdowns\n"
              "and the group's fairness).\n"
              "Files whose configurations differ only in the seed are repeats and share a\n"
              "column: mean +- the half-width of its 95% confidence interval. With more than\n"
              "one column, the last columns give each one's difference from column A in percent.\n",
              argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_BAD_INPUT : EXIT_OK;
    }
    int n = argc - 1, groups = 0, rc = EXIT_OK;
    if (n > MAX_FILES) return cli_usage_error("report", "at most %d result files", MAX_FILES);
    result_file files[MAX_FILES];
    memset(files, 0, sizeof files);
    size_t most = 0;
    for (int i = 0; i < n && rc == EXIT_OK; i++) {
        files[i].path = argv[i + 1];
        if (load(&files[i])) {
            rc = EXIT_BAD_INPUT;
            break;
        }
        if (files[i].count > most) most = files[i].count;
        files[i].group = groups;
        for (int j = 0; j < i; j++)
            if (files[i].config && files[j].config && !strcmp(files[i].config, files[j].config)) {
                files[i].group = files[j].group;
                break;
            }
        if (files[i].group == groups) groups++;
    }
    if (rc == EXIT_OK) {
        for (int i = 0; i < n; i++) printf("%c [%d] %s (%s)\n", 'A' + files[i].group, i + 1, files[i].path, files[i].status);
        for (size_t p = 0; p < most; p++) {
            print_phase(files, n, groups, p);
            print_tenants(files, n, p);
        }
        print_scores(files, n, groups);
    }
    for (int i = 0; i < n; i++) {
        free(files[i].rows);
        free(files[i].config);
        free(files[i].tenants);
    }
    return rc;
}
