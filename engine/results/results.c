#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "flash.h"
#include "results_placement.h"
#include "results_types.h"
#include "ssdlab_version.h"

void results_phase_row(const ssd *d, phase_summary *row, const char *name, const char *kind, double start_s, double sim_s,
                       double wall_s)
{
    ssdlab_stats st;
    ssd_stats(d, &st);
    memset(row, 0, sizeof *row);
    snprintf(row->name, sizeof row->name, "%s", name);
    snprintf(row->kind, sizeof row->kind, "%s", kind);
    row->reads = st.completed[SSDLAB_READ];
    row->writes = st.completed[SSDLAB_WRITE];
    row->trims = st.completed[SSDLAB_TRIM];
    row->requests = row->reads + row->writes + row->trims;
    row->bytes_read = st.bytes[SSDLAB_READ];
    row->bytes_written = st.bytes[SSDLAB_WRITE];
    row->iops = sim_s > 0 ? (double)row->requests / sim_s : 0;
    row->mib_per_s = sim_s > 0 ? (double)(row->bytes_read + row->bytes_written) / sim_s / 1048576.0 : 0;
    static const double qs[] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
    for (int op = 0; op < 2; op++) {
        ssdlab_op which = op ? SSDLAB_WRITE : SSDLAB_READ;
        double *lat = op ? row->write_lat_us : row->read_lat_us;
        uint64_t n = st.completed[which];
        lat[LAT_MEAN] = n ? st.latency_sum_ns[which] / (double)n / 1000 : NAN;
        for (int i = 0; i < 6; i++) lat[LAT_P50 + i] = n ? ssd_latency_quantile(d, which, qs[i]) / 1000 : NAN;
    }
    row->write_amplification = st.write_amplification;
    row->wa_rmw = st.wa_rmw;
    row->wa_fold = st.wa_fold;
    row->wa_gc = st.wa_gc;
    row->wa_map = st.wa_map;
    row->wa_pad = st.wa_pad;
    row->slc_share = st.slc_share;
    row->gc_units = st.gc_units_written;
    row->erases = st.erases;
    row->slc_bytes_written = st.slc_units_written * ssd_params_of(d)->unit;
    row->slc_bytes_read = st.slc_units_read * ssd_params_of(d)->unit;
    row->busy_s = st.busy_s;
    uint64_t rw = row->reads + row->writes;
    row->busy_mib_s = st.busy_s > 0 ? (double)(row->bytes_read + row->bytes_written) / st.busy_s / 1048576.0 : NAN;
    row->access_time_us = rw ? (st.latency_sum_ns[SSDLAB_READ] + st.latency_sum_ns[SSDLAB_WRITE]) / (double)rw / 1000 : NAN;
    row->start_s = start_s;
    row->sim_time_s = sim_s;
    row->wall_time_s = wall_s;
}

/* --- small HDF5 helpers (each returns < 0 on failure) ---------------------- */

herr_t results_attr_string(hid_t on, const char *name, const char *value)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(on, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, type, &value);
    if (a >= 0) H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
    return rc;
}

static herr_t attr_number(hid_t on, const char *name, hid_t type, const void *value)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(on, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, type, value);
    if (a >= 0) H5Aclose(a);
    H5Sclose(space);
    return rc;
}

/* A 1-D dataset of `count` records, written whole, chunked and compressed. */
herr_t results_write_table(hid_t group, const char *name, hid_t type, size_t count, const void *rows, const char *units)
{
    hsize_t dims[1] = {count}, chunk[1] = {count ? (count < 4096 ? count : 4096) : 1};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
    if (count) {
        H5Pset_chunk(plist, 1, chunk);
        H5Pset_deflate(plist, 4);
    }
    hid_t ds = H5Dcreate2(group, name, type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
    herr_t rc = ds < 0 ? -1 : (count ? H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) : 0);
    if (rc >= 0 && units) rc = results_attr_string(ds, "units", units);
    if (ds >= 0) H5Dclose(ds);
    H5Pclose(plist);
    H5Sclose(space);
    return rc;
}

