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
#include "phase_report.h"

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


/* Phases i .. i+group-1 as workers running at the same time; for a
 * worker's run alone (rq->alone_worker in the group), that worker only. */
static int run_workers(const run_request *rq, sim *s, ssd *d, cfg **phases, size_t group, size_t index, uint64_t *requests,
                       results_writer *h5, progress *pr)
{
    FILE *log = rq->log;
    const cfg *base = rq->config;
    size_t count = rq->phase_count;
    bool alone = rq->alone_worker > index && rq->alone_worker <= index + group;
    size_t first = alone ? rq->alone_worker - 1 - index : 0; /* the first worker made, within the group */
    if (alone) {
        phases += first;
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
            fprintf(stderr, "ssdlab: phase %zu: %s\n", index + first + made + 1, err);
            rc = EXIT_BAD_INPUT;
            break;
        }
        if (!workload_can_join(w[made])) {
            fprintf(stderr, "ssdlab: phase %zu: key 'workload.with_previous': only synthetic io and trim phases run as workers; expected phase io (source synthetic) or trim\n",
                    index + first + made + 1);
            rc = EXIT_BAD_INPUT;
            made++;
            break;
        }
        if (!alone && workload_warms_to_steady(w[made])) {
            fprintf(stderr, "ssdlab: phase %zu: key 'workload.warmup_until' is steady, and the phase runs beside others "
                            "(workload.with_previous), whose writes would count in its rounds; expected warmup_until: requests\n",
                    index + first + made + 1);
            rc = EXIT_BAD_INPUT;
            made++;
            break;
        }
        char stream[48];
        snprintf(stream, sizeof stream, "workload.phase%zu", index + first + made + 1);
        if (workload_join(w[made], &active, first + made ? stream : NULL)) {
            fprintf(stderr, "ssdlab: phase %zu: out of memory for its statistics\n", index + first + made + 1);
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
    /* Where a full-size run's wall time may go, and how to buy it back */
    uint64_t refills = ssd_reverse_map_refills(d);
    if (refills)
        fprintf(log,
                "  reverse map: %llu refills, each a pass over the mapping table (sim.reverse_map_share=1 needs none, for "
                "%.1f more bytes per 4 KiB of flash)\n",
                (unsigned long long)refills, 4 * (1 - p->reverse_map_share));
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
        if (ssd_check(m->d, err, sizeof err)) {
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
