/* SPDX-License-Identifier: MIT */
/*
 * Aggregation rules, each on a few hand-written lines whose expected values
 * are counted by hand in the comment above the assertions.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdlib.h>

#include <json-c/json.h>

#include "helpers.h"
#include "report/json_rows.h"

#define ISO(task, ts, nr, lru)                                                              \
	"  " task " [000] " ts ": mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 " \
	"nr_requested=32 nr_scanned=" #nr " nr_skipped=0 nr_taken=" #nr " lru=" lru "\n"
#define SHRINK(task, ts, nr, rec, kind)                                                     \
	"  " task " [000] " ts ": mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=" #nr        \
	" nr_reclaimed=" #rec " nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 "    \
	"nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 "    \
	"flags=RECLAIM_WB_" kind "|RECLAIM_WB_ASYNC\n"
#define WRITE(task, ts, kind)                                                       \
	"  " task " [000] " ts ": mm_vmscan_write_folio: page=0 pfn=0x1 flags=RECLAIM_WB_" kind \
	"|RECLAIM_WB_ASYNC\n"
#define LINE(task, ts, ev) "  " task " [000] " ts ": " ev "\n"

START_TEST(test_scans_charged_to_enclosing_window)
{
	/* dd: direct window holds 32 inactive_file + 10 active_anon (rotation, not a scan);
	 * after the window 5 more pages are scanned: outside_reclaim.
	 * kswapd0 scans 64 before any wake (still kswapd by its name). */
	struct run r = analyze(
		LINE("dd-10", "1.000000", "mm_vmscan_direct_reclaim_begin: order=0")
		ISO("dd-10", "1.000001", 32, "inactive_file")
		ISO("dd-10", "1.000002", 10, "active_anon")
		SHRINK("dd-10", "1.000003", 32, 30, "FILE")
		WRITE("dd-10", "1.000004", "FILE")
		LINE("dd-10", "1.000010", "mm_vmscan_direct_reclaim_end: nr_reclaimed=30")
		ISO("dd-10", "1.000020", 5, "inactive_anon")
		ISO("kswapd0-2", "1.000030", 64, "inactive_anon")
		SHRINK("kswapd0-2", "1.000031", 64, 60, "ANON"),
		NULL, NULL);
	const struct vmsa_ctx_totals *d = &r.t.ctx[VMSA_CTX_DIRECT];
	ck_assert_uint_eq(d->reclaims, 1);
	ck_assert_uint_eq(d->pages_scanned, 32);
	ck_assert_uint_eq(d->pages_scanned_file, 32);
	ck_assert_uint_eq(d->pages_reclaimed_file, 30);
	ck_assert_uint_eq(d->write_file_async, 1);
	ck_assert_uint_eq(d->latency_ns, 10000);
	ck_assert_uint_eq(d->end_nr_reclaimed, 30);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_NONE].pages_scanned, 5);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_KSWAPD].pages_scanned_anon, 64);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_KSWAPD].pages_reclaimed_anon, 60);
	ck_assert_int_eq(r.t.sync_applicable, 0); /* 6.1: lru names, write_folio */
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_memcg_and_softlimit_apart_from_direct)
{
	/* memcg window: 16 scanned; kswapd enters a softlimit window: 8 scanned there,
	 * then 4 more as kswapd after it ends. */
	struct run r = analyze(
		LINE("hog-20", "2.0", "mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL")
		ISO("hog-20", "2.000001", 16, "inactive_anon")
		LINE("hog-20", "2.000500", "mm_vmscan_memcg_reclaim_end: nr_reclaimed=16")
		LINE("kswapd0-2", "2.001", "mm_vmscan_kswapd_wake: nid=0 order=0")
		LINE("kswapd0-2", "2.002", "mm_vmscan_memcg_softlimit_reclaim_begin: order=0")
		ISO("kswapd0-2", "2.003", 8, "inactive_file")
		LINE("kswapd0-2", "2.004", "mm_vmscan_memcg_softlimit_reclaim_end: nr_reclaimed=8")
		ISO("kswapd0-2", "2.005", 4, "inactive_file")
		LINE("kswapd0-2", "2.006", "mm_vmscan_kswapd_sleep: nid=0"),
		NULL, NULL);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].reclaims, 0);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].pages_scanned, 0);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_MEMCG].reclaims, 1);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_MEMCG].pages_scanned, 16);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_MEMCG].latency_ns, 500000);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_SOFTLIMIT].pages_scanned, 8);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_KSWAPD].pages_scanned, 4);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_KSWAPD].latency_ns, 5000000);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_unmatched_and_in_progress)
{
	/* a-1: end with no begin (unmatched end, no latency); begin, begin again (the first
	 * is abandoned), end (completes the second: 2 ms); begin at 5.0 never ended: in
	 * progress for 1 s up to the last event at 6.0. */
	struct run r = analyze(
		LINE("a-1", "1.0", "mm_vmscan_direct_reclaim_end: nr_reclaimed=1")
		LINE("a-1", "2.0", "mm_vmscan_direct_reclaim_begin: order=0")
		LINE("a-1", "3.0", "mm_vmscan_direct_reclaim_begin: order=1")
		LINE("a-1", "3.002", "mm_vmscan_direct_reclaim_end: nr_reclaimed=1")
		LINE("a-1", "5.0", "mm_vmscan_direct_reclaim_begin: order=2")
		LINE("b-2", "6.0", "mm_vmscan_wakeup_kswapd: nid=0 order=0"),
		NULL, NULL);
	const struct vmsa_task_row *a = row(&r, "a", 1);
	ck_assert_uint_eq(vmsa_row_more(a)->unmatched_ends, 1);
	ck_assert_uint_eq(vmsa_row_more(a)->unmatched_begins, 1);
	ck_assert_uint_eq(vmsa_row_ctx(a, VMSA_CTX_DIRECT)->reclaims, 3);
	ck_assert_uint_eq(vmsa_row_ctx(a, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(a, VMSA_CTX_DIRECT)->latency_ns, 2000000);
	ck_assert_uint_eq(vmsa_row_ctx(a, VMSA_CTX_DIRECT)->in_progress, 1);
	ck_assert_uint_eq(vmsa_row_ctx(a, VMSA_CTX_DIRECT)->in_progress_ns, 1000000000ull);
	ck_assert_uint_eq(vmsa_order_count(a->begins_by_order[VMSA_CTX_DIRECT], 2), 1);
	ck_assert_uint_eq(r.sum->stall_hist.count, 1);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_name_change_inside_window)
{
	/* trace_pipe's comm column is the tracer's name cache at print time: a
	 * begin printed as init-101, its isolation and end as cat-101 (trace.dat
	 * names all three cat).  One completed reclaim of 1 s, 32 pages scanned
	 * in direct reclaim, nothing unmatched; a begin under a new name still
	 * ends what was open (test_pid_reuse_and_placeholder). */
	struct run r = analyze(
		LINE("init-101", "1.0", "mm_vmscan_direct_reclaim_begin: order=0")
		ISO("cat-101", "1.5", 32, "inactive_file")
		LINE("cat-101", "2.0", "mm_vmscan_direct_reclaim_end: nr_reclaimed=9"),
		NULL, NULL);
	struct vmsa_totals t;
	vmsa_summary_totals(r.sum, &t);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].reclaims, 1);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].reclaims_completed, 1);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].pages_scanned, 32);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].latency_ns, 1000000000ull);
	ck_assert_uint_eq(t.unmatched_begins, 0);
	ck_assert_uint_eq(t.unmatched_ends, 0);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_pid_reuse_and_placeholder)
{
	/* pid 5: "a" begins and never ends; then "b" (pid reused) reclaims for 1 ms.
	 * pid 7: begins as <...>, ends as x: one reclaim of 3 ms, folded into x-7. */
	struct run r = analyze(
		LINE("a-5", "1.0", "mm_vmscan_direct_reclaim_begin: order=0")
		LINE("b-5", "2.0", "mm_vmscan_direct_reclaim_begin: order=0")
		LINE("b-5", "2.001", "mm_vmscan_direct_reclaim_end: nr_reclaimed=1")
		LINE("<...>-7", "3.0", "mm_vmscan_direct_reclaim_begin: order=0")
		LINE("x-7", "3.003", "mm_vmscan_direct_reclaim_end: nr_reclaimed=1"),
		NULL, NULL);
	const struct vmsa_task_row *a = row(&r, "a", 5), *b = row(&r, "b", 5), *x = row(&r, "x", 7);
	ck_assert_uint_eq(vmsa_row_more(a)->unmatched_begins, 1);
	ck_assert_uint_eq(vmsa_row_ctx(a, VMSA_CTX_DIRECT)->in_progress, 0);
	ck_assert_uint_eq(vmsa_row_ctx(b, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(b, VMSA_CTX_DIRECT)->latency_ns, 1000000);
	ck_assert_uint_eq(vmsa_row_ctx(x, VMSA_CTX_DIRECT)->reclaims, 1);
	ck_assert_uint_eq(vmsa_row_ctx(x, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(x, VMSA_CTX_DIRECT)->latency_ns, 3000000);
	ck_assert_ptr_null(vmsa_summary_find_task(r.sum, "<...>", 7));
	ck_assert_uint_eq(r.sum->comm_changes, 1);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_kswapd_rewake_and_stray_sleep)
{
	/* sleep before any wake: counted, no latency.  wake order 0, wake order 3 while
	 * awake (a re-wakeup), sleep 4 ms after the first wake: latency of order 3. */
	struct run r = analyze(
		LINE("kswapd0-2", "1.0", "mm_vmscan_kswapd_sleep: nid=0")
		LINE("kswapd0-2", "2.0", "mm_vmscan_kswapd_wake: nid=0 order=0")
		LINE("kswapd0-2", "2.001", "mm_vmscan_kswapd_wake: nid=0 order=3")
		LINE("kswapd0-2", "2.004", "mm_vmscan_kswapd_sleep: nid=0"),
		NULL, &(struct vmsa_stats_options){.keep_latency_list = 1});
	const struct vmsa_task_row *k = row(&r, "kswapd0", 2);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_wakeups, 1);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_rewakeups, 1);
	ck_assert_uint_eq(vmsa_order_count(k->kswapd_wake_by_order[0], 0), 1);
	ck_assert_uint_eq(vmsa_order_count(k->kswapd_rewake_by_order[0], 3), 1);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_sleep_without_wake, 1);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->latency_ns, 4000000);
	ck_assert_uint_eq(vmsa_row_more(k)->nlat, 1);
	ck_assert_int_eq(vmsa_row_more(k)->lat[0].order, 3);
	ck_assert_int_eq(k->kswapd_nid, 0);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_ignore_pid_merges_by_name)
{
	struct run r = analyze(
		LINE("dd-1", "1.0", "mm_vmscan_direct_reclaim_begin: order=0")
		LINE("dd-1", "1.001", "mm_vmscan_direct_reclaim_end: nr_reclaimed=1")
		LINE("dd-2", "1.0", "mm_vmscan_direct_reclaim_begin: order=1")
		LINE("dd-2", "1.002", "mm_vmscan_direct_reclaim_end: nr_reclaimed=1"),
		NULL, &(struct vmsa_stats_options){.ignore_pid = 1});
	ck_assert_uint_eq(r.sum->nrows, 1);
	const struct vmsa_task_row *d = row(&r, "dd", -1);
	ck_assert_uint_eq(vmsa_row_ctx(d, VMSA_CTX_DIRECT)->reclaims, 2);
	ck_assert_uint_eq(vmsa_row_ctx(d, VMSA_CTX_DIRECT)->latency_ns, 3000000);
	ck_assert_uint_eq(vmsa_order_count(d->begins_by_order[VMSA_CTX_DIRECT], 0), 1);
	ck_assert_uint_eq(vmsa_order_count(d->begins_by_order[VMSA_CTX_DIRECT], 1), 1);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_backwards_time_and_missing_scans)
{
	/* end before begin in time: latency 0 and counted; no lru_isolate at all: scans
	 * are unknown, not zero; a 2.6.35 write: sync counts apply. */
	struct run r = analyze(
		LINE("a-1", "5.0", "mm_vmscan_direct_reclaim_begin: order=0")
		LINE("a-1", "4.0", "mm_vmscan_writepage: page=0 pfn=1 file=0 sync_io=1")
		LINE("a-1", "4.5", "mm_vmscan_direct_reclaim_end: nr_reclaimed=0")
		"CPU:0 [LOST 7 EVENTS]\n",
		NULL, NULL);
	ck_assert_uint_eq(r.sum->negative_latencies, 1);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].latency_ns, 0);
	ck_assert_int_eq(r.t.scans_missing, 1);
	ck_assert_int_eq(r.t.sync_applicable, 1);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].write_anon_sync, 1);
	ck_assert_uint_eq(r.t.events_lost, 7);
	ck_assert_uint_eq(r.counts.lines_lost_markers, 1);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_throttle_and_write_pages)
{
	struct run r = analyze(
		LINE("a-1", "1.0", "mm_vmscan_throttled: nid=0 usec_timeout=100000 "
				   "usect_delayed=20000 reason=VMSCAN_THROTTLE_WRITEBACK")
		LINE("a-1", "1.1", "mm_vmscan_throttled: nid=0 usec_timeout=100000 "
				   "usect_delayed=5 reason=VMSCAN_THROTTLE_ISOLATED")
		LINE("kswapd0-2", "1.2", "mm_vmscan_write_folio: page=0 pfn=0x1 nr_pages=4 "
					 "flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"),
		NULL, NULL);
	ck_assert_uint_eq(r.t.throttled[VMSA_THROTTLE_WRITEBACK], 1);
	ck_assert_uint_eq(r.t.throttled_usec[VMSA_THROTTLE_WRITEBACK], 20000);
	ck_assert_uint_eq(r.t.throttled[VMSA_THROTTLE_ISOLATED], 1);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_KSWAPD].write_file_async, 1);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_KSWAPD].write_pages, 4);
	vmsa_summary_free(r.sum);
}
END_TEST

