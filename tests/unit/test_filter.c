/* SPDX-License-Identifier: MIT */
/* Record filters: what each criterion keeps, and the analysis that applies them. */
#define _GNU_SOURCE /* mkstemp */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "asserts.h"

static struct vmsa_event event(int32_t pid, const char *comm, int32_t cpu, uint64_t ts_ns)
{
	return (struct vmsa_event){.type = VMSA_EV_WAKEUP_KSWAPD, .pid = pid, .comm = comm,
				   .comm_len = strlen(comm), .cpu = cpu, .ts_ns = ts_ns};
}

static struct vmsa_filter *filter(enum vmsa_filter_kind kind, const char *arg)
{
	struct vmsa_filter *f;
	ck_assert_int_eq(vmsa_filter_new(&f), 0);
	ck_assert_int_eq(vmsa_filter_add(f, kind, arg), 0);
	return f;
}

static int keeps(const struct vmsa_filter *f, int32_t pid, const char *comm, int32_t cpu,
		 uint64_t ts_ns)
{
	struct vmsa_event ev = event(pid, comm, cpu, ts_ns);
	return vmsa_filter_keeps(f, &ev);
}

START_TEST(test_empty_filter_keeps_all)
{
	struct vmsa_filter *f;
	ck_assert_int_eq(vmsa_filter_new(&f), 0);
	ck_assert(keeps(f, 1, "a", 0, 0));
	ck_assert(keeps(f, 99999, "kswapd0", 63, UINT64_MAX));
	vmsa_filter_free(f);
	vmsa_filter_free(NULL);
}
END_TEST

START_TEST(test_pids)
{
	struct vmsa_filter *f = filter(VMSA_FILTER_PID, "7,3,7");
	ck_assert(keeps(f, 3, "x", 0, 0));
	ck_assert(keeps(f, 7, "x", 0, 0));
	ck_assert(!keeps(f, 4, "x", 0, 0));
	ck_assert(!keeps(f, 37, "x", 0, 0));
	/* repeated: the pids add up; a bad list adds nothing */
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_PID, "4"), 0);
	ck_assert(keeps(f, 4, "x", 0, 0));
	const char *bad[] = {"", ",", "1,", "1,,2", "-1", "a", "1 2", "2147483648", "0x10"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(vmsa_filter_add(f, VMSA_FILTER_PID, bad[i]) == VMSA_E_INVAL, "'%s'",
			      bad[i]);
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_PID, "5,x"), VMSA_E_INVAL);
	ck_assert(!keeps(f, 5, "x", 0, 0));
	ck_assert(keeps(f, 3, "x", 0, 0));
	vmsa_filter_free(f);
}
END_TEST

START_TEST(test_comm_globs)
{
	/* task names hold '/', '.', spaces: fnmatch without FNM_PATHNAME or FNM_PERIOD */
	struct vmsa_filter *f = filter(VMSA_FILTER_COMM, "kworker/*");
	ck_assert(keeps(f, 1, "kworker/u8:2", 0, 0));
	ck_assert(!keeps(f, 1, "kworke", 0, 0));
	ck_assert(!keeps(f, 1, "xkworker/1", 0, 0));
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_COMM, "Web Co?tent"), 0);
	ck_assert(keeps(f, 1, "Web Content", 0, 0));
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_COMM, "*.sh"), 0);
	ck_assert(keeps(f, 1, ".run.sh", 0, 0));
	ck_assert(!keeps(f, 1, "<...>", 0, 0));
	/* the name is the event's bytes, not a C string */
	struct vmsa_event ev = event(1, "kworker/3 and more", 0, 0);
	ev.comm_len = 9;
	ck_assert(keeps(f, 1, "kworker/3", 0, 0) && vmsa_filter_keeps(f, &ev));
	ev.comm_len = 7;
	ck_assert(!vmsa_filter_keeps(f, &ev));
	char long_name[300];
	memset(long_name, 'k', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_COMM, "k*k"), 0);
	ck_assert(keeps(f, 1, long_name, 0, 0));
	vmsa_filter_free(f);
}
END_TEST

