#include "evqueue.h"

#include <stdlib.h>
#include <string.h>

#define EVQ_FREE UINT32_MAX
#define EVQ_CANCELLED (UINT32_MAX - 1)

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

static int grow_slots(evq *q, uint32_t want)
{
    return grow_array((void **)&q->slots, &q->slot_cap, want, sizeof *q->slots, 64);
}

static int grow_bucket(evq_bucket *b, uint32_t want)
{
    return grow_array((void **)&b->items, &b->cap, want, sizeof *b->items, 16);
}

int evq_init(evq *q, uint32_t reserve)
{
    memset(q, 0, sizeof *q);
    if (reserve < 64) reserve = 64;
    if (reserve > EVQ_MAX_PENDING) reserve = EVQ_MAX_PENDING;
    if (grow_slots(q, reserve)) return -1;
    return 0;
}

void evq_free(evq *q)
{
    for (int i = 0; i <= EVQ_BUCKETS; i++) free(q->bucket[i].items);
    free(q->slots);
    memset(q, 0, sizeof *q);
}

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

static uint32_t take_slot(evq *q)
{
    if (q->free_head) {
        uint32_t s = q->free_head - 1;
        q->free_head = (uint32_t)q->slots[s].arg;
        return s;
    }
    if (q->slot_count == q->slot_cap && grow_slots(q, q->slot_cap + 1)) return EVQ_FREE;
    q->slots[q->slot_count].gen = 1;
    return q->slot_count++;
}

static void release_slot(evq *q, uint32_t s)
{
    evq_slot *slot = &q->slots[s];
    slot->handler = EVQ_FREE;
    if (++slot->gen == 0) slot->gen = 1;
    slot->arg = q->free_head;
    q->free_head = s + 1;
}

static inline int append(evq *q, int b, evq_entry e)
{
    evq_bucket *bk = &q->bucket[b];
    if (__builtin_expect(bk->count == bk->cap, 0) && grow_bucket(bk, bk->cap + 1)) return -1;
    bk->items[bk->count++] = e;
    if (b) {
        q->nonempty[(b - 1) >> 6] |= UINT64_C(1) << ((b - 1) & 63);
        q->nonempty_words |= UINT64_C(1) << ((b - 1) >> 6);
    }
    return 0;
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
    q->last = new_last;
    int rc = 0;
    for (int b = 0; b <= EVQ_BUCKETS; b++) {
        for (uint32_t k = old[b].head; k < old[b].count && rc == 0; k++)
            rc = append(q, bucket_of(q, old[b].items[k].time), old[b].items[k]);
        free(old[b].items);
    }
    return rc;
}

evq_handle evq_push(evq *q, sim_time_t time, uint32_t handler, void *obj, uint64_t arg)
{
    if (q->stored >= EVQ_MAX_PENDING) return 0;
    if (time < q->last && rebucket(q, time)) return 0;
    uint32_t s = take_slot(q);
    if (s == EVQ_FREE) return 0;
    if (append(q, bucket_of(q, time), (evq_entry){time, s})) {
        release_slot(q, s);
        return 0;
    }
    evq_slot *slot = &q->slots[s];
    slot->obj = obj;
    slot->arg = arg;
    slot->handler = handler;
    q->live++;
    q->stored++;
    return ((uint64_t)slot->gen << 32) | s;
}

/* Empties the lowest non-empty bucket into lower ones, after moving `last`
 * up to its earliest time. Lower buckets are empty at that point, and
 * entries keep their order, so equal times keep insertion order. Cancelled
 * entries are moved like the others: looking at their slots here would cost
 * a cache miss per entry; they are dropped when they reach the front.
 * Returns -1 if a lower bucket could not grow. */
static int redistribute(evq *q)
{
    int b = lowest_nonempty(q);
    evq_bucket *src = &q->bucket[b];
    sim_time_t least = src->items[0].time;
    for (uint32_t k = 1; k < src->count; k++)
        if (src->items[k].time < least) least = src->items[k].time;
    q->last = least;
    q->nonempty[(b - 1) >> 6] &= ~(UINT64_C(1) << ((b - 1) & 63));
    if (!q->nonempty[(b - 1) >> 6]) q->nonempty_words &= ~(UINT64_C(1) << ((b - 1) >> 6));
    for (uint32_t k = 0; k < src->count; k++)
        if (append(q, bucket_of(q, src->items[k].time), src->items[k])) return -1;
    src->count = 0;
    return 0;
}

/* Brings the earliest live event to the front of bucket 0, dropping
 * cancelled ones on the way. Returns false when nothing live is pending. */
static bool settle(evq *q)
{
    evq_bucket *b0 = &q->bucket[0];
    for (;;) {
        while (b0->head < b0->count) {
            uint32_t s = b0->items[b0->head].slot;
            if (q->slots[s].handler != EVQ_CANCELLED) return true;
            release_slot(q, s);
            b0->head++;
            q->stored--;
        }
        b0->head = b0->count = 0;
        if (!lowest_nonempty(q) || redistribute(q)) return false;
    }
}

int evq_pop_until(evq *q, sim_time_t limit, evq_event *out)
{
    if (!settle(q)) return 0;
    evq_bucket *b0 = &q->bucket[0];
    const evq_entry *top = &b0->items[b0->head];
    if (top->time > limit) return -1;
    evq_slot *slot = &q->slots[top->slot];
    out->time = top->time;
    out->handler = slot->handler;
    out->obj = slot->obj;
    out->arg = slot->arg;
    release_slot(q, top->slot);
    b0->head++;
    q->live--;
    q->stored--;
    return 1;
}

bool evq_peek_time(evq *q, sim_time_t *time)
{
    if (!settle(q)) return false;
    *time = q->bucket[0].items[q->bucket[0].head].time;
    return true;
}

bool evq_cancel(evq *q, evq_handle h)
{
    uint32_t s = (uint32_t)(h & 0xffffffffu);
    uint32_t gen = (uint32_t)(h >> 32);
    if (h == 0 || s >= q->slot_count) return false;
    evq_slot *slot = &q->slots[s];
    if (slot->gen != gen || slot->handler >= EVQ_CANCELLED) return false;
    slot->handler = EVQ_CANCELLED;
    q->live--;
    return true;
}
