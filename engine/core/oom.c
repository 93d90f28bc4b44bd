#include "oom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local oom_frame *innermost;
static _Thread_local char last_what[128];
static _Thread_local void *reserve;

void oom_enter(oom_frame *f)
{
    f->outer = innermost;
    innermost = f;
}

void oom_leave(oom_frame *f)
{
    /* frames leave in the order they entered; one left out of order is a
     * caller that forgot a leave on some path */
    if (innermost == f) innermost = f->outer;
}

_Noreturn void oom_raise(const char *what)
{
    free(reserve);
    reserve = NULL;
    snprintf(last_what, sizeof last_what, "%s", what);
    oom_frame *f = innermost;
    if (!f) {
        fprintf(stderr, "ssdlab: out of memory for %s\n", what);
        exit(1);
    }
    innermost = f->outer;
    longjmp(f->at, 1);
}

const char *oom_what(void) { return last_what; }
void oom_clear(void) { last_what[0] = '\0'; }

int oom_reserve(size_t bytes)
{
    free(reserve);
    reserve = NULL;
    if (!bytes) return 0;
    /* touched, so that it is really held and really given back */
    if (!(reserve = malloc(bytes))) return -1;
    memset(reserve, 0, bytes);
    return 0;
}
