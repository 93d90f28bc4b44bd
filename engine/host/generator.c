#include "generator.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* Zipf sampling by rejection-inversion (Hörmann and Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * ACM TOMACS 6(3), 1996): O(1) per draw and no table, so it works for a
 * region of billions of blocks. GSL has no Zipf generator. */
static double zipf_h(double x, double q) { return q == 1 ? log(x) : (pow(x, 1 - q) - 1) / (1 - q); }
static double zipf_h_inv(double x, double q) { return q == 1 ? exp(x) : pow(1 + x * (1 - q), 1 / (1 - q)); }

static void zipf_setup(generator *g)
{
    double q = g->zipf_theta, n = (double)g->slots;
    g->zipf_hx0 = zipf_h(1.5, q) - 1; /* H(1.5) - 1^-q */
    g->zipf_hn = zipf_h(n + 0.5, q);
    g->zipf_s = 2 - zipf_h_inv(zipf_h(2.5, q) - pow(2, -q), q);
}

uint64_t zipf_draw(generator *g, gsl_rng *r)
{
    double q = g->zipf_theta;
    for (;;) {
        double u = g->zipf_hn + gsl_rng_uniform(r) * (g->zipf_hx0 - g->zipf_hn);
        double x = zipf_h_inv(u, q);
        double k = floor(x + 0.5);
        if (k < 1) k = 1;
        if (k > (double)g->slots) k = (double)g->slots;
        if (k - x <= g->zipf_s || u >= zipf_h(k + 0.5, q) - pow(k, -q)) return (uint64_t)k;
    }
}

static int parse_sizes(generator *g, const char *spec, char *err, size_t errlen)
{
    double weights[GEN_MAX_SIZES];
    char copy[512];
    snprintf(copy, sizeof copy, "%s", spec);
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (g->size_count == GEN_MAX_SIZES)
            return snprintf(err, errlen, "key 'workload.block_sizes': more than %d sizes", GEN_MAX_SIZES), -1;
        char *colon = strchr(item, ':');
        double weight = 1;
        if (colon) {
            *colon = 0;
            char *end;
            weight = strtod(colon + 1, &end);
            if (end == colon + 1 || *end || !(weight > 0))
                return snprintf(err, errlen, "key 'workload.block_sizes': weight '%s' is not a positive number; expected SIZE:WEIGHT,...", colon + 1), -1;
        }
        uint64_t size;
        char what[200], expected[300];
        if (unit_parse(DIM_SIZE, item, "B", &size, what, sizeof what, expected, sizeof expected) || size == 0 || size > (64u << 20))
            return snprintf(err, errlen, "key 'workload.block_sizes': '%s' is not a size of 1 B to 64 MiB; expected SIZE:WEIGHT,... such as 4KiB:55,64KiB:45", item), -1;
        g->sizes[g->size_count] = (uint32_t)size;
        weights[g->size_count++] = weight;
    }
    if (!g->size_count) return snprintf(err, errlen, "key 'workload.block_sizes' names no size"), -1;
    g->size_pick = gsl_ran_discrete_preproc((size_t)g->size_count, weights);
    return g->size_pick ? 0 : (snprintf(err, errlen, "out of memory"), -1);
}

int generator_init(generator *g, gen_pattern pattern, double read_share, uint64_t region_start, uint64_t region_bytes,
                   const char *sizes, uint64_t align, double zipf_theta, double hot_fraction, double hot_share, char *err,
                   size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->pattern = pattern;
    g->read_share = read_share;
    g->region_start = region_start;
    g->region_bytes = region_bytes;
    g->zipf_theta = zipf_theta;
    g->hot_fraction = hot_fraction;
    g->hot_share = hot_share;
    if (parse_sizes(g, sizes, err, errlen)) return -1;
    uint32_t largest = 0, smallest = UINT32_MAX;
    for (int i = 0; i < g->size_count; i++) {
        if (g->sizes[i] > largest) largest = g->sizes[i];
        if (g->sizes[i] < smallest) smallest = g->sizes[i];
    }
    g->align = align ? align : smallest;
    if (region_start % g->align)
        return snprintf(err, errlen, "the region starts at %llu B, not a multiple of the alignment (%llu B)",
                        (unsigned long long)region_start, (unsigned long long)g->align), -1;
    if (region_bytes < largest)
        return snprintf(err, errlen, "the region (%llu B) is smaller than the largest request (%u B)",
                        (unsigned long long)region_bytes, largest), -1;
    g->slots = (region_bytes - largest) / g->align + 1;
    if (pattern == GEN_ZIPF) zipf_setup(g);
    g->next_offset = region_start;
    return 0;
}

void generator_free(generator *g)
{
    if (g->size_pick) gsl_ran_discrete_free(g->size_pick);
    g->size_pick = NULL;
}

void generator_next(generator *g, gsl_rng *r, bool *read, uint64_t *offset, uint32_t *bytes)
{
    *bytes = g->size_count == 1 ? g->sizes[0] : g->sizes[gsl_ran_discrete(r, g->size_pick)];
    *read = g->read_share >= 1 || (g->read_share > 0 && gsl_rng_uniform(r) < g->read_share);
    uint64_t slot;
    switch (g->pattern) {
    case GEN_SEQUENTIAL:
        if (g->next_offset + *bytes > g->region_start + g->region_bytes) g->next_offset = g->region_start;
        *offset = g->next_offset;
        g->next_offset += *bytes;
        return;
    case GEN_ZIPF:
        /* rank 1 is the hottest slot: the hot data sits at the region's start */
        slot = zipf_draw(g, r) - 1;
        break;
    case GEN_HOTCOLD: {
        uint64_t hot = (uint64_t)(g->hot_fraction * (double)g->slots);
        if (hot == 0) hot = 1;
        if (gsl_rng_uniform(r) < g->hot_share) slot = gsl_rng_uniform_int(r, hot);
        else slot = hot + (g->slots > hot ? gsl_rng_uniform_int(r, g->slots - hot) : 0);
        if (slot >= g->slots) slot = g->slots - 1;
        break;
    }
    default: slot = (uint64_t)(gsl_rng_uniform(r) * (double)g->slots); break;
    }
    *offset = g->region_start + slot * g->align;
}
