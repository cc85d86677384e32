/* SPDX-License-Identifier: MIT */
/*
 * The summary field table (src/summary_fields.c) against what it drives:
 * a real capture's JSON, merge on hand-made documents (results computed by
 * hand below), compare's report of a field an input lacks, and the schema
 * docs (docs/summary.schema.json, docs/json-schema.md).
 */
#define _GNU_SOURCE /* open_memstream */
#include <json-c/json.h>
#include <stdio.h>
#include <unistd.h>

#include "helpers.h"
#include "summary_fields.h"

typedef struct json_object jo;

/* ---- the table against a real capture's JSON ------------------------- */

static bool type_fits(const struct vmsa_field *f, jo *v)
{
	if (!v)
		return f->nullable;
	switch (f->unit) {
	case VMSA_UNIT_FLAG: return json_object_is_type(v, json_type_boolean);
	case VMSA_UNIT_TEXT: return json_object_is_type(v, json_type_string);
	case VMSA_UNIT_OBJECT: return json_object_is_type(v, json_type_object);
	case VMSA_UNIT_LIST: return json_object_is_type(v, json_type_array);
	default: return json_object_is_type(v, json_type_int);
	}
}

static void walk_members(const struct vmsa_shape *s, jo *o, const char *path, size_t *nfields);

static void check_value(const struct vmsa_field *f, jo *v, const char *path, size_t *nfields)
{
	ck_assert_msg(type_fits(f, v), "%s: a %s in the table, not so in the JSON", path,
		      vmsa_unit_name(f->unit));
	/* units are in the names (docs/json-schema.md): _ns nanoseconds, pages */
	if (f->unit == VMSA_UNIT_COUNT || f->unit == VMSA_UNIT_PAGES || f->unit == VMSA_UNIT_NS) {
		size_t n = strlen(path);
		bool ns = n > 3 && !strcmp(path + n - 3, "_ns");
		bool pages = strstr(strrchr(path, '.') ? strrchr(path, '.') : path, "pages") != NULL;
		ck_assert_msg(ns == (f->unit == VMSA_UNIT_NS), "%s: unit %s", path,
			      vmsa_unit_name(f->unit));
		ck_assert_msg(pages == (f->unit == VMSA_UNIT_PAGES), "%s: unit %s", path,
			      vmsa_unit_name(f->unit));
	}
	(*nfields)++;
	if (!v || !f->shape)
		return;
	if (f->unit == VMSA_UNIT_LIST) {
		char p[512];
		snprintf(p, sizeof(p), "%s[]", path);
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			jo *e = json_object_array_get_idx(v, i);
			if (json_object_is_type(e, json_type_object))
				walk_members(f->shape, e, p, nfields);
			else
				check_value(&f->shape->members[0], e, p, nfields);
		}
	} else {
		walk_members(f->shape, v, path, nfields);
	}
}

/* every member the table requires (of s and the shapes it includes) is in o */
static void required_members(const struct vmsa_shape *s, jo *o, const char *path)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct vmsa_field *f = &s->members[i];
		jo *v;
		if (!f->key)
			required_members(f->shape, o, path);
		else if (strcmp(f->key, "*"))
			ck_assert_msg(json_object_object_get_ex(o, f->key, &v) || f->optional,
				      "%s%s%s is in the table, not in the JSON", path, *path ? "." : "",
				      f->key);
	}
}

/* ... and every key of o is in the table */
static void walk_members(const struct vmsa_shape *s, jo *o, const char *path, size_t *nfields)
{
	required_members(s, o, path);
	json_object_object_foreach(o, key, v)
	{
		char p[512];
		snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", key);
		const struct vmsa_field *f = vmsa_shape_member(s, key, strlen(key));
		ck_assert_msg(f != NULL, "%s is in the JSON, not in the table", p);
		check_value(f, v, p, nfields);
	}
}

