/* NVMe command arbitration: the policies' order on their own (exact), and
 * the shares a saturated drive serves its queues (within 2 % of the
 * weights), urgent queues first. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"
#include "sim_config.h"
#include "ssd.h"

/* --- the arbiter alone -------------------------------------------------------- */

enum { MANY = 4000 };
static ssdlab_request reqs[MANY];

/* Two or three queues, each with `per_queue` commands waiting (ids in
 * arrival order: queue 0 first). */
static void fill_queues(arbiter *a, uint32_t queues, uint32_t per_queue)
{
    uint64_t id = 0;
    for (uint32_t q = 0; q < queues; q++)
        for (uint32_t i = 0; i < per_queue; i++) {
            ssdlab_request *r = &reqs[id];
            memset(r, 0, sizeof *r);
            r->queue = q;
            r->id = id++;
            arbiter_arrive(a, r);
        }
}

/* Fetches n commands one at a time (each completes before the next is
 * fetched: a window of one) and counts them per queue; the order goes to
 * `order` when given. */
static void serve(arbiter *a, uint32_t n, uint32_t counts[3], char *order)
{
    memset(counts, 0, 3 * sizeof *counts);
    for (uint32_t i = 0; i < n; i++) {
        ssdlab_request *r = arbiter_fetch(a);
        cr_assert_not_null(r, "fetch %u", i);
        counts[r->queue]++;
        if (order) order[i] = (char)('A' + r->queue);
        arbiter_done(a, r);
    }
    if (order) order[n] = 0;
}

static const uint32_t equal[CLASSES] = {0, 1, 1, 1};

/* The order (A, B: queue 0, 1) in which `policy` serves two queues of
 * `per_queue` commands each, n of them. */
static const char *served_order(const char *policy, uint32_t per_queue, uint32_t window, uint32_t burst, uint32_t n)
{
    static char order[64];
    arbiter a;
    cr_assert_eq(arbiter_init(&a, arbiter_policy_named(policy), 2, 32, window, burst, equal), 0);
    fill_queues(&a, 2, per_queue);
    uint32_t counts[3];
    serve(&a, n, counts, order);
    arbiter_free(&a);
    return order;
}

Test(arbiter, fifo_takes_the_oldest_command) { cr_assert_str_eq(served_order("fifo", 3, 1, 1, 6), "AAABBB"); }

Test(arbiter, round_robin_with_a_burst)
{
    cr_assert_str_eq(served_order("rr", 6, 1, 1, 6), "ABABAB");
    cr_assert_str_eq(served_order("rr", 6, 0, 4, 12), "AAAABBBBAABB", "a burst of 4, then what is left");
}

/* wrr: high 4, low 1 per round: 80 % and 20 % exactly over whole rounds;
 * an urgent queue is served before either while it has commands. */
Test(arbiter, weighted_round_robin_and_urgent)
{
    const uint32_t weights[CLASSES] = {0, 4, 2, 1};
    arbiter a;
    cr_assert_eq(arbiter_init(&a, arbiter_policy_named("wrr"), 3, 4096, 1, 1, weights), 0);
    arbiter_set_class(&a, 0, CLASS_HIGH);
    arbiter_set_class(&a, 1, CLASS_LOW);
    arbiter_set_class(&a, 2, CLASS_URGENT);
    fill_queues(&a, 2, 1000);
    uint32_t counts[3];
    serve(&a, 1000, counts, NULL);
    cr_assert_eq(counts[0], 800);
    cr_assert_eq(counts[1], 200);
    for (int i = 0; i < 5; i++) {
        ssdlab_request *r = &reqs[2000 + i];
        memset(r, 0, sizeof *r);
        r->queue = 2;
        r->id = 2000 + (uint64_t)i;
        arbiter_arrive(&a, r);
    }
    char order[16];
    serve(&a, 8, counts, order);
    cr_assert_eq(strncmp(order, "CCCCC", 5), 0, "urgent first: %s", order);
    cr_assert_eq(counts[2], 5);
    arbiter_free(&a);
}

/* A queue at its depth is passed over; the window caps all queues. */
Test(arbiter, depth_and_window)
{
    arbiter a;
    cr_assert_eq(arbiter_init(&a, arbiter_policy_named("rr"), 2, 2, 3, 1, equal), 0);
    fill_queues(&a, 2, 4);
    ssdlab_request *got[4];
    for (int i = 0; i < 3; i++) cr_assert_not_null(got[i] = arbiter_fetch(&a));
    cr_assert_null(arbiter_fetch(&a), "the window holds 3");
    cr_assert_eq(got[0]->queue, 0);
    cr_assert_eq(got[1]->queue, 1);
    cr_assert_eq(got[2]->queue, 0);
    arbiter_done(&a, got[2]);
    cr_assert_not_null(got[3] = arbiter_fetch(&a));
    cr_assert_eq(got[3]->queue, 1, "queue 0 holds 1 of its 2, queue 1 comes round");
    arbiter_done(&a, got[0]);
    arbiter_done(&a, got[1]);
    arbiter_done(&a, got[3]);
    arbiter_free(&a);
}

/* --- a saturated drive -------------------------------------------------------- */

typedef struct load {
    ssd *d;
    ssdlab_request reqs[2][64];
    uint64_t done[2], offset;
    bool counting, stop;
} load;

