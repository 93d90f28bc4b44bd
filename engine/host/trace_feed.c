/* A replay's records, read a batch ahead (trace_feed.h). */
#include "trace_feed.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcmark8.h"
#include "stats.h"
#include "trace_layout.h"
#include "trace_zones.h"

/* A record read ahead, with what reading up to it had done. */
typedef struct ahead_record {
    trace_record r;
    trace_feed_counts counts;
} ahead_record;

/* Two batches are read ahead: the one being taken and the next. The next
 * one's mapping entries are loaded as it is read; once it is the one being
 * taken, its writes' old places are fetched too, which needs the entries
 * in the cache, so a batch later. */
typedef struct feed_batch {
    ahead_record rec[TRACE_FEED_AHEAD];
    uint32_t count;
} feed_batch;

struct trace_feed {
    ssd *d;
    trace_reader *t;
    char path[PATH_MAX];
    char columns[512]; /* workload.trace_columns */
    trace_options opt;
    const pcmark8_app *app; /* a PCMark-like trace made in memory, or NULL */
    uint64_t app_seed;
    trace_layout lay;   /* where the records land on the drive */
    trace_zones zones;  /* a zoned device's trace onto the zoned namespace */
    uint64_t skip_records;
    sim_time_t skip_time;
    bool loop;
    uint64_t total_records; /* from the layout's pass; 0 unknown */
    sim_time_t span;

    /* The reading side, ahead of what is taken. */
    uint64_t record_number, pass_records;
    sim_time_t time_base; /* a loop's later passes arrive after the earlier ones */
    trace_feed_counts read;
    int end;              /* 1 while there is more to read; then 0 (the end) or -1 (bad input, in err) */
    feed_batch batch[2];
    uint32_t taking;    /* the batch being taken; the other is the next */
    uint32_t next_rec;  /* in the batch being taken */

    /* The taking side. */
    trace_feed_counts taken;
    int taken_end; /* 1 until the end (0) or the bad record (-1) is taken */
    char err[600];
};

static void read_batch(trace_feed *f, feed_batch *b);

/* --- the source --------------------------------------------------------------- */

/* Opens the trace, or makes the PCMark-like one (traces/pcmark8.c: the
 * same records 'ssdlab trace gen pcmark8' writes); again for each pass of
 * a loop. */
static int open_source(trace_feed *f, char *err, size_t errlen)
{
    if (!f->app) return (f->t = trace_open(f->path, &f->opt, err, errlen)) ? 0 : -1;
    trace_record *recs;
    size_t n;
    if (pcmark8_generate(f->app, f->app_seed, &recs, &n, err, errlen)) return -1;
    f->lay.max_end = 1; /* what scale maps onto the drive */
    for (size_t i = 0; i < n; i++)
        if (recs[i].offset + recs[i].bytes > f->lay.max_end) f->lay.max_end = recs[i].offset + recs[i].bytes;
    char name[96];
    snprintf(name, sizeof name, "pcmark8:%s", f->app->name);
    return (f->t = trace_open_records(recs, n, name, err, errlen)) ? 0 : -1;
}

/* What progress is measured against, from the first pass: the records of
 * the devices replayed (all, or those listed when the pass describes
 * them), and the trace's span. */
static void count_replayed(trace_feed *f, const trace_stats *st)
{
    f->span = (sim_time_t)(st->duration_s * 1e9);
    f->total_records = f->lay.device_count ? 0 : st->requests;
    for (uint32_t i = 0; f->lay.device_count && i < st->devices && i < STATS_DEVICES; i++)
        if (trace_layout_wants(&f->lay, st->device[i].id)) f->total_records += st->device[i].requests;
    if (f->total_records > f->skip_records) f->total_records -= f->skip_records;
}

