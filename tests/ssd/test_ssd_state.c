/* The timed model's state: integrity under mixed traffic with GC, and the
 * preconditioning fast path against fully simulated preconditioning. */
#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

#include "request_loop.h"
#include "ssdlab.h"

/* 4 dies x 48 blocks of 768 units (3 MiB): 576 MiB of flash, 480 MB user. */
static const char *const small[] = {
    "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2", "nand.pages_per_block=96",
    "nand.blocks_per_plane=48", "drive.user_capacity=480MB", "controller.write_buffer=2MiB", "host.max_queue_depth=64"};
enum { NSMALL = sizeof small / sizeof small[0] };

typedef request_loop driver;

static void open_small(driver *v, const char *const *extra, int nextra)
{
    memset(v, 0, sizeof *v);
    v->c = cfg_create(ssdlab_schema());
    for (int i = 0; i < NSMALL; i++) cfg_set_override(v->c, small[i]);
    for (int i = 0; i < nextra; i++) cfg_set_override(v->c, extra[i]);
    cr_assert_eq(cfg_error_count(v->c), 0, "%s", cfg_errors(v->c));
    sim_options o = sim_options_from_config(v->c);
    v->s = sim_create(&o);
    char err[512];
    v->d = ssd_create(v->s, v->c, err, sizeof err);
    cr_assert_not_null(v->d, "%s", err);
    v->units = ssd_params_of(v->d)->logical_units;
    v->rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(v->rng, 99);
}

static void close_small(driver *v)
{
    gsl_rng_free(v->rng);
    ssd_free(v->d);
    sim_free(v->s);
    cfg_free(v->c);
}

static void check(driver *v)
{
    char err[512];
    cr_assert_eq(ftl_check(ssd_ftl(v->d), err, sizeof err), 0, "%s", err);
}

Test(state, integrity_under_timed_writes_trims_reads_and_gc)
{
    driver v;
    open_small(&v, NULL, 0);
    cr_assert_eq(ftl_enable_versions(ssd_ftl(v.d)), 0);
    v.sequential = true;
    request_loop_run(&v, v.units, 8); /* fill */
    check(&v);
    v.sequential = false;
    v.trim_share = 0.05;
    v.read_share = 0.2;
    for (int round = 0; round < 4; round++) {
        request_loop_run(&v, v.units / 2, 16);
        check(&v);
    }
    ssdlab_stats st;
    ssd_stats(v.d, &st);
    cr_assert_gt(st.erases, 50, "GC must have run (erases %llu)", (unsigned long long)st.erases);
    /* the erase-count distribution covers every block and agrees with the summary */
    uint64_t hist[64], blocks = 0, erases = 0;
    ssd_erase_histogram(v.d, hist, 64);
    for (int i = 0; i < 64; i++) {
        blocks += hist[i];
        erases += hist[i] * (uint64_t)i;
    }
    double lo, mean, hi;
    ssd_erase_counts(v.d, &lo, &mean, &hi);
    cr_assert_eq(blocks, 4 * 48);
    cr_assert_lt(hi, 63, "no block in the open-ended last bucket");
    cr_assert_float_eq((double)erases / (double)blocks, mean, 1e-9);
    cr_assert_eq(erases, ssd_ftl(v.d)->erases);
    close_small(&v);
}

/* A sequential fill through the timed model and the fast path give the
 * same mapping. */
Test(state, fast_fill_equals_simulated_fill)
{
    driver a, b;
    open_small(&a, NULL, 0);
    open_small(&b, NULL, 0);
    a.sequential = true;
    request_loop_run(&a, a.units, 1);
    ssd_precondition(b.d, 0, b.rng);
    ftl *fa = ssd_ftl(a.d), *fb = ssd_ftl(b.d);
    for (uint64_t lpn = 0; lpn < a.units; lpn++)
        cr_assert_eq(ftl_lookup(fa, (uint32_t)lpn), ftl_lookup(fb, (uint32_t)lpn), "unit %llu: simulated %u, fast %u",
                     (unsigned long long)lpn, ftl_lookup(fa, (uint32_t)lpn), ftl_lookup(fb, (uint32_t)lpn));
    close_small(&a);
    close_small(&b);
}

