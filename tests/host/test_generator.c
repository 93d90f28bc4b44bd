/* Synthetic workloads, checked statistically with fixed seeds: read share,
 * size mix, Zipf skew, hot/cold split, sequential order, open-loop rates,
 * stop conditions. */
#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#include "generator.h"
#include "lookahead.h"
#include "sim_config.h"
#include "ssd.h"
#include "workload.h"

static gsl_rng *rng(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2024);
    return r;
}

static void init(generator *g, gen_pattern p, double reads, const char *sizes, double theta, double hot_fraction,
                 double hot_share, uint64_t region)
{
    char err[256];
    cr_assert_eq(generator_init(g, p, reads, 0, region, sizes, 0, theta, hot_fraction, hot_share, err, sizeof err), 0, "%s", err);
}

Test(generator, read_share_and_size_mix)
{
    generator g;
    init(&g, GEN_RANDOM, 0.3, "4KiB:55,64KiB:25,128KiB:20", 1, 0.2, 0.8, 1ull << 30);
    gsl_rng *r = rng();
    enum { N = 200000 };
    uint64_t reads = 0, by_size[3] = {0};
    for (int i = 0; i < N; i++) {
        bool read;
        uint64_t off;
        uint32_t bytes;
        generator_next(&g, r, &read, &off, &bytes);
        reads += read;
        by_size[bytes == 4096 ? 0 : bytes == 65536 ? 1 : 2]++;
        cr_assert_eq(off % 4096, 0, "aligned to the smallest size");
        cr_assert_leq(off + bytes, 1ull << 30);
    }
    /* binomial sd at N = 2e5 is at most 0.0011: a 0.5 % band is > 4 sd */
    cr_assert_lt(fabs((double)reads / N - 0.3), 0.005);
    cr_assert_lt(fabs((double)by_size[0] / N - 0.55), 0.005);
    cr_assert_lt(fabs((double)by_size[1] / N - 0.25), 0.005);
    cr_assert_lt(fabs((double)by_size[2] / N - 0.20), 0.005);
    generator_free(&g);
    gsl_rng_free(r);
}

/* Zipf: P(k) = k^-theta / H(n, theta). Rank 1's share and the top 1 %'s
 * share of 10^6 draws over n = 10,000 against the exact sums. */
static void zipf_matches(double theta)
{
    enum { SLOTS = 10000, N = 1000000 };
    generator g;
    init(&g, GEN_ZIPF, 1, "4KiB", theta, 0.2, 0.8, (uint64_t)SLOTS * 4096);
    cr_assert_eq(g.slots, SLOTS);
    gsl_rng *r = rng();
    double harmonic = 0, top = 0;
    for (int k = 1; k <= SLOTS; k++) {
        harmonic += pow(k, -theta);
        if (k <= SLOTS / 100) top += pow(k, -theta);
    }
    uint64_t first = 0, in_top = 0;
    for (int i = 0; i < N; i++) {
        uint64_t k = zipf_draw(&g, r);
        cr_assert(k >= 1 && k <= SLOTS);
        first += k == 1;
        in_top += k <= SLOTS / 100;
    }
    cr_assert_lt(fabs((double)first / N / (1 / harmonic) - 1), 0.02, "theta %.2f: P(1) %.4f, expected %.4f", theta,
                 (double)first / N, 1 / harmonic);
    cr_assert_lt(fabs((double)in_top / N / (top / harmonic) - 1), 0.01, "theta %.2f: top 1 %% %.4f, expected %.4f", theta,
                 (double)in_top / N, top / harmonic);
    generator_free(&g);
    gsl_rng_free(r);
}

Test(generator, zipf_skew) { zipf_matches(0.99), zipf_matches(0.6), zipf_matches(1.3); }

Test(generator, hot_cold_split)
{
    generator g;
    init(&g, GEN_HOTCOLD, 1, "4KiB", 1, 0.1, 0.9, 1ull << 30);
    gsl_rng *r = rng();
    enum { N = 200000 };
    uint64_t hot = 0, hot_end = (uint64_t)(0.1 * (double)g.slots) * 4096;
    for (int i = 0; i < N; i++) {
        bool read;
        uint64_t off;
        uint32_t bytes;
        generator_next(&g, r, &read, &off, &bytes);
        hot += off < hot_end;
    }
    cr_assert_lt(fabs((double)hot / N - 0.9), 0.005);
    generator_free(&g);
    gsl_rng_free(r);
}

