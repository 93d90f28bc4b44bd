/* A wear phase (workload.phase=wear): the phase's own write pattern (the
 * generator's pattern, sizes, skew and region; its reads passed over) sent
 * through the FTL's fast path, with no simulated time passing, until the
 * drive's host writes since new reach workload.wear of its rated endurance
 * (drive.rated_tbw), or the phase has written workload.drive_writes times
 * the capacity. A drive's rated life in writes then takes minutes where
 * the timed model would take days; timed phases between wear phases probe
 * the drive at each point of its life. */
#ifndef SSDLAB_WEAR_H
#define SSDLAB_WEAR_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "generator.h"
#include "sim.h"
#include "ssd.h"

typedef struct wear_phase {
    uint64_t rated_units; /* workload.wear: host units since new at which it ends, or 0 */
    uint64_t own_units;   /* workload.drive_writes: host units it writes itself, or 0 */
    uint64_t start_units, target_units; /* host units written since new: at its start, at which it ends */
    uint64_t requests;                  /* write requests drawn */
} wear_phase;

/* Reads the phase's target; -1 with what is wrong in err (no target, both
 * targets, a wear share with no rating, a phase that only reads). */
int wear_open(wear_phase *wp, const ssd *d, const cfg *c, double read_share, char *err, size_t errlen);
/* Writes until the target: 0, 1 when interrupted first (sim_poll), -1
 * with what went wrong in err. */
int wear_run(wear_phase *wp, sim *s, ssd *d, generator *g, gsl_rng *rng, char *err, size_t errlen);
double wear_progress(const wear_phase *wp, const ssd *d);

#endif
