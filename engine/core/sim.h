/* The discrete-event simulator: a clock, a pending-event queue, registered
 * event handlers and named random streams.
 *
 * A component registers a handler once, at set-up, and then schedules events
 * that carry the handler id, an object pointer and a 64-bit argument. The run
 * loop pops events in (time, insertion order) and calls their handlers. */
#ifndef SSDLAB_SIM_H
#define SSDLAB_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "evqueue.h"
#include "simtime.h"

typedef struct sim sim;
typedef evq_handle sim_event;
typedef uint32_t sim_handler_id;

typedef void (*sim_handler_fn)(sim *s, void *ctx, void *obj, uint64_t arg);

typedef enum sim_stop_reason {
    SIM_STOP_EMPTY,     /* no event left */
    SIM_STOP_TIME,      /* the next event lies after the stop time */
    SIM_STOP_REQUESTED, /* a handler called sim_request_stop */
    SIM_STOP_FAILED,    /* out of memory (oom.h): the run cannot go on */
} sim_stop_reason;

typedef struct sim_options {
    uint64_t seed;
    const char *rng_type;   /* GSL generator name; NULL = mt19937 */
    uint32_t event_reserve; /* pending events to allocate room for up front */
} sim_options;

/* Returns NULL when out of memory or for an unknown rng_type. */
sim *sim_create(const sim_options *opt);
void sim_free(sim *s);

sim_handler_id sim_register_handler(sim *s, const char *name, sim_handler_fn fn, void *ctx);
const char *sim_handler_name(const sim *s, sim_handler_id id);

/* Scheduling in the past, or past the event limits of evqueue.h, is a model
 * bug: the simulator reports it and aborts. */
void sim_schedule_at(sim *s, sim_time_t t, sim_handler_id h, void *obj, uint64_t arg);
void sim_schedule_in(sim *s, sim_time_t delay, sim_handler_id h, void *obj, uint64_t arg);
/* The same for events that may be cancelled (timeouts, idle timers): they
 * return a handle for sim_cancel and cost a little more. */
sim_event sim_schedule_cancellable_at(sim *s, sim_time_t t, sim_handler_id h, void *obj, uint64_t arg);
sim_event sim_schedule_cancellable_in(sim *s, sim_time_t delay, sim_handler_id h, void *obj, uint64_t arg);
/* True when ev was pending; it will not run. */
bool sim_cancel(sim *s, sim_event ev);

/* Runs events with time <= until. On SIM_STOP_TIME the clock moves to until.
 * An event that runs out of memory (oom_raise) ends the run: this and every
 * later call return SIM_STOP_FAILED, and the model's state is left as the
 * failed event had it, good for reporting what ran, not for going on. */
sim_stop_reason sim_run(sim *s, sim_time_t until);
/* True once a run has failed; oom_what() says for what. */
bool sim_failed(const sim *s);
void sim_request_stop(sim *s);
/* A flag set from outside the simulation (a signal handler): the run loop
 * looks at it every few thousand events and stops when it is set. */
void sim_watch_flag(sim *s, volatile sig_atomic_t *flag);
/* Every few thousand events, if *flag is set: clears it and calls fn(ctx)
 * (a progress display fed by a timer signal, say). */
void sim_on_flag(sim *s, volatile sig_atomic_t *flag, void (*fn)(void *ctx), void *ctx);
/* Looks at the flags now, as the run loop does between events, for work
 * that runs without events (a wear phase); true when a stop was requested. */
bool sim_poll(sim *s);
/* Moves the clock forward to t (time passing with nothing to do, as in an
 * idle phase); events before t must have run: it is a model bug otherwise. */
void sim_advance_to(sim *s, sim_time_t t);

sim_time_t sim_now(const sim *s);
uint64_t sim_events_run(const sim *s);
uint32_t sim_events_pending(const sim *s);
uint64_t sim_seed(const sim *s);

/* The random stream of a named component (see rng.h). */
gsl_rng *sim_rng(sim *s, const char *component);

#endif