/* A shrink at priority P: its line as SHRINK() makes it, of that priority */
#define SHRINK_AT(task, ts, prio)                                                            \
	"  " task " [000] " ts ": mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 "         \
	"nr_reclaimed=1 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 "             \
	"nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=" prio \
	" flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n"
/* mm_shrink_slab_start of 4.4-4.x: no priority at its end */
#define SLAB_NO_PRIO(task, ts)                                                                 \
	LINE(task, ts, "mm_shrink_slab_start: super_cache_scan+0x0/0x1a0 ffff88003c45e4c0: nid: 0 " \
		       "objects to shrink 0 gfp_flags GFP_HIGHUSER_MOVABLE pgs_scanned 32 lru_pgs " \
		       "100 cache items 10 delta 0 total_scan 0")

START_TEST(test_retries_by_priority)
{
	/* dd's window: 12, 11, slab starts that say no priority, 10: no retry;
	 * then 12 again: one.  cc's: 1, 0 (a said priority 0), 12: one. */
	struct run r = analyze(
		LINE("dd-10", "1.0", "mm_vmscan_direct_reclaim_begin: order=0")
		SHRINK_AT("dd-10", "1.1", "12")
		SLAB_NO_PRIO("dd-10", "1.2")
		SHRINK_AT("dd-10", "1.3", "11")
		SLAB_NO_PRIO("dd-10", "1.4")
		SHRINK_AT("dd-10", "1.5", "10")
		SHRINK_AT("dd-10", "1.6", "12")
		LINE("dd-10", "1.7", "mm_vmscan_direct_reclaim_end: nr_reclaimed=4")
		LINE("cc-11", "2.0", "mm_vmscan_direct_reclaim_begin: order=0")
		SHRINK_AT("cc-11", "2.1", "1")
		SHRINK_AT("cc-11", "2.2", "0")
		SHRINK_AT("cc-11", "2.3", "12")
		LINE("cc-11", "2.4", "mm_vmscan_direct_reclaim_end: nr_reclaimed=3"),
		NULL, NULL);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].reclaims, 2);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].retries, 2);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_flusher_wakeups)
{
	/* the kernel/ series' event: 2 forward requests (met 32+8, asked 48+12), 1 all-dirty */
	struct run r = analyze(
		LINE("kswapd0-2", "1.0", "mm_vmscan_wakeup_flusher: nid=0 nr_dirty=32 nr_pages=48 "
					 "reason=flush_forward")
		LINE("dd-5", "1.1", "mm_vmscan_wakeup_flusher: nid=0 nr_dirty=8 nr_pages=12 "
				    "reason=flush_forward")
		LINE("dd-5", "1.2", "mm_vmscan_wakeup_flusher: nid=0 nr_dirty=32 nr_pages=0 "
				    "reason=all_dirty")
		LINE("dd-5", "1.3", "mm_vmscan_wakeup_flusher: nid=0 nr_dirty=1 nr_pages=0 "
				    "reason=sideways"),
		NULL, NULL);
	ck_assert_uint_eq(r.t.flusher_wakeups[VMSA_FLUSH_FORWARD], 2);
	ck_assert_uint_eq(r.t.flusher_dirty_pages[VMSA_FLUSH_FORWARD], 40);
	ck_assert_uint_eq(r.t.flusher_requested_pages[VMSA_FLUSH_FORWARD], 60);
	ck_assert_uint_eq(r.t.flusher_wakeups[VMSA_FLUSH_ALL_DIRTY], 1);
	ck_assert_uint_eq(r.t.flusher_dirty_pages[VMSA_FLUSH_ALL_DIRTY], 32);
	ck_assert_uint_eq(r.counts.rejected_by_reason[VMSA_REJECT_BAD_VALUE], 1);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_counts_partition_lines)
{
	/* every line lands in exactly one bucket */
	struct run r = analyze("# header\n"
			       "\n"
			       LINE("a-1", "1.0", "sched_switch: prev_comm=a")
			       LINE("a-1", "1.0", "mm_vmscan_direct_reclaim_begin: order=zz")
			       LINE("a-1", "1.0", "mm_vmscan_direct_reclaim_begin: order=0")
			       "CPU:1 [LOST 2 EVENTS]\n"
			       "no newline at the end",
			       NULL, NULL);
	ck_assert_uint_eq(r.counts.lines_read, 7);
	ck_assert_uint_eq(r.counts.lines_analyzed, 1);
	ck_assert_uint_eq(r.counts.lines_ignored, 4);
	ck_assert_uint_eq(r.counts.lines_rejected, 1);
	ck_assert_uint_eq(r.counts.lines_lost_markers, 1);
	ck_assert_uint_eq(r.counts.rejected_by_reason[VMSA_REJECT_BAD_NUMBER], 1);
	vmsa_summary_free(r.sum);
}
END_TEST

