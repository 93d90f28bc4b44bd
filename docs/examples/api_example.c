/* A complete program that drives the SSD model through libssdlab's public
 * API: it writes 64 MiB sequentially at queue depth 8, then reads 4 KiB
 * blocks back at random at queue depth 1, and prints the mean latencies.
 * Build:  cc -std=c11 docs/examples/api_example.c -I engine -L build/engine -lssdlab \
 *             $(pkg-config --libs gsl yaml-0.1) -lm
 * Run:    ./a.out models/drives/example-sata-480.yaml
 * (tests/CMakeLists.txt builds and runs it, so it cannot rot.) */
#include <stdio.h>
#include <stdlib.h>

#include "ssdlab.h"

typedef struct job {
    ssdlab_drive *drive;
    ssdlab_op op;
    uint64_t next_offset, end, issued;
    unsigned seed;
} job;

static void submit_next(job *j, ssdlab_request *r);

static void on_done(ssdlab_request *r, void *ctx)
{
    job *j = ctx;
    if (j->issued < j->end) submit_next(j, r);
}

static void submit_next(job *j, ssdlab_request *r)
{
    r->op = j->op;
    r->bytes = j->op == SSDLAB_WRITE ? 131072 : 4096;
    if (j->op == SSDLAB_WRITE) {
        r->offset = j->next_offset;
        j->next_offset += r->bytes;
        j->issued += r->bytes;
    } else {
        j->seed = j->seed * 1103515245u + 12345u; /* a small LCG keeps the example self-contained */
        r->offset = (uint64_t)((j->seed >> 8) % (64 << 8)) * 4096; /* inside the 64 MiB written */
        j->issued++;
    }
    if (ssdlab_submit(j->drive, r, on_done, j) != 0) {
        fprintf(stderr, "request refused\n");
        exit(1);
    }
}

int main(int argc, char **argv)
{
    char err[1024];
    const char *sets[] = {"sim.seed=7"};
    ssdlab_drive *d = ssdlab_open(argc > 1 ? argv[1] : NULL, sets, 1, err, sizeof err);
    if (!d) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    ssdlab_request slots[8] = {0};
    job w = {.drive = d, .op = SSDLAB_WRITE, .end = 64 << 20};
    for (int i = 0; i < 8; i++) submit_next(&w, &slots[i]);
    ssdlab_run_until_idle(d);

    job r = {.drive = d, .op = SSDLAB_READ, .end = 10000, .seed = 1};
    submit_next(&r, &slots[0]);
    ssdlab_run_until_idle(d);

    ssdlab_stats st;
    ssdlab_stats_get(d, &st);
    printf("writes: %llu, mean latency %.1f us\n", (unsigned long long)st.completed[SSDLAB_WRITE],
           st.latency_sum_ns[SSDLAB_WRITE] / (double)st.completed[SSDLAB_WRITE] / 1000);
    printf("reads:  %llu, mean latency %.1f us\n", (unsigned long long)st.completed[SSDLAB_READ],
           st.latency_sum_ns[SSDLAB_READ] / (double)st.completed[SSDLAB_READ] / 1000);
    printf("simulated time %.3f s\n", (double)ssdlab_now(d) * 1e-9);
    ssdlab_close(d);
    return 0;
}