/* --- streamed tables --------------------------------------------------------
 * A table is an extensible dataset of `width` elements per row (width 1:
 * a 1-D table of records) fed through a buffer of `cap` rows, which is
 * also its chunk. */

typedef struct table {
    hid_t ds, type;
    size_t row_size, width, cap, used;
    hsize_t rows; /* in the file */
    unsigned char *buf;
} table;

static int table_create(table *t, hid_t parent, const char *name, hid_t type, size_t width, size_t cap, const char *units)
{
    memset(t, 0, sizeof *t);
    t->ds = t->type = H5I_INVALID_HID;
    t->width = width;
    t->row_size = H5Tget_size(type) * width;
    t->cap = cap;
    if (!(t->buf = malloc(cap * t->row_size))) return -1;
    t->type = H5Tcopy(type);
    int rank = width > 1 ? 2 : 1;
    hsize_t dims[2] = {0, width}, max[2] = {H5S_UNLIMITED, width}, chunk[2] = {cap, width};
    hid_t space = H5Screate_simple(rank, dims, max);
    hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(plist, rank, chunk);
    H5Pset_deflate(plist, 4);
    t->ds = H5Dcreate2(parent, name, type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
    H5Pclose(plist);
    H5Sclose(space);
    if (t->ds < 0) return -1;
    return units ? results_attr_string(t->ds, "units", units) : 0;
}

static int table_flush(table *t)
{
    if (!t->used) return 0;
    int rank = t->width > 1 ? 2 : 1;
    hsize_t size[2] = {t->rows + t->used, t->width}, start[2] = {t->rows, 0}, count[2] = {t->used, t->width};
    int rc = -1;
    if (H5Dset_extent(t->ds, size) >= 0) {
        hid_t file_space = H5Dget_space(t->ds), mem_space = H5Screate_simple(rank, count, NULL);
        if (H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
            H5Dwrite(t->ds, t->type, mem_space, file_space, H5P_DEFAULT, t->buf) >= 0)
            rc = 0;
        H5Sclose(mem_space);
        H5Sclose(file_space);
    }
    t->rows += t->used;
    t->used = 0;
    return rc;
}

static int table_append(table *t, const void *row)
{
    memcpy(t->buf + t->used * t->row_size, row, t->row_size);
    return ++t->used == t->cap ? table_flush(t) : 0;
}

static int table_close(table *t)
{
    /* valid identifiers are positive; a table never created is all zeros */
    int rc = t->ds > 0 ? table_flush(t) : 0;
    if (t->ds > 0 && H5Dclose(t->ds) < 0) rc = -1;
    if (t->type > 0) H5Tclose(t->type);
    free(t->buf);
    memset(t, 0, sizeof *t);
    t->ds = t->type = H5I_INVALID_HID;
    return rc;
}

/* --- the writer ---------------------------------------------------------- */

enum { INTERVAL_ROWS = 1024, REQUEST_ROWS = 8192, SUMMARY_ROWS = 64 };

struct results_writer {
    char path[4096], tmp[4200];
    hid_t file;
    bool failed;
    table summary, timeseries, requests, latency[2]; /* latency: one row of bin counts per phase */
    table tenant_latency[2]; /* /tenant_histograms: one row of bin counts per /tenants row */
    bool tenant_histograms_made;
    bool log_requests, histograms_made;
    size_t phases;
    parameter_row *params; /* /meta/phase_parameters */
    size_t nparams, params_cap;
    trace_score score; /* over the phases that replay a trace: /score */
    tenant_row *tenants; /* /tenants: the workers of each group */
    size_t ntenants, tenants_cap;
};

static void check(results_writer *w, int rc)
{
    if (rc < 0) w->failed = true;
}

void results_library_init(void) { H5dont_atexit(); }

results_writer *results_open(const char *path, bool log_requests, char *err, size_t errlen)
{
    results_writer *w = calloc(1, sizeof *w);
    if (!w) return snprintf(err, errlen, "out of memory"), NULL;
    snprintf(w->path, sizeof w->path, "%s", path);
    snprintf(w->tmp, sizeof w->tmp, "%s.tmp.%ld", path, (long)getpid());
    w->log_requests = log_requests;
    if (!getenv("SSDLAB_HDF5_ERRORS")) H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors are reported here, not printed by HDF5 (set SSDLAB_HDF5_ERRORS to see them) */
    w->file = H5Fcreate(w->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (w->file < 0) {
        snprintf(err, errlen, "cannot create '%s': %s", w->tmp, errno ? strerror(errno) : "HDF5 error");
        free(w);
        return NULL;
    }
    hid_t st = results_summary_type(), it = results_interval_type();
    int rc = table_create(&w->summary, w->file, "summary", st, 1, SUMMARY_ROWS,
                          "latencies: us, as [mean, p50, p90, p99, p99.9, p99.99, max]; bytes; seconds; MiB = 2^20 B");
    if (rc >= 0)
        rc = table_create(&w->timeseries, w->file, "timeseries", it, 1, INTERVAL_ROWS,
                          "s, 1/s, MiB/s, MiB/s, MiB/s, us, us, us, us, GiB, GiB, blocks, GiB, erases, units, degrees C");
    H5Tclose(st);
    H5Tclose(it);
    if (rc >= 0 && log_requests) {
        hid_t rt = results_request_type();
        rc = table_create(&w->requests, w->file, "requests", rt, 1, REQUEST_ROWS,
                          "ns; lba in 512-byte sectors; bytes; rows in completion order");
        H5Tclose(rt);
    }
    if (rc < 0) {
        snprintf(err, errlen, "cannot write '%s' (disk full or a file-size limit?)", w->tmp);
        results_discard(w);
        return NULL;
    }
    return w;
}

void results_interval(results_writer *w, const ssd_interval *row)
{
    if (!w->failed) check(w, table_append(&w->timeseries, row));
}

void results_request(results_writer *w, const ssdlab_request *r)
{
    if (!w->log_requests || w->failed) return;
    request_record rec;
    memset(&rec, 0, sizeof rec); /* padding included: the same run gives the same file */
    rec.id = r->id;
    rec.arrival_ns = r->arrival;
    rec.start_ns = r->start;
    rec.finish_ns = r->finish;
    rec.op = (uint8_t)r->op;
    rec.lba = r->offset / 512;
    rec.bytes = r->bytes;
    rec.latency_ns = r->finish - r->arrival;
    check(w, table_append(&w->requests, &rec));
}

/* /histograms: shared bin edges, and a row of counts per phase. */
static int make_histograms(results_writer *w, const ssd *d)
{
    hid_t g = H5Gcreate2(w->file, "histograms", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    const gsl_histogram *h = ssd_latency_histogram(d, SSDLAB_READ);
    int rc = results_write_table(g, "bin_edges_ns", H5T_NATIVE_DOUBLE, h->n + 1, h->range, "ns");
    const char *names[2] = {"read_counts", "write_counts"};
    for (int op = 0; op < 2 && rc >= 0; op++)
        rc = table_create(&w->latency[op], g, names[op], H5T_NATIVE_DOUBLE, h->n, 1, "requests per bin; row i = phase i");
    H5Gclose(g);
    w->histograms_made = true;
    return rc;
}

static void note_phase_parameters(results_writer *w, const cfg *phase, const cfg *base);

void results_add_phase(results_writer *w, const ssd *d, const phase_summary *row, const cfg *phase, const cfg *base)
{
    if (w->failed) return;
    if (phase && base && phase != base) note_phase_parameters(w, phase, base);
    w->phases++;
    if (!w->histograms_made) check(w, make_histograms(w, d));
    check(w, table_append(&w->summary, row));
    const cfg *c = phase ? phase : base;
    if (c && score_counts(c)) score_add(&w->score, row);
    for (int op = 0; op < 2 && !w->failed; op++)
        check(w, table_append(&w->latency[op], ssd_latency_histogram(d, op ? SSDLAB_WRITE : SSDLAB_READ)->bin));
}

/* Every configuration key as (key, value as written, value as a number),
 * so analysis code can select and plot by any parameter without parsing
 * YAML. */
static herr_t write_parameters(hid_t g, const cfg *c)
{
    size_t n = cfg_key_count(c);
    parameter_row *rows = calloc(n, sizeof *rows);
    if (!rows) return -1;
    for (size_t i = 0; i < n; i++) {
        char text[CFG_TEXT_MAX];
        const char *name = cfg_entry_value(c, i, text, sizeof text, &rows[i].number);
        snprintf(rows[i].key, sizeof rows[i].key, "%s", name);
        snprintf(rows[i].value, sizeof rows[i].value, "%s", text);
    }
    hid_t t = results_parameter_type(false);
    herr_t rc = results_write_table(g, "parameters", t, n, rows, "number: bytes, ns, 1/s or a fraction; NaN for text");
    H5Tclose(t);
    free(rows);
    return rc;
}

/* Remembers the keys in which a phase's configuration differs from the
 * run's: a few per phase, written with /meta. */
/* A growing array of `count` rows of `size` bytes with room for one more
 * (the array, perhaps moved), or NULL with the writer failed when memory
 * runs out (the rows stay where they were). */
static void *room_for_one(results_writer *w, void *rows, size_t count, size_t *cap, size_t size)
{
    if (count < *cap) return rows;
    size_t n = *cap ? 2 * *cap : 16;
    void *grown = realloc(rows, n * size);
    if (!grown) {
        w->failed = true;
        return NULL;
    }
    *cap = n;
    return grown;
}

static void note_phase_parameters(results_writer *w, const cfg *phase, const cfg *base)
{
    size_t n = cfg_key_count(phase);
    for (size_t i = 0; i < n; i++) {
        char a[CFG_TEXT_MAX], b[CFG_TEXT_MAX];
        double x, y;
        const char *name = cfg_entry_value(phase, i, a, sizeof a, &x);
        cfg_entry_value(base, i, b, sizeof b, &y);
        if (!strcmp(a, b)) continue;
        parameter_row *rows = room_for_one(w, w->params, w->nparams, &w->params_cap, sizeof *rows);
        if (!rows) return;
        w->params = rows;
        parameter_row *r = &w->params[w->nparams++];
        memset(r, 0, sizeof *r);
        snprintf(r->key, sizeof r->key, "%s", name);
        snprintf(r->value, sizeof r->value, "%s", a);
        r->number = x;
        r->phase = (uint32_t)w->phases;
    }
}

static herr_t write_meta(results_writer *w, hid_t file, const results_meta *m)
{
    hid_t g = H5Gcreate2(file, "meta", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    int format = RESULTS_FORMAT_VERSION;
    herr_t rc = 0;
    rc |= results_attr_string(g, "ssdlab_version", SSDLAB_VERSION);
    rc |= results_attr_string(g, "git_hash", SSDLAB_GIT_HASH);
    rc |= attr_number(g, "format_version", H5T_NATIVE_INT, &format);
    rc |= attr_number(g, "seed", H5T_NATIVE_UINT64, &m->seed);
    rc |= results_attr_string(g, "command_line", m->command_line ? m->command_line : "");
    rc |= results_attr_string(g, "host", host);
    rc |= attr_number(g, "start_wall_time", H5T_NATIVE_DOUBLE, &m->start_wall);
    rc |= attr_number(g, "end_wall_time", H5T_NATIVE_DOUBLE, &m->end_wall);
    rc |= results_attr_string(g, "status", m->status);
    rc |= results_attr_string(g, "configuration", m->config_yaml ? m->config_yaml : "");
    if (rc >= 0 && m->config) rc = write_parameters(g, m->config);
    if (rc >= 0) {
        hid_t t = results_parameter_type(true);
        rc = results_write_table(g, "phase_parameters", t, w->nparams, w->params,
                         "keys whose value in phase `phase` (from 0) differs from /meta/parameters");
        H5Tclose(t);
    }
    H5Gclose(g);
    return rc < 0 ? -1 : 0;
}

/* Reads by what ECC made of them (controller.ecc_model = rber). */
static herr_t write_ecc_outcomes(hid_t g, const ssd *d)
{
    uint64_t out[ECC_OUTCOMES];
    ssd_ecc_outcomes(d, out);
    uint32_t rows = ecc_outcome_failed(ssd_params_of(d)) + 1;
    return results_write_table(g, "ecc_outcomes", H5T_NATIVE_UINT64, rows, out,
                               "flash reads since the stats were reset: row i < steps+1 corrected after i read-retry "
                               "steps, row steps+1 by the soft read, the last row uncorrectable");
}

/* The firmware's reactions to the media (docs/reliability.md). */
static herr_t write_media_events(hid_t g, const ssd *d)
{
    ssd_media_events ev;
    ssd_media_events_get(d, &ev);
    uint64_t row[] = {ev.jobs[MEDIA_DISTURBED], ev.moved[MEDIA_DISTURBED], ev.jobs[MEDIA_ERRORS], ev.moved[MEDIA_ERRORS],
                      ev.jobs[MEDIA_STALE], ev.moved[MEDIA_STALE], ev.retired, ev.retired_ever, ev.worn_erases, ev.spare_left};
    return results_write_table(g, "media_events", H5T_NATIVE_UINT64, sizeof row / sizeof *row, row,
                               "since the stats were reset: blocks moved for read disturb, their units; for errors, "
                               "units; refreshed, units; blocks retired; since new: blocks retired, erases of worn "
                               "blocks kept in service; the fewest blocks a die may still retire");
}

/* Power losses (powerloss.h): their sums, and the byte offsets of the lost units. */
static herr_t write_power_loss(hid_t file, const ssd *d)
{
    const powerloss_log *pl = ssd_power_loss_log(d);
    if (!pl->events) return 0;
    hid_t g = H5Gcreate2(file, "power_loss", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    double sums[] = {(double)pl->events, (double)pl->lost_units, (double)pl->lost_relocated, pl->flush_s,
                     pl->flush_energy_j, (double)pl->holdup_short, pl->rebuild_s};
    herr_t rc = results_write_table(g, "summary", H5T_NATIVE_DOUBLE, sizeof sums / sizeof *sums, sums,
                                    "power losses; host units lost; units GC had moved, lost; flush s; flush J; "
                                    "flushes cut short by drive.holdup_energy; rebuild s");
    uint64_t *offsets = malloc((pl->lost_count ? pl->lost_count : 1) * sizeof *offsets);
    if (!offsets) rc = -1;
    for (size_t i = 0; offsets && i < pl->lost_count; i++) offsets[i] = (uint64_t)pl->lost_lpns[i] * ssd_params_of(d)->unit;
    if (rc >= 0)
        rc = results_write_table(g, "lost_lbas", H5T_NATIVE_UINT64, pl->lost_count, offsets,
                                 "B: the byte offset of each mapping unit whose acknowledged data a power loss took");
    free(offsets);
    H5Gclose(g);
    return rc;
}

static herr_t write_nand(hid_t file, const ssd *d)
{
    const ssd_params *p = ssd_params_of(d);
    hid_t g = H5Gcreate2(file, "nand", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    ssd_die_counts *dies = calloc(p->dies, sizeof *dies);
    enum { BUCKETS = 1024 };
    uint64_t *hist = calloc(BUCKETS, sizeof *hist);
    herr_t rc = -1;
    if (dies && hist) {
        for (uint32_t i = 0; i < p->dies; i++) ssd_die_stats(d, i, &dies[i]);
        hid_t t = results_die_type();
        rc = results_write_table(g, "dies", t, p->dies, dies, "ns, operations; one row per die, channel by channel");
        H5Tclose(t);
        ssd_erase_histogram(d, hist, BUCKETS);
        if (rc >= 0)
            rc = results_write_table(g, "erase_count_histogram", H5T_NATIVE_UINT64, BUCKETS, hist,
                             "blocks erased i times at row i; the last row holds all from 1023 on");
        if (rc >= 0 && p->media.model == ECC_RBER) rc = write_ecc_outcomes(g, d);
        if (rc >= 0 && (media_reacts(&p->media) || media_retires(&p->media))) rc = write_media_events(g, d);
    }
    free(dies);
    free(hist);
    H5Gclose(g);
    return rc;
}

static int close_all(results_writer *w)
{
    int rc = 0;
    table *tables[] = {&w->summary, &w->timeseries, &w->requests, &w->latency[0], &w->latency[1], &w->tenant_latency[0],
                       &w->tenant_latency[1]};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        if (table_close(tables[i]) < 0) rc = -1;
    if (w->file > 0 && H5Fclose(w->file) < 0) rc = -1;
    w->file = H5I_INVALID_HID;
    return rc;
}

static int make_tenant_histograms(results_writer *w, size_t bins)
{
    hid_t g = H5Gcreate2(w->file, "tenant_histograms", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    const char *names[2] = {"read_counts", "write_counts"};
    int rc = 0;
    for (int op = 0; op < 2 && rc >= 0; op++)
        rc = table_create(&w->tenant_latency[op], g, names[op], H5T_NATIVE_DOUBLE, bins, 1,
                          "requests per bin of /histograms/bin_edges_ns; row i = /tenants row i");
    H5Gclose(g);
    w->tenant_histograms_made = true;
    return rc;
}

void results_add_tenant(results_writer *w, const tenant_row *row, const gsl_histogram *read, const gsl_histogram *write)
{
    if (w->failed) return;
    if (!w->tenant_histograms_made) check(w, make_tenant_histograms(w, read->n));
    if (!w->failed) check(w, table_append(&w->tenant_latency[0], read->bin));
    if (!w->failed) check(w, table_append(&w->tenant_latency[1], write->bin));
    if (w->failed) return;
    tenant_row *rows = room_for_one(w, w->tenants, w->ntenants, &w->tenants_cap, sizeof *rows);
    if (!rows) return;
    w->tenants = rows;
    w->tenants[w->ntenants] = *row;
    w->tenants[w->ntenants++].summary_row = (uint32_t)(w->phases ? w->phases - 1 : 0);
}

static herr_t write_tenants(results_writer *w)
{
    hid_t t = results_tenant_type();
    herr_t rc = results_write_table(w->file, "tenants", t, w->ntenants, w->tenants,
                                    "bytes; seconds; 1/s; MiB/s; latencies us as [mean, p50, p90, p99, p99.9, p99.99, max]");
    H5Tclose(t);
    return rc;
}

/* PCMark-style scoring of the phases that replayed a trace (score.h). */
static herr_t write_score(results_writer *w)
{
    score_finish(&w->score);
    hid_t t = results_score_type();
    herr_t rc = results_write_table(w->file, "score", t, 1, &w->score,
                            "over the phases that replay a trace: busy_s s, bandwidth_mib_s MiB/s, access_time_us us");
    H5Tclose(t);
    return rc;
}

int results_finish(results_writer *w, const results_meta *meta, const ssd *d, char *err, size_t errlen)
{
    if (!w->failed && w->score.phases) check(w, write_score(w));
    if (!w->failed && w->ntenants) check(w, write_tenants(w));
    if (!w->failed) check(w, write_meta(w, w->file, meta));
    if (!w->failed) check(w, write_nand(w->file, d));
    if (!w->failed) check(w, write_power_loss(w->file, d));
    if (!w->failed) check(w, results_write_placement(w->file, d));
    check(w, close_all(w));
    int rc = 0;
    if (w->failed) {
        unlink(w->tmp);
        snprintf(err, errlen, "cannot write '%s' (disk full or a file-size limit?)", w->path);
        rc = -1;
    } else if (rename(w->tmp, w->path)) {
        int e = errno;
        unlink(w->tmp);
        snprintf(err, errlen, "cannot rename '%s' to '%s': %s", w->tmp, w->path, strerror(e));
        rc = -1;
    }
    free(w->params);
    free(w->tenants);
    free(w);
    return rc;
}

void results_discard(results_writer *w)
{
    if (!w) return;
    close_all(w);
    unlink(w->tmp);
    free(w->params);
    free(w->tenants);
    free(w);
}
