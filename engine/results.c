#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "ssdlab_version.h"

void results_phase_row(const ssd *d, phase_summary *row, const char *name, const char *kind, double sim_s, double wall_s)
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
        double *lat = op ? row->write_lat_us : row->read_lat_us;
        uint64_t n = st.completed[op ? SSDLAB_WRITE : SSDLAB_READ];
        lat[0] = n ? st.latency_sum_ns[op ? SSDLAB_WRITE : SSDLAB_READ] / (double)n / 1000 : NAN;
        for (int i = 0; i < 6; i++) lat[i + 1] = n ? ssd_latency_quantile(d, op ? SSDLAB_WRITE : SSDLAB_READ, qs[i]) / 1000 : NAN;
    }
    row->write_amplification = st.write_amplification;
    row->gc_units = st.gc_units_written;
    row->erases = st.erases;
    row->sim_time_s = sim_s;
    row->wall_time_s = wall_s;
}

/* --- small HDF5 helpers (each returns < 0 on failure) ---------------------- */

static herr_t attr_string(hid_t on, const char *name, const char *value)
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

/* A 1-D dataset of `count` records of `type`, chunked and compressed. */
static herr_t write_table(hid_t group, const char *name, hid_t type, size_t count, const void *rows, const char *units)
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
    if (rc >= 0 && units) rc = attr_string(ds, "units", units);
    if (ds >= 0) H5Dclose(ds);
    H5Pclose(plist);
    H5Sclose(space);
    return rc;
}

static hid_t string_type(size_t n)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, n);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    return t;
}

/* --- groups -------------------------------------------------------------- */

static herr_t write_meta(hid_t file, const results_meta *m)
{
    hid_t g = H5Gcreate2(file, "/meta", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    char host[256] = "unknown";
    gethostname(host, sizeof host - 1);
    int format = RESULTS_FORMAT_VERSION;
    herr_t rc = 0;
    rc |= attr_string(g, "ssdlab_version", SSDLAB_VERSION);
    rc |= attr_string(g, "git_hash", SSDLAB_GIT_HASH);
    rc |= attr_number(g, "format_version", H5T_NATIVE_INT, &format);
    rc |= attr_number(g, "seed", H5T_NATIVE_UINT64, &m->seed);
    rc |= attr_string(g, "command_line", m->command_line ? m->command_line : "");
    rc |= attr_string(g, "host", host);
    rc |= attr_number(g, "start_wall_time", H5T_NATIVE_DOUBLE, &m->start_wall);
    rc |= attr_number(g, "end_wall_time", H5T_NATIVE_DOUBLE, &m->end_wall);
    rc |= attr_string(g, "status", m->status);
    rc |= attr_string(g, "configuration", m->config_yaml ? m->config_yaml : "");
    H5Gclose(g);
    return rc < 0 ? -1 : 0;
}

/* The compound type of a /summary row: the writer and the reader share it,
 * so the file's field names are spelled in one place. */
static hid_t summary_type(void)
{
    hid_t name = string_type(64), kind = string_type(16);
    hsize_t seven[1] = {7};
    hid_t lat = H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, seven);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(phase_summary));
    H5Tinsert(t, "phase", HOFFSET(phase_summary, name), name);
    H5Tinsert(t, "kind", HOFFSET(phase_summary, kind), kind);
#define F(field, type) H5Tinsert(t, #field, HOFFSET(phase_summary, field), type)
    F(requests, H5T_NATIVE_UINT64);
    F(reads, H5T_NATIVE_UINT64);
    F(writes, H5T_NATIVE_UINT64);
    F(trims, H5T_NATIVE_UINT64);
    F(bytes_read, H5T_NATIVE_UINT64);
    F(bytes_written, H5T_NATIVE_UINT64);
    F(iops, H5T_NATIVE_DOUBLE);
    F(mib_per_s, H5T_NATIVE_DOUBLE);
    F(read_lat_us, lat);
    F(write_lat_us, lat);
    F(write_amplification, H5T_NATIVE_DOUBLE);
    F(gc_units, H5T_NATIVE_UINT64);
    F(erases, H5T_NATIVE_UINT64);
    F(sim_time_s, H5T_NATIVE_DOUBLE);
    F(wall_time_s, H5T_NATIVE_DOUBLE);
#undef F
    /* H5Tinsert copies member types, so these can go now */
    H5Tclose(lat);
    H5Tclose(name);
    H5Tclose(kind);
    return t;
}

static herr_t write_summary(hid_t file, const phase_summary *rows, size_t n)
{
    hid_t t = summary_type();
    herr_t rc = write_table(file, "/summary", t, n, rows,
                            "latencies: us, as [mean, p50, p90, p99, p99.9, p99.99, max]; bytes; seconds; MiB = 2^20 B");
    H5Tclose(t);
    return rc;
}

static herr_t write_timeseries(hid_t file, const ssd *d)
{
    size_t n;
    const ssd_interval *rows = ssd_intervals(d, &n);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(ssd_interval));
#define F(field, type) H5Tinsert(t, #field, HOFFSET(ssd_interval, field), type)
    F(end_s, H5T_NATIVE_DOUBLE);
    F(iops, H5T_NATIVE_DOUBLE);
    F(mib_per_s, H5T_NATIVE_DOUBLE);
    F(mean_latency_us, H5T_NATIVE_DOUBLE);
    F(p99_latency_us, H5T_NATIVE_DOUBLE);
    F(host_gib_written, H5T_NATIVE_DOUBLE);
    F(flash_gib_written, H5T_NATIVE_DOUBLE);
    F(free_blocks, H5T_NATIVE_UINT32);
    F(slc_gib, H5T_NATIVE_DOUBLE);
    F(erases, H5T_NATIVE_UINT64);
    F(temperature_c, H5T_NATIVE_DOUBLE);
