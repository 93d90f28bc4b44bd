/* Figures of merit computed from a result file, the numbers reviewers
 * quote: a phase's throughput, the data a drive takes at full speed before
 * its speed falls (the SLC cache, or what idle GC freed), the speed after,
 * the floor of a degradation run, how long reads stall around a TRIM. Each
 * is computed over one phase of the result (its summary row and the time
 * series inside it). `ssdlab validate` compares them with measurements. */
#ifndef SSDLAB_FIGURES_H
#define SSDLAB_FIGURES_H

#include <stddef.h>

#include "results.h"

typedef struct figure_input {
    const phase_summary *phases;
    size_t phase_count;
    const ssd_interval *series;
    size_t series_count;
} figure_input;

/* The figures count intervals: idle rows merged over several intervals
 * (docs/results-format.md) become one row per interval of interval_s
 * again, each with the merged row's values. Returns the rows (allocated),
 * or NULL when memory runs out. */
ssd_interval *figure_uniform_series(const ssd_interval *rows, size_t n, double interval_s, size_t *out);

/* The names figure_compute knows, NULL-terminated (and the choices of the
 * key target.figure). */
extern const char *const figure_names[];

/* Computes figure `name` over the phase named `phase`. Returns 0 with the
 * value in *value, or -1 with a message in err (no such phase or figure,
 * or nothing to measure: no cliff in a fill, say). */
int figure_compute(const figure_input *in, const char *name, const char *phase, double *value, char *err, size_t errlen);

#endif
