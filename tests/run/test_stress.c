/* The stress mode: random episodes on small drives of every preset family,
 * with the integrity checker after every GC erase, SLC fold and episode. */
#include <criterion/criterion.h>
#include <string.h>

#include "ssdlab.h"
#include "stress.h"

/* 40,000 requests reach GC on every family and folding on every family
 * with an SLC cache; the sanitizer build runs a quarter of that (its
 * checker passes cost ten times more) and checks integrity and the counts only. */
#ifndef STRESS_REQUESTS
#define STRESS_REQUESTS 40000
#endif
#define STRESS_REACHES_GC (STRESS_REQUESTS >= 40000)

static cfg *small_drive(const char *path)
{
    cfg *c = cfg_create(ssdlab_schema());
    cfg_load_file(c, path);
    for (size_t i = 0; i < stress_shrink_set_count; i++) cfg_set_override(c, stress_shrink_sets[i]);
    stress_shrink(c, false, false);
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    return c;
}

/* The nine families of models/drives (the capacity files name one). */
Test(stress, finds_every_preset_family)
{
    glob_t g;
    char **paths;
    int n = stress_families(SOURCE_DIR "/models", &g, &paths);
    cr_assert_eq(n, 9, "families found: %d", n);
    const char *expect[] = {"crucial-bx100.yaml", "crucial-bx200.yaml", "example-sata-480.yaml", "intel-660p.yaml", "ocz-tr150.yaml",
                            "plextor-m9pe.yaml", "samsung-850-evo.yaml", "silicon-power-s55.yaml", "toshiba-tr200.yaml"};
    for (int i = 0; i < n; i++) cr_assert_str_eq(strrchr(paths[i], '/') + 1, expect[i]);
    free(paths);
    globfree(&g);
}

/* Every family: the checker holds after every reclaim job, every kind of
 * episode ran, GC ran, folding ran where the drive has an SLC cache, and
 * every request was counted once. */
Test(stress, every_family_keeps_its_integrity, .timeout = 600)
{
    glob_t g;
    char **paths;
    int n = stress_families(SOURCE_DIR "/models", &g, &paths);
    for (int i = 0; i < n; i++) {
        cfg *c = small_drive(paths[i]);
        stress_counts k;
        char err[1024];
        int rc = stress_run(c, STRESS_REQUESTS, 7, &k, err, sizeof err);
        cr_assert_eq(rc, 0, "%s: %s", paths[i], err);
        cr_assert_eq(k.requests, STRESS_REQUESTS, "%s", paths[i]);
        cr_assert_eq(k.reads + k.writes + k.trims, k.requests, "%s", paths[i]);
        bool slc = strcmp(cfg_str(c, "slc.cache"), "none") != 0;
        if (!slc) cr_assert_eq(k.fold_checks, 0, "%s: folds without an SLC cache", paths[i]);
        if (STRESS_REACHES_GC) {
            cr_assert_gt(k.gc_checks, 0, "%s: GC never ran", paths[i]);
            if (slc) cr_assert_gt(k.fold_checks, 0, "%s: the SLC cache was never folded", paths[i]);
            for (int e = 0; e < EPISODE_COUNT; e++)
                cr_assert_gt(k.episodes[e], 0, "%s: no %s episode", paths[i], stress_episode_names[e]);
        }
        cr_assert_gt(k.simulated_s, 1.0, "%s: idle episodes advance the clock", paths[i]);
        cfg_free(c);
    }
    free(paths);
    globfree(&g);
}

/* A DRAM table written back past a dirty limit of four translation units:
 * the units go into blocks of their own among the data, GC moves them, and
 * the data's mapping stays whole through every episode. */
Test(stress, a_dram_table_written_back_keeps_its_integrity, .timeout = 300)
{
    cfg *c = small_drive(SOURCE_DIR "/models/drives/crucial-bx200.yaml");
    cfg_set_override(c, "ftl.map_dirty_limit=16KiB");
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    stress_counts k;
    char err[1024];
    cr_assert_eq(stress_run(c, STRESS_REQUESTS / 2, 11, &k, err, sizeof err), 0, "%s", err);
    if (STRESS_REACHES_GC) cr_assert_gt(k.gc_checks, 0, "GC never ran");
    cfg_free(c);
}

/* Same seed, same run; another seed, another run. */
Test(stress, is_deterministic_per_seed)
{
    cfg *c = small_drive(SOURCE_DIR "/models/drives/toshiba-tr200.yaml");
    stress_counts a, b, other;
    char err[1024];
    cr_assert_eq(stress_run(c, 5000, 3, &a, err, sizeof err), 0, "%s", err);
    cr_assert_eq(stress_run(c, 5000, 3, &b, err, sizeof err), 0, "%s", err);
    cr_assert_eq(stress_run(c, 5000, 4, &other, err, sizeof err), 0, "%s", err);
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0);
    cr_assert(a.reads != other.reads || a.simulated_s != other.simulated_s);
    cfg_free(c);
}

/* The shrunk drive: one die per channel, a quarter less user capacity
 * than the flash beyond GC's reserves. */
Test(stress, shrinks_a_preset)
{
    cfg *c = small_drive(SOURCE_DIR "/models/drives/toshiba-tr200.yaml");
    cr_assert_eq(cfg_uint(c, "controller.dies_per_channel"), 1);
    cr_assert_eq(cfg_uint(c, "nand.pages_per_block"), 48);
    /* S11: threshold + burst + 5 = 4 + 8 + 5 = 17 reserved; 17 + 24 blocks */
    cr_assert_eq(cfg_uint(c, "ftl.gc.threshold") + cfg_uint(c, "ftl.gc.burst"), 12);
    cr_assert_eq(cfg_uint(c, "nand.blocks_per_plane"), 41);
    uint64_t block = 2 * 48 * cfg_uint(c, "nand.page_size");
    uint64_t want = 2 * 24 * block / 10 * 8 / (1 << 20) * (1 << 20);
    cr_assert_eq(cfg_uint(c, "drive.user_capacity"), want);
    cfg_free(c);
}
