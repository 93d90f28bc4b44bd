/* Pending-event set of the simulator: a radix heap with multi-bit digits
 * (Ahuja, Mehlhorn, Orlin and Tarjan 1990; multi-level buckets as in
 * Cherkassky, Goldberg and Silverstein 1999) over a pool of event records.
 *
 * A radix heap needs monotone keys (nothing is scheduled before the last
 * event taken out), which a discrete-event simulation guarantees. Its
 * buckets are plain arrays read and written in order, so it stays fast when
 * a million events are pending, where a binary heap's random accesses miss
 * the cache at every level. Buckets keep insertion order and equal-time
 * events always share a bucket, so equal-time events leave in insertion
 * order and a run is deterministic.
 *
 * Records come from a pool that grows only when the number of pending
 * events reaches a new high, so steady-state scheduling allocates nothing.
 * Cancellation is lazy: a cancelled record is marked and dropped when its
 * bucket is next visited. */
#ifndef SSDLAB_EVQUEUE_H
#define SSDLAB_EVQUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "simtime.h"

/* Events pending at once, cancelled ones included until dropped. */
#define EVQ_MAX_PENDING (UINT32_C(1) << 30)

/* Keys are split into digits of EVQ_DIGIT_BITS bits. */
#define EVQ_DIGIT_BITS 8
#define EVQ_DIGITS ((64 + EVQ_DIGIT_BITS - 1) / EVQ_DIGIT_BITS)
#define EVQ_BUCKETS (EVQ_DIGITS << EVQ_DIGIT_BITS)
#define EVQ_BITMAP_WORDS ((EVQ_BUCKETS + 63) / 64)

/* Names one scheduled event for cancellation; 0 never names an event. */
typedef uint64_t evq_handle;

typedef struct evq_event {
    sim_time_t time;
    uint32_t handler;
    void *obj;
    uint64_t arg;
} evq_event;

typedef struct evq_entry {
    sim_time_t time;
    uint32_t slot;
} evq_entry;

typedef struct evq_bucket {
    evq_entry *items;
    uint32_t head; /* first unread item (only bucket 0 is read from the front) */
    uint32_t count;
    uint32_t cap;
} evq_bucket;

typedef struct evq_slot {
    void *obj;
    uint64_t arg;     /* next free slot + 1 while the slot is free */
    uint32_t handler; /* EVQ_FREE or EVQ_CANCELLED when not live */
    uint32_t gen;     /* bumped on every release, so stale handles miss */
} evq_slot;

typedef struct evq {
    sim_time_t last;       /* every pending time is >= last */
    uint64_t nonempty[EVQ_BITMAP_WORDS]; /* bit i set when bucket i+1 holds items */
    uint64_t nonempty_words;             /* bit w set when nonempty[w] != 0 */
    /* Bucket 0: time == last. Bucket 1 + (p << EVQ_DIGIT_BITS) + d: the
     * highest digit in which time differs from last is digit p, and time's
     * digit there is d. Lower buckets hold earlier times. */
    evq_bucket bucket[EVQ_BUCKETS + 1];
    evq_slot *slots;
    uint32_t slot_count;  /* slots ever handed out */
    uint32_t slot_cap;
    uint32_t free_head;   /* first free slot index + 1; 0 = none */
    uint32_t live;        /* pending, not cancelled */
    uint32_t stored;      /* entries in buckets, cancelled ones included */
} evq;

int evq_init(evq *q, uint32_t reserve);
void evq_free(evq *q);

/* time must be >= the time of the last event popped (the caller, sim.c,
 * checks it). Returns 0 when the pending limit is exceeded or memory runs
 * out (the caller reports it). */
evq_handle evq_push(evq *q, sim_time_t time, uint32_t handler, void *obj, uint64_t arg);

/* Pops the earliest live event if its time is <= limit.
 * Returns 1 when an event was popped, 0 when the queue is empty, -1 when the
 * earliest event lies after limit (it stays queued). */
int evq_pop_until(evq *q, sim_time_t limit, evq_event *out);

bool evq_cancel(evq *q, evq_handle h);
bool evq_peek_time(evq *q, sim_time_t *time);

static inline uint32_t evq_pending(const evq *q) { return q->live; }
/* Pool capacity: grows only with the high-water mark of pending events. */
static inline uint32_t evq_pool_capacity(const evq *q) { return q->slot_cap; }

#endif
