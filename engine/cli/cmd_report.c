/* ssdlab report RESULT.h5 [RESULT.h5 ...]: the summaries of result files,
 * side by side. */
#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

typedef struct row {
    char phase[64];
    double iops, mib_per_s, read_lat[7], write_lat[7], wa;
    uint64_t requests;
} row;

/* Reads /summary's columns of interest (HDF5 matches fields by name). */
static int read_summary(const char *path, row **rows, size_t *n, char *status, size_t status_len)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return -1;
    hid_t ds = H5Dopen2(f, "/summary", H5P_DEFAULT);
    int rc = -1;
    if (ds >= 0) {
        hid_t space = H5Dget_space(ds);
        hsize_t dims[1] = {0};
        H5Sget_simple_extent_dims(space, dims, NULL);
        *n = dims[0];
        *rows = calloc(*n ? *n : 1, sizeof **rows);
        hid_t str = H5Tcopy(H5T_C_S1);
        H5Tset_size(str, 64);
        hsize_t seven[1] = {7};
        hid_t lat = H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, seven);
        hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(row));
        H5Tinsert(t, "phase", HOFFSET(row, phase), str);
        H5Tinsert(t, "iops", HOFFSET(row, iops), H5T_NATIVE_DOUBLE);
        H5Tinsert(t, "mib_per_s", HOFFSET(row, mib_per_s), H5T_NATIVE_DOUBLE);
        H5Tinsert(t, "read_lat_us", HOFFSET(row, read_lat), lat);
        H5Tinsert(t, "write_lat_us", HOFFSET(row, write_lat), lat);
        H5Tinsert(t, "write_amplification", HOFFSET(row, wa), H5T_NATIVE_DOUBLE);
        H5Tinsert(t, "requests", HOFFSET(row, requests), H5T_NATIVE_UINT64);
        if (*rows && (!*n || H5Dread(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, *rows) >= 0)) rc = 0;
        H5Tclose(t);
        H5Tclose(lat);
        H5Tclose(str);
        H5Sclose(space);
        H5Dclose(ds);
    }
    snprintf(status, status_len, "?");
    hid_t meta = H5Gopen2(f, "/meta", H5P_DEFAULT);
    if (meta >= 0) {
        hid_t a = H5Aopen(meta, "status", H5P_DEFAULT);
        if (a >= 0) {
            hid_t type = H5Aget_type(a);
            char *s = NULL;
            if (H5Aread(a, type, &s) >= 0 && s) {
                snprintf(status, status_len, "%s", s);
                H5free_memory(s);
            }
            H5Tclose(type);
            H5Aclose(a);
        }
        H5Gclose(meta);
    }
    H5Fclose(f);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs("Usage: ssdlab report RESULT.h5 [RESULT.h5 ...]\n\n"
              "Prints the summary of each result file, phase by phase and side by side:\n"
              "requests, IOPS, MiB/s, mean and p99 latencies, write amplification.\n",
              argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_BAD_INPUT : EXIT_OK;
    }
    int files = argc - 1;
    if (files > 16) return cli_usage_error("report", "at most 16 result files");
    row **rows = calloc((size_t)files, sizeof *rows);
    size_t *counts = calloc((size_t)files, sizeof *counts), most = 0;
    char status[16][32];
    int rc = EXIT_OK;
    for (int i = 0; i < files; i++) {
        if (access(argv[i + 1], R_OK) != 0) {
            fprintf(stderr, "ssdlab report: %s: cannot read: %s\n", argv[i + 1], strerror(errno));
            rc = EXIT_BAD_INPUT;
            break;
        }
        if (read_summary(argv[i + 1], &rows[i], &counts[i], status[i], sizeof status[i])) {
            fprintf(stderr, "ssdlab report: %s: not an ssdlab result file (no readable /summary); expected a file written by 'ssdlab run -o'\n",
                    argv[i + 1]);
            rc = EXIT_BAD_INPUT;
            break;
        }
        if (counts[i] > most) most = counts[i];
    }
    if (rc == EXIT_OK) {
        for (int i = 0; i < files; i++) printf("[%d] %s (%s)\n", i + 1, argv[i + 1], status[i]);
        static const char *metrics[] = {"requests", "IOPS", "MiB/s", "read mean us", "read p99 us", "write mean us",
                                        "write p99 us", "write ampl."};
        for (size_t p = 0; p < most; p++) {
            printf("\nphase %zu (%s)\n%-15s", p + 1, counts[0] > p ? rows[0][p].phase : "-", "");
            for (int i = 0; i < files; i++) printf(" %14s[%d]", "", i + 1);
            printf("\n");
            for (int m = 0; m < 8; m++) {
                printf("%-15s", metrics[m]);
                for (int i = 0; i < files; i++) {
                    if (p >= counts[i]) {
                        printf(" %17s", "-");
                        continue;
                    }
                    const row *r = &rows[i][p];
                    double v[] = {(double)r->requests, r->iops, r->mib_per_s, r->read_lat[0], r->read_lat[3],
                                  r->write_lat[0], r->write_lat[3], r->wa};
                    /* NaN marks a metric the phase has none of (no writes, say). */
                    if (isnan(v[m]))
                        printf(" %17s", "-");
                    else
                        printf(" %17.6g", v[m]);
                }
                printf("\n");
            }
        }
    }
    for (int i = 0; i < files; i++) free(rows[i]);
    free(rows);
    free(counts);
    return rc;
}
