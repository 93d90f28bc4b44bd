/* /fdp and /zns in a result file: the placement designs' state at the
 * end of a run (docs/results-format.md). */
#ifndef SSDLAB_RESULTS_PLACEMENT_H
#define SSDLAB_RESULTS_PLACEMENT_H

#include <hdf5.h>

#include "ssd.h"

/* Writes /fdp for a drive with placement handles, /zns and /zones for
 * one with a zoned namespace; nothing otherwise. */
herr_t results_write_placement(hid_t file, const ssd *d);

#endif