/*
 * Task states live in chunks of 512: 1500 tasks, each with a direct window
 * opened in one pass over all of them and closed in a second, so that every
 * task's state is written again after later chunks were made.  Task i scans
 * i + 1 pages in its window: 1500 reclaims, sum 1..1500 = 1125750 pages.
 */
START_TEST(test_many_tasks_across_chunks)
{
	enum { N = 1500 };
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(m);
	for (int i = 0; i < N; i++)
		fprintf(m, "  t%d-%d [000] 1.%06d: mm_vmscan_direct_reclaim_begin: order=0\n", i % 7,
			100 + i, i);
	for (int i = 0; i < N; i++)
		fprintf(m,
			"  t%d-%d [000] 2.%06d: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 "
			"order=0 nr_requested=32 nr_scanned=%d nr_skipped=0 nr_taken=%d "
			"lru=inactive_file\n"
			"  t%d-%d [000] 2.%06d: mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n",
			i % 7, 100 + i, i, i + 1, i + 1, i % 7, 100 + i, i);
	fclose(m);
	struct run r = analyze(text, NULL, NULL);
	free(text);
	const struct vmsa_ctx_totals *d = &r.t.ctx[VMSA_CTX_DIRECT];
	ck_assert_uint_eq(d->reclaims, N);
	ck_assert_uint_eq(d->pages_scanned, (uint64_t)N * (N + 1) / 2);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_NONE].pages_scanned, 0);
	/* the first, a middle and the last task, each with its own scans */
	ck_assert_uint_eq(vmsa_scanned(vmsa_row_ctx(row(&r, "t0", 100), VMSA_CTX_DIRECT)), 1);
	ck_assert_uint_eq(vmsa_scanned(vmsa_row_ctx(row(&r, "t0", 800), VMSA_CTX_DIRECT)), 701);
	ck_assert_uint_eq(vmsa_scanned(vmsa_row_ctx(row(&r, "t1", 1599), VMSA_CTX_DIRECT)), 1500);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_stats_reject_invalid_events)
{
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	struct vmsa_event ev = {.type = VMSA_EV_RECLAIM_BEGIN, .order = 99, .comm = "a",
				.comm_len = 1};
	ck_assert_int_eq(vmsa_stats_add(st, &ev), VMSA_E_INVAL);
	ev.order = 0;
	ev.ctx = VMSA_CTX_KSWAPD;
	ck_assert_int_eq(vmsa_stats_add(st, &ev), VMSA_E_INVAL);
	ev.type = VMSA_EV__COUNT;
	ck_assert_int_eq(vmsa_stats_add(st, &ev), VMSA_E_INVAL);
	/* nothing of them was counted: no event, no span */
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	ck_assert_uint_eq(sum->events, 0);
	ck_assert(!sum->have_ts);
	vmsa_summary_free(sum);
	vmsa_stats_free(st);
}
END_TEST


/* LOST events fed to the statistics directly: one of 5, one that says no
 * number (lost 0): the totals keep both, and the number is unknown */
START_TEST(test_lost_without_a_number)
{
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	struct vmsa_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = VMSA_EV_LOST;
	ev.comm = "";
	ev.order = ev.nid = ev.file = ev.sync = -1;
	ev.lost = 5;
	ck_assert_int_eq(vmsa_stats_add(st, &ev), 0);
	struct vmsa_summary *sum;
	struct vmsa_totals t;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	vmsa_summary_totals(sum, &t);
	ck_assert_uint_eq(t.events_lost, 5);
	ck_assert_uint_eq(t.lost_markers_without_count, 0);
	vmsa_summary_free(sum);
	ev.lost = 0;
	ck_assert_int_eq(vmsa_stats_add(st, &ev), 0);
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	vmsa_summary_totals(sum, &t);
	ck_assert_uint_eq(t.events_lost, 5);
	ck_assert_uint_eq(t.lost_markers_without_count, 1);
	vmsa_summary_free(sum);
	vmsa_stats_free(st);
}
END_TEST

/* Interned names: ids in order, the same id for the same bytes (NULs and
 * all), tables that grow many times, and a copy that is the same and apart */
START_TEST(test_comms_intern_and_copy)
{
	struct vmsa_comms c = {0};
	enum { N = 70000 };
	char name[32];
	uint32_t id;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < N; i++) {
			int n = snprintf(name, sizeof(name), "t%u", i * 7919u % 1000003u);
			n += (int)(i & 1); /* (some with their NUL: other bytes, other names) */
			ck_assert_int_eq(vmsa_comms_intern(&c, name, (size_t)n, &id), 0);
			ck_assert_uint_eq(id, i);
		}
	ck_assert_uint_eq(c.n, N);
	ck_assert_int_eq(vmsa_comms_intern(&c, "t0", 2, &id), 0);
	ck_assert_uint_eq(id, 0);
	ck_assert_int_eq(vmsa_comms_intern(&c, "t7919", 6, &id), 0); /* (i = 1, NUL and all) */
	ck_assert_uint_eq(id, 1);
	ck_assert_int_eq(vmsa_comms_intern(&c, "t7919", 5, &id), 0); /* (without it: another) */
	ck_assert_uint_eq(id, N);
	ck_assert_uint_eq(c.n, N + 1);
	struct vmsa_comms d;
	ck_assert_int_eq(vmsa_comms_copy(&d, &c), 0);
	ck_assert_uint_eq(d.n, c.n);
	for (uint32_t i = 0; i < c.n; i++) {
		ck_assert_uint_eq(d.by_id[i]->len, c.by_id[i]->len);
		ck_assert(memcmp(d.by_id[i]->name, c.by_id[i]->name, c.by_id[i]->len + 1) == 0);
		ck_assert_ptr_ne(d.by_id[i]->name, c.by_id[i]->name);
		uint32_t j;
		ck_assert_int_eq(vmsa_comms_intern(&d, c.by_id[i]->name, c.by_id[i]->len, &j), 0);
		ck_assert_uint_eq(j, i);
	}
	/* a new name in the copy only */
	ck_assert_int_eq(vmsa_comms_intern(&d, "only-in-copy", 12, &id), 0);
	ck_assert_uint_eq(id, c.n);
	ck_assert_uint_eq(d.n, c.n + 1);
	vmsa_comms_release(&c);
	ck_assert_int_eq(vmsa_comms_intern(&d, "t0", 2, &id), 0);
	ck_assert_str_eq(d.by_id[id]->name, "t0");
	vmsa_comms_release(&d);
}
END_TEST