/* Valid units per closed block after random overwrites: the fast path and
 * the simulation agree in mean and spread (same seed-independent law). */
static void valid_distribution(ftl *f, double *mean, double *sd)
{
    size_t nblocks = (size_t)f->p->dies * f->p->blocks_per_die, n = 0;
    double *v = malloc(nblocks * sizeof *v);
    for (size_t b = 0; b < nblocks; b++)
        if (f->blocks[b].state == BLOCK_CLOSED) v[n++] = f->blocks[b].valid;
    *mean = gsl_stats_mean(v, 1, n);
    *sd = gsl_stats_sd(v, 1, n);
    free(v);
}

/* Two drives of many blocks per die, so that the few blocks each path
 * holds free (the fast path exactly threshold + 1, the timed one fewer
 * while GC lags) weigh little: 2 dies x 256 blocks x 3 MiB, 13 % spare.
 * The first is filled, then overwritten at random `times` the capacity,
 * through the timed model. */
static void open_random_pair(driver *a, driver *b, uint64_t times)
{
    const char *sets[] = {"controller.channels=1", "nand.blocks_per_plane=256", "drive.user_capacity=1400MB",
                          "ftl.gc.threshold=2"};
    open_small(a, sets, 4);
    open_small(b, sets, 4);
    a->sequential = true;
    request_loop_run(a, a->units, 8);
    a->sequential = false;
    request_loop_run(a, times * a->units, 16);
}

Test(state, fast_random_overwrite_matches_simulated_distribution)
{
    driver a, b;
    open_random_pair(&a, &b, 2);
    ssd_precondition(b.d, 2 * b.units, b.rng);
    double ma, sa, mb, sb;
    valid_distribution(ssd_ftl(a.d), &ma, &sa);
    valid_distribution(ssd_ftl(b.d), &mb, &sb);
    cr_assert_lt(fabs(ma / mb - 1), 0.03, "mean valid units per block: simulated %.1f, fast %.1f", ma, mb);
    cr_assert_lt(fabs(sa / sb - 1), 0.15, "spread: simulated %.1f, fast %.1f", sa, sb);
    check(&a);
    check(&b);
    close_small(&a);
    close_small(&b);
}

/* The public API: open a drive file, submit, run, read statistics. */
static void count_done(ssdlab_request *r, void *ctx)
{
    (void)r;
    ++*(int *)ctx;
}

Test(state, public_api_round_trip)
{
    char err[512];
    /* without the SLC cache, 64 KiB is less than a program unit (3 pages x 2
     * planes of 16 KiB) and stays in the write buffer */
    const char *sets[] = {"drive.user_capacity=100GB", "slc.cache=none"};
    ssdlab_drive *h = ssdlab_open(SOURCE_DIR "/models/drives/example-sata-480.yaml", sets, 2, err, sizeof err);
    cr_assert_not_null(h, "%s", err);
    cr_assert_eq(ssdlab_capacity(h), 100000000000ull / 4096 * 4096);
    int done = 0;
    ssdlab_request w = {.op = SSDLAB_WRITE, .offset = 1 << 20, .bytes = 65536};
    ssdlab_request r = {.op = SSDLAB_READ, .offset = 1 << 20, .bytes = 4096};
    ssdlab_request bad = {.op = SSDLAB_READ, .offset = ssdlab_capacity(h), .bytes = 4096};
    cr_assert_eq(ssdlab_submit(h, &w, count_done, &done), 0);
    cr_assert_eq(ssdlab_submit(h, &bad, count_done, &done), -1, "a request past the end is refused");
    ssdlab_run_until_idle(h);
    cr_assert_eq(ssdlab_submit(h, &r, count_done, &done), 0);
    ssdlab_run_until_idle(h);
    cr_assert_eq(done, 2);
    cr_assert_gt(r.finish, r.arrival);
    ssdlab_stats st;
    ssdlab_stats_get(h, &st);
    cr_assert_eq(st.completed[SSDLAB_WRITE], 1);
    cr_assert_eq(st.host_units_written, 16);
    cr_assert_eq(st.flash_reads, 0, "data still in the write buffer is read from the buffer");
    ssdlab_close(h);
    cr_assert_null(ssdlab_open(SOURCE_DIR "/models/drives/example-sata-480.yaml", (const char *[]){"drive.user_capacity=2TB"},
                               1, err, sizeof err));
    cr_assert(strstr(err, "too little spare area"), "%s", err);
}

