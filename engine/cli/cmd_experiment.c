/* ssdlab experiment NAME -d DRIVE: every test of an experiment (a folder of
 * workload files, e.g. experiments/review/P1.yaml .. P11.yaml) run on one
 * drive, each into DIR/TEST.h5 with its log and its plot. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "runner.h"

#ifndef SSDLAB_EXPERIMENTS_DIR
#define SSDLAB_EXPERIMENTS_DIR "experiments"
#endif

static const char help[] =
    "Usage: ssdlab experiment NAME -d DRIVE [--only TEST,...] [-o DIR] [-j N] [--set KEY=VALUE]... [--seed N] [--no-plots]\n\n"
    "Runs every test of an experiment on a drive: NAME is a folder of workload files\n"
    "(experiments/NAME/, e.g. 'review': the reviewers' protocol P1..P11), or a path\n"
    "to one. Each test writes DIR/TEST.h5, DIR/TEST.log and, when the test names a\n"
    "plot (experiment.plot), DIR/TEST.png. DIR defaults to results/NAME-DRIVE.\n\n"
    "Options:\n"
    "  -d, --drive DRIVE    drive file, or a preset's name (models/drives/NAME.yaml)\n"
    "      --only LIST      only these tests, e.g. --only P7,P9\n"
    "  -o, --output DIR     where the results go\n"
    "      --set KEY=VALUE  override a key in every test (repeatable)\n"
    "      --seed N         set sim.seed\n"
    "      --no-plots       skip the plots\n"
    "  -j, --jobs N         tests run at once, each in its own process (default: the cores)\n"
    "  -h, --help           this help\n";

enum { MAX_TESTS = 64 };

typedef struct experiment {
    char dir[4096];              /* the folder of test files */
    char *tests[MAX_TESTS];      /* test names (file names without .yaml), in natural order */
    int count;
} experiment;

/* P2 before P10: compare the digits as numbers. */
static int natural_compare(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    size_t px = strcspn(x, "0123456789"), py = strcspn(y, "0123456789");
    if (px == py && !strncmp(x, y, px) && x[px] && y[py]) {
        long nx = strtol(x + px, NULL, 10), ny = strtol(y + py, NULL, 10);
        if (nx != ny) return nx < ny ? -1 : 1;
    }
    return strcmp(x, y);
}

static int find_tests(experiment *e, const char *name)
{
    struct stat st;
    if (stat(name, &st) == 0 && S_ISDIR(st.st_mode)) snprintf(e->dir, sizeof e->dir, "%s", name);
    else snprintf(e->dir, sizeof e->dir, "%s/%s", SSDLAB_EXPERIMENTS_DIR, name);
    DIR *d = opendir(e->dir);
    if (!d) {
        fprintf(stderr, "ssdlab experiment: '%s': no such experiment (%s: %s); expected a folder of test files such as 'review'\n",
                name, e->dir, strerror(errno));
        return -1;
    }
    struct dirent *ent;
    while ((ent = readdir(d)) && e->count < MAX_TESTS) {
        size_t n = strlen(ent->d_name);
        if (n > 5 && !strcmp(ent->d_name + n - 5, ".yaml")) e->tests[e->count++] = strndup(ent->d_name, n - 5);
    }
    closedir(d);
    qsort(e->tests, (size_t)e->count, sizeof *e->tests, natural_compare);
    if (!e->count) fprintf(stderr, "ssdlab experiment: %s holds no test (*.yaml); expected workload files\n", e->dir);
    return e->count ? 0 : -1;
}

static bool selected(const char *only, const char *test)
{
    if (!only) return true;
    size_t n = strlen(test);
    for (const char *p = only; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && !strncmp(p, test, n)) return true;
        p += len + (p[len] == ',');
    }
    return false;
}

