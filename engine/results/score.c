#include "score.h"

#include <math.h>
#include <string.h>

bool score_counts(const cfg *phase)
{
    const char *source = cfg_str(phase, "workload.source");
    return !strcmp(cfg_str(phase, "workload.phase"), "io") && (!strcmp(source, "trace") || !strcmp(source, "pcmark8"));
}

void score_add(trace_score *s, const phase_summary *row)
{
    uint64_t rw = row->reads + row->writes;
    s->phases++;
    s->bytes += row->bytes_read + row->bytes_written;
    s->busy_s += row->busy_s;
    if (rw) s->latency_sum_us += row->access_time_us * (double)rw;
    s->requests += rw;
}

void score_finish(trace_score *s)
{
    s->bandwidth_mib_s = s->busy_s > 0 ? (double)s->bytes / s->busy_s / 1048576.0 : NAN;
    s->access_time_us = s->requests ? s->latency_sum_us / (double)s->requests : NAN;
    s->score = s->requests && s->busy_s > 0 ? sqrt(s->bandwidth_mib_s * 1e6 / s->access_time_us) : NAN;
}
