/* SPDX-License-Identifier: MIT */
/* The text line decoder: one table row per format, event type and defect. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

#include "vmsa/vmsa.h"
#include "input/input.h"
#include "input/text_scan.h"
#include "asserts.h"

struct line_case {
	const char *what;
	const char *line;
	enum vmsa_line_kind kind;
	enum vmsa_reject_reason reason; /* when rejected */
	enum vmsa_event_type type;	/* when an event */
	const char *comm;
	int32_t pid, cpu;
	uint64_t ts_ns;
	int32_t order;
	enum vmsa_ctx ctx;
	uint64_t nr_scanned, nr_reclaimed;
	enum vmsa_lru lru;
	int file, sync;
	uint64_t lost, nr_pages;
};

#define EV VMSA_LINE_EVENT
#define REJ VMSA_LINE_REJECTED
#define IGN VMSA_LINE_IGNORED

static const struct line_case cases[] = {
	/* ---- layouts ---- */
	{"2.6.35 trace_pipe, no flags column",
	 "           dd-1234  [001]  100.000200: mm_vmscan_direct_reclaim_begin: order=2 "
	 "may_writepage=1 gfp_flags=GFP_HIGHUSER_MOVABLE",
	 EV, 0, VMSA_EV_RECLAIM_BEGIN, "dd", 1234, 1, 100000200000ull, 2, VMSA_CTX_DIRECT},
	{"6.1 trace with 5-char irq/preempt flags",
	 "              dd-1234    [003] d..1.   100.000300: mm_vmscan_direct_reclaim_end: "
	 "nr_reclaimed=30",
	 EV, 0, VMSA_EV_RECLAIM_END, "dd", 1234, 3, 100000300000ull, -1, VMSA_CTX_DIRECT, 0, 30},
	{"4-char flags of 4.x kernels",
	 "  kswapd0-45 [000] d..2  7.5: mm_vmscan_kswapd_wake: nid=0 order=3", EV, 0,
	 VMSA_EV_KSWAPD_WAKE, "kswapd0", 45, 0, 7500000000ull, 3},
	{"(TGID) column",
	 "            bash-1977    (   1977) [000] .....    52.437000: mm_vmscan_wakeup_kswapd: "
	 "nid=0 order=1 gfp_flags=GFP_KERNEL",
	 EV, 0, VMSA_EV_WAKEUP_KSWAPD, "bash", 1977, 0, 52437000000ull, 1},
	{"(TGID) column unknown",
	 "  kworker/0:1-12 (-------) [001] ..... 1.000001: mm_vmscan_kswapd_sleep: nid=0", EV, 0,
	 VMSA_EV_KSWAPD_SLEEP, "kworker/0:1", 12, 1, 1000001000ull},
	{"trace-cmd report -t nanoseconds",
	 "         dd-88    [001]  2047.123456789: mm_vmscan_direct_reclaim_begin: order=0 "
	 "gfp_flags=GFP_KERNEL",
	 EV, 0, VMSA_EV_RECLAIM_BEGIN, "dd", 88, 1, 2047123456789ull, 0, VMSA_CTX_DIRECT},
	/* the kernel's options/latency-format with options/verbose: the time
	 * in hex, us of the clock; a clock not in ns gives its count */
	{"verbose latency format",
	 "         kswapd0      25   0 1 00000001 0000002a [0000007b] 0.123ms (+0.005ms): "
	 "mm_vmscan_kswapd_wake: nid=0 zid=0 order=2",
	 EV, 0, VMSA_EV_KSWAPD_WAKE, "kswapd0", 25, 0, 123000ull, 2},
	{"verbose latency format, a name with a space, all-digit time",
	 " tmux: server 1176  13 0 00000000 00ab12cd [00001388] 5.000ms (+2.000ms): "
	 "mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL",
	 EV, 0, VMSA_EV_RECLAIM_BEGIN, "tmux: server", 1176, 13, 5000000ull, 0, VMSA_CTX_DIRECT},
	{"verbose latency format, a narrower pid column (%5d, older kernels), a counter clock",
	 "              dd  1234   1 9 00000002 00000003 [00000000075bcd15] 123456789 (+0): "
	 "mm_vmscan_direct_reclaim_end: nr_reclaimed=7",
	 EV, 0, VMSA_EV_RECLAIM_END, "dd", 1234, 1, 123456789ull, -1, VMSA_CTX_DIRECT, 0, 7},
	{"verbose latency format, a task without a name",
	 "                      1234   0 1 00000000 00000001 [0000007b] 0.123ms (+0.005ms): "
	 "mm_vmscan_kswapd_sleep: nid=0",
	 EV, 0, VMSA_EV_KSWAPD_SLEEP, "<...>", 1234, 0, 123000ull},
	{"verbose latency format, negative counter times (clocks out of step)",
	 "              dd  1234   1 9 00000002 00000003 [0000000000000010] -5 (+-7): "
	 "mm_vmscan_kswapd_sleep: nid=0",
	 EV, 0, VMSA_EV_KSWAPD_SLEEP, "dd", 1234, 1, 16ull},
	{"verbose latency format, the largest us time that fits in ns",
	 "         kswapd0      25   0 1 00000001 0000002a [004189374bc6a7ef] 0.123ms (+0.005ms): "
	 "mm_vmscan_kswapd_sleep: nid=0",
	 EV, 0, VMSA_EV_KSWAPD_SLEEP, "kswapd0", 25, 0, 18446744073709551000ull},
	{"verbose latency format, a us time past what ns hold: no header",
	 "         kswapd0      25   0 1 00000001 0000002a [004189374bc6a7f0] 0.123ms (+0.005ms): "
	 "mm_vmscan_kswapd_sleep: nid=0",
	 REJ, VMSA_REJECT_BAD_HEADER},
	{"verbose latency format, a pid past 2^31 - 1: no header",
	 "         kswapd0 2147483648   0 1 00000001 0000002a [0000007b] 0.123ms (+0.005ms): "
	 "mm_vmscan_kswapd_sleep: nid=0",
	 REJ, VMSA_REJECT_BAD_HEADER},
	{"verbose latency format, a CPU past 2^20: no header",
	 "         kswapd0      25 1048577 1 00000001 0000002a [0000007b] 0.123ms (+0.005ms): "
	 "mm_vmscan_kswapd_sleep: nid=0",
	 REJ, VMSA_REJECT_BAD_HEADER},
	{"verbose latency format, a preempt count of 7 digits: no header",
	 "         kswapd0      25   0 1 0000001 00000002aa [0000007b] 0.123ms (+0.005ms): "
	 "mm_vmscan_kswapd_sleep: nid=0",
	 REJ, VMSA_REJECT_BAD_HEADER},
	{"verbose latency format without its index: no header",
	 "         kswapd0      25   0 1 00000001 [0000007b] 0.123ms (+0.005ms): "
	 "mm_vmscan_kswapd_sleep: nid=0",
	 REJ, VMSA_REJECT_BAD_HEADER},
	{"verbose latency format, relative time not in ms: no header",
	 "         kswapd0      25   0 1 00000001 0000002a [0000007b] 0.123ms (+5): "
	 "mm_vmscan_kswapd_sleep: nid=0",
	 REJ, VMSA_REJECT_BAD_HEADER},
	{"integer timestamps (counter clock) are taken as ns",
	 "  dd-88 [001] 123456: mm_vmscan_direct_reclaim_begin: order=0", EV, 0,
	 VMSA_EV_RECLAIM_BEGIN, "dd", 88, 1, 123456, 0, VMSA_CTX_DIRECT},
	{"perf script",
	 "        kswapd0    46 [001]   123.456789: vmscan:mm_vmscan_kswapd_wake: nid=0 order=0",
	 EV, 0, VMSA_EV_KSWAPD_WAKE, "kswapd0", 46, 1, 123456789000ull, 0},
	{"perf script pid/tid and a name with a space",
	 "  Web Content  4100/4113 [002]  9.000001: vmscan:mm_vmscan_direct_reclaim_begin: "
	 "order=0 gfp_flags=GFP_HIGHUSER_MOVABLE",
	 EV, 0, VMSA_EV_RECLAIM_BEGIN, "Web Content", 4113, 2, 9000001000ull, 0, VMSA_CTX_DIRECT},
	{"perf script -F +period: the period before the event",
	 "        kswapd0    46 [001]   123.456789:          1 vmscan:mm_vmscan_kswapd_wake: nid=0 "
	 "order=1",
	 EV, 0, VMSA_EV_KSWAPD_WAKE, "kswapd0", 46, 1, 123456789000ull, 1},
	{"perf script of a recording without CPUs (perf record -- cmd)",
	 "            java  3101  3021.480100: vmscan:mm_vmscan_direct_reclaim_begin: order=1 "
	 "gfp_flags=GFP_KERNEL",
	 EV, 0, VMSA_EV_RECLAIM_BEGIN, "java", 3101, -1, 3021480100000ull, 1, VMSA_CTX_DIRECT},
	{"perf script without CPUs, pid/tid and a name with a space",
	 "  Web Content  4100/4113  9.000001: vmscan:mm_vmscan_direct_reclaim_end: nr_reclaimed=4",
	 EV, 0, VMSA_EV_RECLAIM_END, "Web Content", 4113, -1, 9000001000ull, -1, VMSA_CTX_DIRECT,
	 0, 4},
	{"trace-cmd report -l: CPU and flags one word, no brackets",
	 " kswapd0-26      1.....    12.989810: mm_vmscan_kswapd_wake: nid=0 order=2", EV, 0,
	 VMSA_EV_KSWAPD_WAKE, "kswapd0", 26, 1, 12989810000ull, 2},
	{"trace-cmd report -l, a name of 8 bytes cut from a longer one",
	 " kworker/-22      0dNh1.     7.760550: mm_vmscan_direct_reclaim_begin: order=0", EV, 0,
	 VMSA_EV_RECLAIM_BEGIN, "kworker/", 22, 0, 7760550000ull, 0, VMSA_CTX_DIRECT},
	{"the kernel's latency format: microseconds since the buffer's start",
	 "    bash-1234      1d..2.  123us : mm_vmscan_kswapd_wake: nid=0 order=2", EV, 0,
	 VMSA_EV_KSWAPD_WAKE, "bash", 1234, 1, 123000ull, 2},
	{"the kernel's latency format, a mark after the time",
	 "  <idle>-0         0d.h2. 45678us!: mm_vmscan_wakeup_kswapd: nid=0 order=1", EV, 0,
	 VMSA_EV_WAKEUP_KSWAPD, "<idle>", 0, 0, 45678000ull, 1},
	{"trace-cmd report -R -l: the flags as a number",
	 "     hog-343     0-0x24    12.989554: mm_vmscan_direct_reclaim_end: nr_reclaimed=9", EV,
	 0, VMSA_EV_RECLAIM_END, "hog", 343, 0, 12989554000ull, -1, VMSA_CTX_DIRECT, 0, 9},
	{"trace-cmd report --ts-diff: (+delta) before the event",
	 "      kswapd0-26    [001]    12.989810: (+176)   mm_vmscan_kswapd_wake: nid=0 order=0",
	 EV, 0, VMSA_EV_KSWAPD_WAKE, "kswapd0", 26, 1, 12989810000ull, 0},
	{"trace-cmd report --ts-diff, a malformed delta",
	 "      kswapd0-26    [001]    12.989810: (+17x)   mm_vmscan_kswapd_wake: nid=0 order=0",
	 REJ, VMSA_REJECT_BAD_HEADER},
	{"trace-cmd report of a buffer instance: its name first",
	 "dat:          kswapd0-26    [001]    12.989810: mm_vmscan_kswapd_wake: nid=0 order=3",
	 EV, 0, VMSA_EV_KSWAPD_WAKE, "kswapd0", 26, 1, 12989810000ull, 3},
	{"a task named with ': ' is no instance",
	 "     tmux: server-1176  [000] .....  1.0: mm_vmscan_kswapd_sleep: nid=0", EV, 0,
	 VMSA_EV_KSWAPD_SLEEP, "tmux: server", 1176, 0, 1000000000ull},
	{"a task named with ': ', pasted without its leading spaces",
	 "tmux: server-1176 [000] 1.0: mm_vmscan_kswapd_sleep: nid=0", EV, 0,
	 VMSA_EV_KSWAPD_SLEEP, "tmux: server", 1176, 0, 1000000000ull},
	{"a task named with ': ' after an instance's name",
	 "dat:     tmux: server-1176  [000] .....  1.0: mm_vmscan_kswapd_sleep: nid=0", EV, 0,
	 VMSA_EV_KSWAPD_SLEEP, "tmux: server", 1176, 0, 1000000000ull},
	{"an instance's name right-aligned (trace-cmd report of several files)",
	 "      dat:          kswapd0-26    [001]    12.989810: mm_vmscan_kswapd_wake: nid=0 "
	 "order=3",
	 EV, 0, VMSA_EV_KSWAPD_WAKE, "kswapd0", 26, 1, 12989810000ull, 3},
	{"an instance's name and the latency format",
	 "dat: kworker/-22      0.....     7.760550: mm_vmscan_kswapd_sleep: nid=0", EV, 0,
	 VMSA_EV_KSWAPD_SLEEP, "kworker/", 22, 0, 7760550000ull},
	{"no instance: a name with a colon pasted without its leading spaces",
	 "kworker/u4:2 x-7 [000] 1.0: mm_vmscan_kswapd_sleep: nid=0", EV, 0, VMSA_EV_KSWAPD_SLEEP,
	 "kworker/u4:2 x", 7, 0, 1000000000ull},
	{"a UTF-8 byte-order mark before a file's first line",
	 "\xEF\xBB\xBF         kswapd0-45    [000] .....  7.0: mm_vmscan_kswapd_sleep: nid=0", EV, 0,
	 VMSA_EV_KSWAPD_SLEEP, "kswapd0", 45, 0, 7000000000ull},
	{"a line quoted in a mail's reply",
	 "> >          kswapd0-45    [000] .....  7.0: mm_vmscan_kswapd_sleep: nid=0", EV, 0,
	 VMSA_EV_KSWAPD_SLEEP, "kswapd0", 45, 0, 7000000000ull},
	{"a quoted line, no space after the quoting",
	 ">>kswapd0-45 [000] 7.0: mm_vmscan_kswapd_sleep: nid=0", EV, 0, VMSA_EV_KSWAPD_SLEEP,
	 "kswapd0", 45, 0, 7000000000ull},
	/* ---- task names ---- */
	{"name with spaces, slash, dot, colon and dashes",
	 " kworker/u4:2 x.y-z-77 [000] ..... 1.000000: mm_vmscan_direct_reclaim_begin: order=0",
	 EV, 0, VMSA_EV_RECLAIM_BEGIN, "kworker/u4:2 x.y-z", 77, 0, 1000000000ull, 0,
	 VMSA_CTX_DIRECT},
	{"name ending in digits",
	 "   java-7-2-4242 [000] 1.000000: mm_vmscan_direct_reclaim_begin: order=0", EV, 0,
	 VMSA_EV_RECLAIM_BEGIN, "java-7-2", 4242, 0, 1000000000ull, 0, VMSA_CTX_DIRECT},
	{"name holding brackets",
	 "  a [1] b-5 [002] 1.000000: mm_vmscan_direct_reclaim_begin: order=0", EV, 0,
	 VMSA_EV_RECLAIM_BEGIN, "a [1] b", 5, 2, 1000000000ull, 0, VMSA_CTX_DIRECT},
	{"<...> placeholder name",
	 "           <...>-77      [001] .....   100.004000: mm_vmscan_direct_reclaim_end: "
	 "nr_reclaimed=0",
	 EV, 0, VMSA_EV_RECLAIM_END, "<...>", 77, 1, 100004000000ull, -1, VMSA_CTX_DIRECT},
	{"pid 0", "          <idle>-0     [000] d.s2 5.0: mm_vmscan_wakeup_kswapd: nid=0 order=0",
	 EV, 0, VMSA_EV_WAKEUP_KSWAPD, "<idle>", 0, 0, 5000000000ull, 0},
	/* ---- events ---- */
	{"memcg reclaim begin",
	 "  a-1 [000] 1.0: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL", EV, 0,
	 VMSA_EV_RECLAIM_BEGIN, "a", 1, 0, 1000000000ull, 0, VMSA_CTX_MEMCG},
	{"memcg reclaim end", "  a-1 [000] 1.0: mm_vmscan_memcg_reclaim_end: nr_reclaimed=7", EV,
	 0, VMSA_EV_RECLAIM_END, "a", 1, 0, 1000000000ull, -1, VMSA_CTX_MEMCG, 0, 7},
	{"softlimit begin",
	 "  a-1 [000] 1.0: mm_vmscan_memcg_softlimit_reclaim_begin: order=0 gfp_flags=GFP_KERNEL",
	 EV, 0, VMSA_EV_RECLAIM_BEGIN, "a", 1, 0, 1000000000ull, 0, VMSA_CTX_SOFTLIMIT},
	{"softlimit end", "  a-1 [000] 1.0: mm_vmscan_memcg_softlimit_reclaim_end: nr_reclaimed=1",
	 EV, 0, VMSA_EV_RECLAIM_END, "a", 1, 0, 1000000000ull, -1, VMSA_CTX_SOFTLIMIT, 0, 1},
	{"node reclaim begin",
	 "  a-1 [000] 1.0: mm_vmscan_node_reclaim_begin: nid=0 order=1 gfp_flags=GFP_KERNEL", EV,
	 0, VMSA_EV_RECLAIM_BEGIN, "a", 1, 0, 1000000000ull, 1, VMSA_CTX_NODE},
	{"node reclaim end", "  a-1 [000] 1.0: mm_vmscan_node_reclaim_end: nr_reclaimed=3", EV, 0,
	 VMSA_EV_RECLAIM_END, "a", 1, 0, 1000000000ull, -1, VMSA_CTX_NODE, 0, 3},
	{"wakeup_kswapd with zid (2.6.35)",
	 "  a-1 [000] 1.0: mm_vmscan_wakeup_kswapd: nid=0 zid=2 order=3", EV, 0,
	 VMSA_EV_WAKEUP_KSWAPD, "a", 1, 0, 1000000000ull, 3},
	{"lru_isolate 6.1 inactive_file, classzone=",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 "
	 "nr_requested=32 nr_scanned=40 nr_skipped=8 nr_taken=32 lru=inactive_file",
	 EV, 0, VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, 0, 0, 40, 0,
	 VMSA_LRU_INACTIVE_FILE, 1, -1},
	{"lru_isolate 5.x classzone_idx= and active_anon",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: isolate_mode=0 classzone_idx=2 order=0 "
	 "nr_requested=32 nr_scanned=12 nr_skipped=0 nr_taken=12 lru=active_anon",
	 EV, 0, VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, 0, 0, 12, 0, VMSA_LRU_ACTIVE_ANON,
	 0, -1},
	{"lru_isolate 2.6.35 (no list)",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: isolate_mode=0 order=0 nr_requested=32 "
	 "nr_scanned=32 nr_taken=30 contig_taken=0 contig_dirty=0 contig_failed=0",
	 EV, 0, VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, 0, 0, 32, 0, VMSA_LRU_UNKNOWN, -1,
	 -1},
	{"lru_isolate 3.x file=",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: isolate_mode=1 order=0 nr_requested=32 "
	 "nr_scanned=9 nr_taken=9 file=1",
	 EV, 0, VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, 0, 0, 9, 0, VMSA_LRU_UNKNOWN, 1, -1},
	{"lru_isolate numeric lru",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=5 nr_taken=5 lru=2", EV, 0,
	 VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, -1, 0, 5, 0, VMSA_LRU_INACTIVE_FILE, 1, -1},
	{"writepage 2.6.35 file sync",
	 "  a-1 [000] 1.0: mm_vmscan_writepage: page=ffffea0000001234 pfn=4660 file=1 sync_io=1",
	 EV, 0, VMSA_EV_WRITE, "a", 1, 0, 1000000000ull, -1, 0, 0, 0, 0, 1, 1},
	{"writepage 3.x flags anon sync",
	 "  a-1 [000] 1.0: mm_vmscan_writepage: page=ffffea0000001234 pfn=4660 "
	 "flags=RECLAIM_WB_ANON|RECLAIM_WB_SYNC",
	 EV, 0, VMSA_EV_WRITE, "a", 1, 0, 1000000000ull, -1, 0, 0, 0, 0, 0, 1},
	{"write_folio 6.1",
	 "  a-1 [000] 1.0: mm_vmscan_write_folio: page=0000000012345678 pfn=0x1234 "
	 "flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC",
	 EV, 0, VMSA_EV_WRITE, "a", 1, 0, 1000000000ull, -1, 0, 0, 0, 0, 1, 0},
	{"write_folio with nr_pages (kernel/ series)",
	 "  a-1 [000] 1.0: mm_vmscan_write_folio: page=0000000012345678 pfn=0x1234 nr_pages=16 "
	 "flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC",
	 EV, 0, VMSA_EV_WRITE, "a", 1, 0, 1000000000ull, -1, 0, 0, 0, 0, 1, 0, 0, 16},
	{"shrink_inactive 6.1",
	 "  a-1 [000] 1.0: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=31 "
	 "nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 "
	 "nr_activate_file=1 nr_ref_keep=0 nr_unmap_fail=0 priority=12 "
	 "flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC",
	 EV, 0, VMSA_EV_SHRINK_INACTIVE, "a", 1, 0, 1000000000ull, -1, 0, 32, 31, 0, 1, -1},
	{"shrink_active 6.1",
	 "  a-1 [000] 1.0: mm_vmscan_lru_shrink_active: nid=0 nr_taken=32 nr_active=0 "
	 "nr_deactivated=32 nr_referenced=0 priority=12 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC",
	 EV, 0, VMSA_EV_SHRINK_ACTIVE, "a", 1, 0, 1000000000ull, -1, 0, 0, 0, 0, 0, -1},
	{"throttled",
	 "  a-1 [000] 1.0: mm_vmscan_throttled: nid=0 usec_timeout=100000 usect_delayed=20000 "
	 "reason=VMSCAN_THROTTLE_WRITEBACK",
	 EV, 0, VMSA_EV_THROTTLED, "a", 1, 0, 1000000000ull},
	{"shrink_slab_start",
	 "  a-1 [000] 1.0: mm_shrink_slab_start: super_cache_scan+0x0/0x1a0 00000000a1b2c3d4: "
	 "nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 120 delta 3 total_scan 3 "
	 "priority 12",
	 EV, 0, VMSA_EV_SLAB_START, "a", 1, 0, 1000000000ull},
	{"shrink_slab_end",
	 "  a-1 [000] 1.0: mm_shrink_slab_end: super_cache_scan+0x0/0x1a0 00000000a1b2c3d4: "
	 "nid: 0 unused scan count 0 new scan count 3 total_scan 0 last shrinker return val 7",
	 EV, 0, VMSA_EV_SLAB_END, "a", 1, 0, 1000000000ull},
	/* ---- markers and other lines ---- */
	{"trace_pipe lost marker", "CPU:1 [LOST 12 EVENTS]", VMSA_LINE_LOST, 0, VMSA_EV_LOST,
	 .lost = 12},
	{"trace file lost marker, count unknown", "CPU:3 [LOST EVENTS]", VMSA_LINE_LOST, 0,
	 VMSA_EV_LOST, .lost = 0},
	{"trace-cmd dropped marker", "CPU:0 [3456 EVENTS DROPPED]", VMSA_LINE_LOST, 0,
	 VMSA_EV_LOST, .lost = 3456},
	{"trace-cmd dropped, count unknown", "CPU:0 [EVENTS DROPPED]", VMSA_LINE_LOST, 0,
	 VMSA_EV_LOST, .lost = 0},
	{"trace-cmd dropped marker of a buffer instance", "dat: CPU:1 [6805 EVENTS DROPPED]",
	 VMSA_LINE_LOST, 0, VMSA_EV_LOST, .lost = 6805},
	{"a quoted lost marker", "> CPU:1 [LOST 12 EVENTS]", VMSA_LINE_LOST, 0, VMSA_EV_LOST,
	 .lost = 12},
	{"a quoted comment", "> # tracer: nop", IGN},
	{"trace file header: 41244 events overwritten",
	 "# entries-in-buffer/entries-written: 6/41250   #P:2", VMSA_LINE_LOST, 0, VMSA_EV_LOST,
	 .lost = 41244},
	{"trace file header, quoted", "> # entries-in-buffer/entries-written: 1/3   #P:1",
	 VMSA_LINE_LOST, 0, VMSA_EV_LOST, .lost = 2},
	{"trace file header: nothing overwritten",
	 "# entries-in-buffer/entries-written: 41250/41250   #P:2", IGN},
	{"trace file header: an empty buffer", "# entries-in-buffer/entries-written: 0/0   #P:2",
	 IGN},
	{"comment", "# tracer: nop", IGN},
	{"perf script -g: a frame naming the tracepoint",
	 "\tffffffff812c5e1d trace_event_raw_event_mm_vmscan_kswapd_wake+0x9d ([kernel.kallsyms])",
	 IGN},
	{"perf script -g: a frame without its dso",
	 "\t    ffffffff812c5e1d __traceiter_mm_vmscan_kswapd_wake+0x2d", IGN},
	{"a line naming vmscan, not indented: no frame", "ffffffff812c5e1d mm_vmscan_kswapd_wake",
	 REJ, VMSA_REJECT_BAD_HEADER},
	{"blank", "   ", IGN},
	{"trace-cmd header", "cpus=2", IGN},
	{"other event",
	 "  bash-1 [000] 1.0: sched_switch: prev_comm=bash prev_pid=1 ==> next_comm=swapper/0",
	 IGN},
	{"future vmscan event", "  a-1 [000] 1.0: mm_vmscan_something_new: x=1", IGN},
	{"garbage", "\x01\x02\xff binary junk [", IGN},
	/* header scanning: the word-at-a-time paths and their slow cases */
	{"CPU of 8 digits", "  a-1 [00000007] 1.5: mm_vmscan_wakeup_kswapd: nid=0 order=2", EV, 0,
	 VMSA_EV_WAKEUP_KSWAPD, "a", 1, 7, 1500000000ull, 2},
	{"tabs between columns", "  a-1 [003]\t.....\t \t2.25: mm_vmscan_wakeup_kswapd: order=1", EV, 0,
	 VMSA_EV_WAKEUP_KSWAPD, "a", 1, 3, 2250000000ull, 1},
	{"a 40-column task name", "                        a very long task name here-77 [001] "
	 "3.000001: mm_vmscan_wakeup_kswapd: order=0", EV, 0, VMSA_EV_WAKEUP_KSWAPD,
	 "a very long task name here", 77, 1, 3000001000ull, 0},
	{"a pid of 10 digits", "  a-0000000042 [001] 1.0: mm_vmscan_wakeup_kswapd: order=0", EV, 0,
	 VMSA_EV_WAKEUP_KSWAPD, "a", 42, 1, 1000000000ull, 0},
	{"a pid of 11 digits", "  a-00000000042 [001] 1.0: mm_vmscan_kswapd_sleep: nid=0", REJ,
	 VMSA_REJECT_BAD_HEADER},
	{"a pid over 2^31", "  a-2147483648 [001] 1.0: mm_vmscan_kswapd_sleep: nid=0", REJ,
	 VMSA_REJECT_BAD_HEADER},
	{"CPU over 2^20 is not a CPU column", "  a-1 [2097152] 1.0: mm_vmscan_kswapd_sleep: nid=0", REJ,
	 VMSA_REJECT_BAD_HEADER},
	{"a space inside the event name", "  a-1 [000] 1.0: mm_vmscan kswapd_sleep: nid=0", IGN},
	{"a space inside a vmscan event name",
	 "  a-1 [000] 1.0: mm_vmscan_kswapd sleep: nid=0", REJ, VMSA_REJECT_BAD_HEADER},
	/* ---- rejected ---- */
	{"missing order", "  a-1 [000] 1.0: mm_vmscan_direct_reclaim_begin: gfp_flags=GFP_KERNEL",
	 REJ, VMSA_REJECT_MISSING_FIELD},
	{"non-numeric order", "  a-1 [000] 1.0: mm_vmscan_direct_reclaim_begin: order=x", REJ,
	 VMSA_REJECT_BAD_NUMBER},
	{"order out of range", "  a-1 [000] 1.0: mm_vmscan_kswapd_wake: nid=0 order=99", REJ,
	 VMSA_REJECT_OUT_OF_RANGE},
	{"negative count",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=-5 nr_taken=0 lru=inactive_anon",
	 REJ, VMSA_REJECT_OUT_OF_RANGE},
	{"64-bit overflow",
	 "  a-1 [000] 1.0: mm_vmscan_direct_reclaim_end: nr_reclaimed=99999999999999999999", REJ,
	 VMSA_REJECT_OUT_OF_RANGE},
	{"2^64 - 1 is a number",
	 "  a-1 [000] 1.0: mm_vmscan_direct_reclaim_end: nr_reclaimed=18446744073709551615", EV, 0,
	 VMSA_EV_RECLAIM_END, "a", 1, 0, 1000000000ull, -1, VMSA_CTX_DIRECT, 0,
	 18446744073709551615ull},
	{"2^64 is out of range",
	 "  a-1 [000] 1.0: mm_vmscan_direct_reclaim_end: nr_reclaimed=18446744073709551616", REJ,
	 VMSA_REJECT_OUT_OF_RANGE},
	/* the abbreviations of a 2016 mmotm tree: the lists they stand for */
	{"mmotm ia_anon",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=7 nr_taken=1 lru=ia_anon", EV, 0,
	 VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, -1, 0, 7, 0, VMSA_LRU_INACTIVE_ANON, 0},
	{"mmotm ac_file",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=8 nr_taken=1 lru=ac_file", EV, 0,
	 VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, -1, 0, 8, 0, VMSA_LRU_ACTIVE_FILE, 1},
	/* lru= names this tool does not know (a later kernel's): kept, kind by name */
	{"unknown lru name, anon",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=7 nr_taken=1 lru=cold_anon", EV, 0,
	 VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, -1, 0, 7, 0, VMSA_LRU_OTHER, 0},
	{"unknown lru name, file",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=8 nr_taken=1 lru=secondary_file", EV, 0,
	 VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, -1, 0, 8, 0, VMSA_LRU_OTHER, 1},
	{"unknown lru name, neither",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=9 nr_taken=1 lru=purple", EV, 0,
	 VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, -1, 0, 9, 0, VMSA_LRU_OTHER, -1},
	{"unknown lru name, both",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=9 nr_taken=1 lru=anon_file", EV, 0,
	 VMSA_EV_LRU_ISOLATE, "a", 1, 0, 1000000000ull, -1, 0, 9, 0, VMSA_LRU_OTHER, -1},
	{"lru value that is no name",
	 "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=1 nr_taken=1 lru=Purple!", REJ,
	 VMSA_REJECT_BAD_VALUE},
	{"unknown reclaim flag",
	 "  a-1 [000] 1.0: mm_vmscan_write_folio: page=0 pfn=0x1 flags=RECLAIM_WB_PURPLE", REJ,
	 VMSA_REJECT_BAD_VALUE},
	{"write without file or flags", "  a-1 [000] 1.0: mm_vmscan_writepage: page=0 pfn=1",
	 REJ, VMSA_REJECT_MISSING_FIELD},
	{"vmscan line without a header", "garbage mm_vmscan_direct_reclaim_begin: order=0", REJ,
	 VMSA_REJECT_BAD_HEADER},
};

