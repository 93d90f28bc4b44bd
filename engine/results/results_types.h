/* The HDF5 types of a result file's tables, spelled once for the writer
 * (results.c), the readers (results_read.c, ssdlab report) and the tests,
 * so a field name or width cannot drift between them. Each function returns
 * a new type the caller closes with H5Tclose. */
#ifndef SSDLAB_RESULTS_TYPES_H
#define SSDLAB_RESULTS_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include <hdf5.h>

#include "summary_row.h"
#include "score.h"
#include "ssd.h"

/* One /requests record, in completion order. */
typedef struct request_record {
    uint64_t id;                              /* submission order, from 0 */
    uint64_t arrival_ns, start_ns, finish_ns; /* submitted, taken up by firmware, completed */
    uint8_t op;                               /* 0 read, 1 write, 2 trim (an HDF5 enum) */
    uint64_t lba;                             /* 512-byte sectors */
    uint32_t bytes;
    uint64_t latency_ns;                      /* finish - arrival */
} request_record;

/* One /meta/parameters row: a configuration key and its value. */
enum { CFG_TEXT_MAX = 256 };
typedef struct parameter_row {
    char key[64];
    char value[CFG_TEXT_MAX];
    double number;
    uint32_t phase; /* /meta/phase_parameters: the phase, from 0 */
} parameter_row;

hid_t results_summary_type(void);
hid_t results_parameter_type(bool with_phase);
hid_t results_interval_type(void);
hid_t results_request_type(void);
hid_t results_die_type(void);
hid_t results_score_type(void);
hid_t results_tenant_type(void);

/* HDF5 helpers the result file and the sweep table share (< 0 on failure):
 * a string attribute; a whole 1-D dataset of `count` rows of `type`,
 * chunked and compressed, with a 'units' attribute when units is not NULL. */
herr_t results_attr_string(hid_t on, const char *name, const char *value);
herr_t results_write_table(hid_t group, const char *name, hid_t type, size_t count, const void *rows, const char *units);

/* Reads a result file's /meta/parameters (allocated; the caller frees
 * them). Returns 0, or -1 if the file is not a readable ssdlab result. */
int results_read_parameters(const char *path, parameter_row **rows, size_t *count);
/* Reads /score (all zero when the run replayed no trace). Returns 0, or -1
 * if the file is not a readable ssdlab result. */
int results_read_score(const char *path, trace_score *score);
/* Reads /tenants (allocated; none when the run had no workers). Returns 0,
 * or -1 if the file is not a readable ssdlab result. */
int results_read_tenants(const char *path, tenant_row **rows, size_t *count);

#endif
