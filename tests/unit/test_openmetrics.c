/* SPDX-License-Identifier: MIT */
/* The metrics reporter on a hand-made summary, and the atomic file writer. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics_helpers.h"
#include "asserts.h"

/*
 * Stall buckets (ns, inclusive) and where they fall under the bounds
 * 2^k - 1 ns:  [1000,1023] x2 -> le 0.000001023;  [1024,1087] x1 ->
 * le 0.000002047;  [3000000,3145727] x4 -> le 0.004194303 (above
 * 0.002097151);  [2^41, 2^41+2^37-1] x1 -> above the last bound
 * (1099.511627775), so only in +Inf.  Cumulative: 2, 3, 3 .. 3, 7 .. 7, 8.
 */
static const char doc_text[] =
	"{\"schema\":\"vmscan-analyze/summary\",\"schema_version\":1,"
	"\"input\":{\"lines_analyzed\":40,\"lines_ignored\":2,\"lines_rejected\":null,"
	"\"events_lost\":3},"
	"\"totals\":{"
	"\"direct\":{\"reclaims\":5,\"pages_scanned_file\":100,\"pages_scanned_anon\":null,"
	"\"writes\":{\"file_async\":7,\"anon_async\":0,\"file_sync\":null,\"anon_sync\":null,"
	"\"pages\":9}},"
	"\"kswapd\":{\"wakeups\":4,\"writes\":{\"file_async\":11,\"anon_async\":1,"
	"\"file_sync\":2,\"anon_sync\":null,\"pages\":null}},"
	"\"flusher_wakeups\":{\"all_dirty\":{\"count\":6}}},"
	"\"latency\":{\"direct_stall_ns\":{\"count\":8,\"sum_ns\":12345678901,"
	"\"sub_buckets_log2\":4,\"buckets\":["
	"{\"lo_ns\":1000,\"hi_ns\":1023,\"count\":2},"
	"{\"lo_ns\":1024,\"hi_ns\":1087,\"count\":1},"
	"{\"lo_ns\":3000000,\"hi_ns\":3145727,\"count\":4},"
	"{\"lo_ns\":2199023255552,\"hi_ns\":2336462209023,\"count\":1}]},"
	"\"kswapd_awake_ns\":null}}";

static struct vmsa_doc *load(const char *text)
{
	return doc_from_text(text);
}

static char *render(const struct vmsa_doc *d, enum vmsa_metrics_format fmt, int *err)
{
	return render_metrics(d, fmt, NULL, err);
}

START_TEST(test_openmetrics_lines)
{
	struct vmsa_doc *d = load(doc_text);
	int err;
	char *t = render(d, VMSA_METRICS_OPENMETRICS, &err);
	ck_assert_int_eq(err, 0);
	HAS(t, "# TYPE vmscan_reclaims counter");
	HAS(t, "vmscan_reclaims_total{context=\"direct\"} 5");
	HAS(t, "# TYPE vmscan_scanned_pages counter");
	HAS(t, "# UNIT vmscan_scanned_pages pages");
	HAS(t, "vmscan_scanned_pages_total{context=\"direct\",type=\"file\"} 100");
	HASNT(t, "vmscan_scanned_pages_total{context=\"direct\",type=\"anon\"} 0");
	ck_assert_ptr_null(strstr(t, "type=\"anon\"} 0\n"));
	HAS(t, "vmscan_writes_total{context=\"direct\",type=\"file\",io=\"async\"} 7");
	HAS(t, "vmscan_writes_total{context=\"direct\",type=\"anon\",io=\"async\"} 0");
	HAS(t, "vmscan_writes_total{context=\"kswapd\",type=\"file\",io=\"sync\"} 2");
	ck_assert_ptr_null(strstr(t, "context=\"direct\",type=\"file\",io=\"sync\""));
	ck_assert_ptr_null(strstr(t, "type=\"anon\",io=\"sync\""));
	HAS(t, "vmscan_written_pages_total{context=\"direct\"} 9");
	ck_assert_ptr_null(strstr(t, "vmscan_written_pages_total{context=\"kswapd\"}"));
	HAS(t, "vmscan_kswapd_wakeups_total 4");
	HAS(t, "vmscan_flusher_wakeups_total{reason=\"all_dirty\"} 6");
	HAS(t, "vmscan_lost_events_total 3");
	HAS(t, "vmscan_input_lines_total{state=\"analyzed\"} 40");
	HAS(t, "vmscan_input_lines_total{state=\"ignored\"} 2");
	ck_assert_ptr_null(strstr(t, "state=\"rejected\""));
	/* no known value: the family is left out, header and all */
	ck_assert_ptr_null(strstr(t, "vmscan_throttled"));
	ck_assert_ptr_null(strstr(t, "vmscan_kswapd_awake_seconds"));
	ck_assert_ptr_null(strstr(t, "vmscan_memcg_reclaim_seconds"));
	/* the histogram */
	HAS(t, "# TYPE vmscan_direct_stall_seconds histogram");
	HAS(t, "# UNIT vmscan_direct_stall_seconds seconds");
	HAS(t, "vmscan_direct_stall_seconds_bucket{le=\"0.000001023\"} 2");
	HAS(t, "vmscan_direct_stall_seconds_bucket{le=\"0.000002047\"} 3");
	HAS(t, "vmscan_direct_stall_seconds_bucket{le=\"0.002097151\"} 3");
	HAS(t, "vmscan_direct_stall_seconds_bucket{le=\"0.004194303\"} 7");
	HAS(t, "vmscan_direct_stall_seconds_bucket{le=\"1099.511627775\"} 7");
	HAS(t, "vmscan_direct_stall_seconds_bucket{le=\"+Inf\"} 8");
	HAS(t, "vmscan_direct_stall_seconds_sum 12.345678901");
	HAS(t, "vmscan_direct_stall_seconds_count 8");
	/* 31 bounds and +Inf, and nothing below 2^10 - 1 ns */
	int buckets = 0;
	for (const char *p = t; (p = strstr(p, "_bucket{")); p++)
		buckets++;
	ck_assert_int_eq(buckets, 32);
	ck_assert_ptr_null(strstr(t, "le=\"0.000000511\""));
	/* # EOF ends it */
	size_t n = strlen(t);
	ck_assert(n > 6 && strcmp(t + n - 6, "# EOF\n") == 0);
	free(t);
	vmsa_doc_free(d);
}
END_TEST

