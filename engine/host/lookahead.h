/* Where a closed-loop generator's next requests will go, guessed by running
 * it on copies of its state, so that the drive can load their table entries
 * in one batch (ssd_warm, on drives where that pays). The guess draws from
 * a shadow of the random stream, never from the stream itself: when
 * another source draws in between (tenants share the stream), a guess is
 * wrong and costs a wasted load, never a different result. */
#ifndef SSDLAB_LOOKAHEAD_H
#define SSDLAB_LOOKAHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "generator.h"
#include "ssd.h"

/* Requests per guess: enough loads in flight at once to overlap their
 * misses; the copy of the stream's state (5 KB for MT19937) is shared by
 * this many requests. 8 and 32 measured no better on the bench. */
enum { LOOKAHEAD_BATCH = 16 };

typedef struct lookahead {
    gsl_rng *shadow;   /* NULL: off */
    uint32_t left;     /* draws before the next guess */
} lookahead;

/* On for drive d if warming pays there (ssd_warm_pays; d NULL: on), and off
 * for a sequential pattern, whose next entries sit beside this one's.
 * Returns -1 when memory runs out. */
int lookahead_init(lookahead *la, const generator *g, const gsl_rng *stream, const ssd *d);
void lookahead_free(lookahead *la);

/* Before each draw from generator g on stream: every LOOKAHEAD_BATCH draws,
 * writes the offsets of the batch from this draw on, and which of them are
 * reads, and returns LOOKAHEAD_BATCH; else (or when off) returns 0. */
uint32_t lookahead_guess(lookahead *la, const generator *g, const gsl_rng *stream, uint64_t offsets[LOOKAHEAD_BATCH],
                         bool reads[LOOKAHEAD_BATCH]);
/* lookahead_guess, and drive d loads the guesses' table entries, and the
 * guessed writes' old places (ssd_warm, ssd_warm_overwrites). */
void lookahead_warm(lookahead *la, const generator *g, const gsl_rng *stream, ssd *d);

#endif
