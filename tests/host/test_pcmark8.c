/* PCMark-like traces: every application's trace has the published counts
 * and bytes (within 2 %; in fact exactly), the same seed gives the same
 * records and another seed others, and the unpublished choices hold
 * (docs/pcmark-like.md): 4 KiB random requests dominant, larger sequential
 * ones, bursts and pauses, a duration of tens to hundreds of seconds, a
 * footprint a used 240 GB drive holds. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcmark8.h"
#include "stats.h"

static void stats_of(const trace_record *recs, size_t n, trace_stats *st)
{
    char path[128], err[512];
    snprintf(path, sizeof path, "/tmp/ssdlab-pcmark8-%d.bin", (int)getpid());
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(trace_write_header(f), 0);
    for (size_t i = 0; i < n; i++) cr_assert_eq(trace_write(f, &recs[i]), 0);
    fclose(f);
    trace_options o = {.format = TRACE_BINARY};
    cr_assert_eq(trace_stats_compute(path, &o, st, err, sizeof err), 0, "%s", err);
    unlink(path);
}

static void within_2_percent(double got, double published, const char *app, const char *what)
{
    cr_assert_leq(fabs(got - published), 0.02 * published, "%s: %s %.0f, published %.0f", app, what, got, published);
}

Test(pcmark8, every_trace_has_the_published_statistics)
{
    size_t count;
    const pcmark8_app *apps = pcmark8_apps(&count);
    cr_assert_eq(count, 10);
    for (size_t i = 0; i < count; i++) {
        const pcmark8_app *a = &apps[i];
        trace_record *recs;
        size_t n;
        char err[256];
        cr_assert_eq(pcmark8_generate(a, 1, &recs, &n, err, sizeof err), 0, "%s", err);
        trace_stats st;
        stats_of(recs, n, &st);
        within_2_percent((double)st.sequential_op[TRACE_READ], a->seq_reads, a->name, "sequential reads");
        within_2_percent((double)(st.count[TRACE_READ] - st.sequential_op[TRACE_READ]), a->rand_reads, a->name, "random reads");
        within_2_percent((double)st.sequential_op[TRACE_WRITE], a->seq_writes, a->name, "sequential writes");
        within_2_percent((double)(st.count[TRACE_WRITE] - st.sequential_op[TRACE_WRITE]), a->rand_writes, a->name, "random writes");
        within_2_percent((double)st.bytes[TRACE_READ], (double)a->mib_read * 1048576, a->name, "bytes read");
        within_2_percent((double)st.bytes[TRACE_WRITE], (double)a->mib_written * 1048576, a->name, "bytes written");
        /* tens to hundreds of seconds; writes inside the application's own
         * area, reads inside the drive's data */
        cr_assert(st.duration_s >= 20 && st.duration_s <= 360, "%s: %.1f s", a->name, st.duration_s);
        for (size_t k = 0; k < n; k++) {
            if (recs[k].op == TRACE_WRITE) {
                cr_assert_geq(recs[k].offset, i * PCMARK8_AREA, "%s", a->name);
                cr_assert_leq(recs[k].offset + recs[k].bytes, (i + 1) * PCMARK8_AREA, "%s", a->name);
            }
            cr_assert_leq(recs[k].offset + recs[k].bytes, PCMARK8_SPAN, "%s", a->name);
            cr_assert_eq(recs[k].offset % 4096, 0);
            if (k) cr_assert_geq(recs[k].time, recs[k - 1].time, "%s: time order", a->name);
        }
        free(recs);
    }
    cr_assert_leq(count * PCMARK8_AREA, PCMARK8_SPAN, "the write areas lie in the data");
    cr_assert_leq(PCMARK8_SPAN, 240000000000ull * 9 / 10, "the data fits a used 240 GB drive");
}

Test(pcmark8, same_seed_same_trace_another_seed_another)
{
    const pcmark8_app *word = pcmark8_find("word");
    cr_assert_not_null(word);
    cr_assert_null(pcmark8_find("notepad"));
    trace_record *a, *b, *c;
    size_t na, nb, nc;
    char err[256];
    cr_assert_eq(pcmark8_generate(word, 7, &a, &na, err, sizeof err), 0);
    cr_assert_eq(pcmark8_generate(word, 7, &b, &nb, err, sizeof err), 0);
    cr_assert_eq(pcmark8_generate(word, 8, &c, &nc, err, sizeof err), 0);
    cr_assert_eq(na, nb);
    cr_assert_eq(memcmp(a, b, na * sizeof *a), 0, "seed 7 twice: the same records");
    cr_assert_eq(na, nc, "the counts are the published ones whatever the seed");
    size_t differ = 0;
    for (size_t i = 0; i < na; i++) differ += a[i].offset != c[i].offset || a[i].time != c[i].time;
    cr_assert_gt(differ, na * 9 / 10, "seeds 7 and 8: %zu of %zu records differ", differ, na);
    free(a);
    free(b);
    free(c);
}

/* The unpublished choices: random requests mostly 4 KiB, sequential ones
 * larger on average; requests come in bursts (most gaps under a
 * millisecond) separated by pauses (a few gaps of a second or more). */
Test(pcmark8, desktop_shape_of_sizes_and_timing)
{
    const pcmark8_app *ps = pcmark8_find("photoshop-light");
    trace_record *r;
    size_t n;
    char err[256];
    cr_assert_eq(pcmark8_generate(ps, 1, &r, &n, err, sizeof err), 0);
    /* classify as the statistics do: sequential when a request starts where
     * the previous one of its kind ended */
    uint64_t end[2] = {UINT64_MAX, UINT64_MAX}, rand_n = 0, rand_4k = 0, seq_n = 0, seq_bytes = 0, rand_bytes = 0;
    size_t short_gaps = 0, long_gaps = 0;
    for (size_t i = 0; i < n; i++) {
        int op = r[i].op == TRACE_WRITE;
        if (r[i].offset == end[op]) seq_n++, seq_bytes += r[i].bytes;
        else rand_n++, rand_4k += r[i].bytes == 4096, rand_bytes += r[i].bytes;
        end[op] = r[i].offset + r[i].bytes;
        if (i) {
            sim_time_t gap = r[i].time - r[i - 1].time;
            short_gaps += gap < 1000000;
            long_gaps += gap >= 1000000000;
        }
    }
    cr_assert_gt(rand_4k * 10, rand_n * 6, "4 KiB is %lu of %lu random requests", (unsigned long)rand_4k, (unsigned long)rand_n);
    cr_assert_gt((double)seq_bytes / seq_n, 4.0 * rand_bytes / rand_n, "sequential requests are larger");
    cr_assert_gt(short_gaps * 10, n * 9, "%zu of %zu gaps under 1 ms: bursts", short_gaps, n);
    cr_assert_gt(long_gaps, 10, "%zu pauses of a second or more", long_gaps);
    free(r);
}