START_TEST(test_table_matches_real_json)
{
	struct run r = analyze(NULL, FIXTURES_DIR "/6.1/dirty-swap/upstream/trace.dat", NULL);
	jo *root = vmsa_summary_to_json(r.sum, true);
	size_t n = 0;
	walk_members(&vmsa_summary_shape, root, "", &n);
	ck_assert_uint_gt(n, 500); /* rows included */
	json_object_put(root);
	vmsa_summary_free(r.sum);
}
END_TEST

START_TEST(test_compare_rows_name_fields)
{
	for (size_t i = 0; i < vmsa_compare_nrows; i++) {
		const struct vmsa_compare_row *row = &vmsa_compare_rows[i];
		for (int k = 0; row->label && k < 2 * VMSA_COMPARE_PATHS; k++) {
			const char *p = k < VMSA_COMPARE_PATHS ? row->num[k]
							      : row->den[k - VMSA_COMPARE_PATHS];
			enum vmsa_unit u;
			if (!p)
				continue;
			ck_assert_msg(vmsa_summary_field(p, &u) == 0, "%s: no field %s", row->label, p);
			ck_assert_msg(u == VMSA_UNIT_COUNT || u == VMSA_UNIT_PAGES || u == VMSA_UNIT_NS,
				      "%s: %s is not a number", row->label, p);
			ck_assert_msg((row->fmt != VMSA_FMT_SECONDS && row->fmt != VMSA_FMT_MSEC) ||
					      u == VMSA_UNIT_NS,
				      "%s: %s shown as time", row->label, p);
		}
	}
	enum vmsa_unit u;
	ck_assert_int_eq(vmsa_summary_field("totals.kswapd.awake_ns", &u), 0);
	ck_assert_int_eq(u, VMSA_UNIT_NS);
	ck_assert_int_eq(vmsa_summary_field("totals.direct.reclaims_by_order.3", &u), 0);
	ck_assert_int_eq(u, VMSA_UNIT_COUNT);
	ck_assert_int_eq(vmsa_summary_field("totals.direct.nr_dirty_pages", &u), 0);
	ck_assert_int_eq(u, VMSA_UNIT_PAGES);
	ck_assert_int_lt(vmsa_summary_field("totals.no.such.field", &u), 0);
	ck_assert_int_lt(vmsa_summary_field("totals.kswapd.reclaims", &u), 0);
	ck_assert_int_lt(vmsa_summary_field("processes.comm", &u), 0);
	ck_assert_int_lt(vmsa_summary_field("totals..tasks", &u), 0);
}
END_TEST

/* ---- merge on hand-made documents ------------------------------------ */

static struct vmsa_doc *doc_of(const char *text)
{
	struct vmsa_doc *d;
	ck_assert_int_eq(parse_text(vmsa_doc_parse_file, text, &d), 0);
	return d;
}

#define HEAD "{\"schema\":\"vmscan-analyze/summary\",\"schema_version\":1,"

static const char doc_a[] =
	HEAD "\"input\":{\"lines_read\":5,\"first_timestamp_ns\":100,\"last_timestamp_ns\":200,"
	"\"duration_ns\":100},\"notes\":[\"a\"],"
	"\"totals\":{\"direct\":{\"nr_dirty_pages\":10,\"reclaims_by_order\":{\"2\":1}},"
	"\"sync_io_applicable\":false,\"pages_scanned_known\":true,\"tasks\":1,\"future\":7},"
	"\"latency\":{\"direct_stall_ns\":{\"count\":2,\"sum_ns\":14,\"min_ns\":5,\"max_ns\":9,"
	"\"p50_ns\":7,\"p90_ns\":9,\"p99_ns\":9,\"sub_buckets_log2\":0,\"buckets\":["
	"{\"lo_ns\":4,\"hi_ns\":7,\"count\":1},{\"lo_ns\":8,\"hi_ns\":15,\"count\":1}]}},"
	"\"processes\":[{\"comm\":\"x\",\"pid\":1,\"direct\":{\"nr_dirty_pages\":10}}],"
	"\"kswapd\":[]}";

