/* End to end through the engine: an M/M/1 queue against its closed form.
 * Wq = rho E[S] / (1 - rho) and server utilisation = rho (Kleinrock 1975,
 * Queueing Systems vol. 1, sec. 3.2). */
#include <criterion/criterion.h>
#include <math.h>

#include "mm1.h"
#include "sim_config.h"

static mm1_result run(const char *const *sets, int nsets)
{
    cfg *c = cfg_create(ssdlab_schema());
    for (int i = 0; i < nsets; i++) cr_assert_eq(cfg_set_override(c, sets[i]), 0, "%s", cfg_errors(c));
    sim_options o = sim_options_from_config(c);
    sim *s = sim_create(&o);
    mm1 *m = mm1_create(s, c);
    mm1_result r;
    mm1_run(m, 0, &r);
    mm1_free(m);
    sim_free(s);
    cfg_free(c);
    return r;
}

Test(mm1, mean_wait_matches_the_closed_form_within_2_percent)
{
    mm1_result r = run(NULL, 0); /* defaults: rho = 0.7, 2e6 customers, seed 1 */
    cr_assert_float_eq(r.rho, 0.7, 1e-12);
    cr_assert_float_eq(r.wait_theory_s, 0.7 * 7e-6 / 0.3, 1e-15);
    cr_assert_lt(fabs(r.wait_mean_s / r.wait_theory_s - 1), 0.02, "simulated %g s, closed form %g s", r.wait_mean_s,
                 r.wait_theory_s);
    cr_assert_lt(fabs(r.utilisation / r.rho - 1), 0.01, "utilisation %g", r.utilisation);
    cr_assert_eq(r.customers, 2000000);
    /* two events per customer, warm-up included */
    cr_assert_eq(r.events, 2 * (2000000 + 20000));
}

Test(mm1, light_load_matches_too)
{
    const char *sets[] = {"mm1.mean_service=3us", "mm1.customers=1000000", "sim.seed=11"};
    mm1_result r = run(sets, 3);
    cr_assert_float_eq(r.rho, 0.3, 1e-12);
    cr_assert_lt(fabs(r.wait_mean_s / r.wait_theory_s - 1), 0.02, "simulated %g s, closed form %g s", r.wait_mean_s,
                 r.wait_theory_s);
}

Test(mm1, same_seed_is_bit_identical_and_another_seed_differs)
{
    const char *a[] = {"mm1.customers=100000", "sim.seed=5"};
    const char *b[] = {"mm1.customers=100000", "sim.seed=6"};
    mm1_result r1 = run(a, 2), r2 = run(a, 2), r3 = run(b, 2);
    cr_assert_eq(memcmp(&r1.wait_mean_s, &r2.wait_mean_s, sizeof(double)), 0);
    cr_assert_eq(r1.sim_time_s, r2.sim_time_s);
    cr_assert_eq(r1.events, r2.events);
    cr_assert_neq(r1.wait_mean_s, r3.wait_mean_s);
}