/* An event of task comm-pid at ts (ns); what it carries is set by the caller. */
static struct vmsa_event ev_of(enum vmsa_event_type type, const char *comm, int32_t pid,
			       uint64_t ts)
{
	struct vmsa_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.ts_ns = ts;
	ev.pid = pid;
	ev.cpu = 0;
	ev.comm = comm;
	ev.comm_len = strlen(comm);
	ev.order = 0;
	ev.nid = -1;
	ev.file = -1;
	ev.sync = -1;
	ev.ctx = VMSA_CTX_DIRECT;
	return ev;
}

/* A direct reclaim of task comm-pid from ts to ts + ns. */
static void stall(struct vmsa_stats *st, const char *comm, int32_t pid, uint64_t ts, uint64_t ns)
{
	struct vmsa_event b = ev_of(VMSA_EV_RECLAIM_BEGIN, comm, pid, ts);
	struct vmsa_event e = ev_of(VMSA_EV_RECLAIM_END, comm, pid, ts + ns);
	ck_assert_int_eq(vmsa_stats_add(st, &b), 0);
	ck_assert_int_eq(vmsa_stats_add(st, &e), 0);
}

static uint64_t completed(const struct vmsa_summary *sum, const char *comm, int32_t pid)
{
	const struct vmsa_task_row *r = vmsa_summary_find_task(sum, comm, pid);
	ck_assert_msg(r != NULL, "no row %s-%d", comm, (int)pid);
	return vmsa_row_ctx(r, VMSA_CTX_DIRECT)->completed;
}

/*
 * A summary shares the rows of the statistics: taken, then more events
 * added (to its rows and to new ones, NT tasks: rows in several blocks,
 * small and mapped)
 * and a second summary taken, each says what was there when it was taken,
 * whichever of the three is freed first.  With _i odd the statistics
 * restart between the two (an interval), a's row going and coming back.
 */
/*
 * A summary's rows come in the order of their names' bytes (memcmp, the
 * shorter first on a common prefix), then pids: names of 0 to 19 bytes of
 * NUL, 'a', 'b' and 0xff (shared prefixes within and past the first 8
 * bytes, NULs inside and at the end), each with two pids, checked pair by
 * pair against the plain comparison.
 */
START_TEST(test_rows_in_name_then_pid_order)
{
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	static const char alphabet[] = {0, 'a', 'b', (char)0xff};
	enum { N = 3000 };
	static char names[N][20];
	uint64_t x = 88172645463325252ull, ts = 1000;
	for (int i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t len = (size_t)(x % 20);
		for (size_t j = 0; j < len; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* mostly 'a': long common prefixes */
			names[i][j] = x % 8 < 5 ? 'a' : alphabet[x % 4];
		}
		for (int32_t pid = 10 + i % 3; pid <= 12 + i % 3; pid += 2) {
			struct vmsa_event b = ev_of(VMSA_EV_RECLAIM_BEGIN, "", pid, ts++);
			b.comm = names[i];
			b.comm_len = len;
			struct vmsa_event e = b;
			e.type = VMSA_EV_RECLAIM_END;
			e.ts_ns = ts++;
			ck_assert_int_eq(vmsa_stats_add(st, &b), 0);
			ck_assert_int_eq(vmsa_stats_add(st, &e), 0);
		}
	}
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	ck_assert_uint_gt(sum->nrows, 100);
	for (size_t i = 1; i < sum->nrows; i++) {
		size_t la, lb;
		const char *a = vmsa_summary_comm(sum, sum->rows[i - 1], &la);
		const char *b = vmsa_summary_comm(sum, sum->rows[i], &lb);
		int c = memcmp(a, b, la < lb ? la : lb);
		if (!c)
			c = la < lb ? -1 : la > lb ? 1 : 0;
		if (!c)
			c = sum->rows[i - 1]->key.pid < sum->rows[i]->key.pid ? -1 : 1;
		ck_assert_msg(c < 0, "rows %zu and %zu out of order", i - 1, i);
	}
	vmsa_summary_free(sum);
	vmsa_stats_free(st);
}
END_TEST

/*
 * "<...>" rows (the tracer's name cache missed the task's first events)
 * among thousands: one folds into the one named row of its pid, and stays
 * where its pid has two names, or none.
 */
START_TEST(test_placeholder_rows_fold_among_many)
{
	enum { NT = 3000 };
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	uint64_t ts = 1000;
	for (int32_t pid = 1000; pid < 1000 + NT; pid++) {
		stall(st, "<...>", pid, ts += 100, 10);
		if (pid % 3 == 0) {
			stall(st, "w", pid, ts += 100, 10);
		} else if (pid % 3 == 1) {
			stall(st, "x", pid, ts += 100, 10);
			stall(st, "y", pid, ts += 100, 10);
		}
	}
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	ck_assert_uint_eq(sum->placeholder_rows_merged, NT / 3);
	ck_assert_uint_eq(sum->nrows, NT / 3 + 3 * (NT / 3) + NT / 3);
	for (int32_t pid = 1000; pid < 1000 + NT; pid++) {
		const struct vmsa_task_row *ph = vmsa_summary_find_task(sum, "<...>", pid);
		if (pid % 3 == 0) {
			ck_assert_ptr_null(ph);
			ck_assert_uint_eq(completed(sum, "w", pid), 2);
		} else {
			ck_assert_ptr_nonnull(ph);
			ck_assert_uint_eq(vmsa_row_ctx(ph, VMSA_CTX_DIRECT)->completed, 1);
		}
	}
	vmsa_summary_free(sum);
	vmsa_stats_free(st);
}
END_TEST

/*
 * A task that renames itself for every job: its rows are found again
 * through the table of long rings, past RING_WALK names; a summary taken
 * halfway (rows shared, copied on write) and a restart change nothing of it.
 */
START_TEST(test_a_pid_of_thousands_of_names)
{
	enum { NN = 3000 };
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	uint64_t ts = 1000;
	char name[16];
	struct vmsa_summary *mid = NULL;
	for (int k = 0; k < NN; k++) {
		snprintf(name, sizeof(name), "job%d", k);
		stall(st, name, 77, ts += 100, 10);
		stall(st, name, 78, ts += 100, 10);
		if (k == NN / 2)
			ck_assert_int_eq(vmsa_stats_summary(st, &mid), 0);
	}
	for (int j = 0; j < NN; j += 2) { /* every other name again, in no order */
		snprintf(name, sizeof(name), "job%d", j * 1237 % NN);
		stall(st, name, 77, ts += 100, 10);
	}
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	ck_assert_uint_eq(sum->nrows, 2 * NN);
	for (int k = 0; k < NN; k++) {
		snprintf(name, sizeof(name), "job%d", k);
		ck_assert_uint_eq(completed(sum, name, 77), k % 2 ? 1 : 2);
		ck_assert_uint_eq(completed(sum, name, 78), 1);
	}
	vmsa_summary_free(sum);
	ck_assert_uint_eq(mid->nrows, 2 * (NN / 2 + 1));
	vmsa_summary_free(mid);
	/* after a restart: the rows made again, each once */
	ck_assert_int_eq(vmsa_stats_restart(st), 0);
	for (int round = 0; round < 2; round++)
		for (int k = 0; k < 100; k++) {
			snprintf(name, sizeof(name), "job%d", k);
			stall(st, name, 77, ts += 100, 10);
		}
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	ck_assert_uint_eq(sum->nrows, 100);
	ck_assert_uint_eq(completed(sum, "job42", 77), 2);
	vmsa_summary_free(sum);
	vmsa_stats_free(st);
}
END_TEST