START_TEST(test_cpus)
{
	struct vmsa_filter *f = filter(VMSA_FILTER_CPU, "0,2-3");
	ck_assert(keeps(f, 1, "x", 0, 0));
	ck_assert(!keeps(f, 1, "x", 1, 0));
	ck_assert(keeps(f, 1, "x", 2, 0));
	ck_assert(keeps(f, 1, "x", 3, 0));
	ck_assert(!keeps(f, 1, "x", 4, 0));
	ck_assert(!keeps(f, 1, "x", 64, 0));
	ck_assert(!keeps(f, 1, "x", -1, 0)); /* not said: not on those CPUs */
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_CPU, "130"), 0);
	ck_assert(keeps(f, 1, "x", 130, 0));
	ck_assert(!keeps(f, 1, "x", 129, 0));
	const char *bad[] = {"", "3-2", "1-", "-1", "1,,2", "a", "2000000"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(vmsa_filter_add(f, VMSA_FILTER_CPU, bad[i]) == VMSA_E_INVAL, "'%s'",
			      bad[i]);
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_CPU, "5,x"), VMSA_E_INVAL);
	ck_assert(!keeps(f, 1, "x", 5, 0));
	vmsa_filter_free(f);
}
END_TEST

START_TEST(test_time_window)
{
	/* seconds as the timestamp column prints them, exact to the nanosecond */
	struct vmsa_filter *f = filter(VMSA_FILTER_SINCE, "9.994143");
	ck_assert(!keeps(f, 1, "x", 0, 9994142999ull));
	ck_assert(keeps(f, 1, "x", 0, 9994143000ull));
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_UNTIL, "10.000000001"), 0);
	ck_assert(keeps(f, 1, "x", 0, 10000000001ull));
	ck_assert(!keeps(f, 1, "x", 0, 10000000002ull));
	/* since after until is refused, and changes nothing */
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_SINCE, "11"), VMSA_E_INVAL);
	ck_assert(keeps(f, 1, "x", 0, 9994143000ull));
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_UNTIL, "9"), VMSA_E_INVAL);
	const char *bad[] = {"", ".5", "1.", "1.0000000001", "-1", "1e3", "1,5", "99999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(vmsa_filter_add(f, VMSA_FILTER_UNTIL, bad[i]) == VMSA_E_INVAL, "'%s'",
			      bad[i]);
	vmsa_filter_free(f);
	f = filter(VMSA_FILTER_UNTIL, "12");
	ck_assert(keeps(f, 1, "x", 0, 0));
	ck_assert(keeps(f, 1, "x", 0, 12000000000ull));
	ck_assert(!keeps(f, 1, "x", 0, 12000000001ull));
	vmsa_filter_free(f);
}
END_TEST

START_TEST(test_kinds_and_lost_markers)
{
	struct vmsa_filter *f = filter(VMSA_FILTER_PID, "5");
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_COMM, "dd"), 0);
	ck_assert(keeps(f, 5, "dd", 0, 0));
	ck_assert(!keeps(f, 5, "cat", 0, 0));
	ck_assert(!keeps(f, 6, "dd", 0, 0));
	/* the tracer's losses are kept whatever the criteria */
	struct vmsa_event lost = event(0, "", -1, 0);
	lost.type = VMSA_EV_LOST;
	ck_assert(vmsa_filter_keeps(f, &lost));
	ck_assert_int_eq(vmsa_filter_add(f, (enum vmsa_filter_kind)99, "1"), VMSA_E_INVAL);
	vmsa_filter_free(f);
}
END_TEST

/*
 * Through the analysis: pid 10's first reclaim began before --since (an end
 * without a begin), its third ends after --until (in progress); pid 20's
 * events are filtered out; every line is counted once.
 */
