/* The die schedulers on hand-made queues: which transaction a free die
 * starts, worked out by hand. FLIN-like: light flows first, then the flow
 * with the highest estimated slowdown, and wait balancing between classes. */
#include <criterion/criterion.h>
#include <string.h>

#include "flash.h"

static const flash_scheduler *scheduler(const char *name)
{
    for (const flash_scheduler *s = flash_schedulers; s->name; s++)
        if (!strcmp(s->name, name)) return s;
    cr_assert_fail("no scheduler %s", name);
    return NULL;
}

enum { MAX_TXNS = 8 };

typedef struct queues {
    flash_queues q;
    txn t[MAX_TXNS];
    ssdlab_request req[MAX_TXNS];
    int n;
} queues;

/* Appends a transaction of class c from submission queue `flow` (-1: the
 * drive's own work), queued at `at`; its tag is its index. */
static txn *add(queues *g, int c, int flow, sim_time_t at)
{
    cr_assert_lt(g->n, MAX_TXNS);
    txn *t = &g->t[g->n];
    *t = (txn){.kind = c == FLASH_CLASS_READ ? TX_READ : c == FLASH_CLASS_PROGRAM ? TX_PROGRAM : TX_ERASE,
               .seq = (uint64_t)g->n, .queued = at, .tu = (uint32_t)g->n};
    if (flow >= 0) {
        g->req[g->n] = (ssdlab_request){.queue = (uint32_t)flow};
        t->req = &g->req[g->n];
    }
    if (g->q.tail[c]) g->q.tail[c]->next = t;
    else g->q.head[c] = t;
    g->q.tail[c] = t;
    g->n++;
    return t;
}

static int pick(queues *g, const char *name, sim_time_t now)
{
    flash_pick_view v = {.now = now, .service = {100, 1000, 3000}};
    txn *t = scheduler(name)->pick(&g->q, &v);
    return t ? (int)t->tu : -1;
}

/* Flow 0 has three reads queued, flow 1 one, behind them: flow 1 is the
 * light flow and goes first; then flow 0's in order. */
Test(flin, a_flow_with_one_operation_at_the_die_goes_first)
{
    queues g = {0};
    for (int i = 0; i < 3; i++) add(&g, FLASH_CLASS_READ, 0, 0);
    add(&g, FLASH_CLASS_READ, 1, 0);
    int order[4];
    for (int i = 0; i < 4; i++) order[i] = pick(&g, "flin", 0);
    cr_assert_arr_eq(order, ((int[]){3, 0, 1, 2}), sizeof order);
    cr_assert_eq(pick(&g, "flin", 0), -1, "the queues are empty");
    cr_assert_null(g.q.tail[FLASH_CLASS_READ]);
}

/* Flows 0 and 1 have two reads each, flow 0's first, all queued now. In
 * units of the read's service: flow 0's wait shared (position + 1) over
 * alone (its own count so far) is 1/1 and 2/2, mean 1; flow 1's is 3/1
 * and 4/2, mean 2.5. Flow 1 is slowed most: its oldest read (#2) goes. */
Test(flin, the_flow_slowed_most_goes_next)
{
    queues g = {0};
    add(&g, FLASH_CLASS_READ, 0, 0);
    add(&g, FLASH_CLASS_READ, 0, 0);
    add(&g, FLASH_CLASS_READ, 1, 0);
    add(&g, FLASH_CLASS_READ, 1, 0);
    cr_assert_eq(pick(&g, "flin", 0), 2);
    /* Now flow 1 has one read left (#3): the light flow. */
    cr_assert_eq(pick(&g, "flin", 0), 3);
    cr_assert_eq(pick(&g, "flin", 0), 0);
    cr_assert_eq(pick(&g, "flin", 0), 1);
}

/* Time waited counts: flow 0's two reads have waited 600 ns (6 services),
 * flow 1's two only now. Flow 0: (6+1)/1 and (6+2)/2, mean 5.5; flow 1:
 * 3/1 and 4/2, mean 2.5. Flow 0's oldest goes. */
Test(flin, a_long_wait_raises_a_flows_slowdown)
{
    queues g = {0};
    add(&g, FLASH_CLASS_READ, 0, 0);
    add(&g, FLASH_CLASS_READ, 0, 0);
    add(&g, FLASH_CLASS_READ, 1, 600);
    add(&g, FLASH_CLASS_READ, 1, 600);
    cr_assert_eq(pick(&g, "flin", 600), 0);
}

