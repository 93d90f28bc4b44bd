#include "memlimit.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

/* cgroup v2's limit for this process's group, or 0 when there is none. */
static uint64_t cgroup_limit(void)
{
    FILE *f = fopen("/sys/fs/cgroup/memory.max", "r");
    if (!f) return 0;
    char line[64] = "";
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    char *end;
    unsigned long long v = got ? strtoull(line, &end, 10) : 0;
    return got && end != line ? (uint64_t)v : 0; /* "max" reads as no limit */
}

uint64_t memlimit_default(char *source, size_t len)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t limit = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
    snprintf(source, len, "the machine's memory");
    uint64_t group = cgroup_limit();
    if (group && group < limit) {
        limit = group;
        snprintf(source, len, "the cgroup's memory.max");
    }
    struct rlimit r;
    if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY && (uint64_t)r.rlim_cur < limit) {
        limit = (uint64_t)r.rlim_cur;
        snprintf(source, len, "the address-space limit (ulimit -v)");
    }
    return limit;
}

void memlimit_format(uint64_t bytes, char *buf, size_t len)
{
    if (bytes >= (uint64_t)1 << 30) snprintf(buf, len, "%.1f GiB", (double)bytes / (double)(1 << 30));
    else snprintf(buf, len, "%.0f MiB", (double)bytes / (double)(1 << 20));
}
