#define _GNU_SOURCE /* memfd_create */
#include "fuzz_input.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
    int fd = memfd_create("ssdlab-fuzz", 0);
    if (fd < 0) return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    snprintf(path, len, "/proc/self/fd/%d", fd);
    return fd;
}
