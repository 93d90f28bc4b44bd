/* The devices (disks, volumes, ASUs) a trace has shown so far, each
 * numbered in the order it first appeared: a sorted array of ids searched
 * with bsearch, and the last device asked for remembered, since records
 * come in runs of one device. Ids are told apart whole (Tencent's CBS
 * traces number thousands of volumes). */
#ifndef SSDLAB_TRACE_DEVICES_H
#define SSDLAB_TRACE_DEVICES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct device_number {
    uint32_t id, number;
} device_number;

typedef struct trace_devices {
    device_number *by_id; /* sorted by id */
    uint32_t count, cap;
    uint32_t last_id, last_number; /* the last device asked for (count > 0) */
} trace_devices;

/* The number of device id (0, 1, ... in order of first appearance);
 * *first says whether this call added it. -1 when out of memory. */
int64_t trace_devices_number(trace_devices *d, uint32_t id, bool *first);
void trace_devices_free(trace_devices *d);

#endif
