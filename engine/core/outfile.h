/* Output files that appear whole or not at all: data goes to a temporary
 * name beside the target and is renamed over it only when complete, so an
 * interrupted run never leaves something that looks like a result. */
#ifndef SSDLAB_OUTFILE_H
#define SSDLAB_OUTFILE_H

#include <stdio.h>

typedef struct outfile {
    FILE *fp;
    char *final_path;
    char *temp_path;
} outfile;

/* Returns 0, or -1 with errno set. */
int outfile_open(outfile *o, const char *path);
/* Flushes, syncs and renames into place; on any failure removes the
 * temporary file and returns -1 with errno set. */
int outfile_commit(outfile *o);
/* Removes the temporary file (on error paths). */
void outfile_abort(outfile *o);

#endif
