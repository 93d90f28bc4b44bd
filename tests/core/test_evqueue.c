/* The pending-event set: order (with ties), cancellation, pool reuse. */
#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#include "evqueue.h"

typedef struct ref_event {
    sim_time_t time;
    uint64_t seq;
} ref_event;

static int by_time_then_seq(const void *a, const void *b)
{
    const ref_event *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

Test(evqueue, equal_times_leave_in_insertion_order)
{
    evq q;
    cr_assert_eq(evq_init(&q, 0), 0);
    for (uint64_t i = 0; i < 5000; i++) evq_push(&q, 777, 0, NULL, i);
    evq_event e;
    for (uint64_t i = 0; i < 5000; i++) {
        cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
        cr_assert_eq(e.arg, i, "equal-time event %llu left at position %llu", (unsigned long long)e.arg,
                     (unsigned long long)i);
        cr_assert_eq(e.time, 777);
    }
    cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 0);
    evq_free(&q);
}

/* Random times over a narrow range (many ties) and a wide one (high bits):
 * the pop order must equal a sort by (time, insertion order). */
static void check_against_sort(sim_time_t base, uint64_t range, size_t n)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 42);
    ref_event *ref = malloc(n * sizeof *ref);
    evq q;
    evq_init(&q, 0);
    for (size_t i = 0; i < n; i++) {
        sim_time_t t = base + (uint64_t)(gsl_rng_uniform(r) * (double)range);
        ref[i] = (ref_event){t, i};
        evq_push(&q, t, 3, NULL, i);
    }
    qsort(ref, n, sizeof *ref, by_time_then_seq);
    evq_event e;
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
        cr_assert_eq(e.time, ref[i].time);
        cr_assert_eq(e.arg, ref[i].seq);
        cr_assert_eq(e.handler, 3);
    }
    cr_assert_eq(evq_pending(&q), 0);
    evq_free(&q);
    free(ref);
    gsl_rng_free(r);
}

Test(evqueue, pop_order_matches_sort_with_many_ties) { check_against_sort(0, 50, 20000); }
Test(evqueue, pop_order_matches_sort_over_wide_range) { check_against_sort(0, UINT64_C(1) << 62, 20000); }
Test(evqueue, pop_order_matches_sort_near_end_of_time) { check_against_sort(UINT64_MAX - 1000000, 1000000, 5000); }

/* Interleaved pushes and pops (the hold model): times never go back, and
 * among equal times the earlier-scheduled event leaves first. */
Test(evqueue, hold_model_keeps_order)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    evq q;
    evq_init(&q, 0);
    uint64_t seq = 0;
    for (int i = 0; i < 1000; i++) evq_push(&q, gsl_rng_uniform_int(r, 20), 0, NULL, seq++);
    evq_event e, prev = {0};
    for (int i = 0; i < 200000; i++) {
        cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
        cr_assert(e.time > prev.time || (e.time == prev.time && (i == 0 || e.arg > prev.arg)),
                  "event (%llu, #%llu) after (%llu, #%llu)", (unsigned long long)e.time, (unsigned long long)e.arg,
                  (unsigned long long)prev.time, (unsigned long long)prev.arg);
        prev = e;
        evq_push(&q, e.time + gsl_rng_uniform_int(r, 20), 0, NULL, seq++);
    }
    evq_free(&q);
    gsl_rng_free(r);
}

/* Pushes between pops at every distance, against a reference that pops
 * the least (time, insertion order) of its list: events land inside the
 * sorted run at the front (before, among and after its times), past it,
 * and in bursts that overflow its chunk. */
static sim_time_t next_delay(gsl_rng *r)
{
    switch (gsl_rng_uniform_int(r, 5)) {
    case 0: return 0;
    case 1: return gsl_rng_uniform_int(r, 300);
    case 2: return 1000 + gsl_rng_uniform_int(r, 70000);
    case 3: return 70000 + gsl_rng_uniform_int(r, 5000000);
    default: return gsl_rng_uniform_int(r, 2) * 256;
    }
}

