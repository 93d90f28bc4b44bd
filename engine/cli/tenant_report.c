/* The workers of a group as tenants, side by side: one line each in the
 * log and a /tenants row in the result; with --alone, each one's slowdown
 * against its run alone and the group's fairness (MQSim's measures). */
#include "tenant_report.h"

#include <math.h>
#include <stdio.h>

/* A tenant's latencies of op, in us, as a /summary row holds them. */
static void tenant_latencies(const tenant_stats *t, ssdlab_op op, double out[LAT_FIELDS])
{
    static const double q[LAT_FIELDS] = {0, 0.5, 0.9, 0.99, 0.999, 0.9999, 1};
    const op_stats *s = &t->ops;
    out[LAT_MEAN] = s->completed[op] ? s->latency_sum[op] / (double)s->completed[op] / 1000.0 : NAN;
    for (int i = LAT_P50; i < LAT_FIELDS; i++) out[i] = op_stats_quantile(s, NULL, op, q[i]) / 1000.0;
}

static tenant_row make_row(const char *name, int32_t queue, const tenant_stats *t)
{
    tenant_row row = {.queue = queue, .reads = t->ops.completed[SSDLAB_READ],
                      .writes = t->ops.completed[SSDLAB_WRITE], .trims = t->ops.completed[SSDLAB_TRIM],
                      .bytes_read = t->ops.bytes[SSDLAB_READ], .bytes_written = t->ops.bytes[SSDLAB_WRITE],
                      .seconds = tenant_stats_seconds(t), .host_copies = t->copies};
    snprintf(row.tenant, sizeof row.tenant, "%s", name);
    uint64_t n = row.reads + row.writes + row.trims;
    row.iops = row.seconds > 0 ? (double)n / row.seconds : 0;
    row.mib_per_s = row.seconds > 0 ? (double)(row.bytes_read + row.bytes_written) / row.seconds / 1048576.0 : 0;
    tenant_latencies(t, SSDLAB_READ, row.read_lat_us);
    tenant_latencies(t, SSDLAB_WRITE, row.write_lat_us);
    return row;
}

static tenant_row row_of(const cfg *c, const tenant_stats *t, size_t k)
{
    char name[64];
    const char *given = cfg_str(c, "workload.name");
    if (given[0]) snprintf(name, sizeof name, "%s", given);
    else snprintf(name, sizeof name, "worker %zu", k + 1);
    return make_row(name, (int32_t)cfg_int(c, "workload.queue"), t);
}

/* Mean latency (us) of a tenant's reads and writes together: what MQSim's
 * slowdown compares. */
double tenant_mean_us(const tenant_stats *t)
{
    const op_stats *s = &t->ops;
    uint64_t n = s->completed[SSDLAB_READ] + s->completed[SSDLAB_WRITE];
    return n ? (s->latency_sum[SSDLAB_READ] + s->latency_sum[SSDLAB_WRITE]) / (double)n / 1000.0 : NAN;
}

/* Slowdowns against each tenant alone, and the group's fairness: the
 * lowest slowdown over the highest (Tavakkol et al., FAST 2018). */
static void set_fairness(tenant_row *rows, const double *shared_us, size_t group, const double *alone_us)
{
    double lo = INFINITY, hi = 0;
    for (size_t k = 0; k < group; k++) {
        rows[k].alone_mean_us = alone_us ? alone_us[k] : NAN;
        rows[k].slowdown = shared_us[k] / rows[k].alone_mean_us;
        lo = fmin(lo, rows[k].slowdown);
        hi = fmax(hi, rows[k].slowdown);
    }
    for (size_t k = 0; k < group; k++) rows[k].fairness = alone_us && hi > 0 ? lo / hi : NAN;
}

static void print_row(FILE *log, const tenant_row *row)
{
    char queue[24] = "queues spread";
    if (row->queue >= 0) snprintf(queue, sizeof queue, "queue %d", row->queue);
    fprintf(log, "  tenant %-12s %s: %llu requests in %.6f s, %.0f IOPS, %.1f MiB/s", row->tenant, queue,
            (unsigned long long)(row->reads + row->writes + row->trims), row->seconds, row->iops, row->mib_per_s);
    if (row->reads) fprintf(log, "; read mean %.1f us, p99 %.1f us", row->read_lat_us[LAT_MEAN], row->read_lat_us[LAT_P99]);
    if (row->writes) fprintf(log, "; write mean %.1f us, p99 %.1f us", row->write_lat_us[LAT_MEAN], row->write_lat_us[LAT_P99]);
    if (!isnan(row->slowdown)) fprintf(log, "; slowdown %.3f (alone %.1f us)", row->slowdown, row->alone_mean_us);
    fprintf(log, "\n");
}

/* A tenant's line, and its /tenants row with its histograms. */
static void emit_row(FILE *log, const tenant_row *row, const tenant_stats *t, results_writer *h5)
{
    print_row(log, row);
    if (h5) results_add_tenant(h5, row, t->ops.latency[SSDLAB_READ], t->ops.latency[SSDLAB_WRITE]);
}

void report_tenants(FILE *log, workload *const *w, cfg *const *phases, size_t group, const double *alone_us, results_writer *h5)
{
    tenant_row rows[64];
    double shared_us[64];
    if (group > 64) group = 64; /* run_workers takes at most 64 */
    for (size_t k = 0; k < group; k++) {
        rows[k] = row_of(phases[k], workload_tenant(w[k]), k);
        shared_us[k] = tenant_mean_us(workload_tenant(w[k]));
    }
    set_fairness(rows, shared_us, group, alone_us);
    for (size_t k = 0; k < group; k++) emit_row(log, &rows[k], workload_tenant(w[k]), h5);
    if (alone_us) fprintf(log, "  fairness %.3f (the lowest slowdown over the highest; each tenant alone: ssdlab run --alone)\n", rows[0].fairness);
}

void report_device_tenants(FILE *log, const tenant_stats *stats, const uint32_t *ids, uint32_t n, uint32_t queues,
                           results_writer *h5)
{
    for (uint32_t k = 0; k < n; k++) {
        char name[64];
        snprintf(name, sizeof name, "device %u", ids[k]);
        tenant_row row = make_row(name, (int32_t)(k % queues), &stats[k]);
        row.alone_mean_us = row.slowdown = row.fairness = NAN;
        emit_row(log, &row, &stats[k], h5);
    }
}
