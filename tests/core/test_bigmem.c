/* Large tables: zeroed (a fresh table is all "empty", and the mapping
 * table's empty is zero), on 2 MiB boundaries, and backed by memory only
 * where written (a run on a corner of a 2 TB drive holds megabytes, not
 * the whole table). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bigmem.h"

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* Reused memory would come back as it was left: it must read as zero. */
Test(bigmem, zeroed_again_after_reuse)
{
    const size_t sizes[] = {1000, 3u << 20};
    for (size_t k = 0; k < 2; k++) {
        for (int round = 0; round < 3; round++) {
            unsigned char *p = bigmem_alloc(sizes[k]);
            cr_assert_not_null(p);
            cr_assert(all_zero(p, sizes[k]), "%zu bytes, round %d", sizes[k], round);
            if (sizes[k] >= 2u << 20) cr_assert_eq((uintptr_t)p % (2u << 20), 0, "on a 2 MiB boundary");
            memset(p, 0xab, sizes[k]);
            bigmem_free(p, sizes[k]);
        }
    }
}

static long resident_kib(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    cr_assert_not_null(f);
    cr_assert_eq(fscanf(f, "%ld %ld", &pages, &resident), 2);
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* 256 MiB allocated and one byte of each 64 MiB written: a few MiB
 * resident (a huge page each at most), not 256. */
Test(bigmem, backed_where_written)
{
    const size_t bytes = 256u << 20;
    long before = resident_kib();
    unsigned char *p = bigmem_alloc(bytes);
    cr_assert_not_null(p);
    for (size_t at = 0; at < bytes; at += 64u << 20) p[at] = 1;
    long grown = resident_kib() - before;
    cr_assert_lt(grown, 16 * 1024, "%ld KiB resident after writing 4 bytes of 256 MiB", grown);
    cr_assert_eq(p[64u << 20], 1);
    cr_assert_eq(p[1], 0);
    bigmem_free(p, bytes);
}
