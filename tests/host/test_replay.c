/* Trace replay on a drive: as fast as possible and timed, time scaling,
 * device selection, mapping onto the capacity, bad records, and the bounds
 * a replay shares with synthetic phases (requests, duration, bytes, drive
 * writes, warm-up) with its own start and loop. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_config.h"
#include "ssd.h"
#include "trace.h"
#include "trace_feed.h"
#include "workload.h"

#define SAMPLES SOURCE_DIR "/tests/data/traces/"

typedef struct run {
    workload_result r;
    ssdlab_stats st;
    int rc;
    char err[600];
    uint64_t mapped, highest; /* logical units holding data, and the highest of them */
    uint64_t warmed;          /* units the drive warmed (ssd_warmed) */
    uint64_t overwrites;      /* writes whose old places it loaded (ssd_warmed_overwrites) */
} run;

static void count_mapped(ssd *d, run *out)
{
    ftl *f = ssd_ftl(d);
    for (uint64_t u = 0; u < ssd_params_of(d)->logical_units; u++)
        if (ftl_lookup(f, (uint32_t)u) != FTL_NONE) {
            out->mapped++;
            out->highest = u;
        }
}

/* The replay's run, with before_run(trace) called between the workload's
 * creation (the trace's first pass and opening) and its run, if set. */
static run replay_with(const char *trace, const char *const *sets, void (*before_run)(const char *trace))
{
    cfg *c = cfg_create(ssdlab_schema());
    const char *base[] = {"controller.channels=2", "controller.dies_per_channel=2", "nand.blocks_per_plane=64",
                          "nand.pages_per_block=96", "drive.user_capacity=600MB", "workload.source=trace",
                          "workload.precondition=none", "host.max_queue_depth=64"};
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) cfg_set_override(c, base[i]);
    char set[300];
    snprintf(set, sizeof set, "workload.trace=%s", trace);
    cfg_set_override(c, set);
    for (; sets && *sets; sets++) cfg_set_override(c, *sets);
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    run out = {0};
    sim_options o = sim_options_from_config(c);
    sim *s = sim_create(&o);
    ssd *d = ssd_create(s, c, out.err, sizeof out.err);
    cr_assert_not_null(d, "%s", out.err);
    workload *w = workload_create(s, d, c, out.err, sizeof out.err);
    if (!w) { /* refused: the message is the result */
        out.rc = -2;
        ssd_free(d);
        sim_free(s);
        cfg_free(c);
        return out;
    }
    if (before_run) before_run(trace);
    out.rc = workload_run(w, &out.r, out.err, sizeof out.err);
    ssd_stats(d, &out.st);
    out.warmed = ssd_warmed(d);
    out.overwrites = ssd_warmed_overwrites(d);
    count_mapped(d, &out);
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(d), err, sizeof err), 0, "%s", err);
    workload_free(w);
    ssd_free(d);
    sim_free(s);
    cfg_free(c);
    return out;
}

static run replay(const char *trace, const char *const *sets) { return replay_with(trace, sets, NULL); }

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A trace file of the test's own, at a name made from the template path
 * (which it fills in), open for writing. */
static FILE *new_trace(char *path)
{
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    return f;
}

/* Every record is served, with its bytes (widened to 4 KiB units). */
Test(replay, afap_replays_every_record)
{
    run x = replay(SAMPLES "msr_wdev_1.csv", LIST("workload.replay=afap", "workload.lba_map=wrap"));
    cr_assert_eq(x.rc, 0, "%s", x.err);
    cr_assert_eq(x.r.requests, 1055);
    cr_assert_eq(x.st.completed[SSDLAB_WRITE], 1055);
    cr_assert_eq(x.st.bytes[SSDLAB_WRITE], 5537792);
    cr_assert_gt(x.r.remapped, 0, "wdev_1 addresses run past 600 MB");
}

