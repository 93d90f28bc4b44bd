/* The 4 KiB pages a trace touches, as a bitmap that grows with the highest
 * page (up to 2 TiB of address range): its size is the trace's footprint,
 * and, once ranked, a page's rank among the touched pages places it on a
 * drive that holds the footprint alone (lba_map=compact). */
#ifndef SSDLAB_FOOTPRINT_H
#define SSDLAB_FOOTPRINT_H

#include <stdbool.h>
#include <stdint.h>

#define FOOTPRINT_PAGE 4096
#define FOOTPRINT_MAX_PAGES (UINT64_C(1) << 29)

typedef struct footprint {
    uint64_t *words;
    uint64_t nwords;
    uint64_t set;     /* pages touched */
    bool overflow;    /* past 2 TiB, or out of memory: not counted */
    uint64_t *before; /* ranked: pages touched in the words before each word */
} footprint;

/* Marks the pages of [offset, offset + bytes). */
void footprint_mark(footprint *f, uint64_t offset, uint32_t bytes);
/* Prepares footprint_rank; -1 when memory runs out. */
int footprint_rank_prepare(footprint *f);
/* Touched pages below `page` (a page that was marked). */
uint64_t footprint_rank(const footprint *f, uint64_t page);
void footprint_free(footprint *f);

#endif