static const char window_trace[] =
	"# tracer: nop\n"
	"            a-10    [000] .....   1.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n"
	"            a-10    [000] .....   2.500000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n"
	"            b-20    [001] .....   3.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n"
	"            b-20    [001] .....   3.100000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n"
	"            a-10    [000] .....   4.000000: mm_vmscan_direct_reclaim_begin: order=1 gfp_flags=GFP_KERNEL\n"
	"            a-10    [000] .....   4.250000: mm_vmscan_direct_reclaim_end: nr_reclaimed=2\n"
	"            a-10    [000] .....   7.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n"
	"            a-10    [000] .....   9.000000: mm_vmscan_direct_reclaim_end: nr_reclaimed=3\n";

START_TEST(test_analysis_window)
{
	char path[] = "/tmp/vmsa-filter-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, window_trace, strlen(window_trace)), (ssize_t)strlen(window_trace));
	close(fd);
	struct vmsa_filter *f = filter(VMSA_FILTER_SINCE, "2");
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_UNTIL, "8"), 0);
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_PID, "10"), 0);
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	const char *paths[] = {path};
	struct vmsa_analyze_options o = {.filter = f};
	ck_assert_int_eq(vmsa_analyze_files(st, paths, 1, &o, NULL), 0);
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	struct vmsa_totals t;
	vmsa_summary_totals(sum, &t);
	const struct vmsa_ctx_totals *d = &t.ctx[VMSA_CTX_DIRECT];
	ck_assert_uint_eq(d->reclaims, 2);		/* at 4 and at 7 */
	ck_assert_uint_eq(d->reclaims_completed, 1);	/* 4..4.25 */
	ck_assert_uint_eq(d->latency_ns, 250000000);
	ck_assert_uint_eq(d->in_progress, 1);		/* 7.., its end after --until */
	ck_assert_uint_eq(t.unmatched_ends, 1);		/* ..2.5, its begin before --since */
	ck_assert_ptr_null(vmsa_summary_find_task(sum, "b", 20));
	ck_assert_uint_eq(sum->nsources, 1);
	const struct vmsa_source_counts *c = &sum->sources[0].counts;
	ck_assert_uint_eq(c->lines_read, 9);
	ck_assert_uint_eq(c->lines_analyzed, 4);
	ck_assert_uint_eq(c->lines_filtered, 4);
	ck_assert_uint_eq(c->lines_ignored, 1);
	vmsa_summary_free(sum);
	vmsa_stats_free(st);
	vmsa_filter_free(f);
	unlink(path);
}
END_TEST

START_TEST(test_instances)
{
	struct vmsa_filter *f = filter(VMSA_FILTER_INSTANCE, "mm");
	struct vmsa_event ev = event(5, "dd", 0, 0);
	ck_assert(!vmsa_filter_keeps(f, &ev)); /* the top buffer's */
	ev.instance = "mmx";
	ev.instance_len = 2;			 /* "mm", not NUL-terminated */
	ck_assert(vmsa_filter_keeps(f, &ev));
	ev.instance_len = 3;
	ck_assert(!vmsa_filter_keeps(f, &ev));
	/* an instance's lost markers are its own */
	struct vmsa_event lost = event(0, "", -1, 0);
	lost.type = VMSA_EV_LOST;
	ck_assert(!vmsa_filter_keeps(f, &lost));
	lost.instance = "mm";
	lost.instance_len = 2;
	ck_assert(vmsa_filter_keeps(f, &lost));
	/* repeated: alternatives; top names the top buffer */
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_INSTANCE, VMSA_TOP_BUFFER), 0);
	ev.instance = NULL;
	ev.instance_len = 0;
	ck_assert(vmsa_filter_keeps(f, &ev));
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_INSTANCE, ""), VMSA_E_INVAL);
	ck_assert_int_eq(vmsa_filter_add(f, VMSA_FILTER_INSTANCE, "a/b"), VMSA_E_INVAL);
	vmsa_filter_free(f);
}
END_TEST

/* One buffer of fixtures/handmade/two-buffers.txt (hand counts in its README) */
static struct vmsa_summary *of_buffer(const char *path, const char *instance)
{
	struct vmsa_filter *f = filter(VMSA_FILTER_INSTANCE, instance);
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	struct vmsa_analyze_options o = {.filter = f};
	ck_assert_int_eq(vmsa_analyze_files(st, &path, 1, &o, NULL), 0);
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	vmsa_stats_free(st);
	vmsa_filter_free(f);
	return sum;
}

