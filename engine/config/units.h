/* Quantities with units, as written in configuration files and on the
 * command line: "16KiB", "2ms", "50 us", "533MT/s", "6Gb/s", "13%".
 *
 * Each quantity has a dimension and a base unit; values are held as exact
 * unsigned integers of the base unit (bytes, nanoseconds, hertz, transfers,
 * bits or bytes per second), so "1.5us" is exactly 1500 ns and "0.3ns" is an
 * error rather than a silent rounding. Fractions are doubles. */
#ifndef SSDLAB_UNITS_H
#define SSDLAB_UNITS_H

#include <stddef.h>
#include <stdint.h>

typedef enum unit_dim {
    DIM_SIZE,          /* bytes */
    DIM_TIME,          /* nanoseconds */
    DIM_FREQUENCY,     /* hertz */
    DIM_TRANSFER_RATE, /* transfers per second (bus rates: MT/s) */
    DIM_BIT_RATE,      /* bits per second (links: Gb/s) */
    DIM_BYTE_RATE,     /* bytes per second (throughput: MB/s) */
    DIM_COUNT
} unit_dim;

/* "a size", "a time", ... for messages. */
const char *unit_dim_noun(unit_dim d);
/* The accepted unit names of a dimension, e.g. "B, KiB, MiB, ...". */
const char *unit_dim_units(unit_dim d);
/* True when unit is a unit name of dimension d. */
int unit_known(unit_dim d, const char *unit);

/* Parses text as a quantity of dimension d. A bare number is taken in
 * default_unit (which must be a unit of d); a unit alone is one of it
 * ("ms" is 1 ms). On failure returns -1 and writes
 * what is wrong and what was expected to err ("unknown unit 'Kb'" /
 * "a size such as 16KiB"). */
int unit_parse(unit_dim d, const char *text, const char *default_unit, uint64_t *out,
               char *err, size_t errlen, char *expected, size_t explen);

/* Writes v in the largest unit of d that represents it exactly. */
void unit_format(unit_dim d, uint64_t v, char *buf, size_t len);

/* Exact decimal numbers: [+-]digits[.digits][e[+-]digits], with optional
 * '_' digit separators. Returns the number of characters consumed (0 if no
 * number starts at text). */
typedef struct decimal {
    int negative;
    uint64_t mantissa; /* significant digits, trailing zeros stripped */
    int exp10;         /* value = mantissa * 10^exp10 */
    int too_long;      /* fraction digits beyond 64-bit precision */
    int too_large;     /* integer part beyond 64 bits */
} decimal;

size_t decimal_scan(const char *text, decimal *d);
/* d * scale as an exact unsigned integer: 0 on success, -1 if negative,
 * -2 if not a whole number, -3 on overflow. */
int decimal_to_u64(const decimal *d, uint64_t scale, uint64_t *out);

#endif
