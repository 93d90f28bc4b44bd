#include "lookahead.h"

int lookahead_init(lookahead *la, const generator *g, const gsl_rng *stream, const ssd *d)
{
    *la = (lookahead){0};
    if (g->pattern == GEN_SEQUENTIAL || (d && !ssd_warm_pays(d))) return 0;
    la->shadow = gsl_rng_alloc(stream->type);
    return la->shadow ? 0 : -1;
}

void lookahead_free(lookahead *la)
{
    if (la->shadow) gsl_rng_free(la->shadow);
    la->shadow = NULL;
}

/* The next batch's guesses, after those made: the copies draw them. */
static void guess_batch(lookahead *la)
{
    for (uint32_t i = 0; i < LOOKAHEAD_BATCH; i++, la->ahead++) {
        uint32_t k = (uint32_t)(la->drawn + la->ahead) & (LOOKAHEAD_RING - 1), bytes;
        generator_next(&la->guessing, la->shadow, &la->reads[k], &la->offsets[k], &bytes);
    }
}

/* The batch from `ahead` guesses on. Batches start at multiples of the
 * batch's size, so one never wraps around the ring. */
static lookahead_batch batch_at(const lookahead *la, uint32_t ahead)
{
    uint32_t k = (uint32_t)(la->drawn + ahead) & (LOOKAHEAD_RING - 1);
    return (lookahead_batch){&la->offsets[k], &la->reads[k]};
}

bool lookahead_plan(lookahead *la, const generator *g, const gsl_rng *stream, lookahead_batch batch[3], bool *fresh)
{
    if (!la->shadow || la->drawn % LOOKAHEAD_BATCH) return false;
    *fresh = la->wrong || la->ahead < 2 * LOOKAHEAD_BATCH;
    if (*fresh) {
        gsl_rng_memcpy(la->shadow, stream);
        la->guessing = *g;
        la->ahead = 0;
        la->wrong = false;
        guess_batch(la);
        guess_batch(la);
    }
    guess_batch(la);
    for (uint32_t b = 0; b < 3; b++) batch[b] = batch_at(la, b * LOOKAHEAD_BATCH);
    return true;
}

void lookahead_drawn(lookahead *la, uint64_t offset, bool read)
{
    if (!la->shadow) return;
    uint32_t k = (uint32_t)la->drawn & (LOOKAHEAD_RING - 1);
    la->wrong |= la->offsets[k] != offset || la->reads[k] != read;
    la->ahead--;
    la->drawn++;
}

/* The batch's writes, into written; their count. */
static uint32_t writes_of(lookahead_batch b, uint64_t written[LOOKAHEAD_BATCH])
{
    uint32_t writes = 0;
    for (uint32_t i = 0; i < LOOKAHEAD_BATCH; i++)
        if (!b.reads[i]) written[writes++] = b.offsets[i];
    return writes;
}

/* The writes' old places: a write the buffer takes at once is placed as
 * soon as its data is in, and its old valid bit's clear waited for the
 * memory (perf, the 1 TiB DRAM-less steady write: a tenth of the samples,
 * with nine writes in ten let straight in). Loaded together with the
 * batch's entries (the thirty-third session), the core still waited for
 * two misses in turn at each batch. Fetched a batch ahead, from entries
 * fetched a batch before that, it waits for neither line, only for the
 * prefetches' address translations (docs/ssd-model.md). */
void lookahead_warm(lookahead *la, const generator *g, const gsl_rng *stream, ssd *d)
{
    lookahead_batch b[3];
    bool fresh;
    uint64_t written[LOOKAHEAD_BATCH];
    uint32_t writes;
    if (!lookahead_plan(la, g, stream, b, &fresh)) return;
    if (fresh) {
        ssd_warm(d, b[0].offsets, LOOKAHEAD_BATCH);
        if ((writes = writes_of(b[0], written))) ssd_warm_overwrites(d, written, writes);
    }
    if ((writes = writes_of(b[1], written))) ssd_fetch_overwrites(d, written, writes);
    ssd_fetch(d, b[2].offsets, LOOKAHEAD_BATCH);
}
