#include "runner.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "oom.h"
#include "outfile.h"
#include "progress.h"
#include "results.h"
#include "score.h"
#include "ssd.h"
#include "workload.h"
#include "workload_keys.h"
#include "tenant_report.h"

/* Where the drive's time series and requests go as the run goes: the
 * HDF5 result and a CSV file, each optional. */
typedef struct run_outputs {
    results_writer *h5;
    outfile csv;
    bool csv_open;
} run_outputs;

static void csv_row(FILE *fp, const ssd_interval *r)
{
    fprintf(fp, "%.9g,%.9g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.9g,%.9g,%llu,%.6g,%llu,%llu,%.6g\n", r->start_s, r->end_s, r->iops, r->mib_per_s,
            r->read_mib_per_s, r->write_mib_per_s, r->mean_latency_us, r->p99_latency_us, r->read_mean_latency_us,
            r->write_mean_latency_us, r->host_gib_written, r->flash_gib_written, (unsigned long long)r->free_blocks, r->slc_gib, (unsigned long long)r->erases, (unsigned long long)r->gc_units,
            r->temperature_c);
}

static void on_interval(void *ctx, const ssd_interval *row)
{
    run_outputs *o = ctx;
    if (o->h5) results_interval(o->h5, row);
    if (o->csv_open) csv_row(o->csv.fp, row);
}

static void on_request(void *ctx, const ssdlab_request *r)
{
    run_outputs *o = ctx;
    if (o->h5) results_request(o->h5, r);
}

static int open_csv(run_outputs *o, const char *path)
{
    if (outfile_open(&o->csv, path)) {
        fprintf(stderr, "ssdlab: cannot write '%s': %s\n", path, strerror(errno));
        return EXIT_FAILED;
    }
    o->csv_open = true;
    fprintf(o->csv.fp, "start_s,end_s,iops,mib_per_s,read_mib_per_s,write_mib_per_s,mean_latency_us,p99_latency_us,read_mean_latency_us,"
                       "write_mean_latency_us,host_gib_written,"
                       "flash_gib_written,free_blocks,slc_gib,erases,gc_units,temperature_c\n");
    return EXIT_OK;
}

static int commit_csv(run_outputs *o, const char *path)
{
    if (!o->csv_open) return EXIT_OK;
    o->csv_open = false;
    if (outfile_commit(&o->csv)) {
        fprintf(stderr, "ssdlab: cannot write '%s': %s\n", path, strerror(errno));
        return EXIT_FAILED;
    }
    return EXIT_OK;
}

static void print_op(FILE *log, const ssd *d, const ssdlab_stats *st, ssdlab_op op, const char *name, double seconds)
{
    uint64_t n = st->completed[op];
    if (!n) return;
    fprintf(log, "  %-6s %10llu requests  %10.0f IOPS  %8.1f MiB/s  latency mean %9.1f us  p50 %9.1f  p99 %9.1f  p99.9 %9.1f us\n",
           name, (unsigned long long)n, (double)n / seconds, (double)st->bytes[op] / seconds / 1048576.0,
           st->latency_sum_ns[op] / (double)n / 1000.0, ssd_latency_quantile(d, op, 0.5) / 1000.0,
           ssd_latency_quantile(d, op, 0.99) / 1000.0, ssd_latency_quantile(d, op, 0.999) / 1000.0);
}

/* SIGINT or SIGTERM: the run stops at the next check and its result is
 * written, marked interrupted. */
static volatile sig_atomic_t interrupted;

/* A second signal while the first is being honoured (during a long
 * preconditioning, say) ends the program at once, as the user asks. */