START_TEST(test_analysis_instances)
{
	const char *path = FIXTURES_DIR "/handmade/two-buffers.txt";
	struct vmsa_totals t;
	/* the top buffer: its 6 events; mm's 6 and its marker filtered */
	struct vmsa_summary *sum = of_buffer(path, "top");
	vmsa_summary_totals(sum, &t);
	const struct vmsa_source_counts *c = &sum->sources[0].counts;
	ck_assert_uint_eq(c->lines_read, 19);
	ck_assert_uint_eq(c->lines_analyzed, 6);
	ck_assert_uint_eq(c->lines_filtered, 7);
	ck_assert_uint_eq(c->lines_ignored, 6);
	ck_assert_uint_eq(c->lines_lost_markers, 0);
	ck_assert_uint_eq(t.events_lost, 0);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].reclaims, 1);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].reclaims_completed, 1);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].pages_scanned, 32);
	ck_assert_uint_eq(t.kswapd_wakeups, 1);
	ck_assert_uint_eq(t.kswapd_rewakeups, 0);
	ck_assert_uint_eq(t.unmatched_ends, 0);
	/* (the buffers analyzed: the filter's) */
	ck_assert_uint_eq(sum->sources[0].traits.top_buffer_events, 6);
	ck_assert_uint_eq(sum->sources[0].traits.instance_events[0].count, 0);
	vmsa_summary_free(sum);
	/* mm: its 6 events, the end after the marker among them, and the marker */
	sum = of_buffer(path, "mm");
	vmsa_summary_totals(sum, &t);
	c = &sum->sources[0].counts;
	ck_assert_uint_eq(c->lines_analyzed, 6);
	ck_assert_uint_eq(c->lines_filtered, 6);
	ck_assert_uint_eq(c->lines_lost_markers, 1);
	ck_assert_uint_eq(t.events_lost, 3);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].reclaims_completed, 1);
	ck_assert_uint_eq(t.ctx[VMSA_CTX_DIRECT].pages_scanned, 32);
	ck_assert_uint_eq(t.unmatched_ends, 0);
	ck_assert_uint_eq(sum->sources[0].traits.top_buffer_events, 0);
	ck_assert_str_eq(sum->sources[0].traits.instance_events[0].name, "mm");
	ck_assert_uint_eq(sum->sources[0].traits.instance_events[0].count, 7);
	vmsa_summary_free(sum);
	/* a trace.dat recorded in instance "dat" alone: none of it is the top's */
	path = FIXTURES_DIR "/6.1/dirty-swap/upstream-dat8k/trace.dat";
	sum = of_buffer(path, "top");
	c = &sum->sources[0].counts;
	ck_assert_uint_eq(c->lines_analyzed + c->lines_lost_markers, 0);
	ck_assert_uint_gt(c->lines_filtered, 40000);
	vmsa_summary_free(sum);
	sum = of_buffer(path, "dat");
	c = &sum->sources[0].counts;
	ck_assert_uint_eq(c->lines_filtered, 0);
	ck_assert_uint_eq(sum->sources[0].traits.instance_events[0].count,
			  c->lines_analyzed + c->lines_lost_markers);
	vmsa_summary_free(sum);
}
END_TEST

Suite *filter_suite(void)
{
	Suite *s = suite_create("filter");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_empty_filter_keeps_all);
	tcase_add_test(tc, test_pids);
	tcase_add_test(tc, test_comm_globs);
	tcase_add_test(tc, test_cpus);
	tcase_add_test(tc, test_time_window);
	tcase_add_test(tc, test_kinds_and_lost_markers);
	tcase_add_test(tc, test_analysis_window);
	tcase_add_test(tc, test_instances);
	tcase_add_test(tc, test_analysis_instances);
	suite_add_tcase(s, tc);
	return s;
}