static int read_source(trace_feed *f, const cfg *c, char *err, size_t errlen)
{
    if (!strcmp(cfg_str(c, "workload.source"), "pcmark8")) {
        f->app = pcmark8_find(cfg_str(c, "workload.pcmark8_app"));
        f->app_seed = cfg_uint(c, "workload.pcmark8_seed");
        if (!f->app) return snprintf(err, errlen, "key 'workload.pcmark8_app': unknown application"), -1;
        return 0;
    }
    const char *path = cfg_str(c, "workload.trace");
    if (strlen(path) >= sizeof f->path) return snprintf(err, errlen, "key 'workload.trace': the path is too long"), -1;
    snprintf(f->path, sizeof f->path, "%s", path);
    const char *columns = cfg_str(c, "workload.trace_columns");
    if (strlen(columns) >= sizeof f->columns) return snprintf(err, errlen, "key 'workload.trace_columns': longer than 511 characters"), -1;
    snprintf(f->columns, sizeof f->columns, "%s", columns);
    f->opt = (trace_options){.format = trace_format_parse(cfg_str(c, "workload.trace_format")),
                             .disksim_time_unit_ns = (double)cfg_uint(c, "workload.trace_time_unit"),
                             .blkparse_event = cfg_str(c, "workload.blkparse_event")[0],
                             .columns = f->columns};
    trace_stats st;
    bool counted;
    if (trace_layout_measure(&f->lay, f->path, &f->opt, &st, &counted, err, errlen)) return -1;
    if (counted) count_replayed(f, &st);
    return 0;
}

trace_feed *trace_feed_open(ssd *d, const cfg *c, char *err, size_t errlen)
{
    trace_feed *f = calloc(1, sizeof *f);
    if (!f) return snprintf(err, errlen, "out of memory"), NULL;
    f->d = d;
    f->skip_records = cfg_uint(c, "workload.start_record");
    f->skip_time = cfg_uint(c, "workload.start_time");
    f->loop = cfg_bool(c, "workload.loop");
    f->end = f->taken_end = 1;
    if (trace_zones_init(&f->zones, d, c, err, errlen) ||
        trace_layout_init(&f->lay, c, ssd_capacity(d), ssd_params_of(d)->unit, err, errlen) ||
        read_source(f, c, err, errlen) || open_source(f, err, errlen)) {
        trace_feed_close(f);
        return NULL;
    }
    read_batch(f, &f->batch[1]); /* the first to be taken; what reading it did counts as its records are taken */
    return f;
}

void trace_feed_close(trace_feed *f)
{
    if (!f) return;
    trace_close(f->t);
    trace_layout_free(&f->lay);
    free(f);
}

/* --- reading ------------------------------------------------------------------- */

/* workload.loop: the trace from its start again, arriving after the last
 * record of the pass before. 1 when it went round; 0 when it does not go
 * round (not asked to, or a pass gave no record); -1 when the file cannot
 * be opened again (the message in err; the reader of the pass before is
 * kept, so that what asks for its format still finds one). */
static int go_round(trace_feed *f)
{
    if (!f->loop || !f->pass_records) return 0;
    trace_reader *before = f->t;
    if (open_source(f, f->err, sizeof f->err)) {
        f->t = before;
        return -1;
    }
    trace_close(before);
    f->time_base = f->read.last_time;
    f->record_number = f->pass_records = 0;
    return 1;
}

/* The record's address on the drive, by the trace's layout (or, for a
 * zoned device's trace, zone by zone); false with the message in err. */
static bool place_on_drive(trace_feed *f, trace_record *r)
{
    char what[300];
    bool placed;
    if (f->zones.on || r->op >= TRACE_ZONE_APPEND) {
        placed = f->zones.on && trace_zones_map(&f->zones, r, what, sizeof what);
        if (!f->zones.on)
            snprintf(what, sizeof what, "a zone command, and workload.trace_zones is conventional; expected workload.trace_zones=zoned");
    } else {
        placed = trace_layout_place(&f->lay, r, what, sizeof what);
    }
    if (!placed) snprintf(f->err, sizeof f->err, "%s: %s", trace_where(f->t), what);
    return placed;
}

/* Before workload.start_record or workload.start_time: not replayed. */
static bool before_start(const trace_feed *f, const trace_record *r)
{
    return f->record_number <= f->skip_records || r->time < f->skip_time;
}

