/* Resources that serve in arrival order, as timelines: a reservation
 * starts when both the work and the resource are ready, so they cost no
 * events. The firmware's cores (the host link's lanes: protocol.h). */
#ifndef SSDLAB_TIMELINES_H
#define SSDLAB_TIMELINES_H

#include "params.h"
#include "power.h"

static inline sim_time_t max_time(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

/* The core that frees up first (the lowest among equals). */
static inline uint32_t cores_least_busy(const sim_time_t *core_free, uint32_t cores)
{
    uint32_t best = 0;
    for (uint32_t c = 1; c < cores; c++)
        if (core_free[c] < core_free[best]) best = c;
    return best;
}

#endif
