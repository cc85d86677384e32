/* SPDX-License-Identifier: MIT */
/*
 * The text decoder takes shortcuts learned from earlier lines
 * (src/input/text*.c): it reads an event's fields in place once it knows
 * their layout, takes the task and pid of a line that begins like an
 * earlier one, and gives the values of a field text it has decoded before.
 * These tests hold it to the general reader: every line, and every damaged
 * copy of a line read right after its intact original, must decode to the
 * same outcome, reason, event and traits with the shortcuts on (all, or all
 * but the remembered values, so that layouts are read) and off.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/input.h"
#include "vmsa/vmsa.h"
#include "asserts.h"

struct pair {
	/* every shortcut; all but remembered values; none */
	struct vmsa_text_parser *all, *fast, *general;
	unsigned long lines, events;
};

static void pair_init(struct pair *p)
{
	ck_assert_int_eq(vmsa_text_parser_new(&p->all), 0);
	ck_assert_int_eq(vmsa_text_parser_new(&p->fast), 0);
	ck_assert_int_eq(vmsa_text_parser_new(&p->general), 0);
	vmsa_text_parser_remember_values(p->fast, false);
	vmsa_text_parser_use_layouts(p->general, false);
	p->lines = p->events = 0;
}

static void pair_free(struct pair *p)
{
	const struct vmsa_traits *a = vmsa_text_parser_traits(p->fast);
	const struct vmsa_traits *b = vmsa_text_parser_traits(p->general);
	const struct vmsa_traits *c = vmsa_text_parser_traits(p->all);
	ck_assert_msg(memcmp(a, b, sizeof(*a)) == 0, "traits differ");
	ck_assert_msg(memcmp(c, b, sizeof(*c)) == 0, "traits differ (remembered values)");
	vmsa_text_parser_free(p->all);
	vmsa_text_parser_free(p->fast);
	vmsa_text_parser_free(p->general);
}

/* One line through both; they must agree on everything. */
static void both(struct pair *p, const char *line, size_t len)
{
	struct vmsa_event a, b, c;
	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	memset(&c, 0x5a, sizeof(c));
	enum vmsa_reject_reason ra = VMSA_REJECT__COUNT, rb = VMSA_REJECT__COUNT,
				rc = VMSA_REJECT__COUNT;
	enum vmsa_line_kind ka = vmsa_text_parse_line(p->fast, line, len, &a, &ra);
	enum vmsa_line_kind kb = vmsa_text_parse_line(p->general, line, len, &b, &rb);
	enum vmsa_line_kind kc = vmsa_text_parse_line(p->all, line, len, &c, &rc);
	p->lines++;
	ck_assert_msg(ka == kb && kc == kb, "kind %d, %d vs %d: '%.*s'", ka, kc, kb, (int)len, line);
	if (ka == VMSA_LINE_REJECTED)
		ck_assert_msg(ra == rb && rc == rb, "reason %d, %d vs %d: '%.*s'", ra, rc, rb,
			      (int)len, line);
	if (ka == VMSA_LINE_EVENT || ka == VMSA_LINE_LOST) {
		p->events++;
		/* the instance after a lost-events marker is each decoder's own
		 * copy of its name: the same by content */
		const struct vmsa_event *ev[] = {&a, &c};
		for (int i = 0; i < 2; i++)
			ck_assert_msg(ev[i]->instance_len == b.instance_len && !ev[i]->instance == !b.instance &&
					      (!b.instance ||
					       memcmp(ev[i]->instance, b.instance, b.instance_len) == 0),
				      "instances differ: '%.*s'", (int)len, line);
		a.instance = b.instance = c.instance = NULL;
		/* all were cleared by the decoder, comm points into line */
		ck_assert_msg(memcmp(&a, &b, sizeof(a)) == 0, "events differ: '%.*s'", (int)len,
			      line);
		ck_assert_msg(memcmp(&c, &b, sizeof(c)) == 0,
			      "events differ (remembered values): '%.*s'", (int)len, line);
	}
}

/* A line, then damaged copies of it, each after the intact line again. */
static void damage(struct pair *p, const char *line, size_t len)
{
	static const char subst[] = {' ', '=', '\t', 'x', '-', '|', '0', '9', ':'};
	char *buf = malloc(len + 2);
	ck_assert_ptr_nonnull(buf);
	for (size_t i = 0; i <= len; i++) {
		/* replace byte i */
		for (size_t s = 0; s < sizeof(subst) && i < len; s++) {
			both(p, line, len);
			memcpy(buf, line, len);
			buf[i] = subst[s];
			both(p, buf, len);
		}
		/* delete byte i */
		if (i < len) {
			both(p, line, len);
			memcpy(buf, line, i);
			memcpy(buf + i, line + i + 1, len - i - 1);
			both(p, buf, len - 1);
		}
		/* insert a space at i; cut at i */
		both(p, line, len);
		memcpy(buf, line, i);
		buf[i] = ' ';
		memcpy(buf + i + 1, line + i, len - i);
		both(p, buf, len + 1);
		both(p, line, len);
		both(p, line, i);
	}
	free(buf);
}

