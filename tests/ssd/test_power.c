/* Energy and the lumped thermal model against their closed forms. */
#include <criterion/criterion.h>
#include <math.h>

#include "config.h"
#include "power.h"

static cfg *config(const char *set1, const char *set2)
{
    cfg *c = cfg_create(ssdlab_schema());
    if (set1) cfg_set_override(c, set1);
    if (set2) cfg_set_override(c, set2);
    cr_assert_eq(cfg_error_count(c), 0, "%s", cfg_errors(c));
    return c;
}

Test(power, energy_is_the_floor_over_time_plus_what_operations_deposit)
{
    cfg *c = config(NULL, NULL);
    power_model m;
    power_init(&m, c, 16);
    /* floor: controller idle 0.3 W + link idle 0.05 W + DRAM 0.2 W + 16 dies x 0.3 mW */
    double floor_w = 0.3 + 0.05 + 0.2 + 16 * 0.3e-3;
    cr_assert_float_eq(m.floor_w, floor_w, 1e-12);
    power_deposit(&m, 0.25);
    power_deposit(&m, 0.5);
    sim_time_t two_s = sim_time_from_sec(2);
    cr_assert_float_eq(power_energy(&m, two_s), 0.75 + 2 * floor_w, 1e-9);
    cfg_free(c);
}

Test(power, temperature_relaxes_exponentially_to_ambient_plus_power_times_resistance)
{
    cfg *c = config("thermal.model=lumped", NULL);
    power_model m;
    power_init(&m, c, 0);
    double ta = 25, r = 20, cap = 15, floor_w = m.floor_w;
    cr_assert_float_eq(power_temperature(&m, 0), ta + floor_w * r, 1e-9, "starts in equilibrium at idle");
    /* 3 W more for 10 s (deposited evenly: the model sees the mean power) */
    double extra = 3, t = 10;
    power_deposit(&m, extra * t);
    double target = ta + (floor_w + extra) * r, start = ta + floor_w * r;
    double want = target + (start - target) * exp(-t / (r * cap));
    cr_assert_float_eq(power_temperature(&m, sim_time_from_sec(t)), want, 1e-9);
    cr_assert_float_eq(m.max_temperature_c, want, 1e-9);
    cfg_free(c);
}

Test(power, throttling_starts_above_its_threshold_and_ends_below_resume)
{
    cfg *c = config("thermal.model=lumped", "thermal.throttle_at=40");
    cfg_set_override(c, "thermal.resume_at=37");
    power_model m;
    power_init(&m, c, 0);
    cr_assert_not(power_throttled(&m, 0));
    power_deposit(&m, 10.0 * 300); /* 10 W for 300 s: T -> 25 + 10.55 x 20, well above 40 */
    cr_assert(power_throttled(&m, sim_time_from_sec(300)));
    /* idle for 2700 s (9 time constants): back to about 25 + 0.55 x 20 = 36 C, below 37 */
    cr_assert_not(power_throttled(&m, sim_time_from_sec(3000)));
    cr_assert_gt(m.throttled_ns, 0);
    cfg_free(c);
}
