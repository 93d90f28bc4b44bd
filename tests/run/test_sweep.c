/* Sweep files: expansion into points (grid, zip, repetitions, seeds, names)
 * and the errors of bad files. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"

static char path[256];

static void write_sweep(const char *text)
{
    snprintf(path, sizeof path, "/tmp/ssdlab-test-sweep-%d.yaml", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* Each test runs in a process of its own, which writes the file under its
 * own pid: remove it, whether the test passed or not. */
static void remove_sweep(void)
{
    if (path[0]) unlink(path);
}

TestSuite(sweep, .fini = remove_sweep);

static void load_ok(sweep *s, const char *text)
{
    char err[2048];
    write_sweep(text);
    cr_assert_eq(sweep_load(s, path, err, sizeof err), 0, "%s", err);
}

static void expect_sets(const sweep *s, size_t index, const char *joined, uint32_t repetition)
{
    sweep_point p;
    cr_assert_eq(sweep_point_make(s, index, &p), 0);
    char buf[1024] = "";
    for (size_t i = 0; i < p.set_count; i++) {
        if (i) strcat(buf, " ");
        strcat(buf, p.sets[i]);
    }
    cr_assert_str_eq(buf, joined, "point %zu", index);
    cr_assert_eq(p.repetition, repetition, "point %zu: repetition %u", index, p.repetition);
    sweep_point_free(&p);
}

static const char grid_zip_reps[] =
    "sweep:\n"
    "  drive: example-sata-480\n"
    "  repetitions: 2\n"
    "  seed: 40\n"
    "grid:\n"
    "  ftl.spare: [7%, 28%]\n"
    "  ftl.gc.policy: [greedy, fifo, random]\n"
    "zip:\n"
    "  drive.channels: [2, 8]\n"
    "  drive.dies_per_channel: [4, 1]\n";

Test(sweep, grid_times_zip_times_repetitions_in_a_fixed_order)
{
    sweep s;
    load_ok(&s, grid_zip_reps);
    cr_assert_eq(sweep_point_count(&s), 2 * 3 * 2 * 2);
    /* repetitions turn fastest, then the zipped choice, then the grid's last key */
    expect_sets(&s, 0, "ftl.spare=7% ftl.gc.policy=greedy drive.channels=2 drive.dies_per_channel=4", 0);
    expect_sets(&s, 1, "ftl.spare=7% ftl.gc.policy=greedy drive.channels=2 drive.dies_per_channel=4", 1);
    expect_sets(&s, 2, "ftl.spare=7% ftl.gc.policy=greedy drive.channels=8 drive.dies_per_channel=1", 0);
    expect_sets(&s, 4, "ftl.spare=7% ftl.gc.policy=fifo drive.channels=2 drive.dies_per_channel=4", 0);
    expect_sets(&s, 12, "ftl.spare=28% ftl.gc.policy=greedy drive.channels=2 drive.dies_per_channel=4", 0);
    expect_sets(&s, 23, "ftl.spare=28% ftl.gc.policy=random drive.channels=8 drive.dies_per_channel=1", 1);
    cr_assert_eq(sweep_seed(s.seed, 0), 40);
    cr_assert_eq(sweep_seed(s.seed, 1), 41);
    sweep_free(&s);
}

Test(sweep, every_point_is_distinct_and_named_by_its_overrides)
{
    sweep s;
    load_ok(&s, grid_zip_reps);
    size_t n = sweep_point_count(&s);
    char names[24][32];
    for (size_t i = 0; i < n; i++) {
        sweep_point p;
        cr_assert_eq(sweep_point_make(&s, i, &p), 0);
        snprintf(names[i], sizeof names[i], "%s", p.name);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "p%04zu-", i);
        cr_assert_eq(strncmp(p.name, prefix, 6), 0, "%s", p.name);
        for (size_t j = 0; j < i; j++) cr_assert_str_neq(names[i] + 6, names[j] + 6, "points %zu and %zu share a hash", i, j);
        sweep_point_free(&p);
    }
    sweep_free(&s);
    /* the same file gives the same names; another value of a key, another */
    sweep t;
    load_ok(&t, grid_zip_reps);
    sweep_point p;
    sweep_point_make(&t, 5, &p);
    cr_assert_str_eq(p.name, names[5]);
    sweep_point_free(&p);
    sweep_free(&t);
    char edited[sizeof grid_zip_reps + 8];
    snprintf(edited, sizeof edited, "%s", grid_zip_reps);
    memcpy(strstr(edited, "28%"), "29%", 3);
    load_ok(&t, edited);
    sweep_point_make(&t, 12, &p);
    cr_assert_str_neq(p.name, names[12]);
    cr_assert_eq(strncmp(p.name, names[12], 6), 0);
    sweep_point_free(&p);
    sweep_point_make(&t, 0, &p);
    cr_assert_str_eq(p.name, names[0]);
    sweep_point_free(&p);
    sweep_free(&t);
}