Test(evqueue, interleaved_pushes_match_a_reference)
{
    enum { MOST = 4096 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    ref_event *ref = malloc(MOST * sizeof *ref);
    size_t pending = 0;
    uint64_t seq = 0;
    evq q;
    evq_init(&q, 0);
    sim_time_t now = 0;
    for (int step = 0; step < 60000; step++) {
        /* mostly one push per pop; now and then a burst of 100 */
        int pushes = step % 997 == 0 ? 100 : (int)gsl_rng_uniform_int(r, pending < 50 ? 3 : 2);
        for (int k = 0; k < pushes && pending < MOST; k++) {
            sim_time_t t = now + next_delay(r);
            ref[pending++] = (ref_event){t, seq};
            cr_assert_eq(evq_push(&q, t, 1, NULL, seq++), 0);
        }
        if (!pending) continue;
        size_t least = 0;
        for (size_t i = 1; i < pending; i++)
            if (by_time_then_seq(&ref[i], &ref[least]) < 0) least = i;
        evq_event e;
        cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
        cr_assert(e.time == ref[least].time && e.arg == ref[least].seq,
                  "step %d: popped (%llu, #%llu), expected (%llu, #%llu)", step, (unsigned long long)e.time,
                  (unsigned long long)e.arg, (unsigned long long)ref[least].time,
                  (unsigned long long)ref[least].seq);
        now = e.time;
        ref[least] = ref[--pending];
    }
    cr_assert_eq(evq_pending(&q), pending);
    evq_free(&q);
    free(ref);
    gsl_rng_free(r);
}

Test(evqueue, cancelled_events_never_fire)
{
    evq q;
    evq_init(&q, 0);
    evq_handle h[10];
    for (int i = 0; i < 10; i++) h[i] = evq_push_cancellable(&q, 100 + (sim_time_t)i, 0, NULL, (uint64_t)i);
    cr_assert(evq_cancel(&q, h[3]));
    cr_assert(evq_cancel(&q, h[0]));
    cr_assert_not(evq_cancel(&q, h[3]), "a second cancel must fail");
    cr_assert_not(evq_cancel(&q, 0), "handle 0 names no event");
    cr_assert_eq(evq_pending(&q), 8);
    sim_time_t t;
    cr_assert(evq_peek_time(&q, &t));
    cr_assert_eq(t, 101, "the cancelled earliest event must not be peeked");
    evq_event e;
    uint64_t seen = 0;
    while (evq_pop_until(&q, SIM_TIME_MAX, &e) == 1) {
        cr_assert_neq(e.arg, 3);
        cr_assert_neq(e.arg, 0);
        seen++;
    }
    cr_assert_eq(seen, 8);
    cr_assert_not(evq_cancel(&q, h[5]), "a handle of an event that already fired is stale");
    evq_free(&q);
}

Test(evqueue, stale_handle_does_not_cancel_a_reused_ticket)
{
    evq q;
    evq_init(&q, 0);
    evq_handle old = evq_push_cancellable(&q, 5, 0, NULL, 1);
    evq_event e;
    evq_pop_until(&q, SIM_TIME_MAX, &e);
    evq_handle fresh = evq_push_cancellable(&q, 6, 0, NULL, 2); /* reuses the ticket */
    cr_assert_eq(old & 0xffffffffu, fresh & 0xffffffffu, "the pool should reuse the freed ticket");
    cr_assert_not(evq_cancel(&q, old));
    cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
    cr_assert_eq(e.arg, 2);
    evq_free(&q);
}

Test(evqueue, pop_until_leaves_later_events_queued)
{
    evq q;
    evq_init(&q, 0);
    evq_push(&q, 10, 0, NULL, 1);
    evq_push(&q, 20, 0, NULL, 2);
    evq_event e;
    cr_assert_eq(evq_pop_until(&q, 15, &e), 1);
    cr_assert_eq(e.time, 10);
    cr_assert_eq(evq_pop_until(&q, 15, &e), -1);
    cr_assert_eq(evq_pending(&q), 1);
    cr_assert_eq(evq_pop_until(&q, 20, &e), 1);
    cr_assert_eq(e.arg, 2);
    evq_free(&q);
}

/* Once the pending count has peaked, scheduling reuses storage: neither the
 * buckets nor the ticket pool grow however many events pass through,
 * cancelled ones included. */
/* One step of a steady state: pop, then schedule the successor; every 7th
 * step also schedules and cancels a timeout. */
static void steady_steps(evq *q, int steps)
{
    evq_event e;
    for (int i = 0; i < steps; i++) {
        cr_assert_eq(evq_pop_until(q, SIM_TIME_MAX, &e), 1);
        if (i % 7 == 0) cr_assert(evq_cancel(q, evq_push_cancellable(q, e.time + 3000, 0, NULL, 0)));
        evq_push(q, e.time + 3000, 0, NULL, 0);
    }
}

Test(evqueue, storage_is_reused_in_steady_state)
{
    evq q;
    evq_init(&q, 0);
    for (int i = 0; i < 3000; i++) evq_push(&q, (sim_time_t)i, 0, NULL, 0);
    steady_steps(&q, 200000); /* every pool reaches its high water */
    size_t cap = evq_capacity(&q);
    steady_steps(&q, 1000000);
    cr_assert_eq(evq_capacity(&q), cap, "capacity grew from %zu to %zu", cap, evq_capacity(&q));
    /* Memory follows the pending events: 3000 live and about 3000/7
     * cancelled events, all 3000 ns ahead and so within the wheel's reach,
     * take 3428 nodes, which double from 64 to 4095; the far part keeps its
     * first 16 chunks, and tickets add at most 1024. */
    cr_assert_leq(cap, 4095 + 16 * 64 + 1024, "capacity %zu", cap);
    cr_assert_eq(evq_pending(&q), 3000);
    evq_free(&q);
}

/* After a run stops at a stop time the queue has looked ahead to the next
 * event; an event scheduled before that one must still come out first, and
 * equal times must keep their order. */
Test(evqueue, scheduling_before_a_peeked_event)
{
    evq q;
    evq_init(&q, 0);
    evq_push(&q, 100, 0, NULL, 1);
    evq_push(&q, 200, 0, NULL, 2);
    evq_push(&q, 200, 0, NULL, 3);
    evq_event e;
    cr_assert_eq(evq_pop_until(&q, 150, &e), 1);
    cr_assert_eq(evq_pop_until(&q, 150, &e), -1); /* looked ahead to 200 */
    evq_push(&q, 150, 0, NULL, 4);
    evq_push(&q, 200, 0, NULL, 5);
    evq_push(&q, 150, 0, NULL, 6);
    uint64_t want[] = {4, 6, 2, 3, 5};
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
        cr_assert_eq(e.arg, want[i], "position %d: got %llu", i, (unsigned long long)e.arg);
    }
    evq_free(&q);
}