static const char *const samples[] = {
	/* 6.1 trace_pipe, one of each field list */
	"           <...>-1234    [001] .....   100.000001: mm_vmscan_direct_reclaim_begin: "
	"order=0 gfp_flags=GFP_HIGHUSER_MOVABLE",
	"           <...>-1234    [001] .....   100.000101: mm_vmscan_direct_reclaim_end: "
	"nr_reclaimed=32",
	"           <...>-1234    [001] .....   100.000050: mm_vmscan_lru_isolate: classzone=2 "
	"order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file",
	"           <...>-1234    [001] .....   100.000060: mm_vmscan_lru_shrink_inactive: nid=0 "
	"nr_scanned=32 nr_reclaimed=30 nr_dirty=2 nr_writeback=0 nr_congested=0 nr_immediate=0 "
	"nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 "
	"flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC",
	"           <...>-1234    [001] .....   100.000070: mm_vmscan_lru_shrink_active: nid=0 "
	"nr_taken=32 nr_active=10 nr_deactivated=22 nr_referenced=3 priority=12 "
	"flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC",
	"           <...>-1234    [001] .....   100.000080: mm_vmscan_write_folio: page=0 "
	"pfn=0x1234 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC nr_pages=4",
	"         kswapd0-45      [000] .....   100.000090: mm_vmscan_kswapd_wake: nid=0 order=3",
	"         kswapd0-45      [000] .....   100.000091: mm_vmscan_kswapd_sleep: nid=0",
	"              dd-77      [000] .....   100.000092: mm_vmscan_wakeup_kswapd: nid=0 "
	"order=2 gfp_flags=GFP_KERNEL",
	"              dd-77      [000] .....   100.000093: mm_vmscan_throttled: nid=0 "
	"usec_timeout=100000 usect_delayed=20000 reason=VMSCAN_THROTTLE_WRITEBACK",
	"              dd-77      [000] .....   100.000094: mm_vmscan_wakeup_flusher: nid=0 "
	"nr_dirty=100 nr_pages=100 reason=all_dirty",
	"              dd-77      [000] .....   100.000095: mm_vmscan_memcg_reclaim_begin: order=0 "
	"gfp_flags=GFP_KERNEL",
	/* 2.6.35 (the seeds) */
	"            dd-3000  [001]  2000.100000: mm_vmscan_lru_isolate: isolate_mode=0 order=0 "
	"nr_requested=32 nr_scanned=32 nr_taken=32 contig_taken=0 contig_dirty=0 contig_failed=0",
	"            dd-3000  [001]  2000.100000: mm_vmscan_writepage: page=ffffea0001 pfn=4 "
	"file=1 sync_io=0",
	/* a repeated key: the first is read */
	"  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=1 nr_scanned=7 nr_taken=1 "
	"lru=active_anon",
	"  a-1 [000] 1.0: mm_shrink_slab_end: f+0x0/0x1 0000: nid: 0 unused scan count 0 new "
	"scan count 3 total_scan 0 last shrinker return val -1",
};

START_TEST(test_damaged_lines)
{
	struct pair p;
	pair_init(&p);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		damage(&p, samples[i], strlen(samples[i]));
	/* the comparisons were made on events, most read in place */
	ck_assert_uint_gt(p.events, 10000);
	ck_assert_uint_gt(vmsa_text_parser_layout_reads(p.fast), p.events / 4);
	ck_assert_uint_gt(vmsa_text_parser_value_reads(p.all), p.events / 4);
	ck_assert_uint_eq(vmsa_text_parser_layout_reads(p.general), 0);
	ck_assert_uint_eq(vmsa_text_parser_value_reads(p.general), 0);
	ck_assert_uint_eq(vmsa_text_parser_value_reads(p.fast), 0);
	pair_free(&p);
}
END_TEST

/*
 * Values remembered by the text from the first field read on: write_folio
 * lines whose page= and pfn= change on every line, then damaged copies; and
 * a text remembered whole that is also the tail of a line with two more
 * tokens, which the general reader stops short of (MAX_FIELDS tokens).
 */
