/* The SLC write cache: a sequential fill runs at SLC speed for the cache's
 * volume, then at native speed; foreground folding; idle folding; the
 * dynamic cache shrinking as the drive fills. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "sim_config.h"
#include "figures.h"
#include "ssd.h"

/* 4 dies x 64 blocks of 3 MiB (768 MiB of flash), NVMe link far faster than
 * the flash, a write buffer of a little more than one native program unit
 * per die, so completions follow the flash closely. */
static const char *const base[] = {
    "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2", "nand.pages_per_block=96",
    "nand.blocks_per_plane=64", "nand.page_size=16KiB", "nand.spare_size=2KiB", "nand.bits_per_cell=3",
    "drive.user_capacity=600MB", "nand.t_prog=2ms", "nand.t_prog_slc=250us", "controller.bus_rate=533MT/s",
    "controller.t_bus_command=200ns", "controller.write_buffer=512KiB", "host.interface=nvme", "host.link_rate=8Gb/s",
    "host.lanes=4", "host.encoding=128b130b", "host.pcie_latency=0ns", "host.max_queue_depth=64",
    "controller.fw_write=1us", "slc.size=32MiB", "ftl.idle_time=10ms"};

typedef struct fill {
    cfg *c;
    sim *s;
    ssd *d;
    ssdlab_request reqs[32];
    uint64_t next, count;
    sim_time_t *finish; /* completion time of each request, by request index */
    uint64_t done;
} fill;

static void open_fill(fill *f, const char *const *extra)
{
    memset(f, 0, sizeof *f);
    f->c = cfg_create(ssdlab_schema());
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) cfg_set_override(f->c, base[i]);
    for (; extra && *extra; extra++) cfg_set_override(f->c, *extra);
    cr_assert_eq(cfg_error_count(f->c), 0, "%s", cfg_errors(f->c));
    sim_options o = sim_options_from_config(f->c);
    f->s = sim_create(&o);
    char err[512];
    f->d = ssd_create(f->s, f->c, err, sizeof err);
    cr_assert_not_null(f->d, "%s", err);
}

static void close_fill(fill *f)
{
    free(f->finish);
    ssd_free(f->d);
    sim_free(f->s);
    cfg_free(f->c);
}

static void issue(fill *f, ssdlab_request *r);

static void on_done(ssdlab_request *r, void *ctx)
{
    fill *f = ctx;
    f->finish[f->done++] = r->finish;
    if (f->next < f->count) issue(f, r);
}

static void issue(fill *f, ssdlab_request *r)
{
    r->op = SSDLAB_WRITE;
    r->offset = (f->next++ % (ssd_capacity(f->d) / 131072)) * 131072;
    r->bytes = 131072;
    cr_assert_eq(ssd_submit(f->d, r, on_done, f), 0);
}

/* Writes `mib` MiB sequentially at QD 32 (128 KiB requests) and runs until
 * the drive is idle; records each completion time. */
static void write_mib(fill *f, uint64_t mib)
{
    uint64_t n = mib * 8;
    f->finish = realloc(f->finish, (f->done + n) * sizeof *f->finish);
    f->count = f->next + n;
    for (int i = 0; i < 32 && f->next < f->count; i++) issue(f, &f->reqs[i]);
    sim_run(f->s, SIM_TIME_MAX);
}

/* MiB/s of the completions between two points of the fill (in MiB). */
static double rate(const fill *f, uint64_t from_mib, uint64_t to_mib)
{
    sim_time_t t0 = f->finish[from_mib * 8], t1 = f->finish[to_mib * 8];
    return (double)(to_mib - from_mib) / ((double)(t1 - t0) * 1e-9);
}

/* Where the completion rate first falls below `level` MiB/s (over 2 MiB). */
static double drop_point_mib(const fill *f, uint64_t total_mib, double level)
{
    for (uint64_t m = 2; m + 2 < total_mib; m++)
        if (rate(f, m, m + 2) < level) return (double)m + 1;
    return NAN;
}

/* SLC: a program writes one page per plane (32 KiB) after moving it and its
 * spare (36 KiB) over the bus: 4 dies x 32 KiB / (200 ns + 69,163 ns +
 * 250 us). Native one-shot TLC: 4 dies x 96 KiB / (200 ns + 207,490 ns +
 * 2 ms). */
static const double slc_mib_s = 4 * 32768 / ((200 + 69163 + 250000) * 1e-9) / 1048576;
static const double native_mib_s = 4 * 98304 / ((200 + 207490 + 2000000) * 1e-9) / 1048576;

static void within(double got, double want, double tol, const char *what)
{
    cr_assert_lt(fabs(got / want - 1), tol, "%s: simulated %.2f, expected %.2f (%.1f%%)", what, got, want,
                 100 * (got / want - 1));
}

