/* How much memory a run may use: the machine's memory, or less where the
 * process is held to less (a cgroup limit, as under Slurm's --mem, or
 * ulimit -v). A run compares its estimate with this before it allocates,
 * so it refuses at once instead of swapping or dying half-way. */
#ifndef SSDLAB_MEMLIMIT_H
#define SSDLAB_MEMLIMIT_H

#include <stddef.h>
#include <stdint.h>

/* The limit in bytes, and what sets it ("the machine's memory", ...) in
 * source. */
uint64_t memlimit_default(char *source, size_t len);

/* "1.5 GiB", "310 MiB": a size for messages. */
void memlimit_format(uint64_t bytes, char *buf, size_t len);

#endif
