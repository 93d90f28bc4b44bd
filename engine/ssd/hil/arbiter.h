/* Command arbitration: which submission queue the controller fetches its
 * next command from, as the NVMe base specification describes (2.0,
 * "Command Arbitration"). Commands wait in their queue until the queue has
 * room below host.max_queue_depth and the controller below
 * host.controller_commands; then the arbiter picks among the queues with
 * commands waiting. Policies are a table of named entries:
 *
 *   fifo  the oldest waiting command first, whatever its queue (ssdlab's
 *         order before arbitration was modelled);
 *   rr    round robin, up to host.arbitration_burst commands per turn;
 *   wrr   weighted round robin with an urgent class: urgent queues first
 *         (round robin among them), then high, medium and low in
 *         proportion to host.wrr_weights, round robin inside each class.
 *
 * A queue's class (urgent, high, medium, low) is set when it is created
 * (host.queue_classes, or arbiter_set_class for a workload's own queue);
 * only wrr reads it. */
#ifndef SSDLAB_ARBITER_H
#define SSDLAB_ARBITER_H

#include <stdbool.h>
#include <stdint.h>

#include "request_units.h"

typedef enum queue_class { CLASS_URGENT, CLASS_HIGH, CLASS_MEDIUM, CLASS_LOW, CLASSES } queue_class;

typedef struct arbiter arbiter;

typedef struct arbiter_policy {
    const char *name;
    /* The queue to fetch from next, among those eligible (commands waiting,
     * room below the queue's depth); -1 when none is. */
    long (*pick)(arbiter *a);
} arbiter_policy;

struct arbiter {
    const arbiter_policy *policy;
    uint32_t queues;
    req_queue *waiting;       /* per queue, in arrival order */
    uint32_t *outstanding;    /* per queue: fetched, not yet complete */
    uint8_t *class_of;        /* per queue */
    uint32_t *depth;          /* per queue: host.max_queue_depth, or its own (host.queue_depths) */
    uint32_t window;          /* host.controller_commands; 0: no limit */
    uint32_t in_controller;   /* fetched, not yet complete, all queues */
    uint32_t waiting_total;   /* waiting, all queues: none (the usual case) needs no pick */
    uint32_t burst;           /* host.arbitration_burst */
    uint32_t weight[CLASSES]; /* wrr: commands per round of high, medium, low */
    /* the round robin's state */
    uint32_t turn[CLASSES];   /* the queue after the last one served, per class (rr uses [0]) */
    uint32_t served_in_turn;  /* commands taken from the current queue in its turn */
    long current;             /* the queue whose turn it is, or -1 */
    uint32_t credit[CLASSES]; /* wrr: commands left in this round per class */
};

extern const arbiter_policy arbiter_policies[];

/* The policy named, or NULL. */
const arbiter_policy *arbiter_policy_named(const char *name);
int arbiter_init(arbiter *a, const arbiter_policy *policy, uint32_t queues, uint32_t depth, uint32_t window, uint32_t burst,
                 const uint32_t weight[CLASSES]);
void arbiter_free(arbiter *a);
void arbiter_set_class(arbiter *a, uint32_t queue, queue_class c);
/* The commands a queue holds (its size, set when it is created). */
void arbiter_set_depth(arbiter *a, uint32_t queue, uint32_t depth);

/* A command arrives in its queue. */
static inline void arbiter_arrive(arbiter *a, ssdlab_request *r)
{
    req_push(&a->waiting[r->queue], r);
    a->waiting_total++;
}
/* The next command to fetch, or NULL when the window is full or no queue
 * is eligible; the command counts as fetched. */
ssdlab_request *arbiter_fetch(arbiter *a);
/* A fetched command completed: its place in the queue and the window is free. */
void arbiter_done(arbiter *a, const ssdlab_request *r);

#endif
