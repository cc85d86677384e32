/* SPDX-License-Identifier: MIT */
/*
 * Interval deltas (vmsa_stats_restart) and thresholds (vmsa_threshold_check):
 * a trace cut into intervals at every possible point; each interval's
 * counters and histograms are its own, open windows carry over, and the
 * deltas add up to the statistics of the whole.
 */
#define _GNU_SOURCE /* mkstemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "summary_fields.h"
#include "asserts.h"

#define LINE(task, ts, ev) "  " task " [000] " ts ": " ev "\n"

/* a: a reclaim across most of the trace; b: two short ones; kswapd awake; c: an end alone */
static const char trace[] =
	LINE("a-1", "1.000000", "mm_vmscan_direct_reclaim_begin: order=0")
	LINE("a-1", "1.100000", "mm_vmscan_lru_isolate: isolate_mode=0 classzone=1 order=0 nr_requested=32 nr_scanned=10 nr_skipped=0 nr_taken=10 lru=inactive_file")
	LINE("kswapd0-9", "1.200000", "mm_vmscan_kswapd_wake: nid=0 order=0")
	LINE("b-2", "1.300000", "mm_vmscan_direct_reclaim_begin: order=1")
	LINE("b-2", "1.300500", "mm_vmscan_direct_reclaim_end: nr_reclaimed=2")
	LINE("kswapd0-9", "1.400000", "mm_vmscan_lru_isolate: isolate_mode=0 classzone=1 order=0 nr_requested=32 nr_scanned=7 nr_skipped=0 nr_taken=7 lru=inactive_anon")
	LINE("c-3", "1.500000", "mm_vmscan_direct_reclaim_end: nr_reclaimed=1")
	LINE("b-2", "1.600000", "mm_vmscan_direct_reclaim_begin: order=0")
	LINE("a-1", "1.700000", "mm_vmscan_lru_isolate: isolate_mode=0 classzone=1 order=0 nr_requested=32 nr_scanned=20 nr_skipped=0 nr_taken=20 lru=inactive_file")
	LINE("b-2", "1.603000", "mm_vmscan_direct_reclaim_end: nr_reclaimed=1")
	LINE("kswapd0-9", "1.800000", "mm_vmscan_kswapd_sleep: nid=0")
	LINE("a-1", "2.000000", "mm_vmscan_direct_reclaim_end: nr_reclaimed=3");

/* The events of the trace, decoded once. */
struct events {
	struct vmsa_event ev[16];
	char comm[16][16];
	int n;
};

static void decode(struct events *e)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	e->n = 0;
	for (const char *l = trace; *l;) {
		const char *nl = strchr(l, '\n');
		enum vmsa_reject_reason why;
		struct vmsa_event *ev = &e->ev[e->n];
		ck_assert_int_eq(vmsa_text_parse_line(p, l, (size_t)(nl - l), ev, &why),
				 VMSA_LINE_EVENT);
		ck_assert_uint_lt(ev->comm_len, sizeof(e->comm[0]));
		memcpy(e->comm[e->n], ev->comm, ev->comm_len);
		ev->comm = e->comm[e->n];
		e->n++;
		l = nl + 1;
	}
	vmsa_text_parser_free(p);
}

static void totals_of(const struct vmsa_stats *st, struct vmsa_totals *t, uint64_t *stalls,
		      uint64_t *events)
{
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	vmsa_summary_totals(sum, t);
	*stalls = sum->stall_hist.count;
	*events = sum->events;
	vmsa_summary_free(sum);
}

/* The counters that add up over intervals (not in_progress: a snapshot). */
static void add_up(struct vmsa_totals *acc, const struct vmsa_totals *t)
{
	for (int c = 0; c < VMSA_CTX__COUNT; c++) {
		struct vmsa_ctx_totals *a = &acc->ctx[c];
		const struct vmsa_ctx_totals *x = &t->ctx[c];
		a->reclaims += x->reclaims;
		a->reclaims_completed += x->reclaims_completed;
		a->pages_scanned += x->pages_scanned;
		a->latency_ns += x->latency_ns;
		a->end_nr_reclaimed += x->end_nr_reclaimed;
	}
	acc->kswapd_wakeups += t->kswapd_wakeups;
	acc->unmatched_ends += t->unmatched_ends;
	acc->unmatched_begins += t->unmatched_begins;
}

