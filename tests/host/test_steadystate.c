/* Steady state by SNIA PTS's rule (steadystate.c), and the warm-up that
 * runs to it (workload.warmup_until=steady). */
#include <criterion/criterion.h>
#include <math.h>

#include "drive_rig.h"
#include "steadystate.h"
#include "workload.h"

Test(steadystate, five_equal_rounds_are_steady_and_four_are_too_few)
{
    const double y[] = {4, 4, 4, 4, 4};
    cr_assert(steady_by_snia(y, 5));
    cr_assert_not(steady_by_snia(y, 4));
}

/* Range 0.9 against a mean of 3.98: 22.6 %, over the 20 % allowed; the
 * best-fit line's slope is small (0.18 over the window). */
Test(steadystate, a_range_over_a_fifth_of_the_mean_is_not_steady)
{
    const double y[] = {3.5, 4.0, 4.0, 4.0, 4.4};
    cr_assert_not(steady_by_snia(y, 5));
}

/* A steady climb of 0.15 per round: range 0.6, 15 % of the mean 4.0 (within
 * 20 %), but the best-fit line rises 0.6 over the window, 15 % (over 10 %). */
Test(steadystate, a_climb_within_the_range_is_not_steady)
{
    const double y[] = {3.7, 3.85, 4.0, 4.15, 4.3};
    cr_assert_not(steady_by_snia(y, 5));
    const double flat[] = {3.8, 4.0, 3.9, 4.0, 4.1}; /* slope 0.06: 0.24 over the window, 6 % */
    cr_assert(steady_by_snia(flat, 5));
}

/* The rule looks at the last five rounds only: a first round spent on
 * free blocks (WA 1.2) delays it by one round. */
Test(steadystate, rounds_end_when_the_last_five_are_steady)
{
    steady_rounds sr;
    steady_init(&sr, 1000, 40);
    const double wa[] = {1.2, 3.8, 4.0, 3.9, 4.0, 4.1};
    for (int i = 0; i < 5; i++) cr_assert_not(steady_round_done(&sr, wa[i]), "round %d", i + 1);
    cr_assert(steady_round_done(&sr, wa[5]));
    cr_assert(sr.steady);
    cr_assert_eq(sr.rounds, 6);
    cr_assert_float_eq(sr.wa[0], 3.8, 1e-12);
    cr_assert_float_eq(sr.wa[4], 4.1, 1e-12);
}

Test(steadystate, rounds_end_at_the_most_allowed_without_being_steady)
{
    steady_rounds sr;
    steady_init(&sr, 1000, 7);
    for (int i = 0; i < 6; i++) cr_assert_not(steady_round_done(&sr, 1.0 + i));
    cr_assert(steady_round_done(&sr, 7.0));
    cr_assert_not(sr.steady);
    cr_assert_not(steady_add(&sr, 999));
    cr_assert(steady_add(&sr, 1));
}

/* --- the warm-up on a drive -------------------------------------------------- */

/* A small drive (16 dies of 96 blocks, 18 GiB of flash, 15 GB user) filled and overwritten
 * once by the fast path, then 4 KiB random writes at QD 32 with GC from
 * the first write (no idle collection). */
static const char *const small_drive[] = {
    "controller.channels=4", "controller.dies_per_channel=4", "nand.blocks_per_plane=48", "nand.planes_per_die=2",
    "nand.pages_per_block=768", "nand.page_size=16KiB", "drive.user_capacity=15GB", "workload.pattern=random",
    "workload.read_share=0", "workload.block_size=4KiB", "workload.queue_depth=32", "workload.precondition=steady",
    "workload.steady_overwrites=1", "ftl.gc.background_threshold=0", "host.interface=nvme", "host.link_rate=8Gb/s",
    "host.lanes=4", "controller.write_buffer=64MiB", "controller.cores=4", "controller.fw_write=2us", NULL};

static double run_writes(const char *const *more, workload_result *r)
{
    drive_rig g;
    drive_rig_open(&g, small_drive, more);
    char err[512];
    workload *w = workload_create(g.s, g.d, g.c, err, sizeof err);
    cr_assert_not_null(w, "%s", err);
    workload_precondition(w);
    cr_assert_eq(workload_run(w, r, err, sizeof err), 0, "%s", err);
    ssdlab_stats st;
    ssd_stats(g.d, &st);
    cr_assert_eq(st.completed[SSDLAB_WRITE], r->requests);
    workload_free(w);
    drive_rig_close(&g);
    return st.write_amplification;
}

/* The first writes after the preconditioning spend the free blocks GC's
 * threshold kept and run far below the steady write amplification; after
 * the warm-up, the measured writes run at what its last rounds ran at. */
Test(steadystate, warmup_to_steady_measures_the_steady_write_amplification)
{
    workload_result cold, warm;
    const char *const first[] = {"workload.requests=400000", NULL};
    const char *const steady[] = {"workload.requests=400000", "workload.warmup_until=steady", NULL};
    double wa_cold = run_writes(first, &cold), wa_warm = run_writes(steady, &warm);
    cr_assert_eq(warm.requests, 400000);
    cr_assert(warm.warmup_steady);
    cr_assert_geq(warm.warmup_rounds, 5);
    cr_assert_eq(warm.warmup_round_bytes, 4ULL * 16 * 768 * 16384 * 2, "four blocks (two planes' pages) per die");
    double mean = 0;
    for (int i = 0; i < STEADY_WINDOW; i++) mean += warm.warmup_wa[i] / STEADY_WINDOW;
    cr_assert(fabs(wa_warm - mean) < 0.05 * mean, "measured %.3f, last rounds' mean %.3f (%u rounds: %.3f %.3f %.3f %.3f %.3f)", wa_warm, mean, warm.warmup_rounds, warm.warmup_wa[0], warm.warmup_wa[1], warm.warmup_wa[2], warm.warmup_wa[3], warm.warmup_wa[4]);
    cr_assert(wa_cold < 0.8 * wa_warm, "first writes %.3f, steady %.3f", wa_cold, wa_warm);
    cr_assert_eq(cold.warmup_rounds, 0);
}

Test(steadystate, warmup_to_steady_is_refused_without_writes_or_with_a_count)
{
    const char *const reads[] = {"workload.warmup_until=steady", "workload.read_share=1", NULL};
    const char *const both[] = {"workload.warmup_until=steady", "workload.warmup=1000", NULL};
    const char *const *bad[] = {reads, both};
    const char *want[] = {"the phase writes nothing", "both end the warm-up"};
    for (int i = 0; i < 2; i++) {
        drive_rig g;
        drive_rig_open(&g, small_drive, bad[i]);
        char err[512] = "";
        cr_assert_null(workload_create(g.s, g.d, g.c, err, sizeof err));
        cr_assert(strstr(err, want[i]), "%s", err);
        drive_rig_close(&g);
    }
}