Test(generator, sequential_wraps_at_the_region_end)
{
    generator g;
    char err[256];
    cr_assert_eq(generator_init(&g, GEN_SEQUENTIAL, 0, 8192, 3 * 65536, "64KiB", 4096, 1, 0.2, 0.8, err, sizeof err), 0, "%s", err);
    gsl_rng *r = rng();
    uint64_t want[] = {8192, 8192 + 65536, 8192 + 131072, 8192};
    for (int i = 0; i < 4; i++) {
        bool read;
        uint64_t off;
        uint32_t bytes;
        generator_next(&g, r, &read, &off, &bytes);
        cr_assert_eq(off, want[i]);
        cr_assert_not(read);
    }
    generator_free(&g);
    gsl_rng_free(r);
}

Test(generator, bad_size_lists)
{
    generator g;
    char err[256];
    cr_assert_eq(generator_init(&g, GEN_RANDOM, 1, 0, 1 << 30, "4KiB:x", 0, 1, 0.2, 0.8, err, sizeof err), -1);
    cr_assert(strstr(err, "weight 'x' is not a positive number"), "%s", err);
    cr_assert_eq(generator_init(&g, GEN_RANDOM, 1, 0, 1 << 30, "4Kb:1", 0, 1, 0.2, 0.8, err, sizeof err), -1);
    cr_assert(strstr(err, "'4Kb' is not a size"), "%s", err);
}

/* Runs the built-in workload on a small drive with these overrides. */
static ssdlab_stats run_workload(const char *const *sets, double *seconds)
{
    cfg *c = cfg_create(ssdlab_schema());
    const char *base[] = {"controller.channels=2", "controller.dies_per_channel=2", "nand.blocks_per_plane=64",
                          "nand.pages_per_block=96", "drive.user_capacity=600MB", "workload.precondition=fill",
                          "host.max_queue_depth=64", "workload.requests=0"};
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) cfg_set_override(c, base[i]);
    for (; *sets; sets++) cfg_set_override(c, *sets);
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    sim_options o = sim_options_from_config(c);
    sim *s = sim_create(&o);
    char err[512];
    ssd *d = ssd_create(s, c, err, sizeof err);
    workload *w = workload_create(s, d, c, err, sizeof err);
    cr_assert_not_null(w, "%s", err);
    workload_precondition(w);
    workload_result r;
    cr_assert_eq(workload_run(w, &r, err, sizeof err), 0, "%s", err);
    ssdlab_stats st;
    ssd_stats(d, &st);
    *seconds = r.seconds;
    workload_free(w);
    ssd_free(d);
    sim_free(s);
    cfg_free(c);
    return st;
}

/* Open loop: a fixed rate of 5,000/s for 2 s issues 10,000 requests; a
 * Poisson rate issues 10,000 +- 100 (one sd), here within 3 sd. */
Test(generator, open_loop_rates)
{
    double secs;
    ssdlab_stats fixed = run_workload((const char *const[]){"workload.arrival=fixed", "workload.rate=5000",
                                                           "workload.duration=2s", NULL}, &secs);
    cr_assert(fixed.completed[SSDLAB_READ] >= 9999 && fixed.completed[SSDLAB_READ] <= 10001, "%llu",
              (unsigned long long)fixed.completed[SSDLAB_READ]);
    ssdlab_stats poisson = run_workload((const char *const[]){"workload.arrival=poisson", "workload.rate=5000",
                                                             "workload.duration=2s", NULL}, &secs);
    cr_assert_lt(fabs((double)poisson.completed[SSDLAB_READ] - 10000), 300, "%llu",
                 (unsigned long long)poisson.completed[SSDLAB_READ]);
    cr_assert_neq(poisson.completed[SSDLAB_READ], fixed.completed[SSDLAB_READ]);
}