START_TEST(test_line_table)
{
	const struct line_case *c = &cases[_i];
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason reason = VMSA_REJECT__COUNT;
	enum vmsa_line_kind k = vmsa_text_parse_line(p, c->line, strlen(c->line), &ev, &reason);
	ck_assert_msg(k == c->kind, "%s: kind %d, want %d", c->what, k, c->kind);
	if (k == REJ)
		ck_assert_msg(reason == c->reason, "%s: reason %s", c->what,
			      vmsa_reject_reason_name(reason));
	if (k == VMSA_LINE_LOST)
		ck_assert_msg(ev.type == VMSA_EV_LOST && ev.lost == c->lost, "%s", c->what);
	if (k == EV) {
		ck_assert_msg(ev.type == c->type, "%s: type %d", c->what, ev.type);
		ck_assert_msg(ev.comm_len == strlen(c->comm) &&
				      memcmp(ev.comm, c->comm, ev.comm_len) == 0,
			      "%s: comm '%.*s'", c->what, (int)ev.comm_len, ev.comm);
		ck_assert_msg(ev.pid == c->pid, "%s: pid %d", c->what, ev.pid);
		ck_assert_msg(ev.cpu == c->cpu, "%s: cpu %d", c->what, ev.cpu);
		ck_assert_msg(ev.ts_ns == c->ts_ns, "%s: ts %llu", c->what,
			      (unsigned long long)ev.ts_ns);
		if (c->type == VMSA_EV_RECLAIM_BEGIN || c->type == VMSA_EV_KSWAPD_WAKE ||
		    c->type == VMSA_EV_WAKEUP_KSWAPD)
			ck_assert_msg(ev.order == c->order, "%s: order %d", c->what, ev.order);
		if (c->type == VMSA_EV_RECLAIM_BEGIN || c->type == VMSA_EV_RECLAIM_END)
			ck_assert_msg(ev.ctx == c->ctx, "%s: ctx %d", c->what, ev.ctx);
		if (c->type == VMSA_EV_LRU_ISOLATE || c->type == VMSA_EV_SHRINK_INACTIVE)
			ck_assert_msg(ev.nr_scanned == c->nr_scanned, "%s: nr_scanned", c->what);
		if (c->type == VMSA_EV_RECLAIM_END || c->type == VMSA_EV_SHRINK_INACTIVE)
			ck_assert_msg(ev.nr_reclaimed == c->nr_reclaimed, "%s: nr_reclaimed",
				      c->what);
		if (c->type == VMSA_EV_LRU_ISOLATE)
			ck_assert_msg(ev.lru == c->lru, "%s: lru %d", c->what, ev.lru);
		if (c->type == VMSA_EV_LRU_ISOLATE || c->type == VMSA_EV_WRITE ||
		    c->type == VMSA_EV_SHRINK_INACTIVE || c->type == VMSA_EV_SHRINK_ACTIVE)
			ck_assert_msg(ev.file == c->file, "%s: file %d", c->what, ev.file);
		if (c->type == VMSA_EV_WRITE) {
			ck_assert_msg(ev.sync == c->sync, "%s: sync %d", c->what, ev.sync);
			ck_assert_msg(ev.nr_pages == c->nr_pages, "%s: nr_pages", c->what);
		}
	}
	vmsa_text_parser_free(p);
}
END_TEST