Test(slc, sequential_fill_runs_at_slc_speed_for_the_cache_then_native)
{
    fill f;
    open_fill(&f, (const char *const[]){"slc.cache=static", NULL});
    write_mib(&f, 160);
    within(rate(&f, 4, 28), slc_mib_s, 0.05, "write speed inside the SLC cache");
    within(rate(&f, 60, 150), native_mib_s, 0.05, "write speed after the SLC cache");
    within(drop_point_mib(&f, 160, (slc_mib_s + native_mib_s) / 2), 32, 0.05, "MiB accepted at SLC speed");
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(f.d), err, sizeof err), 0, "%s", err);
    close_fill(&f);
}

/* Foreground folding (the BX200 behaviour): once the cache is full, each
 * new SLC block waits for an old one to be read and rewritten to TLC, so
 * writes fall well below the native speed of writing TLC directly. */
Test(slc, foreground_folding_falls_below_native_speed)
{
    fill f;
    open_fill(&f, (const char *const[]){"slc.cache=static", "slc.when_full=fold", NULL});
    write_mib(&f, 160);
    within(rate(&f, 4, 28), slc_mib_s, 0.05, "write speed inside the SLC cache");
    double after = rate(&f, 60, 150);
    cr_assert_lt(after, 0.9 * native_mib_s, "folding: %.1f MiB/s, direct TLC would be %.1f", after, native_mib_s);
    char err[256];
    cr_assert_eq(ftl_check(ssd_ftl(f.d), err, sizeof err), 0, "%s", err);
    close_fill(&f);
}

/* Idle time empties the cache into TLC, so the next burst runs at SLC
 * speed again; at a set folding rate, emptying takes cache / rate. */
Test(slc, idle_folding_restores_the_cache)
{
    fill f;
    open_fill(&f, (const char *const[]){"slc.cache=static", "slc.idle_fold_rate=64MiB/s", NULL});
    write_mib(&f, 32); /* fills the cache; the run then idles until folding is done */
    sim_time_t end_of_writes = f.finish[f.done - 1];
    ftl *ftl = ssd_ftl(f.d);
    for (uint32_t die = 0; die < 4; die++) cr_assert_eq(ftl_slc_closed(ftl, die), 0, "die %u still has SLC data", die);
    /* Every byte went into the cache and out again: write amplification
     * 1 + fold 1, nothing else. */
    ssdlab_stats st;
    ssd_stats(f.d, &st);
    cr_assert_float_eq(st.slc_share, 1.0, 1e-12, "SLC share %.6f", st.slc_share);
    cr_assert_float_eq(st.wa_fold, 1.0, 1e-12, "fold %.6f", st.wa_fold);
    cr_assert_float_eq(st.write_amplification, 2.0, 1e-12, "WA %.6f", st.write_amplification);
    cr_assert_eq(st.wa_rmw + st.wa_gc + st.wa_map + st.wa_pad, 0);
    /* 32 MiB at 64 MiB/s: about 0.5 s after the 10 ms idle threshold */
    double took = (double)(sim_now(f.s) - end_of_writes) * 1e-9;
    within(took, 0.5, 0.15, "idle folding time (s)");
    uint64_t first = f.done;
    write_mib(&f, 24);
    double again = (double)24 / ((double)(f.finish[first + 24 * 8 - 1] - f.finish[first + 8]) * 1e-9) * (23.0 / 24);
    within(again, slc_mib_s, 0.08, "write speed after idle folding");
    close_fill(&f);
}

/* A dynamic cache takes a share of the free flash: large on an empty drive,
 * small once the drive is nearly full. */
Test(slc, dynamic_cache_shrinks_as_the_drive_fills)
{
    fill f;
    open_fill(&f, (const char *const[]){"slc.cache=dynamic", "slc.size=64MiB", "slc.dynamic_share=10%", NULL});
    ftl *ftl = ssd_ftl(f.d);
    /* Empty die: 64 free blocks, 4 kept for GC: 10 % of 60 = 6 blocks of 1 MiB. */
    write_mib(&f, 64);
    double empty_drop = drop_point_mib(&f, 64, (slc_mib_s + native_mib_s) / 2);
    within(empty_drop, 24, 0.1, "dynamic cache on an empty drive (MiB)");
    close_fill(&f);
    open_fill(&f, (const char *const[]){"slc.cache=dynamic", "slc.size=64MiB", "slc.dynamic_share=10%", NULL});
    ssd_precondition(f.d, 0, NULL); /* full: 600 MB of 768 MiB written */
    ftl = ssd_ftl(f.d);
    /* 600 MB = 190 blocks of 3 MiB; 256 - 190 = 66 free, 16 or 17 per die:
     * 10 % of (free - 4) leaves the cache one block per die at most */
    for (uint32_t die = 0; die < 4; die++) {
        uint32_t spare = ftl_free_blocks(ftl, die) - 4;
        cr_assert_leq(spare / 10, 1, "die %u: %u spare blocks", die, spare);
    }
    write_mib(&f, 48);
    within(drop_point_mib(&f, 48, (slc_mib_s + native_mib_s) / 2), 4, 0.3, "dynamic cache on a full drive (MiB)");
    close_fill(&f);
}

