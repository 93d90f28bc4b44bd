#include "retire.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

static uint32_t cycles(double share, const ssd_params *p)
{
    double c = share * p->pe_cycles;
    return c < 1 ? 1 : c >= UINT32_MAX ? UINT32_MAX : (uint32_t)lround(c);
}

int retire_init(retire *r, const ssd_params *p, gsl_rng *rng)
{
    const media_params *m = &p->media;
    *r = (retire){0};
    if (!media_retires(m)) return 0;
    size_t nblocks = (size_t)p->dies * p->blocks_per_die;
    r->limit = malloc(nblocks * sizeof *r->limit);
    if (!r->limit) return -1;
    uint32_t firmware = m->retire_at > 0 ? cycles(m->retire_at, p) : UINT32_MAX;
    for (size_t b = 0; b < nblocks; b++) {
        uint32_t own = UINT32_MAX;
        if (m->endurance > 0) own = cycles(m->endurance * (1 + gsl_ran_gaussian(rng, m->endurance_spread)), p);
        r->limit[b] = own < firmware ? own : firmware;
    }
    uint32_t usable = params_conventional_blocks(p);
    uint32_t spare = usable > p->min_blocks_per_die ? usable - p->min_blocks_per_die : 0;
    r->spare_blocks = (uint32_t)(m->retire_spare * spare);
    return 0;
}

void retire_free(retire *r)
{
    free(r->limit);
    r->limit = NULL;
}
