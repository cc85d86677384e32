/* SPDX-License-Identifier: MIT */
/* Hand-made fixtures: values derived by hand in fixtures/handmade/README.md. */
#include "helpers.h"

#define FX(name) FIXTURES_DIR "/handmade/" name

START_TEST(test_names)
{
	struct run r = analyze(NULL, FX("names.txt"), NULL);
	const struct vmsa_task_row *k = row(&r, "kworker/u8:2", 301);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_DIRECT)->reclaims, 1);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_DIRECT)->latency_ns, 1000000);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_DIRECT)->scanned_file, 32);
	const struct vmsa_task_row *w = row(&r, "Web Content", 4113);
	ck_assert_uint_eq(vmsa_order_count(w->begins_by_order[VMSA_CTX_DIRECT], 2), 1);
	ck_assert_uint_eq(vmsa_row_ctx(w, VMSA_CTX_DIRECT)->latency_ns, 3000000);
	ck_assert_uint_eq(vmsa_row_ctx(w, VMSA_CTX_DIRECT)->scanned_anon, 20);
	ck_assert_uint_eq(vmsa_row_ctx(w, VMSA_CTX_DIRECT)->write[0][0], 1);
	ck_assert_uint_eq(row(&r, "python3.11", 4242)->wakeup_kswapd, 1);
	const struct vmsa_task_row *a = row(&r, "a-b-c-9", 555);
	ck_assert_uint_eq(vmsa_row_ctx(a, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(a, VMSA_CTX_DIRECT)->latency_ns, 500000);
	ck_assert_uint_eq(r.sum->nrows, 4);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].reclaims, 3);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].pages_scanned, 52);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].latency_ns, 4500000);
	ck_assert_uint_eq(r.t.wakeup_kswapd, 1);
	ck_assert_uint_eq(r.counts.lines_read, 13);
	ck_assert_uint_eq(r.counts.lines_analyzed, 10);
	ck_assert_uint_eq(r.counts.lines_ignored, 3);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_lost_unmatched)
{
	struct run r = analyze(NULL, FX("lost-unmatched.txt"), NULL);
	const struct vmsa_task_row *k0 = row(&r, "kswapd0", 45), *k1 = row(&r, "kswapd1", 46);
	ck_assert_uint_eq(vmsa_row_more(k0)->kswapd_sleep_without_wake, 1);
	ck_assert_uint_eq(vmsa_row_more(k0)->kswapd_wakeups, 1);
	ck_assert_uint_eq(vmsa_row_more(k0)->kswapd_rewakeups, 1);
	ck_assert_uint_eq(vmsa_order_count(k0->kswapd_rewake_by_order[0], 2), 1);
	ck_assert_uint_eq(vmsa_row_ctx(k0, VMSA_CTX_KSWAPD)->latency_ns, 10000000);
	ck_assert_uint_eq(vmsa_row_ctx(k1, VMSA_CTX_KSWAPD)->in_progress, 1);
	ck_assert_uint_eq(vmsa_row_ctx(k1, VMSA_CTX_KSWAPD)->in_progress_ns, 8000000);
	const struct vmsa_task_row *dd = row(&r, "dd", 100), *cat = row(&r, "cat", 100);
	ck_assert_uint_eq(vmsa_row_more(dd)->unmatched_ends, 1);
	ck_assert_uint_eq(vmsa_row_more(dd)->unmatched_begins, 1);
	ck_assert_uint_eq(vmsa_row_ctx(cat, VMSA_CTX_DIRECT)->reclaims, 2);
	ck_assert_uint_eq(vmsa_row_ctx(cat, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(cat, VMSA_CTX_DIRECT)->latency_ns, 2000000);
	ck_assert_uint_eq(vmsa_row_ctx(cat, VMSA_CTX_DIRECT)->in_progress, 1);
	ck_assert_uint_eq(vmsa_row_ctx(cat, VMSA_CTX_DIRECT)->in_progress_ns, 0);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].reclaims, 3);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].reclaims_completed, 1);
	ck_assert_uint_eq(r.t.events_lost, 42);
	ck_assert_uint_eq(r.t.unmatched_ends, 2);
	ck_assert_uint_eq(r.t.unmatched_begins, 1);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_perf_script)
{
	struct run r = analyze(NULL, FX("perf-script.txt"), NULL);
	ck_assert_str_eq(r.sum->sources[0].format, "perf-script");
	const struct vmsa_task_row *dd = row(&r, "dd", 2001), *k = row(&r, "kswapd0", 45);
	ck_assert_uint_eq(vmsa_row_ctx(dd, VMSA_CTX_DIRECT)->latency_ns, 500000);
	ck_assert_uint_eq(vmsa_row_ctx(dd, VMSA_CTX_DIRECT)->scanned_file, 32);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_wakeups, 1);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->latency_ns, 1000000);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->scanned_anon, 128);
	ck_assert_uint_eq(row(&r, "Web Content", 4113)->wakeup_kswapd, 1);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_trace_cmd_report)
{
	struct run r = analyze(NULL, FX("trace-cmd-report.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_ignored, 5);
	ck_assert_uint_eq(r.counts.lines_analyzed, 3);
	ck_assert_uint_eq(r.t.events_lost, 12);
	const struct vmsa_task_row *dd = row(&r, "dd", 2001);
	ck_assert_uint_eq(vmsa_row_ctx(dd, VMSA_CTX_DIRECT)->latency_ns, 500000);
	ck_assert_uint_eq(vmsa_row_ctx(dd, VMSA_CTX_DIRECT)->scanned_file, 32);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_quoted_instance)
{
	struct run r = analyze(NULL, FX("quoted-instance.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 11);
	ck_assert_uint_eq(r.counts.lines_ignored, 4);
	ck_assert_uint_eq(r.counts.lines_analyzed, 6);
	ck_assert_uint_eq(r.counts.lines_rejected, 0);
	ck_assert_uint_eq(r.t.events_lost, 7);
	const struct vmsa_task_row *dd = row(&r, "dd", 2001), *t = row(&r, "tmux: server", 3003);
	ck_assert_uint_eq(vmsa_row_ctx(dd, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(dd, VMSA_CTX_DIRECT)->latency_ns, 500000);
	ck_assert_uint_eq(vmsa_row_ctx(dd, VMSA_CTX_DIRECT)->scanned_file, 32);
	ck_assert_uint_eq(vmsa_order_count(t->begins_by_order[VMSA_CTX_DIRECT], 1), 1);
	ck_assert_uint_eq(vmsa_row_ctx(t, VMSA_CTX_DIRECT)->latency_ns, 2000000);
	ck_assert_uint_eq(r.sum->nrows, 2);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].reclaims, 2);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].latency_ns, 2500000);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].pages_scanned, 32);
	/* the instance's events and its marker */
	ck_assert_uint_eq(r.sum->sources[0].traits.top_buffer_events, 0);
	ck_assert_str_eq(r.sum->sources[0].traits.instance_events[0].name, "dat");
	ck_assert_uint_eq(r.sum->sources[0].traits.instance_events[0].count, 7);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_two_buffers)
{
	struct run r = analyze(NULL, FX("two-buffers.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 19);
	ck_assert_uint_eq(r.counts.lines_ignored, 6);
	ck_assert_uint_eq(r.counts.lines_analyzed, 12);
	ck_assert_uint_eq(r.counts.lines_lost_markers, 1);
	ck_assert_uint_eq(r.t.events_lost, 3);
	/* every event twice: the second begin abandons the first, the second
	 * end and sleep have none left to end, the second wake-up re-wakes */
	const struct vmsa_task_row *j = row(&r, "java", 4242), *k = row(&r, "kswapd0", 50);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->reclaims, 2);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->scanned_file, 64);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_wakeups, 1);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_rewakeups, 1);
	ck_assert_uint_eq(r.t.unmatched_ends, 2);
	/* the buffers: 6 events of the top's; mm's 6 and its marker, the end
	 * after the marker (no "mm: " before it) among them */
	const struct vmsa_traits *tr = &r.sum->sources[0].traits;
	ck_assert_uint_eq(tr->top_buffer_events, 6);
	ck_assert_str_eq(tr->instance_events[0].name, "mm");
	ck_assert_uint_eq(tr->instance_events[0].count, 7);
	ck_assert_uint_eq(tr->instance_events[1].name[0], 0);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_latency_format)
{
	struct run r = analyze(NULL, FX("latency-format.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 10);
	ck_assert_uint_eq(r.counts.lines_ignored, 5);
	ck_assert_uint_eq(r.counts.lines_analyzed, 5);
	const struct vmsa_task_row *w = row(&r, "kworker/", 22), *k = row(&r, "kswapd0", 45);
	ck_assert_uint_eq(vmsa_row_ctx(w, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(w, VMSA_CTX_DIRECT)->latency_ns, 500000);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_wakeups, 1);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->latency_ns, 2000000);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->scanned_anon, 64);
	ck_assert_uint_eq(r.sum->nrows, 2);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_verbose_latency)
{
	struct run r = analyze(NULL, FX("verbose-latency.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 15);
	ck_assert_uint_eq(r.counts.lines_ignored, 9);
	ck_assert_uint_eq(r.counts.lines_analyzed, 6);
	const struct vmsa_task_row *w = row(&r, "kworker/0:1", 23), *k = row(&r, "kswapd0", 47),
				   *t = row(&r, "tmux: server", 1176);
	ck_assert_uint_eq(vmsa_row_ctx(w, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(w, VMSA_CTX_DIRECT)->latency_ns, 500000);
	ck_assert_uint_eq(vmsa_row_ctx(w, VMSA_CTX_DIRECT)->end_nr_reclaimed, 8);
	ck_assert_uint_eq(t->wakeup_kswapd, 1);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_wakeups, 1);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->latency_ns, 2000000);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->scanned_anon, 64);
	ck_assert_uint_eq(r.sum->nrows, 3);
	ck_assert_uint_eq(r.sum->first_ts_ns, 50000000000ull);
	ck_assert_uint_eq(r.sum->last_ts_ns, 50002000000ull);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_perf_script_callchains)
{
	struct run r = analyze(NULL, FX("perf-script-callchains.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 17);
	ck_assert_uint_eq(r.counts.lines_ignored, 14);
	ck_assert_uint_eq(r.counts.lines_analyzed, 3);
	ck_assert_uint_eq(r.counts.lines_rejected, 0);
	ck_assert_uint_eq(r.sum->sources[0].traits.wrapped_events, 0);
	const struct vmsa_task_row *j = row(&r, "java", 3101);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->latency_ns, 1000000);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->scanned_file, 32);
	vmsa_summary_free(r.sum);
}
END_TEST

