/* A DRAM mapping table that is written to flash (ftl.map_dirty_limit): the
 * changed translation units a drive may hold and the write-backs past them
 * in closed form (integrity under GC, and no mapping read: test_ssd_state). */
#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "drive_rig.h"
#include "request_loop.h"
#include "ssdlab.h"

/* 4 dies x 48 blocks of 768 units: 576 MiB of flash, 480 MB user. Entries
 * of 32 bytes make translation units of 128 entries: 916 of them, so that
 * a dirty limit of 1 MiB (256 units) covers 28 % of the table. */
static const char *const small[] = {
    "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2", "nand.pages_per_block=96",
    "nand.blocks_per_plane=48", "drive.user_capacity=480MB", "controller.write_buffer=2MiB", "host.max_queue_depth=64",
    "ftl.map_entry_size=32B", "ftl.map_dirty_limit=1MiB", NULL};
enum { ENTRIES = 128, LIMIT = 256, QD = 16 };

typedef request_loop driver;

static void open_drive(driver *v, const char *extra)
{
    memset(v, 0, sizeof *v);
    const char *more[] = {extra, NULL};
    drive_rig rig;
    drive_rig_open(&rig, small, more);
    v->c = rig.c, v->s = rig.s, v->d = rig.d;
    v->units = ssd_params_of(v->d)->logical_units;
    v->rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(v->rng, 7);
}

static void close_drive(driver *v)
{
    gsl_rng_free(v->rng);
    drive_rig_close(&(drive_rig){v->c, v->s, v->d});
}

/* n requests at QD 16; the drive's counts since it was built */
static ssdlab_stats drive_requests(driver *v, uint64_t n)
{
    request_loop_run(v, n, QD);
    ssdlab_stats st;
    ssd_stats(v->d, &st);
    return st;
}

static void check(driver *v)
{
    char err[512];
    cr_assert_eq(ftl_check(ssd_ftl(v->d), err, sizeof err), 0, "%s", err);
}

Test(mapping, the_limit_is_read_in_translation_units)
{
    driver v;
    open_drive(&v, NULL);
    const ssd_params *p = ssd_params_of(v.d);
    cr_assert(p->map_persisted);
    cr_assert(!p->map_cached);
    cr_assert_eq(p->map_entries_per_page, ENTRIES);
    cr_assert_eq(p->map_cache_pages, LIMIT);
    cr_assert_eq(p->map_pages, (p->logical_units + ENTRIES - 1) / ENTRIES);
    close_drive(&v);
}

/* Uniform random writes over S translation units with room for L dirty
 * ones: once L are dirty, a write finds its unit dirty with probability
 * L / S (LRU under independent uniform references), so the rest write one
 * back each: (n - L)(1 - L / S) in all, to within 1 %. The writes fill
 * half the drive, so no GC move dirties a unit. */
Test(mapping, random_writes_past_the_limit_write_back_one_minus_limit_over_span)
{
    driver v;
    open_drive(&v, NULL);
    const ssd_params *p = ssd_params_of(v.d);
    uint64_t n = p->logical_units / 2;
    ssdlab_stats st = drive_requests(&v, n);
    double share = (double)LIMIT / (double)p->map_pages;
    double expected = (double)(n - LIMIT) * (1 - share);
    cr_assert_eq(st.gc_units_written, 0);
    cr_assert_lt(fabs((double)st.map_writebacks / expected - 1), 0.01, "write-backs %llu, expected %.0f",
                 (unsigned long long)st.map_writebacks, expected);
    cr_assert_eq(st.map_units_written, st.map_writebacks, "each write-back programs one unit");
    cr_assert_lt(fabs(st.wa_map - (double)st.map_writebacks / (double)n), 1e-9, "WA's mapping share is theirs");
    cr_assert_eq(st.map_misses, 0);
    check(&v);
    close_drive(&v);
}

/* The maker's test writes a span whose units fit the limit: nothing is
 * written back, however long it runs. */
Test(mapping, random_writes_within_the_limit_write_nothing_back)
{
    driver v;
    open_drive(&v, NULL);
    v.units = (uint64_t)(LIMIT - 1) * ENTRIES;
    ssdlab_stats st = drive_requests(&v, 4 * v.units);
    cr_assert_eq(st.map_writebacks, 0);
    cr_assert_eq(st.wa_map, 0);
    close_drive(&v);
}

/* Sequential writes change each unit's entries in a row: one write-back
 * per unit's worth of entries once the limit is reached. */
Test(mapping, sequential_writes_write_back_one_unit_per_its_entries)
{
    driver v;
    open_drive(&v, NULL);
    v.sequential = true;
    uint64_t n = v.units / 2;
    ssdlab_stats st = drive_requests(&v, n);
    uint64_t expected = n / ENTRIES - LIMIT; /* units filled, less those still dirty */
    cr_assert_leq(st.map_writebacks, expected + 1);
    cr_assert_geq(st.map_writebacks + 1, expected, "write-backs %llu, expected %llu", (unsigned long long)st.map_writebacks,
                  (unsigned long long)expected);
    close_drive(&v);
}

/* A drive without the limit writes no translation unit at all, as before. */
Test(mapping, no_limit_writes_no_unit)
{
    driver v;
    open_drive(&v, "ftl.map_dirty_limit=0B");
    cr_assert(!ssd_params_of(v.d)->map_persisted);
    ssdlab_stats st = drive_requests(&v, v.units / 2);
    cr_assert_eq(st.map_writebacks, 0);
    cr_assert_eq(st.map_units_written, 0);
    close_drive(&v);
}

Test(mapping, a_limit_is_refused_where_it_means_nothing)
{
    const char *cached[] = {"ftl.mapping=cached", NULL}, *too_small[] = {"ftl.map_dirty_limit=2KiB", NULL};
    drive_rig_refused(small, cached, "applies to 'ftl.mapping: dram'");
    drive_rig_refused(small, too_small, "holds no translation unit");
}
