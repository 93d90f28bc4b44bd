/* Block retirement: the erase count at which each block leaves service,
 * the smaller of its endurance (nand.endurance x nand.pe_cycles, spread
 * normally over the blocks by nand.endurance_spread, drawn once) and the
 * firmware's limit (ftl.retire_at x nand.pe_cycles). A die retires
 * blocks only up to ftl.retire_spare of its spare blocks (those beyond
 * what its user data and GC need): with fewer, GC would move nearly full
 * blocks for nothing. Past that, worn blocks stay in service, counted as
 * worn erases: the drive is at the end of its life. */
#ifndef SSDLAB_RETIRE_H
#define SSDLAB_RETIRE_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "params.h"

typedef struct retire {
    uint32_t *limit;       /* per block; NULL: no block ever retires */
    uint32_t spare_blocks; /* per die: blocks it can lose and still work */
} retire;

int retire_init(retire *r, const ssd_params *p, gsl_rng *rng);
void retire_free(retire *r);
static inline bool retire_due(const retire *r, uint32_t block, uint32_t erases)
{
    return r->limit && erases >= r->limit[block];
}

#endif