/* No two rows of sum have one pid and one name */
static void one_row_a_task(const struct vmsa_summary *sum)
{
	for (size_t i = 0; i < sum->nrows; i++)
		for (size_t j = i + 1; j < sum->nrows; j++)
			ck_assert_msg(sum->rows[i]->key.pid != sum->rows[j]->key.pid ||
					      sum->rows[i]->key.comm_id != sum->rows[j]->key.comm_id,
				      "two rows of pid %d, one name", sum->rows[i]->key.pid);
}

/* The JSON summary of st, as text (freed by the caller) */
static char *json_of(struct vmsa_stats *st)
{
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_int_eq(vmsa_report_json(f, sum, NULL), 0);
	fclose(f);
	vmsa_summary_free(sum);
	return text;
}

/*
 * Pids that change names back and forth (exec, pid reuse, the placeholder
 * "<...>"), their tasks resting between windows: every (pid, name) has one
 * row, found again whatever name the task had last; and a run that takes a
 * summary (its rows shared, then copied on write) every few events, or
 * restarts (an interval) at one point and adds the intervals up, counts
 * what a run without them counts.  Pseudo-random, seeded by the loop.
 */
START_TEST(test_rows_found_again_through_a_pids_names)
{
	static const char *const names[] = {"a", "b", "c", "<...>"};
	enum { NPID = 7, NEV = 3000 };
	uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(_i + 1);
	struct vmsa_stats *plain, *shared;
	struct vmsa_stats_options o = {.max_tasks = _i == 3 ? 9 : 0};
	ck_assert_int_eq(vmsa_stats_new(&plain, &o), 0);
	ck_assert_int_eq(vmsa_stats_new(&shared, &o), 0);
	struct vmsa_summary *held[8] = {0};
	uint64_t ts = 1000;
	for (int i = 0; i < NEV; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		unsigned x = (unsigned)(seed >> 33);
		int32_t pid = 100 + (int32_t)(x % NPID);
		const char *comm = names[(x >> 8) % 4];
		static const enum vmsa_event_type types[] = {
			VMSA_EV_RECLAIM_BEGIN, VMSA_EV_RECLAIM_END, VMSA_EV_LRU_ISOLATE,
			VMSA_EV_WAKEUP_KSWAPD, VMSA_EV_RECLAIM_END};
		struct vmsa_event e = ev_of(types[(x >> 12) % 5], comm, pid, ts += 10);
		if (e.type == VMSA_EV_LRU_ISOLATE) {
			e.nr_scanned = 1 + (x >> 20) % 32;
			e.lru = VMSA_LRU_INACTIVE_FILE;
		}
		ck_assert_int_eq(vmsa_stats_add(plain, &e), 0);
		ck_assert_int_eq(vmsa_stats_add(shared, &e), 0);
		if (i % 97 == 0) { /* a summary held a while: rows shared */
			vmsa_summary_free(held[i / 97 % 8]);
			ck_assert_int_eq(vmsa_stats_summary(shared, &held[i / 97 % 8]), 0);
		}
	}
	char *a = json_of(plain), *b = json_of(shared);
	ck_assert_str_eq(a, b);
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(plain, &sum), 0);
	one_row_a_task(sum);
	ck_assert_uint_ge(sum->nrows, _i == 3 ? 9 : NPID * 3);
	ck_assert_uint_gt(sum->comm_changes, 100);
	vmsa_summary_free(sum);
	free(a);
	free(b);
	for (int k = 0; k < 8; k++)
		vmsa_summary_free(held[k]);
	vmsa_stats_free(plain);
	vmsa_stats_free(shared);
}
END_TEST

/* Restarted halfway, both halves' reclaims and scans add up to the whole's. */
START_TEST(test_rows_found_again_after_a_restart)
{
	static const char *const names[] = {"a", "b", "<...>"};
	uint64_t seed = 12345u + (uint64_t)_i;
	struct vmsa_stats *whole, *part;
	ck_assert_int_eq(vmsa_stats_new(&whole, NULL), 0);
	ck_assert_int_eq(vmsa_stats_new(&part, NULL), 0);
	uint64_t ts = 1000, reclaims = 0, scanned = 0;
	struct vmsa_totals t;
	for (int i = 0; i < 2000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		unsigned x = (unsigned)(seed >> 33);
		struct vmsa_event e = ev_of(x & 1 ? VMSA_EV_RECLAIM_BEGIN : VMSA_EV_RECLAIM_END,
					    names[(x >> 4) % 3], 10 + (int32_t)((x >> 8) % 5), ts += 10);
		if ((x >> 16) % 3 == 0) {
			e.type = VMSA_EV_LRU_ISOLATE;
			e.nr_scanned = 4;
			e.lru = VMSA_LRU_INACTIVE_ANON;
		}
		ck_assert_int_eq(vmsa_stats_add(whole, &e), 0);
		ck_assert_int_eq(vmsa_stats_add(part, &e), 0);
		if (i == 700 + _i * 300) {
			struct vmsa_summary *s;
			ck_assert_int_eq(vmsa_stats_summary(part, &s), 0);
			vmsa_summary_totals(s, &t);
			reclaims += t.ctx[VMSA_CTX_DIRECT].reclaims_completed;
			scanned += t.ctx[VMSA_CTX_DIRECT].pages_scanned;
			vmsa_summary_free(s);
			ck_assert_int_eq(vmsa_stats_restart(part), 0);
		}
	}
	struct vmsa_summary *s;
	ck_assert_int_eq(vmsa_stats_summary(part, &s), 0);
	vmsa_summary_totals(s, &t);
	reclaims += t.ctx[VMSA_CTX_DIRECT].reclaims_completed;
	scanned += t.ctx[VMSA_CTX_DIRECT].pages_scanned;
	one_row_a_task(s);
	vmsa_summary_free(s);
	ck_assert_int_eq(vmsa_stats_summary(whole, &s), 0);
	vmsa_summary_totals(s, &t);
	ck_assert_uint_gt(t.ctx[VMSA_CTX_DIRECT].reclaims_completed, 50);
	ck_assert_uint_eq(reclaims, t.ctx[VMSA_CTX_DIRECT].reclaims_completed);
	ck_assert_uint_eq(scanned, t.ctx[VMSA_CTX_DIRECT].pages_scanned);
	vmsa_summary_free(s);
	vmsa_stats_free(whole);
	vmsa_stats_free(part);
}
END_TEST

