/* Figures of merit on hand-made results with known answers, the checks of
 * a target, and the bundled targets file: every target names a preset, a
 * test and a phase that exist. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "figures.h"
#include "validation.h"

/* An idle phase of 10 s, then a fill phase: 10 s at 500 MiB/s, then 20 s
 * at 100 MiB/s; 1 s intervals. Reads run at 200 MiB/s but stop for 3 s. */
typedef struct made {
    phase_summary phases[2];
    ssd_interval rows[40];
    figure_input in;
} made;

/* The host GiB written, which the rows accumulate from their speeds. */
static void recount_written(made *m)
{
    double gib = 0;
    for (int i = 0; i < 40; i++) {
        gib += m->rows[i].write_mib_per_s / 1024.0;
        m->rows[i].host_gib_written = gib;
    }
}

static void set_write_speed(made *m, int row, double mib_per_s)
{
    m->rows[row].write_mib_per_s = mib_per_s;
    recount_written(m);
}

static void make(made *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->phases[0].name, sizeof m->phases[0].name, "idle");
    m->phases[0].sim_time_s = 10;
    snprintf(m->phases[1].name, sizeof m->phases[1].name, "fill");
    m->phases[1].start_s = 10;
    m->phases[1].sim_time_s = 30;
    m->phases[1].bytes_written = (uint64_t)(10 * 500 + 20 * 100) << 20;
    for (int i = 0; i < 40; i++) {
        ssd_interval *r = &m->rows[i];
        r->end_s = i + 1;
        r->write_mib_per_s = i < 10 ? 0 : i < 20 ? 500 : 100;
        r->read_mib_per_s = i >= 25 && i < 28 ? 0 : 200;
        r->read_mean_latency_us = i == 28 ? 45000 : 300;
        r->slc_gib = fmax(0.5, 4 - 0.25 * fmax(0, i - 10));
    }
    m->in = (figure_input){m->phases, 2, m->rows, 40};
    recount_written(m);
}

static double fig(const made *m, const char *name, const char *phase)
{
    double v = NAN;
    char err[256];
    cr_assert_eq(figure_compute(&m->in, name, phase, &v, err, sizeof err), 0, "%s: %s", name, err);
    return v;
}

Test(figures, cliff_of_a_fill)
{
    made m;
    make(&m);
    cr_assert_float_eq(fig(&m, "full_speed_gib", "fill"), 10 * 500 / 1024.0, 1e-9);
    cr_assert_float_eq(fig(&m, "cache_mib_s", "fill"), 500, 1e-9);
    cr_assert_float_eq(fig(&m, "after_cliff_mib_s", "fill"), 100, 1e-9);
    cr_assert_float_eq(fig(&m, "cliff_drop", "fill"), 5, 1e-9);
    cr_assert_float_eq(fig(&m, "after_cliff_60s_mib_s", "fill"), 100, 1e-9, "fewer than 60 s left: the rest");
    cr_assert_float_eq(fig(&m, "written_gib", "fill"), (10 * 500 + 20 * 100) / 1024.0, 1e-9);
    cr_assert_float_eq(fig(&m, "write_mib_s", "fill"), (10 * 500 + 20 * 100) / 30.0, 1e-9);
    /* a single 30 s window covers the whole phase */
    cr_assert_float_eq(fig(&m, "floor_mib_s", "fill"), (10 * 500 + 20 * 100) / 30.0, 1e-9);
}

/* A phase rarely starts on an interval's edge: its first interval holds
 * part of a second, and must not count as the speed at the start. */
Test(figures, partial_first_interval)
{
    made m;
    make(&m);
    set_write_speed(&m, 10, 150);
    cr_assert_float_eq(fig(&m, "cache_mib_s", "fill"), 500, 1e-9);
    cr_assert_float_eq(fig(&m, "full_speed_gib", "fill"), (150 + 9 * 500) / 1024.0, 1e-9);
    cr_assert_float_eq(fig(&m, "cliff_drop", "fill"), 5, 1e-9);
}

/* The cache runs out 0.25 s into an interval: that interval averages
 * 0.25 x 500 + 0.75 x 100 = 200 MiB/s, and a quarter of a second at 500
 * MiB/s counts as written at full speed. */
