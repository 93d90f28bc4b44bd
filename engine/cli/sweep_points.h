/* What the sweep commands share: a point's configuration, its files, and
 * whether its result is complete. */
#ifndef SSDLAB_SWEEP_POINTS_H
#define SSDLAB_SWEEP_POINTS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "sweep.h"

/* Exit status of sweep run and run-point when points failed: this plus
 * the number failed (at most 100), so the status says how many. */
enum { EXIT_POINTS_FAILED = 10, POINTS_FAILED_MAX = 100 };

/* Loads a sweep file; on error prints every problem and returns -1. */
int sweep_open(sweep *s, const char *path, const char *cmd);

/* The point's files: DIR/NAME.h5 and DIR/NAME.log. */
void sweep_point_file(const sweep *s, const sweep_point *p, const char *ext, char *out, size_t len);

/* Loads point p's configuration and phases (as 'ssdlab run -d DRIVE -c ...
 * -w WORKLOAD --set ... --seed N' would); *seed gets the seed it runs with.
 * On error prints the messages and returns NULL. */
cfg *sweep_point_config(const sweep *s, const sweep_point *p, cfg ***phases, size_t *count, unsigned long long *seed);

typedef enum { POINT_MISSING, POINT_COMPLETE, POINT_FAILED, POINT_INTERRUPTED } point_state;
/* Complete: its result exists and says so. Failed: a log but no result
 * (or an unreadable one). Interrupted: stopped by a signal. */
point_state sweep_point_state(const sweep *s, const sweep_point *p);
const char *sweep_point_state_name(point_state st);

/* Runs point `index` into its files unless its result is complete;
 * returns an exit status (cli.h). */
int sweep_run_point(const sweep *s, size_t index, int argc, char **argv);

/* sweep slurm: the sbatch script of a job array over the missing points. */
typedef struct slurm_options {
    const char *partition, *account, *time, *mem, *cpus;
    size_t chunk; /* points per array task */
    bool submit;  /* pass the script to sbatch */
} slurm_options;
int sweep_slurm(const sweep *s, const slurm_options *o);

/* sweep collect: one HDF5 table of every complete point's summary rows. */
int sweep_collect(const sweep *s, const char *out);

#endif
