/* Synthetic request streams: where the next request goes, how large it is,
 * and whether it reads or writes. Access patterns: sequential, uniform
 * random, Zipf (skew theta) and hot/cold (a share of the requests to a
 * fraction of the region); sizes from one size or a weighted list. */
#ifndef SSDLAB_GENERATOR_H
#define SSDLAB_GENERATOR_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

typedef enum gen_pattern { GEN_SEQUENTIAL, GEN_RANDOM, GEN_ZIPF, GEN_HOTCOLD } gen_pattern;

enum { GEN_MAX_SIZES = 16 };

typedef struct generator {
    gen_pattern pattern;
    double read_share;
    uint64_t region_start, region_bytes, align;
    uint64_t slots;               /* aligned start positions that fit the largest size */
    uint32_t sizes[GEN_MAX_SIZES];
    int size_count;
    gsl_ran_discrete_t *size_pick; /* weighted choice of a size (GSL, Walker's alias method) */
    double zipf_theta;
    double zipf_hx0, zipf_hn, zipf_s; /* rejection-inversion constants */
    double hot_fraction, hot_share;
    uint64_t next_offset;         /* sequential */
} generator;

/* sizes: "4KiB" or a weighted list "4KiB:55,64KiB:25,128KiB:20". Returns
 * 0, or -1 with what is wrong in err. */
int generator_init(generator *g, gen_pattern pattern, double read_share, uint64_t region_start, uint64_t region_bytes,
                   const char *sizes, uint64_t align, double zipf_theta, double hot_fraction, double hot_share, char *err,
                   size_t errlen);
void generator_free(generator *g);
void generator_next(generator *g, gsl_rng *r, bool *read, uint64_t *offset, uint32_t *bytes);

/* Zipf rank in [1, n] with P(k) proportional to k^-theta. */
uint64_t zipf_draw(generator *g, gsl_rng *r);

#endif