#undef F
    herr_t rc = write_table(file, "/timeseries", t, n, rows, "s, 1/s, MiB/s, us, us, GiB, GiB, blocks, GiB, erases, degrees C");
    H5Tclose(t);
    return rc;
}

static herr_t write_nand(hid_t file, const ssd *d)
{
    const ssd_params *p = ssd_params_of(d);
    hid_t g = H5Gcreate2(file, "/nand", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    ssd_die_counts *dies = calloc(p->dies, sizeof *dies);
    enum { BUCKETS = 1024 };
    uint64_t *hist = calloc(BUCKETS, sizeof *hist);
    herr_t rc = -1;
    if (dies && hist) {
        for (uint32_t i = 0; i < p->dies; i++) ssd_die_stats(d, i, &dies[i]);
        hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(ssd_die_counts));
        H5Tinsert(t, "busy_ns", HOFFSET(ssd_die_counts, busy_ns), H5T_NATIVE_UINT64);
        H5Tinsert(t, "reads", HOFFSET(ssd_die_counts, reads), H5T_NATIVE_UINT64);
        H5Tinsert(t, "programs", HOFFSET(ssd_die_counts, programs), H5T_NATIVE_UINT64);
        H5Tinsert(t, "erases", HOFFSET(ssd_die_counts, erases), H5T_NATIVE_UINT64);
        rc = write_table(g, "dies", t, p->dies, dies, "ns, operations; one row per die, channel by channel");
        H5Tclose(t);
        ssd_erase_histogram(d, hist, BUCKETS);
        if (rc >= 0)
            rc = write_table(g, "erase_count_histogram", H5T_NATIVE_UINT64, BUCKETS, hist,
                             "blocks erased i times at row i; the last row holds all from 1023 on");
    }
    free(dies);
    free(hist);
    H5Gclose(g);
    return rc;
}

static herr_t write_histograms(hid_t file, const ssd *d)
{
    hid_t g = H5Gcreate2(file, "/histograms", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    herr_t rc = 0;
    const char *names[] = {"read_latency", "write_latency"};
    for (int op = 0; op < 2 && rc >= 0; op++) {
        const gsl_histogram *h = ssd_latency_histogram(d, op ? SSDLAB_WRITE : SSDLAB_READ);
        hid_t sub = H5Gcreate2(g, names[op], H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        rc = write_table(sub, "bin_edges_ns", H5T_NATIVE_DOUBLE, h->n + 1, h->range, "ns");
        if (rc >= 0) rc = write_table(sub, "counts", H5T_NATIVE_DOUBLE, h->n, h->bin, "requests per bin");
        H5Gclose(sub);
    }
    H5Gclose(g);
    return rc;
}

int results_write(const char *path, const results_meta *meta, const ssd *d, const phase_summary *phases, size_t count,
                  char *err, size_t errlen)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors are reported here, not printed by HDF5 */
    hid_t file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0) return snprintf(err, errlen, "cannot create '%s'", tmp), -1;
    herr_t rc = write_meta(file, meta);
    if (rc >= 0) rc = write_summary(file, phases, count);
    if (rc >= 0) rc = write_timeseries(file, d);
    if (rc >= 0) rc = write_nand(file, d);
    if (rc >= 0) rc = write_histograms(file, d);
    if (H5Fclose(file) < 0) rc = -1;
    if (rc < 0) {
        unlink(tmp);
        return snprintf(err, errlen, "cannot write '%s' (disk full or a file-size limit?)", path), -1;
    }
    if (rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        return snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, path, strerror(e)), -1;
    }
    return 0;
}

/* Reads /meta's status attribute into status ("?" when it has none). */
static void read_status(hid_t file, char *status, size_t len)
{
    snprintf(status, len, "?");
    hid_t meta = H5Gopen2(file, "/meta", H5P_DEFAULT);
    if (meta < 0) return;
    hid_t a = H5Aopen(meta, "status", H5P_DEFAULT);
    if (a >= 0) {
        hid_t type = H5Aget_type(a);
        char *s = NULL;
        if (H5Aread(a, type, &s) >= 0 && s) {
            snprintf(status, len, "%s", s);
            H5free_memory(s);
        }
        H5Tclose(type);
        H5Aclose(a);
    }
    H5Gclose(meta);
}

int results_read_summary(const char *path, phase_summary **rows, size_t *count, char *status, size_t status_len)
{
    *rows = NULL;
    *count = 0;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return -1;
    int rc = -1;
    hid_t ds = H5Dopen2(file, "/summary", H5P_DEFAULT);
    if (ds >= 0) {
        hid_t space = H5Dget_space(ds);
        hsize_t dims[1] = {0};
        if (H5Sget_simple_extent_dims(space, dims, NULL) == 1) {
            *count = dims[0];
            *rows = calloc(*count ? *count : 1, sizeof **rows);
            hid_t t = summary_type();
            if (*rows && (!*count || H5Dread(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, *rows) >= 0)) rc = 0;
            H5Tclose(t);
        }
        H5Sclose(space);
        H5Dclose(ds);
    }
    read_status(file, status, status_len);
    H5Fclose(file);
    if (rc) {
        free(*rows);
        *rows = NULL;
        *count = 0;
    }
    return rc;
}
