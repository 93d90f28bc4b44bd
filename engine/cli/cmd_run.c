/* ssdlab run: a workload on a drive, with a printed summary. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "results.h"
#include "sim_config.h"
#include "ssd.h"
#include "workload.h"

static const char help[] =
    "Usage: ssdlab run -d DRIVE [-c FILE]... [--set KEY=VALUE]... [--check] [--timeseries CSV]\n\n"
    "Runs the built-in closed-loop workload (workload.* keys: pattern, read share,\n"
    "block size, queue depth, region, stop condition, preconditioning) on a drive\n"
    "and prints a summary. Workload files with phases and traces arrive with the\n"
    "workload system.\n\n"
    "Options:\n" CLI_CONFIG_HELP
    "      --check          run the FTL integrity checker after the run\n"
    "      --timeseries CSV write the time series (one row per metrics.interval)\n"
    "  -o, --output H5      write the result (meta, summary per phase, time series,\n"
    "                       per-die counters, latency histograms) to an HDF5 file\n"
    "  -h, --help           this help\n";

static int write_timeseries(const ssd *d, const char *path)
{
    outfile o;
    if (outfile_open(&o, path)) {
        fprintf(stderr, "ssdlab run: cannot write '%s': %s\n", path, strerror(errno));
        return EXIT_FAILED;
    }
    size_t n;
    const ssd_interval *rows = ssd_intervals(d, &n);
    fprintf(o.fp, "end_s,iops,mib_per_s,mean_latency_us,p99_latency_us,host_gib_written,flash_gib_written,free_blocks,"
                  "slc_gib,erases,temperature_c\n");
    for (size_t i = 0; i < n; i++)
        fprintf(o.fp, "%.9g,%.6g,%.6g,%.6g,%.6g,%.9g,%.9g,%u,%.6g,%llu,%.4g\n", rows[i].end_s, rows[i].iops,
                rows[i].mib_per_s, rows[i].mean_latency_us, rows[i].p99_latency_us, rows[i].host_gib_written,
                rows[i].flash_gib_written, rows[i].free_blocks, rows[i].slc_gib, (unsigned long long)rows[i].erases,
                rows[i].temperature_c);
    if (outfile_commit(&o)) {
        fprintf(stderr, "ssdlab run: cannot write '%s': %s\n", path, strerror(errno));
        return EXIT_FAILED;
    }
    return EXIT_OK;
}

static void print_op(const ssd *d, const ssdlab_stats *st, ssdlab_op op, const char *name, double seconds)
{
    uint64_t n = st->completed[op];
    if (!n) return;
    printf("  %-6s %10llu requests  %10.0f IOPS  %8.1f MiB/s  latency mean %9.1f us  p50 %9.1f  p99 %9.1f  p99.9 %9.1f us\n",
           name, (unsigned long long)n, (double)n / seconds, (double)st->bytes[op] / seconds / 1048576.0,
           st->latency_sum_ns[op] / (double)n / 1000.0, ssd_latency_quantile(d, op, 0.5) / 1000.0,
           ssd_latency_quantile(d, op, 0.99) / 1000.0, ssd_latency_quantile(d, op, 0.999) / 1000.0);
}

/* SIGINT or SIGTERM: the run stops at the next check and its result is
 * written, marked interrupted. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void catch_interrupts(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static double epoch_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int write_result(const char *path, const cfg *c, const ssd *d, const phase_summary *rows, size_t n, int argc,
                        char **argv, double start_wall, const char *status)
{
    char *yaml = NULL, *line = NULL;
    size_t yaml_len = 0, line_len = 0;
    FILE *y = open_memstream(&yaml, &yaml_len), *l = open_memstream(&line, &line_len);
    if (!y || !l) {
        if (y) fclose(y);
        if (l) fclose(l);
        fprintf(stderr, "ssdlab run: out of memory\n");
        return EXIT_FAILED;
    }
    cfg_write_yaml(c, y, false);
    fclose(y);
    fputs("ssdlab", l);
    for (int i = 0; i < argc; i++) fprintf(l, " %s", argv[i]);
    fclose(l);
    results_meta meta = {.command_line = line, .config_yaml = yaml, .status = status,
                         .seed = cfg_uint(c, "sim.seed"), .start_wall = start_wall, .end_wall = epoch_seconds()};
    char err[512];
    int rc = results_write(path, &meta, d, rows, n, err, sizeof err) ? EXIT_FAILED : EXIT_OK;
    if (rc) fprintf(stderr, "ssdlab run: %s\n", err);
    else printf("  result written to %s\n", path);
    free(yaml);
    free(line);
    return rc;
}

/* What one phase (or a run without phases) did. */
static void report_phase(const cfg *c, const ssd *d, const workload_result *r, size_t index, size_t phases)
{
    ssdlab_stats st;
    ssd_stats(d, &st);
    const ssd_params *p = ssd_params_of(d);
    const char *kind = cfg_str(c, "workload.phase"), *name = cfg_str(c, "workload.name");
    bool traced = !strcmp(kind, "io") && !strcmp(cfg_str(c, "workload.source"), "trace");
    if (phases) printf("phase %zu of %zu%s%s%s: %s\n", index + 1, phases, name[0] ? " (" : "", name, name[0] ? ")" : "", kind);
    if (!strcmp(kind, "idle")) {
        printf("  idle for %.3f s of simulated time\n", r->seconds);
        return;
    }
    if (traced)
        printf("  workload: %s replay of %s, time scale %g, QD %llu (afap), precondition %s\n", cfg_str(c, "workload.replay"),
               cfg_str(c, "workload.trace"), cfg_float(c, "workload.time_scale"),
               (unsigned long long)cfg_uint(c, "workload.queue_depth"), cfg_str(c, "workload.precondition"));
    else if (!strcmp(kind, "io"))
    {
        char sizes[64];
        snprintf(sizes, sizeof sizes, "%llu B", (unsigned long long)cfg_uint(c, "workload.block_size"));
        printf("  workload: %s, %.0f%% reads, blocks %s, QD %llu, precondition %s\n", cfg_str(c, "workload.pattern"),
               100 * cfg_float(c, "workload.read_share"),
               cfg_str(c, "workload.block_sizes")[0] ? cfg_str(c, "workload.block_sizes") : sizes,
               (unsigned long long)cfg_uint(c, "workload.queue_depth"), cfg_str(c, "workload.precondition"));
    }
    printf("  simulated %.6f s, %llu requests: %.0f IOPS, %.1f MiB/s\n", r->seconds, (unsigned long long)r->requests, r->iops,
           r->mib_per_s);
    if (traced)
        printf("  trace: %llu records remapped onto the drive (workload.lba_map), %llu of other devices skipped\n",
               (unsigned long long)r->remapped, (unsigned long long)r->skipped);
    print_op(d, &st, SSDLAB_READ, "read", r->seconds);
    print_op(d, &st, SSDLAB_WRITE, "write", r->seconds);
    if (st.completed[SSDLAB_TRIM]) printf("  trim   %10llu commands\n", (unsigned long long)st.completed[SSDLAB_TRIM]);
    if (st.host_units_written)
        printf("  write amplification %.3f (host units %llu, GC units %llu), erases %llu\n", st.write_amplification,
               (unsigned long long)st.host_units_written, (unsigned long long)st.gc_units_written,
               (unsigned long long)st.erases);
    if (p->map_cached)
        printf("  mapping cache: %u of %u translation units; %llu misses (%.1f%% of requests), %llu write-backs\n",
               p->map_cache_pages, p->map_pages, (unsigned long long)st.map_misses,
               r->requests ? 100.0 * (double)st.map_misses / (double)r->requests : 0.0, (unsigned long long)st.map_writebacks);
}

