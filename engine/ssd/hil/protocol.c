#include "protocol.h"

#include "timelines.h"

/* The FIS sequence of NCQ commands: SATA revision 3.x, 13.6.4 (READ and
 * WRITE FPDMA QUEUED). */


/* Holds a lane for `busy` from `from` on (or when it frees up); returns
 * when that ends. */
static sim_time_t hold_lane(host_link *l, int lane, sim_time_t from, sim_time_t busy)
{
    power_deposit(l->power, (double)busy * 1e-9 * l->power->link_active_extra_w);
    sim_time_t end = max_time(from, l->lane_free[lane]) + busy;
    l->lane_free[lane] = end;
    return end;
}

/* --- SATA NCQ: frames on one half-duplex link ----------------------------- */

/* Register H2D FIS (the command) and Register D2H FIS (accepted). */
static sim_time_t sata_command(host_link *l, sim_time_t now) { return hold_lane(l, 0, now, 2 * l->p->fis_time); }

/* Data FISes carry at most 8 KiB each (SATA 3.x, 10.5.11). */
static sim_time_t sata_data(const ssd_params *p, uint64_t bytes)
{
    uint64_t frames = (bytes + 8191) / 8192;
    return (sim_time_t)frames * p->fis_time + params_link_time(p, bytes);
}

/* DMA Setup FIS, then the Data FISes. */
static sim_time_t sata_data_in(host_link *l, sim_time_t now, uint64_t bytes)
{
    return hold_lane(l, 0, now, l->p->fis_time + sata_data(l->p, bytes));
}

/* DMA Setup FIS, the Data FISes, then Set Device Bits. */
static sim_time_t sata_read_done(host_link *l, sim_time_t now, uint64_t bytes)
{
    return hold_lane(l, 0, now, 2 * l->p->fis_time + sata_data(l->p, bytes));
}

/* Set Device Bits. */
static sim_time_t sata_done(host_link *l, sim_time_t now) { return hold_lane(l, 0, now, l->p->fis_time); }

/* --- NVMe: PCIe transactions ---------------------------------------------- */

/* The doorbell one way, then the command's fetch, a round trip. */
static sim_time_t nvme_command(host_link *l, sim_time_t now) { return now + 3 * l->p->pcie_latency; }

/* The controller reads the data from host memory: the first bytes arrive
 * a round trip after it asks, then they stream on the lane to the drive. */
static sim_time_t nvme_data_in(host_link *l, sim_time_t now, uint64_t bytes)
{
    return hold_lane(l, LINK_TO_DEVICE, now + 2 * l->p->pcie_latency, params_link_time(l->p, bytes));
}

/* Posted writes: the data, then the completion entry behind it, reach
 * host memory one way after they leave. */
static sim_time_t nvme_read_done(host_link *l, sim_time_t now, uint64_t bytes)
{
    return hold_lane(l, LINK_TO_HOST, now, params_link_time(l->p, bytes)) + l->p->pcie_latency;
}

static sim_time_t nvme_done(host_link *l, sim_time_t now) { return now + l->p->pcie_latency; }

const host_protocol host_protocols[] = {
    [HOST_SATA] = {"sata", "SATA NCQ: FIS exchanges on one half-duplex link", sata_command, sata_data_in, sata_read_done,
                   sata_done},
    [HOST_NVME] = {"nvme", "NVMe over PCIe: doorbell, command fetch, data DMA and posted completions", nvme_command,
                   nvme_data_in, nvme_read_done, nvme_done},
    {0},
};
