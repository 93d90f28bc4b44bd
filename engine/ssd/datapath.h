/* The controller's data path: the engines every byte of user data passes
 * between the host link and the NAND channels. Host data comes in through
 * the host DMA engine into the buffer memory (SRAM or DRAM), goes out of it
 * through the ECC encoder onto a channel; read data comes off a channel
 * through the ECC decoder into the buffer memory, and out through the DMA
 * engine to the host. GC's copies pass the decoder, the memory (twice) and
 * the encoder too.
 *
 * Each engine is a timeline with a rate (controller.host_dma,
 * controller.memory_bandwidth, controller.ecc_encode_rate,
 * controller.ecc_decode_rate; 0: no limit). Data streams through an
 * engine as it moves over the link or a channel (cut-through), so a
 * transfer ends when the slowest of the engines it passes is done with it.
 * These are the ceilings a controller puts on a drive wherever its array
 * could go faster: at its largest capacities, whose dies outrun it.
 * Engines serve in the order transfers are issued, as the channels do: a
 * transfer issued for a later start (its channel busy) holds its engine
 * from then on, so a ceiling is never exceeded, at the cost of a little
 * idle time when transfers are issued out of time order. */
#ifndef SSDLAB_DATAPATH_H
#define SSDLAB_DATAPATH_H

#include <stdint.h>

#include "params.h"

typedef enum datapath_engine {
    DP_DMA_IN,     /* host DMA, host memory to the buffer */
    DP_DMA_OUT,    /* host DMA, the buffer to host memory */
    DP_MEMORY,     /* buffer memory: every byte in and out (shared by both directions) */
    DP_ECC_ENCODE, /* the buffer to a channel */
    DP_ECC_DECODE, /* a channel to the buffer */
    DP_ENGINES
} datapath_engine;

typedef struct datapath {
    double ns_per_byte[DP_ENGINES]; /* 0: the engine sets no limit */
    sim_time_t free_at[DP_ENGINES];
    /* The firmware's identical cores: host commands, TRIM's work, and the
     * bookkeeping of every unit GC or folding moves all take their time. */
    sim_time_t *core_free;
    uint32_t cores;
} datapath;

/* Returns -1 when memory runs out. */
int datapath_init(datapath *d, const ssd_params *p);
void datapath_free(datapath *d);

/* Firmware work of `cost` from `ready` on, on the core that frees up first
 * (the lowest among equals): returns when it ends. */
static inline sim_time_t datapath_firmware(datapath *d, sim_time_t ready, sim_time_t cost)
{
    uint32_t best = 0;
    for (uint32_t c = 1; c < d->cores; c++)
        if (d->core_free[c] < d->core_free[best]) best = c;
    sim_time_t end = (ready > d->core_free[best] ? ready : d->core_free[best]) + cost;
    d->core_free[best] = end;
    return end;
}

/* Firmware work of `cost` that holds every core (no command is served
 * meanwhile), from when all are free after `ready`: returns when it ends. */
static inline sim_time_t datapath_firmware_all(datapath *d, sim_time_t ready, sim_time_t cost)
{
    sim_time_t start = ready;
    for (uint32_t c = 0; c < d->cores; c++)
        if (d->core_free[c] > start) start = d->core_free[c];
    for (uint32_t c = 0; c < d->cores; c++) d->core_free[c] = start + cost;
    return start + cost;
}

/* `bytes` stream through engine e from `start` on (or once it frees up):
 * returns when the last of them has passed; `start` when e sets no limit. */
static inline sim_time_t datapath_stream(datapath *d, datapath_engine e, sim_time_t start, uint64_t bytes)
{
    if (d->ns_per_byte[e] == 0) return start;
    sim_time_t busy = (sim_time_t)((double)bytes * d->ns_per_byte[e] + 0.5);
    sim_time_t end = (start > d->free_at[e] ? start : d->free_at[e]) + busy;
    d->free_at[e] = end;
    return end;
}

/* Bytes moving into or out of the buffer memory through engine e (the
 * host DMA engine in a direction, to or from the host; an ECC engine, to
 * or from a channel), from `start`: when both e and the memory are done. */
static inline sim_time_t datapath_pass(datapath *d, datapath_engine e, sim_time_t start, uint64_t bytes)
{
    sim_time_t e_end = datapath_stream(d, e, start, bytes), mem_end = datapath_stream(d, DP_MEMORY, start, bytes);
    return e_end > mem_end ? e_end : mem_end;
}

#endif
