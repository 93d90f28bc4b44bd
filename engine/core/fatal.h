/* Internal errors: a broken invariant or a misuse of an internal API, never
 * a user's mistake (those get a message and an exit status). Prints the
 * message and aborts, so a debugger or core dump shows where. */
#ifndef SSDLAB_FATAL_H
#define SSDLAB_FATAL_H

_Noreturn void ssdlab_internal_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