START_TEST(test_partial_values)
{
	struct pair p;
	pair_init(&p);
	char line[1024];
	for (unsigned i = 0; i < 300; i++) {
		int n = snprintf(line, sizeof(line),
				 "     kswapd0-25      [000] .....    15.%06u: mm_vmscan_write_folio: "
				 "page=ffffea%010x pfn=0x%x nr_pages=1 flags=RECLAIM_WB_%s|RECLAIM_WB_ASYNC",
				 i, 0x20000u + i * 64, 0x800u + i, i % 3 ? "ANON" : "FILE");
		both(&p, line, (size_t)n);
	}
	uint64_t before = vmsa_text_parser_value_reads(p.all);
	ck_assert_uint_gt(before, 150);
	damage(&p, line, strlen(line));
	/* 30 tokens, nr_pages= and flags=; then page= and pfn= before them */
	char tail[512];
	size_t t = 0;
	for (int i = 0; i < 30; i++)
		t += (size_t)snprintf(tail + t, sizeof(tail) - t, "x%d=0 ", i);
	snprintf(tail + t, sizeof(tail) - t, "nr_pages=1 flags=RECLAIM_WB_ANON");
	char normal[256];
	int nn = snprintf(normal, sizeof(normal),
			  "  a-1 [000] 1.0: mm_vmscan_write_folio: page=3 pfn=0x4 nr_pages=1 "
			  "flags=RECLAIM_WB_ANON");
	for (int round = 0; round < 2; round++) {
		int n = snprintf(line, sizeof(line), "  a-1 [000] 1.0: mm_vmscan_write_folio: %s", tail);
		both(&p, line, (size_t)n);
		both(&p, normal, (size_t)nn); /* (the layout again) */
		n = snprintf(line, sizeof(line),
			     "  a-1 [000] 1.0: mm_vmscan_write_folio: page=1 pfn=0x2 %s", tail);
		both(&p, line, (size_t)n);
	}
	pair_free(&p);
}
END_TEST

/* Two layouts of one event, alternating: each line relearns. */
START_TEST(test_alternating_layouts)
{
	static const char *const l[] = {
		"  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=1 nr_taken=1 lru=inactive_anon",
		"  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_taken=2 nr_scanned=3 file=1",
		"  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=4 nr_taken=1 lru=purple",
		"  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=5 nr_taken=1  lru=active_file",
		"  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=6 nr_taken=1 lru=active_file ",
		"  a-1 [000] 1.0: mm_vmscan_lru_isolate: nr_scanned=7 junk nr_taken=1 lru=active_file",
	};
	struct pair p;
	pair_init(&p);
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
			for (size_t j = 0; j < sizeof(l) / sizeof(l[0]); j++) {
				both(&p, l[i], strlen(l[i]));
				both(&p, l[j], strlen(l[j]));
			}
	pair_free(&p);
}
END_TEST

/* Each line of l after each other, in fresh parsers; traits compared too. */
static void pairs_of(const char *const *l, size_t n)
{
	struct pair p;
	pair_init(&p);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			both(&p, l[i], strlen(l[i]));
			both(&p, l[j], strlen(l[j]));
		}
	ck_assert_msg(memcmp(vmsa_text_parser_traits(p.fast), vmsa_text_parser_traits(p.general),
			     sizeof(struct vmsa_traits)) == 0,
		      "traits differ");
	ck_assert_uint_gt(p.events, 0);
	pair_free(&p);
}

/*
 * Lines that begin like an earlier one up to its CPU column's '[' reuse its
 * task and pid; each of these follows a line that taught it that start.
 */
