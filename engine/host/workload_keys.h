/* The workload keys (the schema), and each against the phase it is set
 * in: the generator's keys on a trace replay, a trace's keys on a
 * synthetic phase, and any key the kind of its phase (io, fill, trim,
 * idle, timed or as-fast-as-possible replay) would ignore are errors,
 * never ignored. */
#ifndef SSDLAB_WORKLOAD_KEYS_H
#define SSDLAB_WORKLOAD_KEYS_H

#include <stddef.h>

#include "config.h"

/* The keys of workload: and of each phase, with what they mean. */
extern const cfg_key workload_config_keys[];

/* Set anywhere on a phase (including the workload's top): 0, or -1 with a
 * message. */
int workload_refuse_trace_keys(const cfg *c, char *err, size_t errlen);
int workload_refuse_generator_keys(const cfg *c, char *err, size_t errlen);

/* Every phase's keys against its kind: a key set in a phase that would
 * ignore it, or set for the whole workload and used by none of its phases,
 * is an error. count 0: base is the only phase. 0, or -1 with a message
 * and the phase it is about in *phase (from 1; 0 for the whole workload). */
int workload_check_keys(const cfg *base, cfg *const *phases, size_t count, size_t *phase, char *err, size_t errlen);

#endif
