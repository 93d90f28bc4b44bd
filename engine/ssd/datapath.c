#include "datapath.h"

#include <stdlib.h>

int datapath_init(datapath *d, const ssd_params *p)
{
    *d = (datapath){.cores = p->cores};
    const uint64_t rate[DP_ENGINES] = {
        [DP_DMA_IN] = p->host_dma_rate,          [DP_DMA_OUT] = p->host_dma_rate,
        [DP_MEMORY] = p->memory_bandwidth,       [DP_ECC_ENCODE] = p->ecc_encode_rate,
        [DP_ECC_DECODE] = p->ecc_decode_rate,
    };
    for (int e = 0; e < DP_ENGINES; e++) d->ns_per_byte[e] = rate[e] ? 1e9 / (double)rate[e] : 0;
    d->core_free = calloc(p->cores, sizeof *d->core_free);
    return d->core_free ? 0 : -1;
}

void datapath_free(datapath *d) { free(d->core_free); }