static void on_interrupt(int sig)
{
    if (interrupted) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
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

/* Closes the result with what produced it: the command line and the
 * resolved configuration. */
static int finish_result(FILE *log, results_writer *w, const char *path, const cfg *c, const ssd *d, int argc, char **argv,
                         double start_wall, const char *status)
{
    char *yaml = NULL, *line = NULL;
    size_t yaml_len = 0, line_len = 0;
    FILE *y = open_memstream(&yaml, &yaml_len), *l = open_memstream(&line, &line_len);
    if (!y || !l) {
        if (y) fclose(y);
        if (l) fclose(l);
        results_discard(w);
        fprintf(stderr, "ssdlab: out of memory\n");
        return EXIT_FAILED;
    }
    cfg_write_yaml(c, y, false);
    fclose(y);
    fputs("ssdlab", l);
    for (int i = 0; i < argc; i++) fprintf(l, " %s", argv[i]);
    fclose(l);
    results_meta meta = {.command_line = line, .config_yaml = yaml, .config = c, .status = status,
                         .seed = cfg_uint(c, "sim.seed"), .start_wall = start_wall, .end_wall = epoch_seconds()};
    char err[512];
    int rc = results_finish(w, &meta, d, err, sizeof err) ? EXIT_FAILED : EXIT_OK;
    if (rc) fprintf(stderr, "ssdlab: %s\n", err);
    else fprintf(log, "  result written to %s\n", path);
    free(yaml);
    free(line);
    return rc;
}

/* Flexible data placement's log (since the drive was built). */
static void print_fdp(FILE *log, const ssd *d, uint32_t handles)
{
    ssd_fdp_log f;
    ssd_fdp_log_get(d, &f);
    fprintf(log, "  FDP log: host %.1f MiB, media %.1f MiB (%.3f), erased %.1f MiB; media reallocated %llu times, "
                 "reclaim units not fully written %llu;",
            (double)f.host_bytes / 1048576.0, (double)f.media_bytes / 1048576.0,
            f.host_bytes ? (double)f.media_bytes / (double)f.host_bytes : NAN, (double)f.erased_bytes / 1048576.0,
            (unsigned long long)f.media_reallocated, (unsigned long long)f.ru_not_fully_written);
    for (uint32_t h = 0; h < handles; h++)
        fprintf(log, " handle %u: host %.1f MiB, moved %.1f MiB%s", h, (double)f.handle_host_bytes[h] / 1048576.0,
                (double)f.handle_moved_bytes[h] / 1048576.0, h + 1 < handles ? ";" : "\n");
}

/* What one phase (or a run without phases) did. */
static void report_phase(FILE *log, const cfg *c, const ssd *d, const workload_result *r, size_t index, size_t phases)
{
    ssdlab_stats st;
    ssd_stats(d, &st);
    const ssd_params *p = ssd_params_of(d);
    const char *kind = cfg_str(c, "workload.phase"), *name = cfg_str(c, "workload.name");
    const char *source = cfg_str(c, "workload.source");
    bool traced = !strcmp(kind, "io") && (!strcmp(source, "trace") || !strcmp(source, "pcmark8"));
    bool zoned = !strcmp(source, "zoned");
    char pcmark[96];
    snprintf(pcmark, sizeof pcmark, "pcmark8:%s (seed %llu)", cfg_str(c, "workload.pcmark8_app"),
             (unsigned long long)cfg_uint(c, "workload.pcmark8_seed"));
    if (phases) fprintf(log, "phase %zu of %zu%s%s%s: %s\n", index + 1, phases, name[0] ? " (" : "", name, name[0] ? ")" : "", kind);
    if (!strcmp(kind, "idle")) {
        fprintf(log, "  idle for %.3f s of simulated time\n", r->seconds);
        return;
    }
    if (!strcmp(kind, "wear")) { /* no time passes: what was written, and the life it used */
        uint64_t rated = cfg_uint(c, "drive.rated_tbw"), ever = ssd_host_units_ever(d) * p->unit;
        char sizes[64];
        snprintf(sizes, sizeof sizes, "%llu B", (unsigned long long)cfg_uint(c, "workload.block_size"));
        fprintf(log, "  wear: %s, blocks %s, %llu write requests untimed, %.1f GB; %.3f TB written since new", cfg_str(c, "workload.pattern"),
                cfg_str(c, "workload.block_sizes")[0] ? cfg_str(c, "workload.block_sizes") : sizes, (unsigned long long)r->requests,
                (double)st.bytes[SSDLAB_WRITE] / 1e9, (double)ever / 1e12);
        if (rated) fprintf(log, " (%.1f%% of the rated %g TBW)", 100.0 * (double)ever / (double)rated, (double)rated / 1e12);
        fprintf(log, "\n");
    }
    const char *trace = !strcmp(source, "pcmark8") ? pcmark : cfg_str(c, "workload.trace");
    if (traced && !strcmp(cfg_str(c, "workload.replay"), "timed")) /* the queue depth means nothing to an open loop */
        fprintf(log, "  workload: timed replay of %s (recorded times x %g), precondition %s\n", trace,
                cfg_float(c, "workload.time_scale"), cfg_str(c, "workload.precondition"));
    else if (traced)
        fprintf(log, "  workload: replay of %s as fast as possible at QD %llu, precondition %s\n", trace,
                (unsigned long long)cfg_uint(c, "workload.queue_depth"), cfg_str(c, "workload.precondition"));
    else if (zoned)
        fprintf(log, "  workload: zoned writer, %llu objects of %llu B (%.0f%% live), %s over %llu streams, %s, %.0f%% reads, QD %llu\n",
                (unsigned long long)r->zone_objects, (unsigned long long)cfg_uint(c, "workload.block_size"),
                100 * cfg_float(c, "workload.zone_live"), cfg_str(c, "workload.zone_placement"),
                (unsigned long long)cfg_uint(c, "workload.zone_streams"), cfg_str(c, "workload.pattern"),
                100 * cfg_float(c, "workload.read_share"), (unsigned long long)cfg_uint(c, "workload.queue_depth"));
    else if (!strcmp(kind, "io"))
    {
        char sizes[64];
        snprintf(sizes, sizeof sizes, "%llu B", (unsigned long long)cfg_uint(c, "workload.block_size"));
        fprintf(log, "  workload: %s, %.0f%% reads, blocks %s, QD %llu, precondition %s\n", cfg_str(c, "workload.pattern"),
               100 * cfg_float(c, "workload.read_share"),
               cfg_str(c, "workload.block_sizes")[0] ? cfg_str(c, "workload.block_sizes") : sizes,
               (unsigned long long)cfg_uint(c, "workload.queue_depth"), cfg_str(c, "workload.precondition"));
    }
    if (strcmp(kind, "wear"))
        fprintf(log, "  simulated %.6f s, %llu requests: %.0f IOPS, %.1f MiB/s\n", r->seconds, (unsigned long long)r->requests, r->iops,
                r->mib_per_s);
    if (traced)
        fprintf(log, "  trace: %llu records remapped onto the drive (workload.lba_map), %llu of other devices skipped\n",
               (unsigned long long)r->remapped, (unsigned long long)r->skipped);
    if (traced && r->warning[0]) fprintf(stderr, "ssdlab run: warning: %s\n", r->warning);
    print_op(log, d, &st, SSDLAB_READ, "read", r->seconds);
    print_op(log, d, &st, SSDLAB_WRITE, "write", r->seconds);
    if (st.completed[SSDLAB_TRIM]) fprintf(log, "  trim   %10llu commands\n", (unsigned long long)st.completed[SSDLAB_TRIM]);
    if (zoned)
        fprintf(log, "  zoned writer: %llu object writes, %llu copies by its reclaimer (host write amplification %.3f), "
                     "%llu zone resets, %llu writes waited for an empty zone\n",
                (unsigned long long)r->zone_writes, (unsigned long long)r->zone_copies,
                r->zone_writes ? (double)(r->zone_writes + r->zone_copies) / (double)r->zone_writes : NAN,
                (unsigned long long)r->zone_resets, (unsigned long long)r->zone_stalls);
    if (st.bytes[SSDLAB_WRITE])
        fprintf(log,
                "  write amplification %.3f = host 1 + read-modify-write %.3f + fold %.3f + GC %.3f + map %.3f + padding %.3f"
                " (flash bytes programmed / host bytes written); %.1f%% of host units into the SLC cache; erases %llu\n",
                st.write_amplification, st.wa_rmw, st.wa_fold, st.wa_gc, st.wa_map, st.wa_pad, 100 * st.slc_share,
                (unsigned long long)st.erases);
    if (p->fdp_handles) print_fdp(log, d, p->fdp_handles);
    if (p->map_cached)
        fprintf(log, "  mapping cache: %u of %u translation units; %llu misses (%.1f%% of requests), %llu write-backs\n",
               p->map_cache_pages, p->map_pages, (unsigned long long)st.map_misses,
               r->requests ? 100.0 * (double)st.map_misses / (double)r->requests : 0.0, (unsigned long long)st.map_writebacks);
}

/* Phases i .. i+group-1 as workers running at the same time; for a
 * worker's run alone (rq->alone_worker in the group), that worker only. */
static int run_workers(const run_request *rq, sim *s, ssd *d, cfg **phases, size_t group, size_t index, uint64_t *requests,
                       results_writer *h5, progress *pr)
{
    FILE *log = rq->log;
    const cfg *base = rq->config;
    size_t count = rq->phase_count;
    bool alone = rq->alone_worker > index && rq->alone_worker <= index + group;
    if (alone) {
        phases += rq->alone_worker - 1 - index;
        group = 1;
    }
    workload *w[64];
    char err[1024];
    int active = (int)group, rc = EXIT_OK;
    size_t made = 0;
    if (group > 64) {
        fprintf(stderr, "ssdlab: phases %zu to %zu: at most 64 workers run together\n", index + 1, index + group);
        return EXIT_BAD_INPUT;
    }
    for (; made < group; made++) {
        if (!(w[made] = workload_create(s, d, phases[made], err, sizeof err))) {
            fprintf(stderr, "ssdlab: phase %zu: %s\n", index + made + 1, err);
            rc = EXIT_BAD_INPUT;
            break;
        }
        if (!workload_can_join(w[made])) {
            fprintf(stderr, "ssdlab: phase %zu: key 'workload.with_previous': only synthetic io and trim phases run as workers; expected phase io (source synthetic) or trim\n",
                    index + made + 1);
            rc = EXIT_BAD_INPUT;
            made++;
            break;
        }
        if (workload_join(w[made], &active)) {
            fprintf(stderr, "ssdlab: phase %zu: out of memory for its statistics\n", index + made + 1);
            rc = EXIT_FAILED;
            made++;
            break;
        }
    }
    if (rc == EXIT_OK) {
        ssd_reset_stats(d);
        sim_time_t start = sim_now(s);
        double wall0 = cli_wall_seconds();
        progress_phase(pr, w[0], index, count);
        for (size_t k = 0; k < group; k++) workload_start(w[k]);
        sim_run(s, SIM_TIME_MAX);
        ssdlab_stats st;
        ssd_stats(d, &st);
        workload_result r = {.requests = st.completed[0] + st.completed[1] + st.completed[2],
                             .seconds = sim_time_to_sec(sim_now(s) - start)};
        workload_set_rates(&r, &st);
        fprintf(log, "phases %zu to %zu of %zu run together as %zu workers:\n", index + 1, index + group, count, group);
        report_phase(log, phases[0], d, &r, index, 0);
        *requests += r.requests;
        if (h5) {
            phase_summary row;
            const char *name = cfg_str(phases[0], "workload.name"); /* the group goes by its first worker's name */
            results_phase_row(d, &row, name[0] ? name : "workers", "io", sim_time_to_sec(start), r.seconds,
                              cli_wall_seconds() - wall0);
            results_add_phase(h5, d, &row, phases[0], base);
        }
        if (alone) *rq->alone_mean_us = tenant_mean_us(workload_tenant(w[0]));
        else report_tenants(log, w, phases, group, rq->baseline_us ? rq->baseline_us + index : NULL, h5);
    }
    for (size_t k = 0; k < made; k++) workload_free(w[k]);
    return rc;
}

/* PCMark-style scoring of the run's trace replays (score.h), for the log. */
static trace_score run_score;

static void note_score(FILE *log, const cfg *pc, const phase_summary *row)
{
    if (!score_counts(pc)) return;
    fprintf(log, "  busy %.3f s (a read or write outstanding): %.2f MiB/s over it; access time %.1f us\n", row->busy_s,
            row->busy_mib_s, row->access_time_us);
    score_add(&run_score, row);
}

static void print_score(FILE *log)
{
    if (!run_score.phases) return;
    score_finish(&run_score);
    fprintf(log, "trace replays (%u phases): busy %.3f s, bandwidth %.2f MiB/s, access time %.1f us, score %.1f\n",
            run_score.phases, run_score.busy_s, run_score.bandwidth_mib_s, run_score.access_time_us, run_score.score);
}

/* One phase on its own. */
static int run_phase(FILE *log, cli_model *m, const cfg *base, const cfg *pc, bool listed, size_t index, size_t count, uint64_t *requests,
                     results_writer *h5, progress *pr)
{
    char err[1024];
    workload *w = listed ? workload_create(m->s, m->d, pc, err, sizeof err) : m->w;
    workload_result r;
    sim_time_t start = sim_now(m->s);
    double wall0 = cli_wall_seconds();
    int rc = EXIT_OK;
    if (w) progress_phase(pr, w, index, count);
    if (!w || workload_run(w, &r, err, sizeof err)) {
        fprintf(stderr, "ssdlab: %s%s\n", listed ? "phase: " : "", err);
        rc = EXIT_BAD_INPUT;
    } else {
        report_phase(log, pc, m->d, &r, index, listed ? count : 0);
        *requests += r.requests;
        const char *name = cfg_str(pc, "workload.name");
        phase_summary row;
        results_phase_row(m->d, &row, name[0] ? name : "run", cfg_str(pc, "workload.phase"), sim_time_to_sec(start), r.seconds,
                          cli_wall_seconds() - wall0);
        note_score(log, pc, &row);
        if (h5) results_add_phase(h5, m->d, &row, pc, base);
        const tenant_stats *stats;
        const uint32_t *ids;
        uint32_t tenants = workload_device_tenants(w, &stats, &ids);
        if (tenants) report_device_tenants(log, stats, ids, tenants, ssd_params_of(m->d)->host_queues, h5);
    }
    if (listed) workload_free(w);
    return rc;
}

/* Every phase in order; a phase and the ones marked with_previous after it
 * run together as workers. */
static int run_phases(const run_request *rq, cli_model *m, uint64_t *requests, results_writer *h5, progress *pr)
{
    FILE *log = rq->log;
    const cfg *c = rq->config;
    cfg **phases = rq->phases;
    size_t phase_count = rq->phase_count;
    size_t runs = phase_count ? phase_count : 1;
    int rc = EXIT_OK;
    for (size_t i = 0; i < runs && rc == EXIT_OK && !interrupted && !sim_failed(m->s);) {
        size_t group = 1;
        while (phase_count && i + group < phase_count && cfg_bool(phases[i + group], "workload.with_previous")) group++;
        if (group == 1) rc = run_phase(log, m, c, phase_count ? phases[i] : c, phase_count > 0, i, runs, requests, h5, pr);
        else rc = run_workers(rq, m->s, m->d, phases + i, group, i, requests, h5, pr);
        if (rq->alone_worker > i && rq->alone_worker <= i + group) break; /* the worker alone is done */
        i += group;
    }
    return rc;
}

static void print_run_totals(FILE *log, const cfg *c, const ssd *d, const sim *s, uint64_t requests, double precondition_s, double wall)
{
    const ssd_params *p = ssd_params_of(d);
    ssdlab_stats st;
    ssd_stats(d, &st);
    fprintf(log, "run: simulated %.6f s in all; energy %.3f J, average power %.3f W", sim_time_to_sec(sim_now(s)), st.energy_j,
           st.average_power_w);
    if (strcmp(cfg_str(c, "thermal.model"), "none") != 0)
        fprintf(log, ", temperature %.1f C (max %.1f C), throttled %.3f s", st.temperature_c, st.max_temperature_c, st.throttled_s);
    fprintf(log, "\n");
    fprintf(log, "  wall time: preconditioning %.3f s, run %.3f s (%.2f million simulated requests per second)\n", precondition_s,
           wall, wall > 0 ? (double)requests / wall / 1e6 : 0.0);
    double busy_sum = 0, busy_max = 0;
    for (uint32_t die = 0; die < p->dies; die++) {
        ssd_die_counts dc;
        ssd_die_stats(d, die, &dc);
        double u = sim_now(s) ? (double)dc.busy_ns / (double)sim_now(s) : 0;
        busy_sum += u;
        if (u > busy_max) busy_max = u;
    }
    fprintf(log, "  die busy time: mean %.1f%%, busiest %.1f%% (since time 0)\n", 100 * busy_sum / p->dies, 100 * busy_max);
    if (st.erases) {
        double lo, mean, hi;
        ssd_erase_counts(d, &lo, &mean, &hi);
        fprintf(log, "  block erase counts: min %.0f, mean %.2f, max %.0f\n", lo, mean, hi);
    }
}

bool runner_interrupted(void) { return interrupted != 0; }

/* Opens the result file and the CSV, and hooks them to the drive. */
static int open_outputs(const run_request *rq, ssd *d, run_outputs *out)
{
    char err[1024];
    if (rq->output && !(out->h5 = results_open(rq->output, rq->log_requests, err, sizeof err))) {
        fprintf(stderr, "ssdlab: %s\n", err);
        return EXIT_FAILED;
    }
    if (rq->timeseries && open_csv(out, rq->timeseries) != EXIT_OK) {
        results_discard(out->h5);
        out->h5 = NULL;
        return EXIT_FAILED;
    }
    ssd_observers obs = {.interval = on_interval, .request = rq->log_requests ? on_request : NULL, .ctx = out};
    if (out->h5 || out->csv_open) ssd_observe(d, &obs);
    return EXIT_OK;
}

/* How the run ended, as /meta's status says it. */
static const char *run_status(const cli_model *m)
{
    if (sim_failed(m->s)) return "out of memory";
    return interrupted ? "interrupted" : "complete";
}

/* After the phases: totals, the CSV, the result, the integrity check. */
static int close_outputs(const run_request *rq, cli_model *m, run_outputs *out, double start_wall)
{
    int rc = commit_csv(out, rq->timeseries);
    if (sim_failed(m->s)) {
        fprintf(stderr, "ssdlab: out of memory for %s: the run stopped there; the result holds what ran (status 'out of memory')\n",
                oom_what());
        rc = EXIT_FAILED;
    } else if (interrupted) {
        fprintf(rq->log, "run interrupted: the result holds what ran\n");
    }
    if (out->h5) {
        int wrc = finish_result(rq->log, out->h5, rq->output, rq->config, m->d, rq->argc, rq->argv, start_wall, run_status(m));
        if (rc == EXIT_OK) rc = wrc;
    }
    /* a model stopped half-way through an event is no longer consistent */
    if (rq->check && !sim_failed(m->s)) {
        char err[1024];
        if (ftl_check(ssd_ftl(m->d), err, sizeof err)) {
            fprintf(stderr, "ssdlab: integrity check failed: %s\n", err);
            rc = EXIT_FAILED;
        } else {
            fprintf(rq->log, "  integrity check: every mapping and valid count consistent\n");
        }
    }
    return rc;
}

/* Memory set aside for writing the result of a run that ran out. */
enum { RESULT_RESERVE = 32 << 20 };

/* Preconditioning and the phases. Memory that runs out inside the
 * simulator's loop stops the run there (sim_failed), and what ran is kept;
 * this frame catches what runs out outside it (a phase's first requests,
 * preconditioning), where there is nothing whole to keep. */
static int run_guarded(const run_request *rq, cli_model *m, run_outputs *out, uint64_t *requests, double *precondition_end,
                       progress *pr)
{
    oom_clear();
    oom_reserve(RESULT_RESERVE);
    oom_frame f;
    oom_enter(&f);
    if (setjmp(f.at)) {
        fprintf(stderr, "ssdlab: out of memory for %s outside the simulator's loop: no result is kept\n", oom_what());
        return EXIT_FAILED;
    }
    progress_note(pr, "preconditioning (no simulated time passes)");
    workload_precondition(m->w);
    *precondition_end = cli_wall_seconds();
    int rc = run_phases(rq, m, requests, out->h5, pr);
    oom_leave(&f);
    oom_reserve(0);
    return rc;
}

static bool in_group(const run_request *rq, size_t p)
{
    return (p > 0 && cfg_bool(rq->phases[p], "workload.with_previous")) ||
           (p + 1 < rq->phase_count && cfg_bool(rq->phases[p + 1], "workload.with_previous"));
}

/* --alone: each worker of each group run by itself (the phases before its
 * group as they are), for the mean latency its slowdown is measured
 * against. NULL when a run fails (its status in *rc). */
static double *alone_baselines(const run_request *rq, int *rc)
{
    double *alone = malloc((rq->phase_count ? rq->phase_count : 1) * sizeof *alone);
    FILE *quiet = fopen("/dev/null", "w");
    *rc = alone && quiet ? EXIT_OK : EXIT_FAILED;
    for (size_t p = 0; p < rq->phase_count && *rc == EXIT_OK; p++) {
        alone[p] = NAN;
        if (!in_group(rq, p)) continue;
        run_request one = {.config = rq->config, .phases = rq->phases, .phase_count = rq->phase_count, .drive_label = rq->drive_label,
                           .argc = rq->argc, .argv = rq->argv, .log = quiet, .alone_worker = p + 1, .alone_mean_us = &alone[p]};
        *rc = runner_run(&one);
    }
    if (quiet) fclose(quiet);
    if (*rc == EXIT_OK) return alone;
    free(alone);
    return NULL;
}

int runner_run(const run_request *rq)
{
    if (rq->alone) {
        int rc;
        double *alone = alone_baselines(rq, &rc);
        if (!alone) return rc;
        run_request shared = *rq;
        shared.alone = false;
        shared.baseline_us = alone;
        rc = runner_run(&shared);
        free(alone);
        return rc;
    }
    const cfg *c = rq->config;
    FILE *log = rq->log;
    char err[1024];
    size_t phase;
    if (workload_check_keys(c, rq->phases, rq->phase_count, &phase, err, sizeof err)) {
        if (phase) fprintf(stderr, "ssdlab: phase %zu: %s\n", phase, err);
        else fprintf(stderr, "ssdlab: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    cli_model m;
    if (cli_model_open(&m, c, "run")) return EXIT_BAD_INPUT;
    run_score = (trace_score){0};
    /* before the result file appears: whoever sees it may interrupt */
    catch_interrupts();
    run_outputs out = {0};
    int rc = open_outputs(rq, m.d, &out);
    if (rc != EXIT_OK) {
        cli_model_close(&m);
        return rc;
    }
    const ssd_params *p = ssd_params_of(m.d);
    fprintf(log, "ssdlab run: %s (%s), %.1f GB user, %u channels x %u dies, seed %llu\n", cfg_str(c, "drive.name"),
            rq->drive_label ? rq->drive_label : "defaults", (double)ssd_capacity(m.d) / 1e9, p->channels, p->dies_per_channel,
            (unsigned long long)cfg_uint(c, "sim.seed"));
    double start_wall = epoch_seconds();
    sim_watch_flag(m.s, &interrupted);
    progress pr;
    progress_begin(&pr, m.s, m.d, rq->progress);
    double t0 = cli_wall_seconds(), t1 = t0;
    uint64_t requests = 0;
    rc = run_guarded(rq, &m, &out, &requests, &t1, &pr);
    progress_end(&pr);
    if (rc != EXIT_OK) {
        results_discard(out.h5);
        if (out.csv_open) outfile_abort(&out.csv);
    } else {
        print_run_totals(log, c, m.d, m.s, requests, t1 - t0, cli_wall_seconds() - t1);
        print_score(log);
        ssd_close_interval(m.d);
        rc = close_outputs(rq, &m, &out, start_wall);
        if (interrupted && rc == EXIT_OK) rc = EXIT_INTERRUPTED;
    }
    cli_model_close(&m);
    return rc;
}
