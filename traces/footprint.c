#include "footprint.h"

#include <stdlib.h>
#include <string.h>

static bool grow(footprint *f, uint64_t word)
{
    uint64_t n = f->nwords ? f->nwords : 1024;
    while (n <= word) n *= 2;
    uint64_t *w = realloc(f->words, n * sizeof *w);
    if (!w) return false;
    memset(w + f->nwords, 0, (n - f->nwords) * sizeof *w);
    f->words = w;
    f->nwords = n;
    return true;
}

void footprint_mark(footprint *f, uint64_t offset, uint32_t bytes)
{
    uint64_t first = offset / FOOTPRINT_PAGE, last = (offset + bytes - 1) / FOOTPRINT_PAGE;
    if (f->overflow) return;
    if (last >= FOOTPRINT_MAX_PAGES || (last / 64 >= f->nwords && !grow(f, last / 64))) {
        f->overflow = true;
        return;
    }
    for (uint64_t p = first; p <= last; p++) {
        uint64_t bit = UINT64_C(1) << (p & 63);
        if (!(f->words[p / 64] & bit)) {
            f->words[p / 64] |= bit;
            f->set++;
        }
    }
}

int footprint_rank_prepare(footprint *f)
{
    free(f->before);
    if (!(f->before = malloc((f->nwords ? f->nwords : 1) * sizeof *f->before))) return -1;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < f->nwords; i++) {
        f->before[i] = sum;
        sum += (uint64_t)__builtin_popcountll(f->words[i]);
    }
    return 0;
}

uint64_t footprint_rank(const footprint *f, uint64_t page)
{
    uint64_t w = page / 64, below = f->words[w] & ((UINT64_C(1) << (page & 63)) - 1);
    return f->before[w] + (uint64_t)__builtin_popcountll(below);
}

void footprint_free(footprint *f)
{
    free(f->words);
    free(f->before);
    *f = (footprint){0};
}