START_TEST(test_deltas_add_up_at_every_cut)
{
	struct events e;
	decode(&e);
	/* every pair of cut points: three intervals */
	for (int c1 = 0; c1 <= e.n; c1++)
		for (int c2 = c1; c2 <= e.n; c2++) {
			struct vmsa_stats *all, *delta;
			ck_assert_int_eq(vmsa_stats_new(&all, NULL), 0);
			ck_assert_int_eq(vmsa_stats_new_like(all, &delta), 0);
			struct vmsa_totals acc, t;
			memset(&acc, 0, sizeof(acc));
			uint64_t stalls = 0, events = 0, s, n;
			for (int i = 0; i <= e.n; i++) {
				if (i == c1 || i == c2 || i == e.n) {
					totals_of(delta, &t, &s, &n);
					add_up(&acc, &t);
					stalls += s;
					events += n;
					ck_assert_int_eq(vmsa_stats_restart(delta), 0);
				}
				if (i < e.n) {
					ck_assert_int_eq(vmsa_stats_add(all, &e.ev[i]), 0);
					ck_assert_int_eq(vmsa_stats_add(delta, &e.ev[i]), 0);
				}
			}
			struct vmsa_totals whole, sum;
			memset(&sum, 0, sizeof(sum));
			totals_of(all, &whole, &s, &n);
			add_up(&sum, &whole);
			ck_assert_msg(memcmp(&acc, &sum, sizeof(acc)) == 0, "cut at %d, %d", c1, c2);
			ck_assert_uint_eq(stalls, s);
			ck_assert_uint_eq(events, n);
			ck_assert_uint_eq(sum.ctx[VMSA_CTX_DIRECT].reclaims, 3);
			ck_assert_uint_eq(sum.ctx[VMSA_CTX_DIRECT].reclaims_completed, 3);
			ck_assert_uint_eq(sum.unmatched_ends, 1);
			vmsa_stats_free(delta);
			vmsa_stats_free(all);
		}
}
END_TEST

START_TEST(test_open_window_carries_over)
{
	struct events e;
	decode(&e);
	struct vmsa_stats *all, *delta;
	ck_assert_int_eq(vmsa_stats_new(&all, NULL), 0);
	ck_assert_int_eq(vmsa_stats_new_like(all, &delta), 0);
	for (int i = 0; i < 2; i++) /* a's begin and first isolate */
		ck_assert_int_eq(vmsa_stats_add(delta, &e.ev[i]), 0);
	struct vmsa_totals t;
	uint64_t stalls, events;
	totals_of(delta, &t, &stalls, &events);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].reclaims, 1);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].in_progress, 1);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].pages_scanned, 10);
	ck_assert_uint_eq(stalls, 0);
	ck_assert_int_eq(vmsa_stats_restart(delta), 0);
	totals_of(delta, &t, &stalls, &events);
	ck_assert_uint_eq(events, 0);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].reclaims, 0);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].in_progress, 1); /* still open */
	ck_assert_uint_eq(t.tasks, 1);				  /* a's row only */
	ck_assert_int_eq(vmsa_stats_add(delta, &e.ev[e.n - 1]), 0); /* a's end at 2.0 */
	totals_of(delta, &t, &stalls, &events);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].reclaims, 0);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].reclaims_completed, 1);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].latency_ns, 1000000000ull);
	ck_assert_uint_eq(t.unmatched_ends, 0);
	ck_assert_uint_eq(stalls, 1);
	vmsa_stats_free(delta);
	vmsa_stats_free(all);
}
END_TEST

/* A flusher's pass across an interval's end counts in the interval it ends
 * in; an interval without a pass wrote 0 pages (known), not unknown. */