START_TEST(test_task_memo)
{
	static const char *const l[] = {
		"            b-1     [000] .... 1.0: mm_vmscan_kswapd_sleep: nid=0",
		/* same start, the column after it not a CPU: a later '[' is */
		"            b-1     [x] c-2 [001] 2.0: mm_vmscan_kswapd_sleep: nid=0",
		"            b-1     [000] junk [001] 2.0: mm_vmscan_kswapd_sleep: nid=0",
		"            b-1     [000] 2.0 mm_vmscan_kswapd_sleep: nid=0",
		"            b-1     [000] .... 3.0: mm_vmscan_kswapd_sleep: nid=0\r",
		/* the same start, a line of another event, one not vmscan's */
		"            b-1     [001] d..1 4.0: mm_vmscan_kswapd_wake: nid=0 zid=1 order=3",
		"            b-1     [001] d..1 4.0: sched_switch: prev_comm=b prev_pid=1",
		/* a '[' in the task name */
		"     a [1] 2.0:-7   [002] .... 5.0: mm_vmscan_kswapd_sleep: nid=1",
		"     a [1] 2.0:-8   [002] .... 5.0: mm_vmscan_kswapd_sleep: nid=1",
		/*
		 * The CPU column found at a later '[' than the first: a line that
		 * begins the same may have it at the first (tab before [002]).
		 */
		"  z-3 [1] 2.0: x-7\t[002] 5.0: mm_vmscan_kswapd_sleep: nid=1",
		"  z-3 [1] 2.0: x-7\t[002]6.0:mm_vmscan_kswapd_sleep: nid=1",
		/* a task that begins with 'C', as a lost-events marker does */
		"       CPU:1-9      [003] .... 6.0: mm_vmscan_kswapd_sleep: nid=0",
		"CPU:1 [LOST 5 EVENTS]",
		"       CPU:1 [LOST 5 EVENTS]",
		/* a TGID column */
		"         kswapd0-46      (   46) [001] .... 8.0: mm_vmscan_kswapd_sleep: nid=0",
		"         kswapd0-46      (   46) [001] .... 8.0: mm_vmscan_kswapd_sleep: nid=1",
		/* exactly the remembered start, nothing after it */
		"            b-1     [",
		"            b-1     [0",
		/*
		 * A first word like an instance's name, one space after it: the
		 * line is read from a timestamp back if it has one ("8:" in the
		 * second), which the start alone cannot tell (found by
		 * fuzz_text_line: the memo gave the second the first's header)
		 */
		" mlecnd: nr_recl  python4.11-4242    [0] 5:p:",
		" mlecnd: nr_recl  python4.11-4242    [0]0:mm_vmscan_w: 8 8: 0:",
	};
	pairs_of(l, sizeof(l) / sizeof(l[0]));
	/* perf's layout, first taught by a line of another event: the
	 * dialect comes from the first vmscan line */
	static const char *const perf[] = {
		"          stress  1234/1235 [001]     7.000001: sched:sched_switch: prev_pid=1",
		"          stress  1234/1235 [001]     7.000002: vmscan:mm_vmscan_kswapd_sleep: nid=2",
	};
	pairs_of(perf, 2);
}
END_TEST

/*
 * The columns from a task's '[' to the event name are read by the template
 * its last line taught (struct header_tpl): lines of one task that differ
 * from each other there, each after each other.  Where the template reads a
 * line, it must read what the general reader does; where the line differs
 * in more than digits and flags, it must not read it.
 */
