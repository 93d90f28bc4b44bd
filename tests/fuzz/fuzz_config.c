/* The configuration loader (config, drive and workload files, with a
 * phase list) and the unit parser on arbitrary bytes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "fuzz_input.h"
#include "units.h"

static void parse_units(const uint8_t *data, size_t size)
{
    char text[256], err[256], expected[256];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = 0;
    static const char *const defaults[DIM_COUNT] = {"B", "ns", "Hz", "T/s", "b/s", "B/s"};
    for (int d = 0; d < DIM_COUNT; d++) {
        uint64_t v;
        if (unit_parse((unit_dim)d, text, defaults[d], &v, err, sizeof err, expected, sizeof expected) == 0) {
            char back[64];
            unit_format((unit_dim)d, v, back, sizeof back);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse_units(data, size);
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0) return 0;
    cfg *c = cfg_create(ssdlab_schema());
    cfg **phases = NULL;
    size_t count = 0;
    cfg_load_file_with_list(c, path, "phases", "workload", &phases, &count);
    (void)cfg_errors(c);
    for (size_t i = 0; i < count; i++) cfg_free(phases[i]);
    free(phases);
    cfg_free(c);
    close(fd);
    return 0;
}
