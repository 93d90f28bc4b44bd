/* Every trace reader, and the statistics pass, on arbitrary bytes: each
 * must read records or stop with a message, never crash, hang or leak. */
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "stats.h"
#include "trace.h"

enum { MOST_RECORDS = 100000 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[1024];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0) return 0;
    for (int f = TRACE_AUTO; f < TRACE_FORMATS; f++) {
        trace_options o = {.format = (trace_format)f, .blkparse_event = f % 2 ? 'Q' : 'D'};
        trace_reader *t = trace_open(path, &o, err, sizeof err);
        if (!t) continue;
        trace_record r;
        for (int n = 0; n < MOST_RECORDS && trace_next(t, &r) == 1; n++) {}
        (void)trace_where(t);
        trace_close(t);
    }
    trace_options o = {.format = TRACE_AUTO};
    trace_stats st;
    trace_stats_compute(path, &o, &st, err, sizeof err);
    close(fd);
    return 0;
}
