/* PCMark-like traces: each operation's stream (reads, writes) is built from
 * runs (a file read or written in order: a head, counted random, and
 * followers, each starting where the last ended) and isolated random
 * requests; the two streams are interleaved and timed in bursts with
 * think-time pauses. Why each choice: docs/pcmark-like.md. */
#include "pcmark8.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Source: the traces' published statistics (Tom's Hardware, "How we test
 * storage", 2015).
 * Data read and written are taken as MiB, as the review sources of this
 * project write binary units. */
static const pcmark8_app apps[] = {
    {"photoshop-light", "Photoshop light", 1508, 17525, 18342, 1743, 313, 2336},
    {"photoshop-heavy", "Photoshop heavy", 4277, 18655, 44742, 2065, 468, 5640},
    {"illustrator", "Illustrator", 1036, 21923, 682, 532, 373, 89},
    {"indesign", "InDesign", 2359, 22207, 4874, 927, 401, 624},
    {"after-effects", "After Effects", 1772, 17793, 86, 500, 311, 16},
    {"word", "Word", 152, 4302, 748, 205, 107, 95},
    {"excel", "Excel", 72, 3148, 119, 87, 73, 15},
    {"powerpoint", "PowerPoint", 56, 3441, 147, 107, 83, 21},
    {"world-of-warcraft", "World of Warcraft", 1415, 14927, 10, 659, 390, 5},
    {"battlefield-3", "Battlefield 3", 5782, 43487, 218, 431, 887, 28},
};
enum { APP_COUNT = sizeof apps / sizeof apps[0] };

enum {
    PAGE = 4096,
    RUN_MEAN = 8,          /* requests per file run, when the random count allows */
    BURST_MEAN = 24,       /* requests per burst */
};
static const double HOT_SHARE = 0.5;              /* random requests that go to the hot set */
static const uint64_t HOT_BYTES = 768ull << 20;   /* the hot set: metadata, indexes, caches, at the area's start */
static const double BURST_GAP_S = 200e-6;         /* between requests of a burst: they queue up */
static const double SECONDS_PER_REQUEST = 5e-3;   /* a trace's length, within the bounds below */
static const double PAUSE_SIGMA = 1.5;            /* log-normal spread of the pauses */
static const double MIN_DURATION_S = 20, MAX_DURATION_S = 360;

const pcmark8_app *pcmark8_apps(size_t *count)
{
    *count = APP_COUNT;
    return apps;
}

const pcmark8_app *pcmark8_find(const char *name)
{
    for (size_t i = 0; i < APP_COUNT; i++)
        if (!strcmp(apps[i].name, name)) return &apps[i];
    return NULL;
}

/* One request of a stream, before timing. */
typedef struct item {
    uint64_t offset;
    uint32_t bytes;
} item;

/* Sizes of random requests: 4 KiB dominant, some small multiples. */
static uint32_t random_size(gsl_rng *r)
{
    static const uint32_t sizes[] = {4096, 8192, 16384, 32768, 65536};
    static const double weights[] = {0.70, 0.10, 0.10, 0.05, 0.05};
    double u = gsl_rng_uniform(r), acc = 0;
    for (size_t i = 0; i < 5; i++)
        if (u < (acc += weights[i])) return sizes[i];
    return sizes[0];
}

/* Sequential sizes: spread around the mean the bytes left call for, then
 * nudged in 4 KiB steps until they sum exactly to `total`. */
static int sequential_sizes(gsl_rng *r, uint32_t *sizes, uint32_t n, uint64_t total)
{
    if (!n) return total ? -1 : 0;
    double mean = (double)total / n;
    uint64_t hi = mean * 2 > (4u << 20) ? (uint64_t)(mean * 2) / PAGE * PAGE : (4u << 20), sum = 0;
    if (mean < PAGE) return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t s = (uint64_t)(mean * gsl_ran_flat(r, 0.25, 1.75)) / PAGE * PAGE;
        s = s < PAGE ? PAGE : s > hi ? hi : s;
        sizes[i] = (uint32_t)s;
        sum += s;
    }
    for (uint32_t i = 0; sum != total; i = (i + 1) % n) {
        if (sum < total && sizes[i] + PAGE <= hi) sizes[i] += PAGE, sum += PAGE;
        else if (sum > total && sizes[i] > PAGE) sizes[i] -= PAGE, sum -= PAGE;
    }
    return 0;
}

