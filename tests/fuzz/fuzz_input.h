/* What the fuzz targets share: the readers under test take file paths, so
 * each input becomes an in-memory file (memfd) named by /proc/self/fd/N. */
#ifndef SSDLAB_FUZZ_INPUT_H
#define SSDLAB_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* Writes the input to a fresh in-memory file; returns its descriptor (to
 * close) and its path in `path`, or -1. */
int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len);

/* libFuzzer's entry point, defined by each target (declared here so the
 * build's -Wmissing-prototypes sees it). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
