/* Trace replay on a drive: as fast as possible and timed, time scaling,
 * device selection, mapping onto the capacity, and bad records. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim_config.h"
#include "ssd.h"
#include "workload.h"

#define SAMPLES SOURCE_DIR "/tests/data/traces/"

typedef struct run {
    workload_result r;
    ssdlab_stats st;
    int rc;
    char err[600];
} run;

static run replay(const char *trace, const char *const *sets)
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
    cr_assert_not_null(w, "%s", out.err);
    out.rc = workload_run(w, &out.r, out.err, sizeof out.err);
    ssd_stats(d, &out.st);
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(d), err, sizeof err), 0, "%s", err);
    workload_free(w);
    ssd_free(d);
    sim_free(s);
    cfg_free(c);
    return out;
}

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

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
    run all = replay(SAMPLES "disksim_wsrch-small.trace",
                     LIST("workload.replay=afap", "workload.trace_time_unit=1ns", "workload.lba_map=wrap"));
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
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
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