Test(sweep, defaults_one_point_no_seed_output_under_results)
{
    sweep s;
    load_ok(&s, "sweep:\n  drive: example-sata-480\n  workload: w.yaml\n  set: sim.seed=3\n");
    cr_assert_eq(sweep_point_count(&s), 1);
    cr_assert_not(s.has_seed);
    cr_assert_eq(s.set_count, 1);
    cr_assert_str_eq(s.sets[0], "sim.seed=3");
    char expected[300];
    const char *base = strrchr(path, '/') + 1;
    snprintf(expected, sizeof expected, "results/sweeps/%.*s", (int)(strlen(base) - 5), base);
    cr_assert_str_eq(s.output, expected);
    expect_sets(&s, 0, "", 0);
    sweep_free(&s);
}

static void expect_errors(const char *text, const char *const *fragments, int count)
{
    sweep s;
    char err[4096];
    write_sweep(text);
    cr_assert_eq(sweep_load(&s, path, err, sizeof err), -1, "accepted:\n%s", text);
    for (int i = 0; i < count; i++) cr_assert_not_null(strstr(err, fragments[i]), "'%s' not in:\n%s", fragments[i], err);
    sweep_free(&s);
}

Test(sweep, bad_files_report_every_problem_with_line_and_key)
{
    const char *unequal[] = {":9: key 'drive.dies_per_channel': 3 values, but 'drive.channels' has 2"};
    expect_errors("sweep:\n  drive: d\ngrid:\n  ftl.spare: [7%]\n"
                  "\n\n\nzip:\n  drive.channels: [2, 8]\n  drive.dies_per_channel: [4, 1, 2]\n",
                  unequal, 1);
    const char *several[] = {":2: key 'sweep.repetitions': 'zero': expected a whole number from 1",
                             ":3: key 'colour': not a sweep setting", ":5: key 'grid.ftl.spare': expected a list of values",
                             ":6: key 'grid.nodots': expected a configuration key",
                             "key 'sweep.drive': missing"};
    expect_errors("sweep:\n  repetitions: zero\n  colour: red\ngrid:\n  ftl.spare: 7%\n  nodots: [1]\n", several, 5);
    const char *both[] = {"key 'ftl.spare': in both grid and zip"};
    expect_errors("sweep: {drive: d}\ngrid: {ftl.spare: [1%, 2%]}\nzip: {ftl.spare: [3%, 4%]}\n", both, 1);
    const char *section[] = {":2: key 'points': not a section of a sweep file"};
    expect_errors("sweep: {drive: d}\npoints: {}\n", section, 1);
    const char *negative[] = {":2: key 'sweep.seed': '-bQe': expected a whole number", ":3: key 'sweep.repetitions': '-2': expected"};
    expect_errors("sweep:\n  seed: -bQe\n  repetitions: -2\n  drive: d\n", negative, 2);
    const char *twice[] = {":3: key 'sweep.seed': given twice", ":6: key 'grid': given twice"};
    expect_errors("sweep:\n  seed: 1\n  seed: 2\n  drive: d\ngrid: {ftl.spare: [1%]}\ngrid: {ftl.spare: [2%]}\n", twice, 2);
    const char *syntax[] = {"not valid YAML"};
    expect_errors("sweep: [\n", syntax, 1);
}