START_TEST(test_header_template)
{
	static const char *const l[] = {
		"               b-1       [000] .....     1.000031: mm_vmscan_kswapd_sleep: nid=0",
		/* other digits, other flags of the same width */
		"               b-1       [173] d..1.     9.999999: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [002] dNh2.     1.000031: mm_vmscan_kswapd_wake: nid=0 zid=1 order=3",
		/* flags that begin with a digit: tried as a timestamp first */
		"               b-1       [002] 1...3     1.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [002] 1.2:      1.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [002] 1.23:     1.000031: mm_vmscan_kswapd_sleep: nid=0",
		/* other widths: the CPU's, the flags', the timestamp's */
		"               b-1       [0001] .....     1.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] ....     1.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....    10.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....   100.000000: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....   100.0000001: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.000031234: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.999999999: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] ..... 12345678.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] ..... 99999999.999999999: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.0000312345: mm_vmscan_kswapd_sleep: nid=0",
		/* no flags (2.6.35), a tab, more spaces */
		"               b-1       [000]     1.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000]     7.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....	1.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.000031:  mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.000031:	mm_vmscan_kswapd_sleep: nid=0",
		/* what may come between the timestamp and the name */
		"               b-1       [000] .....     1.000031: (+12) mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.000031: 100 mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.000031: vmscan:mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.000031: mm_vmscan\tkswapd_sleep: nid=0",
		"               b-1       [000] .....     1.000031: mm_vmscan_kswapd_sleep:\tnid=0",
		"               b-1       [000] .....     1.000031: mm_vmscan_kswapd_sleep:nid=0 x=1 y=2 z=3",
		"               b-1       [000] .....     1.000031: mm_vmscan_kswapd sleep: nid=0 x=1 y=2",
		"               b-1       [000] .....     1.000031: mm_vmscan_memcg_softlimit_reclaim_begin: "
		"order=0 gfp_flags=GFP_KERNEL",
		"               b-1       [000] .....     1.000031: mm_vmscan_kswapd_sleep:",
		"               b-1       [000] .....     1.000031: mm_vmscan_kswapd_sleep: ",
		"               b-1       [000] .....     1.000031: : mm_vmscan_kswapd_sleep: nid=0 x=1",
		/* digits where the template has them, but not digits */
		"               b-1       [0a0] .....     1.000031: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.00003a: mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] .....     1.000031  mm_vmscan_kswapd_sleep: nid=0",
		"               b-1       [000] ..... 	   1.000031: mm_vmscan_kswapd_sleep: nid=0",
		/* short: the template reads 40 bytes from the '[' */
		"               b-1       [000] .....     1.000031: mm_vmscan_x: n=0",
		"               b-1       [000] .....     1.000031: mm_vmscan_kswapd_sleep",
	};
	pairs_of(l, sizeof(l) / sizeof(l[0]));
	/* (the template read lines: pairs_of() counts them in a parser of its
	 * own, so here once more, a line after the one that taught it) */
	struct vmsa_text_parser *t;
	ck_assert_int_eq(vmsa_text_parser_new(&t), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason why;
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(vmsa_text_parse_line(t, l[i], strlen(l[i]), &ev, &why),
				 VMSA_LINE_EVENT);
#ifdef __SSE2__ /* (templates are read 16 bytes at a time: none without) */
	ck_assert_uint_eq(vmsa_text_parser_template_reads(t), 1);
#endif
	ck_assert_int_eq(ev.cpu, 2);
	ck_assert_uint_eq(ev.ts_ns, 1000031000ull);
	ck_assert_int_eq(ev.type, VMSA_EV_KSWAPD_WAKE);
	vmsa_text_parser_free(t);
}
END_TEST

/*
 * A task new to the task memo starts with the template learned last (the
 * columns from the '[' on are every task's): its first line and its second
 * are read by it, not learned again; a line that does not fit it (another CPU width,
 * another timestamp) is read the long way and right all the same.  (The
 * memo looks a line up by its first 24 bytes: the CPU's among them here.)
 */
START_TEST(test_template_inherited)
{
	static const struct {
		const char *line;
		int cpu;
		uint64_t ts;
		uint64_t reads; /* template reads after the line */
	} l[] = {
		{"          a-1     [001] d..1.    10.000001: mm_vmscan_kswapd_sleep: nid=0", 1,
		 10000001000ull, 0},
		/* learned here */
		{"          a-1     [001] d..1.    10.000002: mm_vmscan_kswapd_sleep: nid=0", 1,
		 10000002000ull, 0},
		/* a new task (name and pid of other lengths, other flags): by
		 * the template, then by the template it started with */
		{"   kworker/u8:2-12345 [000] ....1    10.000003: mm_vmscan_kswapd_sleep: nid=0", 0,
		 10000003000ull, 1},
		{"   kworker/u8:2-12345 [003] d..1.    10.000004: mm_vmscan_kswapd_sleep: nid=0", 3,
		 10000004000ull, 2},
		/* a task whose columns are other: the template does not fit */
		{"          c-7     [0012] d..1.   100.000005: mm_vmscan_kswapd_sleep: nid=0", 12,
		 100000005000ull, 2},
		{"          c-7     [0012] d..1.   100.000006: mm_vmscan_kswapd_sleep: nid=0", 12,
		 100000006000ull, 2},
		{"          c-7     [0012] d..1.   100.000007: mm_vmscan_kswapd_sleep: nid=0", 12,
		 100000007000ull, 3},
		/* a new task whose columns fit the template c's lines taught */
		{"          d-8     [0001] d..1.   100.000008: mm_vmscan_kswapd_sleep: nid=0", 1,
		 100000008000ull, 4},
	};
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		struct vmsa_event ev;
		enum vmsa_reject_reason why;
		ck_assert_int_eq(vmsa_text_parse_line(p, l[i].line, strlen(l[i].line), &ev, &why),
				 VMSA_LINE_EVENT);
		ck_assert_int_eq(ev.cpu, l[i].cpu);
		ck_assert_uint_eq(ev.ts_ns, l[i].ts);
		ck_assert_int_eq(ev.pid, i < 2 ? 1 : i < 4 ? 12345 : i < 7 ? 7 : 8);
#ifdef __SSE2__ /* (templates are read 16 bytes at a time: none without) */
		ck_assert_uint_eq(vmsa_text_parser_template_reads(p), l[i].reads);
#endif
	}
	vmsa_text_parser_free(p);
}
END_TEST

/*
 * --unwrap's trial parse of a joined line counts no read of its own: the
 * counters of the shortcuts say what the lines read for the caller did.
 */
