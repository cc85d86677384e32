/* SPDX-License-Identifier: MIT */
/*
 * The extensible-struct rule of the public ABI (docs/abi.md, src/abi.h):
 * each function that reads or fills a caller's struct takes its size, as a
 * program built against another version of the header passes it.  Here the
 * _sized functions are called as such a program would: with a struct that
 * ends earlier (an older program) or later (a newer one) than this
 * library's.
 */
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"
/* the catalogue's and the summary's field tables in one file: their
 * tags (enum vmsa_ev_field, struct vmsa_field) must not clash */
#include "input/events.h"
#include "summary_fields.h"
#include "vmsa/vmsa.h"

/* a summary of one completed direct reclaim of 5 pages scanned */
static struct vmsa_summary *one_reclaim(void)
{
	struct vmsa_stats *st = NULL;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	struct vmsa_event b = {.type = VMSA_EV_RECLAIM_BEGIN, .ctx = VMSA_CTX_DIRECT, .ts_ns = 1000,
			       .pid = 7, .cpu = 0, .comm = "dd", .comm_len = 2, .order = 0, .nid = -1,
			       .file = -1, .sync = -1, .priority = -1};
	struct vmsa_event i = b, e = b;
	i.type = VMSA_EV_LRU_ISOLATE;
	i.ts_ns = 1500;
	i.nr_scanned = 5;
	i.nr_taken = 5;
	e.type = VMSA_EV_RECLAIM_END;
	e.ts_ns = 3000;
	e.nr_reclaimed = 5;
	ck_assert_int_eq(vmsa_stats_add(st, &b), 0);
	ck_assert_int_eq(vmsa_stats_add(st, &i), 0);
	ck_assert_int_eq(vmsa_stats_add(st, &e), 0);
	struct vmsa_summary *sum = NULL;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	vmsa_stats_free(st);
	return sum;
}

/* The rule itself, on a struct of two versions: every struct of the
 * library is still of its first version, so an older caller is only
 * made up here. */
struct v1 {
	uint64_t a;
	int32_t b;
};
struct v2 {
	uint64_t a;
	int32_t b;
	uint32_t v1_pad; /* version 1's tail padding: never a member (docs/abi.md) */
	int32_t c;	 /* added in version 2: 0 means not said */
	uint64_t d;
};

START_TEST(test_rule)
{
	struct v2 lib = {.a = 1, .b = 2, .c = 3, .d = 4}, got;
	size_t v1_end = VMSA_END_OF(struct v1, b);
	/* out to an older caller: its bytes only */
	unsigned char buf[sizeof(struct v2) + 8];
	memset(buf, 0xa5, sizeof buf);
	ck_assert_int_eq(vmsa_abi_out(buf, sizeof(struct v1), &lib, sizeof lib, v1_end), 0);
	ck_assert(memcmp(buf, &lib, v1_end) == 0);
	for (size_t k = sizeof(struct v1); k < sizeof buf; k++)
		ck_assert_uint_eq(buf[k], 0xa5);
	/* in from an older caller: what it does not have is 0 */
	struct v1 old = {.a = 8, .b = 9};
	memset(&got, 0xa5, sizeof got);
	ck_assert_int_eq(vmsa_abi_in(&got, sizeof got, &old, sizeof old, v1_end), 0);
	ck_assert(got.a == 8 && got.b == 9 && got.c == 0 && got.d == 0);
	/* below the first version, both ways: refused, untouched */
	ck_assert_int_eq(vmsa_abi_in(&got, sizeof got, &old, v1_end - 1, v1_end), VMSA_E_INVAL);
	ck_assert_int_eq(got.a, 8);
	ck_assert_int_eq(vmsa_abi_out(buf, v1_end - 1, &lib, sizeof lib, v1_end), VMSA_E_INVAL);
}
END_TEST

START_TEST(test_totals_of_other_sizes)
{
	struct vmsa_summary *sum = one_reclaim();
	struct vmsa_totals whole;
	ck_assert_int_eq(vmsa_summary_totals(sum, &whole), 0);
	ck_assert_uint_eq(whole.ctx[VMSA_CTX_DIRECT].reclaims, 1);
	ck_assert_uint_eq(whole.ctx[VMSA_CTX_DIRECT].pages_scanned, 5);

	/* an older program's struct ends at its first version's end: filled
	 * up to there, not a byte further */
	size_t old = VMSA_ABI_MIN_TOTALS;
	unsigned char buf[sizeof(struct vmsa_totals) + 64];
	memset(buf, 0xa5, sizeof buf);
	ck_assert_int_eq(vmsa_summary_totals_sized(sum, (struct vmsa_totals *)buf, old), 0);
	ck_assert(memcmp(buf, &whole, old) == 0);
	for (size_t k = old; k < sizeof buf; k++)
		ck_assert_msg(buf[k] == 0xa5, "byte %zu past the caller's struct written", k);

	/* a newer program's struct is longer: what this library does not
	 * know of it is zeroed */
	memset(buf, 0xa5, sizeof buf);
	ck_assert_int_eq(vmsa_summary_totals_sized(sum, (struct vmsa_totals *)buf, sizeof buf), 0);
	ck_assert(memcmp(buf, &whole, sizeof whole) == 0);
	for (size_t k = sizeof whole; k < sizeof buf; k++)
		ck_assert_uint_eq(buf[k], 0);

	/* shorter than any version: refused, nothing written */
	memset(buf, 0xa5, sizeof buf);
	ck_assert_int_eq(vmsa_summary_totals_sized(sum, (struct vmsa_totals *)buf, old - 1),
			 VMSA_E_INVAL);
	ck_assert_uint_eq(buf[0], 0xa5);
	vmsa_summary_free(sum);
}
END_TEST