/* The next record of a replayed device, on the drive: 1, or 0 at the end,
 * -1 on bad input (message in err). */
static int read_record(trace_feed *f, trace_record *r)
{
    for (;;) {
        int rc = trace_next(f->t, r);
        if (rc < 0) {
            snprintf(f->err, sizeof f->err, "%s", trace_error(f->t));
            return -1;
        }
        if (rc == 0) {
            rc = go_round(f);
            if (rc == 1) continue;
            return rc;
        }
        f->record_number++;
        if (before_start(f, r)) continue;
        if (!trace_layout_wants(&f->lay, r->device)) {
            f->read.skipped++;
            continue;
        }
        f->pass_records++;
        r->time = f->time_base + (r->time - f->skip_time);
        f->read.last_time = r->time;
        if (!place_on_drive(f, r)) return -1;
        f->read.remapped = f->lay.remapped;
        return 1;
    }
}

/* Reads a batch, up to the end or a bad record, and has the drive load
 * its mapping entries where that pays. */
static void read_batch(trace_feed *f, feed_batch *b)
{
    uint64_t offsets[TRACE_FEED_AHEAD];
    b->count = 0;
    while (f->end == 1 && b->count < TRACE_FEED_AHEAD) {
        ahead_record *a = &b->rec[b->count];
        f->end = read_record(f, &a->r);
        if (f->end != 1) break;
        a->counts = f->read;
        offsets[b->count++] = a->r.offset;
    }
    if (b->count && ssd_warm_pays(f->d)) ssd_warm(f->d, offsets, b->count);
}

/* The batch about to be taken: its writes' old places, where warming pays. */
static void warm_overwrites(trace_feed *f, const feed_batch *b)
{
    uint64_t offsets[TRACE_FEED_AHEAD];
    uint32_t n = 0;
    if (!ssd_warm_pays(f->d)) return;
    for (uint32_t i = 0; i < b->count; i++)
        if (b->rec[i].r.op == TRACE_WRITE) offsets[n++] = b->rec[i].r.offset;
    if (n) ssd_warm_overwrites(f->d, offsets, n);
}

/* The batch being taken is done: the next one is taken from now on, and
 * the one after it is read into the place of the one done. (At the start
 * the batch being taken is an empty one, the next one read at opening.) */
static void next_batch(trace_feed *f)
{
    f->taking ^= 1;
    f->next_rec = 0;
    warm_overwrites(f, &f->batch[f->taking]);
    read_batch(f, &f->batch[f->taking ^ 1]);
}

int trace_feed_next(trace_feed *f, trace_record *r)
{
    if (f->taken_end != 1) return f->taken_end;
    feed_batch *b = &f->batch[f->taking];
    if (f->next_rec == b->count) {
        next_batch(f);
        b = &f->batch[f->taking];
    }
    if (f->next_rec == b->count) {
        /* The end, or the bad record: reading passed over the records
         * before it, and they count now. */
        f->taken.skipped = f->read.skipped;
        return f->taken_end = f->end;
    }
    const ahead_record *a = &b->rec[f->next_rec++];
    *r = a->r;
    f->taken = a->counts;
    return 1;
}

const char *trace_feed_error(const trace_feed *f) { return f->err; }
trace_feed_counts trace_feed_taken(const trace_feed *f) { return f->taken; }
uint64_t trace_feed_total_records(const trace_feed *f) { return f->total_records; }
sim_time_t trace_feed_span(const trace_feed *f) { return f->span > f->skip_time ? f->span - f->skip_time : 0; }

bool trace_feed_time_doubtful(const trace_feed *f, uint64_t completed, char *doubt, size_t len)
{
    char why[300];
    if (f->app || !trace_time_doubtful(trace_format_of(f->t), f->opt.disksim_time_unit_ns, completed,
                                       sim_time_to_sec(f->taken.last_time), why, sizeof why))
        return false;
    snprintf(doubt, len, "%.90s: %s", f->path, why);
    return true;
}