START_TEST(test_throttle_and_slab_values)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason r;
	const char *t = "  a-1 [000] 1.0: mm_vmscan_throttled: nid=0 usec_timeout=100000 "
			"usect_delayed=20000 reason=VMSCAN_THROTTLE_ISOLATED|VMSCAN_THROTTLE_CONGESTED";
	ck_assert_int_eq(vmsa_text_parse_line(p, t, strlen(t), &ev, &r), EV);
	ck_assert_int_eq(ev.usec_delayed, 20000);
	ck_assert_int_eq(ev.usec_timeout, 100000);
	ck_assert_uint_eq(ev.throttle_reasons,
			  (1u << VMSA_THROTTLE_ISOLATED) | (1u << VMSA_THROTTLE_CONGESTED));
	const char *s = "  a-1 [000] 1.0: mm_shrink_slab_end: f+0x0/0x1 0000: nid: 0 unused scan "
			"count 0 new scan count 3 total_scan 0 last shrinker return val -1";
	ck_assert_int_eq(vmsa_text_parse_line(p, s, strlen(s), &ev, &r), EV);
	ck_assert_int_eq(ev.slab_freed, -1);
	/* trace-cmd report -R: the labelled events' record fields as k=v */
	const char *rs = "  a-1 [000] 1.0: mm_shrink_slab_start:  shr=0xffff888000fedc30 "
			 "shrink=super_cache_scan+0x0 nid=1 nr_objects_to_shrink=0 gfp_flags=0xcc0 "
			 "cache_items=14 delta=7 total_scan=7 priority=9";
	ck_assert_int_eq(vmsa_text_parse_line(p, rs, strlen(rs), &ev, &r), EV);
	ck_assert_int_eq(ev.type, VMSA_EV_SLAB_START);
	ck_assert_int_eq(ev.nid, 1);
	ck_assert_int_eq(ev.priority, 9);
	const char *re = "  a-1 [000] 1.0: mm_shrink_slab_end:    shr=0xffff888000fedc30 nid=1 "
			 "shrink=super_cache_scan+0x0 unused_scan=0 new_scan=5 retval=31 total_scan=0";
	ck_assert_int_eq(vmsa_text_parse_line(p, re, strlen(re), &ev, &r), EV);
	ck_assert_int_eq(ev.slab_freed, 31);
	/* a k=v line without the required field is still rejected */
	const char *rb = "  a-1 [000] 1.0: mm_shrink_slab_end: shr=0x1 nid=1 new_scan=5";
	ck_assert_int_eq(vmsa_text_parse_line(p, rb, strlen(rb), &ev, &r), REJ);
	ck_assert_int_eq(r, VMSA_REJECT_MISSING_FIELD);
	vmsa_text_parser_free(p);
}
END_TEST

