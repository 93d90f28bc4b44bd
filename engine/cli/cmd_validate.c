/* ssdlab validate: runs the reviewers' tests that the measured figures of
 * experiments/validation/targets.yaml need, and prints, figure by figure,
 * the measured and simulated values, the error, the tolerance and whether
 * it passes. Exits 1 if any fails. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "figures.h"
#include "results.h"
#include "results_types.h"
#include "runner.h"
#include "validation.h"

#ifndef SSDLAB_EXPERIMENTS_DIR
#define SSDLAB_EXPERIMENTS_DIR "experiments"
#endif

static const char help[] =
    "Usage: ssdlab validate [-d DRIVE]... [--targets FILE] [-o DIR] [--reuse | --no-run] [--set KEY=VALUE]...\n\n"
    "Runs, for each drive, the tests of experiments/review its measured figures need\n"
    "(experiments/validation/targets.yaml), then prints every figure: measured,\n"
    "simulated, error, tolerance, pass or fail. Exits 1 if any figure fails.\n\n"
    "Options:\n"
    "  -d, --drive DRIVE    only this drive (repeatable; default: every drive in the targets)\n"
    "      --targets FILE   the measured figures (default experiments/validation/targets.yaml)\n"
    "  -o, --output DIR     where the results go (default results/validate); DIR/DRIVE/TEST.h5\n"
    "      --reuse          use results already in DIR instead of running their tests again\n"
    "      --no-run         run nothing: judge the results already in DIR (missing ones fail)\n"
    "      --tests LIST     only the figures these tests measure, e.g. --tests P1,P9 (the CI's short validation)\n"
    "      --set KEY=VALUE  override a key in every run (repeatable)\n"
    "  -h, --help           this help\n";

typedef struct validate_args {
    cli_config_args config;
    const char **drives;
    int drive_count;
    const char *targets, *output, *tests;
    bool reuse, no_run;
} validate_args;

static bool listed(const char *const *list, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], s)) return true;
    return false;
}

/* The tests drive `drive` needs and does not have yet (with --reuse), as
 * "P1,P9". Returns the number of tests. */
static int tests_to_run(const target_list *t, const char *drive, const char *dir, bool reuse, char *only, size_t len)
{
    const char *seen[64];
    int n = 0, run = 0;
    only[0] = 0;
    for (size_t i = 0; i < t->count && n < 64; i++) {
        const target *g = &t->targets[i];
        if (strcmp(g->drive, drive) || listed(seen, n, g->test)) continue;
        seen[n++] = g->test;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.h5", dir, g->test);
        if (reuse && access(path, R_OK) == 0) continue;
        snprintf(only + strlen(only), len - strlen(only), "%s%s", run ? "," : "", g->test);
        run++;
    }
    return run;
}

typedef struct loaded {
    char test[64];
    figure_input in;
    phase_summary *phases;
    ssd_interval *series;
    bool ok;
} loaded;

static void print_row(const target *g, double value, const char *why, int *passed, int *failed)
{
    double error;
    bool ok = !why && target_passes(g, value, &error);
    char req[64], sim[64], err[32] = "";
    target_requirement(g, req, sizeof req);
    if (why) snprintf(sim, sizeof sim, "-");
    else snprintf(sim, sizeof sim, "%.4g", value);
    if (!why && !isnan(error)) snprintf(err, sizeof err, "%+.1f %%", 100 * error);
    printf("  %-58.58s %4s %10.4g %10s %-7s %9s %-14s %s\n", g->label, g->test,
           g->check == CHECK_RANGE ? (g->low + g->high) / 2 : g->measured, sim, g->unit, err, req, ok ? "pass" : "FAIL");
    if (why) printf("      %s\n", why);
    *passed += ok;
    *failed += !ok;
}

/* The time series of a result, one row per metrics.interval. */
static int read_uniform_series(const char *path, ssd_interval **rows, size_t *count)
{
    parameter_row *params;
    size_t nparams;
    double interval_s = 0;
    if (results_read_parameters(path, &params, &nparams)) return -1;
    for (size_t i = 0; i < nparams; i++)
        if (!strcmp(params[i].key, "metrics.interval")) interval_s = params[i].number * 1e-9;
    free(params);
    ssd_interval *stored;
    size_t n;
    if (results_read_timeseries(path, &stored, &n)) return -1;
    *rows = figure_uniform_series(stored, n, interval_s, count);
    free(stored);
    return *rows ? 0 : -1;
}

/* Computes and prints every figure of one drive from DIR/TEST.h5. */
static void check_drive(const target_list *t, const char *drive, const char *dir, int *passed, int *failed)
{
    loaded cache[16] = {0};
    int ncache = 0;
    printf("%s\n  %-58s %4s %10s %10s %-7s %9s %-14s %s\n", drive, "figure", "test", "measured", "simulated", "unit", "error",
           "tolerance", "result");
    for (size_t i = 0; i < t->count; i++) {
        const target *g = &t->targets[i];
        if (strcmp(g->drive, drive)) continue;
        loaded *l = NULL;
        for (int k = 0; k < ncache; k++)
            if (!strcmp(cache[k].test, g->test)) l = &cache[k];
        if (!l && ncache < 16) {
            l = &cache[ncache++];
            snprintf(l->test, sizeof l->test, "%s", g->test);
            char path[4200], status[32];
            snprintf(path, sizeof path, "%s/%s.h5", dir, g->test);
            l->ok = !results_read_summary(path, &l->phases, &l->in.phase_count, status, sizeof status) &&
                    !read_uniform_series(path, &l->series, &l->in.series_count) && !strcmp(status, "complete");
            l->in.phases = l->phases;
            l->in.series = l->series;
        }
        char why[512];
        double value = NAN;
        if (!l || !l->ok) snprintf(why, sizeof why, "no complete result %s/%s.h5", dir, g->test);
        else if (figure_compute(&l->in, g->figure, g->phase, &value, why, sizeof why) == 0) why[0] = 0;
        print_row(g, value, why[0] ? why : NULL, passed, failed);
    }
    for (int k = 0; k < ncache; k++) {
        free(cache[k].phases);
        free(cache[k].series);
    }
}