START_TEST(test_options_of_other_sizes)
{
	struct vmsa_stats *st = NULL;
	/* a newer program's options: its members past this library's are 0
	 * (not asked for), so they are read */
	unsigned char buf[sizeof(struct vmsa_stats_options) + 16] = {0};
	struct vmsa_stats_options *o = (struct vmsa_stats_options *)buf;
	o->max_tasks = 3;
	ck_assert_int_eq(vmsa_stats_new_sized(&st, o, sizeof buf), 0);
	vmsa_stats_free(st);
	/* one of them set: something this library cannot do, refused */
	buf[sizeof(struct vmsa_stats_options) + 3] = 1;
	st = (struct vmsa_stats *)1;
	ck_assert_int_eq(vmsa_stats_new_sized(&st, o, sizeof buf), VMSA_E_INVAL);
	ck_assert_ptr_null(st);
	/* below the first version: refused */
	ck_assert_int_eq(vmsa_stats_new_sized(&st, o, VMSA_ABI_MIN_STATS_OPTIONS - 1),
			 VMSA_E_INVAL);
	/* the options the stats take are the caller's: max_tasks 1 folds the
	 * second task */
	struct vmsa_stats_options one = {.max_tasks = 1};
	ck_assert_int_eq(vmsa_stats_new_sized(&st, &one, VMSA_ABI_MIN_STATS_OPTIONS), 0);
	for (int32_t pid = 1; pid <= 2; pid++) {
		struct vmsa_event w = {.type = VMSA_EV_WAKEUP_KSWAPD, .ts_ns = (uint64_t)pid,
				       .pid = pid, .comm = "t", .comm_len = 1, .order = 0,
				       .nid = -1, .file = -1, .sync = -1, .priority = -1};
		ck_assert_int_eq(vmsa_stats_add(st, &w), 0);
	}
	struct vmsa_summary *sum = NULL;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	struct vmsa_totals t;
	vmsa_summary_totals(sum, &t);
	ck_assert_uint_eq(t.tasks_folded, 1);
	vmsa_summary_free(sum);
	vmsa_stats_free(st);
}
END_TEST

START_TEST(test_event_of_other_sizes)
{
	/* an event from a newer program: read up to this library's end when
	 * the rest is 0, refused when not */
	struct vmsa_stats *st = NULL;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	unsigned char buf[sizeof(struct vmsa_event) + 8] = {0};
	struct vmsa_event *w = (struct vmsa_event *)buf;
	*w = (struct vmsa_event){.type = VMSA_EV_WAKEUP_KSWAPD, .ts_ns = 5, .pid = 9, .comm = "x",
				 .comm_len = 1, .order = 2, .nid = -1, .file = -1, .sync = -1,
				 .priority = -1};
	ck_assert_int_eq(vmsa_stats_add_sized(st, w, sizeof buf), 0);
	buf[sizeof buf - 1] = 7;
	ck_assert_int_eq(vmsa_stats_add_sized(st, w, sizeof buf), VMSA_E_INVAL);
	ck_assert_int_eq(vmsa_stats_add_sized(st, w, VMSA_ABI_MIN_EVENT - 1), VMSA_E_INVAL);
	/* and from an older one, as long as the first version */
	ck_assert_int_eq(vmsa_stats_add_sized(st, w, VMSA_ABI_MIN_EVENT), 0);
	struct vmsa_summary *sum = NULL;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	struct vmsa_totals t;
	vmsa_summary_totals(sum, &t);
	ck_assert_uint_eq(t.wakeup_kswapd, 2);
	vmsa_summary_free(sum);
	vmsa_stats_free(st);

	/* decoded into an older program's event: filled up to its size */
	struct vmsa_text_parser *p = NULL;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	static const char line[] =
		"dd-7 [000] .... 1.000001: mm_vmscan_wakeup_kswapd: nid=0 order=3 gfp_flags=GFP_KERNEL";
	unsigned char ev[sizeof(struct vmsa_event) + 8];
	memset(ev, 0xa5, sizeof ev);
	enum vmsa_reject_reason why;
	ck_assert_int_eq(vmsa_text_parse_line_sized(p, line, sizeof line - 1,
						    (struct vmsa_event *)ev, VMSA_ABI_MIN_EVENT,
						    &why),
			 VMSA_LINE_EVENT);
	ck_assert_int_eq(((struct vmsa_event *)ev)->order, 3);
	ck_assert_int_eq(((struct vmsa_event *)ev)->pid, 7);
	for (size_t k = VMSA_ABI_MIN_EVENT; k < sizeof ev; k++)
		ck_assert_msg(ev[k] == 0xa5, "byte %zu past the caller's event written", k);
	vmsa_text_parser_free(p);
}
END_TEST

Suite *abi_suite(void)
{
	Suite *s = suite_create("abi");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_rule);
	tcase_add_test(tc, test_totals_of_other_sizes);
	tcase_add_test(tc, test_options_of_other_sizes);
	tcase_add_test(tc, test_event_of_other_sizes);
	suite_add_tcase(s, tc);
	return s;
}