/* Translation units live in blocks of their own and move with GC like
 * data, DRAM-less or written back from a DRAM table past its dirty limit;
 * the checker follows them too. Returns the run's counts. */
static ssdlab_stats translation_units_hold_under_gc(const char *const *sets, int nsets)
{
    driver v;
    open_small(&v, sets, nsets);
    cr_assert_eq(ftl_enable_versions(ssd_ftl(v.d)), 0);
    ssd_precondition(v.d, 0, v.rng);
    check(&v);
    ftl *f = ssd_ftl(v.d);
    for (uint32_t tu = 0; tu < f->map_units; tu++) cr_assert_neq(f->map_loc[tu], FTL_NONE, "unit %u placed", tu);
    v.trim_share = 0.05;
    v.read_share = 0.2;
    for (int round = 0; round < 3; round++) {
        request_loop_run(&v, v.units / 2, 16);
        check(&v);
    }
    ssdlab_stats st;
    ssd_stats(v.d, &st);
    cr_assert_gt(st.erases, 20);
    cr_assert_gt(st.map_writebacks, 1000);
    close_small(&v);
    return st;
}

Test(state, integrity_with_translation_units_under_gc)
{
    const char *sets[] = {"ftl.mapping=cached", "ftl.map_cache=64KiB"};
    cr_assert_gt(translation_units_hold_under_gc(sets, 2).map_misses, 0);
}

/* A DRAM table's reads, trims and GC moves never wait for a mapping read. */
Test(state, integrity_with_a_dram_table_written_back_under_gc)
{
    const char *sets[] = {"ftl.mapping=dram", "ftl.map_dirty_limit=64KiB"};
    cr_assert_eq(translation_units_hold_under_gc(sets, 2).map_misses, 0);
}

/* GC in bursts (ftl.gc.burst): a die down to its threshold collects until it
 * has the burst's blocks more, taking no host writes meanwhile. The mapping
 * stays intact; since random writes bring the dies to their thresholds
 * together, host writes stop altogether for a while (rows of 50 ms with no
 * write done), far more often than when one block is collected at a time,
 * unless the burst lets a share of host writes through
 * (ftl.gc.burst_host_share). */
static size_t random_rewrite_stalls(const char *burst, const char *share, size_t *stalls_with_gc)
{
    driver v;
    const char *extra[] = {"drive.user_capacity=440MB", "metrics.interval=50ms", burst, share};
    open_small(&v, extra, 4);
    cr_assert_eq(ftl_enable_versions(ssd_ftl(v.d)), 0);
    v.sequential = true;
    request_loop_run(&v, v.units, 8);
    v.sequential = false;
    double start_s = (double)sim_now(v.s) * 1e-9;
    request_loop_run(&v, 2 * v.units, 16);
    check(&v);
    ssd_close_interval(v.d);
    size_t n, stalls = 0, last = 0;
    const ssd_interval *rows = ssd_intervals(v.d, &n);
    for (size_t i = 0; i < n; i++)
        if (rows[i].write_mib_per_s > 0) last = i;
    /* the random writes' rows, from the first after they began to the last
     * with a write (idle time after them has none) */
    size_t i = 0;
    while (i < n && rows[i].end_s - 0.05 < start_s) i++;
    cr_assert_gt(last - i, 100);
    *stalls_with_gc = 0;
    for (; i < last; i++)
        if (rows[i].write_mib_per_s == 0) {
            stalls++;
            *stalls_with_gc += rows[i].gc_units > 0;
        }
    close_small(&v);
    return stalls;
}

