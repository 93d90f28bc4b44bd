/* Quantities with units: every unit, exactness, and every kind of error. */
#include <criterion/criterion.h>
#include <string.h>

#include "units.h"

static uint64_t parse_ok(unit_dim d, const char *text, const char *def)
{
    uint64_t v;
    char err[256], exp[512];
    int rc = unit_parse(d, text, def, &v, err, sizeof err, exp, sizeof exp);
    cr_assert_eq(rc, 0, "'%s' should parse: %s", text, err);
    return v;
}

static void parse_fails(unit_dim d, const char *text, const char *want_in_error)
{
    uint64_t v;
    char err[256], exp[512];
    int rc = unit_parse(d, text, "B", &v, err, sizeof err, exp, sizeof exp);
    cr_assert_eq(rc, -1, "'%s' should be refused", text);
    cr_assert(strstr(err, want_in_error), "error for '%s' was '%s', wanted '%s'", text, err, want_in_error);
    cr_assert_gt(strlen(exp), 10, "an error must say what was expected");
}

Test(units, sizes)
{
    struct { const char *t; uint64_t v; } cases[] = {
        {"1B", 1}, {"16KiB", 16384}, {"1MiB", 1048576}, {"1GiB", UINT64_C(1) << 30}, {"2TiB", UINT64_C(2) << 40},
        {"1PiB", UINT64_C(1) << 50}, {"1kB", 1000}, {"1KB", 1000}, {"3MB", 3000000}, {"240GB", UINT64_C(240000000000)},
        {"1TB", UINT64_C(1000000000000)}, {"1PB", UINT64_C(1000000000000000)}, {"1.5KiB", 1536}, {"16 KiB", 16384},
        {"0.5MiB", 524288}, {"1e3B", 1000}, {"1_024B", 1024}, {"0", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_assert_eq(parse_ok(DIM_SIZE, cases[i].t, "B"), cases[i].v, "%s", cases[i].t);
    cr_assert_eq(parse_ok(DIM_SIZE, "16", "KiB"), 16384, "a bare number is in the default unit");
}

Test(units, times)
{
    struct { const char *t; uint64_t v; } cases[] = {
        {"7ns", 7}, {"50us", 50000}, {"50\xc2\xb5s", 50000}, {"2ms", 2000000}, {"1.5us", 1500}, {"3s", UINT64_C(3000000000)},
        {"2min", UINT64_C(120000000000)}, {"1h", UINT64_C(3600000000000)}, {"0.25ms", 250000}, {"1e-3s", 1000000}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_assert_eq(parse_ok(DIM_TIME, cases[i].t, "ns"), cases[i].v, "%s", cases[i].t);
    cr_assert_eq(parse_ok(DIM_TIME, "60", "us"), 60000);
    /* a unit alone is one of it, as a trace's time unit is named: ns is 1ns */
    cr_assert_eq(parse_ok(DIM_TIME, "ns", "ms"), 1);
    cr_assert_eq(parse_ok(DIM_TIME, "us", "ms"), 1000);
    cr_assert_eq(parse_ok(DIM_SIZE, "KiB", "B"), 1024);
    parse_fails(DIM_TIME, "KiB", "not a number");
}

Test(units, rates_and_frequencies)
{
    cr_assert_eq(parse_ok(DIM_TRANSFER_RATE, "533MT/s", "MT/s"), 533000000);
    cr_assert_eq(parse_ok(DIM_TRANSFER_RATE, "1.2GT/s", "MT/s"), 1200000000);
    cr_assert_eq(parse_ok(DIM_TRANSFER_RATE, "400", "MT/s"), 400000000);
    cr_assert_eq(parse_ok(DIM_BIT_RATE, "6Gb/s", "Gb/s"), 6000000000);
    cr_assert_eq(parse_ok(DIM_BIT_RATE, "8Gbps", "Gb/s"), 8000000000);
    cr_assert_eq(parse_ok(DIM_BIT_RATE, "100kb/s", "Gb/s"), 100000);
    cr_assert_eq(parse_ok(DIM_BYTE_RATE, "550MB/s", "MB/s"), 550000000);
    cr_assert_eq(parse_ok(DIM_BYTE_RATE, "1GiB/s", "MB/s"), UINT64_C(1) << 30);
    cr_assert_eq(parse_ok(DIM_FREQUENCY, "200MHz", "MHz"), 200000000);
    cr_assert_eq(parse_ok(DIM_FREQUENCY, "1.5GHz", "MHz"), 1500000000);
    cr_assert_eq(parse_ok(DIM_FREQUENCY, "32kHz", "MHz"), 32000);
}

Test(units, errors_say_what_is_wrong)
{
    parse_fails(DIM_SIZE, "16Kb", "unknown unit 'Kb'");
    parse_fails(DIM_SIZE, "2ms", "is a time, not a size");
    parse_fails(DIM_TIME, "4KiB", "is a size, not a time");
    parse_fails(DIM_BIT_RATE, "6GB/s", "is a byte rate, not a bit rate");
    parse_fails(DIM_SIZE, "0.3B", "not a whole number of bytes");
    parse_fails(DIM_TIME, "0.3ns", "not a whole number of nanoseconds");
    parse_fails(DIM_SIZE, "-1KiB", "negative");
    parse_fails(DIM_SIZE, "20000PiB", "too large");
    parse_fails(DIM_SIZE, "99999999999999999999999B", "too large");
    parse_fails(DIM_SIZE, "abc", "not a number");
    parse_fails(DIM_SIZE, "", "not a number");
}

Test(units, format_uses_the_shortest_exact_unit_and_round_trips)
{
    char buf[64];
    struct { unit_dim d; uint64_t v; const char *want; } cases[] = {
        {DIM_SIZE, 16384, "16KiB"}, {DIM_SIZE, UINT64_C(240000000000), "240GB"}, {DIM_SIZE, 1000, "1kB"},
        {DIM_SIZE, 17, "17B"}, {DIM_SIZE, 0, "0B"}, {DIM_TIME, 2000000, "2ms"}, {DIM_TIME, 1500, "1500ns"},
        {DIM_TIME, UINT64_C(5400000000000), "90min"}, {DIM_TIME, 0, "0ns"}, {DIM_TRANSFER_RATE, 533000000, "533MT/s"},
        {DIM_BIT_RATE, 6000000000, "6Gb/s"}, {DIM_BYTE_RATE, 550000000, "550MB/s"}, {DIM_FREQUENCY, 200000000, "200MHz"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unit_format(cases[i].d, cases[i].v, buf, sizeof buf);
        cr_assert_str_eq(buf, cases[i].want);
        cr_assert_eq(parse_ok(cases[i].d, buf, "B" /* unused: buf has a unit */), cases[i].v);
    }
}

Test(units, decimal_scan_is_exact)
{
    decimal d;
    cr_assert_eq(decimal_scan("12.500e2", &d), 8);
    cr_assert_eq(d.mantissa, 125);
    cr_assert_eq(d.exp10, 1);
    uint64_t v;
    cr_assert_eq(decimal_to_u64(&d, 1, &v), 0);
    cr_assert_eq(v, 1250);
    decimal_scan("18446744073709551615", &d);
    cr_assert_eq(decimal_to_u64(&d, 1, &v), 0);
    cr_assert_eq(v, UINT64_MAX);
    decimal_scan("18446744073709551616", &d);
    cr_assert_eq(decimal_to_u64(&d, 1, &v), -3);
    decimal_scan("0.000001", &d);
    cr_assert_eq(decimal_to_u64(&d, 1000000000, &v), 0);
    cr_assert_eq(v, 1000);
}
