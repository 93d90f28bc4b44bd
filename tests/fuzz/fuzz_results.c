/* The HDF5 result reader behind 'ssdlab report' (and validate, collect) on
 * arbitrary bytes: a file that is not a readable result must be refused,
 * not crash the reader. */
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "results.h"
#include "results_types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], status[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0) return 0;
    phase_summary *rows = NULL;
    size_t n = 0;
    if (results_read_summary(path, &rows, &n, status, sizeof status) == 0) free(rows);
    ssd_interval *ts = NULL;
    if (results_read_timeseries(path, &ts, &n) == 0) free(ts);
    parameter_row *params = NULL;
    if (results_read_parameters(path, &params, &n) == 0) free(params);
    trace_score score;
    results_read_score(path, &score);
    free(results_read_meta(path, "configuration"));
    close(fd);
    return 0;
}
