/* The buffer layer's read cache on its own (a set holds READCACHE_WAYS
 * units, the least recently used leaves first, and a trimmed or rewritten
 * unit is forgotten), and the mapping units a request covers. */
#include <criterion/criterion.h>

#include "readcache.h"
#include "request_units.h"

Test(readcache, one_set_keeps_the_most_recently_used_ways)
{
    readcache c;
    cr_assert_eq(readcache_init(&c, READCACHE_WAYS), 0); /* one set: every unit maps to it */
    cr_assert_eq(c.sets, 1);
    for (uint32_t u = 0; u < READCACHE_WAYS; u++) readcache_insert(&c, u);
    for (uint32_t u = 0; u < READCACHE_WAYS; u++) cr_assert(readcache_lookup(&c, u), "unit %u cached", u);
    /* Unit 0 is now the least recently used but for the lookups in order:
     * touch it, and unit 1 becomes the oldest. */
    cr_assert(readcache_lookup(&c, 0));
    readcache_insert(&c, 100);
    cr_assert_not(readcache_lookup(&c, 1), "the least recently used unit left");
    cr_assert(readcache_lookup(&c, 0), "a used unit stays");
    cr_assert(readcache_lookup(&c, 100));
    readcache_invalidate(&c, 100);
    cr_assert_not(readcache_lookup(&c, 100), "an invalidated unit is gone");
    readcache_free(&c);
}

Test(readcache, hit_rate_of_a_uniform_region_four_times_the_cache)
{
    enum { UNITS = 4096 };
    readcache c;
    cr_assert_eq(readcache_init(&c, UNITS), 0);
    uint64_t hits = 0, n = 400000, x = 88172645463325252ull;
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
        uint32_t u = (uint32_t)(x % (4 * UNITS));
        if (readcache_lookup(&c, u)) hits++;
        else readcache_insert(&c, u);
    }
    /* LRU over uniform access holds a quarter of the region: hit rate 1/4
     * (sets differ in load, so allow a little). */
    double rate = (double)hits / (double)n;
    cr_assert(rate > 0.23 && rate < 0.26, "hit rate %.4f, expected about 0.25", rate);
    readcache_free(&c);
}

Test(readcache, no_cache_caches_nothing)
{
    readcache c;
    cr_assert_eq(readcache_init(&c, READCACHE_WAYS - 1), 0);
    cr_assert_eq(c.sets, 0);
    readcache_insert(&c, 5);
    cr_assert_not(readcache_lookup(&c, 5));
    readcache_free(&c);
}

/* The units a request covers: by shifts when the mapping unit is a power
 * of two, by division otherwise; both give the first unit offset / unit
 * and the count up to the unit holding its last byte. */
Test(request_units, shift_and_division_agree_with_the_closed_form)
{
    const uint32_t units[] = {512, 4096, 16384, 12288};
    const uint64_t offsets[] = {0, 1, 4095, 4096, 12287, 12288, 1000000007ull, 0xffffffffull * 512};
    const uint32_t sizes[] = {1, 511, 512, 4096, 4097, 131072, 131073};
    for (size_t u = 0; u < 4; u++) {
        ssd_params p = {.unit = units[u], .unit_shift = params_unit_shift(units[u])};
        cr_assert_eq(p.unit_shift != 0, units[u] != 12288, "unit %u: shifts only for a power of two", units[u]);
        for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++)
            for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
                ssdlab_request r = {.offset = offsets[i] / units[u] < UINT32_MAX ? offsets[i] : 0, .bytes = sizes[k]};
                uint64_t first = r.offset / units[u], last = (r.offset + r.bytes - 1) / units[u];
                cr_assert_eq(req_first_unit(&p, &r), first, "unit %u offset %llu", units[u], (unsigned long long)r.offset);
                cr_assert_eq(req_units(&p, &r), last - first + 1, "unit %u offset %llu bytes %u", units[u],
                             (unsigned long long)r.offset, sizes[k]);
            }
    }
}
