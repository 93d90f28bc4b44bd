/* Tests' shared way to build a drive from --set style overrides: a base
 * list and more (each NULL-ended), as a configuration, a simulator and
 * the drive; and to check that overrides are refused with a message. */
#ifndef SSDLAB_TEST_DRIVE_RIG_H
#define SSDLAB_TEST_DRIVE_RIG_H

#include <criterion/criterion.h>
#include <string.h>

#include "sim_config.h"
#include "ssd.h"

typedef struct drive_rig {
    cfg *c;
    sim *s;
    ssd *d;
} drive_rig;

static inline cfg *drive_rig_config(const char *const *base, const char *const *more)
{
    cfg *c = cfg_create(ssdlab_schema());
    for (; base && *base; base++) cfg_set_override(c, *base);
    for (; more && *more; more++) cfg_set_override(c, *more);
    return c;
}

static inline void drive_rig_open(drive_rig *g, const char *const *base, const char *const *more)
{
    g->c = drive_rig_config(base, more);
    cr_assert_eq(cfg_error_count(g->c), 0, "%s", cfg_errors(g->c));
    sim_options o = sim_options_from_config(g->c);
    g->s = sim_create(&o);
    char err[512];
    g->d = ssd_create(g->s, g->c, err, sizeof err);
    cr_assert_not_null(g->d, "%s", err);
}

static inline void drive_rig_close(drive_rig *g)
{
    ssd_free(g->d);
    sim_free(g->s);
    cfg_free(g->c);
}

/* The drive of base + more is refused with a message holding `want`. */
static inline void drive_rig_refused(const char *const *base, const char *const *more, const char *want)
{
    cfg *c = drive_rig_config(base, more);
    sim_options o = sim_options_from_config(c);
    sim *s = sim_create(&o);
    char err[512] = "";
    cr_assert_null(ssd_create(s, c, err, sizeof err));
    cr_assert(strstr(err, want), "%s", err);
    sim_free(s);
    cfg_free(c);
}

#endif