START_TEST(test_summaries_share_rows)
{
	enum { NT = 2500, NT3 = (NT + 2) / 3 };
	struct vmsa_stats_options o = {.keep_latency_list = 1};
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, &o), 0);
	stall(st, "a", 10, 1000, 100);
	struct vmsa_event open_b = ev_of(VMSA_EV_RECLAIM_BEGIN, "b", 11, 2000);
	ck_assert_int_eq(vmsa_stats_add(st, &open_b), 0);
	for (int i = 0; i < NT; i++)
		stall(st, "t", 100 + i, 3000 + (uint64_t)i * 10, 5);
	struct vmsa_summary *s1, *s2;
	ck_assert_int_eq(vmsa_stats_summary(st, &s1), 0);
	if (_i & 1)
		ck_assert_int_eq(vmsa_stats_restart(st), 0);
	stall(st, "a", 10, 50000, 300);
	struct vmsa_event end_b = ev_of(VMSA_EV_RECLAIM_END, "b", 11, 60000);
	ck_assert_int_eq(vmsa_stats_add(st, &end_b), 0);
	for (int i = 0; i < NT; i += 3)
		stall(st, "t", 100 + i, 100000 + (uint64_t)i * 10, 7);
	stall(st, "c", 12, 900000, 1);
	ck_assert_int_eq(vmsa_stats_summary(st, &s2), 0);

	struct vmsa_summary *sums[2] = {s1, s2};
	void *order[3][3] = {{st, s1, s2}, {s2, st, s1}, {s1, s2, st}};
	for (int k = 0; k < 3; k++) {
		void *which = order[_i % 3][k];
		if (which == st)
			vmsa_stats_free(st);
		else
			vmsa_summary_free(which == s1 ? s1 : s2);
		for (int j = 0; j < 2; j++) {
			struct vmsa_summary *s = sums[j];
			bool freed = false;
			for (int m = 0; m <= k; m++)
				freed |= order[_i % 3][m] == s;
			if (freed)
				continue;
			if (s == s1) {
				/* the first: a's one stall, b open, the NT tasks once, no c */
				ck_assert_uint_eq(s->nrows, 2 + NT);
				ck_assert_uint_eq(completed(s, "a", 10), 1);
				const struct vmsa_task_row *a = vmsa_summary_find_task(s, "a", 10);
				ck_assert_uint_eq(a->stall.count, 1);
				ck_assert_uint_eq(vmsa_row_more(a)->nlat, 1);
				ck_assert_uint_eq(vmsa_row_more(a)->lat[0].ns, 100);
				const struct vmsa_task_row *b = vmsa_summary_find_task(s, "b", 11);
				ck_assert_uint_eq(vmsa_row_ctx(b, VMSA_CTX_DIRECT)->in_progress, 1);
				ck_assert_uint_eq(vmsa_row_ctx(b, VMSA_CTX_DIRECT)->completed, 0);
				ck_assert_uint_eq(completed(s, "t", 100), 1);
				ck_assert_uint_eq(completed(s, "t", 100 + NT - 1), 1);
				ck_assert_ptr_null(vmsa_summary_find_task(s, "c", 12));
				ck_assert_uint_eq(s->totals.ctx[VMSA_CTX_DIRECT].reclaims_completed, 1 + NT);
			} else if (_i & 1) {
				/* after the restart: the new events only; b's window went on */
				ck_assert_uint_eq(s->nrows, 3 + NT3);
				ck_assert_uint_eq(completed(s, "a", 10), 1);
				ck_assert_uint_eq(
					vmsa_row_more(vmsa_summary_find_task(s, "a", 10))->lat[0].ns, 300);
				ck_assert_uint_eq(completed(s, "b", 11), 1);
				ck_assert_uint_eq(completed(s, "t", 100 + NT3 * 3 - 3), 1);
				ck_assert_ptr_null(vmsa_summary_find_task(s, "t", 101));
				ck_assert_uint_eq(completed(s, "c", 12), 1);
			} else {
				/* the second: everything */
				ck_assert_uint_eq(s->nrows, 3 + NT);
				const struct vmsa_task_row *a = vmsa_summary_find_task(s, "a", 10);
				ck_assert_uint_eq(vmsa_row_ctx(a, VMSA_CTX_DIRECT)->completed, 2);
				ck_assert_uint_eq(a->stall.count, 2);
				ck_assert_uint_eq(vmsa_row_more(a)->nlat, 2);
				ck_assert_uint_eq(vmsa_row_more(a)->lat[1].ns, 300);
				const struct vmsa_task_row *b = vmsa_summary_find_task(s, "b", 11);
				ck_assert_uint_eq(vmsa_row_ctx(b, VMSA_CTX_DIRECT)->in_progress, 0);
				ck_assert_uint_eq(vmsa_row_ctx(b, VMSA_CTX_DIRECT)->completed, 1);
				ck_assert_uint_eq(completed(s, "t", 100), 2);
				ck_assert_uint_eq(completed(s, "t", 101), 1);
				ck_assert_uint_eq(completed(s, "t", 100 + NT3 * 3 - 3), 2);
				ck_assert_uint_eq(completed(s, "c", 12), 1);
			}
		}
	}
}
END_TEST

/*
 * The rows of an unindented JSON report are written directly (json_rows.c):
 * they must be what json-c writes for the same summary (vmsa_doc_write()),
 * names with bytes to escape or not UTF-8, a kswapd row, the (other tasks)
 * row, throttling and histogram buckets included.
 */
START_TEST(test_json_rows_as_json_c_writes_them)
{
	struct vmsa_stats_options o = {.max_tasks = 5};
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, &o), 0);
	const char *names[] = {"q\"u{o,[\\te/]}", "ctl\x01\x1f\t\n\r\b\f", "bad\xff\xc0\x80", "\xc3\xa9t\xe2\x82\xac"};
	for (int i = 0; i < 4; i++)
		stall(st, names[i], 20 + i, 1000 + (uint64_t)i * 100000, 1 + (uint64_t)i * 40000);
	struct vmsa_event k = ev_of(VMSA_EV_KSWAPD_WAKE, "kswapd0", 2, 500000);
	k.nid = 0;
	k.order = 3;
	ck_assert_int_eq(vmsa_stats_add(st, &k), 0);
	k = ev_of(VMSA_EV_KSWAPD_SLEEP, "kswapd0", 2, 900000);
	k.nid = 0;
	ck_assert_int_eq(vmsa_stats_add(st, &k), 0);
	struct vmsa_event t = ev_of(VMSA_EV_THROTTLED, names[0], 20, 910000);
	t.throttle_reasons = 1u << 1;
	t.usec_delayed = 1000;
	ck_assert_int_eq(vmsa_stats_add(st, &t), 0);
	/* page-list reclaim (an optional member) in a process row and in the
	 * kswapd row */
	struct vmsa_event rp = ev_of(VMSA_EV_RECLAIM_PAGES, names[1], 21, 915000);
	rp.nr_scanned = 64;
	rp.nr_reclaimed = 60;
	rp.nr_dirty = 3;
	ck_assert_int_eq(vmsa_stats_add(st, &rp), 0);
	rp = ev_of(VMSA_EV_RECLAIM_PAGES, "kswapd0", 2, 916000);
	rp.nr_scanned = 8;
	ck_assert_int_eq(vmsa_stats_add(st, &rp), 0);
	struct vmsa_event w = ev_of(VMSA_EV_WAKEUP_KSWAPD, "late", -7, 920000);
	w.order = 2;
	ck_assert_int_eq(vmsa_stats_add(st, &w), 0); /* folded: past max_tasks */
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	vmsa_stats_free(st);
	ck_assert_uint_eq(sum->tasks_folded, 1);
	char *direct = NULL, *tree = NULL;
	size_t n1 = 0, n2 = 0;
	FILE *f = open_memstream(&direct, &n1);
	ck_assert_int_eq(vmsa_report_json(f, sum, NULL), 0);
	fclose(f);
	struct vmsa_doc *d;
	ck_assert_int_eq(vmsa_doc_from_summary(&d, sum), 0);
	f = open_memstream(&tree, &n2);
	ck_assert_int_eq(vmsa_doc_write(f, d, 0), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(direct, "\"other_tasks\":true"));
	ck_assert_ptr_nonnull(strstr(direct, "\"reclaim_pages\":{\"events\":1,\"pages_scanned\":64,"
					     "\"pages_reclaimed\":60,\"nr_dirty_pages\":3,"));
	ck_assert_ptr_nonnull(strstr(direct, "\"reclaim_pages\":{\"events\":1,\"pages_scanned\":8,"));
	ck_assert_ptr_nonnull(strstr(direct, "\\u0001\\u001f\\t\\n\\r\\b\\f"));
	ck_assert_str_eq(direct, tree);
	/* indented (--pretty): each row as json-c indents it */
	for (size_t i = 0; i < sum->nrows; i++) {
		struct vmsa_jw a = {0}, b = {0};
		vmsa_jw_row(&a, sum, sum->rows[i]);
		vmsa_jw_pretty(&b, a.p, a.n, 0);
		struct json_object *obj = vmsa_row_to_json(sum, sum->rows[i]);
		const char *text = json_object_to_json_string_ext(
			obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
		ck_assert_msg(b.n == strlen(text) && memcmp(b.p, text, b.n) == 0, "%.*s\n!=\n%s",
			      (int)b.n, b.p, text);
		json_object_put(obj);
		vmsa_jw_release(&a);
		vmsa_jw_release(&b);
	}
	free(direct);
	free(tree);
	vmsa_doc_free(d);
	vmsa_summary_free(sum);
}
END_TEST

