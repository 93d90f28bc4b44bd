/* Windows xperf dumper output (`xperf -i trace.etl -a dumper`), the
 * layout of the Microsoft production server traces (SNIA IOTTA): a header
 * from BeginHeader to EndHeader gives each event's fields, then one
 * comma-separated line per event:
 *
 *   DiskRead, TimeStamp, Process Name ( PID), ThreadID, IrpPtr, ByteOffset,
 *             IOSize, ElapsedTime, DiskNum, IrpFlags, DiskSvcTime, ...
 *
 * TimeStamp and ElapsedTime in microseconds, ByteOffset and IOSize in hex
 * bytes. xperf logs a disk I/O when it completes: the request arrived at
 * TimeStamp - ElapsedTime. DiskRead and DiskWrite are replayed, DiskFlush
 * counted and skipped, other events (the Init events, and every other
 * kind in the dump) passed over. */
#include <stdio.h>
#include <string.h>

#include "reader.h"

enum { X_TIME, X_ELAPSED, X_OFFSET, X_SIZE, X_FIELDS };
static const char *const xperf_fields[X_FIELDS] = {"TimeStamp", "ElapsedTime", "ByteOffset", "IOSize"};

bool xperf_header(const char *line)
{
    while (*line == ' ' || *line == '\t') line++;
    return !strncmp(line, "BeginHeader", 11);
}

/* 0 DiskRead, 1 DiskWrite, 2 DiskFlush, -1 another event. */
static int event_of(const char *name)
{
    if (!strcmp(name, "DiskRead")) return 0;
    if (!strcmp(name, "DiskWrite")) return 1;
    return !strcmp(name, "DiskFlush") ? 2 : -1;
}

/* A header line that lays out DiskRead or DiskWrite: where its fields are. */
static void layout(trace_reader *t, char *line)
{
    char *f[MAX_FIELDS];
    int n = split_quoted(line, ',', f), e = n ? event_of(f[0]) : -1;
    if (e < 0 || e > 1) return;
    for (int k = 0; k < X_FIELDS; k++) t->xperf_at[e][k] = -1;
    t->xperf_disk[e] = -1;
    for (int i = 1; i < n; i++) {
        for (int k = 0; k < X_FIELDS; k++)
            if (!strcmp(f[i], xperf_fields[k])) t->xperf_at[e][k] = i;
        if (!strcmp(f[i], "DiskNum")) t->xperf_disk[e] = i;
    }
}

static int start_xperf(trace_reader *t, char *err, size_t errlen)
{
    t->cols = (column_map){.decimal = '.', .sep = ','};
    for (int e = 0; e < 2; e++) t->xperf_at[e][X_TIME] = -1;
    char *line;
    size_t len;
    int rc;
    while ((rc = input_line(t->in, &line, &len)) == 1 && !xperf_header(line)) {}
    while (rc == 1 && (rc = input_line(t->in, &line, &len)) == 1 && !strstr(line, "EndHeader")) layout(t, line);
    if (rc != 1)
        return snprintf(err, errlen, "%s: no BeginHeader ... EndHeader block; expected the output of 'xperf -a dumper'", t->path), -1;
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < X_FIELDS; k++)
            if (t->xperf_at[e][k] < 0)
                return snprintf(err, errlen, "%s:%llu: the header lays out no %s field of %s; expected DiskRead and DiskWrite with "
                                             "TimeStamp, ElapsedTime, ByteOffset and IOSize",
                                t->path, (unsigned long long)input_line_number(t->in), xperf_fields[k], e ? "DiskWrite" : "DiskRead"), -1;
    return 0;
}

static int field(trace_reader *t, char **f, int n, int at, const char *name, uint64_t *value)
{
    double v;
    if (at >= 0 && at < n && column_number(&t->cols, f[at], &v, value)) return 0;
    char what[120];
    snprintf(what, sizeof what, "the %s (field %d) is missing or not a number", name, at + 1);
    return reader_bad(t, what, "a decimal or 0x hex number");
}

static int parse_xperf(trace_reader *t, char *line, trace_record *r)
{
    char *f[MAX_FIELDS];
    int n = split_quoted(line, ',', f), e = n ? event_of(f[0]) : -1;
    if (e < 0) return 0;
    if (e == 2) {
        t->skipped++;
        t->skipped_kind = "DiskFlush events";
        return 0;
    }
    uint64_t v[X_FIELDS], disk = 0;
    for (int k = 0; k < X_FIELDS; k++)
        if (field(t, f, n, t->xperf_at[e][k], xperf_fields[k], &v[k])) return -1;
    if (t->xperf_disk[e] >= 0 && field(t, f, n, t->xperf_disk[e], "DiskNum", &disk)) return -1;
    r->op = e ? TRACE_WRITE : TRACE_READ;
    r->offset = v[X_OFFSET];
    r->device = (uint32_t)disk;
    if (reader_sized(t, v[X_SIZE], r) < 0) return -1;
    /* arrivals are not in order (completions are): one before the first
     * record's arrives with it */
    uint64_t arrival = v[X_TIME] > v[X_ELAPSED] ? v[X_TIME] - v[X_ELAPSED] : 0;
    if (t->have_base && arrival < t->base_ticks) arrival = t->base_ticks;
    return reader_set_ticks(t, arrival, 1e3, r) < 0 ? -1 : 1;
}

const trace_kind trace_kind_xperf = {.name = "xperf", .start = start_xperf, .line = parse_xperf};