static const char doc_b[] =
	HEAD "\"input\":{\"lines_read\":7,\"first_timestamp_ns\":50,\"last_timestamp_ns\":300,"
	"\"duration_ns\":250},\"notes\":[\"a\",\"b\"],"
	"\"totals\":{\"direct\":{\"nr_dirty_pages\":32,\"reclaims_by_order\":{\"2\":2,\"0\":1}},"
	"\"sync_io_applicable\":true,\"pages_scanned_known\":false,\"tasks\":2,\"future\":8},"
	"\"latency\":{\"direct_stall_ns\":{\"count\":2,\"sum_ns\":32,\"min_ns\":12,\"max_ns\":20,"
	"\"p50_ns\":15,\"p90_ns\":20,\"p99_ns\":20,\"sub_buckets_log2\":0,\"buckets\":["
	"{\"lo_ns\":8,\"hi_ns\":15,\"count\":1},{\"lo_ns\":16,\"hi_ns\":31,\"count\":1}]}},"
	"\"processes\":[{\"comm\":\"y\",\"pid\":2,\"direct\":{\"nr_dirty_pages\":30}},"
	"{\"comm\":\"x\",\"pid\":1,\"direct\":{\"nr_dirty_pages\":2}}],"
	"\"kswapd\":[]}";

static double num(const struct vmsa_doc *d, const char *path)
{
	double v = -1;
	ck_assert_msg(vmsa_doc_number(d, path, &v) == 0, "no number at %s", path);
	return v;
}

/* a histogram's sub_buckets_log2 past 8 is refused as corrupt, also one
 * that a 32-bit cast would make small (2^32 + 1), not read into a smaller
 * field */
START_TEST(test_hist_sub_bits_bound)
{
	static const struct {
		const char *bits;
		int want;
	} cases[] = {{"0", 0}, {"4", 0}, {"8", 0}, {"9", VMSA_E_CORRUPT},
		     {"256", VMSA_E_CORRUPT}, {"4294967297", VMSA_E_CORRUPT}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[sizeof(doc_a) + 32];
		const char *at = strstr(doc_a, "\"sub_buckets_log2\":0");
		ck_assert_ptr_nonnull(at);
		snprintf(text, sizeof(text), "%.*s\"sub_buckets_log2\":%s%s", (int)(at - doc_a), doc_a,
			 cases[i].bits, at + strlen("\"sub_buckets_log2\":0"));
		struct vmsa_doc *d = doc_of(text);
		struct vmsa_summary *sum = NULL;
		int err = vmsa_summary_from_doc(&sum, d);
		ck_assert_msg(err == cases[i].want, "sub_buckets_log2 %s: %d", cases[i].bits, err);
		vmsa_summary_free(sum);
		vmsa_doc_free(d);
	}
}
END_TEST

/* a summary read back sorts its rows by name, then pid, negative pids and
 * the ends of the range included, whatever order the document has them in */
START_TEST(test_rows_sorted_signed_pids)
{
	static const int32_t pids[] = {5, -7, 2147483647, 3, (-2147483647 - 1), -1, 0, 300, 256};
	enum { N = sizeof(pids) / sizeof(pids[0]) };
	char text[4096];
	size_t len = (size_t)snprintf(text, sizeof(text), "%s",
				      HEAD "\"input\":{},\"totals\":{},\"processes\":[");
	for (int k = 0; k < 2 * N; k++) /* names "b" then "a", pids as listed */
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s{\"comm\":\"%s\",\"pid\":%d}",
					k ? "," : "", k < N ? "b" : "a", pids[k % N]);
	snprintf(text + len, sizeof(text) - len, "],\"kswapd\":[]}");
	struct vmsa_doc *d = doc_of(text);
	struct vmsa_summary *sum = NULL;
	ck_assert_int_eq(vmsa_summary_from_doc(&sum, d), 0);
	ck_assert_uint_eq(sum->nrows, 2 * N);
	int32_t sorted[N];
	memcpy(sorted, pids, sizeof(sorted));
	for (int i = 1; i < N; i++) /* (insertion sort: a test's own order) */
		for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int32_t t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (size_t i = 0; i < 2 * N; i++) {
		const struct vmsa_task_row *r = sum->rows[i];
		ck_assert_str_eq(vmsa_summary_comm(sum, r, NULL), i < N ? "a" : "b");
		ck_assert_int_eq(r->key.pid, sorted[i % N]);
	}
	vmsa_summary_free(sum);
	vmsa_doc_free(d);
}
END_TEST

