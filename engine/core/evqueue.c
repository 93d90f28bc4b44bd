#include "evqueue.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define TICKET_LIVE UINT32_MAX
#define TICKET_CANCELLED (UINT32_MAX - 1)

/* Doubles an array's capacity until it holds want elements. */
static int grow_array(void **items, uint32_t *cap, uint32_t want, size_t size, uint32_t first_cap)
{
    uint32_t n = *cap ? *cap : first_cap;
    while (n < want) n *= 2;
    void *p = realloc(*items, (size_t)n * size);
    if (!p) return -1;
    *items = p;
    *cap = n;
    return 0;
}

/* Allocates the next slab of chunks (twice the last) onto the free list. */
static int add_slab(evq *q, size_t min_chunks)
{
    if (q->slab_count == sizeof q->slabs / sizeof q->slabs[0]) return -1;
    size_t n = q->chunk_count ? q->chunk_count : 16;
    if (n < min_chunks) n = min_chunks;
    evq_chunk *slab = malloc(n * sizeof *slab);
    if (!slab) return -1;
    for (size_t i = 0; i < n; i++) {
        slab[i].next = q->free_chunks;
        q->free_chunks = &slab[i];
    }
    q->slabs[q->slab_count++] = slab;
    q->chunk_count += n;
    return 0;
}

static inline evq_chunk *take_chunk(evq *q)
{
    if (__builtin_expect(!q->free_chunks, 0) && add_slab(q, 0)) return NULL;
    evq_chunk *c = q->free_chunks;
    q->free_chunks = c->next;
    c->next = NULL;
    c->count = 0;
    return c;
}

static inline void release_chunk(evq *q, evq_chunk *c)
{
    c->next = q->free_chunks;
    q->free_chunks = c;
}

int evq_init(evq *q, uint32_t reserve)
{
    memset(q, 0, sizeof *q);
    if (reserve > EVQ_MAX_PENDING) reserve = EVQ_MAX_PENDING;
    q->far_floor = SIM_TIME_MAX;
    q->nodes = malloc(((size_t)reserve + 1) * sizeof *q->nodes);
    if (!q->nodes) return -1;
    q->node_cap = reserve;
    return add_slab(q, reserve / EVQ_CHUNK_EVENTS + 16);
}

void evq_free(evq *q)
{
    for (uint32_t i = 0; i < q->slab_count; i++) free(q->slabs[i]);
    free(q->tickets);
    free(q->nodes);
    memset(q, 0, sizeof *q);
}

size_t evq_capacity(const evq *q) { return q->node_cap + q->chunk_count * EVQ_CHUNK_EVENTS + q->ticket_cap; }

static inline int bucket_of(const evq *q, sim_time_t t)
{
    uint64_t diff = t ^ q->last;
    if (!diff) return 0;
    int digit = (63 - __builtin_clzll(diff)) / EVQ_DIGIT_BITS;
    int shift = digit * EVQ_DIGIT_BITS;
    return 1 + (digit << EVQ_DIGIT_BITS) + (int)((t >> shift) & ((1u << EVQ_DIGIT_BITS) - 1));
}

static inline int lowest_nonempty(const evq *q)
{
    if (!q->nonempty_words) return 0;
    int w = __builtin_ctzll(q->nonempty_words);
    return 1 + 64 * w + __builtin_ctzll(q->nonempty[w]);
}

static inline int append(evq *q, int b, const evq_event *e)
{
    evq_bucket *bk = &q->bucket[b];
    evq_chunk *c = bk->tail;
    if (__builtin_expect(!c || c->count == EVQ_CHUNK_EVENTS, 0)) {
        if (!(c = take_chunk(q))) return -1;
        if (bk->tail) {
            bk->tail->next = c;
        } else {
            bk->head = c;
            bk->least = SIM_TIME_MAX;
        }
        bk->tail = c;
    }
    c->events[c->count++] = *e;
    if (e->time < bk->least) bk->least = e->time;
    if (b) {
        q->nonempty[(b - 1) >> 6] |= UINT64_C(1) << ((b - 1) & 63);
        q->nonempty_words |= UINT64_C(1) << ((b - 1) >> 6);
    }
    return 0;
}

/* Moves the events of a detached chunk list (from index `read` of its first
 * chunk) into the buckets, in order, and returns the chunks to the pool as
 * they empty, so they are reused at once for the destination buckets. */
