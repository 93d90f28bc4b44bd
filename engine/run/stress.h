/* Stress testing of the drive model: random episodes of host traffic
 * (random mixes, sequential runs, overwrites of a hot set, TRIMs, idle
 * periods, full-drive fills) on a drive, with the FTL's integrity checker
 * run after every garbage-collection erase, every SLC fold and every
 * episode. The checker's version mode makes "every LBA maps to its latest
 * write" part of what it checks. */
#ifndef SSDLAB_STRESS_H
#define SSDLAB_STRESS_H

#include <glob.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

typedef enum stress_episode {
    EPISODE_MIX,       /* random reads, writes and TRIMs over the drive */
    EPISODE_SEQUENTIAL,/* a sequential run of reads or writes */
    EPISODE_OVERWRITE, /* writes to a small hot set, over and over */
    EPISODE_TRIM,      /* large TRIMs */
    EPISODE_IDLE,      /* no requests: background GC and folding */
    EPISODE_FILL,      /* every logical block written once, in order */
    EPISODE_COUNT
} stress_episode;

extern const char *const stress_episode_names[EPISODE_COUNT];

typedef struct stress_counts {
    uint64_t requests, reads, writes, trims;
    uint64_t episodes[EPISODE_COUNT];
    uint64_t gc_checks, fold_checks, episode_checks;
    double simulated_s;
    uint64_t capacity; /* bytes the host sees */
} stress_counts;

/* Small-drive overrides for a preset (one die per channel) as --set
 * assignments; user overrides go after them, then stress_shrink. */
extern const char *const stress_shrink_sets[];
extern const size_t stress_shrink_set_count;
/* Gives the drive its GC reserves' blocks per plane and 24 more (at least
 * 32 in all), unless keep_blocks, and a
 * user capacity of 80 % of what the reserves leave, unless keep_capacity. */
void stress_shrink(cfg *c, bool keep_blocks, bool keep_capacity);

/* The preset families in models_dir/drives: the drive files that name no
 * family of their own, sorted. *paths (free it, then globfree g) points
 * into g; returns how many. */
int stress_families(const char *models_dir, glob_t *g, char ***paths);

/* Issues `requests` host requests in random episodes drawn from seed, on a
 * drive built from c. Returns 0, or -1 with the first integrity violation
 * (or why the drive could not be built) in err. */
int stress_run(const cfg *c, uint64_t requests, uint64_t seed, stress_counts *out, char *err, size_t errlen);

#endif
