#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatal.h"
#include "oom.h"
#include "rng.h"

typedef struct handler {
    sim_handler_fn fn;
    void *ctx;
    char *name;
} handler;

struct sim {
    sim_time_t now;
    evq queue;
    handler *handlers;
    uint32_t handler_count, handler_cap;
    bool stop_requested, failed;
    uint64_t events_run;
    uint64_t seed;
    rng_streams *rng;
    volatile sig_atomic_t *watched;
    volatile sig_atomic_t *tick_flag;
    void (*tick)(void *ctx);
    void *tick_ctx;
};

static _Noreturn void model_bug(const char *what, const char *detail)
{
    ssdlab_internal_error("%s (%s)", what, detail);
}

sim *sim_create(const sim_options *opt)
{
    sim *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->seed = opt->seed;
    s->rng = rng_streams_create(opt->seed, opt->rng_type);
    if (!s->rng || evq_init(&s->queue, opt->event_reserve)) {
        sim_free(s);
        return NULL;
    }
    return s;
}

void sim_free(sim *s)
{
    if (!s) return;
    for (uint32_t i = 0; i < s->handler_count; i++) free(s->handlers[i].name);
    free(s->handlers);
    evq_free(&s->queue);
    rng_streams_free(s->rng);
    free(s);
}

sim_handler_id sim_register_handler(sim *s, const char *name, sim_handler_fn fn, void *ctx)
{
    if (s->handler_count == s->handler_cap) {
        uint32_t cap = s->handler_cap ? 2 * s->handler_cap : 16;
        handler *h = realloc(s->handlers, cap * sizeof *h);
        if (!h) model_bug("out of memory registering a handler", name);
        s->handlers = h;
        s->handler_cap = cap;
    }
    char *copy = strdup(name);
    if (!copy) model_bug("out of memory registering a handler", name);
    s->handlers[s->handler_count] = (handler){fn, ctx, copy};
    return s->handler_count++;
}

const char *sim_handler_name(const sim *s, sim_handler_id id)
{
    return id < s->handler_count ? s->handlers[id].name : "(none)";
}

static void check_schedule(const sim *s, sim_time_t t, sim_handler_id h)
{
    if (t < s->now) model_bug("event scheduled in the past", sim_handler_name(s, h));
    if (h >= s->handler_count) model_bug("event for an unregistered handler", "schedule");
}

static sim_time_t after(const sim *s, sim_time_t delay, sim_handler_id h)
{
    if (delay > SIM_TIME_MAX - s->now) model_bug("event scheduled past the end of time", sim_handler_name(s, h));
    return s->now + delay;
}

/* The queue's limit (2^30 pending) is a resource like memory: a run that
 * reaches it stops as one that runs out of memory does. */
static const char queue_full[] = "pending events (or the limit of 2^30 was reached)";

void sim_schedule_at(sim *s, sim_time_t t, sim_handler_id h, void *obj, uint64_t arg)
{
    check_schedule(s, t, h);
    if (evq_push(&s->queue, t, h, obj, arg)) oom_raise(queue_full);
}

void sim_schedule_in(sim *s, sim_time_t delay, sim_handler_id h, void *obj, uint64_t arg)
{
    sim_schedule_at(s, after(s, delay, h), h, obj, arg);
}

sim_event sim_schedule_cancellable_at(sim *s, sim_time_t t, sim_handler_id h, void *obj, uint64_t arg)
{
    check_schedule(s, t, h);
    sim_event ev = evq_push_cancellable(&s->queue, t, h, obj, arg);
    if (!ev) oom_raise(queue_full);
    return ev;
}

sim_event sim_schedule_cancellable_in(sim *s, sim_time_t delay, sim_handler_id h, void *obj, uint64_t arg)
{
    return sim_schedule_cancellable_at(s, after(s, delay, h), h, obj, arg);
}

bool sim_cancel(sim *s, sim_event ev) { return evq_cancel(&s->queue, ev); }

static void poll_flags(sim *s)
{
    if (s->watched && *s->watched) s->stop_requested = true;
    if (s->tick_flag && *s->tick_flag) {
        *s->tick_flag = 0;
        s->tick(s->tick_ctx);
    }
}

/* Kept apart from sim_run, whose setjmp would otherwise keep the loop's
 * variables out of registers. */
static __attribute__((noinline)) sim_stop_reason run_events(sim *s, sim_time_t until)
{
    s->stop_requested = false;
    evq_event ev;
    while (!s->stop_requested) {
        int got = evq_pop_until(&s->queue, until, &ev);
        if (got == 0) return SIM_STOP_EMPTY;
        if (got < 0) {
            s->now = until;
            return SIM_STOP_TIME;
        }
        s->now = ev.time;
        /* looked at rarely, so the hot loop stays a load and a branch */
        if ((++s->events_run & 4095) == 0) poll_flags(s);
        const handler *h = &s->handlers[ev.handler];
        h->fn(s, h->ctx, ev.obj, ev.arg);
    }
    return SIM_STOP_REQUESTED;
}

sim_stop_reason sim_run(sim *s, sim_time_t until)
{
    if (s->failed) return SIM_STOP_FAILED;
    oom_frame f;
    oom_enter(&f);
    if (setjmp(f.at)) {
        s->failed = true;
        return SIM_STOP_FAILED;
    }
    sim_stop_reason why = run_events(s, until);
    oom_leave(&f);
    return why;
}

bool sim_failed(const sim *s) { return s->failed; }

void sim_request_stop(sim *s) { s->stop_requested = true; }
void sim_watch_flag(sim *s, volatile sig_atomic_t *flag) { s->watched = flag; }

bool sim_poll(sim *s)
{
    poll_flags(s);
    return s->stop_requested;
}

void sim_on_flag(sim *s, volatile sig_atomic_t *flag, void (*fn)(void *ctx), void *ctx)
{
    s->tick_flag = flag;
    s->tick = fn;
    s->tick_ctx = ctx;
}

void sim_advance_to(sim *s, sim_time_t t)
{
    sim_time_t next;
    if (evq_peek_time(&s->queue, &next) && next < t) model_bug("clock moved past a pending event", "sim_advance_to");
    if (t > s->now) s->now = t;
}
sim_time_t sim_now(const sim *s) { return s->now; }
uint64_t sim_events_run(const sim *s) { return s->events_run; }
uint32_t sim_events_pending(const sim *s) { return evq_pending(&s->queue); }
uint64_t sim_seed(const sim *s) { return s->seed; }

gsl_rng *sim_rng(sim *s, const char *component)
{
    gsl_rng *r = rng_stream(s->rng, component);
    if (!r) model_bug("cannot create random stream (out of memory, or its seed collides with another stream's: rename the component)", component);
    return r;
}
