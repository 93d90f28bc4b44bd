/* Named random-number streams derived from one master seed.
 *
 * Each component asks for its stream by name; the stream's seed is a hash of
 * (master seed, name), so adding or removing a component never changes the
 * draws another component sees. Generators are GSL's. */
#ifndef SSDLAB_RNG_H
#define SSDLAB_RNG_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

typedef struct rng_streams rng_streams;

/* type_name is a GSL generator name ("mt19937", "ranlxd2", ...); NULL means
 * mt19937. Returns NULL for an unknown generator name. */
rng_streams *rng_streams_create(uint64_t master_seed, const char *type_name);
void rng_streams_free(rng_streams *r);

/* The stream of one component, created on first use and owned by r.
 * Returns NULL only when out of memory or when two names hash to the same
 * seed (the caller reports it; rename one component). */
gsl_rng *rng_stream(rng_streams *r, const char *component);

/* The seed a component's stream is started from (exposed for tests and for
 * the run metadata). */
unsigned long rng_stream_seed(uint64_t master_seed, const char *component);

/* True when name is a generator GSL provides. */
int rng_type_known(const char *type_name);

#endif