static int parse_args(int argc, char **argv, validate_args *a)
{
    static const struct option opts[] = {CLI_CONFIG_OPTIONS, {"targets", required_argument, NULL, OPT_TARGETS},
                                         {"output", required_argument, NULL, 'o'}, {"reuse", no_argument, NULL, OPT_REUSE}, {"no-run", no_argument, NULL, OPT_NO_RUN},
                                         {"tests", required_argument, NULL, OPT_TESTS},
                                         {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "d:c:o:h", opts, NULL)) != -1) {
        if (opt == 'd') {
            const char **l = realloc(a->drives, (size_t)(a->drive_count + 1) * sizeof *l);
            if (!l) return EXIT_FAILED;
            (a->drives = l)[a->drive_count++] = optarg;
        } else if (cli_config_option(&a->config, opt, optarg)) {
            continue;
        } else if (opt == OPT_TARGETS) a->targets = optarg;
        else if (opt == 'o') a->output = optarg;
        else if (opt == OPT_REUSE) a->reuse = true;
        else if (opt == OPT_NO_RUN) a->no_run = true;
        else if (opt == OPT_TESTS) a->tests = optarg;
        else if (opt == 'h') return fputs(help, stdout), EXIT_OK;
        else return cli_usage_error("validate", "bad option");
    }
    if (optind < argc) return cli_usage_error("validate", "unexpected argument '%s'", argv[optind]);
    return -1;
}

/* --tests: keeps the targets whose test is listed. */
static void keep_tests(target_list *t, const char *tests)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->count; i++) {
        const char *name = t->targets[i].test;
        size_t n = strlen(name);
        bool listed_test = false;
        for (const char *p = tests; *p;) {
            size_t len = strcspn(p, ",");
            listed_test |= len == n && !strncmp(p, name, n);
            p += len + (p[len] == ',');
        }
        if (listed_test) t->targets[kept++] = t->targets[i];
    }
    t->count = kept;
}

int cmd_validate(int argc, char **argv)
{
    validate_args a = {0};
    int rc = parse_args(argc, argv, &a);
    target_list t = {0};
    const char *targets = a.targets ? a.targets : SSDLAB_EXPERIMENTS_DIR "/validation/targets.yaml";
    if (rc < 0 && targets_load(&t, targets)) rc = EXIT_BAD_INPUT;
    if (rc < 0 && a.tests) keep_tests(&t, a.tests);
    for (int i = 0; rc < 0 && i < a.drive_count; i++) {
        bool known = false;
        for (size_t k = 0; k < t.count; k++) known |= !strcmp(t.targets[k].drive, a.drives[i]);
        if (!known) {
            fprintf(stderr, "ssdlab validate: -d %s: no figure of that drive in %s; expected one of the drives it lists\n",
                    a.drives[i], targets);
            rc = EXIT_BAD_INPUT;
        }
    }
    /* the drives in the order of the targets; their tests run together,
     * so one drive's long tests overlap another's */
    enum { MAX_DRIVES = 64 };
    const char *drives[MAX_DRIVES];
    static char dirs[MAX_DRIVES][4096], onlys[MAX_DRIVES][1024];
    experiment_drive runs[MAX_DRIVES];
    int ndrives = 0, nruns = 0;
    for (size_t i = 0; rc < 0 && i < t.count && ndrives < MAX_DRIVES; i++) {
        const char *drive = t.targets[i].drive;
        if (listed(drives, ndrives, drive) || (a.drive_count && !listed(a.drives, a.drive_count, drive))) continue;
        snprintf(dirs[ndrives], sizeof dirs[ndrives], "%s/%s", a.output ? a.output : "results/validate", drive);
        if (!a.no_run && tests_to_run(&t, drive, dirs[ndrives], a.reuse, onlys[ndrives], sizeof onlys[ndrives])) {
            runs[nruns] = (experiment_drive){.config = a.config, .only = onlys[ndrives], .out_dir = dirs[ndrives]};
            runs[nruns++].config.drive = drive;
        }
        drives[ndrives++] = drive;
    }
    if (rc < 0 && nruns) {
        int e = experiment_run_drives("review", runs, nruns, true, cli_cores(), argc, argv);
        if (e == EXIT_BAD_INPUT || e == EXIT_INTERRUPTED) rc = e;
    }
    int passed = 0, failed = 0;
    for (int k = 0; rc < 0 && k < ndrives; k++) check_drive(&t, drives[k], dirs[k], &passed, &failed);
    if (rc < 0) {
        printf("validate: %d figure%s passed, %d failed\n", passed, passed == 1 ? "" : "s", failed);
        rc = failed ? EXIT_FAILED : EXIT_OK;
    }
    targets_free(&t);
    free(a.drives);
    cli_config_args_free(&a.config);
    return rc;
}