/* The wheel reaches EVQ_WHEEL_SLOTS slots past the last event popped; an
 * event past that goes to the far part. */
static const sim_time_t reach = (sim_time_t)EVQ_WHEEL_SLOTS << EVQ_WHEEL_SHIFT;

/* An event of time T pushed while T lay past the wheel's reach (far) and
 * one of the same time pushed once the clock came near (into the wheel)
 * leave in the order they were pushed. */
Test(evqueue, equal_times_keep_order_across_the_wheels_reach)
{
    evq q;
    evq_init(&q, 0);
    sim_time_t t = 3 * reach;
    evq_push(&q, t, 0, NULL, 1);            /* far: the clock is at 0 */
    evq_push(&q, t - 100, 0, NULL, 0);      /* far too */
    evq_event e;
    cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
    cr_assert_eq(e.arg, 0);                 /* the clock is now 100 ns before t */
    evq_push(&q, t, 0, NULL, 2);            /* near */
    evq_push(&q, t - 50, 0, NULL, 3);       /* near, earlier than both */
    uint64_t want[] = {3, 1, 2};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
        cr_assert_eq(e.arg, want[i], "position %d: got %llu", i, (unsigned long long)e.arg);
    }
    cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 0);
    evq_free(&q);
}

/* Within one slot, times come out in order whatever order they were
 * pushed in, and equal ones in insertion order. */
