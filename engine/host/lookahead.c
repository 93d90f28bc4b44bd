#include "lookahead.h"

int lookahead_init(lookahead *la, const generator *g, const gsl_rng *stream, const ssd *d)
{
    la->left = 0;
    la->shadow = NULL;
    if (g->pattern == GEN_SEQUENTIAL || (d && !ssd_warm_pays(d))) return 0;
    la->shadow = gsl_rng_alloc(stream->type);
    return la->shadow ? 0 : -1;
}

void lookahead_free(lookahead *la)
{
    if (la->shadow) gsl_rng_free(la->shadow);
    la->shadow = NULL;
}

uint32_t lookahead_guess(lookahead *la, const generator *g, const gsl_rng *stream, uint64_t offsets[LOOKAHEAD_BATCH],
                         bool reads[LOOKAHEAD_BATCH])
{
    if (!la->shadow || la->left-- > 0) return 0;
    la->left = LOOKAHEAD_BATCH - 1;
    gsl_rng_memcpy(la->shadow, stream);
    generator guess = *g;
    for (uint32_t i = 0; i < LOOKAHEAD_BATCH; i++) {
        uint32_t bytes;
        generator_next(&guess, la->shadow, &reads[i], &offsets[i], &bytes);
    }
    return LOOKAHEAD_BATCH;
}

/* The writes' old places too: a write the buffer takes at once is placed
 * as soon as its data is in, and its old valid bit's clear waited for the
 * memory (perf, the 1 TiB DRAM-less steady write: a tenth of the samples,
 * with nine writes in ten let straight in). Loaded here, just after the
 * entries that name them, the two loads' misses overlap across the batch. */
void lookahead_warm(lookahead *la, const generator *g, const gsl_rng *stream, ssd *d)
{
    uint64_t offsets[LOOKAHEAD_BATCH], written[LOOKAHEAD_BATCH];
    bool reads[LOOKAHEAD_BATCH];
    uint32_t n = lookahead_guess(la, g, stream, offsets, reads), writes = 0;
    if (!n) return;
    ssd_warm(d, offsets, n);
    for (uint32_t i = 0; i < n; i++)
        if (!reads[i]) written[writes++] = offsets[i];
    if (writes) ssd_warm_overwrites(d, written, writes);
}
