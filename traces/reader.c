/* What every reader shares: where a record came from, the message of a
 * bad one, fields, numbers, times and sizes, the file read again. */
#include "reader.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool by_record(const trace_reader *t) { return t->mem || (t->kind && t->kind->next); }

const char *reader_where(trace_reader *t)
{
    if (by_record(t)) snprintf(t->where, sizeof t->where, "%s:record %llu", t->path, (unsigned long long)t->records);
    else snprintf(t->where, sizeof t->where, "%s:%llu", t->path, (unsigned long long)input_line_number(t->in));
    return t->where;
}

int reader_bad(trace_reader *t, const char *what, const char *expected)
{
    snprintf(t->err, sizeof t->err, "%s: %s; expected %s%s", reader_where(t), what, expected, t->guessed);
    return -1;
}

int split_fields(char *line, const char *seps, bool collapse, char **fields)
{
    int n = 0;
    char *p = line;
    while (n < MAX_FIELDS) {
        if (collapse)
            while (*p && strchr(seps, *p)) p++;
        if (!*p && (collapse || n > 0)) break;
        fields[n++] = p;
        if (seps[1]) p += strcspn(p, seps);
        else /* one separator: a plain scan, which strcspn's set-up per call outweighs on short fields */
            while (*p && *p != seps[0]) p++;
        if (!*p) break;
        *p++ = 0;
    }
    return n;
}

/* What strtoull in base 10 accepts, with spaces around, and no more:
 * digits only, up to 2^64 - 1. By hand because strtoull, made for every
 * base and locale, was a ninth of a CSV replay (perf). */
bool parse_u64(const char *s, uint64_t *out)
{
    while (isspace((unsigned char)*s)) s++;
    if (*s < '0' || *s > '9') return false;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
            return false; /* strtoull's ERANGE */
    }
    while (isspace((unsigned char)*s)) s++;
    if (*s) return false;
    *out = v;
    return true;
}

bool parse_real(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end)) end++;
    if (end == s || *end || !isfinite(v) || v < 0) return false;
    *out = v;
    return true;
}

int reader_set_time(trace_reader *t, double stamp, double ns_per_unit, trace_record *r)
{
    if (!t->have_base) {
        t->base = stamp;
        t->have_base = true;
    }
    if (stamp < t->base) return reader_bad(t, "the timestamp is earlier than the first record's", "records in time order");
    r->time = (sim_time_t)llround((stamp - t->base) * ns_per_unit);
    return 0;
}

int reader_set_ticks(trace_reader *t, uint64_t stamp, double ns_per_unit, trace_record *r)
{
    if (!t->have_base) {
        t->base = (double)stamp;
        t->base_ticks = stamp;
        t->have_base = true;
    }
    if (stamp < t->base_ticks) return reader_bad(t, "the timestamp is earlier than the first record's", "records in time order");
    r->time = (sim_time_t)llround((double)(stamp - t->base_ticks) * ns_per_unit);
    return 0;
}

int reader_sized(trace_reader *t, uint64_t bytes, trace_record *r)
{
    if (bytes == 0 || bytes > UINT32_MAX) return reader_bad(t, "the request size is 0 or above 4 GiB", "a size of 1 B to 4 GiB");
    r->bytes = (uint32_t)bytes;
    return 0;
}

uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

uint64_t get_be(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

int reader_rewind(trace_reader *t, char *err, size_t errlen)
{
    input_close(t->in);
    return (t->in = input_open(t->path, err, errlen)) ? 0 : -1;
}

