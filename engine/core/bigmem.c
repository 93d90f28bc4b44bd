#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2 << 20 };

static size_t rounded(size_t bytes) { return (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; }

/* An anonymous mapping reads as zero until written (malloc's large blocks
 * may be reused memory, and calloc would clear them by writing), and is
 * backed page by page as it is written. A huge page's worth more is mapped,
 * then trimmed to the 2 MiB boundary inside. */
void *bigmem_alloc(size_t bytes)
{
    if (bytes < HUGE_PAGE) return calloc(bytes ? bytes : 1, 1);
    size_t size = rounded(bytes);
    char *raw = mmap(NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    size_t head = (HUGE_PAGE - (uintptr_t)raw % HUGE_PAGE) % HUGE_PAGE; /* pages, as mmap gives */
    char *p = raw + head;
    if (head) munmap(raw, head);
    munmap(p + size, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#endif
    return p;
}

void bigmem_free(void *p, size_t bytes)
{
    if (!p) return;
    if (bytes < HUGE_PAGE) free(p);
    else munmap(p, rounded(bytes));
}
