/* The result file read back through the HDF5 C API: every dataset and
 * attribute the writer produces must hold exactly what the run had in
 * memory. A small drive with an SLC cache runs a fill, a random mix and a
 * read phase, with every request recorded. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "results.h"
#include "results_types.h"
#include "sim_config.h"
#include "ssd.h"
#include "workload.h"

static const char *const base[] = {
    "controller.channels=2", "controller.dies_per_channel=2", "nand.planes_per_die=2", "nand.pages_per_block=96",
    "nand.blocks_per_plane=64", "nand.page_size=16KiB", "nand.spare_size=2KiB", "nand.bits_per_cell=3",
    "drive.user_capacity=600MB", "slc.cache=static", "slc.size=32MiB", "metrics.interval=2ms",
    "workload.precondition=none", "workload.queue_depth=8", "sim.seed=7"};

/* What the observers saw, kept in memory to compare with the file. */
typedef struct seen {
    results_writer *w;
    ssd_interval rows[4096];
    size_t nrows;
    request_record *reqs;
    size_t nreqs, cap;
    phase_summary phases[3];
    double *hist[3][2];
} seen;

static void on_interval(void *ctx, const ssd_interval *row)
{
    seen *s = ctx;
    cr_assert_lt(s->nrows, 4096);
    s->rows[s->nrows++] = *row;
    results_interval(s->w, row);
}

static void on_request(void *ctx, const ssdlab_request *r)
{
    seen *s = ctx;
    if (s->nreqs == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4096;
        s->reqs = realloc(s->reqs, s->cap * sizeof *s->reqs);
    }
    s->reqs[s->nreqs++] = (request_record){r->id, r->arrival, r->start, r->finish, (uint8_t)r->op, r->offset / 512, r->bytes,
                                           r->finish - r->arrival};
    results_request(s->w, r);
}

static hsize_t rows_of(hid_t ds)
{
    hid_t space = H5Dget_space(ds);
    hsize_t dims[2] = {0, 0};
    H5Sget_simple_extent_dims(space, dims, NULL);
    H5Sclose(space);
    return dims[0];
}

/* Reads a whole dataset of `type` (allocated), checking its row count. */
static void *read_all(hid_t file, const char *name, hid_t type, size_t rows, size_t row_size)
{
    hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
    cr_assert_gt(ds, 0, "dataset %s", name);
    cr_assert_eq(rows_of(ds), rows, "%s: %llu rows, expected %zu", name, (unsigned long long)rows_of(ds), rows);
    void *buf = calloc(rows ? rows : 1, row_size);
    cr_assert_geq(H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf), 0, "%s", name);
    H5Dclose(ds);
    return buf;
}

static char *read_attr(hid_t g, const char *name)
{
    hid_t a = H5Aopen(g, name, H5P_DEFAULT);
    cr_assert_gt(a, 0, "attribute %s", name);
    hid_t t = H5Aget_type(a);
    char *v = NULL;
    cr_assert_geq(H5Aread(a, t, &v), 0);
    char *copy = strdup(v);
    H5free_memory(v);
    H5Tclose(t);
    H5Aclose(a);
    return copy;
}

static void check_meta(hid_t file)
{
    hid_t g = H5Gopen2(file, "/meta", H5P_DEFAULT);
    cr_assert_gt(g, 0);
    char *status = read_attr(g, "status"), *config = read_attr(g, "configuration"), *line = read_attr(g, "command_line");
    cr_assert_str_eq(status, "complete");
    cr_assert_str_eq(config, "drive: {}\n");
    cr_assert_str_eq(line, "test");
    uint64_t seed = 0;
    int format = 0;
    hid_t a = H5Aopen(g, "seed", H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_UINT64, &seed);
    H5Aclose(a);
    a = H5Aopen(g, "format_version", H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_INT, &format);
    H5Aclose(a);
    cr_assert_eq(seed, 7);
    cr_assert_eq(format, RESULTS_FORMAT_VERSION);
    free(status);
    free(config);
    free(line);
    H5Gclose(g);
}