/* Rows of the same task (comm and pid; pid null under --ignore-pid; the
 * "(other tasks)" rows with each other only) merge, the others are added. */
static int parse_no_rows(const char *text, struct vmsa_doc **d)
{
	return parse_text(vmsa_doc_parse_file_no_rows, text, d);
}

static int count_row(struct json_object *row, void *arg)
{
	(void)row;
	(*(int *)arg)++;
	return 0;
}

/* A summary read without its rows: the same numbers, no rows (whatever their
 * strings hold), and nothing that would need them */
START_TEST(test_parse_without_rows)
{
	static const char text[] =
		"  " HEAD "\"processes\" : [{\"comm\":\"a]}\\\"[{,\\\\\",\"pid\":1},"
		"{\"comm\":\"b\",\"x\":[[],{}]}],\n"
		"\"totals\":{\"direct\":{\"reclaims\":4,\"pages_scanned\":null}},"
		"\"kswapd\":[{\"comm\":\"kswapd0\"}],\"input\":{\"lines_read\":9}} ";
	struct vmsa_doc *whole = doc_of(text), *d;
	ck_assert_int_eq(parse_no_rows(text, &d), 0);
	ck_assert_double_eq(num(d, "totals.direct.reclaims"), 4);
	ck_assert_double_eq(num(d, "input.lines_read"), 9);
	double v;
	ck_assert_int_eq(vmsa_doc_number(d, "totals.direct.pages_scanned", &v), 1); /* null */
	int rows = 0;
	ck_assert_int_eq(vmsa_doc_each_row(whole, false, count_row, &rows), 0);
	ck_assert_int_eq(rows, 2);
	rows = 0;
	ck_assert_int_eq(vmsa_doc_each_row(d, false, count_row, &rows), 0);
	ck_assert_int_eq(vmsa_doc_each_row(d, true, count_row, &rows), 0);
	ck_assert_int_eq(rows, 0);
	/* what needs the rows is refused, not done without them */
	FILE *f = fopen("/dev/null", "w");
	ck_assert_int_eq(vmsa_doc_write(f, d, 0), VMSA_E_INVAL);
	fclose(f);
	ck_assert_int_eq(vmsa_doc_merge(whole, d), VMSA_E_INVAL);
	ck_assert_int_eq(vmsa_doc_merge(d, whole), VMSA_E_INVAL);
	struct vmsa_summary *sum;
	ck_assert_int_eq(vmsa_summary_from_doc(&sum, d), VMSA_E_INVAL);
	vmsa_doc_free(d);
	vmsa_doc_free(whole);
	/* broken in a row: corrupt, as read whole */
	ck_assert_int_eq(parse_no_rows(HEAD "\"processes\":[{\"comm\":\"a]}", &d), VMSA_E_CORRUPT);
	ck_assert_int_eq(parse_no_rows(HEAD "\"processes\":[1,}", &d), VMSA_E_CORRUPT);
	ck_assert_int_eq(parse_no_rows("[1,2]", &d), VMSA_E_UNSUPPORTED);
	ck_assert_int_eq(vmsa_doc_parse_file_no_rows(&d, "/nonexistent/x.json"), VMSA_E_IO);
}
END_TEST

