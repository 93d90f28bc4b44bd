/* ssdlab sweep plan|run|run-point|slurm|collect: parameter sweeps from one
 * file, run locally in worker processes or as a Slurm job array. Every
 * point writes its own result under a temporary name and renames it when
 * complete, so any run can be killed and started again: complete points
 * are skipped. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "params.h"
#include "sweep_points.h"

static const char help[] =
    "Usage: ssdlab sweep COMMAND SWEEP.yaml [options]\n\n"
    "A sweep file names a base drive and workload and the keys to vary (a grid,\n"
    "zipped lists, repetitions with derived seeds): docs/sweeps.md.\n\n"
    "Commands:\n"
    "  plan SWEEP.yaml               list the points (index, state, overrides, seed) and\n"
    "                                check every point's configuration\n"
    "  run SWEEP.yaml [-j N]         run the points not yet complete, N at once\n"
    "                                (default: the cores); exit 10+K when K failed\n"
    "  run-point SWEEP.yaml --index I|A-B   run these points, one after another\n"
    "  slurm SWEEP.yaml [--submit] [--partition P] [--account A] [--time T] [--mem M]\n"
    "        [--cpus-per-task C] [--chunk K]\n"
    "                                write an sbatch script: a job array over the\n"
    "                                points not yet complete, K per task (default 1);\n"
    "                                --submit passes it to sbatch and prints the job id\n"
    "  collect SWEEP.yaml [-o FILE]  one HDF5 table of every complete point's phases\n"
    "                                (default OUTPUT/sweep.h5)\n";

/* Checks every point's configuration; prints each invalid point's
 * messages. Returns the number of invalid points. */
static size_t check_points(const sweep *s, bool list)
{
    size_t bad = 0, n = sweep_point_count(s);
    for (size_t i = 0; i < n; i++) {
        sweep_point p;
        if (sweep_point_make(s, i, &p)) return n;
        unsigned long long seed = 0;
        fflush(stdout);
        cfg *c = sweep_point_config(s, &p, NULL, NULL, &seed);
        ssd_params params;
        char err[1024];
        if (c && ssd_params_load(&params, c, err, sizeof err) != 0) {
            fprintf(stderr, "ssdlab: %s\n", err); /* the drive's keys are valid, but do not fit together */
            cfg_free(c);
            c = NULL;
        }
        if (!c) {
            fprintf(stderr, "  (point %zu, %s: invalid, above)\n", i, p.name);
            bad++;
        } else if (list) {
            printf("%5zu  %-14s %-11s seed %-6llu", i, p.name, sweep_point_state_name(sweep_point_state(s, &p)), seed);
            for (size_t k = 0; k < p.set_count; k++) printf(" %s", p.sets[k]);
            printf("\n");
        }
        cfg_free(c);
        sweep_point_free(&p);
    }
    return bad;
}

static int plan(const sweep *s)
{
    printf("sweep %s: %zu points, results in %s/\n", s->name, sweep_point_count(s), s->output);
    size_t bad = check_points(s, true);
    if (bad) fprintf(stderr, "ssdlab sweep plan: %zu of %zu points have an invalid configuration\n", bad, sweep_point_count(s));
    return bad ? EXIT_BAD_INPUT : EXIT_OK;
}

typedef struct tally {
    size_t total, skipped, done, failed, running;
    double start;
} tally;

static void show_progress(const tally *t, bool final)
{
    size_t finished = t->done + t->failed, left = t->total - t->skipped - finished;
    double elapsed = cli_wall_seconds() - t->start, eta = finished ? elapsed / (double)finished * (double)left : 0;
    bool tty = isatty(2);
    if (!tty && !final && finished % 10 != 0) return; /* a log file gets a line every ten points */
    fprintf(stderr, "%ssweep: %zu/%zu done (%zu were complete), %zu failed, %zu running, ETA %.0f s%s", tty ? "\r" : "",
            t->skipped + t->done, t->total, t->skipped, t->failed, t->running, eta, tty && !final ? "   " : "\n");
}

static int exit_for_failures(size_t failed)
{
    if (!failed) return EXIT_OK;
    return EXIT_POINTS_FAILED + (int)(failed < POINTS_FAILED_MAX ? failed : POINTS_FAILED_MAX);
}

/* Runs the missing points in up to `jobs` child processes. */
static int run_all(const sweep *s, int jobs, int argc, char **argv)
{
    size_t n = sweep_point_count(s);
    if (check_points(s, false)) {
        fprintf(stderr, "ssdlab sweep run: invalid points (above); nothing was run\n");
        return EXIT_BAD_INPUT;
    }
    if (cli_make_dirs(s->output, "sweep")) return EXIT_FAILED;
    tally t = {.total = n, .start = cli_wall_seconds()};
    size_t next = 0;
    int stop = 0;
    while (next < n || t.running) {
        while (!stop && next < n && t.running < (size_t)jobs) {
            sweep_point p;
            if (sweep_point_make(s, next, &p)) return EXIT_FAILED;
            bool complete = sweep_point_state(s, &p) == POINT_COMPLETE;
            sweep_point_free(&p);
            size_t index = next++;
            if (complete) {
                t.skipped++;
                continue;
            }
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0) _exit(sweep_run_point(s, index, argc, argv));
            if (pid < 0) t.failed++;
            else t.running++;
        }
        if (stop && !t.running) break;
        if (!t.running) {
            if (next >= n) break;
            continue;
        }
        show_progress(&t, false);
        int status;
        if (wait(&status) <= 0) break;
        t.running--;
        int rc = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAILED;
        if (rc == EXIT_OK) t.done++;
        else t.failed++;
        if (rc == EXIT_INTERRUPTED || (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM)))
            stop = 1; /* Ctrl-C reaches every worker: start no more */
    }
    show_progress(&t, true);
    if (stop) return EXIT_INTERRUPTED;
    return exit_for_failures(t.failed);
}