/* Timed: the run spans the trace (23.6 s of FIU records) plus the last
 * request's service; a time scale of 0.5 halves it. */
Test(replay, timed_replay_keeps_recorded_times)
{
    run full = replay(SAMPLES "fiu_cheetah_sample.blkparse", LIST("workload.lba_map=wrap"));
    run half = replay(SAMPLES "fiu_cheetah_sample.blkparse", LIST("workload.lba_map=wrap", "workload.time_scale=0.5"));
    cr_assert_eq(full.rc, 0, "%s", full.err);
    cr_assert_eq(full.r.requests, 9998);
    cr_assert(full.r.seconds > 23.4 && full.r.seconds < 23.8, "span %.4f s", full.r.seconds);
    cr_assert(fabs(half.r.seconds / full.r.seconds - 0.5) < 0.01, "half %.4f, full %.4f", half.r.seconds, full.r.seconds);
}

/* A multi-device trace: only the chosen device's records run. */
Test(replay, device_selection)
{
    run all = replay(SAMPLES "disksim_wsrch-small.trace", LIST("workload.replay=afap", "workload.trace_time_unit=1ns",
                                                               "workload.lba_map=wrap", "workload.device_layout=overlay"));
    run one = replay(SAMPLES "disksim_wsrch-small.trace",
                     LIST("workload.replay=afap", "workload.trace_time_unit=1ns", "workload.lba_map=wrap", "workload.devices=0"));
    cr_assert_eq(all.r.requests, 24783);
    cr_assert_eq(one.r.requests + one.r.skipped, 24783);
    cr_assert_gt(one.r.requests, 0);
    cr_assert_gt(one.r.skipped, 0);
}

/* Records past the capacity: an error naming file and line, or a mapping. */
Test(replay, lba_mapping_modes)
{
    run err = replay(SAMPLES "msr_wdev_1.csv", LIST("workload.replay=afap"));
    cr_assert_eq(err.rc, -1);
    cr_assert(strstr(err.err, "msr_wdev_1.csv:1: offset 3165323264 + 4096 bytes lies past the drive's 599998464 bytes"), "%s",
              err.err);
    run scaled = replay(SAMPLES "msr_wdev_1.csv", LIST("workload.replay=afap", "workload.lba_map=scale"));
    cr_assert_eq(scaled.rc, 0, "%s", scaled.err);
    cr_assert_eq(scaled.r.remapped, 1055, "scale maps every record");
}

/* TRIM records of a trace reach the drive as TRIM commands. */
Test(replay, trims_from_a_trace)
{
    char path[] = "/tmp/ssdlab-replay-XXXXXX";
    FILE *f = new_trace(path);
    /* timed, a second apart: the written data is in flash when it is
     * trimmed, and the untrimmed unit is read from flash */
    fputs("fio version 3 iolog\n0 /dev/x add\n0 /dev/x write 0 1048576\n1000 /dev/x trim 0 524288\n"
          "2000 /dev/x read 0 4096\n3000 /dev/x read 524288 4096\n",
          f);
    fclose(f);
    run x = replay(path, LIST("workload.replay=timed"));
    unlink(path);
    cr_assert_eq(x.rc, 0, "%s", x.err);
    cr_assert_eq(x.st.completed[SSDLAB_TRIM], 1);
    cr_assert_eq(x.st.completed[SSDLAB_READ], 2);
    cr_assert_eq(x.st.flash_reads, 1, "the trimmed unit reads as zeros, the other from flash");
}

/* --- bounds ------------------------------------------------------------------ */

#define RSRCH SAMPLES "msr_rsrch_1.csv" /* 13,780 records over 6.7 days */

