/* The reverse map: exact block numbers by multiplication, validity bits,
 * rows recorded as written, and rows refilled from the mapping tables. */
#include <criterion/criterion.h>
#include <string.h>

#include "revmap.h"

/* The multiplication gives x / U exactly, for divisors that are and are
 * not powers of two (1 included), up to the largest 32-bit number; and
 * the reverse map's block numbers are that division. */
Test(revmap, block_of_is_exact_division)
{
    const uint32_t sizes[] = {1, 2, 3, 256, 1024, 1536, 2048, 6144, 9216, 12288, 196608, 1u << 30, (1u << 31) - 1, UINT32_MAX};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint32_t U = sizes[k];
        divider d = divider_of(U);
        revmap m = {.per_block = d};
        for (uint64_t q = 0; q * U <= UINT32_MAX; q += 1 + (UINT32_MAX / U) / 1000) {
            uint64_t at[] = {q * U, q * U + U - 1, q * U + U / 2};
            for (int i = 0; i < 3; i++)
                if (at[i] <= UINT32_MAX) {
                    cr_assert_eq(divide(d, (uint32_t)at[i]), at[i] / U, "U %u x %llu", U, (unsigned long long)at[i]);
                    cr_assert_eq(divide_left(d, (uint32_t)at[i]), U - at[i] % U, "U %u x %llu", U, (unsigned long long)at[i]);
                }
        }
        cr_assert_eq(divide(d, UINT32_MAX), UINT32_MAX / U, "U %u", U);
        cr_assert_eq(revmap_block_of(&m, UINT32_MAX - 7), (UINT32_MAX - 7) / U, "U %u", U);
    }
}

/* 8 blocks of 6 units, 3 slots: opened blocks take slots while there are
 * any; writes are recorded only in covered blocks; validity is kept for
 * all. */
Test(revmap, slots_record_writes_of_covered_blocks)
{
    revmap m;
    cr_assert_eq(revmap_init(&m, 8, 6, 3), 0);
    for (uint32_t b = 0; b < 4; b++) revmap_take(&m, b);
    cr_assert(revmap_covers(&m, 0) && revmap_covers(&m, 1) && revmap_covers(&m, 2));
    cr_assert(!revmap_covers(&m, 3));
    revmap_set(&m, 7, 1, 100);  /* block 1, offset 1 */
    revmap_set(&m, 19, 3, 200); /* block 3: valid, not recorded */
    cr_assert(revmap_valid(&m, 7) && revmap_valid(&m, 19) && !revmap_valid(&m, 8));
    cr_assert_eq(revmap_holds(&m, 7), 100);
    cr_assert_eq(revmap_holds(&m, 8), REVMAP_NONE);
    revmap_clear(&m, 7);
    cr_assert_eq(revmap_holds(&m, 7), REVMAP_NONE);
    revmap_drop(&m, 2);
    revmap_take(&m, 3);
    cr_assert(revmap_covers(&m, 3) && !revmap_covers(&m, 2));
    revmap_free(&m);
}

/* A refill covers exactly the blocks named, keeps the rows of those it
 * already covered (valid units only mean anything: the test plants a
 * marker there that a refill from the tables would overwrite), and fills
 * the others from both tables, translation units marked. */
Test(revmap, refill_covers_the_named_blocks_from_the_tables)
{
    revmap m;
    cr_assert_eq(revmap_init(&m, 4, 4, 2), 0);
    /* l2p: lpn 0 -> 1 (block 0), 1 -> 5 (block 1), 2 -> 14 (block 3), 3 unmapped; tu 0 -> 12 (block 3).
     * Its entries complemented, as the FTL stores them (l2p_flip). */
    uint32_t l2p[] = {~1u, ~5u, ~14u, ~REVMAP_NONE}, map_loc[] = {12};
    revmap_take(&m, 0);
    revmap_set(&m, 1, 0, 0);
    revmap_set(&m, 5, 1, 1);
    revmap_set(&m, 14, 3, 2);
    revmap_set(&m, 12, 3, 0x80000000u);
    m.holds[(uint64_t)m.slot_of[0] * 4 + 1] = 77; /* a marker a refill of block 0 would overwrite */
    revmap_tables t = {l2p, 4, map_loc, 1, 0x80000000u, UINT32_MAX};
    uint32_t cover[] = {3, 0};
    revmap_refill(&m, cover, 2, &t);
    cr_assert(revmap_covers(&m, 0) && revmap_covers(&m, 3) && !revmap_covers(&m, 1));
    cr_assert_eq(revmap_holds(&m, 1), 77, "a covered block keeps its row");
    cr_assert_eq(revmap_holds(&m, 14), 2);
    cr_assert_eq(revmap_holds(&m, 12), 0x80000000u);
    cr_assert_eq(m.refills, 1);
    uint32_t again[] = {1, 3};
    revmap_refill(&m, again, 2, &t);
    cr_assert(!revmap_covers(&m, 0) && revmap_covers(&m, 1));
    cr_assert_eq(revmap_holds(&m, 5), 1);
    revmap_free(&m);
}

