/* PCMark-like desktop traces: for each of the ten applications of PCMark
 * 8's storage test, a synthetic trace with the published counts of
 * sequential and random reads and writes and the published bytes read and
 * written; what is not published (sizes, places, timing) follows the
 * documented desktop behaviour of docs/pcmark-like.md. Deterministic: the
 * same application and seed give the same records. */
#ifndef SSDLAB_PCMARK8_H
#define SSDLAB_PCMARK8_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

typedef struct pcmark8_app {
    const char *name;  /* e.g. photoshop-light */
    const char *title; /* e.g. Photoshop light */
    uint32_t seq_reads, rand_reads, seq_writes, rand_writes;
    uint32_t mib_read, mib_written;
} pcmark8_app;

/* Each application writes into its own area of this size, the i-th at i
 * times it, like separate programs' files on one drive; its hot set (the
 * first 768 MiB of it) is there too. What it reads besides lies anywhere
 * in the drive's data, the first PCMARK8_SPAN bytes: a used 240 GB drive
 * (223.5 GiB) holds it. */
#define PCMARK8_AREA (12ull << 30)
#define PCMARK8_SPAN (192ull << 30)

/* The ten applications, in PCMark's order. */
const pcmark8_app *pcmark8_apps(size_t *count);
/* NULL when the name is not one of them. */
const pcmark8_app *pcmark8_find(const char *name);

/* The application's trace in time order (allocated; the caller frees it).
 * Returns 0, or -1 with a message in err. */
int pcmark8_generate(const pcmark8_app *app, uint64_t seed, trace_record **records, size_t *count, char *err,
                     size_t errlen);

#endif