/* The label search and the byte comparison against the obvious loops, at
 * every start, end and length (their 16-byte paths and their tails). */
static const char *naive_find(const char *p, const char *e, const char *lit, size_t n)
{
	for (; (size_t)(e - p) >= n; p++)
		if (memcmp(p, lit, n) == 0)
			return p + n;
	return NULL;
}

START_TEST(test_find_lit_and_same_bytes)
{
	char text[96];
	/* few letters, so that first and last bytes match often */
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = "ab a"[(i * 7 + i / 5) % 4];
	static const char *const lits[] = {"ab", "a a", "ab ab", "b aa", "a ab ab a",
					   "ab a ab ab a ab a", "zz", "a"};
	for (size_t l = 0; l < sizeof(lits) / sizeof(lits[0]); l++) {
		size_t n = strlen(lits[l]);
		for (size_t b = 0; b < sizeof(text); b++)
			for (size_t e = b; e <= sizeof(text); e++)
				ck_assert_ptr_eq(vmsa_text_find_lit(text + b, text + e, lits[l], n),
						 naive_find(text + b, text + e, lits[l], n));
	}
	char x[80], y[80];
	for (size_t n = 0; n <= 64; n++)
		for (size_t d = 0; d <= n; d++) {
			memset(x, 'q', sizeof(x));
			memset(y, 'q', sizeof(y));
			if (d < n)
				y[d] = 'r'; /* one byte differs, at every place */
			ck_assert_int_eq(vmsa_same_bytes(x, y, n), d == n);
		}
}
END_TEST