START_TEST(test_writeback_pass_carries_over)
{
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	struct vmsa_event ev = {.type = VMSA_EV_WB_START, .pid = 58, .comm = "kworker/u4:1",
				.comm_len = 12, .ts_ns = 1000, .order = -1, .nid = -1,
				.wb_nr_pages = 1024, .wb_reason = VMSA_WB_VMSCAN};
	struct vmsa_totals t;
	uint64_t stalls, events;
	totals_of(st, &t, &stalls, &events);
	ck_assert_int_eq(t.writeback_known, 0); /* no writeback events yet */
	ck_assert_int_eq(vmsa_stats_add(st, &ev), 0);
	totals_of(st, &t, &stalls, &events);
	ck_assert_int_eq(t.writeback_known, 1);
	ck_assert_uint_eq(t.writeback_passes[VMSA_WB_VMSCAN], 0);
	ck_assert_uint_eq(t.tasks, 0); /* a flusher is no task row */
	ck_assert_int_eq(vmsa_stats_restart(st), 0);
	totals_of(st, &t, &stalls, &events);
	ck_assert_int_eq(t.writeback_known, 1);
	ev.type = VMSA_EV_WB_WRITTEN;
	ev.ts_ns = 2000;
	ev.wb_nr_pages = 24;
	ck_assert_int_eq(vmsa_stats_add(st, &ev), 0);
	totals_of(st, &t, &stalls, &events);
	ck_assert_uint_eq(t.writeback_passes[VMSA_WB_VMSCAN], 1);
	ck_assert_uint_eq(t.writeback_pages[VMSA_WB_VMSCAN], 1000);
	ck_assert_uint_eq(t.writeback_unpaired, 0);
	ck_assert_int_eq(vmsa_stats_restart(st), 0);
	totals_of(st, &t, &stalls, &events);
	ck_assert_uint_eq(t.writeback_pages[VMSA_WB_VMSCAN], 0);
	vmsa_stats_free(st);
}
END_TEST

START_TEST(test_threshold_check)
{
	struct vmsa_threshold t;
	ck_assert_int_eq(vmsa_threshold_check(NULL, "totals.direct.reclaims <= 2", 0, &t), 0);
	ck_assert_str_eq(t.field, "totals.direct.reclaims");
	ck_assert_str_eq(t.op, "<=");
	ck_assert_int_eq(vmsa_threshold_check(NULL, "totals.nope > 1", 0, &t), VMSA_E_INVAL);
	ck_assert_ptr_nonnull(strstr(t.message, "not a field of the summary schema"));
	ck_assert_int_eq(vmsa_threshold_check(NULL, "1 < 2", 0, &t), VMSA_E_INVAL);
	ck_assert_int_eq(vmsa_threshold_check(NULL, "totals.direct.reclaims ~ 2", 0, &t),
			 VMSA_E_INVAL);

	struct events e;
	decode(&e);
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	for (int i = 0; i < e.n; i++)
		ck_assert_int_eq(vmsa_stats_add(st, &e.ev[i]), 0);
	struct vmsa_summary *sum;
	struct vmsa_doc *d;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	ck_assert_int_eq(vmsa_doc_from_summary(&d, sum), 0);
	ck_assert_int_eq(vmsa_threshold_check(d, "totals.direct.reclaims <= 2", 0, &t), 0);
	ck_assert_int_eq(t.verdict, VMSA_VERDICT_VIOLATED);
	ck_assert(!t.pass);
	ck_assert_str_eq(t.message, "measured totals.direct.reclaims = 3, bound 2: violated");
	ck_assert_int_eq(vmsa_threshold_check(d, "0.5 * totals.direct.reclaims < 2", 0, &t), 0);
	ck_assert_int_eq(t.verdict, VMSA_VERDICT_HOLDS);
	ck_assert(t.pass);
	ck_assert(t.measured == 1.5);
	/* no memcg reclaim: its p99 is a statistic of nothing */
	ck_assert_int_eq(vmsa_threshold_check(d, "latency.memcg_reclaim_ns.p99_ns < 1", 0, &t), 0);
	ck_assert_int_eq(t.verdict, VMSA_VERDICT_VACUOUS);
	ck_assert(t.pass && t.measured_null);
	/* no shrink_inactive: pages reclaimed are unknown */
	ck_assert_int_eq(vmsa_threshold_check(d, "totals.direct.pages_reclaimed < 1", 0, &t), 0);
	ck_assert_int_eq(t.verdict, VMSA_VERDICT_NOT_MEASURED);
	ck_assert(!t.pass);
	ck_assert_int_eq(vmsa_threshold_check(d, "totals.direct.pages_reclaimed < 1", 1, &t), 0);
	ck_assert(t.pass);
	vmsa_doc_free(d);
	vmsa_summary_free(sum);
	vmsa_stats_free(st);
}
END_TEST

/* ---- interim reports of a trace of many tasks ------------------------ */

struct interim {
	int reports;
	uint64_t events;
};

static int ask_report(void *payload)
{
	(void)payload;
	return VMSA_ANALYZE_REPORT;
}

static int on_report(const struct vmsa_stats *st, void *payload)
{
	struct interim *x = payload;
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	uint64_t analyzed = 0;
	for (size_t i = 0; i < sum->nsources; i++)
		analyzed += sum->sources[i].counts.lines_analyzed;
	/* every line counted as analyzed is in the statistics */
	ck_assert_msg(sum->events == analyzed, "report %d: %llu events, %llu lines analyzed",
		      x->reports, (unsigned long long)sum->events, (unsigned long long)analyzed);
	x->events = sum->events;
	x->reports++;
	vmsa_summary_free(sum);
	return 0;
}

