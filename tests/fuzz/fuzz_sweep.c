/* The sweep file loader and the expansion into points, on arbitrary bytes. */
#include <unistd.h>

#include "fuzz_input.h"
#include "sweep.h"

enum { MOST_POINTS = 1000 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[4096];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0) return 0;
    sweep s;
    if (sweep_load(&s, path, err, sizeof err) == 0) {
        size_t n = sweep_point_count(&s);
        for (size_t i = 0; i < n && i < MOST_POINTS; i++) {
            sweep_point p;
            if (sweep_point_make(&s, i, &p) == 0) sweep_point_free(&p);
        }
    }
    sweep_free(&s);
    close(fd);
    return 0;
}