/* mm_shrink_slab_start's priority is its last word; a label is a whole word */
START_TEST(test_slab_labels)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason r;
	const char *a = "  a-1 [000] 1.0: mm_shrink_slab_start: f+0x0/0x1 0000: nid: 1 objects to "
			"shrink 0 gfp_flags GFP_KERNEL cache items 3 delta 1 total_scan 1 priority 7";
	ck_assert_int_eq(vmsa_text_parse_line(p, a, strlen(a), &ev, &r), EV);
	ck_assert_int_eq(ev.priority, 7);
	/* "xpriority 5" is not the label: the real one comes before it */
	const char *b = "  a-1 [000] 1.0: mm_shrink_slab_start: f+0x0/0x1 0000: nid: 1 objects to "
			"shrink 0 gfp_flags GFP_KERNEL cache items 3 delta 1 priority 4 xpriority 5";
	ck_assert_int_eq(vmsa_text_parse_line(p, b, strlen(b), &ev, &r), EV);
	ck_assert_int_eq(ev.priority, 4);
	vmsa_text_parser_free(p);
}
END_TEST

START_TEST(test_nul_bytes_in_name)
{
	static const char line[] = "  a\0b-9 [000] 1.0: mm_vmscan_kswapd_sleep: nid=0";
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason r;
	ck_assert_int_eq(vmsa_text_parse_line(p, line, sizeof(line) - 1, &ev, &r), EV);
	ck_assert_uint_eq(ev.comm_len, 3);
	ck_assert(memcmp(ev.comm, "a\0b", 3) == 0);
	ck_assert_int_eq(ev.pid, 9);
	vmsa_text_parser_free(p);
}
END_TEST

