#include "figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort.h>

/* The time series of one phase: the intervals that end inside it. */
typedef struct span {
    const ssd_interval *rows;
    size_t n;
    double interval_s;
} span;

static int find_phase(const figure_input *in, const char *phase, size_t *index)
{
    for (size_t i = 0; i < in->phase_count; i++)
        if (!strcmp(in->phases[i].name, phase)) {
            *index = i;
            return 0;
        }
    return -1;
}

static span phase_span(const figure_input *in, const phase_summary *p)
{
    span s = {NULL, 0, 0};
    double start = p->start_s, end = p->start_s + p->sim_time_s;
    for (size_t i = 0; i < in->series_count; i++) {
        double t = in->series[i].end_s;
        if (t > start + 1e-9 && t <= end + 1e-9) {
            if (!s.rows) s.rows = &in->series[i];
            s.n++;
        }
    }
    if (in->series_count > 1) s.interval_s = in->series[1].end_s - in->series[0].end_s;
    return s;
}

static double mean_write(const span *s, size_t from, size_t n)
{
    double sum = 0;
    for (size_t i = from; i < from + n; i++) sum += s->rows[i].write_mib_per_s;
    return n ? sum / (double)n : 0;
}

/* The cliff: the first interval from which the write speed over the next
 * 5 seconds averages below 60 % of the speed at the start (the median of
 * the first full second, at least 3 intervals). Pauses count: folding
 * makes the speed come in bursts. */
static long find_cliff(const span *s, double *start_speed)
{
    size_t window = 5 * (size_t)fmax(1, round(1.0 / s->interval_s)), head = window / 5 < 3 ? 3 : window / 5;
    if (s->n < window + head + 1) return -1;
    /* the first interval is usually partial (a phase starts between two
     * interval ends): the start speed is the median of the next ones */
    double first[64];
    size_t h = head < 64 ? head : 64;
    for (size_t i = 0; i < h; i++) first[i] = s->rows[1 + i].write_mib_per_s;
    gsl_sort(first, 1, h);
    *start_speed = gsl_stats_median_from_sorted_data(first, 1, h);
    for (size_t k = 1; k + window <= s->n; k++)
        if (s->rows[k].write_mib_per_s < 0.6 * *start_speed && mean_write(s, k, window) < 0.6 * *start_speed) return (long)k;
    return -1;
}

/* Host GiB written in the phase at full speed: up to the end of interval
 * k - 1, plus the part of interval k (where the speed falls) written
 * before the fall. Interval k is taken as a mix of the start speed and the
 * speed of the intervals after it; without that, the figure would move in
 * steps of one interval's data (1 GiB at 1 GB/s and 1 s intervals). */
static double written_before(const span *s, long k, double start_speed)
{
    double at_start = s->rows[0].host_gib_written - s->rows[0].write_mib_per_s * s->interval_s / 1024.0;
    size_t later = s->n - (size_t)k - 1, window = (size_t)fmax(1, round(5.0 / s->interval_s));
    double mixed = 0;
    if (later > 0) {
        double after = mean_write(s, (size_t)k + 1, later < window ? later : window), speed = s->rows[k].write_mib_per_s;
        double full = start_speed > after ? (speed - after) / (start_speed - after) : 0;
        mixed = fmin(1, fmax(0, full)) * start_speed * s->interval_s / 1024.0;
    }
    return s->rows[k - 1].host_gib_written - at_start + mixed;
}

/* The lowest 30-second moving average of the write speed. */
static double floor_speed(const span *s)
{
    size_t n = (size_t)fmax(1, round(30.0 / s->interval_s));
    if (s->n < n) n = s->n;
    double sum = 0, low = INFINITY;
    for (size_t i = 0; i < s->n; i++) {
        sum += s->rows[i].write_mib_per_s;
        if (i >= n) sum -= s->rows[i - n].write_mib_per_s;
        if (i + 1 >= n && sum / (double)n < low) low = sum / (double)n;
    }
    return low;
}

/* The phase's intervals less its first and last, which its bounds cut
 * short: a rate over a whole interval of the part the phase ran is too low
 * (the read test of P10 starts 0.02 s before an interval ends, and read
 * 8 MiB/s in it). */
static span whole_intervals(const span *s)
{
    if (s->n < 3) return (span){s->rows, 0, s->interval_s};
    return (span){s->rows + 1, s->n - 2, s->interval_s};
}

/* Seconds of the phase in which reads ran below a tenth of their median
 * speed (whole intervals). */
static double stall_seconds(const span *all)
{
    span whole = whole_intervals(all), *s = &whole;
    if (!s->n) return NAN;
    double *speeds = malloc(s->n * sizeof *speeds), t = 0;
    if (!speeds) return NAN;
    for (size_t i = 0; i < s->n; i++) speeds[i] = s->rows[i].read_mib_per_s;
    gsl_sort(speeds, 1, s->n);
    double median = gsl_stats_median_from_sorted_data(speeds, 1, s->n);
    free(speeds);
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].read_mib_per_s < 0.1 * median) t += s->interval_s;
    return t;
}

/* Seconds from the phase's start until the SLC cache is as empty as it gets. */
static double fold_seconds(const span *s, const phase_summary *p)
{
    double low = INFINITY, at = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].slc_gib < low - 1e-9) {
            low = s->rows[i].slc_gib;
            at = s->rows[i].end_s - p->start_s;
        }
    return at;
}

/* The lowest 1-second average of the read speed over its median (whole
 * intervals). */