START_TEST(test_merge_rows_match)
{
#define R(comm, pid, extra, n) "{\"comm\":\"" comm "\",\"pid\":" pid extra \
			       ",\"direct\":{\"reclaims\":" n "}}"
#define OTHER ",\"other_tasks\":true"
	static const char da[] =
		HEAD "\"input\":{},\"totals\":{},\"processes\":[" R("a", "1", "", "1") ","
		R("a", "2", "", "1") "," R("(other tasks)", "null", OTHER, "1") ","
		R("n", "null", "", "1") "," R("a", "2", "", "1000") "],\"kswapd\":[]}";
	static const char db[] =
		HEAD "\"input\":{},\"totals\":{},\"processes\":[" R("a", "2", "", "10") ","
		R("(other tasks)", "null", OTHER, "10") "," R("(other tasks)", "null", "", "100") ","
		R("n", "null", "", "10") "," R("a", "3", "", "10") "," R("n", "7", "", "10") ","
		R("a", "3", "", "5") "],\"kswapd\":[]}";
#undef R
#undef OTHER
	struct vmsa_doc *a = doc_of(da), *b = doc_of(db);
	ck_assert_int_eq(vmsa_doc_merge(a, b), 0);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	ck_assert_int_eq(vmsa_doc_write(f, a, 0), 0);
	fclose(f);
	/* (a's repeated a-2 stays as it was: the first of a's takes b's) */
	static const char *const want[] = {
		"{\"comm\":\"(other tasks)\",\"pid\":null,\"direct\":{\"reclaims\":100}}",
		"{\"comm\":\"(other tasks)\",\"pid\":null,\"other_tasks\":true,"
		"\"direct\":{\"reclaims\":11}}",
		"{\"comm\":\"a\",\"pid\":1,\"direct\":{\"reclaims\":1}}",
		"{\"comm\":\"a\",\"pid\":2,\"direct\":{\"reclaims\":11}}",
		"{\"comm\":\"a\",\"pid\":2,\"direct\":{\"reclaims\":1000}}",
		"{\"comm\":\"a\",\"pid\":3,\"direct\":{\"reclaims\":15}}",
		"{\"comm\":\"n\",\"pid\":null,\"direct\":{\"reclaims\":11}}",
		"{\"comm\":\"n\",\"pid\":7,\"direct\":{\"reclaims\":10}}",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(strstr(out, want[i]) != NULL, "no %s in %s", want[i], out);
	const char *p = out;
	size_t rows = 0;
	while ((p = strstr(p, "\"comm\":")))
		rows++, p++;
	ck_assert_uint_eq(rows, sizeof(want) / sizeof(want[0]));
	free(out);
	vmsa_doc_free(a);
	vmsa_doc_free(b);
}
END_TEST

START_TEST(test_merge_rules)
{
	struct vmsa_doc *a = doc_of(doc_a), *b = doc_of(doc_b);
	ck_assert_int_eq(vmsa_doc_merge(a, b), 0);
	/* SUM */
	ck_assert_double_eq(num(a, "input.lines_read"), 12);
	ck_assert_double_eq(num(a, "totals.direct.nr_dirty_pages"), 42);
	ck_assert_double_eq(num(a, "totals.direct.reclaims_by_order.2"), 3);
	ck_assert_double_eq(num(a, "totals.direct.reclaims_by_order.0"), 1);
	ck_assert_double_eq(num(a, "totals.future"), 15); /* not in the table: by type */
	/* MIN, MAX, DERIVED, FIRST */
	ck_assert_double_eq(num(a, "input.first_timestamp_ns"), 50);
	ck_assert_double_eq(num(a, "input.last_timestamp_ns"), 300);
	ck_assert_double_eq(num(a, "input.duration_ns"), 250);
	ck_assert_double_eq(num(a, "totals.tasks"), 2); /* rows x-1 and y-2 */
	ck_assert_double_eq(num(a, "schema_version"), 1);
	/* HIST: buckets [4,7]:1 [8,15]:2 [16,31]:1; p50 rank 2 -> 15; p90, p99
	 * rank 4 -> 31, held at max 20 */
	ck_assert_double_eq(num(a, "latency.direct_stall_ns.count"), 4);
	ck_assert_double_eq(num(a, "latency.direct_stall_ns.sum_ns"), 46);
	ck_assert_double_eq(num(a, "latency.direct_stall_ns.min_ns"), 5);
	ck_assert_double_eq(num(a, "latency.direct_stall_ns.max_ns"), 20);
	ck_assert_double_eq(num(a, "latency.direct_stall_ns.p50_ns"), 15);
	ck_assert_double_eq(num(a, "latency.direct_stall_ns.p90_ns"), 20);
	ck_assert_double_eq(num(a, "latency.direct_stall_ns.p99_ns"), 20);
	/* ROWS and UNION, as written */
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	ck_assert_int_eq(vmsa_doc_write(f, a, 0), 0);
	fclose(f);
	ck_assert_msg(strstr(out, "\"notes\":[\"a\",\"b\"]") != NULL, "%s", out);
	/* ANY, ALL */
	ck_assert_msg(strstr(out, "\"sync_io_applicable\":true,\"pages_scanned_known\":false") != NULL,
		      "%s", out);
	ck_assert_msg(strstr(out, "{\"lo_ns\":8,\"hi_ns\":15,\"count\":2}") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "\"processes\":[{\"comm\":\"x\",\"pid\":1,\"direct\":{"
				  "\"nr_dirty_pages\":12}},{\"comm\":\"y\",\"pid\":2,") != NULL,
		      "%s", out);
	free(out);
	vmsa_doc_free(a);
	vmsa_doc_free(b);
}
END_TEST