START_TEST(test_prometheus_text_format)
{
	struct vmsa_doc *d = load(doc_text);
	int err;
	char *t = render(d, VMSA_METRICS_PROMETHEUS, &err);
	ck_assert_int_eq(err, 0);
	HAS(t, "# TYPE vmscan_reclaims_total counter");
	ck_assert(has_line(t, "# HELP vmscan_reclaims_total Reclaim windows begun (direct, memcg, "
			      "memcg soft limit, node reclaim)."));
	HAS(t, "vmscan_reclaims_total{context=\"direct\"} 5");
	HAS(t, "# TYPE vmscan_direct_stall_seconds histogram");
	HAS(t, "vmscan_direct_stall_seconds_bucket{le=\"0.004194303\"} 7");
	ck_assert_ptr_null(strstr(t, "# UNIT"));
	ck_assert_ptr_null(strstr(t, "# EOF"));
	free(t);
	vmsa_doc_free(d);
}
END_TEST

START_TEST(test_inconsistent_histogram_is_corrupt)
{
	char *text = strdup(doc_text);
	char *c = strstr(text, "\"count\":8");
	c[8] = '9'; /* the buckets add up to 8 */
	struct vmsa_doc *d = load(text);
	int err;
	free(render(d, VMSA_METRICS_OPENMETRICS, &err));
	ck_assert_int_eq(err, VMSA_E_CORRUPT);
	vmsa_doc_free(d);
	free(text);
}
END_TEST

static int write_text(FILE *f, void *payload)
{
	fputs(payload, f);
	return 0;
}

static int write_and_fail(FILE *f, void *payload)
{
	fputs(payload, f);
	return VMSA_E_NOMEM;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	static char buf[256];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

START_TEST(test_write_file_atomic)
{
	char dir[] = "/tmp/vmsa-atomic-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	ck_assert_int_eq(vmsa_write_file_atomic(path, write_text, "one\n"), 0);
	ck_assert_str_eq(slurp(path), "one\n");
	ck_assert_int_eq(vmsa_write_file_atomic(path, write_text, "two\n"), 0);
	ck_assert_str_eq(slurp(path), "two\n");
	/* a failing writer leaves the old file and no temporary */
	ck_assert_int_eq(vmsa_write_file_atomic(path, write_and_fail, "three\n"), VMSA_E_NOMEM);
	ck_assert_str_eq(slurp(path), "two\n");
	ck_assert_int_eq(entries(dir), 1);
	/* a directory that does not exist */
	char missing[96];
	snprintf(missing, sizeof(missing), "%s/no/m.prom", dir);
	ck_assert_int_eq(vmsa_write_file_atomic(missing, write_text, "x"), VMSA_E_IO);
	ck_assert_int_eq(vmsa_write_file_atomic(dir, write_text, "x"), VMSA_E_IO);
	unlink(path);
	rmdir(dir);
}
END_TEST

Suite *openmetrics_suite(void)
{
	Suite *s = suite_create("openmetrics");
	TCase *tc = tcase_create("core");
	/* fsync on a loaded machine, and ASan, can take longer than Check's 4 s */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_openmetrics_lines);
	tcase_add_test(tc, test_prometheus_text_format);
	tcase_add_test(tc, test_inconsistent_histogram_is_corrupt);
	tcase_add_test(tc, test_write_file_atomic);
	suite_add_tcase(s, tc);
	return s;
}