/* the slot of name in a table of names not known, NULL if none */
static const struct vmsa_name_count *named(const struct vmsa_name_count *tab, const char *name)
{
	for (int i = 0; i < VMSA_NAME_COUNTS; i++)
		if (!strcmp(tab[i].name, name))
			return &tab[i];
	return NULL;
}

START_TEST(test_lru_names_mmotm)
{
	struct run r = analyze(NULL, FX("lru-names-mmotm.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 14);
	ck_assert_uint_eq(r.counts.lines_analyzed, 10);
	ck_assert_uint_eq(r.counts.lines_rejected, 0);
	const struct vmsa_task_row *j = row(&r, "java", 3101), *k = row(&r, "kswapd0", 45);
	const struct vmsa_counters *d = vmsa_row_ctx(j, VMSA_CTX_DIRECT);
	ck_assert_uint_eq(d->scanned_file, 32); /* ia_file */
	ck_assert_uint_eq(d->scanned_anon, 32); /* ia_anon */
	ck_assert_uint_eq(d->active_isolated, 16); /* ac_anon: rotation */
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->scanned_file, 68);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->scanned_unknown, 8);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].pages_scanned, 64);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_KSWAPD].pages_scanned, 76);
	ck_assert(!r.t.scans_missing);
	const struct vmsa_name_count *lru = r.sum->sources[0].traits.lru_other;
	uint64_t isolations = 0, pages = 0;
	for (int i = 0; i < VMSA_NAME_COUNTS; i++) {
		isolations += lru[i].count;
		pages += lru[i].pages;
	}
	ck_assert_uint_eq(isolations, 2); /* the abbreviations are no unknown names */
	ck_assert_uint_eq(pages, 12);
	ck_assert_ptr_null(named(lru, "ia_file"));
	ck_assert_uint_eq(named(lru, "odd_list")->pages, 8);
	ck_assert_uint_eq(named(lru, "secondary_file")->pages, 4);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_reclaim_pages)
{
	struct run r = analyze(NULL, FX("reclaim-pages.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 12);
	ck_assert_uint_eq(r.counts.lines_analyzed, 8);
	ck_assert_uint_eq(r.counts.lines_rejected, 1); /* no nr_reclaimed */
	const uint64_t *t = r.t.reclaim_pages;
	ck_assert_uint_eq(t[VMSA_RP_EVENTS], 3);
	ck_assert_uint_eq(t[VMSA_RP_SCANNED], 832);
	ck_assert_uint_eq(t[VMSA_RP_RECLAIMED], 744);
	ck_assert_uint_eq(t[VMSA_RP_DIRTY], 52);
	ck_assert_uint_eq(t[VMSA_RP_WRITEBACK], 19);
	ck_assert_uint_eq(t[VMSA_RP_CONGESTED], 0);
	ck_assert_uint_eq(t[VMSA_RP_IMMEDIATE], 3);
	const uint64_t *k = vmsa_row_more(row(&r, "kdamond.0", 812))->reclaim_pages;
	ck_assert_uint_eq(k[VMSA_RP_EVENTS], 2);
	ck_assert_uint_eq(k[VMSA_RP_SCANNED], 576);
	ck_assert_uint_eq(k[VMSA_RP_RECLAIMED], 544);
	const struct vmsa_task_row *m = row(&r, "madvise_test", 3300);
	ck_assert_uint_eq(vmsa_row_more(m)->reclaim_pages[VMSA_RP_RECLAIMED], 200);
	ck_assert_uint_eq(vmsa_row_ctx(m, VMSA_CTX_NONE)->write[0][0], 1);
	/* no context counts them: the direct window's own pages alone */
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].pages_scanned, 32);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].pages_reclaimed, 30);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_NONE].pages_scanned, 0);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_NONE].pages_reclaimed, 0);
	ck_assert_uint_eq(r.sum->sources[0].counts.unknown_vmscan_events, 0);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_perf_script_bare)
{
	struct run r = analyze(NULL, FX("perf-script-bare.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_analyzed, 5);
	ck_assert_uint_eq(r.counts.lines_ignored, 3);
	ck_assert_uint_eq(r.counts.lines_rejected, 1);
	ck_assert_uint_eq(r.counts.rejected_by_reason[VMSA_REJECT_MISSING_FIELD], 1);
	const struct vmsa_task_row *j = row(&r, "java", 3101), *k = row(&r, "kswapd0", 45);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->latency_ns, 3000000);
	for (int o = 0; o < VMSA_MAX_ORDER; o++)
		ck_assert_uint_eq(vmsa_order_count(j->begins_by_order[VMSA_CTX_DIRECT], o), 0);
	ck_assert_uint_eq(row(&r, "kworker/2:1", 212)->wakeup_kswapd, 1);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_wakeups, 1);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->latency_ns, 10000000);
	/* what the lines do not say is unknown, not 0 */
	ck_assert_uint_eq(r.sum->ends_without_reclaimed, 1);
	ck_assert(r.t.scans_missing);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_cut_comm)
{
	struct run r = analyze(NULL, FX("cut-comm.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_analyzed, 7);
	ck_assert_uint_eq(r.counts.lines_rejected, 0);
	ck_assert_uint_eq(r.sum->nrows, 2);
	const struct vmsa_task_row *j = row(&r, "java", 2113), *k = row(&r, "<...>", 45);
	ck_assert_uint_eq(j->wakeup_kswapd, 1);
	ck_assert_uint_eq(vmsa_order_count(j->begins_by_order[VMSA_CTX_DIRECT], 3), 1);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->latency_ns, 4000000);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->scanned_file, 32);
	ck_assert_uint_eq(vmsa_row_more(k)->kswapd_wakeups, 1);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->latency_ns, 10000000);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->scanned_anon, 64);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_unknown_events)
{
	struct run r = analyze(NULL, FX("unknown-events.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 8);
	ck_assert_uint_eq(r.counts.lines_analyzed, 2);
	ck_assert_uint_eq(r.counts.lines_ignored, 6);
	ck_assert_uint_eq(r.counts.unknown_vmscan_events, 3);
	const struct vmsa_name_count *ev = r.sum->sources[0].traits.event_other;
	ck_assert_uint_eq(named(ev, "mm_vmscan_reclaim_batch")->count, 2);
	ck_assert_uint_eq(named(ev, "lru_gen_age_node")->count, 1);
	ck_assert_ptr_null(named(ev, "sched_stat_runtime"));
	ck_assert_uint_eq(vmsa_row_ctx(row(&r, "dd", 2001), VMSA_CTX_DIRECT)->latency_ns, 400000);
	vmsa_summary_free(r.sum);
	/* a name of other bytes is counted, not named */
	r = analyze("  a-1 [000] 1.0: mm_vmscan_\xff\xfe: x=1\n"
		    "  a-1 [000] 1.0: vmscan:not-a-name: x=1\n", NULL, NULL);
	ev = r.sum->sources[0].traits.event_other;
	ck_assert_uint_eq(r.counts.unknown_vmscan_events, 2);
	ck_assert_uint_eq(named(ev, "(other names)")->count, 2);
	ck_assert_uint_eq(ev[0].name[0], 0);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_writeback_passes)
{
	struct run r = analyze(NULL, FX("writeback-passes.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 17);
	ck_assert_uint_eq(r.counts.lines_analyzed, 14);
	ck_assert_int_eq(r.t.writeback_known, 1);
	/* kworker 58: 1024 - 700 and 700 - (-12) */
	ck_assert_uint_eq(r.t.writeback_passes[VMSA_WB_VMSCAN], 2);
	ck_assert_uint_eq(r.t.writeback_pages[VMSA_WB_VMSCAN], 324 + 712);
	/* kworker 59: LONG_MAX - (LONG_MAX - 100) */
	ck_assert_uint_eq(r.t.writeback_passes[VMSA_WB_BACKGROUND], 1);
	ck_assert_uint_eq(r.t.writeback_pages[VMSA_WB_BACKGROUND], 100);
	/* kworker 60: a written without its start; a reason of a later kernel */
	ck_assert_uint_eq(r.t.writeback_passes[VMSA_WB_PERIODIC], 0);
	ck_assert_uint_eq(r.t.writeback_unpaired, 1);
	ck_assert_uint_eq(r.t.writeback_passes[VMSA_WB_OTHER], 1);
	ck_assert_uint_eq(r.t.writeback_pages[VMSA_WB_OTHER], 40);
	/* the last start (try_to_free_pages: reclaim's reason in 3.x) is open */
	ck_assert_uint_eq(r.t.flusher_wakeups[VMSA_FLUSH_FORWARD], 1);
	vmsa_summary_free(r.sum);
	/* try_to_free_pages is reclaim's; a trace without writeback events
	 * does not know what the flushers wrote */
	r = analyze("  k-9 [000] 1.0: writeback_start: bdi 8:0: sb_dev 0:0 nr_pages=10 "
		    "reason=try_to_free_pages\n"
		    "  k-9 [000] 1.1: writeback_written: bdi 8:0: sb_dev 0:0 nr_pages=4 "
		    "reason=try_to_free_pages\n", NULL, NULL);
	ck_assert_uint_eq(r.t.writeback_pages[VMSA_WB_VMSCAN], 6);
	vmsa_summary_free(r.sum);
	r = analyze(NULL, FX("names.txt"), NULL);
	ck_assert_int_eq(r.t.writeback_known, 0);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_wrapped_mail)
{
	struct run r = analyze(NULL, FX("wrapped-mail.txt"), NULL);
	ck_assert_uint_eq(r.counts.lines_read, 20);
	ck_assert_uint_eq(r.sum->sources[0].traits.wrapped_events, 7);
	ck_assert_uint_eq(r.sum->sources[0].traits.unwrapped_events, 0);
	vmsa_summary_free(r.sum);
	/* the same lines, whole: nothing is broken */
	r = analyze(NULL, FX("names.txt"), NULL);
	ck_assert_uint_eq(r.sum->sources[0].traits.wrapped_events, 0);
	vmsa_summary_free(r.sum);
	/* an event of another system broken, after its name or before it, is
	 * none of this tool's (--unwrap leaves it): not counted as broken */
	static const char other[] =
		"             init-1       [001] .....    10.440793: tracing_mark_write:\n"
		"vmsa: scenario highalloc start\n"
		"             init-1       [001] .....    10.440794:\n"
		"tracing_mark_write: vmsa: scenario\n"
		"highalloc start\n"
		"             init-1       [001] .....    10.440795: mm_vmscan_kswapd_wake:\n"
		"nid=0 order=0\n";
	r = analyze(other, NULL, NULL);
	ck_assert_uint_eq(r.sum->sources[0].traits.wrapped_events, 1);
	vmsa_summary_free(r.sum);
	r = analyze_unwrapped(other);
	ck_assert_uint_eq(r.sum->sources[0].traits.wrapped_events, 0);
	ck_assert_uint_eq(r.sum->sources[0].traits.unwrapped_events, 1);
	ck_assert_uint_eq(r.counts.lines_ignored, 5);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_unwrap)
{
	struct vmsa_source *src;
	ck_assert_int_eq(vmsa_source_open_path(&src, FX("wrapped-mail.txt")), 0);
	vmsa_source_set_unwrap(src, 1);
	vmsa_source_set_threads(src, 4); /* (not used: unwrap reads serially) */
	struct run r = analyze_source(src, NULL);
	const struct vmsa_traits *t = &r.sum->sources[0].traits;
	ck_assert_uint_eq(t->unwrapped_events, 7);
	ck_assert_uint_eq(t->unwrapped_lines, 10);
	ck_assert_uint_eq(t->wrapped_events, 0);
	/* every line counted: the 17 lines of the 7 events as analyzed */
	ck_assert_uint_eq(r.counts.lines_read, 20);
	ck_assert_uint_eq(r.counts.lines_analyzed, 17);
	ck_assert_uint_eq(r.counts.lines_ignored, 3);
	ck_assert_uint_eq(r.counts.lines_rejected, 0);
	/* what the lines said whole */
	const struct vmsa_task_row *j = row(&r, "java", 3101), *k = row(&r, "kswapd0", 45);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->completed, 1);
	ck_assert_uint_eq(vmsa_order_count(j->begins_by_order[VMSA_CTX_DIRECT], 0), 1);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->latency_ns, 2000000);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->scanned_file, 32);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->end_nr_reclaimed, 32);
	ck_assert_uint_eq(vmsa_row_ctx(j, VMSA_CTX_DIRECT)->write[1][0], 1);
	ck_assert_uint_eq(vmsa_order_count(k->kswapd_wake_by_order[0], 0), 1);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->latency_ns, 3000000);
	ck_assert_uint_eq(vmsa_row_ctx(k, VMSA_CTX_KSWAPD)->scanned_anon, 64);
	vmsa_summary_free(r.sum);
	/* a trace that is whole is left as it is */
	ck_assert_int_eq(vmsa_source_open_path(&src, FX("names.txt")), 0);
	vmsa_source_set_unwrap(src, 1);
	r = analyze_source(src, NULL);
	ck_assert_uint_eq(r.sum->sources[0].traits.unwrapped_events, 0);
	ck_assert_uint_eq(r.counts.lines_analyzed, 10);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].pages_scanned, 52);
	vmsa_summary_free(r.sum);
	/* a line after a broken first line, that does not make an event with it:
	 * left alone, both lines counted as they are */
	r = analyze_unwrapped("            java-3101  [002] .....  7301.000100:\n"
			      "see the graph: attached\n"
			      "            java-3101  [002] .....  7301.000200: "
			      "mm_vmscan_direct_reclaim_end:\n"
			      "nr_reclaimed=3\n");
	ck_assert_uint_eq(r.sum->sources[0].traits.unwrapped_events, 1);
	ck_assert_uint_eq(r.sum->sources[0].traits.wrapped_events, 1);
	ck_assert_uint_eq(r.counts.lines_read, 4);
	ck_assert_uint_eq(r.counts.lines_analyzed, 2);
	ck_assert_uint_eq(r.counts.lines_ignored, 2);
	ck_assert_uint_eq(r.t.unmatched_ends, 1); /* the end, joined */
	vmsa_summary_free(r.sum);
	/* trace-cmd report prints the record after an instance's lost-events
	 * marker without the instance's name: broken, it is still the instance's */
	r = analyze_unwrapped("cpus=2\n"
			      "  dat: CPU:0 [LOST 3 EVENTS]\n"
			      "  a-1 [000] 1.000000: mm_vmscan_kswapd_wake: nid=0\n"
			      "order=0\n"
			      "  dat:  a-1 [000] 2.000000: mm_vmscan_kswapd_sleep: nid=0\n");
	ck_assert_uint_eq(r.sum->sources[0].traits.unwrapped_events, 1);
	ck_assert_uint_eq(r.counts.lines_analyzed, 3);
	ck_assert_uint_eq(r.sum->sources[0].traits.top_buffer_events, 0);
	vmsa_summary_free(r.sum);
	/* broken at a fixed column right after a field's '=' (a real LKML paste:
	 * "classzone_idx=" and "4" alone on the next line): the value goes on the
	 * line however short, and is joined to its name without a space, quoted
	 * or not */
	r = analyze_unwrapped("        java-3101  [002] .....  7301.000100: mm_vmscan_lru_isolate: "
			      "isolate_mode=0 classzone_idx=\n"
			      "4\n"
			      "order=0 nr_requested=32 nr_scanned=32 nr_taken=32 file=1\n"
			      "            java-3101  [002] .....  7301.000110: mm_vmscan_lru_isolate: "
			      "isolate_mode=0\n"
			      "> > classzone_idx=2 order=0 nr_requested=32 nr_scanned=\n"
			      "> > 16 nr_taken=16 file=1\n");
	ck_assert_uint_eq(r.sum->sources[0].traits.unwrapped_events, 2);
	ck_assert_uint_eq(r.sum->sources[0].traits.unwrapped_lines, 4);
	ck_assert_uint_eq(r.counts.lines_read, 6);
	ck_assert_uint_eq(r.counts.lines_analyzed, 6);
	ck_assert_uint_eq(r.counts.lines_rejected, 0);
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_NONE].pages_scanned, 48); /* 32 + 16 */
	vmsa_summary_free(r.sum);
	/* without --unwrap the break after '=' is told (the hint to use it):
	 * "4" goes on the head before it */
	r = analyze("        java-3101  [002] .....  7301.000100: mm_vmscan_lru_isolate: "
		    "isolate_mode=0 classzone_idx=\n"
		    "4\n"
		    "order=0 nr_requested=32 nr_scanned=32 nr_taken=32 file=1\n",
		    NULL, NULL);
	ck_assert_uint_eq(r.sum->sources[0].traits.wrapped_events, 1);
	vmsa_summary_free(r.sum);
	/* a line after a trailing '=' that does not make an event with it: left
	 * as it was, read as its own line */
	r = analyze_unwrapped("        java-3101  [002] .....  7301.000100: mm_vmscan_lru_isolate: "
			      "nr_scanned=\n"
			      "x y\n");
	ck_assert_uint_eq(r.sum->sources[0].traits.unwrapped_events, 0);
	ck_assert_uint_eq(r.counts.lines_read, 2);
	ck_assert_uint_eq(r.counts.lines_rejected, 1);
	ck_assert_uint_eq(r.counts.lines_ignored, 1);
	vmsa_summary_free(r.sum);
}
END_TEST