/* A 4 KiB-aligned place for `bytes` in [lo, hi). */
static uint64_t place(gsl_rng *r, uint64_t lo, uint64_t hi, uint32_t bytes)
{
    uint64_t slots = (hi - lo - bytes) / PAGE;
    return lo + gsl_rng_uniform_int(r, slots ? slots : 1) * PAGE;
}

typedef struct stream_plan {
    trace_op op;
    uint32_t n_seq, n_rand;
    uint64_t bytes;
    uint64_t area; /* the application's area */
} stream_plan;

/* Builds one operation's stream in order into out (n_seq + n_rand items). */
static int build_stream(gsl_rng *r, const stream_plan *sp, item *out, char *err, size_t errlen)
{
    uint32_t n = sp->n_seq + sp->n_rand;
    if (sp->n_seq && !sp->n_rand) {
        snprintf(err, errlen, "%u sequential requests but no random one to start their run", sp->n_seq);
        return -1;
    }
    uint32_t runs = sp->n_seq ? sp->n_seq / RUN_MEAN : 0;
    if (runs > sp->n_rand / 2) runs = sp->n_rand / 2;
    if (sp->n_seq && !runs) runs = 1;
    uint32_t *sizes = calloc(n + 1, sizeof *sizes), *followers = calloc(runs + 1, sizeof *followers);
    uint32_t *units = calloc(sp->n_rand + 1, sizeof *units); /* per unit: followers of a run, or 0 */
    int rc = sizes && followers && units ? 0 : -1;
    uint64_t rand_bytes = 0;
    /* random sizes first (heads included); if they would take more than
     * half the bytes, all random requests are 4 KiB */
    for (uint32_t i = 0; !rc && i < sp->n_rand; i++) rand_bytes += sizes[i] = random_size(r);
    if (!rc && rand_bytes * 2 > sp->bytes) {
        for (uint32_t i = 0; i < sp->n_rand; i++) sizes[i] = PAGE;
        rand_bytes = (uint64_t)sp->n_rand * PAGE;
    }
    if (!rc && (rand_bytes > sp->bytes || sequential_sizes(r, sizes + sp->n_rand, sp->n_seq, sp->bytes - rand_bytes))) {
        snprintf(err, errlen, "%u random and %u sequential requests cannot carry %llu bytes in 4 KiB steps", sp->n_rand,
                 sp->n_seq, (unsigned long long)sp->bytes);
        rc = -1;
    }
    /* followers per run: one each, the rest spread by exponential weights */
    if (!rc && runs) {
        double *w = calloc(runs, sizeof *w), wsum = 0;
        uint32_t given = 0;
        if (!w) rc = -1;
        for (uint32_t i = 0; !rc && i < runs; i++) wsum += w[i] = gsl_ran_exponential(r, 1.0);
        for (uint32_t i = 0; !rc && i < runs; i++) given += followers[i] = 1 + (uint32_t)((sp->n_seq - runs) * w[i] / wsum);
        for (uint32_t i = 0; !rc && given < sp->n_seq; i = (i + 1) % runs) followers[i]++, given++;
        free(w);
    }
    /* the stream's units (isolated requests and runs) in random order */
    for (uint32_t i = 0; !rc && i < sp->n_rand; i++) units[i] = i < runs ? followers[i] : 0;
    if (!rc) gsl_ran_shuffle(r, units, sp->n_rand, sizeof *units);
    uint64_t lo = sp->area, hi = sp->area + PCMARK8_AREA, half = lo + PCMARK8_AREA / 2, cursor = half, end = UINT64_MAX;
    uint32_t next_rand = 0, next_seq = sp->n_rand, k = 0;
    for (uint32_t u = 0; !rc && u < sp->n_rand; u++) {
        uint32_t head = sizes[next_rand++];
        uint64_t run_bytes = head;
        for (uint32_t f = 0; f < units[u]; f++) run_bytes += sizes[next_seq + f];
        uint64_t at;
        do {
            if (units[u] && sp->op == TRACE_WRITE) { /* new files: appended where the last one ended, after a gap */
                if (cursor + PAGE + run_bytes > hi) cursor = half;
                at = cursor + PAGE;
            } else if (units[u]) { /* a file read: anywhere in the drive's data */
                at = place(r, 0, PCMARK8_SPAN, (uint32_t)run_bytes);
            } else if (gsl_rng_uniform(r) < HOT_SHARE) {
                at = place(r, lo, lo + HOT_BYTES, head);
            } else { /* cold: reads anywhere in the data, writes into the area's older files */
                at = sp->op == TRACE_WRITE ? place(r, lo, half, head) : place(r, 0, PCMARK8_SPAN, head);
            }
            if (at == end) cursor += PAGE; /* would count as sequential: somewhere else */
        } while (at == end);
        out[k++] = (item){at, head};
        end = at + head;
        for (uint32_t f = 0; f < units[u]; f++) {
            out[k++] = (item){end, sizes[next_seq]};
            end += sizes[next_seq++];
        }
        if (units[u] && sp->op == TRACE_WRITE) cursor = end;
    }
    free(sizes);
    free(followers);
    free(units);
    if (rc && !err[0]) snprintf(err, errlen, "out of memory");
    return rc;
}