Test(state, gc_bursts_stall_host_writes_and_keep_the_mapping)
{
    size_t gc_smooth, gc_bursts, gc_trickle;
    size_t smooth = random_rewrite_stalls("ftl.gc.burst=0", "ftl.gc.burst_host_share=0", &gc_smooth),
           bursts = random_rewrite_stalls("ftl.gc.burst=4", "ftl.gc.burst_host_share=0", &gc_bursts),
           trickle = random_rewrite_stalls("ftl.gc.burst=4", "ftl.gc.burst_host_share=0.2", &gc_trickle);
    /* rows of random writes without a write: 5 when one block is
     * collected at a time (a die's whole victim moves before its erase),
     * 190 with bursts of 4 blocks, 13 when a burst lets host writes of a
     * fifth of what GC moves through */
    cr_assert_leq(smooth, 20, "one block at a time: %zu rows of 50 ms without a write", smooth);
    cr_assert_geq(bursts, 100, "bursts: %zu rows of 50 ms without a write", bursts);
    cr_assert_leq(trickle, 40, "bursts with a host share: %zu rows of 50 ms without a write", trickle);
    /* the rows of a burst close on time, and show the GC moving data (rows
     * closed only at the next completion would all show none but the last) */
    cr_assert_geq(gc_bursts * 10, bursts * 9, "%zu of %zu rows without a write show GC at work", gc_bursts, bursts);
}

/* A burst's quota of victims (ftl.gc.burst_victims): a die stops
 * collecting after that many victims, though short of the burst's free
 * blocks; without the quota, the die that started the burst at its
 * threshold needs at least `burst` victims (each frees one block at most).
 * On a full drive, whose victims are partly valid, the quota keeps fewer
 * blocks free on average. The mapping stays intact either way. */
typedef struct burst_probe {
    uint32_t most_victims; /* most victims one die collected in one burst */
    double mean_free;      /* free blocks per die, averaged over the samples */
} burst_probe;

static burst_probe random_rewrites_in_bursts(const char *quota)
{
    driver v;
    const char *extra[] = {"drive.user_capacity=440MB", "ftl.gc.burst=4", "ftl.gc.background_threshold=0", quota};
    open_small(&v, extra, 4);
    cr_assert_eq(ftl_enable_versions(ssd_ftl(v.d)), 0);
    v.sequential = true;
    request_loop_run(&v, v.units, 8);
    v.sequential = false;
    const ssd_params *p = ssd_params_of(v.d);
    ftl *f = ssd_ftl(v.d);
    burst_probe r = {0};
    double free_sum = 0;
    int samples = 0;
    /* a die's count stays at its burst's final value until the next burst */
    for (int round = 0; round < 80; round++) {
        request_loop_run(&v, v.units / 40, 16);
        if (round < 40) continue; /* the drive's first pass, before GC settles */
        for (uint32_t die = 0; die < p->dies; die++) {
            if (f->dies[die].burst_victims > r.most_victims) r.most_victims = f->dies[die].burst_victims;
            free_sum += ftl_free_blocks(f, die);
            samples++;
        }
    }
    check(&v);
    r.mean_free = free_sum / samples;
    close_small(&v);
    return r;
}

Test(state, gc_burst_quota_bounds_the_victims_of_a_burst)
{
    burst_probe capped = random_rewrites_in_bursts("ftl.gc.burst_victims=2"),
                uncapped = random_rewrites_in_bursts("ftl.gc.burst_victims=0");
    cr_assert_eq(capped.most_victims, 2, "quota 2: a die collected %u victims in one burst", capped.most_victims);
    cr_assert_geq(uncapped.most_victims, 4, "no quota, burst 4: at most %u victims in one burst", uncapped.most_victims);
    cr_assert_lt(capped.mean_free + 1, uncapped.mean_free, "free blocks per die: %.1f with the quota, %.1f without",
                 capped.mean_free, uncapped.mean_free);
}

/* --- the starting state ---------------------------------------------------- */

static uint32_t fewest_free_blocks(driver *v)
{
    uint32_t least = UINT32_MAX;
    for (uint32_t die = 0; die < ssd_params_of(v->d)->dies; die++) {
        uint32_t n = ftl_free_blocks(ssd_ftl(v->d), die);
        if (n < least) least = n;
    }
    return least;
}

/* Random 4 KiB writes at QD 16, at once or after one read (a command,
 * after which the drive falls idle) and an idle time; returns their IOPS.
 * (drive_requests runs until nothing is left: idle work included.) */
