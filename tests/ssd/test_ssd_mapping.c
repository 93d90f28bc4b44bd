/* A DRAM mapping table that is written to flash (ftl.map_dirty_limit): the
 * changed translation units a drive may hold, the write-backs past them in
 * closed form, and no command ever waiting for a mapping read. */
#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>
#include <math.h>

#include "sim_config.h"
#include "ssd.h"
#include "ssdlab.h"

/* 4 dies x 48 blocks of 768 units: 576 MiB of flash, 480 MB user. Entries
 * of 32 bytes make translation units of 128 entries: 916 of them, so that
 * a dirty limit of 1 MiB (256 units) covers 28 % of the table. */
static const char *const small[] = {
    "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2", "nand.pages_per_block=96",
    "nand.blocks_per_plane=48", "drive.user_capacity=480MB", "controller.write_buffer=2MiB", "host.max_queue_depth=64",
    "ftl.map_entry_size=32B", "ftl.map_dirty_limit=1MiB"};
enum { NSMALL = sizeof small / sizeof small[0], ENTRIES = 128, LIMIT = 256, QD = 16 };

typedef struct driver {
    ssd *d;
    sim *s;
    cfg *c;
    gsl_rng *rng;
    ssdlab_request reqs[QD];
    uint64_t to_issue, span, next;
    double read_share, trim_share;
    bool sequential;
} driver;

static void open_drive(driver *v, const char *extra)
{
    memset(v, 0, sizeof *v);
    v->c = cfg_create(ssdlab_schema());
    for (int i = 0; i < NSMALL; i++) cfg_set_override(v->c, small[i]);
    if (extra) cfg_set_override(v->c, extra);
    cr_assert_eq(cfg_error_count(v->c), 0, "%s", cfg_errors(v->c));
    sim_options o = sim_options_from_config(v->c);
    v->s = sim_create(&o);
    char err[512];
    v->d = ssd_create(v->s, v->c, err, sizeof err);
    cr_assert_not_null(v->d, "%s", err);
    v->span = ssd_params_of(v->d)->logical_units;
    v->rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(v->rng, 7);
}

static void close_drive(driver *v)
{
    gsl_rng_free(v->rng);
    ssd_free(v->d);
    sim_free(v->s);
    cfg_free(v->c);
}

static void issue(driver *v, ssdlab_request *r);

static void on_done(ssdlab_request *r, void *ctx)
{
    driver *v = ctx;
    if (v->to_issue) issue(v, r);
}

static void issue(driver *v, ssdlab_request *r)
{
    v->to_issue--;
    double u = gsl_rng_uniform(v->rng);
    uint64_t unit = v->sequential ? v->next++ % v->span : gsl_rng_uniform_int(v->rng, v->span);
    r->op = u < v->trim_share ? SSDLAB_TRIM : u < v->trim_share + v->read_share ? SSDLAB_READ : SSDLAB_WRITE;
    r->offset = unit * 4096;
    r->bytes = 4096;
    cr_assert_eq(ssd_submit(v->d, r, on_done, v), 0);
}

static ssdlab_stats drive_requests(driver *v, uint64_t n)
{
    v->to_issue = n;
    for (int i = 0; i < QD && v->to_issue; i++) issue(v, &v->reqs[i]);
    sim_run(v->s, SIM_TIME_MAX);
    cr_assert_eq(ssd_outstanding(v->d), 0);
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
 * back each: (n - L) (1 - L / S) in all, to within 1 %. No
 * write fills the drive, so no GC move dirties a unit. */
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
    v.span = (uint64_t)(LIMIT - 1) * ENTRIES;
    ssdlab_stats st = drive_requests(&v, 4 * v.span);
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
    uint64_t n = v.span / 2;
    ssdlab_stats st = drive_requests(&v, n);
    uint64_t expected = n / ENTRIES - LIMIT; /* units filled, less those still dirty */
    cr_assert_leq(st.map_writebacks, expected + 1);
    cr_assert_geq(st.map_writebacks + 1, expected, "write-backs %llu, expected %llu", (unsigned long long)st.map_writebacks,
                  (unsigned long long)expected);
    close_drive(&v);
}

/* The table is all in DRAM: reads, trims and GC's moves never wait for a
 * mapping read, and the mapping stays whole under all of them. GC's moves
 * dirty units too, so write-backs rise with them. */
Test(mapping, no_command_waits_for_a_mapping_read_and_the_mapping_holds_under_gc)
{
    driver v;
    open_drive(&v, NULL);
    cr_assert_eq(ftl_enable_versions(ssd_ftl(v.d)), 0);
    ssd_precondition(v.d, 0, v.rng);
    check(&v);
    ftl *f = ssd_ftl(v.d);
    for (uint32_t tu = 0; tu < f->map_units; tu++) cr_assert_neq(f->map_loc[tu], FTL_NONE, "unit %u placed", tu);
    v.read_share = 0.3;
    v.trim_share = 0.05;
    ssdlab_stats st;
    for (int round = 0; round < 3; round++) {
        st = drive_requests(&v, v.span / 2);
        check(&v);
    }
    cr_assert_gt(st.erases, 20);
    cr_assert_gt(st.map_writebacks, 1000);
    cr_assert_eq(st.map_misses, 0);
    close_drive(&v);
}

/* A drive without the limit writes no translation unit at all, as before. */
Test(mapping, no_limit_writes_no_unit)
{
    driver v;
    open_drive(&v, "ftl.map_dirty_limit=0B");
    cr_assert(!ssd_params_of(v.d)->map_persisted);
    ssdlab_stats st = drive_requests(&v, v.span / 2);
    cr_assert_eq(st.map_writebacks, 0);
    cr_assert_eq(st.map_units_written, 0);
    close_drive(&v);
}

static void expect_refused(const char *a, const char *b, const char *words)
{
    cfg *c = cfg_create(ssdlab_schema());
    for (int i = 0; i < NSMALL; i++) cfg_set_override(c, small[i]);
    cfg_set_override(c, a);
    if (b) cfg_set_override(c, b);
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    sim_options o = sim_options_from_config(c);
    sim *s = sim_create(&o);
    char err[512] = "";
    ssd *d = ssd_create(s, c, err, sizeof err);
    cr_assert_null(d);
    cr_assert(strstr(err, words), "%s", err);
    sim_free(s);
    cfg_free(c);
}

Test(mapping, a_limit_is_refused_where_it_means_nothing)
{
    expect_refused("ftl.mapping=cached", NULL, "applies to 'ftl.mapping: dram'");
    expect_refused("ftl.map_dirty_limit=2KiB", NULL, "holds no translation unit");
}
