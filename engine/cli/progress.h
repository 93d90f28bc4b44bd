/* A one-line progress display on stderr for long runs: phase, simulated
 * time, share done, host I/Os per second of wall time, and an estimate of
 * the time left. A timer signal marks when the line is due; the simulator
 * calls back between events (sim_on_flag), so the event loop pays nothing
 * in between. Silent unless stderr is a terminal. */
#ifndef SSDLAB_PROGRESS_H
#define SSDLAB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim;
struct ssd;
struct workload;

typedef struct progress {
    bool on;
    struct sim *s;
    struct ssd *d;
    const struct workload *w;
    size_t phase, phases;
    double phase_wall0, last_wall;
    uint64_t last_submitted;
    double rate; /* host I/Os per wall second, smoothed */
} progress;

/* Shows progress when `wanted` and stderr is a terminal. */
void progress_begin(progress *p, struct sim *s, struct ssd *d, bool wanted);
/* The phase now running (index from 0 of count); w may be NULL (workers). */
void progress_phase(progress *p, const struct workload *w, size_t index, size_t count);
/* Shows a fixed message until the next update (work outside the event loop). */
void progress_note(progress *p, const char *what);
/* Clears the line and stops the timer. */
void progress_end(progress *p);

#endif