/* Wait balancing: a read that waited 50 ns (service 100) has a proportional
 * wait of 1.5; a program that waited 3000 ns (service 1000) one of 4: the
 * program goes first. Had the program waited 400 ns (1.4), the read would. */
Test(flin, the_class_waiting_longest_for_its_service_goes_first)
{
    queues g = {0};
    add(&g, FLASH_CLASS_PROGRAM, -1, 0);
    add(&g, FLASH_CLASS_READ, 0, 2950);
    cr_assert_eq(pick(&g, "flin", 3000), 0);

    queues h = {0};
    add(&h, FLASH_CLASS_PROGRAM, -1, 2600);
    add(&h, FLASH_CLASS_READ, 0, 2950);
    cr_assert_eq(pick(&h, "flin", 3000), 1);
}

/* Reads-first, for contrast, takes the read whatever the program waited. */
Test(flin, read_first_ignores_waits)
{
    queues g = {0};
    add(&g, FLASH_CLASS_PROGRAM, -1, 0);
    add(&g, FLASH_CLASS_READ, 0, 2950);
    cr_assert_eq(pick(&g, "read-first", 3000), 1);
}

/* Queues beyond FLASH_FLOWS share a flow: queue 64 is flow 0's. */
Test(flin, queues_past_the_flow_count_fold_onto_flows)
{
    queues g = {0};
    add(&g, FLASH_CLASS_READ, 0, 0);
    add(&g, FLASH_CLASS_READ, FLASH_FLOWS, 0);
    add(&g, FLASH_CLASS_READ, 1, 0);
    cr_assert_eq(pick(&g, "flin", 0), 2, "flow 1 is the light one");
}

/* A scheduler that says its choice is settled must pick that transaction
 * whatever joins the queues' tails first. Reads-first: a waiting read is
 * settled, a program or erase at the head is not (a read may pass it);
 * FIFO: the oldest head always; FLIN weighs waits against the time, so it
 * never says. */
static int settled(queues *g, const char *name)
{
    const flash_scheduler *s = scheduler(name);
    if (!s->settled) return -2;
    const txn *t = s->settled(&g->q);
    return t ? (int)t->tu : -1;
}

static void fill_mixed(queues *g)
{
    *g = (queues){0};
    add(g, FLASH_CLASS_PROGRAM, -1, 0); /* #0 */
    add(g, FLASH_CLASS_READ, 0, 10);    /* #1 */
    add(g, FLASH_CLASS_ERASE, -1, 20);  /* #2 */
    add(g, FLASH_CLASS_READ, 1, 30);    /* #3 */
}

/* After k picks of fill_mixed's queues (none arriving), what the
 * scheduler calls settled; then a read and a program arrive, and the
 * next pick must take the settled one. Where reads-first calls nothing
 * settled (a program at the head), the read that arrives goes first. */
static void check_settled(const char *name, const int want[4])
{
    for (int k = 0; k < 4; k++) {
        queues g;
        fill_mixed(&g);
        for (int i = 0; i < k; i++) pick(&g, name, 50);
        int before = settled(&g, name);
        cr_assert_eq(before, want[k], "%s after %d picks: settled #%d, expected #%d", name, k, before, want[k]);
        add(&g, FLASH_CLASS_READ, 2, 100);     /* #4 */
        add(&g, FLASH_CLASS_PROGRAM, -1, 100); /* #5 */
        cr_assert_eq(pick(&g, name, 100), before >= 0 ? before : 4, "%s after %d picks", name, k);
    }
}

Test(settled, is_what_the_pick_takes_whatever_arrives_meanwhile)
{
    check_settled("read-first", (const int[]){1, 3, -1, -1});
    check_settled("fifo", (const int[]){0, 1, 2, 3});
}

Test(settled, flin_never_says)
{
    queues g;
    fill_mixed(&g);
    cr_assert_eq(settled(&g, "flin"), -2);
    cr_assert_eq(settled(&(queues){0}, "read-first"), -1, "empty queues: nothing settled");
    cr_assert_eq(settled(&(queues){0}, "fifo"), -1, "empty queues: nothing settled");
}
