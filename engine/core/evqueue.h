/* Pending-event set of the simulator, in two parts.
 *
 * The near part is a timing wheel: EVQ_WHEEL_SLOTS slots of
 * 2^EVQ_WHEEL_SHIFT ns each, reaching about a millisecond past the last
 * event popped, each slot a short list in (time, insertion) order. An SSD's
 * events fall there: firmware steps, transfers and array reads are
 * microseconds away, programs and erases a few milliseconds at most, and a
 * few dozen are pending, so most slots hold none or one and an event costs
 * a bit set, a link and a bit search.
 *
 * The far part takes every event past the wheel's reach: a radix heap with
 * 8-bit digits (Ahuja, Mehlhorn, Orlin and Tarjan 1990; multi-level buckets
 * as in Cherkassky, Goldberg and Silverstein 1999). A radix heap needs
 * monotone keys (nothing is scheduled before the last event taken out),
 * which a discrete-event simulation guarantees. Its buckets are plain
 * arrays read and written in order, so it stays fast when a million events
 * are pending, where a binary heap's random accesses miss the cache at every
 * level. Buckets keep insertion order and equal-time events always share a
 * bucket.
 *
 * Equal times leave in insertion order, across the parts too: an event
 * goes far only while its time lies past the wheel's reach, and the reach
 * only moves forward, so every far event of a time was pushed before any
 * near one of that time, and the far part wins ties. A run is deterministic.
 *
 * Events are stored whole. The wheel's nodes and the heap's chunks come
 * from pools that grow only when the number of pending events reaches a new
 * high: steady-state scheduling allocates nothing.
 * An event that may be cancelled also takes a ticket from a pool; the
 * handle names the ticket and its generation, so a stale handle never
 * cancels a reused ticket. Cancellation is lazy: the event is dropped when
 * it reaches the front. Events without a ticket cost no pool access at all,
 * which keeps the common path (completions that are never cancelled) free
 * of cache misses. */
#ifndef SSDLAB_EVQUEUE_H
#define SSDLAB_EVQUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

/* Keys are split into digits of EVQ_DIGIT_BITS bits. */
#define EVQ_DIGIT_BITS 8
#define EVQ_DIGITS ((64 + EVQ_DIGIT_BITS - 1) / EVQ_DIGIT_BITS)
#define EVQ_BUCKETS (EVQ_DIGITS << EVQ_DIGIT_BITS)
#define EVQ_BITMAP_WORDS ((EVQ_BUCKETS + 63) / 64)

/* Events pending at once, cancelled ones included until dropped. */
#define EVQ_MAX_PENDING (UINT32_C(1) << 30)

/* Names one cancellable event; 0 never names an event. */
typedef uint64_t evq_handle;

typedef struct evq_event {
    sim_time_t time;
    void *obj;
    uint64_t arg;
    uint32_t handler;
    uint32_t ticket; /* cancellation ticket + 1; 0 = not cancellable */
} evq_event;

#define EVQ_CHUNK_EVENTS 64
/* A bucket of at most this many events, in one chunk, is sorted and read
 * as it is, instead of being spread over the next digit's buckets. */
#define EVQ_SORT_MAX 16

typedef struct evq_chunk {
    struct evq_chunk *next;
    uint32_t count;
    evq_event events[EVQ_CHUNK_EVENTS];
} evq_chunk;

typedef struct evq_bucket {
    evq_chunk *head, *tail;
    sim_time_t least; /* earliest time in the bucket, kept on append */
    uint32_t read;    /* next unread event in head (only bucket 0 is read from the front) */
} evq_bucket;

typedef struct evq_ticket {
    uint32_t gen;   /* bumped on every release, so stale handles miss */
    uint32_t state; /* TICKET_LIVE, TICKET_CANCELLED, or next free ticket + 1 */
} evq_ticket;

/* The wheel: a slot spans 256 ns; 4096 slots reach 1.05 ms ahead. An
 * event that would be placed more than EVQ_SLOT_WALK events deep in its
 * slot sends the wheel's events to the far part, which then takes every
 * push for EVQ_FAR_ONLY_POPS pops. */
