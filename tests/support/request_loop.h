/* Tests' closed loop of 4 KiB requests on a drive: up to REQUEST_LOOP_MAX
 * in flight, each one done issuing the next; trims, reads and writes by
 * share, at random units below `units` or at units in turn. */
#ifndef SSDLAB_TEST_REQUEST_LOOP_H
#define SSDLAB_TEST_REQUEST_LOOP_H

#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>

#include "sim_config.h"
#include "ssd.h"

enum { REQUEST_LOOP_MAX = 16 };

typedef struct request_loop {
    cfg *c;
    sim *s;
    ssd *d;
    gsl_rng *rng;
    ssdlab_request reqs[REQUEST_LOOP_MAX];
    uint64_t to_issue;
    uint64_t units;     /* random requests fall below this unit */
    uint64_t next_unit; /* the next one in turn, when sequential */
    double trim_share, read_share;
    bool sequential;
} request_loop;

static inline void request_loop_issue(request_loop *v, ssdlab_request *r);

static inline void request_loop_done(ssdlab_request *r, void *ctx)
{
    request_loop *v = ctx;
    if (v->to_issue) request_loop_issue(v, r);
}

static inline void request_loop_issue(request_loop *v, ssdlab_request *r)
{
    v->to_issue--;
    double u = gsl_rng_uniform(v->rng);
    uint64_t unit = v->sequential ? v->next_unit++ % v->units : gsl_rng_uniform_int(v->rng, v->units);
    r->op = u < v->trim_share ? SSDLAB_TRIM : u < v->trim_share + v->read_share ? SSDLAB_READ : SSDLAB_WRITE;
    r->offset = unit * 4096;
    r->bytes = 4096;
    cr_assert_eq(ssd_submit(v->d, r, request_loop_done, v), 0);
}

/* Runs n requests, depth at a time, to the last one's completion. */
static inline void request_loop_run(request_loop *v, uint64_t n, int depth)
{
    cr_assert_leq(depth, REQUEST_LOOP_MAX);
    v->to_issue = n;
    for (int i = 0; i < depth && v->to_issue; i++) request_loop_issue(v, &v->reqs[i]);
    sim_run(v->s, SIM_TIME_MAX);
    cr_assert_eq(ssd_outstanding(v->d), 0);
}

#endif
