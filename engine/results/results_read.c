/* Reading result files back: the summary table and /meta's attributes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "results.h"
#include "results_types.h"

/* Reads a string attribute of /meta (allocated), or NULL. */
static char *meta_string(hid_t file, const char *attribute)
{
    char *copy = NULL;
    hid_t meta = H5Gopen2(file, "/meta", H5P_DEFAULT);
    if (meta < 0) return NULL;
    hid_t a = H5Aexists(meta, attribute) > 0 ? H5Aopen(meta, attribute, H5P_DEFAULT) : H5I_INVALID_HID;
    if (a >= 0) {
        hid_t type = H5Aget_type(a);
        char *s = NULL;
        if (H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0 && H5Aread(a, type, &s) >= 0 && s) {
            copy = strdup(s);
            H5free_memory(s);
        }
        H5Tclose(type);
        H5Aclose(a);
    }
    H5Gclose(meta);
    return copy;
}

char *results_read_meta(const char *path, const char *attribute)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return NULL;
    char *s = meta_string(file, attribute);
    H5Fclose(file);
    return s;
}

/* Reads the 1-D dataset `name` of records of `type` (allocated into *rows,
 * row_size bytes each; at most `most` rows). Returns 0 or -1. */
static int read_records(hid_t file, const char *name, hid_t type, size_t row_size, hsize_t most, void **rows, size_t *count)
{
    *rows = NULL;
    *count = 0;
    int rc = -1;
    hid_t ds = H5Dopen2(file, name, H5P_DEFAULT);
    if (ds < 0) return -1;
    hid_t space = H5Dget_space(ds);
    hsize_t dims[1] = {0};
    if (H5Sget_simple_extent_ndims(space) == 1 && H5Sget_simple_extent_dims(space, dims, NULL) == 1 && dims[0] < most) {
        *count = dims[0];
        *rows = calloc(*count ? *count : 1, row_size);
        if (*rows && (!*count || H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, *rows) >= 0)) rc = 0;
    }
    H5Sclose(space);
    H5Dclose(ds);
    if (rc) {
        free(*rows);
        *rows = NULL;
        *count = 0;
    }
    return rc;
}

int results_read_summary(const char *path, phase_summary **rows, size_t *count, char *status, size_t status_len)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return *rows = NULL, *count = 0, -1;
    hid_t t = results_summary_type();
    int rc = read_records(file, "/summary", t, sizeof **rows, 1000000, (void **)rows, count);
    H5Tclose(t);
    char *s = meta_string(file, "status");
    snprintf(status, status_len, "%s", s ? s : "?");
    free(s);
    H5Fclose(file);
    return rc;
}

int results_read_timeseries(const char *path, ssd_interval **rows, size_t *count)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return *rows = NULL, *count = 0, -1;
    hid_t t = results_interval_type();
    int rc = read_records(file, "/timeseries", t, sizeof **rows, 100000000, (void **)rows, count);
    H5Tclose(t);
    H5Fclose(file);
    return rc;
}

int results_read_parameters(const char *path, parameter_row **rows, size_t *count)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return *rows = NULL, *count = 0, -1;
    hid_t t = results_parameter_type(false);
    int rc = read_records(file, "/meta/parameters", t, sizeof **rows, 1000000, (void **)rows, count);
    H5Tclose(t);
    H5Fclose(file);
    return rc;
}

int results_read_score(const char *path, trace_score *score)
{
    memset(score, 0, sizeof *score);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return -1;
    hid_t t = results_score_type();
    trace_score *rows = NULL;
    size_t n = 0;
    int rc = H5Lexists(file, "/score", H5P_DEFAULT) > 0 ? read_records(file, "/score", t, sizeof *rows, 2, (void **)&rows, &n) : 0;
    if (rc == 0 && n == 1) *score = rows[0];
    free(rows);
    H5Tclose(t);
    H5Fclose(file);
    return rc;
}

int results_read_tenants(const char *path, tenant_row **rows, size_t *count)
{
    *rows = NULL;
    *count = 0;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return -1;
    hid_t t = results_tenant_type();
    int rc = H5Lexists(file, "/tenants", H5P_DEFAULT) > 0 ? read_records(file, "/tenants", t, sizeof **rows, 1000000, (void **)rows, count) : 0;
    H5Tclose(t);
    H5Fclose(file);
    return rc;
}
