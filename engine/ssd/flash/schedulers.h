/* A die's transaction schedulers: what a free die starts next, from its
 * class queues. A table of named entries (controller.scheduler). */
#ifndef SSDLAB_FLASH_SCHEDULERS_H
#define SSDLAB_FLASH_SCHEDULERS_H

#include <stdint.h>

#include "sim.h"
#include "txn.h"

enum { FLASH_CLASS_READ, FLASH_CLASS_PROGRAM, FLASH_CLASS_ERASE, FLASH_CLASSES };

/* A die's queues, each in submission order. */
typedef struct flash_queues {
    txn *head[FLASH_CLASSES], *tail[FLASH_CLASSES];
} flash_queues;

/* What a scheduler may know besides the queues: the time, and what an
 * operation of each class costs the die (for schedulers that weigh a
 * wait against the service it waits for). */
typedef struct flash_pick_view {
    sim_time_t now;
    sim_time_t service[FLASH_CLASSES];
} flash_pick_view;

typedef struct flash_scheduler {
    const char *name;
    const char *description;
    txn *(*pick)(flash_queues *q, const flash_pick_view *v);
    /* The transaction pick will take whenever the die picks, if nothing
     * that joins the queues meanwhile can change that (transactions
     * leave a queue only by a pick, and join at its tail); NULL when it
     * may change, or the queues are empty. NULL for a scheduler whose
     * choice depends on the time. */
    const txn *(*settled)(const flash_queues *q);
} flash_scheduler;

/* controller.scheduler's entries, ended by an entry with a NULL name. */
extern const flash_scheduler flash_schedulers[];

/* Flows a tenant-aware scheduler tells apart: a host transaction's flow is
 * its submission queue (modulo this); the drive's own work is one more. */
enum { FLASH_FLOWS = 64 };

#endif
