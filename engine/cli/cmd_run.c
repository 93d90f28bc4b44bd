/* ssdlab run: the command line of a run; runner.c runs it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "runner.h"

static const char help[] =
    "Usage: ssdlab run -d DRIVE [-w WORKLOAD] [-c FILE]... [--set KEY=VALUE]... [-o RESULT.h5|DIR]\n\n"
    "Runs a workload on a drive and prints a summary per phase: a workload file\n"
    "(-w, with phases: docs/workloads.md), or the workload.* keys (pattern, read\n"
    "share, block size, queue depth, region, stop condition, preconditioning).\n"
    "DRIVE is a drive file or a preset's name (models/drives/NAME.yaml).\n\n"
    "Options:\n" CLI_CONFIG_HELP
    "      --check          run the FTL integrity checker after the run\n"
    "      --timeseries CSV write the time series (one row per metrics.interval)\n"
    "  -o, --output H5      write the result (meta, summary per phase, time series,\n"
    "                       per-die counters, latency histograms) to an HDF5 file;\n"
    "                       a directory: DRIVE_WORKLOAD_sSEED.h5 inside it\n"
    "      --requests       also record every request in the result (/requests)\n"
    "      --alone          run each worker of a group by itself first: each tenant's\n"
    "                       slowdown (its mean latency shared over alone) and the\n"
    "                       group's fairness (the lowest slowdown over the highest)\n"
    "      --no-progress    no progress line (it shows only when stderr is a terminal)\n"
    "      --time-unit U    a DiskSim/MQSim trace's time unit (workload.trace_time_unit): ns, us, ms\n"
    "      --columns MAP    a CSV/TSV trace's column map (workload.trace_columns), e.g.\n"
    "                       time=1:us,op=2:R/W,offset=3:sector,size=4:B (docs/traces.md)\n"
    "  -h, --help           this help\n";

/* -o DIR: a name from the drive, the workload and the seed, so runs of a
 * study land side by side without clashing. */
static char *result_path(const char *output, const cfg *c, const char *workload_file)
{
    struct stat st;
    if (stat(output, &st) != 0 || !S_ISDIR(st.st_mode)) return strdup(output);
    const char *drive = cfg_str(c, "drive.name"), *wl = cfg_str(c, "workload.name");
    char wbuf[256] = "";
    if (!wl[0] && workload_file) {
        const char *base = strrchr(workload_file, '/');
        snprintf(wbuf, sizeof wbuf, "%s", base ? base + 1 : workload_file);
        char *dot = strrchr(wbuf, '.');
        if (dot) *dot = 0;
        wl = wbuf;
    }
    if (!wl[0]) wl = cfg_str(c, "workload.pattern");
    char name[600];
    snprintf(name, sizeof name, "%s_%s_s%llu.h5", drive[0] ? drive : "drive", wl, (unsigned long long)cfg_uint(c, "sim.seed"));
    for (char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
            *p = '_';
    size_t len = strlen(output) + strlen(name) + 2;
    char *path = malloc(len);
    if (path) snprintf(path, len, "%s%s%s", output, output[strlen(output) - 1] == '/' ? "" : "/", name);
    return path;
}

typedef struct run_options {
    const char *timeseries, *output;
    bool check, log_requests, progress, alone;
} run_options;

/* Parses the command line; returns -1 to go on, or an exit status. */
static int parse_run_options(int argc, char **argv, cli_config_args *args, run_options *o)
{
    static const struct option opts[] = {
        CLI_CONFIG_OPTIONS, {"check", no_argument, NULL, OPT_CHECK}, {"timeseries", required_argument, NULL, OPT_TIMESERIES},
        {"output", required_argument, NULL, 'o'}, {"requests", no_argument, NULL, OPT_REQUESTS},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS}, {"time-unit", required_argument, NULL, OPT_TIME_UNIT},
        {"columns", required_argument, NULL, OPT_COLUMNS}, {"alone", no_argument, NULL, OPT_ALONE}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    static char time_unit[128], columns[600]; /* --time-unit, --columns: the --set each stands for, alive while args is */
    *o = (run_options){.progress = true};
    int opt;
    while ((opt = getopt_long(argc, argv, "d:c:w:o:h", opts, NULL)) != -1) {
        if (cli_config_option(args, opt, optarg)) continue;
        if (opt == OPT_CHECK) o->check = true;
        else if (opt == OPT_TIMESERIES) o->timeseries = optarg;
        else if (opt == OPT_REQUESTS) o->log_requests = true;
        else if (opt == OPT_NO_PROGRESS) o->progress = false;
        else if (opt == OPT_ALONE) o->alone = true;
        else if (opt == 'o') o->output = optarg;
        else if (opt == OPT_TIME_UNIT) {
            snprintf(time_unit, sizeof time_unit, "workload.trace_time_unit=%s", optarg);
            cli_config_option(args, OPT_SET, time_unit);
        } else if (opt == OPT_COLUMNS) {
            snprintf(columns, sizeof columns, "workload.trace_columns=%s", optarg);
            cli_config_option(args, OPT_SET, columns);
        }
        else if (opt == 'h') return fputs(help, stdout), EXIT_OK;
        else return cli_usage_error("run", "bad option");
    }
    if (optind < argc) return cli_usage_error("run", "unexpected argument '%s'", argv[optind]);
    if (o->log_requests && !o->output) return cli_usage_error("run", "--requests records into the result: give -o RESULT.h5 too");
    return -1;
}

int cmd_run(int argc, char **argv)
{
    cli_config_args args = {0};
    run_options o;
    int rc = parse_run_options(argc, argv, &args, &o);
    if (rc >= 0) {
        cli_config_args_free(&args);
        return rc;
    }
    /* Each phase's report as it ends, also into a file: a lifetime run's
     * log otherwise showed nothing for half an hour (4 KiB at a time). */
    setvbuf(stdout, NULL, _IOLBF, 0);
    cfg **phases = NULL;
    size_t phase_count = 0;
    cfg *c = cli_load_config_phases(&args, &phases, &phase_count);
    char *output = c && o.output ? result_path(o.output, c, args.workload) : NULL;
    run_request rq = {.config = c, .phases = phases, .phase_count = phase_count, .drive_label = args.drive,
                      .output = output, .timeseries = o.timeseries, .log_requests = o.log_requests,
                      .progress = o.progress, .check = o.check, .alone = o.alone, .argc = argc, .argv = argv, .log = stdout};
    rc = c ? runner_run(&rq) : EXIT_BAD_INPUT;
    cli_config_args_free(&args);
    free(output);
    cli_free_phases(phases, phase_count);
    cfg_free(c);
    return rc;
}