/*
 * The events printed with labels (mm_shrink_slab_start, _end) broken as a
 * mail breaks them: their pieces hold labels and values, no '=' and no ':'
 * ("objects to shrink 0 gfp_flags GFP_KERNEL ... priority"), a value alone
 * after its label ("12"), a label broken in two, quoted and with CRLF.
 * --unwrap joins them all; without it they count as broken.
 */
#define SLAB_WRAPPED                                                                        \
	"  java-3101 [002] ..... 7301.000100: mm_vmscan_direct_reclaim_begin: order=0 "    \
	"gfp_flags=GFP_KERNEL\n"                                                            \
	"  java-3101 [002] ..... 7301.000110: mm_shrink_slab_start: s+0x0/0x1a0 ffff8800: " \
	"nid: 0 objects to shrink 0 gfp_flags GFP_KERNEL cache items 120 delta 3 "          \
	"total_scan 3 priority 11\n"                                                        \
	"  java-3101 [002] ..... 7301.000120: mm_shrink_slab_end:\n"                        \
	"super_cache_scan+0x0/0x1a0 ffff88003c45e4c0: nid: 0 unused scan\n"                 \
	"count 0 new scan count 3 total_scan 0 last shrinker return val 7\n"                \
	"  java-3101 [002] ..... 7301.000130: mm_shrink_slab_start: s+0x0/0x1a0 ffff8800: " \
	"nid: 0\n"                                                                          \
	"objects to shrink 0 gfp_flags GFP_KERNEL|__GFP_COMP cache items 120 delta 3 \n"    \
	"total_scan 3 priority\n"                                                           \
	"12\n"                                                                              \
	"  java-3101 [002] ..... 7301.000140: mm_shrink_slab_end: s+0x0/0x1a0 ffff8800:\r\n" \
	"> nid: 0 unused scan count 0 new scan count 3 total_scan 0 last shrinker\r\n"       \
	"> return val 5\r\n"                                                                 \
	"  java-3101 [002] ..... 7301.000200: mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n"

