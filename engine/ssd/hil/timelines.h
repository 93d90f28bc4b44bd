/* Resources that serve in arrival order, as timelines: a reservation
 * starts when both the work and the resource are ready, so they cost no
 * events (the host link's lanes: protocol.h; the firmware's cores and the
 * data path's engines: datapath.h). */
#ifndef SSDLAB_TIMELINES_H
#define SSDLAB_TIMELINES_H

#include "params.h"
#include "power.h"

static inline sim_time_t max_time(sim_time_t a, sim_time_t b) { return a > b ? a : b; }

#endif
