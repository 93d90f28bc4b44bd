/* Resources that serve in arrival order, as timelines: a reservation
 * starts when both the work and the resource are ready, so they cost no
 * events. The firmware's cores and the host link. */
#ifndef SSDLAB_TIMELINES_H
#define SSDLAB_TIMELINES_H

#include "params.h"
#include "power.h"

enum { LINK_TO_HOST, LINK_TO_DEVICE };

static inline sim_time_t max_time(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

/* The core that frees up first (the lowest among equals). */
static inline uint32_t cores_least_busy(const sim_time_t *core_free, uint32_t cores)
{
    uint32_t best = 0;
    for (uint32_t c = 1; c < cores; c++)
        if (core_free[c] < core_free[best]) best = c;
    return best;
}

/* Moves `bytes` over the host link (NVMe: full duplex; SATA: half) from
 * `now` on; returns when the transfer ends. */
static inline sim_time_t link_transfer(const ssd_params *p, sim_time_t *link_free, power_model *power, sim_time_t now,
                                       int dir, uint64_t bytes)
{
    int lane = p->host == HOST_NVME ? dir : 0;
    sim_time_t busy = p->link_command + params_link_time(p, bytes);
    power_deposit(power, (double)busy * 1e-9 * power->link_active_extra_w);
    sim_time_t end = max_time(now, link_free[lane]) + busy;
    link_free[lane] = end;
    return end;
}

#endif
