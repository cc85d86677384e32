/* SPDX-License-Identifier: MIT */
/*
 * The event catalogue: a field name added to a copy of it is read by a text
 * parser made with that copy, with no decoder code changed; the catalogue
 * the analyzer uses is left alone.
 */
#include <check.h>
#include <string.h>

#include "input/events.h"
#include "input/input.h"
#include "vmsa/vmsa.h"

/* an mm_vmscan_lru_isolate line that calls its scanned pages "nr_scan" */
static const char isolate_line[] =
	"  kswapd0-45 [001] 100.000001: mm_vmscan_lru_isolate: isolate_mode=0 "
	"classzone=2 order=0 nr_requested=32 nr_scan=17 nr_skipped=0 nr_taken=16 "
	"lru=inactive_file";

static enum vmsa_line_kind parse(const struct vmsa_catalogue *cat, const char *line,
				 struct vmsa_event *ev, enum vmsa_reject_reason *r)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new_with(&p, cat), 0);
	enum vmsa_line_kind k = vmsa_text_parse_line(p, line, strlen(line), ev, r);
	vmsa_text_parser_free(p);
	return k;
}

START_TEST(test_alias_through_catalogue)
{
	struct vmsa_event ev;
	enum vmsa_reject_reason r;
	/* without the alias, nr_scanned (required) is missing */
	ck_assert_int_eq(parse(&vmsa_catalogue, isolate_line, &ev, &r), VMSA_LINE_REJECTED);
	ck_assert_int_eq(r, VMSA_REJECT_MISSING_FIELD);

	struct vmsa_catalogue cat = vmsa_catalogue;
	ck_assert_int_eq(vmsa_catalogue_add_alias(&cat, VF_NR_SCANNED, "nr_scan"), 0);
	ck_assert_int_eq(parse(&cat, isolate_line, &ev, &r), VMSA_LINE_EVENT);
	ck_assert_int_eq(ev.type, VMSA_EV_LRU_ISOLATE);
	ck_assert_uint_eq(ev.nr_scanned, 17);
	ck_assert_uint_eq(ev.nr_taken, 16);
	ck_assert_int_eq(ev.lru, VMSA_LRU_INACTIVE_FILE);
	ck_assert_int_eq(ev.file, 1);

	/* the first name is read first: "nr_scanned" wins wherever it stands */
	static const char both[] = "  a-1 [000] 1.000001: mm_vmscan_lru_isolate: nr_scan=5 "
				   "nr_scanned=9 nr_taken=1 lru=active_anon";
	ck_assert_int_eq(parse(&cat, both, &ev, &r), VMSA_LINE_EVENT);
	ck_assert_uint_eq(ev.nr_scanned, 9);

	/* the analyzer's own catalogue did not change */
	ck_assert_int_eq(parse(&vmsa_catalogue, isolate_line, &ev, &r), VMSA_LINE_REJECTED);
}
END_TEST

/* A new name for an event, likewise: one catalogue entry. */
START_TEST(test_event_name_through_catalogue)
{
	struct vmsa_catalogue cat = vmsa_catalogue;
	for (int i = 0; i < VMSA_NEVENTS; i++)
		if (cat.event[i].type == VMSA_EV_KSWAPD_SLEEP)
			cat.event[i].names[1].name = "mm_vmscan_kswapd_nap";
	static const char line[] = "  kswapd0-45 [001] 2.000001: mm_vmscan_kswapd_nap: nid=0";
	struct vmsa_event ev;
	enum vmsa_reject_reason r;
	ck_assert_int_eq(parse(&vmsa_catalogue, line, &ev, &r), VMSA_LINE_IGNORED);
	ck_assert_int_eq(parse(&cat, line, &ev, &r), VMSA_LINE_EVENT);
	ck_assert_int_eq(ev.type, VMSA_EV_KSWAPD_SLEEP);
	ck_assert_int_eq(ev.nid, 0);
}
END_TEST

/* A catalogue the text parser cannot hold is refused, not misread. */
START_TEST(test_catalogue_limits)
{
	struct vmsa_catalogue cat = vmsa_catalogue;
	ck_assert_int_eq(vmsa_catalogue_add_alias(&cat, VF_NID, "a"), 0);
	ck_assert_int_eq(vmsa_catalogue_add_alias(&cat, VF_NID, "b"), 0);
	ck_assert_int_eq(vmsa_catalogue_add_alias(&cat, VF_NID, "c"), 0);
	ck_assert_int_eq(vmsa_catalogue_add_alias(&cat, VF_NID, "d"), VMSA_E_INVAL);
	/* a name that is not an mm_ event */
	cat = vmsa_catalogue;
	cat.event[0].names[1].name = "sched_switch";
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new_with(&p, &cat), VMSA_E_INVAL);
}
END_TEST

Suite *catalogue_suite(void);
Suite *catalogue_suite(void)
{
	Suite *s = suite_create("catalogue");
	TCase *tc = tcase_create("catalogue");
	tcase_add_test(tc, test_alias_through_catalogue);
	tcase_add_test(tc, test_event_name_through_catalogue);
	tcase_add_test(tc, test_catalogue_limits);
	suite_add_tcase(s, tc);
	return s;
}