START_TEST(test_traits_follow_field_names)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason r;
	const char *a = "  a-1 [000] 1.0: mm_vmscan_writepage: page=0 pfn=1 file=1 sync_io=0";
	const char *b = "  a-1 [000] 1.0: mm_vmscan_write_folio: page=0 pfn=0x1 "
			"flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC";
	const char *c = "  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=1 nr_taken=1 "
			"lru=inactive_anon";
	vmsa_text_parse_line(p, a, strlen(a), &ev, &r);
	vmsa_text_parse_line(p, b, strlen(b), &ev, &r);
	vmsa_text_parse_line(p, c, strlen(c), &ev, &r);
	const struct vmsa_traits *t = vmsa_text_parser_traits(p);
	ck_assert_uint_eq(t->writes_with_sync_field, 1);
	ck_assert_uint_eq(t->writes_with_flags, 1);
	ck_assert_uint_eq(t->write_folio_events, 1);
	ck_assert_uint_eq(t->lines_with_lru_name, 1);
	ck_assert_int_eq(t->dialect, VMSA_DIALECT_FTRACE);
	vmsa_text_parser_free(p);
}
END_TEST

/* trace-cmd report of several files names each in its "cpus=" line (one
 * file's says "cpus=N" alone); each such line is one file, ignored */
