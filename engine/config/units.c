#include "units.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct unit {
    const char *name;
    uint64_t scale; /* base units per one of this unit */
} unit;

/* Listed largest first within each family: unit_format picks the first that
 * divides the value exactly, and error messages list them in this order. */
static const unit size_units[] = {
    {"PiB", UINT64_C(1) << 50}, {"TiB", UINT64_C(1) << 40}, {"GiB", UINT64_C(1) << 30},
    {"MiB", UINT64_C(1) << 20}, {"KiB", UINT64_C(1) << 10}, {"PB", UINT64_C(1000000000000000)},
    {"TB", UINT64_C(1000000000000)}, {"GB", UINT64_C(1000000000)}, {"MB", UINT64_C(1000000)},
    {"kB", 1000}, {"KB", 1000}, {"B", 1}, {NULL, 0}};
static const unit time_units[] = {
    {"y", UINT64_C(31536000000000000)}, {"d", UINT64_C(86400000000000)}, {"h", UINT64_C(3600000000000)}, {"min", UINT64_C(60000000000)}, {"s", UINT64_C(1000000000)},
    {"ms", UINT64_C(1000000)}, {"us", 1000}, {"\xc2\xb5s", 1000}, {"ns", 1}, {NULL, 0}};
static const unit frequency_units[] = {
    {"GHz", UINT64_C(1000000000)}, {"MHz", 1000000}, {"kHz", 1000}, {"Hz", 1}, {NULL, 0}};
static const unit transfer_units[] = {
    {"GT/s", UINT64_C(1000000000)}, {"MT/s", 1000000}, {"kT/s", 1000}, {"T/s", 1}, {NULL, 0}};
static const unit bit_rate_units[] = {
    {"Tb/s", UINT64_C(1000000000000)}, {"Gb/s", UINT64_C(1000000000)}, {"Mb/s", 1000000},
    {"kb/s", 1000}, {"b/s", 1}, {"Tbps", UINT64_C(1000000000000)}, {"Gbps", UINT64_C(1000000000)},
    {"Mbps", 1000000}, {"kbps", 1000}, {"bps", 1}, {NULL, 0}};
static const unit byte_rate_units[] = {
    {"GiB/s", UINT64_C(1) << 30}, {"MiB/s", UINT64_C(1) << 20}, {"KiB/s", UINT64_C(1) << 10},
    {"TB/s", UINT64_C(1000000000000)}, {"GB/s", UINT64_C(1000000000)}, {"MB/s", 1000000},
    {"kB/s", 1000}, {"KB/s", 1000}, {"B/s", 1}, {NULL, 0}};

static const struct {
    const char *noun;
    const char *base; /* the base unit, spelled out for messages */
    const char *example;
    const unit *units;
    const char *list;
} dims[DIM_COUNT] = {
    [DIM_SIZE] = {"a size", "bytes", "16KiB", size_units, "B, KiB, MiB, GiB, TiB, PiB, kB, MB, GB, TB, PB"},
    [DIM_TIME] = {"a time", "nanoseconds", "50us", time_units, "ns, us, ms, s, min, h"},
    [DIM_FREQUENCY] = {"a frequency", "hertz", "200MHz", frequency_units, "Hz, kHz, MHz, GHz"},
    [DIM_TRANSFER_RATE] = {"a transfer rate", "transfers per second", "533MT/s", transfer_units, "T/s, kT/s, MT/s, GT/s"},
    [DIM_BIT_RATE] = {"a bit rate", "bits per second", "6Gb/s", bit_rate_units, "b/s, kb/s, Mb/s, Gb/s, Tb/s (or bps, Gbps, ...)"},
    [DIM_BYTE_RATE] = {"a byte rate", "bytes per second", "550MB/s", byte_rate_units, "B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s"},
};

const char *unit_dim_noun(unit_dim d) { return dims[d].noun; }
const char *unit_dim_units(unit_dim d) { return dims[d].list; }

static const unit *find_unit(unit_dim d, const char *name)
{
    for (const unit *u = dims[d].units; u->name; u++)
        if (strcmp(u->name, name) == 0) return u;
    return NULL;
}

int unit_known(unit_dim d, const char *name) { return find_unit(d, name) != NULL; }