Test(evqueue, one_slot_keeps_time_then_insertion_order)
{
    evq q;
    evq_init(&q, 0);
    sim_time_t base = 1000 << EVQ_WHEEL_SHIFT; /* one slot: base .. base + 255 */
    sim_time_t times[] = {base + 200, base + 10, base + 200, base + 100, base + 10, base + 255, base};
    for (uint64_t i = 0; i < 7; i++) evq_push(&q, times[i], 0, NULL, i);
    uint64_t want[] = {6, 1, 4, 3, 0, 2, 5};
    evq_event e;
    for (int i = 0; i < 7; i++) {
        cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
        cr_assert_eq(e.arg, want[i], "position %d: got %llu", i, (unsigned long long)e.arg);
    }
    evq_free(&q);
}

/* Cancelled events are dropped in either part; a queue holding only
 * cancelled ones, past the limit, is empty (0), not later (-1); a live far
 * event past the limit is later. */
Test(evqueue, cancelled_events_in_both_parts)
{
    evq q;
    evq_init(&q, 0);
    evq_handle near = evq_push_cancellable(&q, 500, 0, NULL, 1);
    evq_handle far = evq_push_cancellable(&q, 5 * reach, 0, NULL, 2);
    evq_push(&q, 700, 0, NULL, 3);
    cr_assert(evq_cancel(&q, near));
    cr_assert(evq_cancel(&q, far));
    evq_event e;
    cr_assert_eq(evq_pop_until(&q, 600, &e), -1); /* 700 is live and later */
    cr_assert_eq(evq_pop_until(&q, 800, &e), 1);
    cr_assert_eq(e.arg, 3);
    cr_assert_eq(evq_pop_until(&q, 800, &e), 0, "only a cancelled far event is left");
    evq_push(&q, 9 * reach, 0, NULL, 4);
    cr_assert_eq(evq_pop_until(&q, 800, &e), -1);
    sim_time_t t;
    cr_assert(evq_peek_time(&q, &t));
    cr_assert_eq(t, 9 * reach);
    evq_push(&q, 8 * reach, 0, NULL, 5); /* far, before the event peeked */
    cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
    cr_assert_eq(e.arg, 5);
    cr_assert_eq(evq_pending(&q), 1);
    evq_free(&q);
}

/* Thousands of events a few hundred nanoseconds apart crowd the wheel's
 * slots: a push that would walk past EVQ_SLOT_WALK of them sends the
 * wheel's events to the far part, which takes every push for
 * EVQ_FAR_ONLY_POPS pops; then the wheel takes them again. Through both
 * switches, events leave in (time, insertion) order, equal times among
 * them. */
Test(evqueue, crowded_slots_go_far_and_come_back_in_order)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    evq q;
    evq_init(&q, 0);
    uint64_t seq = 0, pops = 3 * EVQ_FAR_ONLY_POPS;
    for (int i = 0; i < 3000; i++) evq_push(&q, gsl_rng_uniform_int(r, 600), 0, NULL, seq++);
    evq_event e, prev = {0};
    bool went_far = false, came_back = false;
    for (uint64_t i = 0; i < pops; i++) {
        cr_assert_eq(evq_pop_until(&q, SIM_TIME_MAX, &e), 1);
        cr_assert(i == 0 || e.time > prev.time || (e.time == prev.time && e.arg > prev.arg),
                  "pop %llu: (%llu, #%llu) after (%llu, #%llu)", (unsigned long long)i, (unsigned long long)e.time,
                  (unsigned long long)e.arg, (unsigned long long)prev.time, (unsigned long long)prev.arg);
        prev = e;
        /* a third of the pushes at the same time as the pop, the rest spread */
        sim_time_t delay = gsl_rng_uniform_int(r, 3) ? gsl_rng_uniform_int(r, 600) : 0;
        cr_assert_eq(evq_push(&q, e.time + delay, 0, NULL, seq++), 0);
        went_far |= q.far_only_pops > 0;
        came_back |= went_far && q.far_only_pops == 0 && q.near_stored > 0;
    }
    cr_assert(went_far, "the crowded wheel never sent its events far");
    cr_assert(came_back, "the wheel never took events again");
    cr_assert_eq(evq_pending(&q), 3000);
    evq_free(&q);
    gsl_rng_free(r);
}