START_TEST(test_report_files)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason r;
	static const char *const l[] = {
		"cpus=2", " a.dat: cpus=2", "b-run.dat: cpus=4", "dat: cpu=2", "x: cpus",
		"       dat:  a-1 [000] 1.0: mm_vmscan_kswapd_sleep: nid=0",
		/* a name with spaces (trace-cmd prints the base name as it is),
		 * trailing blanks; not: no digits, no name, other words after */
		"my run.dat: cpus=2", "  c d.dat: cpus=16  ", "e.dat: cpus=", ": cpus=2",
		"f.dat: cpus=2 x",
	};
	static const enum vmsa_line_kind k[] = {
		VMSA_LINE_IGNORED, VMSA_LINE_IGNORED, VMSA_LINE_IGNORED, VMSA_LINE_IGNORED,
		VMSA_LINE_IGNORED, VMSA_LINE_EVENT,   VMSA_LINE_IGNORED, VMSA_LINE_IGNORED,
		VMSA_LINE_IGNORED, VMSA_LINE_IGNORED, VMSA_LINE_IGNORED};
	/* report_files after each line */
	static const uint64_t files[] = {0, 1, 2, 2, 2, 2, 3, 4, 4, 4, 4};
	const struct vmsa_traits *t = vmsa_text_parser_traits(p);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		ck_assert_int_eq(vmsa_text_parse_line(p, l[i], strlen(l[i]), &ev, &r), k[i]);
		ck_assert_msg(t->report_files == files[i], "after \"%s\": %" PRIu64 " files", l[i],
			      t->report_files);
	}
	ck_assert_int_eq(t->dialect, VMSA_DIALECT_FTRACE);
	vmsa_text_parser_free(p);
}
END_TEST

/* Timestamps of every digit count on both sides of the point, against a
 * plain reference; also what may follow them. */
START_TEST(test_timestamps)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	unsigned seed = 12345;
	for (int ns = 1; ns <= 12; ns++)
		for (int nf = 0; nf <= 12; nf++)
			for (int k = 0; k < 20 && (ns <= 10 || !nf); k++) {
				/* (more than 10 digits of seconds overflow ns: tested elsewhere) */
				char sec[16], frac[16], line[128];
				for (int i = 0; i < ns; i++)
					sec[i] = (char)('0' + (seed = seed * 1103515245u + 12345u) % 10);
				for (int i = 0; i < nf; i++)
					frac[i] = (char)('0' + (seed = seed * 1103515245u + 12345u) % 10);
				sec[ns] = frac[nf] = 0;
				snprintf(line, sizeof(line), "  a-1 [000] %s%s%s: mm_vmscan_kswapd_sleep: nid=0",
					 sec, nf ? "." : "", frac);
				uint64_t want = 0, f = 0;
				for (int i = 0; i < ns; i++)
					want = want * 10 + (uint64_t)(sec[i] - '0');
				for (int i = 0; i < 9; i++)
					f = f * 10 + (uint64_t)(i < nf ? frac[i] - '0' : 0);
				if (nf)
					want = want * 1000000000ull + f;
				struct vmsa_event ev;
				enum vmsa_reject_reason r;
				ck_assert_msg(vmsa_text_parse_line(p, line, strlen(line), &ev, &r) == EV, "%s", line);
				ck_assert_msg(ev.ts_ns == want, "%s: %llu, want %llu", line,
					      (unsigned long long)ev.ts_ns, (unsigned long long)want);
			}
	vmsa_text_parser_free(p);
}
END_TEST

Suite *text_suite(void);
/* Damaged lines (issue 43): markers whose count is damaged are markers of
 * an unknown count; a line holding an event and then another line is
 * split where the second begins; real shapes of other kernels and tools */