Test(figures, cliff_inside_an_interval)
{
    made m;
    make(&m);
    set_write_speed(&m, 20, 200);
    cr_assert_float_eq(fig(&m, "full_speed_gib", "fill"), (10 * 500 + 0.25 * 500) / 1024.0, 1e-9);
}

Test(figures, reads_around_a_stall)
{
    made m;
    make(&m);
    cr_assert_float_eq(fig(&m, "stall_s", "fill"), 3, 1e-9, "three intervals below a tenth of the median");
    cr_assert_float_eq(fig(&m, "read_dip", "fill"), 0, 1e-9);
    cr_assert_float_eq(fig(&m, "max_read_latency_ms", "fill"), 45, 1e-9);
    /* the cache shrinks by 0.25 GiB a second from 4 GiB (at 10 s) and bottoms
     * out at 0.5 GiB in the interval ending at 25 s, 15 s into the phase */
    cr_assert_float_eq(fig(&m, "fold_s", "fill"), 15, 1e-9);
}

/* The phase's first and last intervals may be cut short by its bounds: a
 * read phase that starts 0.02 s before an interval ends reads at a few
 * MiB/s in it (P10 did: 8 MiB/s, and its dip fell from 0.52 to 0.25).
 * Neither counts toward the dip or the stall. */
Test(figures, reads_leave_out_the_cut_intervals)
{
    made m;
    make(&m);
    for (int i = 25; i < 28; i++) m.rows[i].read_mib_per_s = 100; /* halved for 3 s: the dip is 0.5 */
    m.rows[10].read_mib_per_s = 4;
    m.rows[39].read_mib_per_s = 4;
    cr_assert_float_eq(fig(&m, "read_dip", "fill"), 0.5, 1e-9);
    cr_assert_float_eq(fig(&m, "stall_s", "fill"), 0, 1e-9);
}

/* IOPS of 1 s intervals: 3000 everywhere but one interval of 150 and one of
 * 40,000 inside the phase; the phase's first and last intervals (which may
 * be cut short) hold 10 and 90,000 and must not count. */
Test(figures, iops_swing)
{
    made m;
    make(&m);
    for (int i = 0; i < 40; i++) m.rows[i].iops = 3000;
    m.rows[10].iops = 10;
    m.rows[39].iops = 90000;
    m.rows[17].iops = 150;
    m.rows[31].iops = 40000;
    cr_assert_float_eq(fig(&m, "min_iops", "fill"), 150, 1e-9);
    cr_assert_float_eq(fig(&m, "max_iops", "fill"), 40000, 1e-9);
}

Test(figures, errors_name_what_is_missing)
{
    made m;
    make(&m);
    double v;
    char err[256];
    cr_assert_eq(figure_compute(&m.in, "mib_s", "no such phase", &v, err, sizeof err), -1);
    cr_assert_str_eq(err, "no phase named 'no such phase' in the result");
    for (int i = 0; i < 40; i++) m.rows[i].write_mib_per_s = 300;
    cr_assert_eq(figure_compute(&m.in, "full_speed_gib", "fill", &v, err, sizeof err), -1);
    cr_assert(strstr(err, "never falls below 60 %"), "%s", err);
    cr_assert_eq(figure_compute(&m.in, "bogus", "fill", &v, err, sizeof err), -1);
}

Test(validation, checks)
{
    target t = {.check = CHECK_RELATIVE, .measured = 110, .tolerance = 0.15};
    double e;
    cr_assert(target_passes(&t, 126, &e));
    cr_assert_float_eq(e, 16.0 / 110, 1e-12);
    cr_assert_not(target_passes(&t, 127, &e));
    cr_assert_not(target_passes(&t, NAN, &e));
    t = (target){.check = CHECK_BELOW, .measured = 40};
    cr_assert(target_passes(&t, 39.9, &e) && !target_passes(&t, 40, &e) && isnan(e));
    t = (target){.check = CHECK_ABOVE, .measured = 5.6};
    cr_assert(target_passes(&t, 5.7, &e) && !target_passes(&t, 5.6, &e));
    t = (target){.check = CHECK_RANGE, .low = 765, .high = 1150};
    cr_assert(target_passes(&t, 765, &e) && target_passes(&t, 1150, &e) && !target_passes(&t, 1151, &e));
    /* a rating is a maximum: 66,000 IOPS passes from 49,500 to 72,600 */
    t = (target){.check = CHECK_RATING, .measured = 66000};
    cr_assert(target_passes(&t, 72600, &e) && target_passes(&t, 49500, &e));
    cr_assert_float_eq(e, -0.25, 1e-12);
    cr_assert(!target_passes(&t, 72700, &e) && !target_passes(&t, 49400, &e));
}

