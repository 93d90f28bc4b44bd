/* Measured figures of real drives (a targets file) and how a simulated
 * value compares with each. The file's keys live in a schema of their own
 * (target.*), loaded with the configuration system, so its errors name the
 * file, line and key like any other. */
#ifndef SSDLAB_VALIDATION_H
#define SSDLAB_VALIDATION_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

typedef enum target_check { CHECK_RELATIVE, CHECK_BELOW, CHECK_ABOVE, CHECK_RANGE, CHECK_RATING } target_check;

/* A maker's rating is a maximum: a drive may reach it or fall short of it,
 * never pass it by much. */
#define RATING_ABOVE 0.10
#define RATING_BELOW 0.25

typedef struct target {
    const char *drive, *label, *test, *phase, *figure, *unit, *source;
    target_check check;
    double measured, low, high, tolerance;
} target;

typedef struct target_list {
    cfg *file;    /* owns the strings */
    cfg **items;
    size_t item_count;
    target *targets;
    size_t count; /* targets in use: a caller may keep only some */
} target_list;

/* Loads a targets file; on error prints every message and returns -1. */
int targets_load(target_list *t, const char *path);
void targets_free(target_list *t);

/* Whether value passes; *error is the relative error for relative checks
 * (NaN otherwise). */
bool target_passes(const target *t, double value, double *error);
/* The target's requirement as text: "7 GiB +-20 %", "< 40 MiB/s", "765 .. 1150". */
void target_requirement(const target *t, char *buf, size_t len);

#endif