/* Times: bursts of about BURST_MEAN requests BURST_GAP_S apart, separated
 * by think-time pauses, log-normal (many short, a few of seconds: a user
 * reading, typing, choosing), scaled so the trace lasts its duration. */
static int set_times(gsl_rng *r, trace_record *recs, size_t n)
{
    double duration = n * SECONDS_PER_REQUEST;
    duration = duration < MIN_DURATION_S ? MIN_DURATION_S : duration > MAX_DURATION_S ? MAX_DURATION_S : duration;
    double *pause = calloc(n + 1, sizeof *pause), pauses = 0;
    if (!pause) return -1;
    size_t bursts = 0;
    for (size_t i = 1; i < n; i++)
        if (gsl_rng_uniform(r) < 1.0 / BURST_MEAN) pauses += pause[i] = gsl_ran_lognormal(r, 0, PAUSE_SIGMA), bursts++;
    double in_bursts = (double)(n - 1 - bursts) * BURST_GAP_S, scale = pauses > 0 ? (duration - in_bursts) / pauses : 0, t = 0;
    for (size_t i = 0; i < n; i++) {
        if (i) t += pause[i] > 0 ? pause[i] * scale : BURST_GAP_S;
        /* whole 100 ns ticks, so a trace written as MSR CSV reads back the same */
        recs[i].time = (sim_time_t)llround(t * 1e7) * 100;
    }
    free(pause);
    return 0;
}

int pcmark8_generate(const pcmark8_app *app, uint64_t seed, trace_record **records, size_t *count, char *err, size_t errlen)
{
    size_t index = (size_t)(app - apps);
    uint64_t area = index * PCMARK8_AREA;
    stream_plan plans[2] = {{TRACE_READ, app->seq_reads, app->rand_reads, (uint64_t)app->mib_read << 20, area},
                            {TRACE_WRITE, app->seq_writes, app->rand_writes, (uint64_t)app->mib_written << 20, area}};
    size_t n[2] = {plans[0].n_seq + plans[0].n_rand, plans[1].n_seq + plans[1].n_rand}, total = n[0] + n[1];
    item *streams[2] = {calloc(n[0] + 1, sizeof(item)), calloc(n[1] + 1, sizeof(item))};
    trace_record *recs = calloc(total + 1, sizeof *recs);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    err[0] = 0;
    int rc = streams[0] && streams[1] && recs && r ? 0 : -1;
    uint64_t key = seed * APP_COUNT + index + 1; /* each application its own stream */
    if (!rc) gsl_rng_set(r, (unsigned long)((key ^ key >> 32) & 0xffffffffu));
    for (int op = 0; op < 2 && !rc; op++) rc = build_stream(r, &plans[op], streams[op], err, errlen);
    /* interleave: the next request is a read with the share of reads left */
    size_t taken[2] = {0, 0};
    for (size_t i = 0; !rc && i < total; i++) {
        size_t left_r = n[0] - taken[0], left_w = n[1] - taken[1];
        int op = gsl_rng_uniform(r) * (double)(left_r + left_w) < (double)left_r ? 0 : 1;
        const item *it = &streams[op][taken[op]++];
        recs[i] = (trace_record){.offset = it->offset, .bytes = it->bytes, .op = op ? TRACE_WRITE : TRACE_READ};
    }
    if (!rc) rc = set_times(r, recs, total);
    if (rc && !err[0]) snprintf(err, errlen, "out of memory");
    if (rc) snprintf(err + strlen(err), errlen - strlen(err), " (%s)", app->name);
    free(streams[0]);
    free(streams[1]);
    if (r) gsl_rng_free(r);
    if (rc) {
        free(recs);
        recs = NULL;
        total = 0;
    }
    *records = recs;
    *count = total;
    return rc;
}
