/* The request pool of open-loop sources: records are reused, and once the
 * most outstanding at once have been taken, taking allocates nothing. */
#include <criterion/criterion.h>

#include "reqpool.h"

Test(reqpool, records_are_reused_in_steady_state)
{
    enum { N = 1000 };
    reqpool p = {0};
    ssdlab_request *taken[N];
    for (int i = 0; i < N; i++) cr_assert_not_null(taken[i] = reqpool_take(&p));
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N && j < i + 8; j++) cr_assert_neq(taken[i], taken[j], "distinct records");
    size_t chunks = p.chunk_count;
    cr_assert_geq(chunks, 1);
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < N; i++) reqpool_give(&p, taken[i]);
        for (int i = 0; i < N; i++) cr_assert_not_null(taken[i] = reqpool_take(&p));
    }
    cr_assert_eq(p.chunk_count, chunks, "steady state: no new chunk (%zu, then %zu)", chunks, p.chunk_count);
    reqpool_free(&p);
}

Test(reqpool, a_given_record_comes_back_first)
{
    reqpool p = {0};
    ssdlab_request *a = reqpool_take(&p), *b = reqpool_take(&p);
    reqpool_give(&p, a);
    cr_assert_eq(reqpool_take(&p), a);
    reqpool_give(&p, b);
    cr_assert_eq(reqpool_take(&p), b);
    reqpool_free(&p);
}
