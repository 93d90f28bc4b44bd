/* Running out of memory in the middle of a run.
 *
 * A model cannot go on without the transaction, event or row it asked for,
 * and unwinding every caller by hand would put an error path on every
 * event. So, as Lua does for its memory errors (luaD_throw with
 * LUA_ERRMEM), the allocation site raises, and control jumps back to the
 * innermost frame that asked to catch it: the simulator's run loop, which
 * stops the run there (SIM_STOP_FAILED) so that what ran can still be
 * reported, with the status 'out of memory'. A reserve set aside beforehand is given
 * back at the raise, so the reporting has memory to work with.
 *
 *     oom_frame f;
 *     oom_enter(&f);
 *     if (setjmp(f.at)) { ... out of memory: oom_what() says for what ... }
 *     ... work that may call oom_raise ...
 *     oom_leave(&f);
 *
 * A raise pops its frame before jumping. Frames are per thread. With no
 * frame, a raise prints its message and exits with status 1. */
#ifndef SSDLAB_OOM_H
#define SSDLAB_OOM_H

#include <setjmp.h>
#include <stddef.h>

typedef struct oom_frame {
    jmp_buf at;
    struct oom_frame *outer;
} oom_frame;

void oom_enter(oom_frame *f);
void oom_leave(oom_frame *f);
_Noreturn void oom_raise(const char *what);

/* What the last raise was for ("flash transactions"); "" when none. */
const char *oom_what(void);
/* Forgets the last raise (a new run in the same process). */
void oom_clear(void);

/* Sets aside bytes (replacing any earlier reserve) to be freed at the
 * next raise; 0 frees it now. Returns -1 when even that cannot be had. */
int oom_reserve(size_t bytes);

#endif
