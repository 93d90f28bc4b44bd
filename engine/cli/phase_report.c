/* The run log's account of one phase: its workload, its requests by
 * operation, write amplification, and what the drive's mechanisms did. */
#include "phase_report.h"

#include <math.h>
#include <string.h>

#include "flash.h"

static void print_op(FILE *log, const ssd *d, const ssdlab_stats *st, ssdlab_op op, const char *name, double seconds)
{
    uint64_t n = st->completed[op];
    if (!n) return;
    fprintf(log, "  %-6s %10llu requests  %10.0f IOPS  %8.1f MiB/s  latency mean %9.1f us  p50 %9.1f  p99 %9.1f  p99.9 %9.1f us\n",
           name, (unsigned long long)n, (double)n / seconds, (double)st->bytes[op] / seconds / 1048576.0,
           st->latency_sum_ns[op] / (double)n / 1000.0, ssd_latency_quantile(d, op, 0.5) / 1000.0,
           ssd_latency_quantile(d, op, 0.99) / 1000.0, ssd_latency_quantile(d, op, 0.999) / 1000.0);
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

/* The phase's workload in one line. */
static void describe_workload(FILE *log, const cfg *c, const workload_result *r, bool traced, bool zoned, const char *pcmark)
{
    const char *kind = cfg_str(c, "workload.phase"), *source = cfg_str(c, "workload.source");
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
}

/* What ECC made of the reads (controller.ecc_model = rber): the share
 * corrected at once, the ladder's steps, soft reads and the uncorrectable. */
static void print_ecc(FILE *log, const ssd *d, const ssdlab_stats *st)
{
    const ssd_params *p = ssd_params_of(d);
    uint64_t out[ECC_OUTCOMES], reads = 0;
    ssd_ecc_outcomes(d, out);
    for (uint32_t i = 0; i <= ecc_outcome_failed(p); i++) reads += out[i];
    if (!reads) return;
    fprintf(log, "  ECC: %llu flash reads decoded, %.3f%% at once, %.4f ladder steps per read, %llu soft reads, "
                 "%llu uncorrectable\n", (unsigned long long)reads, 100.0 * (double)out[0] / (double)reads,
            (double)st->read_retries / (double)reads, (unsigned long long)st->soft_reads,
            (unsigned long long)st->uncorrectable_reads);
}

/* What the firmware did about the media: blocks moved by read reclaim and
 * refresh, blocks retired. */
static void print_media_events(FILE *log, const ssd *d)
{
    const media_params *mp = &ssd_params_of(d)->media;
    ssd_media_events ev;
    ssd_media_events_get(d, &ev);
    if (media_reacts(mp))
        fprintf(log, "  read reclaim: %llu blocks for read disturb, %llu for errors (%llu units moved); refresh: %llu "
                     "blocks (%llu units)\n",
                (unsigned long long)ev.jobs[MEDIA_DISTURBED], (unsigned long long)ev.jobs[MEDIA_ERRORS],
                (unsigned long long)(ev.moved[MEDIA_DISTURBED] + ev.moved[MEDIA_ERRORS]),
                (unsigned long long)ev.jobs[MEDIA_STALE], (unsigned long long)ev.moved[MEDIA_STALE]);
    if (media_retires(mp))
        fprintf(log, "  retirement: %llu blocks retired (%llu since new); a die may retire %u more; %llu erases of "
                     "worn blocks kept in service\n", (unsigned long long)ev.retired, (unsigned long long)ev.retired_ever,
                ev.spare_left, (unsigned long long)ev.worn_erases);
}

/* What power losses did (powerloss.h), since the drive was built. */
static void print_power_loss(FILE *log, const ssd *d)
{
    const ssd_params *p = ssd_params_of(d);
    const powerloss_log *pl = ssd_power_loss_log(d);
    fprintf(log, "  power loss %llu (%s): %llu units of acknowledged host data lost (%.3f MiB), %llu units GC had moved; ",
            (unsigned long long)pl->events, p->plp ? "capacitors" : "no protection", (unsigned long long)pl->lost_units,
            (double)pl->lost_units * p->unit / 1048576.0, (unsigned long long)pl->lost_relocated);
    if (p->plp)
        fprintf(log, "flush %.3f ms on %.4f J%s; ", 1e3 * pl->flush_s, pl->flush_energy_j,
                pl->holdup_short ? " (cut short: drive.holdup_energy spent)" : "");
    fprintf(log, "mapping rebuilt (%s) in %.3f ms\n", p->rebuild_checkpoint ? "checkpoint" : "scan", 1e3 * pl->rebuild_s);
}

/* A warm-up to steady state (workload.warmup_until): its rounds, and the
 * write amplification of the last ones, which SNIA's rule looked at. */
static void print_warmup(FILE *log, const workload_result *r)
{
    double round_gb = (double)r->warmup_round_bytes / 1e9;
    uint32_t shown = r->warmup_rounds < STEADY_WINDOW ? r->warmup_rounds : STEADY_WINDOW;
    fprintf(log, "  warm-up: %u rounds of %.2f GB of writes, %s; write amplification of the last %u:", r->warmup_rounds,
            round_gb, r->warmup_steady ? "then steady by SNIA PTS 2.0.2's rule" : "not steady by SNIA PTS 2.0.2's rule", shown);
    for (uint32_t i = 0; i < shown; i++) fprintf(log, " %.3f", r->warmup_wa[i]);
    fprintf(log, "\n");
    if (!r->warmup_steady)
        fprintf(stderr, "ssdlab run: warning: not steady after %u warm-up rounds (workload.warmup_rounds); measured all the same\n",
                r->warmup_rounds);
}

/* What one phase (or a run without phases) did. */
void report_phase(FILE *log, const cfg *c, const ssd *d, const workload_result *r, size_t index, size_t phases)
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
    if (!strcmp(kind, "power_loss")) {
        print_power_loss(log, d);
        return;
    }
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
    describe_workload(log, c, r, traced, zoned, pcmark);
    if (strcmp(kind, "wear"))
        fprintf(log, "  simulated %.6f s, %llu requests: %.0f IOPS, %.1f MiB/s\n", r->seconds, (unsigned long long)r->requests, r->iops,
                r->mib_per_s);
    if (traced)
        fprintf(log, "  trace: %llu records remapped onto the drive (workload.lba_map), %llu of other devices skipped\n",
               (unsigned long long)r->remapped, (unsigned long long)r->skipped);
    if (traced && r->warning[0]) fprintf(stderr, "ssdlab run: warning: %s\n", r->warning);
    if (r->warmup_rounds) print_warmup(log, r);
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
    if (p->media.model == ECC_RBER) print_ecc(log, d, &st);
    print_media_events(log, d);
    if (p->map_cached)
        fprintf(log, "  mapping cache: %u of %u translation units; %llu misses (%.1f%% of requests), %llu write-backs\n",
               p->map_cache_pages, p->map_pages, (unsigned long long)st.map_misses,
               r->requests ? 100.0 * (double)st.map_misses / (double)r->requests : 0.0, (unsigned long long)st.map_writebacks);
    else if (p->map_persisted)
        fprintf(log, "  mapping table in DRAM: at most %u of %u translation units dirty; %llu write-backs\n",
               p->map_cache_pages, p->map_pages, (unsigned long long)st.map_writebacks);
}
