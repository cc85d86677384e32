/* SPDX-License-Identifier: MIT */
/* Library-private interface between the source front end and its readers. */
#ifndef VMSA_INPUT_H
#define VMSA_INPUT_H

#include "vmsa/vmsa.h"

/* ---- binary trace.dat (tracedat.c) ---- */
struct vmsa_tracedat;

/* The reader updates *counts and *traits as it goes; both outlive it. */
int vmsa_tracedat_open(struct vmsa_tracedat **out, const char *path,
		       struct vmsa_source_counts *counts, struct vmsa_traits *traits);
void vmsa_tracedat_close(struct vmsa_tracedat *td);

#define VMSA_TRACEDAT_REJECTED 1
/*
 * 0 with *ev filled (an event or a VMSA_EV_LOST marker), VMSA_E_EOF, or
 * VMSA_TRACEDAT_REJECTED with *reason and *record_no set.
 */
int vmsa_tracedat_next(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		       enum vmsa_reject_reason *reason);

#endif
