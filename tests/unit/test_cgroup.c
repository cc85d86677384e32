/* SPDX-License-Identifier: MIT */
/*
 * Tasks' cgroups read from a fake /proc, and the per-cgroup metrics made
 * from them: labels, escaping, the cap with "other" and "unknown", series
 * kept once given, sums equal to the host's totals.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "internal.h"
#include "helpers.h"
#include "metrics_helpers.h"
#include "asserts.h"

static char proc[] = "/tmp/vmsa-proc-XXXXXX";

/* PROC/PID/cgroup with text (NULL: the pid has no directory, it exited). */
static void fake(int pid, const char *text)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%d", proc, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/cgroup", proc, pid);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void make_proc(void)
{
	ck_assert_ptr_nonnull(mkdtemp(proc));
	fake(101, "0::/system.slice/db.service\n");
	fake(102, "12:memory:/v1-only\n0::/user.slice/a \"b\"\\c\n");
	fake(103, "0::/system.slice/db.service\n");
	fake(105, "4:cpu,cpuacct:/v1\n"); /* no cgroup v2 line */
	fake(106, "0::/bad\xff name\n");
}

static void remove_proc(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", proc);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(proc, "/tmp/vmsa-proc-XXXXXX");
}

static const char *find(const struct vmsa_cgroups *cg, int pid, const char *comm)
{
	const char *s = vmsa_cgroups_find(cg, pid, comm);
	return s ? s : "(unknown)";
}

static void note(struct vmsa_cgroups *cg, int pid, const char *comm)
{
	ck_assert_int_eq(vmsa_cgroups_note(cg, pid, comm, strlen(comm)), 0);
}

START_TEST(test_cgroups_read_once)
{
	make_proc();
	struct vmsa_cgroups *cg;
	ck_assert_int_eq(vmsa_cgroups_new_at(&cg, proc, 0, 10), 0);
	note(cg, 101, "db");
	note(cg, 102, "sh");
	note(cg, 103, "db");
	note(cg, 104, "gone");
	note(cg, 105, "v1");
	note(cg, 106, "bad");
	ck_assert_str_eq(find(cg, 101, "db"), "/system.slice/db.service");
	ck_assert_str_eq(find(cg, 102, "sh"), "/user.slice/a \"b\"\\c");
	ck_assert_str_eq(find(cg, 103, "db"), "/system.slice/db.service");
	ck_assert_str_eq(find(cg, 104, "gone"), "(unknown)");
	ck_assert_str_eq(find(cg, 105, "v1"), "(unknown)");
	ck_assert_str_eq(find(cg, 106, "bad"), "/bad\xef\xbf\xbd name"); /* U+FFFD */
	ck_assert_str_eq(find(cg, 107, "never"), "(unknown)");
	ck_assert_uint_eq(vmsa_cgroups_count(cg), 3); /* interned */
	/* the task moves: it keeps the cgroup it was first seen in */
	fake(101, "0::/elsewhere\n");
	note(cg, 101, "db");
	ck_assert_str_eq(find(cg, 101, "db"), "/system.slice/db.service");
	/* under a new name (exec, or the pid reused) it is read again */
	note(cg, 101, "psql");
	ck_assert_str_eq(find(cg, 101, "psql"), "/elsewhere");
	ck_assert_str_eq(find(cg, 101, "db"), "/system.slice/db.service");
	/* a name never noted: the pid's first */
	ck_assert_str_eq(find(cg, 101, "<...>"), "/system.slice/db.service");
	vmsa_cgroups_free(cg);
	/* at most max_tasks tasks are read */
	ck_assert_int_eq(vmsa_cgroups_new_at(&cg, proc, 2, 10), 0);
	note(cg, 101, "a");
	note(cg, 102, "b");
	note(cg, 103, "c");
	ck_assert_str_eq(find(cg, 102, "b"), "/user.slice/a \"b\"\\c");
	ck_assert_str_eq(find(cg, 103, "c"), "(unknown)");
	vmsa_cgroups_free(cg);
	remove_proc();
}
END_TEST