size_t decimal_scan(const char *text, decimal *d)
{
    const char *p = text;
    memset(d, 0, sizeof *d);
    if (*p == '+' || *p == '-') d->negative = (*p++ == '-');
    int digits = 0, frac_digits = 0, seen_point = 0;
    int dropped = 0; /* integer digits that did not fit: they scale by 10 */
    for (;; p++) {
        if (*p == '_' && digits) continue;
        if (*p == '.' && !seen_point) {
            seen_point = 1;
            continue;
        }
        if (!isdigit((unsigned char)*p)) break;
        digits++;
        unsigned v = (unsigned)(*p - '0');
        if (d->mantissa > (UINT64_MAX - v) / 10) {
            if (!seen_point) {
                dropped++;
                d->too_large = 1; /* the integer part alone exceeds 64 bits */
            } else if (v != 0) {
                d->too_long = 1; /* fraction digits beyond 64-bit precision */
            }
            continue;
        }
        d->mantissa = d->mantissa * 10 + v;
        if (seen_point) frac_digits++;
    }
    if (!digits) return 0;
    if (p[-1] == '_') return 0;
    d->exp10 = dropped - frac_digits;
    if ((*p == 'e' || *p == 'E') &&
        (isdigit((unsigned char)p[1]) || ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
        const char *q = p + 1;
        int sign = 1;
        if (*q == '+' || *q == '-') sign = (*q++ == '-') ? -1 : 1;
        int e = 0;
        for (; isdigit((unsigned char)*q); q++)
            if (e < 10000) e = e * 10 + (*q - '0');
        d->exp10 += sign * e;
        p = q;
    }
    while (d->mantissa && d->mantissa % 10 == 0) {
        d->mantissa /= 10;
        d->exp10++;
    }
    if (!d->mantissa) d->exp10 = 0;
    return (size_t)(p - text);
}

int decimal_to_u64(const decimal *d, uint64_t scale, uint64_t *out)
{
    if (d->mantissa == 0) {
        *out = 0;
        return 0;
    }
    if (d->negative) return -1;
    if (d->too_large) return -3;
    if (d->too_long) return -2;
    uint64_t v = d->mantissa;
    if (__builtin_mul_overflow(v, scale, &v)) {
        /* mantissa * scale overflows, but a negative exponent may bring it
         * back in range: divide first when that is exact. */
        uint64_t m = d->mantissa;
        int e = d->exp10;
        uint64_t s = scale;
        while (e < 0 && s % 10 == 0) {
            s /= 10;
            e++;
        }
        if (e < 0 || __builtin_mul_overflow(m, s, &v)) return e < 0 ? -2 : -3;
        for (; e > 0; e--)
            if (__builtin_mul_overflow(v, 10, &v)) return -3;
        *out = v;
        return 0;
    }
    for (int e = d->exp10; e > 0; e--)
        if (__builtin_mul_overflow(v, 10, &v)) return -3;
    for (int e = d->exp10; e < 0; e++) {
        if (v % 10) return -2;
        v /= 10;
    }
    *out = v;
    return 0;
}

/* The dimension that owns a unit name, if any: to say "'2ms' is a time". */
static int dim_of_unit(const char *name)
{
    for (int d = 0; d < DIM_COUNT; d++)
        if (find_unit((unit_dim)d, name)) return d;
    return -1;
}

int unit_parse(unit_dim d, const char *text, const char *default_unit, uint64_t *out,
               char *err, size_t errlen, char *expected, size_t explen)
{
    snprintf(expected, explen, "%s such as %s (units: %s; a bare number is in %s)", dims[d].noun,
             dims[d].example, dims[d].list, default_unit);
    decimal num;
    size_t used = decimal_scan(text, &num);
    if (!used) {
        const unit *alone = find_unit(d, text);
        if (alone) { /* a unit alone is one of it: "ns", as a trace's time unit is named */
            *out = alone->scale;
            return 0;
        }
        snprintf(err, errlen, "'%s' is not a number with a unit", text);
        return -1;
    }
    const char *u = text + used;
    while (*u == ' ') u++;
    const char *unit_name = *u ? u : default_unit;
    const unit *found = find_unit(d, unit_name);
    if (!found) {
        int other = dim_of_unit(unit_name);
        if (other >= 0)
            snprintf(err, errlen, "'%s' is %s, not %s", text, dims[other].noun, dims[d].noun);
        else
            snprintf(err, errlen, "unknown unit '%s' in '%s'", unit_name, text);
        return -1;
    }
    switch (decimal_to_u64(&num, found->scale, out)) {
    case 0: return 0;
    case -1: snprintf(err, errlen, "'%s' is negative", text); return -1;
    case -2:
        snprintf(err, errlen, "'%s' is not a whole number of %s", text, dims[d].base);
        return -1;
    default: snprintf(err, errlen, "'%s' is too large", text); return -1;
    }
}

void unit_format(unit_dim d, uint64_t v, char *buf, size_t len)
{
    /* The exact unit with the smallest number wins: 240GB rather than
     * 234375000KiB; on a tie the earlier (binary) unit. */
    const unit *best = NULL;
    for (const unit *u = dims[d].units; u->name; u++) {
        if (u->name[0] == '\xc2' || (u->name[0] == 'K' && u->name[1] == 'B') || strstr(u->name, "bps")) continue;
        if (v % u->scale) continue;
        if (!best || v / u->scale < v / best->scale || (v == 0 && u->scale == 1)) best = u;
    }
    snprintf(buf, len, "%llu%s", (unsigned long long)(v / best->scale), best->name);
}
