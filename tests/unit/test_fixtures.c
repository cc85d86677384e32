/* SPDX-License-Identifier: MIT */
/* Hand-made fixtures: values derived by hand in fixtures/handmade/README.md. */
#include "helpers.h"

#define FX(name) FIXTURES_DIR "/handmade/" name

START_TEST(test_names)
{
	struct run r = analyze(NULL, FX("names.txt"), NULL);
	const struct vmsa_task_row *k = row(&r, "kworker/u8:2", 301);
	ck_assert_uint_eq(k->ctx[VMSA_CTX_DIRECT].windows, 1);
	ck_assert_uint_eq(k->ctx[VMSA_CTX_DIRECT].latency_ns, 1000000);
	ck_assert_uint_eq(k->ctx[VMSA_CTX_DIRECT].scanned_file, 32);
	const struct vmsa_task_row *w = row(&r, "Web Content", 4113);
	ck_assert_uint_eq(w->begins_by_order[VMSA_CTX_DIRECT][2], 1);
	ck_assert_uint_eq(w->ctx[VMSA_CTX_DIRECT].latency_ns, 3000000);
	ck_assert_uint_eq(w->ctx[VMSA_CTX_DIRECT].scanned_anon, 20);
	ck_assert_uint_eq(w->ctx[VMSA_CTX_DIRECT].write[0][0], 1);
	ck_assert_uint_eq(row(&r, "python3.11", 4242)->wakeup_kswapd, 1);
	const struct vmsa_task_row *a = row(&r, "a-b-c-9", 555);
	ck_assert_uint_eq(a->ctx[VMSA_CTX_DIRECT].completed, 1);
	ck_assert_uint_eq(a->ctx[VMSA_CTX_DIRECT].latency_ns, 500000);
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
	ck_assert_uint_eq(k0->kswapd_sleep_without_wake, 1);
	ck_assert_uint_eq(k0->kswapd_wakeups, 1);
	ck_assert_uint_eq(k0->kswapd_rewakeups, 1);
	ck_assert_uint_eq(k0->kswapd_rewake_by_order[2], 1);
	ck_assert_uint_eq(k0->ctx[VMSA_CTX_KSWAPD].latency_ns, 10000000);
	ck_assert_uint_eq(k1->ctx[VMSA_CTX_KSWAPD].in_progress, 1);
	ck_assert_uint_eq(k1->ctx[VMSA_CTX_KSWAPD].in_progress_ns, 8000000);
	const struct vmsa_task_row *dd = row(&r, "dd", 100), *cat = row(&r, "cat", 100);
	ck_assert_uint_eq(dd->unmatched_ends, 1);
	ck_assert_uint_eq(dd->unmatched_begins, 1);
	ck_assert_uint_eq(cat->ctx[VMSA_CTX_DIRECT].windows, 2);
	ck_assert_uint_eq(cat->ctx[VMSA_CTX_DIRECT].completed, 1);
	ck_assert_uint_eq(cat->ctx[VMSA_CTX_DIRECT].latency_ns, 2000000);
	ck_assert_uint_eq(cat->ctx[VMSA_CTX_DIRECT].in_progress, 1);
	ck_assert_uint_eq(cat->ctx[VMSA_CTX_DIRECT].in_progress_ns, 0);
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
	ck_assert_uint_eq(dd->ctx[VMSA_CTX_DIRECT].latency_ns, 500000);
	ck_assert_uint_eq(dd->ctx[VMSA_CTX_DIRECT].scanned_file, 32);
	ck_assert_uint_eq(k->kswapd_wakeups, 1);
	ck_assert_uint_eq(k->ctx[VMSA_CTX_KSWAPD].latency_ns, 1000000);
	ck_assert_uint_eq(k->ctx[VMSA_CTX_KSWAPD].scanned_anon, 128);
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
	ck_assert_uint_eq(dd->ctx[VMSA_CTX_DIRECT].latency_ns, 500000);
	ck_assert_uint_eq(dd->ctx[VMSA_CTX_DIRECT].scanned_file, 32);
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
	suite_add_tcase(s, tc);
	return s;
}