START_TEST(test_unwrap_trial)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	struct vmsa_event ev;
	enum vmsa_reject_reason why;
	/* a task's line and a template first, so that the trial could use both */
	static const char *const first[] = {
		"  a-1 [000] 1.000000: mm_vmscan_kswapd_wake: nid=0 order=0",
		"  a-1 [000] 1.000001: mm_vmscan_kswapd_wake: nid=0 order=0",
		"  a-1 [000] 1.000002: mm_vmscan_kswapd_wake: nid=0 order=0"};
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(vmsa_text_parse_line(p, first[i], strlen(first[i]), &ev, &why),
				 VMSA_LINE_EVENT);
	uint64_t reads[3] = {vmsa_text_parser_layout_reads(p), vmsa_text_parser_value_reads(p),
			     vmsa_text_parser_template_reads(p)};
	char b[] = "  a-1 [000] 1.000003: mm_vmscan_kswapd_wake: nid=0\norder=0\n";
	struct vmsa_source_counts c;
	memset(&c, 0, sizeof(c));
	unsigned joined = 0;
	size_t len = (size_t)(strchr(b, '\n') - b);
	size_t line;
	size_t end = vmsa_text_unwrap(p, &c, b, len, strlen(b), true, &joined, &line);
	ck_assert_uint_eq(joined, 1);
	ck_assert_uint_eq(end, strlen(b) - 1);
	ck_assert_uint_eq(vmsa_text_parser_layout_reads(p), reads[0]);
	ck_assert_uint_eq(vmsa_text_parser_value_reads(p), reads[1]);
	ck_assert_uint_eq(vmsa_text_parser_template_reads(p), reads[2]);
	vmsa_text_parser_free(p);
}
END_TEST

/*
 * Remembered values start with a small table and take a larger one when a
 * probe finds fewer than 7 in 8: 200 field texts of one event that come
 * back in turn are found seldom at first and nearly always after, and every
 * line still reads as the general reader reads it.
 */
START_TEST(test_value_memo_grows)
{
	struct pair p;
	pair_init(&p);
	char line[160];
	uint64_t before = 0;
	for (int i = 0; i < 3 * 4096 + 64; i++) {
		int n = snprintf(line, sizeof(line),
				 "  a-1 [000] %d.000000: mm_vmscan_lru_shrink_inactive: nid=0 "
				 "nr_scanned=32 nr_reclaimed=%d priority=12 "
				 "flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC",
				 1 + i, i % 200);
		both(&p, line, (size_t)n);
		if (i == 2 * 4096 + 64 - 1)
			before = vmsa_text_parser_value_reads(p.all);
	}
	/* the last 4096 lines, read with the larger table: most found (texts
	 * that share a slot of the 512 go on missing; 32 slots found none) */
	ck_assert_uint_gt(vmsa_text_parser_value_reads(p.all) - before, 4096 / 2);
	pair_free(&p);
}
END_TEST

/* (a small deterministic generator: the same lines on every run) */
static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static size_t pick(uint32_t *x, char *o, const char *from, size_t n)
{
	size_t k = strlen(from);
	for (size_t i = 0; i < n; i++)
		o[i] = from[rnd(x) % k];
	return n;
}

/*
 * Generated headers: lines of a few tasks, each line's columns from its '['
 * to its event name drawn at random (CPU, flags, spaces and tabs, the
 * timestamp's digits on both sides of the point, what may stand between the
 * timestamp and the name, the name), mostly near its task's last line so
 * that templates are taught and then read, sometimes not digits where the
 * template has them.  Every line through all three decoders (both()).
 */