/* Clearing a block's validity bits a word at a time clears exactly the
 * bits of the range, whether its ends fall inside words or on their
 * edges: blocks of 6, 64 and 100 units against a bit-by-bit reference. */
Test(revmap, clear_range_clears_exactly_the_range)
{
    const uint32_t sizes[] = {6, 64, 100};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint32_t U = sizes[k], blocks = 7, units = blocks * U;
        revmap m;
        cr_assert_eq(revmap_init(&m, blocks, U, 1), 0);
        for (uint32_t b = 0; b < blocks; b++) {
            for (uint32_t u = 0; u < units; u++) revmap_set(&m, u, u / U, 0);
            revmap_clear_range(&m, (uint64_t)b * U, U);
            for (uint32_t u = 0; u < units; u++)
                cr_assert_eq(revmap_valid(&m, u), u / U != b, "U %u, block %u cleared: unit %u", U, b, u);
        }
        revmap_free(&m);
    }
}

/* A fill's block keeps its seq while each run goes on as the first began
 * (runs of 2 units, each 6 logical units on: three dies' turns), and its
 * row comes from that alone; a jump, a run past its end, or a block begun
 * elsewhere has none. Opened blocks leave the reserve free while any
 * block has a seq. */
Test(revmap, a_fill_block_is_covered_from_its_first_unit)
{
    revmap m;
    cr_assert_eq(revmap_init(&m, 4, 6, 2), 0);
    revmap_seq_init(&m, 2, 6, 1);
    revmap_seq_note(&m, 0, 0, 100, 2);
    revmap_seq_note(&m, 0, 2, 106, 1);
    revmap_seq_note(&m, 0, 3, 107, 1);
    revmap_seq_note(&m, 0, 4, 112, 2);
    revmap_seq_note(&m, 1, 0, 10, 2);
    revmap_seq_note(&m, 1, 2, 13, 2); /* 16 was next */
    revmap_seq_note(&m, 2, 0, 20, 1);
    revmap_seq_note(&m, 2, 1, 21, 2); /* past its run's end */
    revmap_seq_note(&m, 3, 2, 30, 2); /* begun elsewhere */
    cr_assert(revmap_is_seq(&m, 0));
    cr_assert(!revmap_is_seq(&m, 1) && !revmap_is_seq(&m, 2) && !revmap_is_seq(&m, 3));
    cr_assert_eq(m.seq_blocks, 1);
    cr_assert_not(revmap_fill_seq(&m, 1, 6));
    revmap_take_opened(&m, 3);
    cr_assert(revmap_covers(&m, 3), "2 free, 1 kept");
    revmap_take_opened(&m, 2);
    cr_assert_not(revmap_covers(&m, 2), "the last free slot is kept for a fill's block");
    cr_assert(revmap_fill_seq(&m, 0, 5));
    const uint32_t *row = revmap_row(&m, 0);
    const uint32_t want[] = {100, 101, 106, 107, 112};
    for (int k = 0; k < 5; k++) cr_assert_eq(row[k], want[k], "unit %d: %u", k, row[k]);
    cr_assert_eq(m.seq_fills, 1);
    revmap_seq_forget(&m, 0);
    cr_assert_eq(m.seq_blocks, 0);
    revmap_drop(&m, 3);
    revmap_take_opened(&m, 2);
    cr_assert(revmap_covers(&m, 2), "no fill's block left: nothing kept");
    revmap_free(&m);
}
