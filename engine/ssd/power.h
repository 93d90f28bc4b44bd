/* Energy and temperature of the drive. Energy: a constant floor (idle
 * power of the controller, DRAM, link and dies) plus the energy of each
 * operation (NAND reads, programs and erases by their duration, bus bytes,
 * firmware and link activity). Temperature: one lumped thermal mass with a
 * resistance to ambient; above the throttle temperature the NAND slows
 * down until it cools below the resume temperature.
 *
 * Temperature is brought up to date only when asked for (at each NAND
 * operation), integrating exactly over the time since the last update
 * with the average power of that time, so it costs no events. */
#ifndef SSDLAB_POWER_H
#define SSDLAB_POWER_H

#include <stdbool.h>

#include "config.h"
#include "simtime.h"

extern const cfg_key power_config_keys[];

typedef struct power_model {
    /* parameters */
    double die_read_w, die_program_w, die_erase_w, bus_j_per_byte;
    double controller_active_extra_w, link_active_extra_w, floor_w;
    bool thermal;
    double ambient_c, capacity_j_per_k, resistance_k_per_w, throttle_c, resume_c, throttle_slowdown;
    /* state */
    double energy_j;         /* deposited by operations (the floor is added at read-out) */
    double pending_j;        /* deposited since the last temperature update */
    sim_time_t updated_at;
    double temperature_c, max_temperature_c;
    bool throttling;
    sim_time_t throttled_ns, throttle_began;
} power_model;

void power_init(power_model *m, const cfg *c, unsigned dies);
static inline void power_deposit(power_model *m, double joules)
{
    m->energy_j += joules;
    m->pending_j += joules;
}
/* The temperature now (updated) and whether the NAND is throttled. */
double power_temperature(power_model *m, sim_time_t now);
bool power_throttled(power_model *m, sim_time_t now);
/* Total energy from time 0 to now, floor included. */
double power_energy(const power_model *m, sim_time_t now);

#endif