/* ---- per-order counts in one word ----------------------------------- */

/* o's counts, each order's against want[] */
static void orders_are(vmsa_orders_t o, const uint64_t want[VMSA_MAX_ORDER])
{
	uint64_t tmp[VMSA_MAX_ORDER];
	const uint64_t *a = vmsa_orders(o, tmp);
	for (int i = 0; i < VMSA_MAX_ORDER; i++) {
		ck_assert_uint_eq(vmsa_order_count(o, i), want[i]);
		ck_assert_uint_eq(a[i], want[i]);
	}
}

START_TEST(test_orders_one_word_then_array)
{
	struct vmsa_task_row r = {0}, s = {0}; /* rows of no block: parts allocated */
	uint64_t want[VMSA_MAX_ORDER] = {0};
	vmsa_orders_t *o = &r.wakeup_by_order[0];

	/* one order: a count in the word */
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(vmsa_orders_ready(&r, o, 20), 0);
		vmsa_orders_inc(o, 20);
	}
	want[20] = 5;
	ck_assert(*o & 1);
	orders_are(*o, want);

	/* up to the word's largest count, then the array */
	ck_assert_int_eq(vmsa_orders_add(&r, o, 20, VMSA_ORDERS_ONE_MAX - 5), 0);
	ck_assert(*o & 1);
	want[20] = VMSA_ORDERS_ONE_MAX;
	orders_are(*o, want);
	ck_assert_int_eq(vmsa_orders_ready(&r, o, 20), 0);
	ck_assert_ptr_nonnull(vmsa_orders_array(*o));
	vmsa_orders_inc(o, 20);
	want[20] = (uint64_t)VMSA_ORDERS_ONE_MAX + 1;
	orders_are(*o, want);

	/* a second order: the array, holding the first */
	vmsa_orders_t *b = &r.begins_by_order[VMSA_CTX_DIRECT];
	uint64_t wb[VMSA_MAX_ORDER] = {0};
	ck_assert_int_eq(vmsa_orders_add(&r, b, 0, 3), 0);
	ck_assert_int_eq(vmsa_orders_ready(&r, b, 0), 0);
	ck_assert(*b & 1);
	ck_assert_int_eq(vmsa_orders_ready(&r, b, 4), 0);
	ck_assert_ptr_nonnull(vmsa_orders_array(*b));
	vmsa_orders_inc(b, 4);
	wb[0] = 3;
	wb[4] = 1;
	orders_are(*b, wb);

	/* set (as a JSON summary is read): 0 of the order held is none; 0 of
	 * another changes nothing; a count of another, the array */
	vmsa_orders_t *k = &r.kswapd_wake_by_order[0];
	uint64_t wk[VMSA_MAX_ORDER] = {0};
	ck_assert_int_eq(vmsa_orders_put(&r, k, 2, 7), 0);
	ck_assert_int_eq(vmsa_orders_put(&r, k, 2, 0), 0);
	ck_assert_uint_eq(*k, 0);
	ck_assert_int_eq(vmsa_orders_put(&r, k, 2, 7), 0);
	ck_assert_int_eq(vmsa_orders_put(&r, k, 5, 0), 0);
	ck_assert(*k & 1);
	ck_assert_int_eq(vmsa_orders_put(&r, k, 5, 9), 0);
	wk[2] = 7;
	wk[5] = 9;
	orders_are(*k, wk);

	/* rows added up: one word to one word of the same order stays one;
	 * of another order, an array; an array to none, a copy */
	vmsa_orders_t *rw = &r.kswapd_rewake_by_order[0];
	uint64_t wr[VMSA_MAX_ORDER] = {0};
	ck_assert_int_eq(vmsa_orders_add(&r, rw, 1, 6), 0);
	ck_assert_int_eq(vmsa_orders_add(&s, &s.kswapd_rewake_by_order[0], 1, 4), 0);
	ck_assert_int_eq(vmsa_orders_add(&s, &s.begins_by_order[VMSA_CTX_DIRECT], 9, 2), 0);
	ck_assert_int_eq(vmsa_orders_add(&s, &s.wakeup_by_order[0], 3, 1), 0);
	ck_assert_int_eq(vmsa_orders_add(&s, &s.wakeup_by_order[0], 7, 1), 0);
	struct vmsa_task_row d = {0};
	ck_assert_int_eq(vmsa_row_counters_add(&r, &s), 0);
	ck_assert_int_eq(vmsa_row_counters_add(&d, &s), 0);
	wr[1] = 10;
	ck_assert(*rw & 1);
	orders_are(*rw, wr);
	wb[9] = 2;
	orders_are(*b, wb);
	want[3] = want[7] = 1;
	orders_are(*o, want);
	uint64_t wd[VMSA_MAX_ORDER] = {0};
	wd[3] = wd[7] = 1;
	orders_are(d.wakeup_by_order[0], wd);
	ck_assert(vmsa_orders_array(d.wakeup_by_order[0]) != vmsa_orders_array(s.wakeup_by_order[0]));

	vmsa_row_counters_free(&r);
	vmsa_row_counters_free(&s);
	vmsa_row_counters_free(&d);
}
END_TEST

/*
 * Tasks past --max-tasks keep no state while nothing of theirs is open
 * (stats.c: folded_idle): one that comes back is counted in "(other tasks)"
 * again and not folded twice; a window, or a writeback pass, left open
 * across other tasks' events is still matched or reported in progress.
 */
START_TEST(test_folded_tasks_rest_and_come_back)
{
	struct vmsa_stats_options o = {.max_tasks = 2};
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, &o), 0);
	stall(st, "a", 10, 1000, 100);
	stall(st, "b", 11, 2000, 100);
	uint64_t ts = 10000;
	for (int32_t pid = 100; pid < 200; pid++, ts += 1000)
		stall(st, "short", pid, ts, 10); /* folded, then at rest */
	/* (a and b, and no state kept for the hundred folded tasks) */
	ck_assert_uint_le(vmsa_stats_states_held(st), 3);
	stall(st, "renamed", 150, ts += 1000, 10); /* back: folded already */
	/* a writeback pass of a folded task at rest, events of others between */
	struct vmsa_event w = ev_of(VMSA_EV_WB_START, "short", 120, ts += 1000);
	w.wb_reason = 0;
	w.wb_nr_pages = 100;
	ck_assert_int_eq(vmsa_stats_add(st, &w), 0);
	stall(st, "short", 121, ts += 1000, 10);
	w = ev_of(VMSA_EV_WB_WRITTEN, "short", 120, ts += 1000);
	w.wb_reason = 0;
	w.wb_nr_pages = 40;
	ck_assert_int_eq(vmsa_stats_add(st, &w), 0);
	/* windows left open: a new task's and one of a task at rest */
	struct vmsa_event b = ev_of(VMSA_EV_RECLAIM_BEGIN, "new", 300, ts += 1000);
	ck_assert_int_eq(vmsa_stats_add(st, &b), 0);
	b = ev_of(VMSA_EV_RECLAIM_BEGIN, "short", 130, ts += 1000);
	ck_assert_int_eq(vmsa_stats_add(st, &b), 0);
	stall(st, "short", 131, ts += 1000, 10);
	/* one of them ends */
	struct vmsa_event e = ev_of(VMSA_EV_RECLAIM_END, "short", 130, ts += 1000);
	ck_assert_int_eq(vmsa_stats_add(st, &e), 0);

	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	vmsa_stats_free(st);
	ck_assert_uint_eq(sum->tasks_folded, 101); /* pids 100..199 and 300 */
	const struct vmsa_task_row *other = NULL;
	for (size_t i = 0; i < sum->nrows; i++)
		if (sum->rows[i]->key.pid == VMSA_PID_OTHER)
			other = sum->rows[i];
	ck_assert_ptr_nonnull(other);
	const struct vmsa_counters *c = vmsa_row_ctx(other, VMSA_CTX_DIRECT);
	/* 100 + 1 (150 back) + 121 + 131 + 130 completed; 300 in progress */
	ck_assert_uint_eq(c->reclaims, 105);
	ck_assert_uint_eq(c->completed, 104);
	ck_assert_uint_eq(c->in_progress, 1);
	ck_assert_uint_eq(vmsa_row_more(other)->unmatched_ends, 0);
	ck_assert_uint_eq(sum->writeback.passes[0], 1);
	ck_assert_uint_eq(sum->writeback.pages[0], 60);
	ck_assert_uint_eq(sum->writeback.unpaired, 0);
	ck_assert_uint_eq(completed(sum, "a", 10), 1);
	vmsa_summary_free(sum);
}
END_TEST

