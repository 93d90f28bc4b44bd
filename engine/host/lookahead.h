/* Where a closed-loop generator's next requests will go, guessed by running
 * it on a copy of its state, so that the drive can bring their table
 * entries into the cache before they come (on drives where that pays,
 * ssd_warm_pays). The guess draws from a shadow of the random stream,
 * never from the stream itself.
 *
 * The guesses run in batches, two batches ahead of the draws. At each
 * batch's start the drive fetches the entries of the batch after next
 * (prefetches: nothing waits for their lines), and the old places of the next
 * batch's writes (named by entries fetched a batch before, in the cache by
 * then): so the batch drawn now finds all it needs in the cache. Each draw
 * is compared with its guess. When another source drew from the stream
 * meanwhile, the two differ, and the next batch starts over from a fresh
 * copy, loading its first batch's entries and old places at once. A wrong
 * guess costs a wasted fetch, never a different result. Start-overs at
 * nearly every batch (as when workers shared one stream) still paid,
 * since a source's draws are among the values guessed, only at other
 * places; resting after wrong batches ran as slowly as no lookahead
 * (docs/ssd-model.md, thirty-ninth session). */
#ifndef SSDLAB_LOOKAHEAD_H
#define SSDLAB_LOOKAHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "generator.h"
#include "ssd.h"

/* Requests per batch: enough fetches at once to overlap their misses; the
 * fresh copy of the stream's state (5 KB for MT19937) is rare. The ring
 * holds the three batches guessed ahead, rounded up to a power of two. */
enum { LOOKAHEAD_BATCH = 16, LOOKAHEAD_RING = 4 * LOOKAHEAD_BATCH };

typedef struct lookahead {
    gsl_rng *shadow;                  /* the stream as of the last guess; NULL: off */
    generator guessing;               /* the generator as of the last guess */
    uint64_t offsets[LOOKAHEAD_RING]; /* the guesses, by draw number modulo the ring */
    bool reads[LOOKAHEAD_RING];
    uint64_t drawn;                   /* real draws so far */
    uint32_t ahead;                   /* guesses made past the real draws */
    bool wrong;                       /* a draw differed from its guess */
} lookahead;

/* One batch of guesses: LOOKAHEAD_BATCH offsets, and which are reads. */
typedef struct lookahead_batch {
    const uint64_t *offsets;
    const bool *reads;
} lookahead_batch;

/* On for drive d if warming pays there (ssd_warm_pays; d NULL: on), and off
 * for a sequential pattern, whose next entries sit beside this one's.
 * Returns -1 when memory runs out. */
int lookahead_init(lookahead *la, const generator *g, const gsl_rng *stream, const ssd *d);
void lookahead_free(lookahead *la);

/* Before each draw from generator g on stream: at a batch's start, the
 * guesses of the batch about to be drawn and of the two after it
 * (batch[0..2]), with *fresh true when they start over from the stream
 * (at the first batch, or after a wrong guess), and returns true; else (or
 * when off) returns false. Guessing changes neither g nor the stream. */
bool lookahead_plan(lookahead *la, const generator *g, const gsl_rng *stream, lookahead_batch batch[3], bool *fresh);
/* After each draw that lookahead_plan came before: what was drawn. */
void lookahead_drawn(lookahead *la, uint64_t offset, bool read);
/* lookahead_plan, and drive d brings the guesses' table entries and the
 * guessed writes' old places into the cache, as the plan says
 * (ssd_warm, ssd_warm_overwrites, ssd_fetch, ssd_fetch_overwrites). */
void lookahead_warm(lookahead *la, const generator *g, const gsl_rng *stream, ssd *d);

#endif