/* A task row: direct reclaims, stall ns (all in one bucket [2^30, 2^31 - 1]), memcg reclaims. */
static int task_row(char *buf, size_t n, int pid, const char *comm, int direct, uint64_t stall_ns,
	       int memcg)
{
	return snprintf(buf, n,
			"{\"comm\":\"%s\",\"pid\":%d,"
			"\"direct\":{\"reclaims\":%d,\"latency_ns\":%" PRIu64 ",\"pages_scanned\":%d,"
			"\"pages_reclaimed\":%d},"
			"\"memcg\":{\"reclaims\":%d,\"latency_ns\":%d,\"pages_scanned\":null,"
			"\"pages_reclaimed\":%d},"
			"\"direct_stall_ns\":{\"count\":%d,\"sum_ns\":%" PRIu64 ",\"buckets\":["
			"{\"lo_ns\":1073741824,\"hi_ns\":2147483647,\"count\":%d}]}}",
			comm, pid, direct, stall_ns, 10 * direct, 2 * direct, memcg, 1000 * memcg,
			3 * memcg, direct, stall_ns, direct);
}

/* A summary of tasks 101..106 with stalls of 1 s each; stalls[i] for pid 101 + i. */
static struct vmsa_doc *doc_of(const int stalls[6])
{
	static const char *const comms[] = {"db", "sh", "db", "gone", "v1", "bad"};
	char rows[6][512], text[4096];
	int reclaims = 0, memcg = 0;
	for (int i = 0; i < 6; i++) {
		task_row(rows[i], sizeof(rows[i]), 101 + i, comms[i], stalls[i],
		    (uint64_t)stalls[i] * 1073741824u, i == 3);
		reclaims += stalls[i];
		memcg += i == 3;
	}
	snprintf(text, sizeof(text),
		 "{\"schema\":\"vmscan-analyze/summary\",\"schema_version\":1,"
		 "\"totals\":{\"direct\":{\"reclaims\":%d},\"memcg\":{\"reclaims\":%d},"
		 "\"node\":{\"reclaims\":0}},"
		 "\"processes\":[%s,%s,%s,%s,%s,%s,"
		 "{\"comm\":\"(other tasks)\",\"pid\":-2,\"direct\":{\"reclaims\":0}}]}",
		 reclaims, memcg, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5]);
	return doc_from_text(text);
}

static char *render(const struct vmsa_doc *d, enum vmsa_metrics_format fmt,
		    struct vmsa_cgroups *cg)
{
	int err;
	char *t = render_metrics(d, fmt, cg, &err);
	ck_assert_int_eq(err, 0);
	return t;
}

/* promtool check metrics accepts the text (when Prometheus is installed). */
static void promtool_accepts(const char *text)
{
	if (access("/usr/bin/promtool", X_OK))
		return;
	char path[] = "/tmp/vmsa-cgprom-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "/usr/bin/promtool check metrics < %s >/dev/null 2>&1", path);
	int rc = system(cmd);
	unlink(path);
	if (rc)
		fputs(text, stderr);
	ck_assert_msg(rc == 0, "promtool check metrics refused the text (on stderr)");
}

