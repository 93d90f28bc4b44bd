#include "drive_model.h"

#include <stdio.h>

#include "sim_config.h"

int drive_model_open(drive_model *m, const cfg *c, char *err, size_t errlen)
{
    sim_options o = sim_options_from_config(c);
    *m = (drive_model){.s = sim_create(&o)};
    if (!m->s) return snprintf(err, errlen, "out of memory"), -1;
    if ((m->d = ssd_create(m->s, c, err, errlen))) return 0;
    drive_model_close(m);
    return -1;
}

void drive_model_close(drive_model *m)
{
    ssd_free(m->d);
    sim_free(m->s);
    *m = (drive_model){0};
}