/* The time series of the same fill: one row per 10 ms; its rows show the
 * SLC speed, then the native speed, and account for every byte written. */
Test(slc, time_series_shows_the_cliff)
{
    fill f;
    open_fill(&f, (const char *const[]){"slc.cache=static", "metrics.interval=10ms", NULL});
    write_mib(&f, 96);
    ssd_close_interval(f.d);
    size_t stored;
    const ssd_interval *kept = ssd_intervals(f.d, &stored);
    /* the rows tile the run: idle intervals in a row are one row */
    for (size_t i = 1; i < stored; i++) cr_assert_float_eq(kept[i].start_s, kept[i - 1].end_s, 1e-12, "row %zu", i);
    size_t n;
    ssd_interval *rows = figure_uniform_series(kept, stored, 0.01, &n);
    /* full 10 ms rows up to now, past the last completion: the drive goes
     * on folding its cache when the writes are done, and its rows show it */
    double last = (double)f.finish[f.done - 1] * 1e-9, now = (double)sim_now(f.s) * 1e-9;
    size_t last_row = (size_t)floor(last / 0.01);
    cr_assert_gt(n, last_row + 1, "%zu rows, last completion at %.4f s", n, last);
    for (size_t i = 0; i + 1 < n; i++) cr_assert_float_eq(rows[i].end_s, 0.01 * (double)(i + 1), 1e-9, "row %zu", i);
    cr_assert_float_eq(rows[n - 1].end_s, now, 1e-9);
    within(rows[2].mib_per_s, slc_mib_s, 0.08, "row 3 (SLC)");
    within(rows[last_row - 2].mib_per_s, native_mib_s, 0.08, "a late row (native)");
    cr_assert_eq(rows[last_row + 1].mib_per_s, 0, "no writes after the last");
    cr_assert_lt(rows[n - 1].slc_gib, rows[last_row].slc_gib, "the cache empties after the writes");
    double mib = 0, prev = 0;
    for (size_t i = 0; i < n; i++) {
        mib += rows[i].mib_per_s * (rows[i].end_s - prev);
        prev = rows[i].end_s;
    }
    within(mib, 96, 0.001, "MiB accounted by the rows");
    within(rows[n - 1].host_gib_written * 1024, 96, 0.001, "host data written at the end");
    cr_assert_gt(rows[0].slc_gib, 0);
    free(rows);
    close_fill(&f);
}

/* Idle time costs no rows: after the writes and the folding they start,
 * 2 s of idle at 10 ms intervals is one row, which stands for the 200
 * intervals it covers, with the drive's state at its end. */
Test(slc, idle_intervals_are_one_row)
{
    fill f;
    open_fill(&f, (const char *const[]){"metrics.interval=10ms", NULL});
    write_mib(&f, 16);
    sim_time_t idle_from = sim_now(f.s), next;
    for (ssd_metrics_tick(f.d, &next); sim_now(f.s) < idle_from + 2000000000; ssd_metrics_tick(f.d, &next)) {
        sim_run(f.s, next);
        sim_advance_to(f.s, next);
    }
    ssd_close_interval(f.d);
    size_t n;
    const ssd_interval *rows = ssd_intervals(f.d, &n);
    const ssd_interval *last = &rows[n - 1];
    cr_assert_lt(n, 60, "%zu rows for %.2f s", n, last->end_s);
    cr_assert_gt(last->end_s - last->start_s, 1.5, "the idle row spans %.3f s", last->end_s - last->start_s);
    cr_assert(last->iops == 0 && last->erases == 0 && last->gc_units == 0 && last->mib_per_s == 0);
    cr_assert_float_eq(last->host_gib_written * 1024, 16, 1e-9);
    for (size_t i = 1; i < n; i++) cr_assert_float_eq(rows[i].start_s, rows[i - 1].end_s, 1e-12, "row %zu", i);
    size_t uniform;
    ssd_interval *u = figure_uniform_series(rows, n, 0.01, &uniform);
    cr_assert_float_eq((double)uniform, last->end_s / 0.01, 1.0, "%zu intervals", uniform);
    free(u);
    close_fill(&f);
}
