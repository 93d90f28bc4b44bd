/* The die schedulers (schedulers.h). Each takes one transaction off the
 * die's queues; all see the queues in submission order. */
#include "schedulers.h"

#include <stdbool.h>

#include "txn.h"

static txn *take_class(flash_queues *q, int c)
{
    txn *t = q->head[c];
    if (t && !(q->head[c] = t->next)) q->tail[c] = NULL;
    return t;
}

/* Unlinks t, which follows prev (NULL: t is the head), from class c. */
static txn *take_after(flash_queues *q, int c, txn *prev, txn *t)
{
    if (!prev) return take_class(q, c);
    prev->next = t->next;
    if (q->tail[c] == t) q->tail[c] = prev;
    return t;
}

static txn *pick_read_first(flash_queues *q, const flash_pick_view *v)
{
    (void)v;
    txn *t = take_class(q, FLASH_CLASS_READ);
    if (!t) t = take_class(q, FLASH_CLASS_PROGRAM);
    if (!t) t = take_class(q, FLASH_CLASS_ERASE);
    return t;
}

/* A waiting read goes before anything that arrives, and reads go in order;
 * a program or erase at the head may still be passed by a read. */
static const txn *settled_read_first(const flash_queues *q) { return q->head[FLASH_CLASS_READ]; }

static int oldest_class(const flash_queues *q)
{
    int best = -1;
    for (int c = 0; c < FLASH_CLASSES; c++)
        if (q->head[c] && (best < 0 || q->head[c]->seq < q->head[best]->seq)) best = c;
    return best;
}

static txn *pick_fifo(flash_queues *q, const flash_pick_view *v)
{
    (void)v;
    int best = oldest_class(q);
    return best < 0 ? NULL : take_class(q, best);
}

/* Whatever arrives is younger than every head. */
static const txn *settled_fifo(const flash_queues *q)
{
    int best = oldest_class(q);
    return best < 0 ? NULL : q->head[best];
}

/* --- FLIN-like ---------------------------------------------------------------
 * After FLIN (Tavakkol et al., "FLIN: Enabling Fairness and Enhancing
 * Performance in Modern NVMe Solid State Drives", ISCA 2018), at the moment
 * a die frees up rather than at insertion, which picks the same
 * transaction without reordering the queue:
 *  - wait balancing between the classes: the class whose oldest
 *    transaction has waited longest in units of its own service time
 *    (FLIN's proportional wait) goes first, so programs and GC are not
 *    starved by a stream of reads, nor reads by a burst of programs;
 *  - within a class, a flow with a single transaction queued at this die
 *    (FLIN's low-intensity flow) goes first: it would barely wait alone;
 *  - otherwise the oldest transaction of the flow with the highest
 *    estimated slowdown: each transaction's wait so far plus the
 *    operations ahead of it, over what it would wait behind its own flow's
 *    operations alone, averaged over the flow's transactions here. */

static uint32_t flow_of(const txn *t)
{
    return t->req ? t->req->queue % FLASH_FLOWS : FLASH_FLOWS;
}

static double proportional_wait(const txn *t, const flash_pick_view *v, int c)
{
    if (!t) return -1.0;
    sim_time_t service = v->service[c] ? v->service[c] : 1;
    return (double)(v->now - t->queued + service) / (double)service;
}

static int wait_balanced_class(const flash_queues *q, const flash_pick_view *v)
{
    int best = -1;
    double best_wait = -1.0;
    for (int c = 0; c < FLASH_CLASSES; c++) {
        double w = proportional_wait(q->head[c], v, c);
        if (w > best_wait) best_wait = w, best = c;
    }
    return best;
}

typedef struct flow_tally {
    uint32_t queued;  /* transactions of the flow in this class queue */
    double slowdown;  /* summed over them */
    txn *oldest, *oldest_prev;
} flow_tally;

static void tally_flows(const flash_queues *q, int c, const flash_pick_view *v, flow_tally *f)
{
    sim_time_t service = v->service[c] ? v->service[c] : 1;
    uint32_t position = 0;
    txn *prev = NULL;
    for (txn *t = q->head[c]; t; prev = t, t = t->next, position++) {
        flow_tally *ft = &f[flow_of(t)];
        if (!ft->queued) ft->oldest = t, ft->oldest_prev = prev;
        ft->queued++;
        double shared = (double)(v->now - t->queued) / (double)service + position + 1;
        ft->slowdown += shared / ft->queued; /* alone: behind its own flow only */
    }
}

static txn *pick_fair_in_class(flash_queues *q, int c, const flash_pick_view *v)
{
    flow_tally f[FLASH_FLOWS + 1] = {0};
    tally_flows(q, c, v, f);
    flow_tally *light = NULL, *slowest = NULL;
    for (txn *t = q->head[c]; t; t = t->next) { /* in queue order: ties go to the oldest */
        flow_tally *ft = &f[flow_of(t)];
        if (ft->queued == 1 && !light) light = ft;
        if (!slowest || ft->slowdown / ft->queued > slowest->slowdown / slowest->queued) slowest = ft;
    }
    flow_tally *chosen = light ? light : slowest;
    return take_after(q, c, chosen->oldest_prev, chosen->oldest);
}

static txn *pick_flin(flash_queues *q, const flash_pick_view *v)
{
    int c = wait_balanced_class(q, v);
    if (c < 0) return NULL;
    return pick_fair_in_class(q, c, v);
}

const flash_scheduler flash_schedulers[] = {
    {"read-first", "reads first, then programs, then erases", pick_read_first, settled_read_first},
    {"fifo", "in submission order, whatever the kind: the baseline reads-first is measured against", pick_fifo,
     settled_fifo},
    {"flin", "FLIN-like (Tavakkol et al., ISCA 2018): the class waiting longest for its service time first; within it a "
             "flow with one operation at the die, else the flow with the highest estimated slowdown (flows are "
             "submission queues)",
     pick_flin, NULL},
    {NULL, NULL, NULL, NULL},
};
