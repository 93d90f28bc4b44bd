/* The run log's account of one phase (phase_report.c). */
#ifndef SSDLAB_PHASE_REPORT_H
#define SSDLAB_PHASE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "ssd.h"
#include "workload.h"

void report_phase(FILE *log, const cfg *c, const ssd *d, const workload_result *r, size_t index, size_t phases);

#endif