/* Stop conditions by bytes and by drive writes. */
Test(generator, stop_by_bytes_and_drive_writes)
{
    double secs;
    ssdlab_stats b = run_workload((const char *const[]){"workload.bytes=40MiB", "workload.block_size=64KiB",
                                                       "workload.queue_depth=1", NULL}, &secs);
    cr_assert_eq(b.bytes[SSDLAB_READ], 40u << 20);
    ssdlab_stats w = run_workload((const char *const[]){"workload.drive_writes=0.5", "workload.read_share=0",
                                                       "workload.pattern=sequential", "workload.block_size=128KiB",
                                                       "workload.queue_depth=1", NULL}, &secs);
    /* half of 600 MB, rounded up to whole requests */
    cr_assert(w.bytes[SSDLAB_WRITE] >= 300000000 && w.bytes[SSDLAB_WRITE] < 300000000 + 131072, "%llu",
              (unsigned long long)w.bytes[SSDLAB_WRITE]);
    /* the same at QD 8: the writes in flight do not overshoot it */
    ssdlab_stats q8 = run_workload((const char *const[]){"workload.drive_writes=0.5", "workload.read_share=0",
                                                        "workload.pattern=sequential", "workload.block_size=128KiB",
                                                        "workload.queue_depth=8", NULL}, &secs);
    cr_assert_eq(q8.bytes[SSDLAB_WRITE], w.bytes[SSDLAB_WRITE], "%llu", (unsigned long long)q8.bytes[SSDLAB_WRITE]);
}

/* Phases from a workload file, run in order on one drive: fill, idle,
 * trim half, idle, read the trimmed half (no flash), read the other half
 * (from flash). */
Test(generator, phases_run_in_order)
{
    cfg *c = cfg_create(ssdlab_schema());
    const char *base[] = {"controller.channels=2", "controller.dies_per_channel=2", "nand.blocks_per_plane=64",
                          "nand.pages_per_block=96", "drive.user_capacity=600MB"};
    for (size_t i = 0; i < 5; i++) cfg_set_override(c, base[i]);
    cfg **phases;
    size_t n;
    cr_assert_eq(cfg_load_file_with_list(c, SOURCE_DIR "/experiments/workloads/trim-then-read.yaml", "phases", "workload",
                                         &phases, &n),
                 0, "%s", cfg_errors(c));
    cr_assert_eq(n, 6);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < 5; k++) cfg_set_override(phases[i], base[k]);
    sim_options o = sim_options_from_config(c);
    sim *s = sim_create(&o);
    char err[512];
    ssd *d = ssd_create(s, c, err, sizeof err);
    uint64_t flash_reads[6], completed[6], cache_hits[6];
    double seconds[6];
    for (size_t i = 0; i < n; i++) {
        workload *w = workload_create(s, d, phases[i], err, sizeof err);
        cr_assert_not_null(w, "phase %zu: %s", i + 1, err);
        workload_result r;
        cr_assert_eq(workload_run(w, &r, err, sizeof err), 0, "%s", err);
        ssdlab_stats st;
        ssd_stats(d, &st);
        flash_reads[i] = st.flash_reads;
        cache_hits[i] = st.read_cache_hits;
        completed[i] = st.completed[SSDLAB_READ] + st.completed[SSDLAB_WRITE] + st.completed[SSDLAB_TRIM];
        seconds[i] = r.seconds;
        workload_free(w);
    }
    cr_assert_eq(completed[0], 256 * 8, "fill: 256 MiB in 128 KiB writes");
    cr_assert_float_eq(seconds[1], 1.0, 1e-9, "idle phases last their duration");
    cr_assert_eq(completed[2], 1, "one TRIM command covers 128 MiB");
    cr_assert_eq(flash_reads[4], 0, "the trimmed half reads as zeros");
    cr_assert_eq(completed[4], 5000, "a request budget completes exactly that many requests");
    cr_assert_eq(completed[5], 5000);
    /* The fill's last units wait in the write buffer for a full program
     * stripe, so a handful of reads need no flash at all. */
    cr_assert(flash_reads[5] + cache_hits[5] <= 5000 && flash_reads[5] + cache_hits[5] >= 4990,
              "the other half is read from flash or the read cache (%lu + %lu)", (unsigned long)flash_reads[5],
              (unsigned long)cache_hits[5]);
    char check[256];
    cr_assert_eq(ftl_check(ssd_ftl(d), check, sizeof check), 0, "%s", check);
    ssd_free(d);
    sim_free(s);
    for (size_t i = 0; i < n; i++) cfg_free(phases[i]);
    free(phases);
    cfg_free(c);
}

