#include "rng.h"

#include <stdlib.h>
#include <string.h>

typedef struct stream {
    char *name;
    unsigned long seed;
    gsl_rng *gen;
} stream;

struct rng_streams {
    uint64_t master_seed;
    const gsl_rng_type *type;
    stream *streams;
    size_t count, cap;
};

/* SplitMix64 finaliser (Steele, Lea and Flood 2014): a bijective mixer, so
 * distinct (seed, name-hash) pairs give well-spread stream seeds. */
static uint64_t mix64(uint64_t z)
{
    z += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t fnv1a64(const char *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *s; s++) h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return h;
}

unsigned long rng_stream_seed(uint64_t master_seed, const char *component)
{
    uint64_t h = mix64(mix64(master_seed) ^ fnv1a64(component));
    /* Most GSL generators read 32 bits of seed, and 0 selects their default
     * seed: fold to 32 bits and avoid 0. */
    unsigned long seed = (unsigned long)((h ^ (h >> 32)) & 0xffffffffu);
    return seed ? seed : 1;
}

static const gsl_rng_type *find_type(const char *name)
{
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++)
        if (strcmp((*t)->name, name) == 0) return *t;
    return NULL;
}

int rng_type_known(const char *type_name) { return find_type(type_name) != NULL; }

rng_streams *rng_streams_create(uint64_t master_seed, const char *type_name)
{
    const gsl_rng_type *type = find_type(type_name ? type_name : "mt19937");
    if (!type) return NULL;
    rng_streams *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->master_seed = master_seed;
    r->type = type;
    return r;
}

void rng_streams_free(rng_streams *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->count; i++) {
        free(r->streams[i].name);
        gsl_rng_free(r->streams[i].gen);
    }
    free(r->streams);
    free(r);
}

gsl_rng *rng_stream(rng_streams *r, const char *component)
{
    unsigned long seed = rng_stream_seed(r->master_seed, component);
    for (size_t i = 0; i < r->count; i++) {
        if (strcmp(r->streams[i].name, component) == 0) return r->streams[i].gen;
        if (r->streams[i].seed == seed) return NULL; /* two names, one seed */
    }
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 8;
        stream *s = realloc(r->streams, cap * sizeof *s);
        if (!s) return NULL;
        r->streams = s;
        r->cap = cap;
    }
    gsl_rng *gen = gsl_rng_alloc(r->type);
    char *name = strdup(component);
    if (!gen || !name) {
        gsl_rng_free(gen);
        free(name);
        return NULL;
    }
    gsl_rng_set(gen, seed);
    r->streams[r->count++] = (stream){name, seed, gen};
    return gen;
}
