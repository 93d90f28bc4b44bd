/* Power loss (workload.phase = power_loss; docs/reliability.md). The
 * power fails between phases: the drive has finished the commands it was
 * given and their flash work, so what its volatile memory still holds is
 * the acknowledged data in part-filled program units (and its mapping
 * tables, which the flash can rebuild).
 *
 * - Without power-loss protection that data is gone: the logical units it
 *   held are unmapped and listed (host writes, and units GC moved whose
 *   only copy was in the buffer, apart).
 * - With capacitors the firmware pads and programs those units first, on
 *   the simulated clock, until the capacitors' energy (drive.holdup_energy)
 *   is spent: what is not programmed by then is lost.
 * - Power returns: the firmware rebuilds its mapping (ftl.rebuild), for
 *   the time of the flash reads that takes, and the run goes on. */
#ifndef SSDLAB_POWERLOSS_H
#define SSDLAB_POWERLOSS_H

#include <stddef.h>
#include <stdint.h>

#include "flash.h"
#include "ftl.h"
#include "params.h"

/* Every power loss so far, summed; the logical units lost, in order. */
typedef struct powerloss_log {
    uint64_t events, lost_units, lost_relocated, holdup_short; /* holdup_short: flushes the capacitors cut short */
    double flush_s, flush_energy_j, rebuild_s;
    uint32_t *lost_lpns;
    size_t lost_count, lost_room;
} powerloss_log;

void powerloss_log_free(powerloss_log *log);
/* Unmaps the logical units whose data is only in the controller's buffer
 * (mapped to units not yet programmed), adding them to the log; -1 when
 * memory runs out for the list. */
int powerloss_drop_buffered(ftl *f, const flash *fl, powerloss_log *log);
/* The time the firmware takes to rebuild its mapping from the flash
 * (ftl.rebuild): reading the spare area of every programmed page (scan),
 * or the mapping table's checkpoint and the spare area of the blocks still
 * open (checkpoint); dies read in parallel, each channel moves its dies'
 * spare bytes. */
sim_time_t powerloss_rebuild_time(const ftl *f, const flash *fl);

#endif
