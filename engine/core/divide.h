/* Division of 32-bit numbers by a divisor fixed at set-up, by one
 * multiplication: the mapping's per-unit steps divide on every write and
 * every move, and a hardware division cost a third of the fast path's GC
 * time (docs/ssd-model.md). */
#ifndef SSDLAB_DIVIDE_H
#define SSDLAB_DIVIDE_H

#include <stdint.h>

typedef struct divider {
    uint64_t magic; /* ceil(2^64 / d); 0 when d is 1 */
    uint32_t d;     /* d itself (1 for 0) */
} divider;

static inline divider divider_of(uint32_t d) { return (divider){d > 1 ? UINT64_MAX / d + 1 : 0, d > 1 ? d : 1}; }

/* x / d, exact for every 32-bit x: with magic = 2^64 / d + e / d (e < d),
 * x * magic / 2^64 exceeds x / d by under x * e / (d * 2^64) < 1 / d, which
 * never carries the quotient past an integer. */
static inline uint32_t divide(divider v, uint32_t x)
{
    return v.magic ? (uint32_t)(((unsigned __int128)x * v.magic) >> 64) : x;
}

/* How many of x, x + 1, ... have x's quotient: d - x % d. A run's end
 * at a group's boundary in one step, not a division per unit. */
static inline uint32_t divide_left(divider v, uint32_t x) { return v.d - (x - divide(v, x) * v.d); }

#endif