/* Records of msr_rsrch_1 recorded before t (from its first record). */
static uint64_t records_before(sim_time_t t)
{
    char err[256];
    trace_options o = {0};
    trace_reader *r = trace_open(RSRCH, &o, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    trace_record rec;
    uint64_t n = 0;
    while (trace_next(r, &rec) > 0) n += rec.time < t;
    trace_close(r);
    return n;
}

/* workload.requests ends a replay, timed or as fast as possible, at
 * exactly that many requests (it replayed every record before). */
Test(replay, requests_bound_a_replay)
{
    for (int timed = 0; timed < 2; timed++) {
        run x = replay(RSRCH, LIST(timed ? "workload.replay=timed" : "workload.replay=afap", "workload.lba_map=wrap",
                                   "workload.requests=1000"));
        cr_assert_eq(x.rc, 0, "%s", x.err);
        cr_assert_eq(x.r.requests, 1000);
        cr_assert_eq(x.st.completed[SSDLAB_READ] + x.st.completed[SSDLAB_WRITE], 1000);
    }
}

/* workload.duration: a timed replay lasts the duration and serves the
 * records recorded in it; with workload.start_time it begins later in the
 * trace, its first record arriving at once. */
Test(replay, duration_and_start_time_cut_a_timed_replay)
{
    sim_time_t h = (sim_time_t)3600 * 1000000000;
    run x = replay(RSRCH, LIST("workload.lba_map=wrap", "workload.duration=48h"));
    cr_assert_eq(x.rc, 0, "%s", x.err);
    cr_assert_float_eq(x.r.seconds, 48 * 3600.0, 1e-6);
    cr_assert_eq(x.r.requests, records_before(48 * h));
    run y = replay(RSRCH, LIST("workload.lba_map=wrap", "workload.start_time=72h", "workload.duration=24h"));
    cr_assert_eq(y.rc, 0, "%s", y.err);
    cr_assert_eq(y.r.requests, records_before(96 * h) - records_before(72 * h));
}

/* workload.bytes stops issuing once the bytes are spoken for: the phase
 * moves at least that many and less than one more request's worth;
 * workload.drive_writes likewise, in written bytes (1 % of 600 MB). */
Test(replay, bytes_and_drive_writes_bound_a_replay)
{
    run x = replay(RSRCH, LIST("workload.replay=afap", "workload.lba_map=wrap", "workload.bytes=10MiB"));
    cr_assert_eq(x.rc, 0, "%s", x.err);
    uint64_t moved = x.st.bytes[SSDLAB_READ] + x.st.bytes[SSDLAB_WRITE];
    cr_assert(moved >= 10 << 20 && moved < (10 << 20) + 32 * (1 << 20), "%llu bytes", (unsigned long long)moved);
    run y = replay(RSRCH, LIST("workload.replay=afap", "workload.lba_map=wrap", "workload.drive_writes=0.01"));
    cr_assert_eq(y.rc, 0, "%s", y.err);
    cr_assert_geq(y.st.bytes[SSDLAB_WRITE], 5999984);
    /* spoken for at issue, as bytes are: the 32 records in flight do not
     * overshoot it (they did by 254,608 bytes) */
    cr_assert_lt(y.st.bytes[SSDLAB_WRITE], 5999984 + 131072, "%llu", (unsigned long long)y.st.bytes[SSDLAB_WRITE]);
    cr_assert_lt(y.r.requests, 13780);
}

/* workload.warmup: the first records run unmeasured; then requests count. */
Test(replay, warmup_runs_unmeasured)
{
    run x = replay(RSRCH, LIST("workload.replay=afap", "workload.lba_map=wrap", "workload.warmup=500", "workload.requests=1000"));
    cr_assert_eq(x.rc, 0, "%s", x.err);
    cr_assert_eq(x.r.requests, 1000);
    cr_assert_eq(x.st.completed[SSDLAB_READ] + x.st.completed[SSDLAB_WRITE], 1000, "the statistics restart after the warm-up");
}

/* workload.start_record skips the first records; workload.loop goes round
 * again until a bound stops it, past the trace's own length. */
Test(replay, start_record_and_loop)
{
    run x = replay(RSRCH, LIST("workload.replay=afap", "workload.lba_map=wrap", "workload.start_record=13000"));
    cr_assert_eq(x.rc, 0, "%s", x.err);
    cr_assert_eq(x.r.requests, 780);
    run y = replay(RSRCH, LIST("workload.replay=afap", "workload.lba_map=wrap", "workload.loop=true", "workload.requests=30000"));
    cr_assert_eq(y.rc, 0, "%s", y.err);
    cr_assert_eq(y.r.requests, 30000);
    /* a loop that nothing stops, and trace keys on a synthetic phase, are refused */
    run z = replay(RSRCH, LIST("workload.loop=true"));
    cr_assert_eq(z.rc, -2);
    cr_assert(strstr(z.err, "key 'workload.loop' is true but nothing would stop the replay"), "%s", z.err);
    run u = replay(RSRCH, LIST("workload.source=synthetic", "workload.start_record=5", "workload.requests=10"));
    cr_assert_eq(u.rc, -2);
    cr_assert(strstr(u.err, "key 'workload.start_record' (--set) applies to trace replays only"), "%s", u.err);
    /* and the generator's keys on a trace replay, which its records would override unseen */
    run g = replay(RSRCH, LIST("workload.lba_map=wrap", "workload.read_share=50%"));
    cr_assert_eq(g.rc, -2);
    cr_assert(strstr(g.err, "key 'workload.read_share' (--set) shapes synthetic requests"), "%s", g.err);
}

/* --- devices ------------------------------------------------------------------ */

/* Two disks of an MSR trace, each writing 4 KiB at 400 MB. */
static const char *two_disks(char *path)
{
    strcpy(path, "/tmp/ssdlab-devices-XXXXXX");
    FILE *f = new_trace(path);
    fputs("10000,h,0,Write,400000000,4096,1\n20000,h,1,Write,400000000,4096,1\n", f);
    fclose(f);
    return path;
}

/* A trace of several devices says how they share the drive: unasked it is
 * refused, naming them; overlay puts both at 400 MB; concat puts disk 1
 * after disk 0's 382 MiB extent, at 382 MiB + 400 MB, past the 600 MB
 * drive; separate gives each half the drive (286 MiB), which 400 MB
 * passes; one device picked needs no layout. */
Test(replay, devices_need_a_layout)
{
    char path[64];
    two_disks(path);
    run none = replay(path, LIST("workload.replay=afap"));
    cr_assert_eq(none.rc, -2);
    cr_assert(strstr(none.err, "holds 2 devices (0: 1 requests, 1: 1 requests); expected 'workload.devices' (those to replay) or "
                               "'workload.device_layout': overlay, concat or separate"), "%s", none.err);
    run overlay = replay(path, LIST("workload.replay=afap", "workload.device_layout=overlay"));
    cr_assert_eq(overlay.rc, 0, "%s", overlay.err);
    cr_assert_eq(overlay.r.requests, 2);
    run concat = replay(path, LIST("workload.replay=afap", "workload.device_layout=concat"));
    cr_assert_eq(concat.rc, -1);
    char want[200];
    snprintf(want, sizeof want, "offset %llu + 4096 bytes lies past the drive's 599998464 bytes",
             (unsigned long long)(382ull * 1048576 + 400000000));
    cr_assert(strstr(concat.err, want), "%s", concat.err);
    run separate = replay(path, LIST("workload.replay=afap", "workload.device_layout=separate"));
    cr_assert_eq(separate.rc, -1);
    cr_assert(strstr(separate.err, "offset 400000000 + 4096 bytes lies past the device's partition's 299892736 bytes"), "%s",
              separate.err);
    run wrapped = replay(path, LIST("workload.replay=afap", "workload.device_layout=separate", "workload.lba_map=wrap"));
    cr_assert_eq(wrapped.rc, 0, "%s", wrapped.err);
    cr_assert_eq(wrapped.r.remapped, 2);
    run one = replay(path, LIST("workload.replay=afap", "workload.devices=1"));
    cr_assert_eq(one.rc, 0, "%s", one.err);
    cr_assert_eq(one.r.requests, 1);
    unlink(path);
}

/* lba_map=scale moves whole aligned extents: 4 KiB writes aligned in a
 * 28 GB trace stay aligned on a 600 MB drive, so none needs a
 * read-modify-write (moving offsets by the bare ratio misaligned nearly
 * all of them); 512 B requests inside one unit keep their order and
 * distance. */
Test(replay, scale_keeps_alignment)
{
    char path[] = "/tmp/ssdlab-scale-XXXXXX";
    FILE *f = new_trace(path);
    for (int i = 0; i < 1000; i++) fprintf(f, "%d,h,0,Write,%llu,4096,1\n", 10000 + i, (unsigned long long)i * 7 * 4096 * 1000);
    fclose(f);
    run x = replay(path, LIST("workload.replay=afap", "workload.lba_map=scale", "workload.precondition=fill"));
    unlink(path);
    cr_assert_eq(x.rc, 0, "%s", x.err);
    cr_assert_eq(x.r.remapped, 1000);
    cr_assert_eq(x.st.wa_rmw, 0, "read-modify-write %.3f: the writes lost their alignment", x.st.wa_rmw);
}

/* lba_map=compact: the 369 pages msr_wdev_1 touches (addresses 2.7 to 54.6
 * GB) land on the drive's first 369 pages, in order; a footprint larger
 * than the drive is refused. */
Test(replay, compact_packs_the_footprint_from_zero)
{
    run x = replay(SAMPLES "msr_wdev_1.csv", LIST("workload.replay=afap", "workload.lba_map=compact"));
    cr_assert_eq(x.rc, 0, "%s", x.err);
    cr_assert_eq(x.r.remapped, 1055);
    cr_assert_eq(x.mapped, 369);
    cr_assert_eq(x.highest, 368);
    run big = replay(RSRCH, LIST("workload.replay=afap", "workload.lba_map=compact", "drive.user_capacity=100MB",
                                 "nand.blocks_per_plane=16"));
    cr_assert_eq(big.rc, -2);
    cr_assert(strstr(big.err, "the trace touches 28775 pages of 4 KiB, more than the drive's"), "%s", big.err);
}

/* lba_map=compact on several devices: the pages of the devices replayed,
 * as one address space (overlay; disk 1's first page is disk 0's), packed
 * from 0: four pages for all three disks, three for disks 0 and 1 (marked
 * in the pass that lays the devices out), one for disk 2 alone (a pass of
 * its own). Devices laid side by side are refused before any pass. */
Test(replay, compact_packs_the_devices_replayed)
{
    char path[] = "/tmp/ssdlab-compact-XXXXXX";
    FILE *f = new_trace(path);
    fputs("10000,h,0,Write,409600000,8192,1\n20000,h,1,Write,409600000,4096,1\n"
          "30000,h,1,Write,1073741824,4096,1\n40000,h,2,Write,2147483648,4096,1\n", f);
    fclose(f);
    const char *cases[][2] = {{"workload.devices=0,1,2", "4"}, {"workload.devices=0,1", "3"}, {"workload.devices=2", "1"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run x = replay(path, LIST("workload.replay=afap", "workload.lba_map=compact", "workload.device_layout=overlay",
                                  cases[i][0]));
        cr_assert_eq(x.rc, 0, "%s: %s", cases[i][0], x.err);
        cr_assert_eq(x.mapped, strtoull(cases[i][1], NULL, 10), "%s: %llu pages", cases[i][0], (unsigned long long)x.mapped);
        cr_assert_eq(x.highest, x.mapped - 1, "%s", cases[i][0]);
    }
    run side = replay(path, LIST("workload.replay=afap", "workload.lba_map=compact", "workload.device_layout=concat"));
    unlink(path);
    cr_assert_eq(side.rc, -2);
    cr_assert(strstr(side.err, "key 'workload.lba_map' is compact, which maps one address space; expected "
                               "'workload.device_layout' overlay, or one device"), "%s", side.err);
}

/* --- progress ----------------------------------------------------------------- */

typedef struct probe {
    workload *w;
    double seen;
} probe;

static void look(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)obj, (void)arg;
    probe *pr = ctx;
    pr->seen = workload_progress(pr->w);
}

/* A timed replay's progress is its simulated time over the trace's span
 * (rsrch_1: 576,557.6 s): half-way it reads 0.5; at the end, 1. */
Test(replay, progress_of_a_timed_replay)
{
    cfg *c = cfg_create(ssdlab_schema());
    const char *sets[] = {"controller.channels=2", "controller.dies_per_channel=2", "nand.blocks_per_plane=64",
                          "nand.pages_per_block=96", "drive.user_capacity=600MB", "workload.source=trace",
                          "workload.precondition=none", "workload.lba_map=wrap", "workload.trace=" RSRCH};
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) cfg_set_override(c, sets[i]);
    sim_options o = sim_options_from_config(c);
    sim *s = sim_create(&o);
    char err[600];
    ssd *d = ssd_create(s, c, err, sizeof err);
    cr_assert_not_null(d, "%s", err);
    probe pr = {workload_create(s, d, c, err, sizeof err), -1};
    cr_assert_not_null(pr.w, "%s", err);
    double span = 576557.644379;
    sim_schedule_at(s, sim_time_from_sec(span / 2), sim_register_handler(s, "test.look", look, &pr), NULL, 0);
    workload_result r;
    cr_assert_eq(workload_run(pr.w, &r, err, sizeof err), 0, "%s", err);
    cr_assert_float_eq(pr.seen, 0.5, 1e-6, "half-way: %.6f", pr.seen);
    cr_assert_float_eq(workload_progress(pr.w), 1, 1e-12);
    workload_free(pr.w);
    ssd_free(d);
    sim_free(s);
    cfg_free(c);
}