/* Every key with its value; and per phase, just the keys it changed. */
static void check_parameters(hid_t file, const cfg *c)
{
    size_t n = cfg_key_count(c);
    hid_t t = results_parameter_type(false);
    parameter_row *rows = read_all(file, "/meta/parameters", t, n, sizeof *rows);
    H5Tclose(t);
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        char text[CFG_TEXT_MAX];
        double number;
        cr_assert_str_eq(rows[i].key, cfg_entry_value(c, i, text, sizeof text, &number));
        cr_assert_str_eq(rows[i].value, text);
        cr_assert(isnan(number) ? isnan(rows[i].number) : rows[i].number == number, "%s", rows[i].key);
        if (!strcmp(rows[i].key, "slc.size")) {
            cr_assert_str_eq(rows[i].value, "32MiB");
            cr_assert_eq(rows[i].number, 32 << 20);
            found++;
        }
    }
    cr_assert_eq(found, 1);
    free(rows);
    static const struct { uint32_t phase; const char *key, *value; double number; } want[] = {
        {0, "workload.block_size", "128KiB", 131072}, {0, "workload.name", "\"fill\"", NAN}, {0, "workload.phase", "fill", NAN},
        {1, "workload.name", "\"mix\"", NAN},        {1, "workload.read_share", "0.5", 0.5}, {1, "workload.requests", "20000", 20000},
        {2, "workload.name", "\"read\"", NAN},       {2, "workload.requests", "20000", 20000},
    };
    t = results_parameter_type(true);
    rows = read_all(file, "/meta/phase_parameters", t, 8, sizeof *rows);
    H5Tclose(t);
    for (size_t i = 0; i < 8; i++) {
        cr_assert(rows[i].phase == want[i].phase && !strcmp(rows[i].key, want[i].key) && !strcmp(rows[i].value, want[i].value),
                  "row %zu: phase %u %s = %s", i, rows[i].phase, rows[i].key, rows[i].value);
        cr_assert(isnan(want[i].number) ? isnan(rows[i].number) : rows[i].number == want[i].number, "%s", rows[i].key);
    }
    free(rows);
}

static void check_summary(hid_t file, const seen *s)
{
    phase_summary *rows = NULL;
    size_t n = 0;
    char status[32];
    cr_assert_eq(results_read_summary("results-readback.h5", &rows, &n, status, sizeof status), 0);
    cr_assert_eq(n, 3);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(memcmp(&rows[i], &s->phases[i], sizeof rows[i]), 0, "summary row %zu differs", i);
    /* the SLC cache took the fill's first 32 MiB, and the reads found some of it there */
    cr_assert_eq(rows[0].slc_bytes_written, 32 << 20, "%llu", (unsigned long long)rows[0].slc_bytes_written);
    cr_assert_gt(rows[2].slc_bytes_read, 0);
    cr_assert_lt(rows[2].slc_bytes_read, rows[2].bytes_read);
    free(rows);
    (void)file;
}

static void check_histograms(hid_t file, const seen *s, size_t bins)
{
    const char *names[2] = {"/histograms/read_counts", "/histograms/write_counts"};
    for (int op = 0; op < 2; op++) {
        hid_t ds = H5Dopen2(file, names[op], H5P_DEFAULT);
        hid_t space = H5Dget_space(ds);
        hsize_t dims[2];
        cr_assert_eq(H5Sget_simple_extent_ndims(space), 2);
        H5Sget_simple_extent_dims(space, dims, NULL);
        cr_assert(dims[0] == 3 && dims[1] == bins, "%s: %llu x %llu", names[op], (unsigned long long)dims[0],
                  (unsigned long long)dims[1]);
        double *counts = malloc(3 * bins * sizeof *counts);
        H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, counts);
        for (int p = 0; p < 3; p++) {
            double total = 0;
            for (size_t b = 0; b < bins; b++) total += counts[p * bins + b];
            cr_assert_eq(memcmp(counts + p * bins, s->hist[p][op], bins * sizeof *counts), 0, "%s phase %d", names[op], p);
            cr_assert_eq(total, op ? (double)s->phases[p].writes : (double)s->phases[p].reads, "%s phase %d total", names[op], p);
        }
        free(counts);
        H5Sclose(space);
        H5Dclose(ds);
    }
}

static void check_nand(hid_t file, const ssd *d)
{
    const ssd_params *p = ssd_params_of(d);
    hid_t t = results_die_type();
    ssd_die_counts *dies = read_all(file, "/nand/dies", t, p->dies, sizeof *dies);
    H5Tclose(t);
    for (uint32_t i = 0; i < p->dies; i++) {
        ssd_die_counts want;
        ssd_die_stats(d, i, &want);
        cr_assert_eq(memcmp(&dies[i], &want, sizeof want), 0, "die %u", i);
    }
    uint64_t *hist = read_all(file, "/nand/erase_count_histogram", H5T_NATIVE_UINT64, 1024, sizeof *hist);
    uint64_t want[1024];
    ssd_erase_histogram(d, want, 1024);
    cr_assert_eq(memcmp(hist, want, sizeof want), 0);
    free(dies);
    free(hist);
}

