/* The simulator loop: dispatch, stop time, stop requests, cancellation. */
#include <criterion/criterion.h>
#include <signal.h>

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
