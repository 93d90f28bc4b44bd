/* One /summary row: what a phase did (docs/results-format.md). Shared by
 * the writer, the readers, the HDF5 types and the scoring. */
#ifndef SSDLAB_SUMMARY_ROW_H
#define SSDLAB_SUMMARY_ROW_H

#include <stdint.h>

/* Latency arrays hold, in this order: */
enum { LAT_MEAN, LAT_P50, LAT_P90, LAT_P99, LAT_P999, LAT_P9999, LAT_MAX, LAT_FIELDS };

typedef struct phase_summary {
    char name[64];
    char kind[16];
    uint64_t requests, reads, writes, trims, bytes_read, bytes_written;
    double iops, mib_per_s;
    double read_lat_us[LAT_FIELDS];
    double write_lat_us[LAT_FIELDS];
    double write_amplification; /* flash bytes programmed / host bytes written */
    double wa_rmw, wa_fold, wa_gc, wa_map, wa_pad, slc_share; /* its parts (ssdlab.h) */
    uint64_t gc_units, erases;
    uint64_t slc_bytes_written, slc_bytes_read; /* SLC-cache hits */
    /* PCMark's scoring (docs/pcmark-like.md): time with a read or write
     * outstanding, bytes read and written over it, and the mean latency
     * of reads and writes */
    double busy_s, busy_mib_s, access_time_us;
    double start_s, sim_time_s, wall_time_s;
} phase_summary;

/* One /tenants row: what one worker of a group saw (docs/results-format.md). */
typedef struct tenant_row {
    char tenant[64];
    uint32_t summary_row; /* the /summary row of its group, from 0 */
    int32_t queue;        /* its submission queue; -1: spread over them */
    uint64_t reads, writes, trims, bytes_read, bytes_written;
    double seconds, iops, mib_per_s; /* over its own measured part */
    double read_lat_us[LAT_FIELDS];
    double write_lat_us[LAT_FIELDS];
    /* with ssdlab run --alone (NAN without): its mean latency (reads and
     * writes) alone on the drive, shared over alone, and its group's
     * lowest slowdown over its highest (MQSim's fairness) */
    double alone_mean_us, slowdown, fairness;
    uint64_t host_copies; /* a zoned writer: objects its reclaimer copied, among its writes; 0 otherwise */
} tenant_row;

#endif
