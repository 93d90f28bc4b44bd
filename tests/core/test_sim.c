/* The simulator loop: dispatch, stop time, stop requests, cancellation. */
#include <criterion/criterion.h>
#include <signal.h>

#include "oom.h"
#include "sim.h"

typedef struct log {
    sim_time_t times[64];
    uint64_t args[64];
    int n;
    int stop_after;
} log_t;

static void record(sim *s, void *ctx, void *obj, uint64_t arg)
{
    log_t *l = ctx;
    cr_assert_eq(obj, (void *)l, "the object pointer must come back unchanged");
    l->times[l->n] = sim_now(s);
    l->args[l->n++] = arg;
    if (l->stop_after && l->n == l->stop_after) sim_request_stop(s);
}

static sim *new_sim(void)
{
    sim_options o = {.seed = 1};
    sim *s = sim_create(&o);
    cr_assert_not_null(s);
    return s;
}

Test(sim, dispatches_in_time_order_and_sets_the_clock)
{
    sim *s = new_sim();
    log_t l = {0};
    sim_handler_id h = sim_register_handler(s, "record", record, &l);
    cr_assert_str_eq(sim_handler_name(s, h), "record");
    sim_schedule_at(s, SIM_US(3), h, &l, 3);
    sim_schedule_at(s, SIM_US(1), h, &l, 1);
    sim_schedule_at(s, SIM_US(2), h, &l, 2);
    sim_schedule_at(s, SIM_US(2), h, &l, 22);
    cr_assert_eq(sim_run(s, SIM_TIME_MAX), SIM_STOP_EMPTY);
    cr_assert_eq(l.n, 4);
    uint64_t want[] = {1, 2, 22, 3};
    sim_time_t when[] = {1000, 2000, 2000, 3000};
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(l.args[i], want[i]);
        cr_assert_eq(l.times[i], when[i]);
    }
    cr_assert_eq(sim_now(s), SIM_US(3));
    cr_assert_eq(sim_events_run(s), 4);
    sim_free(s);
}

Test(sim, stop_time_leaves_later_events_and_resumes)
{
    sim *s = new_sim();
    log_t l = {0};
    sim_handler_id h = sim_register_handler(s, "record", record, &l);
    for (int i = 1; i <= 10; i++) sim_schedule_at(s, SIM_MS(i), h, &l, (uint64_t)i);
    cr_assert_eq(sim_run(s, SIM_MS(4)), SIM_STOP_TIME);
    cr_assert_eq(l.n, 4, "events at or before the stop time run");
    cr_assert_eq(sim_now(s), SIM_MS(4));
    cr_assert_eq(sim_events_pending(s), 6);
    sim_schedule_in(s, SIM_US(500), h, &l, 99); /* relative to the stop time */
    cr_assert_eq(sim_run(s, SIM_TIME_MAX), SIM_STOP_EMPTY);
    cr_assert_eq(l.args[4], 99);
    cr_assert_eq(l.times[4], SIM_MS(4) + SIM_US(500));
    cr_assert_eq(l.n, 11);
    sim_free(s);
}

Test(sim, stop_request_ends_the_run_with_events_pending)
{
    sim *s = new_sim();
    log_t l = {.stop_after = 2};
    sim_handler_id h = sim_register_handler(s, "record", record, &l);
    for (int i = 1; i <= 5; i++) sim_schedule_at(s, (sim_time_t)i, h, &l, (uint64_t)i);
    cr_assert_eq(sim_run(s, SIM_TIME_MAX), SIM_STOP_REQUESTED);
    cr_assert_eq(l.n, 2);
    cr_assert_eq(sim_events_pending(s), 3);
    l.stop_after = 0;
    cr_assert_eq(sim_run(s, SIM_TIME_MAX), SIM_STOP_EMPTY);
    cr_assert_eq(l.n, 5);
    sim_free(s);
}

Test(sim, cancelled_event_is_skipped)
{
    sim *s = new_sim();
    log_t l = {0};
    sim_handler_id h = sim_register_handler(s, "record", record, &l);
    sim_event a = sim_schedule_cancellable_at(s, 10, h, &l, 1);
    sim_event b = sim_schedule_cancellable_in(s, 20, h, &l, 2);
    cr_assert(sim_cancel(s, a));
    cr_assert_not(sim_cancel(s, a));
    sim_run(s, SIM_TIME_MAX);
    cr_assert_eq(l.n, 1);
    cr_assert_eq(l.args[0], 2);
    cr_assert_not(sim_cancel(s, b), "an event that ran cannot be cancelled");
    sim_free(s);
}

Test(sim, scheduling_in_the_past_is_a_model_bug, .signal = SIGABRT)
{
    sim *s = new_sim();
    log_t l = {0};
    sim_handler_id h = sim_register_handler(s, "record", record, &l);
    sim_schedule_at(s, 100, h, &l, 1);
    sim_run(s, SIM_TIME_MAX);
    sim_schedule_at(s, 50, h, &l, 2);
}

Test(sim, unknown_generator_is_refused)
{
    sim_options o = {.seed = 1, .rng_type = "no-such-generator"};
    cr_assert_null(sim_create(&o));
}

/* --- memory that runs out (oom.h) ------------------------------------------ */

static void runs_out(sim *s, void *ctx, void *obj, uint64_t arg)
{
    (void)s, (void)obj;
    log_t *l = ctx;
    l->args[l->n++] = arg;
    if (arg == 2) oom_raise("test widgets");
}

Test(sim, memory_that_runs_out_in_an_event_stops_the_run_for_good)
{
    sim *s = new_sim();
    log_t l = {0};
    sim_handler_id h = sim_register_handler(s, "runs_out", runs_out, &l);
    for (uint64_t i = 1; i <= 4; i++) sim_schedule_at(s, SIM_US(i), h, &l, i);
    oom_clear();
    cr_assert_not(sim_failed(s));
    cr_assert_eq(sim_run(s, SIM_TIME_MAX), SIM_STOP_FAILED);
    cr_assert_eq(l.n, 2, "the events after the failed one must not run");
    cr_assert_eq(sim_now(s), SIM_US(2), "the clock stays at the failed event");
    cr_assert(sim_failed(s));
    cr_assert_str_eq(oom_what(), "test widgets");
    cr_assert_eq(sim_run(s, SIM_TIME_MAX), SIM_STOP_FAILED, "a failed run cannot go on");
    cr_assert_eq(l.n, 2);
    sim_free(s);
}

/* A frame outside the loop (the runner's) is not taken by a raise inside
 * it: the loop's own frame is innermost, and it pops itself on the way. */
Test(sim, a_raise_goes_to_the_innermost_frame_only)
{
    sim *s = new_sim();
    log_t l = {0};
    sim_handler_id h = sim_register_handler(s, "runs_out", runs_out, &l);
    sim_schedule_at(s, 1, h, &l, 2);
    volatile int caught_outside = 0;
    oom_frame outer;
    oom_enter(&outer);
    if (setjmp(outer.at)) {
        caught_outside++;
    } else {
        cr_assert_eq(sim_run(s, SIM_TIME_MAX), SIM_STOP_FAILED);
        cr_assert_eq(caught_outside, 0);
        oom_raise("outside the loop"); /* now the outer frame is innermost */
    }
    cr_assert_eq(caught_outside, 1);
    cr_assert_str_eq(oom_what(), "outside the loop");
    sim_free(s);
}