/*
 * Past a few thousand tasks the reader decodes several lines at a time
 * (vmsa_source_set_lookahead()): a report asked for (a SIGINT) waits for
 * the events decoded ahead, so that what it shows as analyzed is what its
 * statistics hold, at every report.
 */
START_TEST(test_interim_reports_hold_every_analyzed_line)
{
	char path[] = "/tmp/vmsa-test-interval-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	enum { TASKS = 6000, ROUNDS = 7 };
	unsigned long n = 0;
	for (int r = 0; r < ROUNDS; r++)
		for (int t = 0; t < TASKS; t++, n++)
			fprintf(f,
				"  w%d-%d [001] %lu.%06lu: mm_vmscan_lru_isolate: isolate_mode=0 "
				"classzone=1 order=0 nr_requested=32 nr_scanned=%d nr_skipped=0 "
				"nr_taken=1 lru=inactive_file\n",
				t % 97, 1000 + t, 1 + n / 1000000, n % 1000000, 1 + (t + r) % 31);
	fclose(f);
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	struct interim x = {0};
	static volatile sig_atomic_t attention;
	struct vmsa_analyze_options o = {.threads = 1, .attention = &attention,
					 .control = ask_report, .report = on_report, .payload = &x};
	const char *paths[] = {path};
	struct vmsa_analyze_result res;
	ck_assert_int_eq(vmsa_analyze_files(st, paths, 1, &o, &res), 0);
	/* one report every 4096 events, the first ones before the lookahead */
	ck_assert_int_ge(x.reports, (int)(n / 4096) - 1);
	ck_assert_uint_gt(x.events, n - 4096 - 16);
	vmsa_stats_free(st);
	unlink(path);
}
END_TEST

static int ask_stop(void *payload)
{
	(void)payload;
	return VMSA_ANALYZE_STOP;
}

/* A stop before a file's end (SIGINT twice, SIGTERM) is said of that file
 * (traits.stopped_before_end) and in a note; a file read to its end says
 * nothing. */
START_TEST(test_stop_before_the_end_is_said)
{
	char path[] = "/tmp/vmsa-test-interval-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 10000; i++) /* (a check every 4096 events) */
		fprintf(f, "  kswapd0-45 [001] %d.%06d: mm_vmscan_kswapd_wake: nid=0 order=0\n",
			1 + i / 1000000, i % 1000000);
	fclose(f);
	for (int stop = 0; stop < 2; stop++) {
		struct vmsa_stats *st;
		ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
		static volatile sig_atomic_t attention;
		struct vmsa_analyze_options o = {.threads = 1, .attention = &attention,
						 .control = stop ? ask_stop : NULL};
		const char *paths[] = {path};
		struct vmsa_analyze_result res;
		ck_assert_int_eq(vmsa_analyze_files(st, paths, 1, &o, &res), 0);
		ck_assert_int_eq(res.stopped, stop);
		struct vmsa_summary *sum;
		ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
		ck_assert_uint_eq(sum->nsources, 1);
		ck_assert_uint_eq(sum->sources[0].traits.stopped_before_end, (uint64_t)stop);
		ck_assert_uint_eq(sum->sources[0].counts.lines_read < 10000, (uint64_t)stop);
		bool noted = false;
		for (size_t i = 0; i < vmsa_nnotes; i++)
			noted |= !strcmp(vmsa_notes[i].key, "stopped_before_end") &&
				 vmsa_notes[i].count(sum) == 1;
		ck_assert_int_eq(noted, stop);
		vmsa_summary_free(sum);
		vmsa_stats_free(st);
	}
	unlink(path);
}
END_TEST

Suite *interval_suite(void)
{
	Suite *s = suite_create("interval");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_deltas_add_up_at_every_cut);
	tcase_add_test(tc, test_open_window_carries_over);
	tcase_add_test(tc, test_threshold_check);
	tcase_add_test(tc, test_writeback_pass_carries_over);
	tcase_add_test(tc, test_interim_reports_hold_every_analyzed_line);
	tcase_add_test(tc, test_stop_before_the_end_is_said);
	tcase_set_timeout(tc, 60); /* 91 cuts, slow under the sanitizers on a busy machine */
	suite_add_tcase(s, tc);
	return s;
}