START_TEST(test_damaged_lines)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason r;
	static const char *const unknown[] = {"CPU:0 [LOST 5 EVENTS", "CPU:0 [LOST -5 EVENTS]",
					      "CPU:0 [LOST 5x EVENTS]",
					      "CPU:3 [LOST 99999999999999999999 EVENTS]",
					      "CPU:1 [5x EVENTS DROPPED]"};
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		ck_assert_msg(vmsa_text_parse_line(p, unknown[i], strlen(unknown[i]), &ev, &r) ==
				      VMSA_LINE_LOST,
			      "%s", unknown[i]);
		ck_assert_msg(ev.lost == 0, "%s: %llu", unknown[i], (unsigned long long)ev.lost);
	}
	const char *m = "CPU:0 [LOST 18446744073709551615 EVENTS]";
	ck_assert_int_eq(vmsa_text_parse_line(p, m, strlen(m), &ev, &r), VMSA_LINE_LOST);
	ck_assert_uint_eq(ev.lost, UINT64_MAX);

	struct vmsa_source_counts c;
	memset(&c, 0, sizeof(c));
	const char *end = "           dd-100     [001] .....    20.002500: "
			  "mm_vmscan_direct_reclaim_end: nr_reclaimed=34";
	const char *begin = "          cat-101     [000] .....    20.003000: "
			    "mm_vmscan_direct_reclaim_begin: order=2 gfp_flags=GFP_KERNEL";
	char line[512];
	/* an event, then the next line glued to it: split where it begins */
	snprintf(line, sizeof(line), "%s%s", end, begin);
	ck_assert_int_eq(vmsa_text_count_line(p, &c, line, strlen(line), &ev, &r),
			 VMSA_LINE_EVENT | VMSA_LINE_SPLIT);
	ck_assert_int_eq(ev.type, VMSA_EV_RECLAIM_END);
	ck_assert_uint_eq(ev.nr_reclaimed, 34);
	size_t at = vmsa_text_take_split(p);
	ck_assert_str_eq(line + at, strstr(begin, "cat-101"));
	ck_assert_int_eq(vmsa_text_count_line(p, &c, line + at, strlen(line + at), &ev, &r),
			 VMSA_LINE_EVENT);
	ck_assert_int_eq(ev.order, 2);
	/* ... and after an event printed with labels, its last value the last word */
	const char *slab = "           dd-100     [001] .....    20.002400: mm_shrink_slab_start: "
			   "super_cache_scan+0x0/0x163 ffff888000c31c30: nid: 0 objects to shrink 0 "
			   "gfp_flags GFP_KERNEL cache items 14 delta 7 total_scan 7 priority 12";
	snprintf(line, sizeof(line), "%s%s", slab, slab);
	ck_assert_int_eq(vmsa_text_count_line(p, &c, line, strlen(line), &ev, &r),
			 VMSA_LINE_EVENT | VMSA_LINE_SPLIT);
	ck_assert_int_eq(ev.priority, 12);
	ck_assert_uint_eq(vmsa_text_take_split(p), strlen(slab) + strlen("           "));
	/* a marker glued before a line, and after one */
	snprintf(line, sizeof(line), "CPU:0 [LOST 7 EVENTS]%s", end);
	ck_assert_int_eq(vmsa_text_count_line(p, &c, line, strlen(line), &ev, &r),
			 VMSA_LINE_LOST | VMSA_LINE_SPLIT);
	ck_assert_uint_eq(ev.lost, 7);
	ck_assert_str_eq(line + vmsa_text_take_split(p), strstr(end, "dd-100"));
	snprintf(line, sizeof(line), "%s CPU:2 [LOST 3 EVENTS]", end);
	ck_assert_int_eq(vmsa_text_count_line(p, &c, line, strlen(line), &ev, &r),
			 VMSA_LINE_EVENT | VMSA_LINE_SPLIT);
	ck_assert_uint_eq(ev.nr_reclaimed, 34);
	ck_assert_str_eq(line + vmsa_text_take_split(p), "CPU:2 [LOST 3 EVENTS]");
	/* a '\r' alone ending a line inside one */
	snprintf(line, sizeof(line), "%s\r%s", end, begin);
	ck_assert_int_eq(vmsa_text_count_line(p, &c, line, strlen(line), &ev, &r),
			 VMSA_LINE_EVENT | VMSA_LINE_SPLIT);
	ck_assert_str_eq(line + vmsa_text_take_split(p), strstr(begin, "cat-101"));
	/* a whole line with a CRLF end is no join */
	snprintf(line, sizeof(line), "%s\r", end);
	ck_assert_int_eq(vmsa_text_count_line(p, &c, line, strlen(line), &ev, &r), VMSA_LINE_EVENT);

	/* 3.x mm_shrink_slab_start: no nid, no priority */
	const char *old = "         kswapd0-27    [000] ....  1085.361434: mm_shrink_slab_start: "
			  "prune_super+0x0/0x1a0 ffff88003d5b2800: objects to shrink 0 gfp_flags "
			  "GFP_KERNEL pgs_scanned 32 lru_pgs 13446 cache items 1028 delta 4 total_scan 4";
	ck_assert_int_eq(vmsa_text_parse_line(p, old, strlen(old), &ev, &r), EV);
	ck_assert_int_eq(ev.type, VMSA_EV_SLAB_START);
	ck_assert_int_eq(ev.nid, -1);
	ck_assert_int_eq(ev.priority, -1);
	const char *bare = "  a-1 [000] 1.0: mm_shrink_slab_start:";
	ck_assert_int_eq(vmsa_text_parse_line(p, bare, strlen(bare), &ev, &r), REJ);
	/* perf script: the event name without its ':' */
	const char *perf = "              dd 13873 [011]   578.542919: "
			   "vmscan:mm_vmscan_direct_reclaim_begin order=3 gfp_flags=GFP_KERNEL";
	ck_assert_int_eq(vmsa_text_parse_line(p, perf, strlen(perf), &ev, &r), EV);
	ck_assert_int_eq(ev.type, VMSA_EV_RECLAIM_BEGIN);
	ck_assert_int_eq(ev.order, 3);
	ck_assert_int_eq(ev.pid, 13873);
	const char *perf_bare = "              dd 13873 [011]   578.542919: "
				"vmscan:mm_vmscan_kswapd_sleep";
	ck_assert_int_eq(vmsa_text_parse_line(p, perf_bare, strlen(perf_bare), &ev, &r), EV);
	/* mm_shrink_count_*: an unknown vmscan event */
	memset(&c, 0, sizeof(c));
	const char *count = "  a-1 [000] 1.0: mm_shrink_count_start: shrinker=ffff8800 nid=0";
	ck_assert_int_eq(vmsa_text_count_line(p, &c, count, strlen(count), &ev, &r),
			 VMSA_LINE_IGNORED);
	ck_assert_uint_eq(c.unknown_vmscan_events, 1);
	vmsa_text_parser_free(p);
}
END_TEST

Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("lines");
	tcase_add_loop_test(tc, test_line_table, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_throttle_and_slab_values);
	tcase_add_test(tc, test_find_lit_and_same_bytes);
	tcase_add_test(tc, test_slab_labels);
	tcase_add_test(tc, test_timestamps);
	tcase_add_test(tc, test_nul_bytes_in_name);
	tcase_add_test(tc, test_traits_follow_field_names);
	tcase_add_test(tc, test_report_files);
	tcase_add_test(tc, test_damaged_lines);
	suite_add_tcase(s, tc);
	return s;
}
