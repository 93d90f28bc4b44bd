#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include "bigmem.h"

#include <stdlib.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2 << 20 };

void *bigmem_alloc(size_t bytes)
{
    if (bytes < HUGE_PAGE) return malloc(bytes ? bytes : 1);
    size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, rounded)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#endif
    return p;
}

void bigmem_free(void *p) { free(p); }