START_TEST(test_unwrap_labelled)
{
	struct run r = analyze_unwrapped(SLAB_WRAPPED);
	const struct vmsa_traits *t = &r.sum->sources[0].traits;
	ck_assert_uint_eq(t->unwrapped_events, 3);
	ck_assert_uint_eq(t->unwrapped_lines, 7);
	ck_assert_uint_eq(t->wrapped_events, 0);
	ck_assert_uint_eq(r.counts.lines_read, 13);
	ck_assert_uint_eq(r.counts.lines_analyzed, 13);
	ck_assert_uint_eq(r.counts.lines_rejected, 0);
	ck_assert_uint_eq(r.counts.lines_ignored, 0);
	const struct vmsa_counters *d = vmsa_row_ctx(row(&r, "java", 3101), VMSA_CTX_DIRECT);
	ck_assert_uint_eq(d->slab_calls, 2);
	ck_assert_int_eq(d->slab_freed, 12); /* 7 + 5: both ends whole again */
	/* priority 11, then 12 (its value alone on its line) */
	ck_assert_uint_eq(r.t.ctx[VMSA_CTX_DIRECT].retries, 1);
	vmsa_summary_free(r.sum);
	/* without --unwrap: each broken event counted once, the start whose
	 * first line is an event by itself too */
	r = analyze(SLAB_WRAPPED, NULL, NULL);
	ck_assert_uint_eq(r.sum->sources[0].traits.wrapped_events, 3);
	vmsa_summary_free(r.sum);
	/* prose after an event, with words of the labels among others: its own line */
	r = analyze_unwrapped("  java-3101 [002] ..... 7301.000130: mm_shrink_slab_start: s+0x0/0x1a0 "
			      "ffff8800: nid: 0\n"
			      "the new count is 3 items\n");
	ck_assert_uint_eq(r.sum->sources[0].traits.unwrapped_events, 0);
	ck_assert_uint_eq(r.counts.lines_analyzed, 1);
	ck_assert_uint_eq(r.counts.lines_ignored, 1);
	vmsa_summary_free(r.sum);
}
END_TEST

Suite *fixtures_suite(void);
Suite *fixtures_suite(void)
{
	Suite *s = suite_create("fixtures");
	TCase *tc = tcase_create("handmade");
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_lost_unmatched);
	tcase_add_test(tc, test_perf_script);
	tcase_add_test(tc, test_trace_cmd_report);
	tcase_add_test(tc, test_lru_names_mmotm);
	tcase_add_test(tc, test_reclaim_pages);
	tcase_add_test(tc, test_perf_script_bare);
	tcase_add_test(tc, test_cut_comm);
	tcase_add_test(tc, test_unknown_events);
	tcase_add_test(tc, test_writeback_passes);
	tcase_add_test(tc, test_wrapped_mail);
	tcase_add_test(tc, test_unwrap_labelled);
	tcase_add_test(tc, test_unwrap);
	tcase_add_test(tc, test_quoted_instance);
	tcase_add_test(tc, test_two_buffers);
	tcase_add_test(tc, test_latency_format);
	tcase_add_test(tc, test_verbose_latency);
	tcase_add_test(tc, test_perf_script_callchains);
	suite_add_tcase(s, tc);
	return s;
}
