#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int outfile_open(outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(path) + 32;
    o->final_path = strdup(path);
    o->temp_path = malloc(n);
    if (!o->final_path || !o->temp_path) {
        outfile_abort(o);
        errno = ENOMEM;
        return -1;
    }
    /* The pid keeps concurrent writers of the same target apart. */
    snprintf(o->temp_path, n, "%s.tmp.%ld", path, (long)getpid());
    o->fp = fopen(o->temp_path, "wb");
    if (!o->fp) {
        int e = errno;
        free(o->final_path);
        free(o->temp_path);
        memset(o, 0, sizeof *o);
        errno = e;
        return -1;
    }
    return 0;
}

int outfile_commit(outfile *o)
{
    int rc = 0;
    if (fflush(o->fp) || ferror(o->fp) || fsync(fileno(o->fp))) rc = -1;
    int e = errno;
    if (fclose(o->fp)) rc = -1, e = errno;
    o->fp = NULL;
    if (rc == 0 && rename(o->temp_path, o->final_path)) rc = -1, e = errno;
    if (rc) unlink(o->temp_path);
    free(o->final_path);
    free(o->temp_path);
    memset(o, 0, sizeof *o);
    errno = e;
    return rc;
}

void outfile_abort(outfile *o)
{
    if (o->fp) fclose(o->fp);
    if (o->temp_path) unlink(o->temp_path);
    free(o->final_path);
    free(o->temp_path);
    memset(o, 0, sizeof *o);
}
