/* SPDX-License-Identifier: MIT */
/*
 * The library's ABI rule for the structs a caller allocates (docs/abi.md):
 * each public function that reads or fills one takes its size, which the
 * header's inline wrapper passes as the caller's sizeof.  A struct only
 * grows at its end, and a member added later reads 0 as "not said", so
 *   - a caller's smaller (older) struct is read with the missing members 0,
 *     and filled up to its own size;
 *   - a caller's larger (newer) struct is read only when the bytes this
 *     library does not know are all 0 (the rule of the kernel's
 *     copy_struct_from_user()), and filled with them 0;
 *   - a size below the struct's first version is VMSA_E_INVAL.
 */
#ifndef VMSA_ABI_H
#define VMSA_ABI_H

#include <stddef.h>
#include <string.h>

#include "vmsa/vmsa.h"

/* the end of @member in @type: the size of a version that ended there */
#define VMSA_END_OF(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

/* the sizes of each struct's first version (soname 1, VMSA_1) */
#define VMSA_ABI_MIN_EVENT VMSA_END_OF(struct vmsa_event, instance_len)
#define VMSA_ABI_MIN_SOURCE_COUNTS VMSA_END_OF(struct vmsa_source_counts, unknown_vmscan_events)
#define VMSA_ABI_MIN_TRAITS VMSA_END_OF(struct vmsa_traits, unwrap_on)
#define VMSA_ABI_MIN_OPEN_OPTIONS VMSA_END_OF(struct vmsa_open_options, tracedat_reader)
#define VMSA_ABI_MIN_LIVE_OPTIONS VMSA_END_OF(struct vmsa_live_options, buffer_kb)
#define VMSA_ABI_MIN_STATS_OPTIONS VMSA_END_OF(struct vmsa_stats_options, latency_record_cb)
#define VMSA_ABI_MIN_ANALYZE_OPTIONS VMSA_END_OF(struct vmsa_analyze_options, cgroups)
#define VMSA_ABI_MIN_ANALYZE_RESULT VMSA_END_OF(struct vmsa_analyze_result, why)
#define VMSA_ABI_MIN_REPORT_OPTIONS VMSA_END_OF(struct vmsa_report_options, top)
#define VMSA_ABI_MIN_TOTALS VMSA_END_OF(struct vmsa_totals, lost_markers_without_count)
#define VMSA_ABI_MIN_THRESHOLD VMSA_END_OF(struct vmsa_threshold, message)
#define VMSA_ABI_MIN_COMPARE_COLUMN VMSA_END_OF(struct vmsa_compare_column, nruns)

/* Each struct is of its first version: its first version ends at its last
 * member (a member added later drops its struct's line here, and the size
 * above stays) */
#define VMSA_ABI_FIRST(type, min) \
	_Static_assert(sizeof(type) - (min) < sizeof(void *), #type " ends past " #min)
VMSA_ABI_FIRST(struct vmsa_event, VMSA_ABI_MIN_EVENT);
VMSA_ABI_FIRST(struct vmsa_source_counts, VMSA_ABI_MIN_SOURCE_COUNTS);
VMSA_ABI_FIRST(struct vmsa_traits, VMSA_ABI_MIN_TRAITS);
VMSA_ABI_FIRST(struct vmsa_open_options, VMSA_ABI_MIN_OPEN_OPTIONS);
VMSA_ABI_FIRST(struct vmsa_live_options, VMSA_ABI_MIN_LIVE_OPTIONS);
VMSA_ABI_FIRST(struct vmsa_stats_options, VMSA_ABI_MIN_STATS_OPTIONS);
VMSA_ABI_FIRST(struct vmsa_analyze_options, VMSA_ABI_MIN_ANALYZE_OPTIONS);
VMSA_ABI_FIRST(struct vmsa_analyze_result, VMSA_ABI_MIN_ANALYZE_RESULT);
VMSA_ABI_FIRST(struct vmsa_report_options, VMSA_ABI_MIN_REPORT_OPTIONS);
VMSA_ABI_FIRST(struct vmsa_totals, VMSA_ABI_MIN_TOTALS);
VMSA_ABI_FIRST(struct vmsa_threshold, VMSA_ABI_MIN_THRESHOLD);
VMSA_ABI_FIRST(struct vmsa_compare_column, VMSA_ABI_MIN_COMPARE_COLUMN);

/* *dst (@ours bytes) from the caller's @theirs bytes at @src, as above */
static inline int vmsa_abi_in(void *dst, size_t ours, const void *src, size_t theirs, size_t min)
{
	if (theirs < min)
		return VMSA_E_INVAL;
	if (theirs > ours) {
		for (size_t i = ours; i < theirs; i++)
			if (((const unsigned char *)src)[i])
				return VMSA_E_INVAL;
		theirs = ours;
	}
	memcpy(dst, src, theirs);
	memset((char *)dst + theirs, 0, ours - theirs);
	return 0;
}

/* the caller's @theirs bytes at @dst from *src (@ours bytes), as above */
static inline int vmsa_abi_out(void *dst, size_t theirs, const void *src, size_t ours, size_t min)
{
	if (theirs < min)
		return VMSA_E_INVAL;
	memcpy(dst, src, theirs < ours ? theirs : ours);
	if (theirs > ours)
		memset((char *)dst + ours, 0, theirs - ours);
	return 0;
}

#endif
