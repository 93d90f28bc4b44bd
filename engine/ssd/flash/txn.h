/* A flash transaction: one array operation on one die (flash.h), as the
 * flash layer queues it and its schedulers (schedulers.h) see it. */
#ifndef SSDLAB_TXN_H
#define SSDLAB_TXN_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"
#include "ssdlab.h"

/* What a transaction is for; each kind has one owner. */
typedef enum flash_kind {
    TX_READ,     /* host read */
    TX_GC_READ,  /* a reclaim job reads a victim's valid units */
    TX_PROGRAM,  /* a full program unit of one stream */
    TX_ERASE,    /* a reclaimed block */
    TX_MAP_READ, /* a translation unit (DRAM-less mapping) */
    TX_RMW_READ, /* the old data a partial write merges */
    TX_PREFETCH, /* read-ahead into the read cache */
    TX_ZONE_ERASE, /* a zone's block, erased by a zone reset */
    TX_KINDS
} flash_kind;

typedef struct txn {
    struct txn *next;
    ssdlab_request *req; /* host reads, merges, mapping reads */
    uint32_t die, ppa, units, block;
    uint8_t kind, stream;
    bool data_in;     /* cache program: data already moved in, ready at `ready` */
    /* reads under the rber ECC model (media.h): the plan made at the first
     * decode, and how far along it the read is */
    uint8_t ecc_planned : 1, ecc_soft : 1, ecc_failed : 1, ecc_soft_stage : 1;
    uint8_t ecc_retries, ecc_attempt;
    sim_time_t ready;
    uint64_t seq;     /* submission order, for schedulers that need it */
    sim_time_t queued; /* when it joined its die's queue */
    union {
        struct {
            uint32_t padding; /* units of a program unit written only to fill it */
            uint32_t tu;      /* TX_MAP_READ: the translation unit read; zone programs and erases: the zone */
        };
        struct { /* TX_READ, TX_PREFETCH: the logical units of its first and last unit */
            uint32_t lpn, lpn_last;
        };
    };
} txn;

#endif