/* --- reading ahead --------------------------------------------------------------- */

/* Records are read a batch ahead (trace_feed.h), yet what a replay reports
 * counts only the records it took. Disk 1's records alternate with disk
 * 0's, all past the 600 MB drive: ten of disk 0's taken pass over nine of
 * disk 1's and move ten addresses, where the batch read sixteen of disk
 * 0's and fifteen of disk 1's. Replayed whole, every record counts. */
Test(replay, read_ahead_counts_only_what_is_taken)
{
    char path[] = "/tmp/ssdlab-ahead-XXXXXX";
    FILE *f = new_trace(path);
    for (int i = 0; i < 100; i++)
        fprintf(f, "%d,h,%d,Write,%d,4096,1\n", 10000 * (i + 1), i % 2, 700000000 + 4096 * i);
    fclose(f);
    run ten = replay(path, LIST("workload.replay=afap", "workload.devices=0", "workload.lba_map=wrap", "workload.requests=10"));
    run all = replay(path, LIST("workload.replay=afap", "workload.devices=0", "workload.lba_map=wrap"));
    unlink(path);
    cr_assert_eq(ten.rc, 0, "%s", ten.err);
    cr_assert_eq(ten.r.requests, 10);
    cr_assert_eq(ten.r.skipped, 9);
    cr_assert_eq(ten.r.remapped, 10);
    cr_assert_eq(all.rc, 0, "%s", all.err);
    cr_assert_eq(all.r.requests, 50);
    cr_assert_eq(all.r.skipped, 50, "the last record, of disk 1, is passed over after disk 0's last");
    cr_assert_eq(all.r.remapped, 50);
}

