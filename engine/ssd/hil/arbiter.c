#include "arbiter.h"

#include <stdlib.h>
#include <string.h>

static bool eligible(const arbiter *a, uint32_t q) { return a->waiting[q].head && a->outstanding[q] < a->depth[q]; }

/* fifo: the oldest waiting command (the lowest id) first. */
static long pick_fifo(arbiter *a)
{
    long best = -1;
    for (uint32_t q = 0; q < a->queues; q++)
        if (eligible(a, q) && (best < 0 || a->waiting[q].head->id < a->waiting[best].head->id)) best = q;
    return best;
}

/* The current queue keeps its turn for up to `burst` commands in a row;
 * then the next eligible queue of the class after it (round robin). */
static long next_in_class(arbiter *a, int cls, bool any_class)
{
    if (a->current >= 0 && a->served_in_turn < a->burst && eligible(a, (uint32_t)a->current) &&
        (any_class || a->class_of[a->current] == cls))
        return a->current;
    for (uint32_t i = 0; i < a->queues; i++) {
        uint32_t q = (a->turn[cls] + i) % a->queues;
        if (eligible(a, q) && (any_class || a->class_of[q] == cls)) {
            a->turn[cls] = (q + 1) % a->queues;
            a->current = q;
            a->served_in_turn = 0;
            return q;
        }
    }
    return -1;
}

static long pick_rr(arbiter *a) { return next_in_class(a, 0, true); }

static bool class_waiting(const arbiter *a, int cls)
{
    for (uint32_t q = 0; q < a->queues; q++)
        if (a->class_of[q] == cls && eligible(a, q)) return true;
    return false;
}

/* wrr: urgent first; then each of high, medium and low takes as many
 * commands per round as its weight, a class with none waiting giving its
 * turn to the others; a round ends when no class with credit waits. */
static long pick_wrr(arbiter *a)
{
    long q = next_in_class(a, CLASS_URGENT, false);
    if (q >= 0) return q;
    for (int pass = 0; pass < 2; pass++) {
        for (int cls = CLASS_HIGH; cls <= CLASS_LOW; cls++) {
            if (!a->credit[cls] || !class_waiting(a, cls)) continue;
            a->credit[cls]--;
            return next_in_class(a, cls, false);
        }
        for (int cls = CLASS_HIGH; cls <= CLASS_LOW; cls++) a->credit[cls] = a->weight[cls];
    }
    return -1;
}

const arbiter_policy arbiter_policies[] = {{"fifo", pick_fifo}, {"rr", pick_rr}, {"wrr", pick_wrr}, {NULL, NULL}};

const arbiter_policy *arbiter_policy_named(const char *name)
{
    for (const arbiter_policy *p = arbiter_policies; p->name; p++)
        if (!strcmp(p->name, name)) return p;
    return NULL;
}

int arbiter_init(arbiter *a, const arbiter_policy *policy, uint32_t queues, uint32_t depth, uint32_t window, uint32_t burst,
                 const uint32_t weight[CLASSES])
{
    *a = (arbiter){.policy = policy, .queues = queues, .window = window, .burst = burst ? burst : 1,
                   .current = -1};
    memcpy(a->weight, weight, sizeof a->weight);
    memcpy(a->credit, weight, sizeof a->credit);
    a->waiting = calloc(queues, sizeof *a->waiting);
    a->outstanding = calloc(queues, sizeof *a->outstanding);
    a->class_of = malloc(queues);
    a->depth = malloc(queues * sizeof *a->depth);
    if (!a->waiting || !a->outstanding || !a->class_of || !a->depth) return -1;
    memset(a->class_of, CLASS_MEDIUM, queues);
    for (uint32_t q = 0; q < queues; q++) a->depth[q] = depth;
    return 0;
}

void arbiter_free(arbiter *a)
{
    free(a->waiting);
    free(a->outstanding);
    free(a->class_of);
    free(a->depth);
}

void arbiter_set_class(arbiter *a, uint32_t queue, queue_class c) { a->class_of[queue] = (uint8_t)c; }

void arbiter_set_depth(arbiter *a, uint32_t queue, uint32_t depth) { a->depth[queue] = depth; }

ssdlab_request *arbiter_fetch(arbiter *a)
{
    if (!a->waiting_total || (a->window && a->in_controller >= a->window)) return NULL;
    long q = a->policy->pick(a);
    if (q < 0) return NULL;
    ssdlab_request *r = req_pop(&a->waiting[q]);
    a->waiting_total--;
    a->outstanding[q]++;
    a->in_controller++;
    if (q == a->current) a->served_in_turn++;
    return r;
}

void arbiter_done(arbiter *a, const ssdlab_request *r)
{
    a->outstanding[r->queue]--;
    a->in_controller--;
}
