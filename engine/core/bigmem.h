/* Large tables (the mapping tables of a drive: hundreds of MiB, accessed at
 * random) are allocated on 2 MiB boundaries and marked for transparent huge
 * pages where the system offers them: with 4 KiB pages nearly every access
 * would also miss the TLB. Their memory reads as zero and is taken from the
 * system only where it is first written: a run that uses a corner of a
 * large drive neither waits for nor holds the rest (a table whose "empty"
 * is zero needs no pass at open). */
#ifndef SSDLAB_BIGMEM_H
#define SSDLAB_BIGMEM_H

#include <stddef.h>

/* Zeroed memory; NULL when out of memory. Free with bigmem_free and the
 * same size. */
void *bigmem_alloc(size_t bytes);
void bigmem_free(void *p, size_t bytes);

#endif