/* ---- compare names a field an input lacks ------------------------------ */

START_TEST(test_compare_names_missing_field)
{
	struct vmsa_doc *docs[2];
	/* "new" has totals.kswapd.awake_ns null; "old" has no such field */
	docs[0] = doc_of(HEAD "\"input\":{\"duration_ns\":1000000000},\"totals\":{\"kswapd\":"
			      "{\"awake_ns\":null,\"pages_scanned\":4}}}");
	docs[1] = doc_of(HEAD "\"input\":{\"duration_ns\":1000000000},\"totals\":{\"kswapd\":"
			      "{\"pages_scanned\":4}}}");
	const char *names[] = {"new.json", "old.json"};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	ck_assert_int_eq(vmsa_report_compare(f, (const struct vmsa_doc *const *)docs, names, 2, 0, 0),
			 0);
	fclose(f);
	const char *line = strstr(out, "Time kswapd awake (seconds)");
	ck_assert_ptr_nonnull(line);
	ck_assert_msg(!strncmp(line + 46, "       unknown             ?\n", 29), "%.80s", line);
	ck_assert_msg(strstr(out, "  old.json has no totals.kswapd.awake_ns\n") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "new.json has no totals.kswapd.awake_ns") == NULL, "%s", out);
	ck_assert_msg(strstr(out, "old.json has no totals.kswapd.pages_scanned") == NULL, "%s", out);
	free(out);

	out = NULL;
	f = open_memstream(&out, &len);
	ck_assert_int_eq(vmsa_report_compare(f, (const struct vmsa_doc *const *)docs, names, 2, 1, 0),
			 0);
	fclose(f);
	ck_assert_msg(strstr(out, "\"column\":\"old.json\",\n      \"field\":\"totals.kswapd.awake_ns\"") != NULL,
		      "%s", out);
	free(out);
	vmsa_doc_free(docs[0]);
	vmsa_doc_free(docs[1]);
}
END_TEST

/* ---- the table against docs/summary.schema.json and docs/json-schema.md --- */

static jo *resolve(jo *defs, jo *node)
{
	jo *ref;
	while (node && json_object_object_get_ex(node, "$ref", &ref)) {
		const char *r = json_object_get_string(ref);
		const char *name = strrchr(r, '/');
		ck_assert_msg(name && json_object_object_get_ex(defs, name + 1, &node), "%s", r);
	}
	return node;
}