/* "I" or "A-B" */
static int parse_range(const char *text, size_t n, size_t *first, size_t *last)
{
    char *end;
    errno = 0;
    unsigned long long a = strtoull(text, &end, 10), b = a;
    if (end != text && *end == '-') b = strtoull(end + 1, &end, 10);
    if (errno || !*text || *end || *text == '-' || a > b || b >= n) return -1;
    *first = (size_t)a;
    *last = (size_t)b;
    return 0;
}

static int run_points(const sweep *s, const char *range, int argc, char **argv)
{
    size_t first, last, n = sweep_point_count(s);
    if (!range) return cli_usage_error("sweep", "run-point: --index I (or A-B) is required");
    if (parse_range(range, n, &first, &last))
        return cli_usage_error("sweep", "--index '%s': expected a point from 0 to %zu, or a range A-B of them", range, n - 1);
    size_t failed = 0;
    for (size_t i = first; i <= last; i++) {
        int rc = sweep_run_point(s, i, argc, argv);
        if (rc == EXIT_INTERRUPTED) return rc;
        failed += rc != EXIT_OK;
    }
    return exit_for_failures(failed);
}

enum { OPT_INDEX = 2000, OPT_SUBMIT, OPT_PARTITION, OPT_ACCOUNT, OPT_TIME, OPT_MEM, OPT_CPUS, OPT_CHUNK };

int cmd_sweep(int argc, char **argv)
{
    static const struct option opts[] = {{"jobs", required_argument, NULL, 'j'}, {"output", required_argument, NULL, 'o'},
                                         {"index", required_argument, NULL, OPT_INDEX}, {"submit", no_argument, NULL, OPT_SUBMIT},
                                         {"partition", required_argument, NULL, OPT_PARTITION},
                                         {"account", required_argument, NULL, OPT_ACCOUNT},
                                         {"time", required_argument, NULL, OPT_TIME}, {"mem", required_argument, NULL, OPT_MEM},
                                         {"cpus-per-task", required_argument, NULL, OPT_CPUS},
                                         {"chunk", required_argument, NULL, OPT_CHUNK}, {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int jobs = cli_cores(), opt;
    const char *out = NULL, *range = NULL;
    slurm_options so = {.chunk = 1};
    while ((opt = getopt_long(argc, argv, "j:o:h", opts, NULL)) != -1) {
        char *end;
        long v;
        switch (opt) {
        case 'j':
            v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 1024) return cli_usage_error("sweep", "-j '%s': expected a number of workers from 1 to 1024", optarg);
            jobs = (int)v;
            break;
        case 'o': out = optarg; break;
        case OPT_INDEX: range = optarg; break;
        case OPT_SUBMIT: so.submit = true; break;
        case OPT_PARTITION: so.partition = optarg; break;
        case OPT_ACCOUNT: so.account = optarg; break;
        case OPT_TIME: so.time = optarg; break;
        case OPT_MEM: so.mem = optarg; break;
        case OPT_CPUS: so.cpus = optarg; break;
        case OPT_CHUNK:
            v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 100000) return cli_usage_error("sweep", "--chunk '%s': expected points per task, from 1", optarg);
            so.chunk = (size_t)v;
            break;
        case 'h': return fputs(help, stdout), EXIT_OK;
        default: return cli_usage_error("sweep", "bad option");
        }
    }
    if (argc - optind != 2) return cli_usage_error("sweep", "expected a command (plan, run, run-point, slurm, collect) and a sweep file");
    const char *command = argv[optind], *file = argv[optind + 1];
    static const char *const commands[] = {"plan", "run", "run-point", "slurm", "collect"};
    int which = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(command, commands[i])) which = i;
    if (which < 0) return cli_usage_error("sweep", "'%s': not a sweep command; expected plan, run, run-point, slurm or collect", command);
    sweep s;
    if (sweep_open(&s, file, "sweep")) return EXIT_BAD_INPUT;
    int rc;
    switch (which) {
    case 0: rc = plan(&s); break;
    case 1: rc = run_all(&s, jobs, argc, argv); break;
    case 2: rc = run_points(&s, range, argc, argv); break;
    case 3: rc = sweep_slurm(&s, &so); break;
    default: {
        char path[4200];
        if (out) snprintf(path, sizeof path, "%s", out);
        else snprintf(path, sizeof path, "%s/sweep.h5", s.output);
        rc = sweep_collect(&s, path);
    }
    }
    sweep_free(&s);
    return rc;
}