/*
 * Past 4096 task states (stats.c: REST_AFTER), a task with nothing open
 * keeps only its pid's slot, saying where its row is: one that comes back
 * counts in the same row, a new name still gets a row of its own and the
 * old name its old row, a placeholder name keeps the row; a window left
 * open is still in progress; after a restart (an interval) a task at rest
 * makes its row again.
 */
START_TEST(test_tasks_rest_and_come_back_to_their_rows)
{
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	uint64_t ts = 1000;
	for (int32_t pid = 1000; pid < 7000; pid++, ts += 100)
		stall(st, "w", pid, ts, 10);
	/* the tasks past 4096 states gave theirs back as their windows ended */
	ck_assert_uint_le(vmsa_stats_states_held(st), 4097);
	stall(st, "w", 6000, ts += 100, 10);
	stall(st, "w", 1000, ts += 100, 10);
	stall(st, "x", 6001, ts += 100, 10);
	stall(st, "w", 6001, ts += 100, 10);
	stall(st, "<...>", 6002, ts += 100, 10);
	stall(st, "<...>", 7000, ts += 100, 10); /* a placeholder's row, at rest */
	stall(st, "w", 7000, ts += 100, 10);	  /* its name: no name change */
	struct vmsa_event b = ev_of(VMSA_EV_RECLAIM_BEGIN, "w", 6003, ts += 100);
	ck_assert_int_eq(vmsa_stats_add(st, &b), 0);

	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	ck_assert_uint_eq(sum->nrows, 6002);
	ck_assert_uint_eq(sum->comm_changes, 2); /* 6001: w to x, x to w */
	ck_assert_uint_eq(completed(sum, "w", 7000), 2);
	ck_assert_uint_eq(completed(sum, "w", 6000), 2);
	ck_assert_uint_eq(completed(sum, "w", 1000), 2);
	ck_assert_uint_eq(completed(sum, "x", 6001), 1);
	ck_assert_uint_eq(completed(sum, "w", 6001), 2);
	ck_assert_uint_eq(completed(sum, "w", 6002), 2);
	const struct vmsa_task_row *r = vmsa_summary_find_task(sum, "w", 6003);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(vmsa_row_ctx(r, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(r, VMSA_CTX_DIRECT)->in_progress, 1);
	vmsa_summary_free(sum);

	/* an interval: what is at rest goes, the open window stays */
	ck_assert_int_eq(vmsa_stats_restart(st), 0);
	stall(st, "w", 6004, ts += 100, 10);
	struct vmsa_event e = ev_of(VMSA_EV_RECLAIM_END, "w", 6003, ts += 100);
	ck_assert_int_eq(vmsa_stats_add(st, &e), 0);
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	vmsa_stats_free(st);
	ck_assert_uint_eq(sum->nrows, 2);
	ck_assert_uint_eq(completed(sum, "w", 6004), 1);
	ck_assert_uint_eq(completed(sum, "w", 6003), 1);
	vmsa_summary_free(sum);
}
END_TEST

/* Counts that would pass 2^64 - 1 stop the statistics (VMSA_E_OVERFLOW):
 * nr_scanned 2^64 - 1 then 2 summed to 1; and a value of 2^63 leaves room
 * for no more than 2^31 - 1 events of smaller ones, so 2^63 then 2^63
 * stops at the second, and 2^40 twice (2^41) goes on. */
START_TEST(test_counts_past_2_64_stop)
{
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	struct vmsa_event b = ev_of(VMSA_EV_RECLAIM_BEGIN, "dd", 10, 1000);
	struct vmsa_event i1 = ev_of(VMSA_EV_LRU_ISOLATE, "dd", 10, 1001);
	i1.lru = VMSA_LRU_INACTIVE_FILE;
	i1.nr_scanned = UINT64_MAX;
	i1.nr_taken = 32;
	i1.nr_requested = 32;
	struct vmsa_event i2 = i1;
	i2.nr_scanned = 2;
	i2.ts_ns = 1002;
	ck_assert_int_eq(vmsa_stats_add(st, &b), 0);
	int e1 = vmsa_stats_add(st, &i1), e2 = e1 ? e1 : vmsa_stats_add(st, &i2);
	ck_assert_int_eq(e1 ? e1 : e2, VMSA_E_OVERFLOW);
	vmsa_stats_free(st);

	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	ck_assert_int_eq(vmsa_stats_add(st, &b), 0);
	i1.nr_scanned = (uint64_t)1 << 40;
	i2.nr_scanned = (uint64_t)1 << 40;
	ck_assert_int_eq(vmsa_stats_add(st, &i1), 0);
	ck_assert_int_eq(vmsa_stats_add(st, &i2), 0);
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	struct vmsa_totals t;
	vmsa_summary_totals(sum, &t);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].pages_scanned, (uint64_t)1 << 41);
	vmsa_summary_free(sum);
	i1.nr_scanned = i2.nr_scanned = (uint64_t)1 << 63;
	i1.ts_ns = 1003;
	i2.ts_ns = 1004;
	ck_assert_int_eq(vmsa_stats_add(st, &i1), 0);
	ck_assert_int_eq(vmsa_stats_add(st, &i2), VMSA_E_OVERFLOW);
	vmsa_stats_free(st);
}
END_TEST

Suite *stats_suite(void);
Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, test_scans_charged_to_enclosing_window);
	tcase_add_test(tc, test_memcg_and_softlimit_apart_from_direct);
	tcase_add_test(tc, test_unmatched_and_in_progress);
	tcase_add_test(tc, test_pid_reuse_and_placeholder);
	tcase_add_test(tc, test_name_change_inside_window);
	tcase_add_test(tc, test_kswapd_rewake_and_stray_sleep);
	tcase_add_test(tc, test_ignore_pid_merges_by_name);
	tcase_add_test(tc, test_backwards_time_and_missing_scans);
	tcase_add_test(tc, test_throttle_and_write_pages);
	tcase_add_test(tc, test_retries_by_priority);
	tcase_add_test(tc, test_flusher_wakeups);
	tcase_add_test(tc, test_counts_partition_lines);
	tcase_add_test(tc, test_stats_reject_invalid_events);
	tcase_add_test(tc, test_many_tasks_across_chunks);
	tcase_add_test(tc, test_rows_in_name_then_pid_order);
	tcase_add_test(tc, test_orders_one_word_then_array);
	tcase_add_test(tc, test_folded_tasks_rest_and_come_back);
	tcase_add_test(tc, test_tasks_rest_and_come_back_to_their_rows);
	tcase_add_loop_test(tc, test_rows_found_again_through_a_pids_names, 0, 4);
	tcase_add_test(tc, test_placeholder_rows_fold_among_many);
	tcase_add_test(tc, test_a_pid_of_thousands_of_names);
	tcase_add_loop_test(tc, test_rows_found_again_after_a_restart, 0, 3);
	tcase_add_loop_test(tc, test_summaries_share_rows, 0, 6);
	tcase_add_test(tc, test_json_rows_as_json_c_writes_them);
	tcase_add_test(tc, test_lost_without_a_number);
	tcase_add_test(tc, test_comms_intern_and_copy);
	tcase_add_test(tc, test_counts_past_2_64_stop);
	suite_add_tcase(s, tc);
	return s;
}
