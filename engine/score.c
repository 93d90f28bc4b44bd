#include "score.h"

#include <math.h>

void score_add(trace_score *s, const phase_summary *row)
{
    uint64_t rw = row->reads + row->writes;
    s->phases++;
    s->bytes += row->bytes_read + row->bytes_written;
    s->busy_s += row->busy_s;
    /* the access-time mean over all requests: weight each phase's by its count */
    if (rw) s->access_time_us = (s->access_time_us * (double)s->requests + row->access_time_us * (double)rw) / (double)(s->requests + rw);
    s->requests += rw;
}

void score_finish(trace_score *s)
{
    s->bandwidth_mib_s = s->busy_s > 0 ? (double)s->bytes / s->busy_s / 1048576.0 : NAN;
    s->score = s->requests && s->busy_s > 0 ? sqrt(s->bandwidth_mib_s * 1e6 / s->access_time_us) : NAN;
    if (!s->requests) s->access_time_us = NAN;
}