START_TEST(test_generated_headers)
{
	static const char *const task[] = {"               b-1       ", "kworker/u4:2-1234 ",
					   "          <...>-77    ", "  a b-9 "};
	static const char *const name[] = {
		"mm_vmscan_kswapd_sleep: nid=0", "mm_vmscan_kswapd_wake: nid=0 zid=1 order=3",
		"mm_vmscan_direct_reclaim_end: nr_reclaimed=7", "vmscan:mm_vmscan_kswapd_sleep: nid=1",
		"mm_vmscan_kswapd_sleep:", "mm_vmscan_x: n=0", "sched_switch: prev_pid=1",
		"mm_vmscan_kswapd sleep: nid=0"};
	static const char *const between[] = {": ", ":  ", ":\t", ": (+12) ", ": 100 ", " ",
					      ": : ", ":"};
	struct pair p;
	pair_init(&p);
	uint32_t x = 2463534242u;
	char line[256];
	for (int i = 0; i < 60000; i++) {
		uint32_t r = rnd(&x);
		size_t n = 0;
		const char *t = task[r % 4];
		memcpy(line, t, strlen(t));
		n += strlen(t);
		/* most lines keep their task's usual widths: templates read them */
		bool odd = (r >> 4) % 8 == 0;
		line[n++] = '[';
		n += pick(&x, line + n, odd ? "0123456789a" : "0123456789", odd ? 1 + rnd(&x) % 4 : 3);
		line[n++] = ']';
		line[n++] = ' ';
		size_t fw = odd ? rnd(&x) % 6 : 5;
		n += pick(&x, line + n, (r >> 8) % 4 ? ".dNhHsSbBX" : ".dN1h2:", fw);
		n += pick(&x, line + n, odd ? " \t" : " ", odd ? 1 + rnd(&x) % 5 : 4);
		n += pick(&x, line + n, "0123456789", 1 + (odd ? rnd(&x) % 10 : (r >> 14) % 8 == 0));
		line[n++] = '.';
		n += pick(&x, line + n, odd ? "0123456789a" : "0123456789",
			  odd ? rnd(&x) % 11 : 6 + 3 * ((r >> 17) % 8 == 0));
		const char *b = between[(r >> 20) % 16 < 9 ? 0 : (r >> 20) % 8];
		memcpy(line + n, b, strlen(b));
		n += strlen(b);
		const char *nm = name[(r >> 24) % 16 < 9 ? 0 : (r >> 24) % 8];
		memcpy(line + n, nm, strlen(nm));
		n += strlen(nm);
		both(&p, line, n);
	}
	ck_assert_uint_gt(p.events, 20000);
#ifdef __SSE2__ /* most lines after a task's first read by its template */
	ck_assert_uint_gt(vmsa_text_parser_template_reads(p.all), 10000);
#endif
	pair_free(&p);
}
END_TEST

/*
 * Generated lines without a "[CPU]" column, read by their first word that
 * is a timestamp: perf script of a recording without CPUs ("comm pid ts:
 * system:event: ..."), trace-cmd report -l ("comm-pid 0d..2 ts: ..."), and
 * lines that begin alike but go on otherwise (no timestamp there, no ':'
 * after it, a name that is none).  Every line through all three decoders
 * (both()).
 */
START_TEST(test_generated_unbracketed)
{
	static const char *const task[] = {"            java  3101 ", "     Web Content  4113/4120 ",
					   "  kworker/u4:2-1234  0d..2 ", "           a b-9   1.N.. ",
					   "            java  3101 3101 "};
	static const char *const name[] = {
		"vmscan:mm_vmscan_kswapd_sleep: nid=0", "mm_vmscan_kswapd_wake: nid=0 order=3",
		"vmscan:mm_vmscan_direct_reclaim_end: nr_reclaimed=7", "sched:sched_switch: prev_pid=1",
		"vmscan:mm_vmscan_kswapd_sleep:", "mm_vmscan_x: n=0", "vmscan: mm_vmscan_kswapd_sleep"};
	static const char *const after[] = {": ", ":  ", ":\t", ":", " ", "x: ", ".5: "};
	struct pair p;
	pair_init(&p);
	uint32_t x = 88172645u;
	char line[256];
	for (int i = 0; i < 40000; i++) {
		uint32_t r = rnd(&x);
		size_t n = 0;
		const char *t = task[r % 5];
		memcpy(line, t, strlen(t));
		n += strlen(t);
		bool odd = (r >> 4) % 8 == 0;
		n += pick(&x, line + n, odd ? "0123456789a:" : "0123456789", 1 + rnd(&x) % 6);
		if ((r >> 7) % 8) {
			line[n++] = '.';
			n += pick(&x, line + n, "0123456789", 1 + rnd(&x) % 9);
		}
		const char *a = after[(r >> 10) % 16 < 10 ? 0 : (r >> 10) % 8 % 7];
		memcpy(line + n, a, strlen(a));
		n += strlen(a);
		const char *nm = name[(r >> 14) % 16 < 10 ? 0 : (r >> 14) % 8 % 7];
		memcpy(line + n, nm, strlen(nm));
		n += strlen(nm);
		both(&p, line, n);
	}
	ck_assert_uint_gt(p.events, 20000);
	pair_free(&p);
}
END_TEST

/*
 * --unwrap's joins in place (vmsa_text_unwrap()): a value broken off after
 * its field's '=' is joined without a space, past the newline and the next
 * line's quoting; other breaks become one space; a join that makes no event
 * leaves every byte as it was.
 */
