/* SPDX-License-Identifier: MIT */
/*
 * The event catalogue: a field name added to a copy of it is read by a text
 * parser made with that copy, with no decoder code changed; the catalogue
 * the analyzer uses is left alone.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "input/events.h"
#include "input/input.h"
#include "vmsa/vmsa.h"
#include "asserts.h"

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
	/* a name shorter than the text parser's event hash reads */
	cat = vmsa_catalogue;
	cat.event[0].names[1].name = "sched_wake";
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new_with(&p, &cat), VMSA_E_INVAL);
}
END_TEST

/*
 * writeback_start as a kernel's format file says it (the fields of 6.1's
 * include/trace/events/writeback.h), its reason symbols numbered as syms
 * says: the record's number means what the format's names say.
 */
static const char wb_format[] =
	"name: writeback_start\nID: %d\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char name[32];\toffset:8;\tsize:32;\tsigned:0;\n"
	"\tfield:long nr_pages;\toffset:40;\tsize:8;\tsigned:1;\n"
	"\tfield:dev_t sb_dev;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\tfield:int sync_mode;\toffset:52;\tsize:4;\tsigned:1;\n"
	"\tfield:int for_kupdate;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int range_cyclic;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\tfield:int for_background;\toffset:64;\tsize:4;\tsigned:1;\n"
	"\tfield:int reason;\toffset:68;\tsize:4;\tsigned:1;\n"
	"\tfield:ino_t cgroup_ino;\toffset:72;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"bdi %%s: sb_dev %%d:%%d nr_pages=%%ld sync_mode=%%d kupdate=%%d "
	"range_cyclic=%%d background=%%d reason=%%s cgroup_ino=%%lu\", REC->name, "
	"((unsigned int) ((REC->sb_dev) >> 20)), ((unsigned int) ((REC->sb_dev) & ((1U << 20) - 1))), "
	"REC->nr_pages, REC->sync_mode, REC->for_kupdate, REC->range_cyclic, REC->for_background, "
	"__print_symbolic(REC->reason, %s), (unsigned long)REC->cgroup_ino\n";

/* a writeback_start record of reason number reason, decoded by a format
 * whose symbols are syms */
static enum vmsa_wb_reason wb_decode(const char *syms, int32_t reason, int64_t *nr_pages)
{
	struct tep_handle *tep = tep_alloc();
	ck_assert_ptr_nonnull(tep);
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep));
	char fmt[4096];
	int n = snprintf(fmt, sizeof(fmt), wb_format, 700, syms);
	ck_assert(n > 0 && (size_t)n < sizeof(fmt));
	struct tep_event *e = NULL;
	ck_assert_int_eq(tep_parse_format(tep, &e, fmt, (unsigned long)n, "writeback"), 0);
	unsigned char data[80] = {0};
	uint16_t type = 700;
	int32_t pid = 42;
	int64_t pages = 1234;
	memcpy(data, &type, 2);
	memcpy(data + 4, &pid, 4);
	memcpy(data + 40, &pages, 8);
	memcpy(data + 68, &reason, 4);
	struct tep_record r;
	memset(&r, 0, sizeof(r));
	r.ts = 1000;
	r.size = sizeof(data);
	r.data = data;
	struct vmsa_source_counts counts;
	struct vmsa_traits traits;
	memset(&counts, 0, sizeof(counts));
	memset(&traits, 0, sizeof(traits));
	struct vmsa_bin_decoder d;
	ck_assert_int_eq(vmsa_bin_decoder_init(&d, &counts, &traits), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason why;
	ck_assert_int_eq(vmsa_bin_decode(&d, tep, &r, &ev, &why), VMSA_BIN_EVENT);
	ck_assert_int_eq(ev.type, VMSA_EV_WB_START);
	ck_assert_int_eq(ev.pid, 42);
	*nr_pages = ev.wb_nr_pages;
	vmsa_bin_decoder_release(&d);
	tep_free(tep);
	return ev.wb_reason;
}

START_TEST(test_writeback_reason_by_format)
{
	static const char v3[] = "{ 0, \"background\" }, { 1, \"try_to_free_pages\" }, "
				 "{ 2, \"sync\" }, { 3, \"periodic\" }, { 4, \"laptop_timer\" }, "
				 "{ 5, \"free_more_memory\" }, { 6, \"fs_free_space\" }, "
				 "{ 7, \"forker_thread\" }";
	static const char v6[] = "{ 0, \"background\" }, { 1, \"vmscan\" }, { 2, \"sync\" }, "
				 "{ 3, \"periodic\" }, { 4, \"laptop_timer\" }, "
				 "{ 5, \"fs_free_space\" }, { 6, \"forker_thread\" }, "
				 "{ 7, \"foreign_flush\" }, { 8, \"new_one\" }";
	int64_t pages;
	ck_assert_int_eq(wb_decode(v3, 1, &pages), VMSA_WB_VMSCAN);
	ck_assert_int_eq(pages, 1234);
	ck_assert_int_eq(wb_decode(v6, 1, &pages), VMSA_WB_VMSCAN);
	ck_assert_int_eq(wb_decode(v3, 5, &pages), VMSA_WB_FREE_MORE_MEM);
	ck_assert_int_eq(wb_decode(v6, 5, &pages), VMSA_WB_FS_FREE_SPACE);
	ck_assert_int_eq(wb_decode(v6, 7, &pages), VMSA_WB_FOREIGN_FLUSH);
	/* a name this tool does not know, and a number the format does not name */
	ck_assert_int_eq(wb_decode(v6, 8, &pages), VMSA_WB_OTHER);
	ck_assert_int_eq(wb_decode(v6, 12, &pages), VMSA_WB_OTHER);
	ck_assert_int_eq(wb_decode(v6, -1, &pages), VMSA_WB_OTHER);
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
	tcase_add_test(tc, test_writeback_reason_by_format);
	suite_add_tcase(s, tc);
	return s;
}
