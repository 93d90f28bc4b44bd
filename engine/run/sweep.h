/* A parameter sweep: one YAML file naming a base drive and workload and the
 * keys to vary, expanded into points, each a list of --set overrides.
 * Format and the order of points: docs/sweeps.md.
 *
 * Points are numbered with the grid's first key varying slowest and its last
 * fastest, then the zipped lists, then the repetitions; repetition r runs
 * with sim.seed = base seed + r, the same at every point, so that points
 * differ by their parameters and not by their random streams. */
#ifndef SSDLAB_SWEEP_H
#define SSDLAB_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef struct sweep_axis {
    char *key;     /* a configuration key, e.g. ftl.gc.policy */
    char **values; /* as written in the file */
    size_t count;
} sweep_axis;

typedef struct sweep {
    char *path;
    char *name;      /* sweep.name, or the file's name without .yaml */
    char *drive;     /* sweep.drive: a drive file or a preset's name */
    char *workload;  /* sweep.workload, or NULL */
    char **configs;  /* sweep.config: further config files */
    size_t config_count;
    char **sets;     /* sweep.set: overrides at every point */
    size_t set_count;
    char *output;    /* sweep.output, or results/sweeps/NAME */
    uint32_t repetitions;
    bool has_seed;   /* sweep.seed given; else the configuration's sim.seed is the base */
    uint64_t seed;
    sweep_axis *grid; /* every combination of these */
    size_t grid_count;
    sweep_axis *zip;  /* these together: their i-th values form one choice */
    size_t zip_count;
    size_t zip_length;
} sweep;

/* One point of a sweep. */
typedef struct sweep_point {
    size_t index;
    uint32_t repetition;
    char **sets;  /* "key=value", the swept keys in file order (grid, then zip) */
    size_t set_count;
    char name[32]; /* file name stem: p0007-1a2b3c4d (index and a hash of the overrides and repetition) */
} sweep_point;

/* Loads and checks a sweep file. Returns 0, or -1 with every problem found
 * (file:line: key: what was expected), one per line, in err. */
int sweep_load(sweep *s, const char *path, char *err, size_t errlen);
void sweep_free(sweep *s);
size_t sweep_point_count(const sweep *s);
/* Fills point `index` (< sweep_point_count). Returns 0, or -1 when out of
 * memory. */
int sweep_point_make(const sweep *s, size_t index, sweep_point *p);
void sweep_point_free(sweep_point *p);
/* The seed of repetition r given the base seed. */
uint64_t sweep_seed(uint64_t base, uint32_t repetition);

#endif