#define EVQ_WHEEL_SHIFT 8
#define EVQ_WHEEL_BITS 12
#define EVQ_WHEEL_SLOTS (1u << EVQ_WHEEL_BITS)
#define EVQ_SLOT_WALK 32
#define EVQ_FAR_ONLY_POPS 65536

typedef struct evq_node {
    evq_event event;
    uint32_t next; /* the slot's next node; 0 = none (node 0 is never used) */
} evq_node;

typedef struct evq_slot {
    uint32_t head, tail; /* 0 = empty */
} evq_slot;

typedef struct evq {
    /* the near part: slot (time >> EVQ_WHEEL_SHIFT) mod EVQ_WHEEL_SLOTS
     * holds the events of that slot number, which lies in [cursor, cursor +
     * EVQ_WHEEL_SLOTS) */
    uint64_t cursor;                             /* slot number of the last event popped */
    uint64_t slot_words;                         /* bit w set when slot_bits[w] != 0 */
    uint64_t slot_bits[EVQ_WHEEL_SLOTS / 64];    /* bit i set when slot i holds events */
    evq_slot slot[EVQ_WHEEL_SLOTS];
    evq_node *nodes;
    uint32_t node_cap, node_used, free_node; /* free_node: first free node, 0 = none */
    uint32_t near_stored, far_stored;        /* events in each part, cancelled ones included */
    sim_time_t far_floor;                    /* no far event is earlier (SIM_TIME_MAX: none) */
    uint32_t far_only_pops;                  /* pops left while every push goes far (0: the wheel takes them) */

    /* the far part */
    sim_time_t last; /* every far time is >= last */
    /* Bucket 0 holds every pending time <= run_last, in time order (equal
     * times in insertion order): either times equal to last only, or the
     * events of a small bucket sorted once, whose range ends at run_last. */
    sim_time_t run_last;
    uint64_t nonempty[EVQ_BITMAP_WORDS]; /* bit i set when bucket i+1 holds items */
    uint64_t nonempty_words;             /* bit w set when nonempty[w] != 0 */
    /* Bucket 0: time <= run_last (see above). Bucket 1 + (p << EVQ_DIGIT_BITS) + d: the
     * highest digit in which time differs from last is digit p, and time's
     * digit there is d. Lower buckets hold earlier times. */
    evq_bucket bucket[EVQ_BUCKETS + 1];
    evq_chunk *free_chunks;
    evq_chunk *slabs[40];   /* chunk allocations, each twice the last */
    uint32_t slab_count;
    size_t chunk_count;     /* chunks allocated */
    evq_ticket *tickets;
    uint32_t ticket_count; /* tickets ever handed out */
    uint32_t ticket_cap;
    uint32_t free_ticket;  /* first free ticket + 1; 0 = none */
    uint32_t live;         /* pending, not cancelled */
} evq;

int evq_init(evq *q, uint32_t reserve);
void evq_free(evq *q);

/* time must be >= the time of the last event popped (the caller, sim.c,
 * checks it). Returns -1 when the pending limit is exceeded or memory runs
 * out (the caller reports it), else 0. */
int evq_push(evq *q, sim_time_t time, uint32_t handler, void *obj, uint64_t arg);
/* The same for an event that may be cancelled; returns 0 on failure. */
evq_handle evq_push_cancellable(evq *q, sim_time_t time, uint32_t handler, void *obj, uint64_t arg);

/* Pops the earliest live event (equal times: the first pushed) if its time is <= limit.
 * Returns 1 when an event was popped, 0 when the queue is empty, -1 when the
 * earliest event lies after limit (it stays queued). */
int evq_pop_until(evq *q, sim_time_t limit, evq_event *out);

/* True when h named a pending event, which will now never be popped. */
bool evq_cancel(evq *q, evq_handle h);
bool evq_peek_time(evq *q, sim_time_t *time);

static inline uint32_t evq_pending(const evq *q) { return q->live; }
/* Events the chunk pool and the ticket pool can hold without growing. */
size_t evq_capacity(const evq *q);

#endif