static double writes_after(driver *v, bool idle, uint32_t *free_before)
{
    ssd_reset_stats(v->d);
    if (idle) {
        v->read_share = 1;
        request_loop_run(v, 1, 1);
        sim_time_t until = sim_now(v->s) + SIM_SEC(600);
        sim_run(v->s, until);
        sim_advance_to(v->s, until);
    }
    *free_before = fewest_free_blocks(v);
    v->read_share = 0;
    sim_time_t start = sim_now(v->s);
    request_loop_run(v, v->units / 4, 16);
    return (double)(v->units / 4) / ((double)(sim_now(v->s) - start) * 1e-9);
}

/* Preconditioning ends where the firmware's idle work would leave the
 * drive (background GC up to ftl.gc.background_threshold free blocks per
 * die), so a run right after it matches one that idles 10 minutes first. */
Test(state, preconditioning_ends_where_idle_work_would_leave_the_drive)
{
    const char *sets[] = {"ftl.gc.background_threshold=8", "ftl.idle_time=100ms"};
    driver a, b;
    open_small(&a, sets, 2);
    open_small(&b, sets, 2);
    ssd_precondition(a.d, 2 * a.units, a.rng);
    ssd_precondition(b.d, 2 * b.units, b.rng);
    cr_assert_geq(fewest_free_blocks(&a), 8, "settled: every die at the background threshold (fewest %u)",
                  fewest_free_blocks(&a));
    uint32_t free_straight, free_idled;
    double straight = writes_after(&a, false, &free_straight), idled = writes_after(&b, true, &free_idled);
    cr_assert_eq(free_straight, free_idled, "free blocks: %u right after preconditioning, %u after 10 min idle", free_straight,
                 free_idled);
    cr_assert_lt(fabs(straight / idled - 1), 0.02, "random writes right after preconditioning %.0f IOPS, after 10 min idle %.0f",
                 straight, idled);
    check(&a);
    check(&b);
    close_small(&a);
    close_small(&b);
}

/* The wear path (ssd_wear) and the timed path, given the same writes:
 * sequential rewrites move nothing and wear every block alike (within an
 * erase: the timed path's GC runs a little later); random ones leave the
 * same law of valid units per block, and write amplification and wear
 * within 10 % (the timed path's GC lags, so it holds fewer free blocks
 * than the fast path's threshold + 1 and has more spare to work with). */
static void wear_units(driver *v, uint64_t n, bool sequential)
{
    uint32_t batch[4096];
    cr_assert_eq(ssd_wear_begin(v->d), 0);
    for (uint64_t done = 0; done < n;) {
        size_t k = 0;
        for (; k < 4096 && done + k < n; k++)
            batch[k] = (uint32_t)(sequential ? v->next_unit++ % v->units : gsl_rng_uniform_int(v->rng, v->units));
        cr_assert_eq(ssd_wear(v->d, batch, k), k);
        done += k;
    }
    ssd_wear_end(v->d);
}

Test(state, wear_path_equals_timed_path_for_sequential_rewrites)
{
    driver a, b;
    open_small(&a, NULL, 0);
    open_small(&b, NULL, 0);
    a.sequential = true;
    request_loop_run(&a, 4 * a.units, 1);
    ssd_precondition(b.d, 0, b.rng);
    uint64_t before = ssd_host_units_ever(b.d);
    wear_units(&b, 3 * b.units, true);
    cr_assert_eq(ssd_host_units_ever(b.d) - before, 3 * b.units);
    ftl *fa = ssd_ftl(a.d), *fb = ssd_ftl(b.d);
    /* whole blocks go invalid: GC moves nothing, and each pass erases what it filled */
    cr_assert_eq(fa->units_written[STREAM_GC], 0);
    cr_assert_eq(fb->units_written[STREAM_GC], 0);
    cr_assert_gt(fb->erases, 2 * 48);
    cr_assert_leq(llabs((long long)fa->erases - (long long)fb->erases), 4, "erases: timed %llu, wear path %llu",
                  (unsigned long long)fa->erases, (unsigned long long)fb->erases);
    for (uint32_t blk = 0; blk < 4 * 48; blk++)
        cr_assert_leq(abs((int)fa->blocks[blk].erase_count - (int)fb->blocks[blk].erase_count), 1, "block %u: timed %u, wear path %u",
                      blk, fa->blocks[blk].erase_count, fb->blocks[blk].erase_count);
    check(&a);
    check(&b);
    close_small(&a);
    close_small(&b);
}

