/* Large tables (the mapping tables of a drive: hundreds of MiB, accessed at
 * random) are allocated on 2 MiB boundaries and marked for transparent huge
 * pages where the system offers them: with 4 KiB pages nearly every access
 * would also miss the TLB. */
#ifndef SSDLAB_BIGMEM_H
#define SSDLAB_BIGMEM_H

#include <stddef.h>

/* Returns NULL when out of memory. Free with bigmem_free. */
void *bigmem_alloc(size_t bytes);
void bigmem_free(void *p);

#endif