static bool schema_nullable(jo *node)
{
	jo *t;
	if (!json_object_object_get_ex(node, "type", &t) || !json_object_is_type(t, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(t); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(t, i)), "null"))
			return true;
	return false;
}

static void against_schema(const struct vmsa_shape *s, jo *defs, jo *node, const char *path,
			   const char *doc);

static void field_against_schema(const struct vmsa_field *f, jo *defs, jo *node,
				 const char *path, const char *doc)
{
	node = resolve(defs, node);
	ck_assert_msg(f->nullable == schema_nullable(node), "%s: nullable in %s but not in the other",
		      path, f->nullable ? "the table" : "the schema");
	if (strcmp(f->key, "*")) {
		char word[128];
		snprintf(word, sizeof(word), "`%s`", f->key);
		char bare[128];
		snprintf(bare, sizeof(bare), "%s", f->key);
		ck_assert_msg(strstr(doc, word) || strstr(doc, bare),
			      "%s is not in docs/json-schema.md", path);
	}
	if (!f->shape)
		return;
	jo *items;
	if (f->unit == VMSA_UNIT_LIST && json_object_object_get_ex(node, "items", &items)) {
		items = resolve(defs, items);
		jo *props;
		if (json_object_object_get_ex(items, "properties", &props))
			against_schema(f->shape, defs, items, path, doc);
		return;
	}
	against_schema(f->shape, defs, node, path, doc);
}

static size_t count_keys(const struct vmsa_shape *s, bool *any)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!s->members[i].key)
			n += count_keys(s->members[i].shape, any);
		else if (!strcmp(s->members[i].key, "*"))
			*any = true;
		else
			n++;
	}
	return n;
}

static void against_schema(const struct vmsa_shape *s, jo *defs, jo *node, const char *path,
			   const char *doc)
{
	jo *props, *pattern;
	bool any = false;
	size_t n = count_keys(s, &any);
	if (!json_object_object_get_ex(node, "properties", &props)) {
		ck_assert_msg(any && n == 0, "%s: the schema has no properties, the table has", path);
		ck_assert_msg(json_object_object_get_ex(node, "patternProperties", &pattern),
			      "%s: neither properties nor patternProperties", path);
		return;
	}
	ck_assert_msg(json_object_object_length(props) == (int)n,
		      "%s: the schema has %d members, the table %zu", path,
		      json_object_object_length(props), n);
	json_object_object_foreach(props, key, v)
	{
		char p[512];
		snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", key);
		const struct vmsa_field *f = vmsa_shape_member(s, key, strlen(key));
		ck_assert_msg(f && strcmp(f->key, "*"), "%s is in the schema, not in the table", p);
		field_against_schema(f, defs, v, p, doc);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

START_TEST(test_table_matches_schema_docs)
{
	jo *schema = json_object_from_file(SOURCE_DIR "/docs/summary.schema.json");
	ck_assert_ptr_nonnull(schema);
	char *doc = slurp(SOURCE_DIR "/docs/json-schema.md");
	jo *defs;
	ck_assert(json_object_object_get_ex(schema, "$defs", &defs));
	against_schema(&vmsa_summary_shape, defs, schema, "", doc);
	free(doc);
	json_object_put(schema);
}
END_TEST

Suite *fields_suite(void);
Suite *fields_suite(void)
{
	Suite *s = suite_create("fields");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_table_matches_real_json);
	tcase_add_test(tc, test_compare_rows_name_fields);
	tcase_add_test(tc, test_merge_rules);
	tcase_add_test(tc, test_merge_rows_match);
	tcase_add_test(tc, test_parse_without_rows);
	tcase_add_test(tc, test_hist_sub_bits_bound);
	tcase_add_test(tc, test_rows_sorted_signed_pids);
	tcase_add_test(tc, test_compare_names_missing_field);
	tcase_add_test(tc, test_table_matches_schema_docs);
	suite_add_tcase(s, tc);
	return s;
}