Test(state, wear_path_random_writes_match_the_timed_path)
{
    driver a, b;
    open_random_pair(&a, &b, 3);
    ssd_precondition(b.d, 0, b.rng);
    wear_units(&b, 3 * b.units, false);
    double ma, sa, mb, sb;
    valid_distribution(ssd_ftl(a.d), &ma, &sa);
    valid_distribution(ssd_ftl(b.d), &mb, &sb);
    cr_assert_lt(fabs(ma / mb - 1), 0.03, "mean valid units per block: timed %.1f, wear path %.1f", ma, mb);
    cr_assert_lt(fabs(sa / sb - 1), 0.15, "spread: timed %.1f, wear path %.1f", sa, sb);
    ftl *fa = ssd_ftl(a.d), *fb = ssd_ftl(b.d);
    double wa_a = (double)fa->units_written[STREAM_GC] / (double)fa->units_written[STREAM_HOST];
    double wa_b = (double)fb->units_written[STREAM_GC] / (double)fb->units_written[STREAM_HOST];
    cr_assert_gt(wa_a, 0.5, "GC moved data: %.3f units per host unit", wa_a);
    cr_assert_lt(fabs(wa_a / wa_b - 1), 0.10, "GC units per host unit: timed %.3f, wear path %.3f", wa_a, wa_b);
    cr_assert_lt(fabs((double)fa->erases / (double)fb->erases - 1), 0.10, "erases: timed %llu, wear path %llu",
                 (unsigned long long)fa->erases, (unsigned long long)fb->erases);
    check(&a);
    check(&b);
    close_small(&a);
    close_small(&b);
}

/* The wear path keeps the mapping cache as the timed path does, for a
 * DRAM-less cache and for a DRAM table with a dirty limit alike: dirty
 * translation units pushed out per host unit agree within 20 % (the wear
 * path's GC keeps up at once, so it moves more: each move dirties a unit
 * too), and every one pushed out is written back, where the timed path
 * drops those whose die is down to its GC reserve at that moment. */
static void wear_path_writes_back_as_the_timed_path(const char *const *sets)
{
    driver a, b;
    open_small(&a, sets, 3);
    open_small(&b, sets, 3);
    ssd_precondition(a.d, 0, a.rng);
    ssd_precondition(b.d, 0, b.rng);
    ssd_reset_stats(a.d);
    ssd_reset_stats(b.d);
    request_loop_run(&a, 2 * a.units, 16);
    wear_units(&b, 2 * b.units, false);
    ssdlab_stats sa, sb;
    ssd_stats(a.d, &sa);
    ssd_stats(b.d, &sb);
    double per_a = (double)sa.map_writebacks / (double)sa.host_units_written;
    double per_b = (double)sb.map_writebacks / (double)sb.host_units_written;
    cr_assert_gt(per_a, 0.3, "%.3f", per_a);
    cr_assert_lt(fabs(per_a / per_b - 1), 0.20, "pushed out dirty per host unit: timed %.3f, wear path %.3f", per_a, per_b);
    cr_assert_eq(sb.map_units_written, sb.map_writebacks, "the wear path writes back every one");
    cr_assert_leq(sa.map_units_written, sa.map_writebacks);
    check(&a);
    check(&b);
    close_small(&a);
    close_small(&b);
}

Test(state, wear_path_writes_back_translation_units_as_the_timed_path)
{
    const char *cached[] = {"ftl.mapping=cached", "ftl.map_cache=256KiB", "drive.user_capacity=400MB"};
    wear_path_writes_back_as_the_timed_path(cached);
}

Test(state, wear_path_writes_back_a_dram_table_as_the_timed_path)
{
    const char *dram[] = {"ftl.mapping=dram", "ftl.map_dirty_limit=256KiB", "drive.user_capacity=400MB"};
    wear_path_writes_back_as_the_timed_path(dram);
}