/* Phases i .. i+group-1 as workers running at the same time. */
static int run_workers(sim *s, ssd *d, cfg **phases, size_t group, size_t index, size_t count, uint64_t *requests,
                       phase_summary *row)
{
    workload *w[64];
    char err[1024];
    int active = (int)group, rc = EXIT_OK;
    size_t made = 0;
    if (group > 64) {
        fprintf(stderr, "ssdlab run: phases %zu to %zu: at most 64 workers run together\n", index + 1, index + group);
        return EXIT_BAD_INPUT;
    }
    for (; made < group; made++) {
        if (!(w[made] = workload_create(s, d, phases[made], err, sizeof err))) {
            fprintf(stderr, "ssdlab run: phase %zu: %s\n", index + made + 1, err);
            rc = EXIT_BAD_INPUT;
            break;
        }
        if (!workload_can_join(w[made])) {
            fprintf(stderr, "ssdlab run: phase %zu: key 'workload.with_previous': only synthetic io phases run as workers; expected phase io with source synthetic\n",
                    index + made + 1);
            rc = EXIT_BAD_INPUT;
            made++;
            break;
        }
        workload_join(w[made], &active);
    }
    if (rc == EXIT_OK) {
        ssd_reset_stats(d);
        sim_time_t start = sim_now(s);
        for (size_t k = 0; k < group; k++) workload_start(w[k]);
        sim_run(s, SIM_TIME_MAX);
        ssdlab_stats st;
        ssd_stats(d, &st);
        workload_result r = {.requests = st.completed[0] + st.completed[1] + st.completed[2],
                             .seconds = sim_time_to_sec(sim_now(s) - start)};
        r.iops = r.seconds > 0 ? (double)r.requests / r.seconds : 0;
        r.mib_per_s = r.seconds > 0 ? (double)(st.bytes[0] + st.bytes[1] + st.bytes[2]) / r.seconds / 1048576.0 : 0;
        printf("phases %zu to %zu of %zu run together as %zu workers:\n", index + 1, index + group, count, group);
        report_phase(phases[0], d, &r, index, 0);
        *requests += r.requests;
        if (row) results_phase_row(d, row, "workers", "io", r.seconds, 0);
    }
    for (size_t k = 0; k < made; k++) workload_free(w[k]);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_CONFIG_OPTIONS, {"check", no_argument, NULL, OPT_CHECK}, {"timeseries", required_argument, NULL, OPT_TIMESERIES},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *timeseries = NULL, *output = NULL;
    cli_config_args args = {0};
    bool check = false;
    int opt;
    while ((opt = getopt_long(argc, argv, "d:c:w:o:h", opts, NULL)) != -1) {
        if (cli_config_option(&args, opt, optarg)) continue;
        if (opt == OPT_CHECK) check = true;
        else if (opt == OPT_TIMESERIES) timeseries = optarg;
        else if (opt == 'o') output = optarg;
        else if (opt == 'h') {
            cli_config_args_free(&args);
            return fputs(help, stdout), EXIT_OK;
        } else {
            cli_config_args_free(&args);
            return cli_usage_error("run", "bad option");
        }
    }
    if (optind < argc) {
        cli_config_args_free(&args);
        return cli_usage_error("run", "unexpected argument '%s'", argv[optind]);
    }
    cfg **phases = NULL;
    size_t phase_count = 0;
    cfg *c = cli_load_config_phases(&args, &phases, &phase_count);
    const char *drive = args.drive;
    cli_config_args_free(&args);
    if (!c) return EXIT_BAD_INPUT;
    cli_model m;
    if (cli_model_open(&m, c, "run")) {
        cli_free_phases(phases, phase_count);
        cfg_free(c);
        return EXIT_BAD_INPUT;
    }
    sim *s = m.s;
    ssd *d = m.d;
    char err[1024];
    const ssd_params *p = ssd_params_of(d);
    printf("ssdlab run: %s (%s), %.1f GB user, %u channels x %u dies, seed %llu\n", cfg_str(c, "drive.name"),
           drive ? drive : "defaults", (double)ssd_capacity(d) / 1e9, p->channels, p->dies_per_channel,
           (unsigned long long)cfg_uint(c, "sim.seed"));
    double start_wall = epoch_seconds();
    catch_interrupts();
    sim_watch_flag(s, &interrupted);
    double t0 = cli_wall_seconds();
    workload_precondition(m.w);
    double t1 = cli_wall_seconds();
    uint64_t requests = 0;
    int rc = EXIT_OK;
    size_t runs_max = phase_count ? phase_count : 1, row_count = 0;
    phase_summary *rows = calloc(runs_max, sizeof *rows);
    /* One phase per item of the workload's list, or the configuration's
     * own workload when there is no list. */
    size_t runs = phase_count ? phase_count : 1;
    for (size_t i = 0; i < runs && rc == EXIT_OK && !interrupted;) {
        /* a phase and the ones marked with_previous after it run together */
        size_t group = 1;
        while (phase_count && i + group < phase_count && cfg_bool(phases[i + group], "workload.with_previous")) group++;
        if (group == 1) {
            const cfg *pc = phase_count ? phases[i] : c;
            workload *w = phase_count ? workload_create(s, d, pc, err, sizeof err) : m.w;
            workload_result r;
            if (!w || workload_run(w, &r, err, sizeof err)) {
                fprintf(stderr, "ssdlab run: %s%s\n", phase_count ? "phase: " : "", err);
                rc = EXIT_BAD_INPUT;
            } else {
                report_phase(pc, d, &r, i, phase_count);
                requests += r.requests;
                if (rows) {
                    const char *name = cfg_str(pc, "workload.name");
                    results_phase_row(d, &rows[row_count++], name[0] ? name : "run", cfg_str(pc, "workload.phase"), r.seconds, 0);
                }
            }
            if (phase_count) workload_free(w);
        } else {
            rc = run_workers(s, d, phases + i, group, i, phase_count, &requests, rows ? &rows[row_count] : NULL);
            if (rc == EXIT_OK && rows) row_count++;
        }
        i += group;
    }
    if (rc != EXIT_OK) {
        free(rows);
        cli_model_close(&m);
        cli_free_phases(phases, phase_count);
        cfg_free(c);
        return rc;
    }
    double wall = cli_wall_seconds() - t1;
    ssdlab_stats st;
    ssd_stats(d, &st);
    printf("run: simulated %.6f s in all; energy %.3f J, average power %.3f W", sim_time_to_sec(sim_now(s)), st.energy_j,
           st.average_power_w);
    if (strcmp(cfg_str(c, "thermal.model"), "none") != 0)
        printf(", temperature %.1f C (max %.1f C), throttled %.3f s", st.temperature_c, st.max_temperature_c, st.throttled_s);
    printf("\n");
    printf("  wall time: preconditioning %.3f s, run %.3f s (%.2f million simulated requests per second)\n", t1 - t0, wall,
           wall > 0 ? (double)requests / wall / 1e6 : 0.0);
    double busy_sum = 0, busy_max = 0;
    for (uint32_t die = 0; die < p->dies; die++) {
        ssd_die_counts dc;
        ssd_die_stats(d, die, &dc);
        double u = sim_now(s) ? (double)dc.busy_ns / (double)sim_now(s) : 0;
        busy_sum += u;
        if (u > busy_max) busy_max = u;
    }
    printf("  die busy time: mean %.1f%%, busiest %.1f%% (since time 0)\n", 100 * busy_sum / p->dies, 100 * busy_max);
    if (st.erases) {
        double lo, mean, hi;
        ssd_erase_counts(d, &lo, &mean, &hi);
        printf("  block erase counts: min %.0f, mean %.2f, max %.0f\n", lo, mean, hi);
    }
    ssd_close_interval(d);
    if (timeseries) rc = write_timeseries(d, timeseries);
    if (interrupted) printf("run interrupted: the result holds what ran\n");
    if (output && rc == EXIT_OK)
        rc = write_result(output, c, d, rows, row_count, argc, argv, start_wall, interrupted ? "interrupted" : "complete");
    free(rows);
    if (check) {
        if (ftl_check(ssd_ftl(d), err, sizeof err)) {
            fprintf(stderr, "ssdlab run: integrity check failed: %s\n", err);
            rc = EXIT_FAILED;
        } else {
            printf("  integrity check: every mapping and valid count consistent\n");
        }
    }
    cli_model_close(&m);
    cli_free_phases(phases, phase_count);
    cfg_free(c);
    return rc;
}