static int place_all(evq *q, evq_chunk *c, uint32_t read)
{
    int rc = 0;
    while (c) {
        for (uint32_t k = read; k < c->count && rc == 0; k++) rc = append(q, bucket_of(q, c->events[k].time), &c->events[k]);
        evq_chunk *next = c->next;
        release_chunk(q, c);
        c = next;
        read = 0;
    }
    return rc;
}

/* A peek (or a pop that found the earliest event past its limit) moves
 * `last` up to the earliest pending time; an event may still be scheduled
 * between the last one popped and that time. Then every entry is placed
 * again relative to the new, earlier `last`. Buckets are visited from the
 * lowest and read in order, so equal times keep insertion order. Rare: it
 * happens only after a run stopped at a stop time. */
static int rebucket(evq *q, sim_time_t new_last)
{
    evq_bucket old[EVQ_BUCKETS + 1];
    memcpy(old, q->bucket, sizeof old);
    memset(q->bucket, 0, sizeof q->bucket);
    memset(q->nonempty, 0, sizeof q->nonempty);
    q->nonempty_words = 0;
    q->last = q->run_last = new_last;
    int rc = 0;
    for (int b = 0; b <= EVQ_BUCKETS; b++)
        if (place_all(q, old[b].head, old[b].read)) rc = -1;
    return rc;
}

/* Bucket 0's events back into the buckets, relative to last (which no
 * pending time is below): bucket 0 then holds times equal to last only. */
static int spill_front(evq *q)
{
    evq_bucket *b0 = &q->bucket[0];
    evq_chunk *list = b0->head;
    uint32_t read = b0->read;
    *b0 = (evq_bucket){0};
    q->run_last = q->last;
    return place_all(q, list, read);
}

/* An event inside bucket 0's range goes after the events of its time and
 * before later ones: at the end (the common case), or moved into place in
 * a sorted run's one chunk. A run with no room goes back to the buckets. */
