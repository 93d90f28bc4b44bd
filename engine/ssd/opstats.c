#include "opstats.h"

#include <string.h>

gsl_histogram *latency_histogram(void)
{
    double ranges[LATENCY_BINS + 1];
    for (size_t i = 0; i <= LATENCY_BINS; i++) ranges[i] = latency_bin_start(i);
    gsl_histogram *h = gsl_histogram_alloc(LATENCY_BINS);
    if (h) gsl_histogram_set_ranges(h, ranges, LATENCY_BINS + 1);
    return h;
}

double histogram_quantile(gsl_histogram_pdf *pdf, const gsl_histogram *h, double q)
{
    if (gsl_histogram_sum(h) <= 0) return NAN;
    return gsl_histogram_pdf_init(pdf, h) ? NAN : gsl_histogram_pdf_sample(pdf, q);
}

int op_stats_init(op_stats *s)
{
    memset(s, 0, sizeof *s);
    for (int op = 0; op < SSDLAB_CLASSES; op++)
        if (!(s->latency[op] = latency_histogram())) return -1;
    return 0;
}

void op_stats_free(op_stats *s)
{
    for (int op = 0; op < SSDLAB_CLASSES; op++)
        if (s->latency[op]) gsl_histogram_free(s->latency[op]);
}

void op_stats_reset(op_stats *s)
{
    memset(s->completed, 0, sizeof s->completed);
    memset(s->bytes, 0, sizeof s->bytes);
    memset(s->latency_sum, 0, sizeof s->latency_sum);
    memset(s->latency_max, 0, sizeof s->latency_max);
    s->refused = 0;
    for (int op = 0; op < SSDLAB_CLASSES; op++) gsl_histogram_reset(s->latency[op]);
}

double op_stats_quantile(const op_stats *s, gsl_histogram_pdf *pdf, ssdlab_op op, double q)
{
    if (q >= 1 && s->completed[op]) return (double)s->latency_max[op];
    if (pdf) return histogram_quantile(pdf, s->latency[op], q);
    gsl_histogram_pdf *own = gsl_histogram_pdf_alloc(LATENCY_BINS);
    double v = own ? histogram_quantile(own, s->latency[op], q) : NAN;
    if (own) gsl_histogram_pdf_free(own);
    return v;
}
