/* The one composition root: a simulator and a drive on it, built from a
 * configuration. The C API, the stress mode and the command line all
 * build their model here. */
#ifndef SSDLAB_DRIVE_MODEL_H
#define SSDLAB_DRIVE_MODEL_H

#include <stddef.h>

#include "config.h"
#include "sim.h"
#include "ssd.h"

typedef struct drive_model {
    sim *s;
    ssd *d;
} drive_model;

/* Returns 0, or -1 with the reason in err and nothing left to free. */
int drive_model_open(drive_model *m, const cfg *c, char *err, size_t errlen);
void drive_model_close(drive_model *m);

#endif