START_TEST(test_cgroup_metrics)
{
	make_proc();
	struct vmsa_cgroups *cg;
	ck_assert_int_eq(vmsa_cgroups_new_at(&cg, proc, 0, 2), 0);
	static const char *const comms[] = {"db", "sh", "db", "gone", "v1", "bad"};
	for (int i = 0; i < 6; i++)
		note(cg, 101 + i, comms[i]);
	/* db.service stalls 2 + 3 s, a "b"\c 4 s, bad 1 s: the first two get series */
	const int stalls[6] = {2, 4, 3, 1, 0, 1};
	struct vmsa_doc *d = doc_of(stalls);
	char *t = render(d, VMSA_METRICS_PROMETHEUS, cg);
	/* the host totals stay unlabelled as before */
	HAS(t, "vmscan_reclaims_total{context=\"direct\"} 11");
	HAS(t, "# TYPE vmscan_cgroup_reclaims_total counter");
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"/system.slice/db.service\",context=\"direct\"} 5");
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"/user.slice/a \\\"b\\\"\\\\c\",context=\"direct\"} 4");
	/* bad's 1, and nothing from v1 (unknown, no reclaim of its own) */
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"other\",context=\"direct\"} 1");
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"unknown\",context=\"direct\"} 1");
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"unknown\",context=\"memcg\"} 1");
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"other\",context=\"memcg\"} 0");
	/* contexts with no reclaim on the host are left out */
	ck_assert_ptr_null(strstr(t, "\",context=\"node\""));
	ck_assert_ptr_null(strstr(t, "\",context=\"memcg_softlimit\""));
	HAS(t, "vmscan_cgroup_reclaim_seconds_total{cgroup=\"unknown\",context=\"memcg\"} 0.000001");
	HAS(t, "vmscan_cgroup_scanned_pages_total{cgroup=\"other\",context=\"direct\"} 10");
	HAS(t, "vmscan_cgroup_reclaimed_pages_total{cgroup=\"/system.slice/db.service\","
	       "context=\"direct\"} 10");
	/* pages scanned by memcg reclaim are unknown: left out, never 0 */
	ck_assert_ptr_null(strstr(t, "vmscan_cgroup_scanned_pages_total{cgroup=\"unknown\","
				     "context=\"memcg\"}"));
	HAS(t, "vmscan_cgroup_direct_stall_seconds_bucket{cgroup=\"/system.slice/db.service\","
	       "le=\"1.073741823\"} 0");
	HAS(t, "vmscan_cgroup_direct_stall_seconds_bucket{cgroup=\"/system.slice/db.service\","
	       "le=\"2.147483647\"} 5");
	HAS(t, "vmscan_cgroup_direct_stall_seconds_bucket{cgroup=\"other\",le=\"+Inf\"} 1");
	HAS(t, "vmscan_cgroup_direct_stall_seconds_sum{cgroup=\"/system.slice/db.service\"} "
	       "5.36870912");
	HAS(t, "vmscan_cgroup_direct_stall_seconds_count{cgroup=\"unknown\"} 1");
	ck_assert_ptr_null(strstr(t, "cgroup=\"/bad"));
	promtool_accepts(t);
	free(t);
	vmsa_doc_free(d);

	/* later bad stalls most, but the places are taken: it stays in "other",
	 * and the cgroups that had series keep them */
	const int later[6] = {2, 4, 3, 1, 0, 9};
	d = doc_of(later);
	t = render(d, VMSA_METRICS_PROMETHEUS, cg);
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"other\",context=\"direct\"} 9");
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"/user.slice/a \\\"b\\\"\\\\c\",context=\"direct\"} 4");
	promtool_accepts(t);
	free(t);
	t = render(d, VMSA_METRICS_OPENMETRICS, cg);
	HAS(t, "# TYPE vmscan_cgroup_reclaimed_pages counter");
	HAS(t, "# UNIT vmscan_cgroup_reclaimed_pages pages");
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"other\",context=\"direct\"} 9");
	ck_assert(strlen(t) > 6 && !strcmp(t + strlen(t) - 6, "# EOF\n"));
	free(t);
	/* without the map: the output of vmsa_report_openmetrics() */
	t = render(d, VMSA_METRICS_OPENMETRICS, NULL);
	ck_assert_ptr_null(strstr(t, "vmscan_cgroup_"));
	free(t);
	vmsa_doc_free(d);
	vmsa_cgroups_free(cg);

	/* room for all: no "other" series */
	ck_assert_int_eq(vmsa_cgroups_new_at(&cg, proc, 0, 10), 0);
	for (int i = 0; i < 6; i++)
		note(cg, 101 + i, comms[i]);
	d = doc_of(stalls);
	t = render(d, VMSA_METRICS_PROMETHEUS, cg);
	HAS(t, "vmscan_cgroup_reclaims_total{cgroup=\"/bad\xef\xbf\xbd name\",context=\"direct\"} 1");
	ck_assert_ptr_null(strstr(t, "cgroup=\"other\""));
	promtool_accepts(t);
	free(t);
	vmsa_doc_free(d);
	vmsa_cgroups_free(cg);
	remove_proc();
}
END_TEST

/* A summary of tasks 101..106 (comms as doc_of()'s) stalling stalls[i] ms,
 * kswapd0 waking once */
static struct vmsa_summary *summary_of(const int stalls[6])
{
	static const char *const comms[] = {"db", "sh", "db", "gone", "v1", "bad"};
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, NULL), 0);
	uint64_t ts = 1000000;
	for (int i = 0; i < 6; i++)
		for (int k = 0; k < stalls[i]; k++, ts += 10000000) {
			struct vmsa_event ev;
			memset(&ev, 0, sizeof(ev));
			ev.pid = 101 + i;
			ev.comm = comms[i];
			ev.comm_len = strlen(comms[i]);
			ev.order = 0;
			ev.nid = ev.file = ev.sync = -1;
			ev.ctx = i == 3 ? VMSA_CTX_MEMCG : VMSA_CTX_DIRECT;
			ev.type = VMSA_EV_RECLAIM_BEGIN;
			ev.ts_ns = ts;
			ck_assert_int_eq(vmsa_stats_add(st, &ev), 0);
			ev.type = VMSA_EV_RECLAIM_END;
			ev.ts_ns = ts + 1000000u * (unsigned)(k + 1);
			ev.nr_reclaimed = 32;
			ck_assert_int_eq(vmsa_stats_add(st, &ev), 0);
		}
	struct vmsa_event w;
	memset(&w, 0, sizeof(w));
	w.type = VMSA_EV_KSWAPD_WAKE;
	w.pid = 45;
	w.comm = "kswapd0";
	w.comm_len = 7;
	w.nid = 0;
	w.file = w.sync = -1;
	w.ts_ns = ts;
	ck_assert_int_eq(vmsa_stats_add(st, &w), 0);
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_stats_summary(st, &sum), 0);
	vmsa_stats_free(st);
	return sum;
}