/* Every name in --only must be a test of the experiment. */
static int check_only(const experiment *e, const char *only)
{
    if (!only) return 0;
    for (const char *p = only; *p;) {
        size_t len = strcspn(p, ",");
        bool found = false;
        for (int i = 0; i < e->count; i++) found |= strlen(e->tests[i]) == len && !strncmp(p, e->tests[i], len);
        if (!found) {
            fprintf(stderr, "ssdlab experiment: --only: '%.*s' is not a test of %s; expected names such as '%s'\n", (int)len, p,
                    e->dir, e->tests[0]);
            return -1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

typedef struct experiment_args {
    cli_config_args config;
    const char *only, *output;
    bool plots;
    int jobs; /* tests run at once, each in its own process */
} experiment_args;

/* One test: its configuration, its run with the log in DIR/TEST.log, its plot. */
static int run_test(const experiment *e, const char *test, const experiment_args *a, const char *out_dir, int argc,
                    char **argv)
{
    char workload[4200], result[4200], logpath[4200], png[4200];
    snprintf(workload, sizeof workload, "%s/%s.yaml", e->dir, test);
    snprintf(result, sizeof result, "%s/%s.h5", out_dir, test);
    snprintf(logpath, sizeof logpath, "%s/%s.log", out_dir, test);
    snprintf(png, sizeof png, "%s/%s.png", out_dir, test);
    cli_config_args args = a->config;
    args.workload = workload;
    cfg **phases = NULL;
    size_t count = 0;
    cfg *c = cli_load_config_phases(&args, &phases, &count);
    if (!c) return EXIT_BAD_INPUT;
    FILE *log = fopen(logpath, "w");
    if (!log) {
        fprintf(stderr, "ssdlab experiment: cannot write '%s': %s\n", logpath, strerror(errno));
        cli_free_phases(phases, count);
        cfg_free(c);
        return EXIT_FAILED;
    }
    setvbuf(log, NULL, _IOLBF, 0); /* a long test's log can be followed as it runs */
    double t0 = cli_wall_seconds();
    run_request rq = {.config = c, .phases = phases, .phase_count = count, .drive_label = a->config.drive, .output = result,
                      .progress = a->jobs == 1, .argc = argc, .argv = argv, .log = log};
    int rc = runner_run(&rq);
    fclose(log);
    /* one line per test, whole, so tests running side by side do not mix theirs */
    printf("%-4s %-70s %7.1f s  %s\n", test, cfg_str(c, "experiment.description"), cli_wall_seconds() - t0,
           rc == EXIT_OK ? result : "failed (see the log)");
    fflush(stdout);
    const char *plot = cfg_str(c, "experiment.plot");
    if (rc == EXIT_OK && a->plots && strcmp(plot, "none") != 0 && cli_plot(plot, result, png) != 0)
        fprintf(stderr, "ssdlab experiment: %s: the plot failed; the result is kept\n", test);
    cli_free_phases(phases, count);
    cfg_free(c);
    return rc;
}

static int parse_args(int argc, char **argv, experiment_args *a)
{
    static const struct option opts[] = {CLI_CONFIG_OPTIONS, {"only", required_argument, NULL, OPT_ONLY},
                                         {"output", required_argument, NULL, 'o'}, {"no-plots", no_argument, NULL, OPT_NO_PLOTS},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int opt;
    a->plots = true;
    a->jobs = cli_cores();
    while ((opt = getopt_long(argc, argv, "d:c:w:o:j:h", opts, NULL)) != -1) {
        if (opt == 'w') return cli_usage_error("experiment", "-w: the experiment's tests are its workloads");
        if (cli_config_option(&a->config, opt, optarg)) continue;
        if (opt == OPT_ONLY) a->only = optarg;
        else if (opt == 'o') a->output = optarg;
        else if (opt == OPT_NO_PLOTS) a->plots = false;
        else if (opt == 'j') {
            char *end;
            long j = strtol(optarg, &end, 10);
            if (*end || j < 1 || j > 256) return cli_usage_error("experiment", "-j '%s': expected a number of jobs from 1 to 256", optarg);
            a->jobs = (int)j;
        }
        else if (opt == 'h') return fputs(help, stdout), EXIT_OK;
        else return cli_usage_error("experiment", "bad option");
    }
    if (optind != argc - 1) return cli_usage_error("experiment", "expected one experiment name, e.g. 'review'");
    if (!a->config.drive) return cli_usage_error("experiment", "-d DRIVE is required");
    return -1;
}

/* results/NAME-DRIVE, with the drive's file name stripped of folders and .yaml */
static void default_dir(char *out, size_t len, const char *name, const char *drive)
{
    const char *base = strrchr(drive, '/') ? strrchr(drive, '/') + 1 : drive, *ename = strrchr(name, '/');
    ename = ename && ename[1] ? ename + 1 : name;
    size_t n = strlen(base);
    if (n > 5 && !strcmp(base + n - 5, ".yaml")) n -= 5;
    snprintf(out, len, "results/%s-%.*s", ename, (int)n, base);
}

/* Whether the test's file marks it long (experiment.long): long tests start
 * first, so that they overlap when tests run side by side. */
static bool is_long(const experiment *e, const char *test)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.yaml", e->dir, test);
    cfg *c = cfg_create(ssdlab_schema());
    cfg **phases = NULL;
    size_t count = 0;
    cfg_load_file_with_list(c, path, "phases", "workload", &phases, &count);
    bool l = cfg_error_count(c) == 0 && cfg_bool(c, "experiment.long");
    cli_free_phases(phases, count);
    cfg_free(c);
    return l;
}

/* One test of one drive, as a unit of work. */
typedef struct test_job {
    const char *test;
    const experiment_args *a;
    const char *out_dir;
} test_job;

/* Runs the jobs, long ones first, up to `jobs` at once (each in a process of
 * its own when more than one). Returns -1 when all ran (with *failed
 * counting failures), else the exit status that stopped them. */
static int run_jobs(const experiment *e, const test_job *all, int count, int jobs, int argc, char **argv, int *failed)
{
    test_job *order = malloc((size_t)count * sizeof *order);
    if (!order) return EXIT_FAILED;
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < count; i++)
            if (is_long(e, all[i].test) == (pass == 0)) order[n++] = all[i];
    int next = 0, running = 0, stop = -1;
    while (stop < 0 || running) {
        if (jobs == 1) {
            if (next == n) break;
            const test_job *j = &order[next++];
            int t = run_test(e, j->test, j->a, j->out_dir, argc, argv);
            *failed += t != EXIT_OK;
            if (t == EXIT_BAD_INPUT || t == EXIT_INTERRUPTED) stop = t; /* the others would fail alike */
            continue;
        }
        while (stop < 0 && next < n && running < jobs) {
            fflush(NULL); /* else the child would print what the parent has buffered */
            const test_job *j = &order[next];
            pid_t pid = fork();
            if (pid == 0) _exit(run_test(e, j->test, j->a, j->out_dir, argc, argv));
            next++;
            if (pid > 0) running++;
            else *failed += 1;
        }
        int status;
        if (!running || wait(&status) <= 0) break;
        running--;
        int t = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAILED;
        *failed += t != EXIT_OK;
        if (stop < 0 && (t == EXIT_BAD_INPUT || t == EXIT_INTERRUPTED)) stop = t;
    }
    free(order);
    return stop;
}

int experiment_run_drives(const char *name, const experiment_drive *drives, int ndrives, bool plots, int jobs, int argc,
                          char **argv)
{
    experiment e = {0};
    int rc = find_tests(&e, name) ? EXIT_BAD_INPUT : -1;
    experiment_args *args = calloc((size_t)ndrives, sizeof *args);
    test_job *all = calloc((size_t)ndrives * MAX_TESTS, sizeof *all);
    if (rc < 0 && (!args || !all)) rc = EXIT_FAILED;
    int count = 0;
    for (int k = 0; rc < 0 && k < ndrives; k++) {
        const experiment_drive *dr = &drives[k];
        args[k] = (experiment_args){.config = dr->config, .only = dr->only, .plots = plots, .jobs = jobs > 0 ? jobs : 1};
        if (check_only(&e, dr->only)) rc = EXIT_BAD_INPUT;
        else if (cli_make_dirs(dr->out_dir, "experiment")) rc = EXIT_FAILED;
        else printf("experiment %s on %s: results in %s/\n", e.dir, dr->config.drive, dr->out_dir);
        for (int i = 0; rc < 0 && i < e.count; i++)
            if (selected(dr->only, e.tests[i])) all[count++] = (test_job){e.tests[i], &args[k], dr->out_dir};
    }
    if (rc < 0) {
        double t0 = cli_wall_seconds();
        int failed = 0;
        rc = run_jobs(&e, all, count, jobs > 0 ? jobs : 1, argc, argv, &failed);
        printf("experiment: %.1f s of wall time, %d test%s failed\n", cli_wall_seconds() - t0, failed, failed == 1 ? "" : "s");
        if (rc < 0) rc = failed ? EXIT_FAILED : EXIT_OK;
    }
    free(all);
    free(args);
    for (int i = 0; i < e.count; i++) free(e.tests[i]);
    return rc;
}

int experiment_run(const char *name, const cli_config_args *config, const char *only, const char *out_dir, bool plots,
                   int jobs, int argc, char **argv)
{
    experiment_drive one = {.config = *config, .only = only, .out_dir = out_dir};
    return experiment_run_drives(name, &one, 1, plots, jobs, argc, argv);
}

int cmd_experiment(int argc, char **argv)
{
    experiment_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc < 0) {
        char out_dir[4096];
        if (a.output) snprintf(out_dir, sizeof out_dir, "%s", a.output);
        else default_dir(out_dir, sizeof out_dir, argv[optind], a.config.drive);
        rc = experiment_run(argv[optind], &a.config, a.only, out_dir, a.plots, a.jobs, argc, argv);
    }
    cli_config_args_free(&a.config);
    return rc;
}
