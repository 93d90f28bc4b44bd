#include "power.h"

#include <math.h>
#include <string.h>

const cfg_key power_config_keys[] = {
    {"power.die_read_mw", CFG_FLOAT, NULL, "50", "0", "10000", NULL, "Power of a die while it reads (mW)."},
    {"power.die_program_mw", CFG_FLOAT, NULL, "60", "0", "10000", NULL, "Power of a die while it programs (mW)."},
    {"power.die_erase_mw", CFG_FLOAT, NULL, "45", "0", "10000", NULL, "Power of a die while it erases (mW)."},
    {"power.die_idle_mw", CFG_FLOAT, NULL, "0.3", "0", "1000", NULL, "Power of an idle die (mW)."},
    {"power.bus_pj_per_byte", CFG_FLOAT, NULL, "100", "0", "100000", NULL, "Energy of moving one byte over a NAND channel (pJ)."},
    {"power.controller_active_w", CFG_FLOAT, NULL, "1.2", "0", "100", NULL, "Controller power while a firmware core works (W)."},
    {"power.controller_idle_w", CFG_FLOAT, NULL, "0.3", "0", "100", NULL, "Controller power when idle (W)."},
    {"power.dram_w", CFG_FLOAT, NULL, "0.2", "0", "100", NULL, "DRAM power, constant (W; 0 for DRAM-less drives)."},
    {"power.link_active_w", CFG_FLOAT, NULL, "0.5", "0", "100", NULL, "Host link power while it transfers (W)."},
    {"power.link_idle_w", CFG_FLOAT, NULL, "0.05", "0", "100", NULL, "Host link power when idle (W)."},
    {"thermal.model", CFG_ENUM, NULL, "none", NULL, NULL, "none|lumped", "Temperature model: none, or one lumped thermal mass."},
    {"thermal.ambient", CFG_FLOAT, NULL, "25", "-40", "100", NULL, "Ambient temperature (degrees C)."},
    {"thermal.heat_capacity", CFG_FLOAT, NULL, "15", "0.01", "100000", NULL, "Heat capacity of the drive (J/K)."},
    {"thermal.resistance", CFG_FLOAT, NULL, "20", "0.01", "1000", NULL,
     "Thermal resistance to ambient (K/W): higher without airflow or heat sink."},
    {"thermal.throttle_at", CFG_FLOAT, NULL, "70", "-40", "200", NULL, "Temperature above which NAND operations are slowed (degrees C)."},
    {"thermal.resume_at", CFG_FLOAT, NULL, "65", "-40", "200", NULL, "Temperature below which throttling ends (degrees C)."},
    {"thermal.throttle_slowdown", CFG_FLOAT, NULL, "2", "1", "100", NULL, "While throttled, NAND operations take this many times longer."},
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL},
};

void power_init(power_model *m, const cfg *c, unsigned dies)
{
    memset(m, 0, sizeof *m);
    m->die_read_w = cfg_float(c, "power.die_read_mw") * 1e-3;
    m->die_program_w = cfg_float(c, "power.die_program_mw") * 1e-3;
    m->die_erase_w = cfg_float(c, "power.die_erase_mw") * 1e-3;
    m->bus_j_per_byte = cfg_float(c, "power.bus_pj_per_byte") * 1e-12;
    double ctl_idle = cfg_float(c, "power.controller_idle_w"), link_idle = cfg_float(c, "power.link_idle_w");
    m->controller_active_extra_w = cfg_float(c, "power.controller_active_w") - ctl_idle;
    m->link_active_extra_w = cfg_float(c, "power.link_active_w") - link_idle;
    if (m->controller_active_extra_w < 0) m->controller_active_extra_w = 0;
    if (m->link_active_extra_w < 0) m->link_active_extra_w = 0;
    m->floor_w = ctl_idle + link_idle + cfg_float(c, "power.dram_w") + dies * cfg_float(c, "power.die_idle_mw") * 1e-3;
    m->thermal = strcmp(cfg_str(c, "thermal.model"), "lumped") == 0;
    m->ambient_c = cfg_float(c, "thermal.ambient");
    m->capacity_j_per_k = cfg_float(c, "thermal.heat_capacity");
    m->resistance_k_per_w = cfg_float(c, "thermal.resistance");
    m->throttle_c = cfg_float(c, "thermal.throttle_at");
    m->resume_c = cfg_float(c, "thermal.resume_at");
    m->throttle_slowdown = cfg_float(c, "thermal.throttle_slowdown");
    /* A drive starts in equilibrium with its idle power. */
    m->temperature_c = m->ambient_c + m->floor_w * m->resistance_k_per_w;
    m->max_temperature_c = m->temperature_c;
}

double power_temperature(power_model *m, sim_time_t now)
{
    if (now <= m->updated_at) return m->temperature_c;
    double dt = (double)(now - m->updated_at) * 1e-9;
    /* dT/dt = (P - (T - Ta) / R) / C with P constant over dt: T relaxes
     * exponentially, time constant R C, towards Ta + P R. */
    double p = m->floor_w + m->pending_j / dt;
    double target = m->ambient_c + p * m->resistance_k_per_w;
    m->temperature_c = target + (m->temperature_c - target) * exp(-dt / (m->resistance_k_per_w * m->capacity_j_per_k));
    if (m->temperature_c > m->max_temperature_c) m->max_temperature_c = m->temperature_c;
    m->pending_j = 0;
    m->updated_at = now;
    return m->temperature_c;
}

bool power_throttled(power_model *m, sim_time_t now)
{
    if (!m->thermal) return false;
    double t = power_temperature(m, now);
    if (!m->throttling && t > m->throttle_c) {
        m->throttling = true;
        m->throttle_began = now;
    } else if (m->throttling && t < m->resume_c) {
        m->throttling = false;
        m->throttled_ns += now - m->throttle_began;
    }
    return m->throttling;
}

double power_energy(const power_model *m, sim_time_t now) { return m->energy_j + m->floor_w * (double)now * 1e-9; }
