#include "fatal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

_Noreturn void ssdlab_internal_error(const char *fmt, ...)
{
    va_list ap;
    fputs("ssdlab: internal error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}
