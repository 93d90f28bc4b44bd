/* The host protocol: what a command costs on the way in and out besides
 * its data, one entry per interface, indexed by host_kind.
 *
 * SATA (NCQ, AHCI) runs every frame over one half-duplex link: the command
 * (a Register H2D FIS, answered by a Register D2H FIS that releases it),
 * then for its data a DMA Setup FIS and one Data FIS per 8 KiB, and at the
 * end a Set Device Bits FIS. Each FIS holds the link for host.fis_time
 * besides its payload (framing primitives, CRC, the receiver's handshake
 * and the turnaround), so the five of a 4 KiB command set the ceiling a
 * SATA drive reaches at any queue depth.
 *
 * NVMe (PCIe) costs latency rather than link time: the host's doorbell
 * write reaches the controller one way (host.pcie_latency), which then
 * reads the command from host memory (a round trip); write data is read
 * the same way, read data and the completion entry are posted writes that
 * reach the host one way later. Data moves on the lane of its direction
 * (full duplex). */
#ifndef SSDLAB_PROTOCOL_H
#define SSDLAB_PROTOCOL_H

#include "params.h"
#include "power.h"

enum { LINK_TO_HOST, LINK_TO_DEVICE };

/* The host link's lanes as timelines: each frees up at a time. */
typedef struct host_link {
    const ssd_params *p;
    power_model *power;
    sim_time_t lane_free[2]; /* SATA uses lane 0 for both directions */
} host_link;

typedef struct host_protocol {
    const char *name;
    const char *description;
    /* When the controller holds a command the host gave a slot at `now`. */
    sim_time_t (*command)(host_link *l, sim_time_t now);
    /* When `bytes` of write data asked for at `now` are in the controller. */
    sim_time_t (*data_in)(host_link *l, sim_time_t now, uint64_t bytes);
    /* When the host holds `bytes` of read data sent from `now`, and its
     * completion. */
    sim_time_t (*read_done)(host_link *l, sim_time_t now, uint64_t bytes);
    /* When the host sees the completion of a command without read data
     * (a write, a TRIM) posted at `now`. */
    sim_time_t (*done)(host_link *l, sim_time_t now);
} host_protocol;

/* Indexed by host_kind (params.h). */
extern const host_protocol host_protocols[];

#endif