static double read_dip(const span *all)
{
    span whole = whole_intervals(all), *s = &whole;
    size_t n = (size_t)fmax(1, round(1.0 / s->interval_s));
    double *avg = malloc(s->n * sizeof *avg), sum = 0, low = INFINITY;
    if (!avg || s->n < n) return free(avg), NAN;
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++) {
        sum += s->rows[i].read_mib_per_s;
        if (i >= n) sum -= s->rows[i - n].read_mib_per_s;
        if (i + 1 >= n) avg[m++] = sum / (double)n;
    }
    for (size_t i = 0; i < m; i++) low = fmin(low, avg[i]);
    gsl_sort(avg, 1, m);
    double median = gsl_stats_median_from_sorted_data(avg, 1, m);
    free(avg);
    return median > 0 ? low / median : NAN;
}

/* The lowest or highest IOPS of one whole interval (1 s in the review). */
static double extreme_iops(const span *all, bool highest)
{
    span s = whole_intervals(all);
    if (!s.n) return NAN;
    double v = s.rows[0].iops;
    for (size_t i = 1; i < s.n; i++) v = highest ? fmax(v, s.rows[i].iops) : fmin(v, s.rows[i].iops);
    return v;
}

static size_t pieces_of(const ssd_interval *r, int64_t interval_ns)
{
    int64_t length = llround((r->end_s - r->start_s) * 1e9);
    return interval_ns > 0 && length > interval_ns ? (size_t)((length + interval_ns - 1) / interval_ns) : 1;
}

ssd_interval *figure_uniform_series(const ssd_interval *rows, size_t n, double interval_s, size_t *out)
{
    int64_t interval_ns = llround(interval_s * 1e9);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += pieces_of(&rows[i], interval_ns);
    ssd_interval *u = malloc((total ? total : 1) * sizeof *u);
    if (!u) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t pieces = pieces_of(&rows[i], interval_ns);
        /* times in whole ns, as the drive computed them, so that the
         * pieces' ends are the ends the unmerged rows had */
        int64_t start = llround(rows[i].start_s * 1e9), end = llround(rows[i].end_s * 1e9);
        for (size_t j = 0; j < pieces; j++, k++) {
            u[k] = rows[i];
            if (pieces == 1) continue;
            int64_t piece_end = j + 1 == pieces ? end : start + (int64_t)(j + 1) * interval_ns;
            u[k].start_s = (double)(start + (int64_t)j * interval_ns) * 1e-9;
            u[k].end_s = (double)piece_end * 1e-9;
        }
    }
    *out = total;
    return u;
}

const char *const figure_names[] = {"mib_s",          "read_mib_s",        "write_mib_s",         "iops",
                                    "read_lat_us",    "full_speed_gib",    "cache_mib_s",         "after_cliff_mib_s",
                                    "after_cliff_60s_mib_s", "cliff_drop", "written_gib",         "floor_mib_s",
                                    "stall_s",        "max_read_latency_ms", "read_dip",          "fold_s",
                                    "min_iops",       "max_iops",          NULL};

int figure_compute(const figure_input *in, const char *name, const char *phase, double *value, char *err, size_t errlen)
{
    size_t i;
    if (find_phase(in, phase, &i)) return snprintf(err, errlen, "no phase named '%s' in the result", phase), -1;
    const phase_summary *p = &in->phases[i];
    span s = phase_span(in, p);
    double secs = p->sim_time_s > 0 ? p->sim_time_s : NAN;
    if (!strcmp(name, "mib_s")) return *value = p->mib_per_s, 0;
    if (!strcmp(name, "read_mib_s")) return *value = (double)p->bytes_read / secs / 1048576.0, 0;
    if (!strcmp(name, "write_mib_s")) return *value = (double)p->bytes_written / secs / 1048576.0, 0;
    if (!strcmp(name, "iops")) return *value = p->iops, 0;
    if (!strcmp(name, "read_lat_us")) return *value = p->read_lat_us[LAT_MEAN], 0;
    if (!strcmp(name, "written_gib")) return *value = (double)p->bytes_written / 1073741824.0, 0;
    if (!s.n) return snprintf(err, errlen, "phase '%s' has no time series", phase), -1;
    if (!strcmp(name, "floor_mib_s")) return *value = floor_speed(&s), 0;
    if (!strcmp(name, "stall_s")) return *value = stall_seconds(&s), 0;
    if (!strcmp(name, "fold_s")) return *value = fold_seconds(&s, p), 0;
    if (!strcmp(name, "read_dip")) return *value = read_dip(&s), 0;
    if (!strcmp(name, "min_iops")) return *value = extreme_iops(&s, false), 0;
    if (!strcmp(name, "max_iops")) return *value = extreme_iops(&s, true), 0;
    if (!strcmp(name, "max_read_latency_ms")) {
        double m = 0;
        for (size_t k = 0; k < s.n; k++) m = fmax(m, s.rows[k].read_mean_latency_us / 1000.0);
        return *value = m, 0;
    }
    double start = 0;
    long k = find_cliff(&s, &start);
    if (k < 0) return snprintf(err, errlen, "the write speed of phase '%s' never falls below 60 %% of its start", phase), -1;
    if (!strcmp(name, "full_speed_gib")) return *value = written_before(&s, k, start), 0;
    if (!strcmp(name, "cache_mib_s")) return *value = start, 0;
    double after = mean_write(&s, (size_t)k, s.n - (size_t)k);
    if (!strcmp(name, "after_cliff_mib_s")) return *value = after, 0;
    if (!strcmp(name, "after_cliff_60s_mib_s")) {
        size_t n = (size_t)fmax(1, round(60.0 / s.interval_s));
        return *value = mean_write(&s, (size_t)k, n < s.n - (size_t)k ? n : s.n - (size_t)k), 0;
    }
    if (!strcmp(name, "cliff_drop")) return *value = after > 0 ? start / after : INFINITY, 0;
    return snprintf(err, errlen, "no figure named '%s'", name), -1;
}