/* A bad record read ahead stops the replay only if it is reached: ten
 * requests end the run before the record past the drive, its 13th, which
 * the first batch read. */
Test(replay, a_bad_record_read_ahead_counts_once_reached)
{
    char path[] = "/tmp/ssdlab-ahead-XXXXXX";
    FILE *f = new_trace(path);
    for (int i = 0; i < 50; i++) fprintf(f, "%d,h,0,Write,%d,4096,1\n", 10000 * (i + 1), i == 12 ? 900000000 : 4096 * i);
    fclose(f);
    run ten = replay(path, LIST("workload.replay=afap", "workload.requests=10"));
    run all = replay(path, LIST("workload.replay=afap"));
    unlink(path);
    cr_assert_eq(ten.rc, 0, "%s", ten.err);
    cr_assert_eq(ten.r.requests, 10);
    cr_assert_eq(all.rc, -1);
    char want[300];
    snprintf(want, sizeof want, "%s:13: offset 900000000 + 4096 bytes lies past the drive's 599998464 bytes", path);
    cr_assert(strstr(all.err, want), "%s", all.err);
    cr_assert_eq(all.st.completed[SSDLAB_WRITE], 12, "every record before the bad one was replayed");
}

/* Where warming pays, the drive loads the mapping entries of each batch
 * read ahead; it changes no result. */