static char *written(const struct vmsa_doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(vmsa_doc_write(f, d, 0), 0);
	fclose(f);
	return buf;
}

/*
 * A document that reads its rows from the summary (vmsa_doc_from_summary_ref())
 * gives what the whole document gives: the metrics per cgroup (its rows, made
 * one at a time), the numbers, the document written, merged, and a summary
 * read back.
 */
START_TEST(test_doc_ref_same_as_whole)
{
	make_proc();
	const int stalls[6] = {2, 4, 3, 1, 0, 1};
	struct vmsa_summary *sum = summary_of(stalls);
	struct vmsa_doc *whole, *ref;
	ck_assert_int_eq(vmsa_doc_from_summary(&whole, sum), 0);
	ck_assert_int_eq(vmsa_doc_from_summary_ref(&ref, sum), 0);
	static const char *const comms[] = {"db", "sh", "db", "gone", "v1", "bad"};
	for (int pass = 0; pass < 2; pass++) {
		enum vmsa_metrics_format fmt = pass ? VMSA_METRICS_OPENMETRICS : VMSA_METRICS_PROMETHEUS;
		struct vmsa_cgroups *a, *b;
		ck_assert_int_eq(vmsa_cgroups_new_at(&a, proc, 0, 2), 0);
		ck_assert_int_eq(vmsa_cgroups_new_at(&b, proc, 0, 2), 0);
		for (int i = 0; i < 6; i++) {
			note(a, 101 + i, comms[i]);
			note(b, 101 + i, comms[i]);
		}
		char *tw = render(whole, fmt, a), *tr = render(ref, fmt, b);
		/* (rows were read: db.service's 2 + 3 direct reclaims) */
		HAS(tr, "vmscan_cgroup_reclaims_total{cgroup=\"/system.slice/db.service\","
			"context=\"direct\"} 5");
		ck_assert_str_eq(tr, tw);
		free(tw);
		free(tr);
		vmsa_cgroups_free(a);
		vmsa_cgroups_free(b);
	}
	double v, w;
	ck_assert_int_eq(vmsa_doc_number(ref, "totals.direct.reclaims", &v), 0);
	ck_assert_int_eq(vmsa_doc_number(whole, "totals.direct.reclaims", &w), 0);
	ck_assert(v == 10 && w == 10); /* (gone-104 reclaims in its memcg) */
	/* the rows are not in its tree until something reads it whole */
	ck_assert(!json_object_object_get_ex((struct json_object *)vmsa_doc_json(ref), "processes",
					     NULL));
	struct vmsa_summary *back;
	ck_assert_int_eq(vmsa_summary_from_doc(&back, ref), 0);
	ck_assert_ptr_nonnull(vmsa_summary_find_task(back, "sh", 102));
	vmsa_summary_free(back);
	char *jw = written(whole), *jr = written(ref);
	ck_assert_str_eq(jr, jw);
	free(jr);
	/* a document that took its summary (freed with it: ASan's leak check) */
	struct vmsa_doc *took;
	ck_assert_int_eq(vmsa_doc_from_summary_take(&took, summary_of(stalls)), 0);
	jr = written(took);
	ck_assert_str_eq(jr, jw);
	free(jr);
	vmsa_doc_free(took);
	/* merged into a whole one and into a ref one: the same */
	struct vmsa_doc *ref2;
	ck_assert_int_eq(vmsa_doc_from_summary_ref(&ref2, sum), 0);
	ck_assert_int_eq(vmsa_doc_merge(whole, ref2), 0);
	ck_assert_int_eq(vmsa_doc_merge(ref2, ref), 0);
	char *mw = written(whole), *mr = written(ref2);
	ck_assert_str_eq(mr, mw);
	ck_assert_str_ne(mw, jw);
	free(mw);
	free(mr);
	free(jw);
	vmsa_doc_free(ref2);
	vmsa_doc_free(ref);
	vmsa_doc_free(whole);
	vmsa_summary_free(sum);
	remove_proc();
}
END_TEST

