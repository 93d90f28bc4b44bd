/* The sim.* keys: seed, random generator, stop time, event pool size. */
#ifndef SSDLAB_SIM_CONFIG_H
#define SSDLAB_SIM_CONFIG_H

#include "config.h"
#include "sim.h"

extern const cfg_key sim_config_keys[];

/* The simulator options a configuration asks for. */
sim_options sim_options_from_config(const cfg *c);

#endif
