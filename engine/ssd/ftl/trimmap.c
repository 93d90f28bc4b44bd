#include "trimmap.h"

#include <stdlib.h>

int trimmap_init(trimmap *m, uint64_t logical_units)
{
    *m = (trimmap){0};
    if (!logical_units) return 0;
    m->words = (logical_units + 63) / 64;
    m->bits = calloc(m->words, sizeof *m->bits);
    return m->bits ? 0 : -1;
}

void trimmap_free(trimmap *m) { free(m->bits); }

void trimmap_mark(trimmap *m, uint32_t lpn)
{
    m->bits[lpn >> 6] |= UINT64_C(1) << (lpn & 63);
    m->pending++;
}

void trimmap_clear(trimmap *m, uint32_t lpn)
{
    uint64_t bit = UINT64_C(1) << (lpn & 63);
    if (m->bits[lpn >> 6] & bit) {
        m->bits[lpn >> 6] &= ~bit;
        m->pending--;
    }
}

void trimmap_apply(trimmap *m, ftl *f, uint64_t n)
{
    for (uint64_t left = n; left && m->pending;) {
        uint64_t w = m->cursor % m->words;
        while (m->bits[w] && left) {
            uint32_t lpn = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(m->bits[w]));
            trimmap_clear(m, lpn);
            ftl_trim(f, lpn);
            left--;
        }
        if (!m->bits[w]) m->cursor = w + 1;
    }
}