static void resubmit(ssdlab_request *r, void *ctx)
{
    load *l = ctx;
    if (l->counting) l->done[r->queue]++;
    if (l->stop) return;
    r->op = SSDLAB_READ;
    r->bytes = 4096;
    l->offset = (l->offset * 6364136223846793005ull + 1442695040888963407ull);
    r->offset = (l->offset >> 20) % (ssd_capacity(l->d) / 4096) * 4096;
    cr_assert_eq(ssd_submit(l->d, r, resubmit, l), 0);
}

/* Two queues of 32 reads each kept in flight on an NVMe drive whose
 * controller holds 8 commands: the served shares follow the policy. */
static void shares(const char *const *extra, double *share0)
{
    cfg *c = cfg_create(ssdlab_schema());
    static const char *const base[] = {"host.interface=nvme", "host.queues=2", "host.max_queue_depth=32", "host.controller_commands=8",
                                       "controller.channels=2", "controller.dies_per_channel=2", "drive.user_capacity=2GB",
                                       "nand.blocks_per_plane=64"};
    for (size_t i = 0; i < sizeof base / sizeof *base; i++) cfg_set_override(c, base[i]);
    for (; *extra; extra++) cfg_set_override(c, *extra);
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    sim_options o = sim_options_from_config(c);
    sim *s = sim_create(&o);
    char err[512];
    load *l = calloc(1, sizeof *l);
    l->d = ssd_create(s, c, err, sizeof err);
    cr_assert_not_null(l->d, "%s", err);
    ssd_precondition(l->d, 0, sim_rng(s, "precondition"));
    for (uint32_t q = 0; q < 2; q++)
        for (int i = 0; i < 32; i++) {
            l->reqs[q][i].queue = q;
            resubmit(&l->reqs[q][i], l);
        }
    sim_run(s, sim_now(s) + 20000000);  /* 20 ms to settle */
    l->counting = true;
    sim_run(s, sim_now(s) + 500000000); /* 500 ms counted */
    l->counting = false;
    l->stop = true;
    sim_run(s, SIM_TIME_MAX);
    cr_assert_gt(l->done[0] + l->done[1], 20000, "%llu reads", (unsigned long long)(l->done[0] + l->done[1]));
    *share0 = (double)l->done[0] / (double)(l->done[0] + l->done[1]);
    ssd_free(l->d);
    free(l);
    sim_free(s);
    cfg_free(c);
}

Test(arbitration, served_shares_follow_the_weights)
{
    double share;
    shares((const char *const[]){"host.arbitration=rr", NULL}, &share);
    cr_assert_float_eq(share, 0.5, 0.005, "rr: %.4f", share);
    shares((const char *const[]){"host.arbitration=wrr", "host.queue_classes=high,low", "host.wrr_weight_high=3",
                                 "host.wrr_weight_low=1", NULL},
           &share);
    cr_assert_float_eq(share, 0.75, 0.005, "wrr 3:1 (2 per cent is 0.015): %.4f", share);
    shares((const char *const[]){"host.arbitration=wrr", "host.queue_classes=urgent,low", NULL}, &share);
    cr_assert_gt(share, 0.999, "urgent takes all while it waits: %.6f", share);
}

/* Queues of their own sizes: with no window, each holds its own depth. */
Test(arbiter, queues_of_different_depths)
{
    arbiter a;
    cr_assert_eq(arbiter_init(&a, arbiter_policy_named("rr"), 2, 3, 0, 1, equal), 0);
    arbiter_set_depth(&a, 1, 1);
    fill_queues(&a, 2, 5);
    uint32_t held[2] = {0, 0};
    ssdlab_request *last1 = NULL;
    for (ssdlab_request *r; (r = arbiter_fetch(&a));) {
        held[r->queue]++;
        if (r->queue == 1) last1 = r;
    }
    cr_assert_eq(held[0], 3);
    cr_assert_eq(held[1], 1);
    arbiter_done(&a, last1);
    ssdlab_request *r = arbiter_fetch(&a);
    cr_assert(r && r->queue == 1, "queue 1's place is free again");
    cr_assert_null(arbiter_fetch(&a));
    arbiter_free(&a);
}

/* host.queue_depths sizes the queues of a drive; a bad entry is refused. */
Test(arbitration, queue_depths_key)
{
    cfg *c = cfg_create(ssdlab_schema());
    cfg_set_override(c, "host.interface=nvme");
    cfg_set_override(c, "host.queues=2");
    cfg_set_override(c, "host.queue_depths=8,x");
    ssd_params p;
    char err[512];
    cr_assert_eq(ssd_params_load(&p, c, err, sizeof err), -1);
    cr_assert(strstr(err, "key 'host.queue_depths': entry 2 is not a depth of 0 to 65536"), "%s", err);
    cfg_set_override(c, "host.queue_depths=8,,4");
    cr_assert_eq(ssd_params_load(&p, c, err, sizeof err), -1, "three entries for two queues");
    cfg_set_override(c, "host.queue_depths=8,0");
    cr_assert_eq(ssd_params_load(&p, c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(p.queue_depth[0], 8);
    cr_assert_eq(p.queue_depth[1], 0);
    cfg_free(c);
}
