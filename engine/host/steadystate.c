#include "steadystate.h"

#include <math.h>

#include <gsl/gsl_fit.h>

bool steady_by_snia(const double *y, uint32_t n)
{
    if (n < STEADY_WINDOW) return false;
    y += n - STEADY_WINDOW;
    double x[STEADY_WINDOW], lo = y[0], hi = y[0], mean = 0;
    for (int i = 0; i < STEADY_WINDOW; i++) {
        x[i] = i;
        lo = fmin(lo, y[i]), hi = fmax(hi, y[i]), mean += y[i] / STEADY_WINDOW;
    }
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, STEADY_WINDOW, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    return hi - lo <= 0.2 * mean && fabs(c1) * (STEADY_WINDOW - 1) <= 0.1 * mean;
}

void steady_init(steady_rounds *sr, uint64_t round_bytes, uint32_t max_rounds)
{
    *sr = (steady_rounds){.round_bytes = round_bytes, .max_rounds = max_rounds};
}

bool steady_round_done(steady_rounds *sr, double wa)
{
    uint32_t kept = sr->rounds < STEADY_WINDOW ? sr->rounds : STEADY_WINDOW;
    if (kept == STEADY_WINDOW)
        for (int i = 1; i < STEADY_WINDOW; i++) sr->wa[i - 1] = sr->wa[i];
    sr->wa[kept == STEADY_WINDOW ? STEADY_WINDOW - 1 : kept] = wa;
    sr->rounds++;
    sr->written = 0;
    sr->steady = steady_by_snia(sr->wa, kept == STEADY_WINDOW ? STEADY_WINDOW : kept + 1);
    return sr->steady || sr->rounds >= sr->max_rounds;
}
