/* ssdlab sweep collect: every complete point's summary rows in one HDF5
 * table (/table: one row per point and phase, one column per swept key and
 * per metric) and every point's state (/points), written under a temporary
 * name and renamed when complete. Layout: docs/sweeps.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "results.h"
#include "results_types.h"
#include "ssdlab_version.h"
#include "sweep_points.h"

enum { TEXT = 64, OVERRIDES = 512 };

typedef struct point_info {
    sweep_point p;
    point_state state;
    unsigned long long seed;
    double *numbers;   /* per swept key: its value as a number (NaN: text) */
    phase_summary *rows;
    size_t row_count;
} point_info;

static size_t swept_count(const sweep *s) { return s->grid_count + s->zip_count; }

static const char *swept_key(const sweep *s, size_t k) { return k < s->grid_count ? s->grid[k].key : s->zip[k - s->grid_count].key; }

/* Reads a complete point's rows, seed and swept values from its result. */
static void read_point(const sweep *s, point_info *pi)
{
    size_t nk = swept_count(s);
    pi->numbers = malloc((nk ? nk : 1) * sizeof *pi->numbers);
    for (size_t k = 0; pi->numbers && k < nk; k++) pi->numbers[k] = NAN;
    if (pi->state != POINT_COMPLETE || !pi->numbers) return;
    char path[4200], status[64];
    sweep_point_file(s, &pi->p, "h5", path, sizeof path);
    if (results_read_summary(path, &pi->rows, &pi->row_count, status, sizeof status)) {
        pi->state = POINT_FAILED;
        return;
    }
    parameter_row *params = NULL;
    size_t n = 0;
    if (results_read_parameters(path, &params, &n)) return;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(params[i].key, "sim.seed")) pi->seed = (unsigned long long)params[i].number;
        for (size_t k = 0; k < nk; k++)
            if (!strcmp(params[i].key, swept_key(s, k))) pi->numbers[k] = params[i].number;
    }
    free(params);
}

typedef struct layout {
    hid_t type;
    size_t size;
    size_t *key_offset; /* per swept key */
    bool *key_numeric;
    size_t summary_offset;
} layout;

/* point, repetition, seed, the swept keys (numbers when every complete
 * point's value is one, else text as written), then the summary's fields. */
static int make_layout(const sweep *s, const point_info *points, size_t n, layout *L)
{
    size_t nk = swept_count(s), off = 16;
    L->key_offset = calloc(nk + 1, sizeof *L->key_offset);
    L->key_numeric = calloc(nk + 1, sizeof *L->key_numeric);
    if (!L->key_offset || !L->key_numeric) return -1;
    for (size_t k = 0; k < nk; k++) {
        bool numeric = true;
        for (size_t i = 0; i < n; i++)
            if (points[i].state == POINT_COMPLETE && isnan(points[i].numbers[k])) numeric = false;
        L->key_numeric[k] = numeric;
        L->key_offset[k] = off;
        off += numeric ? sizeof(double) : TEXT;
    }
    off = (off + 7) & ~(size_t)7;
    L->summary_offset = off;
    L->size = off + sizeof(phase_summary);
    L->type = H5Tcreate(H5T_COMPOUND, L->size);
    hid_t text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, TEXT);
    H5Tinsert(L->type, "point", 0, H5T_NATIVE_UINT32);
    H5Tinsert(L->type, "repetition", 4, H5T_NATIVE_UINT32);
    H5Tinsert(L->type, "seed", 8, H5T_NATIVE_UINT64);
    for (size_t k = 0; k < nk; k++) H5Tinsert(L->type, swept_key(s, k), L->key_offset[k], L->key_numeric[k] ? H5T_NATIVE_DOUBLE : text);
    hid_t summary = results_summary_type();
    int members = H5Tget_nmembers(summary);
    for (int m = 0; m < members; m++) {
        char *name = H5Tget_member_name(summary, (unsigned)m);
        hid_t mt = H5Tget_member_type(summary, (unsigned)m);
        H5Tinsert(L->type, name, L->summary_offset + H5Tget_member_offset(summary, (unsigned)m), mt);
        H5Tclose(mt);
        H5free_memory(name);
    }
    H5Tclose(summary);
    H5Tclose(text);
    return 0;
}

static void fill_row(const sweep *s, const layout *L, const point_info *pi, const phase_summary *row, unsigned char *out)
{
    memset(out, 0, L->size);
    uint32_t index = (uint32_t)pi->p.index, rep = pi->p.repetition;
    uint64_t seed = pi->seed;
    memcpy(out, &index, 4);
    memcpy(out + 4, &rep, 4);
    memcpy(out + 8, &seed, 8);
    for (size_t k = 0; k < swept_count(s); k++) {
        if (L->key_numeric[k]) memcpy(out + L->key_offset[k], &pi->numbers[k], sizeof(double));
        else snprintf((char *)out + L->key_offset[k], TEXT, "%s", strchr(pi->p.sets[k], '=') + 1);
    }
    memcpy(out + L->summary_offset, row, sizeof *row);
}

typedef struct point_row {
    uint32_t index, repetition;
    uint64_t seed;
    char name[32], state[16], overrides[OVERRIDES];
} point_row;