START_TEST(test_unwrap_in_place)
{
	struct vmsa_text_parser *p;
	ck_assert_int_eq(vmsa_text_parser_new(&p), 0);
	struct vmsa_source_counts c = {0};
	unsigned joined;
	static const char head[] = "  java-3101  [002] .....  7301.000100: mm_vmscan_lru_isolate: ";
	char b[256], was[256];
	int n = snprintf(b, sizeof(b), "%snr_scanned=\r\n> > 16 nr_taken=16 file=1\nnext", head);
	size_t len = strlen(head) + strlen("nr_scanned=\r");
	size_t line;
	size_t end = vmsa_text_unwrap(p, &c, b, len, (size_t)n, true, &joined, &line);
	ck_assert_uint_eq(joined, 1);
	ck_assert_uint_eq(end, (size_t)n - strlen("\nnext"));
	char want[256];
	snprintf(want, sizeof(want), "%snr_scanned=16 nr_taken=16 file=1", head);
	ck_assert_uint_eq(line, strlen(want));
	ck_assert(memcmp(b, want, line) == 0);
	/* no event: "nr_scanned=x y" is no number */
	n = snprintf(b, sizeof(b), "%snr_scanned=\n> > x y\r\nnext", head);
	memcpy(was, b, (size_t)n);
	len = strlen(head) + strlen("nr_scanned=");
	end = vmsa_text_unwrap(p, &c, b, len, (size_t)n, true, &joined, &line);
	ck_assert_uint_eq(joined, 0);
	ck_assert_uint_eq(end, len);
	ck_assert_uint_eq(line, len);
	ck_assert(memcmp(b, was, (size_t)n) == 0);
	ck_assert_uint_eq(c.lines_read, 1); /* (the first join's second line alone) */
	/* the next line not whole yet (a pipe's read ended in it), longer than
	 * WRAP_MAX with its quoting but still one that may go on: wait for it */
	n = snprintf(b, sizeof(b), "%sisolate_mode=0\n> > > > > > classzone_idx=2 order=0 "
		     "nr_requested=32 nr_scanned=32 nr_taken=32 lru=inactive_file and so",
		     head);
	len = strlen(head) + strlen("isolate_mode=0");
	ck_assert_uint_gt((size_t)n - len - 1, 100);
	ck_assert_uint_eq(vmsa_text_unwrap(p, &c, b, len, (size_t)n, false, &joined, &line),
			  SIZE_MAX);
	vmsa_text_parser_free(p);
}
END_TEST

/* Every line of the fixtures, real captures included, in order. */
static void whole_file(struct pair *p, const char *cmd)
{
	FILE *f = popen(cmd, "r");
	ck_assert_msg(f != NULL, "%s", cmd);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			n--;
		both(p, line, (size_t)n);
	}
	free(line);
	ck_assert_int_eq(pclose(f), 0);
}

START_TEST(test_fixture_files)
{
	struct pair p;
	pair_init(&p);
	whole_file(&p, "cat " FIXTURES_DIR "/handmade/*.txt " FIXTURES_DIR "/synthetic/*.txt");
	whole_file(&p, "xz -dc " FIXTURES_DIR "/6.1/*/*/trace.txt.xz");
	ck_assert_uint_gt(p.events, 500000);
	/* all but mm_shrink_slab_*, which are not "k=v" lists */
	ck_assert_uint_gt(vmsa_text_parser_layout_reads(p.fast), p.events * 3 / 4);
	/* headers read by their task's template: most */
#ifdef __SSE2__
	ck_assert_uint_gt(vmsa_text_parser_template_reads(p.all), p.events / 2);
#endif
	/* field texts that came back: the real captures repeat many */
	ck_assert_uint_gt(vmsa_text_parser_value_reads(p.all), p.events / 4);
	pair_free(&p);
}
END_TEST

Suite *layouts_suite(void);
Suite *layouts_suite(void)
{
	Suite *s = suite_create("layouts");
	TCase *tc = tcase_create("fast vs general");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_damaged_lines);
	tcase_add_test(tc, test_alternating_layouts);
	tcase_add_test(tc, test_partial_values);
	tcase_add_test(tc, test_task_memo);
	tcase_add_test(tc, test_header_template);
	tcase_add_test(tc, test_template_inherited);
	tcase_add_test(tc, test_generated_headers);
	tcase_add_test(tc, test_generated_unbracketed);
	tcase_add_test(tc, test_unwrap_in_place);
	tcase_add_test(tc, test_unwrap_trial);
	tcase_add_test(tc, test_value_memo_grows);
	tcase_add_test(tc, test_fixture_files);
	suite_add_tcase(s, tc);
	return s;
}