/* text into a file, parsed as a summary document */
static struct vmsa_doc *parsed(const char *text)
{
	struct vmsa_doc *d;
	ck_assert_int_eq(parse_text(vmsa_doc_parse_file, text, &d), 0);
	return d;
}

static char *classic_of(const struct vmsa_doc *d)
{
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_summary_from_doc(&sum, d), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(vmsa_report_classic(f, sum, NULL), 0);
	fclose(f);
	vmsa_summary_free(sum);
	return buf;
}

/*
 * A summary file's rows are read a row at a time into a summary of the
 * document's own, not a tree: what it writes, merges into and reads back
 * as is what the tree of the same file gives (vmsa_doc_rows_as_tree()), and
 * a row this build would not write as it stands (a key of a newer build)
 * keeps the document's tree, and the key.
 */
START_TEST(test_rows_read_as_tree)
{
	const int sa[6] = {2, 4, 3, 1, 0, 1}, sb[6] = {0, 1, 5, 0, 2, 0};
	struct vmsa_summary *a = summary_of(sa), *b = summary_of(sb);
	struct vmsa_doc *da, *db;
	ck_assert_int_eq(vmsa_doc_from_summary(&da, a), 0);
	ck_assert_int_eq(vmsa_doc_from_summary(&db, b), 0);
	char *ta = written(da), *tb = written(db);
	vmsa_doc_free(da);
	vmsa_doc_free(db);
	/* written back as read; the rows not in its tree */
	struct vmsa_doc *na = parsed(ta), *nb = parsed(tb), *xa = parsed(ta), *xb = parsed(tb);
	ck_assert(!json_object_object_get_ex((struct json_object *)vmsa_doc_json(na), "processes",
					     NULL));
	char *w = written(na);
	ck_assert_str_eq(w, ta);
	free(w);
	ck_assert_int_eq(vmsa_doc_rows_as_tree(xa), 0);
	ck_assert_int_eq(vmsa_doc_rows_as_tree(xb), 0);
	ck_assert(json_object_object_get_ex((struct json_object *)vmsa_doc_json(xa), "processes",
					    NULL));
	char *ca = classic_of(na), *cx = classic_of(xa);
	ck_assert_str_eq(ca, cx);
	free(ca);
	free(cx);
	/* merged: rows of one key add up, new ones come in order */
	ck_assert_int_eq(vmsa_doc_merge(na, nb), 0);
	ck_assert_int_eq(vmsa_doc_merge(xa, xb), 0);
	ck_assert(!json_object_object_get_ex((struct json_object *)vmsa_doc_json(na), "processes",
					     NULL));
	char *mn = written(na), *mx = written(xa);
	ck_assert_str_eq(mn, mx);
	ck_assert_str_ne(mn, ta);
	ck_assert_ptr_nonnull(strstr(mn, "\"tasks\":7,"));
	ca = classic_of(na);
	cx = classic_of(xa);
	ck_assert_str_eq(ca, cx);
	free(ca);
	free(cx);
	free(mn);
	free(mx);
	vmsa_doc_free(na);
	vmsa_doc_free(nb);
	vmsa_doc_free(xa);
	vmsa_doc_free(xb);
	/* a row with a key this build does not write: the tree, the key kept */
	char *p = strstr(ta, "\"comm\":\"sh\"");
	ck_assert_ptr_nonnull(p);
	size_t at = (size_t)(p - ta);
	char *t2 = malloc(strlen(ta) + 32);
	memcpy(t2, ta, at);
	strcpy(t2 + at, "\"future\":1,");
	strcat(t2, ta + at);
	struct vmsa_doc *fd = parsed(t2);
	ck_assert(json_object_object_get_ex((struct json_object *)vmsa_doc_json(fd), "processes",
					    NULL));
	w = written(fd);
	ck_assert_str_eq(w, t2);
	free(w);
	vmsa_doc_free(fd);
	free(t2);
	free(ta);
	free(tb);
	vmsa_summary_free(a);
	vmsa_summary_free(b);
}
END_TEST

Suite *cgroup_suite(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cgroups_read_once);
	tcase_add_test(tc, test_cgroup_metrics);
	tcase_add_test(tc, test_doc_ref_same_as_whole);
	tcase_add_test(tc, test_rows_read_as_tree);
	suite_add_tcase(s, tc);
	return s;
}