static herr_t write_points(hid_t file, const point_info *points, size_t n)
{
    point_row *rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows) return -1;
    for (size_t i = 0; i < n; i++) {
        rows[i] = (point_row){.index = (uint32_t)i, .repetition = points[i].p.repetition, .seed = points[i].seed};
        snprintf(rows[i].name, sizeof rows[i].name, "%s", points[i].p.name);
        snprintf(rows[i].state, sizeof rows[i].state, "%s", sweep_point_state_name(points[i].state));
        size_t used = 0;
        for (size_t k = 0; k < points[i].p.set_count && used < OVERRIDES; k++)
            used += (size_t)snprintf(rows[i].overrides + used, OVERRIDES - used, "%s%s", k ? " " : "", points[i].p.sets[k]);
    }
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(point_row));
    hid_t name = H5Tcopy(H5T_C_S1), state = H5Tcopy(H5T_C_S1), over = H5Tcopy(H5T_C_S1);
    H5Tset_size(name, 32);
    H5Tset_size(state, 16);
    H5Tset_size(over, OVERRIDES);
    H5Tinsert(t, "point", HOFFSET(point_row, index), H5T_NATIVE_UINT32);
    H5Tinsert(t, "repetition", HOFFSET(point_row, repetition), H5T_NATIVE_UINT32);
    H5Tinsert(t, "seed", HOFFSET(point_row, seed), H5T_NATIVE_UINT64);
    H5Tinsert(t, "name", HOFFSET(point_row, name), name);
    H5Tinsert(t, "state", HOFFSET(point_row, state), state);
    H5Tinsert(t, "overrides", HOFFSET(point_row, overrides), over);
    herr_t rc = results_write_table(file, "points", t, n, rows, NULL);
    H5Tclose(name);
    H5Tclose(state);
    H5Tclose(over);
    H5Tclose(t);
    free(rows);
    return rc;
}

static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    char buf[4096];
    size_t got;
    while (m && (got = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, got, m);
    if (m) fclose(m);
    fclose(f);
    return text;
}

static herr_t write_file(const sweep *s, const char *tmp, const point_info *points, size_t n, size_t *rows_written)
{
    layout L = {0};
    herr_t rc = make_layout(s, points, n, &L);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += points[i].row_count;
    unsigned char *rows = rc ? NULL : calloc(total ? total : 1, L.size);
    hid_t file = rows ? H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT) : H5I_INVALID_HID;
    if (file < 0) rc = -1;
    size_t r = 0;
    for (size_t i = 0; !rc && i < n; i++)
        for (size_t j = 0; j < points[i].row_count; j++) fill_row(s, &L, &points[i], &points[i].rows[j], rows + L.size * r++);
    if (!rc) rc = results_write_table(file, "table", L.type, total, rows, NULL);
    if (!rc) rc = write_points(file, points, n);
    char *yaml = read_whole(s->path);
    if (!rc) rc = results_attr_string(file, "sweep_file", s->path);
    if (!rc) rc = results_attr_string(file, "sweep_yaml", yaml ? yaml : "");
    if (!rc) rc = results_attr_string(file, "ssdlab_version", SSDLAB_VERSION " " SSDLAB_GIT_HASH);
    free(yaml);
    if (file >= 0 && H5Fclose(file) < 0) rc = -1;
    if (L.type > 0) H5Tclose(L.type);
    free(L.key_offset);
    free(L.key_numeric);
    free(rows);
    *rows_written = total;
    return rc;
}

int sweep_collect(const sweep *s, const char *out)
{
    size_t n = sweep_point_count(s), counts[4] = {0};
    point_info *points = calloc(n, sizeof *points);
    if (!points) return EXIT_FAILED;
    int rc = EXIT_OK;
    for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
        if (sweep_point_make(s, i, &points[i].p)) rc = EXIT_FAILED;
        points[i].state = sweep_point_state(s, &points[i].p);
        read_point(s, &points[i]);
        if (!points[i].numbers) rc = EXIT_FAILED;
        counts[points[i].state]++;
    }
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", out, (int)getpid());
    size_t rows = 0;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (rc == EXIT_OK && (write_file(s, tmp, points, n, &rows) < 0 || rename(tmp, out) != 0)) {
        fprintf(stderr, "ssdlab sweep collect: cannot write '%s'\n", out);
        unlink(tmp);
        rc = EXIT_FAILED;
    }
    if (rc == EXIT_OK) {
        printf("%s: %zu rows from %zu complete points of %zu", out, rows, counts[POINT_COMPLETE], n);
        if (counts[POINT_MISSING] + counts[POINT_FAILED] + counts[POINT_INTERRUPTED])
            printf("; %zu missing, %zu failed, %zu interrupted (see /points)", counts[POINT_MISSING], counts[POINT_FAILED],
                   counts[POINT_INTERRUPTED]);
        printf("\n");
    }
    for (size_t i = 0; i < n; i++) {
        sweep_point_free(&points[i].p);
        free(points[i].numbers);
        free(points[i].rows);
    }
    free(points);
    return rc;
}