/* At each batch's start the lookahead's plan names the next three batches'
 * draws, so the drive can fetch them two batches ahead. It starts over
 * (fresh) only at the first batch and at the batch after a draw it did not
 * guess (another source drew from the stream), and its guesses are right
 * again from there. A batch's guesses do not change from one plan to the
 * next. Guessing leaves the stream and the generator where they were: a run
 * with the lookahead draws what one without it draws. */
Test(lookahead, guesses_two_batches_ahead_without_drawing)
{
    enum { B = LOOKAHEAD_BATCH, DRAWS = 10 * B + 3, INTRUDER = 5 * B + 4, RESTART = 6 * B };
    const gen_pattern patterns[] = {GEN_RANDOM, GEN_ZIPF, GEN_HOTCOLD, GEN_SEQUENTIAL};
    for (int p = 0; p < 4; p++) {
        generator g, twin;
        init(&g, patterns[p], 0.3, "4KiB:60,16KiB:40", 0.9, 0.1, 0.9, 1ull << 30);
        init(&twin, patterns[p], 0.3, "4KiB:60,16KiB:40", 0.9, 0.1, 0.9, 1ull << 30);
        gsl_rng *r = rng(), *alone = rng();
        lookahead la;
        cr_assert_eq(lookahead_init(&la, &g, r, NULL), 0);
        bool on = patterns[p] != GEN_SEQUENTIAL; /* off for sequential */
        static uint64_t guess[DRAWS + 3 * B];
        static bool guessed_read[DRAWS + 3 * B], guessed[DRAWS + 3 * B];
        memset(guessed, 0, sizeof guessed);
        uint32_t plans = 0, fresh_plans = 0, checked = 0;
        for (uint32_t i = 0; i < DRAWS; i++) {
            if (i == INTRUDER) { /* another source draws from the stream */
                gsl_rng_uniform(r);
                gsl_rng_uniform(alone);
            }
            lookahead_batch batch[3];
            bool fresh = false, planned = lookahead_plan(&la, &g, r, batch, &fresh);
            cr_assert_eq(planned, on && i % B == 0, "pattern %d draw %u", p, i);
            if (planned) {
                plans++;
                fresh_plans += fresh;
                cr_assert_eq(fresh, i == 0 || i == RESTART, "pattern %d draw %u: fresh %d", p, i, fresh);
                for (uint32_t k = 0; k < 3 * B; k++) {
                    uint32_t at = i + k;
                    uint64_t off = batch[k / B].offsets[k % B];
                    bool read = batch[k / B].reads[k % B];
                    if (!fresh && guessed[at])
                        cr_assert(guess[at] == off && guessed_read[at] == read, "pattern %d: draw %u's guess changed", p, at);
                    guess[at] = off;
                    guessed_read[at] = read;
                    guessed[at] = true;
                }
            }
            bool read, read_alone;
            uint64_t off, off_alone;
            uint32_t bytes, bytes_alone;
            generator_next(&g, r, &read, &off, &bytes);
            generator_next(&twin, alone, &read_alone, &off_alone, &bytes_alone);
            cr_assert_eq(off, off_alone, "pattern %d draw %u: the lookahead moved the stream", p, i);
            cr_assert_eq(bytes, bytes_alone);
            cr_assert_eq(read, read_alone);
            lookahead_drawn(&la, off, read);
            if (!on || (i >= INTRUDER && i < RESTART)) continue; /* guessed before the intruder drew */
            cr_assert(guessed[i], "pattern %d draw %u: not guessed", p, i);
            cr_assert_eq(off, guess[i], "pattern %d draw %u: guessed %llu", p, i, (unsigned long long)guess[i]);
            cr_assert_eq(read, guessed_read[i], "pattern %d draw %u: guessed the wrong kind", p, i);
            checked++;
        }
        cr_assert_eq(plans, on ? 11u : 0u, "pattern %d", p);
        cr_assert_eq(fresh_plans, on ? 2u : 0u, "pattern %d", p);
        cr_assert_eq(checked, on ? (uint32_t)DRAWS - (RESTART - INTRUDER) : 0u);
        lookahead_free(&la);
        gsl_rng_free(r);
        gsl_rng_free(alone);
        generator_free(&g);
        generator_free(&twin);
    }
}