/* The wear path's shorter ways for runs (a request's units a program
 * unit's rest at a time, a victim's runs of units moved at once, the
 * translation unit dirtied once) leave exactly the state that writing
 * and moving one unit at a time leaves (ftl.one_by_one): every mapping
 * entry, every block's counts, the units written by stream, and the
 * mapping's write-backs. Requests of 1, 8 and 32 units, so that victims
 * hold runs too. */
static void wear_requests(driver *v, uint64_t requests)
{
    static const uint32_t sizes[] = {1, 8, 32};
    uint32_t batch[4096];
    size_t k = 0;
    cr_assert_eq(ssd_wear_begin(v->d), 0);
    for (uint64_t r = 0; r < requests; r++) {
        uint32_t n = sizes[gsl_rng_uniform_int(v->rng, 3)];
        uint32_t first = (uint32_t)gsl_rng_uniform_int(v->rng, v->units - n);
        if (k + n > 4096) {
            cr_assert_eq(ssd_wear(v->d, batch, k), k);
            k = 0;
        }
        for (uint32_t u = 0; u < n; u++) batch[k++] = first + u;
    }
    cr_assert_eq(ssd_wear(v->d, batch, k), k);
    ssd_wear_end(v->d);
}

static void wear_in_runs_equals_one_by_one(const char *const *sets, int nsets)
{
    driver a, b;
    open_small(&a, sets, nsets);
    open_small(&b, sets, nsets);
    ftl *fa = ssd_ftl(a.d), *fb = ssd_ftl(b.d);
    fb->one_by_one = true;
    ssd_precondition(a.d, 0, a.rng);
    ssd_precondition(b.d, 0, b.rng);
    wear_requests(&a, a.units / 4);
    wear_requests(&b, b.units / 4);
    cr_assert_gt(fa->units_written[STREAM_GC], fa->units_written[STREAM_HOST] / 2, "GC moved data: %llu units",
                 (unsigned long long)fa->units_written[STREAM_GC]);
    for (int s = 0; s < STREAM_COUNT; s++)
        cr_assert_eq(fa->units_written[s], fb->units_written[s], "stream %d: %llu units in runs, %llu one by one", s,
                     (unsigned long long)fa->units_written[s], (unsigned long long)fb->units_written[s]);
    cr_assert_eq(fa->erases, fb->erases);
    for (uint32_t lpn = 0; lpn < a.units; lpn++)
        cr_assert_eq(ftl_lookup(fa, lpn), ftl_lookup(fb, lpn), "logical unit %u", lpn);
    for (uint32_t blk = 0; blk < 4 * 48; blk++) {
        cr_assert_eq(fa->blocks[blk].valid, fb->blocks[blk].valid, "block %u's valid units", blk);
        cr_assert_eq(fa->blocks[blk].write_ptr, fb->blocks[blk].write_ptr, "block %u's units written", blk);
        cr_assert_eq(fa->blocks[blk].erase_count, fb->blocks[blk].erase_count, "block %u's erases", blk);
        cr_assert_eq(fa->blocks[blk].closed_at, fb->blocks[blk].closed_at, "block %u's closing", blk);
    }
    for (uint32_t tu = 0; tu < fa->map_units; tu++) cr_assert_eq(fa->map_loc[tu], fb->map_loc[tu], "translation unit %u", tu);
    ssdlab_stats sa, sb;
    ssd_stats(a.d, &sa);
    ssd_stats(b.d, &sb);
    cr_assert_eq(sa.map_writebacks, sb.map_writebacks);
    check(&a);
    check(&b);
    close_small(&a);
    close_small(&b);
}

Test(state, wear_in_runs_equals_one_by_one_with_a_mapping_cache)
{
    const char *cached[] = {"ftl.mapping=cached", "ftl.map_cache=256KiB", "drive.user_capacity=400MB"};
    wear_in_runs_equals_one_by_one(cached, 3);
}

Test(state, wear_in_runs_equals_one_by_one_with_a_dram_table)
{
    wear_in_runs_equals_one_by_one(NULL, 0);
}