Test(replay, warming_changes_no_result)
{
    const char *const base[] = {"workload.replay=afap", "workload.lba_map=wrap", "workload.requests=5000", NULL};
    const char *const on[] = {"workload.replay=afap", "workload.lba_map=wrap", "workload.requests=5000", "sim.warm_tables=on", NULL};
    const char *const off[] = {"workload.replay=afap", "workload.lba_map=wrap", "workload.requests=5000", "sim.warm_tables=off", NULL};
    run a = replay(RSRCH, on), b = replay(RSRCH, off), c = replay(RSRCH, base);
    cr_assert_eq(a.rc, 0, "%s", a.err);
    cr_assert_eq(b.rc, 0, "%s", b.err);
    cr_assert_geq(a.warmed, 5000, "each record taken was warmed first");
    /* a batch's writes have their old places loaded before the first of
     * them is taken; at most a batch read ahead is not taken */
    uint64_t writes = a.st.completed[SSDLAB_WRITE];
    cr_assert(writes > 0 && a.overwrites >= writes && a.overwrites <= writes + TRACE_FEED_AHEAD,
              "%llu writes, %llu old places loaded",
              (unsigned long long)writes, (unsigned long long)a.overwrites);
    cr_assert_eq(b.warmed, 0);
    cr_assert_eq(b.overwrites, 0);
    cr_assert_eq(c.warmed, 0, "a 600 MB drive's table is too small for warming to pay");
    cr_assert_eq(memcmp(&a.st, &b.st, sizeof a.st), 0, "the statistics differ");
    cr_assert_eq(a.r.requests, b.r.requests);
    cr_assert_float_eq(a.r.seconds, b.r.seconds, 0);
}

static void remove_trace(const char *trace) { cr_assert_eq(unlink(trace), 0); }

/* A loop opens the trace again for its next pass: a trace gone by then is
 * an error naming it (the replay read freed memory there before). */
Test(replay, a_loop_whose_trace_is_gone_fails)
{
    char path[] = "/tmp/ssdlab-loop-XXXXXX";
    FILE *f = new_trace(path);
    for (int i = 0; i < 20; i++) fprintf(f, "%d,h,0,Write,%d,4096,1\n", 10000 * (i + 1), 4096 * i);
    fclose(f);
    run x = replay_with(path, LIST("workload.replay=afap", "workload.loop=true", "workload.requests=100"), remove_trace);
    cr_assert_eq(x.rc, -1);
    cr_assert(strstr(x.err, path), "%s", x.err);
    cr_assert_eq(x.st.completed[SSDLAB_WRITE], 20, "the first pass was replayed whole");
}