/* Every figure a targets file may name is one figure_compute knows, and
 * every figure it knows can be named. */
Test(validation, figure_names_match_the_key)
{
    char path[] = "/tmp/ssdlab-targets-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    size_t n = 0;
    for (const char *const *name = figure_names; *name; name++, n++) {
        FILE *f = fopen(path, "w");
        fprintf(f, "targets:\n  - {drive: d, test: P1, phase: p, figure: %s}\n", *name);
        fclose(f);
        target_list t;
        cr_assert_eq(targets_load(&t, path), 0, "figure %s", *name);
        cr_assert_str_eq(t.targets[0].figure, *name);
        targets_free(&t);
    }
    cr_assert_eq(n, 18);
    FILE *f = fopen(path, "w");
    fputs("targets:\n  - {drive: d, test: P1, phase: p, figure: bogus}\n", f);
    fclose(f);
    target_list t;
    cr_assert_eq(targets_load(&t, path), -1);
    unlink(path);
}

/* The phase names of a test file, read as the workload loader reads them. */
static bool test_has_phase(const char *test, const char *phase)
{
    char path[512];
    snprintf(path, sizeof path, "%s/experiments/review/%s.yaml", SOURCE_DIR, test);
    cfg *c = cfg_create(ssdlab_schema());
    cfg **items = NULL;
    size_t n = 0;
    cfg_load_file_with_list(c, path, "phases", "workload", &items, &n);
    cr_assert_eq(cfg_error_count(c), 0, "%s: %s", path, cfg_errors(c));
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        found |= !strcmp(cfg_str(items[i], "workload.name"), phase);
        cfg_free(items[i]);
    }
    free(items);
    cfg_free(c);
    return found;
}

Test(validation, bundled_targets_name_real_presets_tests_and_phases)
{
    target_list t;
    cr_assert_eq(targets_load(&t, SOURCE_DIR "/experiments/validation/targets.yaml"), 0);
    cr_assert_geq(t.count, 25);
    for (size_t i = 0; i < t.count; i++) {
        const target *g = &t.targets[i];
        char path[512];
        snprintf(path, sizeof path, "%s/models/drives/%s.yaml", SOURCE_DIR, g->drive);
        cr_assert_eq(access(path, R_OK), 0, "target %zu: no preset %s", i + 1, path);
        cr_assert(test_has_phase(g->test, g->phase), "target %zu: %s has no phase '%s'", i + 1, g->test, g->phase);
        cr_assert(g->label[0] && g->source[0] && g->unit[0], "target %zu: label, unit and source", i + 1);
        cr_assert(g->check == CHECK_RANGE ? g->low < g->high : g->measured > 0, "target %zu: its values", i + 1);
        cr_assert(g->check != CHECK_RELATIVE || g->tolerance > 0, "target %zu: a tolerance", i + 1);
    }
    targets_free(&t);
}

/* A row that merges idle intervals (2 s to 5.5 s at 1 s intervals: three
 * whole ones and a half) becomes one row per interval again, with the ends
 * the unmerged rows had; the others stay as they are. */
Test(figures, merged_idle_rows_spread_back)
{
    ssd_interval rows[3] = {{.start_s = 1, .end_s = 2, .iops = 10, .free_blocks = 7},
                            {.start_s = 2, .end_s = 5.5, .free_blocks = 7, .slc_gib = 1.5},
                            {.start_s = 5.5, .end_s = 6.5, .iops = 20}};
    size_t n;
    ssd_interval *u = figure_uniform_series(rows, 3, 1.0, &n);
    cr_assert_eq(n, 6);
    static const double ends[6] = {2, 3, 4, 5, 5.5, 6.5};
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(u[i].end_s, ends[i], "row %zu: %g", i, u[i].end_s);
        if (i) cr_assert_eq(u[i].start_s, u[i - 1].end_s, "row %zu", i);
    }
    for (size_t i = 1; i <= 4; i++) cr_assert(u[i].iops == 0 && u[i].free_blocks == 7 && u[i].slc_gib == 1.5);
    cr_assert_eq(u[5].iops, 20);
    free(u);
}