static int into_front(evq *q, const evq_event *e)
{
    evq_bucket *b0 = &q->bucket[0];
    evq_chunk *c = b0->tail;
    if (!c || c->events[c->count - 1].time <= e->time) return append(q, 0, e);
    if (b0->head != c || c->count == EVQ_CHUNK_EVENTS) {
        if (spill_front(q)) return -1;
        return append(q, bucket_of(q, e->time), e);
    }
    uint32_t lo = b0->read, hi = c->count - 1; /* the first later time is in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->events[mid].time > e->time) hi = mid;
        else lo = mid + 1;
    }
    uint32_t k = lo;
    memmove(&c->events[k + 1], &c->events[k], (c->count - k) * sizeof c->events[0]);
    c->events[k] = *e;
    c->count++;
    return 0;
}

static int far_push(evq *q, const evq_event *e)
{
    if (e->time < q->last && rebucket(q, e->time)) return -1;
    if (e->time <= q->run_last ? into_front(q, e) : append(q, bucket_of(q, e->time), e)) return -1;
    if (e->time < q->far_floor) q->far_floor = e->time;
    q->far_stored++;
    return 0;
}

/* --- the near part: the wheel ---------------------------------------------- */

static uint32_t take_node(evq *q)
{
    if (q->free_node) {
        uint32_t n = q->free_node;
        q->free_node = q->nodes[n].next;
        return n;
    }
    if (__builtin_expect(q->node_used == q->node_cap, 0)) {
        uint32_t cap = q->node_cap;
        if (grow_array((void **)&q->nodes, &cap, q->node_cap + 2, sizeof *q->nodes, 64)) return 0;
        q->node_cap = cap - 1; /* node 0 is never used */
    }
    return ++q->node_used;
}

static inline void release_node(evq *q, uint32_t n)
{
    q->nodes[n].next = q->free_node;
    q->free_node = n;
}

static inline void slot_emptied(evq *q, uint32_t i)
{
    q->slot[i].tail = 0;
    q->slot_bits[i >> 6] &= ~(UINT64_C(1) << (i & 63));
    if (!q->slot_bits[i >> 6]) q->slot_words &= ~(UINT64_C(1) << (i >> 6));
}

/* Moves every near event to the far part, slot by slot in each slot's
 * order (events of one time share a slot), and sends pushes there for
 * EVQ_FAR_ONLY_POPS pops: each far event of a time was then pushed before
 * any that comes near afterwards, so the far part's winning ties keeps
 * insertion order. */
static int go_far_only(evq *q)
{
    while (q->slot_words) {
        uint32_t w = (uint32_t)__builtin_ctzll(q->slot_words), i = (w << 6) | (uint32_t)__builtin_ctzll(q->slot_bits[w]);
        evq_slot *s = &q->slot[i];
        while (s->head) {
            uint32_t n = s->head;
            if (far_push(q, &q->nodes[n].event)) return -1;
            s->head = q->nodes[n].next;
            release_node(q, n);
            q->near_stored--;
        }
        slot_emptied(q, i);
    }
    q->far_only_pops = EVQ_FAR_ONLY_POPS;
    return 0;
}

/* After the events of its time already in the slot: at the tail (the
 * common case) or, for an earlier time, where the slot's order puts it,
 * found by a walk of at most EVQ_SLOT_WALK events. A slot that needs a
 * longer walk holds many events out of order, as when thousands are
 * pending a few microseconds apart, where the wheel's lists cost more
 * than the radix heap (a walk through 10^4 events a push had made the
 * hold model's 10^6 case take minutes): the wheel is emptied into the far
 * part, which takes every push for a while. */
static int near_push(evq *q, const evq_event *e, uint32_t i)
{
    evq_node *nodes = q->nodes;
    evq_slot *s = &q->slot[i];
    uint32_t prev = 0, k = 0;
    if (s->head && nodes[s->tail].event.time > e->time) {
        uint32_t steps = 0;
        for (k = s->head; nodes[k].event.time <= e->time; prev = k, k = nodes[k].next) /* the tail is later: it ends */
            if (++steps == EVQ_SLOT_WALK) return go_far_only(q) ? -1 : far_push(q, e);
    }
    uint32_t n = take_node(q);
    if (!n) return -1;
    nodes = q->nodes; /* take_node may have moved them */
    nodes[n] = (evq_node){.event = *e, .next = k};
    if (!s->head) {
        s->head = s->tail = n;
        q->slot_bits[i >> 6] |= UINT64_C(1) << (i & 63);
        q->slot_words |= UINT64_C(1) << (i >> 6);
    } else if (!k) {
        nodes[s->tail].next = n;
        s->tail = n;
    } else if (prev) {
        nodes[prev].next = n;
    } else {
        s->head = n;
    }
    q->near_stored++;
    return 0;
}

/* The first slot holding events, in time order: from the cursor's slot to
 * the wheel's end, then from its start. The wheel must not be empty. */
static inline uint32_t near_first_slot(const evq *q)
{
    uint32_t from = (uint32_t)(q->cursor & (EVQ_WHEEL_SLOTS - 1)), w = from >> 6;
    uint64_t here = q->slot_bits[w] & (~UINT64_C(0) << (from & 63));
    if (here) return (w << 6) | (uint32_t)__builtin_ctzll(here);
    uint64_t words = w < 63 ? q->slot_words & (~UINT64_C(0) << (w + 1)) : 0;
    if (!words) words = q->slot_words;
    uint32_t next = (uint32_t)__builtin_ctzll(words);
    return (next << 6) | (uint32_t)__builtin_ctzll(q->slot_bits[next]);
}

/* Unlinks the first node of slot i and returns it (still allocated). */
static inline uint32_t near_unlink_head(evq *q, uint32_t i)
{
    evq_slot *s = &q->slot[i];
    uint32_t n = s->head;
    s->head = q->nodes[n].next;
    if (!s->head) slot_emptied(q, i);
    q->near_stored--;
    return n;
}

static inline bool ticket_cancelled(const evq *q, uint32_t ticket)
{
    return ticket && q->tickets[ticket - 1].state == TICKET_CANCELLED;
}

static void release_ticket(evq *q, uint32_t t);

/* The slot of the earliest live near event, dropping cancelled ones on the
 * way; -1 when the wheel holds none. */
static int near_front(evq *q)
{
    while (q->near_stored) {
        uint32_t i = near_first_slot(q);
        const evq_event *e = &q->nodes[q->slot[i].head].event;
        if (!ticket_cancelled(q, e->ticket)) return (int)i;
        release_ticket(q, e->ticket - 1);
        release_node(q, near_unlink_head(q, i));
    }
    return -1;
}

/* Near while the time's slot is within the wheel's reach of the cursor; a
 * time before the cursor (not allowed) wraps to a large distance and goes
 * far, where the radix heap places it again. */
static int push(evq *q, const evq_event *e)
{
    if (q->near_stored + q->far_stored >= EVQ_MAX_PENDING) return -1;
    uint64_t ahead = (e->time >> EVQ_WHEEL_SHIFT) - q->cursor;
    int rc = ahead < EVQ_WHEEL_SLOTS && !q->far_only_pops ? near_push(q, e, (uint32_t)(e->time >> EVQ_WHEEL_SHIFT) & (EVQ_WHEEL_SLOTS - 1))
                                     : far_push(q, e);
    if (rc) return -1;
    q->live++;
    return 0;
}

int evq_push(evq *q, sim_time_t time, uint32_t handler, void *obj, uint64_t arg)
{
    evq_event e = {time, obj, arg, handler, 0};
    return push(q, &e);
}

static uint32_t take_ticket(evq *q)
{
    if (q->free_ticket) {
        uint32_t t = q->free_ticket - 1;
        q->free_ticket = q->tickets[t].state;
        return t;
    }
    if (q->ticket_count == q->ticket_cap &&
        grow_array((void **)&q->tickets, &q->ticket_cap, q->ticket_cap + 1, sizeof *q->tickets, 64))
        return UINT32_MAX;
    q->tickets[q->ticket_count].gen = 1;
    return q->ticket_count++;
}

static void release_ticket(evq *q, uint32_t t)
{
    evq_ticket *tk = &q->tickets[t];
    if (++tk->gen == 0) tk->gen = 1;
    tk->state = q->free_ticket;
    q->free_ticket = t + 1;
}

evq_handle evq_push_cancellable(evq *q, sim_time_t time, uint32_t handler, void *obj, uint64_t arg)
{
    uint32_t t = take_ticket(q);
    if (t == UINT32_MAX) return 0;
    evq_event e = {time, obj, arg, handler, t + 1};
    if (push(q, &e)) {
        release_ticket(q, t);
        return 0;
    }
    q->tickets[t].state = TICKET_LIVE;
    return ((uint64_t)q->tickets[t].gen << 32) | (t + 1);
}

/* Insertion sort by time: stable, so equal times keep insertion order;
 * short, since only a few events are sorted at once. */
static void sort_by_time(evq_chunk *c)
{
    for (uint32_t i = 1; i < c->count; i++) {
        evq_event e = c->events[i];
        uint32_t k = i;
        for (; k > 0 && c->events[k - 1].time > e.time; k--) c->events[k] = c->events[k - 1];
        c->events[k] = e;
    }
}

/* Empties the lowest non-empty bucket into lower ones, after moving `last`
 * up to its earliest time. Lower buckets are empty at that point, and
 * events keep their order, so equal times keep insertion order.
 * Returns -1 if the chunk pool could not grow. */
static int redistribute(evq *q)
{
    int b = lowest_nonempty(q);
    evq_bucket *src = &q->bucket[b];
    q->last = src->least;
    q->nonempty[(b - 1) >> 6] &= ~(UINT64_C(1) << ((b - 1) & 63));
    if (!q->nonempty[(b - 1) >> 6]) q->nonempty_words &= ~(UINT64_C(1) << ((b - 1) >> 6));
    q->run_last = q->last;
    evq_chunk *list = src->head, *tail = src->tail;
    src->head = src->tail = NULL;
    /* A bucket of the lowest digit holds one time only, now `last`: its
     * chunks become bucket 0 as they are, in their order, where placing
     * them again would copy every event once more. A bucket of a few
     * events is sorted and becomes bucket 0 too, and times scheduled
     * later inside its range join it there: most buckets hold a few
     * events, which would otherwise each be copied into a bucket of
     * their own at every lower digit. */
    if (b > 1 << EVQ_DIGIT_BITS) {
        if (list->next || list->count > EVQ_SORT_MAX) return place_all(q, list, 0);
        sort_by_time(list);
        int shift = ((b - 1) >> EVQ_DIGIT_BITS) * EVQ_DIGIT_BITS;
        q->run_last = q->last | ((UINT64_C(1) << shift) - 1);
    }
    q->bucket[0] = (evq_bucket){.head = list, .tail = tail, .least = q->last};
    return 0;
}

/* Brings the earliest live event to the front of bucket 0, dropping
 * cancelled ones and spent chunks on the way. Returns false when nothing
 * live is pending. */
static bool settle(evq *q)
{
    evq_bucket *b0 = &q->bucket[0];
    for (;;) {
        while (b0->head) {
            evq_chunk *c = b0->head;
            if (b0->read < c->count) {
                uint32_t t = c->events[b0->read].ticket;
                if (!t || q->tickets[t - 1].state != TICKET_CANCELLED) return true;
                release_ticket(q, t - 1);
                b0->read++;
                q->far_stored--;
                continue;
            }
            b0->head = c->next;
            if (!b0->head) b0->tail = NULL;
            b0->read = 0;
            release_chunk(q, c);
        }
        if (!lowest_nonempty(q) || redistribute(q)) return false;
    }
}

/* The earliest time stored far, cancelled events included, without
 * moving `last` (a later far push below it would place every entry again). */
static sim_time_t far_least(const evq *q)
{
    const evq_bucket *b0 = &q->bucket[0];
    uint32_t read = b0->read;
    for (const evq_chunk *c = b0->head; c; c = c->next, read = 0)
        if (read < c->count) return c->events[read].time;
    int b = lowest_nonempty(q);
    return b ? q->bucket[b].least : SIM_TIME_MAX;
}

static int far_pop_until(evq *q, sim_time_t limit, evq_event *out)
{
    if (!settle(q)) return 0;
    evq_bucket *b0 = &q->bucket[0];
    const evq_event *top = &b0->head->events[b0->read];
    if (top->time > limit) return -1;
    *out = *top;
    if (top->ticket) release_ticket(q, top->ticket - 1);
    b0->read++;
    q->far_stored--;
    return 1;
}

/* --- both parts ------------------------------------------------------------- */

int evq_pop_until(evq *q, sim_time_t limit, evq_event *out)
{
    int slot = near_front(q);
    sim_time_t near = slot < 0 ? SIM_TIME_MAX : q->nodes[q->slot[slot].head].event.time;
    sim_time_t bound = slot < 0 || limit < near ? limit : near;
    int far = q->far_stored ? -1 : 0; /* as far_pop_until answers: -1 later than bound, 0 nothing live */
    /* The far part wins equal times: its events were pushed first. With
     * the wheel empty it is asked even when later than the limit, so that
     * its cancelled events are dropped and 0 means nothing live, as ever. */
    if (q->far_stored && (slot < 0 || q->far_floor <= bound)) {
        far = far_pop_until(q, bound, out);
        q->far_floor = q->far_stored ? far_least(q) : SIM_TIME_MAX;
        if (far == 1) {
            if (q->far_only_pops) q->far_only_pops--;
            q->cursor = out->time >> EVQ_WHEEL_SHIFT;
            q->live--;
            return 1;
        }
    }
    if (slot < 0) return far;
    if (near > limit) return -1;
    uint32_t n = near_unlink_head(q, (uint32_t)slot);
    *out = q->nodes[n].event;
    release_node(q, n);
    if (out->ticket) release_ticket(q, out->ticket - 1);
    q->cursor = near >> EVQ_WHEEL_SHIFT;
    q->live--;
    return 1;
}

bool evq_peek_time(evq *q, sim_time_t *time)
{
    int slot = near_front(q);
    sim_time_t near = slot < 0 ? SIM_TIME_MAX : q->nodes[q->slot[slot].head].event.time;
    if (q->far_stored && (slot < 0 || q->far_floor <= near)) {
        bool far_live = settle(q);
        q->far_floor = q->far_stored ? far_least(q) : SIM_TIME_MAX;
        sim_time_t far = far_live ? q->bucket[0].head->events[q->bucket[0].read].time : SIM_TIME_MAX;
        if (far_live && (slot < 0 || far <= near)) {
            *time = far;
            return true;
        }
    }
    if (slot < 0) return false;
    *time = near;
    return true;
}

bool evq_cancel(evq *q, evq_handle h)
{
    uint32_t t = (uint32_t)(h & 0xffffffffu);
    uint32_t gen = (uint32_t)(h >> 32);
    if (t == 0 || t > q->ticket_count) return false;
    evq_ticket *tk = &q->tickets[t - 1];
    if (tk->gen != gen || tk->state != TICKET_LIVE) return false;
    tk->state = TICKET_CANCELLED;
    q->live--;
    return true;
}