static const char *const phases[3][4] = {
    {"workload.phase=fill", "workload.name=fill", "workload.block_size=128KiB", NULL},
    {"workload.name=mix", "workload.read_share=50%", "workload.requests=20000", NULL},
    {"workload.name=read", "workload.requests=20000", NULL, NULL},
};

Test(results, every_dataset_reads_back_as_the_run_had_it)
{
    cfg *c = cfg_create(ssdlab_schema());
    for (size_t i = 0; i < sizeof base / sizeof *base; i++) cfg_set_override(c, base[i]);
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    sim_options o = sim_options_from_config(c);
    sim *sm = sim_create(&o);
    char err[512];
    ssd *d = ssd_create(sm, c, err, sizeof err);
    cr_assert_not_null(d, "%s", err);
    static seen s;
    memset(&s, 0, sizeof s);
    s.w = results_open("results-readback.h5", true, err, sizeof err);
    cr_assert_not_null(s.w, "%s", err);
    ssd_observe(d, &(ssd_observers){.interval = on_interval, .request = on_request, .ctx = &s});
    size_t bins = ssd_latency_histogram(d, SSDLAB_READ)->n;
    for (int p = 0; p < 3; p++) {
        cfg *pc = cfg_create(ssdlab_schema());
        for (size_t i = 0; i < sizeof base / sizeof *base; i++) cfg_set_override(pc, base[i]);
        for (const char *const *k = phases[p]; *k; k++) cfg_set_override(pc, *k);
        workload *w = workload_create(sm, d, pc, err, sizeof err);
        cr_assert_not_null(w, "%s", err);
        workload_result r;
        sim_time_t start = sim_now(sm);
        cr_assert_eq(workload_run(w, &r, err, sizeof err), 0, "%s", err);
        results_phase_row(d, &s.phases[p], cfg_str(pc, "workload.name"), cfg_str(pc, "workload.phase"), sim_time_to_sec(start),
                          r.seconds, 0.25 * p);
        for (int op = 0; op < 2; op++) {
            const gsl_histogram *h = ssd_latency_histogram(d, op ? SSDLAB_WRITE : SSDLAB_READ);
            s.hist[p][op] = malloc(bins * sizeof(double));
            memcpy(s.hist[p][op], h->bin, bins * sizeof(double));
        }
        results_add_phase(s.w, d, &s.phases[p], pc, c);
        workload_free(w);
        cfg_free(pc);
    }
    ssd_close_interval(d);
    results_meta meta = {.command_line = "test", .config_yaml = "drive: {}\n", .config = c, .status = "complete", .seed = 7};
    cr_assert_eq(results_finish(s.w, &meta, d, err, sizeof err), 0, "%s", err);
    cr_assert_eq(access("results-readback.h5.tmp", F_OK), -1);

    hid_t file = H5Fopen("results-readback.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
    cr_assert_gt(file, 0);
    check_meta(file);
    check_parameters(file, c);
    check_summary(file, &s);
    hid_t t = results_interval_type();
    ssd_interval *rows = read_all(file, "/timeseries", t, s.nrows, sizeof *rows);
    H5Tclose(t);
    cr_assert_gt(s.nrows, 10);
    cr_assert_eq(memcmp(rows, s.rows, s.nrows * sizeof *rows), 0, "time series differs");
    t = results_request_type();
    request_record *reqs = read_all(file, "/requests", t, s.nreqs, sizeof *reqs);
    H5Tclose(t);
    uint64_t total = s.phases[0].requests + s.phases[1].requests + s.phases[2].requests;
    cr_assert_eq(s.nreqs, total, "%zu requests recorded, %llu run", s.nreqs, (unsigned long long)total);
    for (size_t i = 0; i < s.nreqs; i++)
        cr_assert_eq(memcmp(&reqs[i], &s.reqs[i], offsetof(request_record, op) + 1), 0, "request %zu", i);
    double *edges = read_all(file, "/histograms/bin_edges_ns", H5T_NATIVE_DOUBLE, bins + 1, sizeof *edges);
    cr_assert_eq(memcmp(edges, ssd_latency_histogram(d, SSDLAB_READ)->range, (bins + 1) * sizeof *edges), 0);
    check_histograms(file, &s, bins);
    check_nand(file, d);
    H5Fclose(file);
    unlink("results-readback.h5");
    for (int p = 0; p < 3; p++) free(s.hist[p][0]), free(s.hist[p][1]);
    free(rows);
    free(reqs);
    free(edges);
    free(s.reqs);
    ssd_free(d);
    sim_free(sm);
    cfg_free(c);
}
