/* SPDX-License-Identifier: MIT */
/*
 * The summary document: a JSON summary read back, merged, queried, checked.
 *
 * Merging follows the field table's rules (summary_fields.c; documented in
 * docs/json-schema.md, "Merging"): counters add, histograms merge bucket by
 * bucket and their percentiles are recomputed, minima and maxima combine,
 * rows of the same (comm, pid) merge, sources and notes are collected.
 * Summaries of consecutive pieces of one trace, cut where no reclaim window
 * is open, merge to the summary of the whole.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "summary_fields.h"

typedef struct json_object jo;

struct vmsa_doc {
	jo *root;
};

void vmsa_doc_free(struct vmsa_doc *d)
{
	if (!d)
		return;
	json_object_put(d->root);
	free(d);
}

static int doc_wrap(struct vmsa_doc **out, jo *root)
{
	*out = NULL;
	if (!root)
		return VMSA_E_NOMEM;
	struct vmsa_doc *d = calloc(1, sizeof(*d));
	if (!d) {
		json_object_put(root);
		return VMSA_E_NOMEM;
	}
	d->root = root;
	*out = d;
	return 0;
}

int vmsa_doc_from_summary(struct vmsa_doc **out, const struct vmsa_summary *sum)
{
	return doc_wrap(out, vmsa_summary_to_json(sum));
}

int vmsa_doc_parse_file(struct vmsa_doc **out, const char *path)
{
	*out = NULL;
	jo *root = json_object_from_file(path);
	if (!root)
		return errno == ENOENT || errno == EACCES ? VMSA_E_IO : VMSA_E_CORRUPT;
	jo *schema, *ver;
	if (!json_object_object_get_ex(root, "schema", &schema) ||
	    strcmp(json_object_get_string(schema) ? json_object_get_string(schema) : "",
		   VMSA_SCHEMA_NAME) != 0 ||
	    !json_object_object_get_ex(root, "schema_version", &ver) ||
	    json_object_get_int(ver) != VMSA_SCHEMA_VERSION) {
		json_object_put(root);
		return VMSA_E_UNSUPPORTED;
	}
	return doc_wrap(out, root);
}

const struct json_object *vmsa_doc_json(const struct vmsa_doc *d)
{
	return d->root;
}

int vmsa_doc_write(FILE *f, const struct vmsa_doc *d, int pretty)
{
	return vmsa_json_write(f, d->root, pretty);
}

/* ---- merge ------------------------------------------------------------ */

static bool is_int(jo *v)
{
	return v && json_object_is_type(v, json_type_int);
}

static bool is_hist(jo *o)
{
	jo *b, *s;
	return json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, "buckets", &b) &&
	       json_object_object_get_ex(o, "sub_buckets_log2", &s);
}

static uint64_t u(jo *o, const char *k)
{
	jo *v;
	return json_object_object_get_ex(o, k, &v) && v ? json_object_get_uint64(v) : 0;
}

static void set_u(jo *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static jo *copy(jo *v)
{
	jo *c = NULL;
	if (!v)
		return NULL;
	json_object_deep_copy(v, &c, NULL);
	return c;
}

static int by_lo(const void *a, const void *b)
{
	uint64_t x = u(*(jo *const *)a, "lo_ns"), y = u(*(jo *const *)b, "lo_ns");
	return (x > y) - (x < y);
}

static uint64_t bucket_count(const void *ctx, size_t i)
{
	return u(json_object_array_get_idx(ctx, i), "count");
}

static uint64_t bucket_hi(const void *ctx, size_t i)
{
	return u(json_object_array_get_idx(ctx, i), "hi_ns");
}

static int merge_hist(jo *d, jo *s)
{
	uint64_t dc = u(d, "count"), sc = u(s, "count");
	if (u(d, "sub_buckets_log2") != u(s, "sub_buckets_log2"))
		return VMSA_E_INVAL;
	if (!sc)
		return 0;
	jo *db, *sb;
	json_object_object_get_ex(d, "buckets", &db);
	json_object_object_get_ex(s, "buckets", &sb);
	for (size_t i = 0; i < json_object_array_length(sb); i++) {
		jo *e = json_object_array_get_idx(sb, i);
		size_t j;
		for (j = 0; j < json_object_array_length(db); j++) {
			jo *f = json_object_array_get_idx(db, j);
			if (u(f, "lo_ns") == u(e, "lo_ns")) {
				set_u(f, "count", u(f, "count") + u(e, "count"));
				break;
			}
		}
		if (j == json_object_array_length(db))
			json_object_array_add(db, copy(e));
	}
	json_object_array_sort(db, by_lo);
	uint64_t mn = dc ? (u(d, "min_ns") < u(s, "min_ns") ? u(d, "min_ns") : u(s, "min_ns"))
			 : u(s, "min_ns");
	uint64_t mx = u(d, "max_ns") > u(s, "max_ns") ? u(d, "max_ns") : u(s, "max_ns");
	uint64_t count = dc + sc;
	set_u(d, "count", count);
	set_u(d, "sum_ns", u(d, "sum_ns") + u(s, "sum_ns"));
	set_u(d, "min_ns", mn);
	set_u(d, "max_ns", mx);
	struct vmsa_buckets bk = {db, json_object_array_length(db), bucket_count, bucket_hi};
	for (size_t k = 0; k < sizeof(vmsa_hist_quantile_keys) / sizeof(vmsa_hist_quantile_keys[0]); k++)
		set_u(d, vmsa_hist_quantile_keys[k].key,
		      vmsa_quantile(&bk, count, mn, mx, vmsa_hist_quantile_keys[k].q));
	return 0;
}

static int merge_obj(jo *d, jo *s, const struct vmsa_shape *shape);

/* rows are the same task when comm and pid (null with --ignore-pid) agree */
static bool same_row(jo *a, jo *b)
{
	jo *ca, *cb, *pa, *pb;
	json_object_object_get_ex(a, "comm", &ca);
	json_object_object_get_ex(b, "comm", &cb);
	json_object_object_get_ex(a, "pid", &pa);
	json_object_object_get_ex(b, "pid", &pb);
	if (json_object_get_string_len(ca) != json_object_get_string_len(cb) ||
	    memcmp(json_object_get_string(ca), json_object_get_string(cb),
		   (size_t)json_object_get_string_len(ca)) != 0)
		return false;
	if (!pa || !pb)
		return !pa && !pb;
	return json_object_get_int64(pa) == json_object_get_int64(pb);
}

static int row_order(const void *x, const void *y)
{
	jo *a = *(jo *const *)x, *b = *(jo *const *)y, *ca, *cb, *pa, *pb;
	json_object_object_get_ex(a, "comm", &ca);
	json_object_object_get_ex(b, "comm", &cb);
	size_t la = (size_t)json_object_get_string_len(ca), lb = (size_t)json_object_get_string_len(cb);
	int c = memcmp(json_object_get_string(ca), json_object_get_string(cb), la < lb ? la : lb);
	if (c)
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	json_object_object_get_ex(a, "pid", &pa);
	json_object_object_get_ex(b, "pid", &pb);
	int64_t x1 = pa ? json_object_get_int64(pa) : -1, y1 = pb ? json_object_get_int64(pb) : -1;
	return (x1 > y1) - (x1 < y1);
}

static int merge_rows(jo *d, jo *s, const struct vmsa_shape *shape)
{
	for (size_t i = 0; i < json_object_array_length(s); i++) {
		jo *r = json_object_array_get_idx(s, i);
		size_t j;
		for (j = 0; j < json_object_array_length(d); j++)
			if (same_row(json_object_array_get_idx(d, j), r))
				break;
		if (j == json_object_array_length(d)) {
			json_object_array_add(d, copy(r));
		} else {
			int err = merge_obj(json_object_array_get_idx(d, j), r, shape);
			if (err)
				return err;
		}
	}
	json_object_array_sort(d, row_order);
	return 0;
}

static bool has_string(jo *arr, jo *s)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(arr, i)),
			   json_object_get_string(s)) == 0)
			return true;
	return false;
}

/* A key the table does not know (a newer summary's) merges by its type. */
static enum vmsa_merge rule_of_type(jo *v)
{
	switch (json_object_get_type(v)) {
	case json_type_object: return is_hist(v) ? VMSA_MERGE_HIST : VMSA_MERGE_OBJECT;
	case json_type_array: return VMSA_MERGE_CONCAT;
	case json_type_boolean: return VMSA_MERGE_ANY;
	case json_type_int: return VMSA_MERGE_SUM;
	default: return VMSA_MERGE_FIRST;
	}
}

/* Merges s's value sv of key into d, by the rule of field f. */
static int merge_value(jo *d, const char *key, jo *sv, const struct vmsa_field *f)
{
	jo *dv = NULL;
	json_object_object_get_ex(d, key, &dv);
	if (!sv)
		return 0;
	if (!dv) {
		json_object_object_add(d, key, copy(sv));
		return 0;
	}
	enum json_type t = json_object_get_type(dv);
	if (t != json_object_get_type(sv))
		return VMSA_E_INVAL;
	enum vmsa_merge rule = f ? f->merge : rule_of_type(dv);
	const struct vmsa_shape *shape = f ? f->shape : NULL;
	switch (rule) {
	case VMSA_MERGE_OBJECT:
		return t == json_type_object ? merge_obj(dv, sv, shape) : VMSA_E_INVAL;
	case VMSA_MERGE_HIST:
		return t == json_type_object && is_hist(dv) ? merge_hist(dv, sv) : VMSA_E_INVAL;
	case VMSA_MERGE_ROWS:
		return t == json_type_array ? merge_rows(dv, sv, shape) : VMSA_E_INVAL;
	case VMSA_MERGE_CONCAT:
	case VMSA_MERGE_UNION:
		if (t != json_type_array)
			return VMSA_E_INVAL;
		for (size_t i = 0; i < json_object_array_length(sv); i++) {
			jo *e = json_object_array_get_idx(sv, i);
			if (rule == VMSA_MERGE_UNION && has_string(dv, e))
				continue;
			json_object_array_add(dv, copy(e));
		}
		return 0;
	case VMSA_MERGE_ANY:
	case VMSA_MERGE_ALL:
		if (t == json_type_boolean) {
			bool a = json_object_get_boolean(dv), b = json_object_get_boolean(sv);
			json_object_object_add(d, key, json_object_new_boolean(
							       rule == VMSA_MERGE_ALL ? a && b : a || b));
		}
		return 0;
	case VMSA_MERGE_SUM:
	case VMSA_MERGE_MIN:
	case VMSA_MERGE_MAX:
		if (is_int(dv)) {
			uint64_t a = json_object_get_uint64(dv), b = json_object_get_uint64(sv);
			set_u(d, key, rule == VMSA_MERGE_SUM ? a + b
				      : rule == VMSA_MERGE_MIN ? (a < b ? a : b)
							       : (a > b ? a : b));
		}
		return 0;
	default:
		return 0; /* the first document's, or recomputed after */
	}
}

static int merge_obj(jo *d, jo *s, const struct vmsa_shape *shape)
{
	json_object_object_foreach(s, key, sv)
	{
		const struct vmsa_field *f = shape ? vmsa_shape_member(shape, key, strlen(key)) : NULL;
		int err = merge_value(d, key, sv, f);
		if (err)
			return err;
	}
	return 0;
}

int vmsa_doc_merge(struct vmsa_doc *dst, const struct vmsa_doc *src)
{
	jo *d = dst->root, *s = src->root;
	int err = merge_obj(d, s, &vmsa_summary_shape);
	if (err)
		return err;
	/* the VMSA_MERGE_DERIVED fields */
	jo *in, *tot, *p, *k;
	if (json_object_object_get_ex(d, "input", &in))
		set_u(in, "duration_ns", u(in, "last_timestamp_ns") - u(in, "first_timestamp_ns"));
	if (json_object_object_get_ex(d, "totals", &tot) &&
	    json_object_object_get_ex(d, "processes", &p) &&
	    json_object_object_get_ex(d, "kswapd", &k))
		set_u(tot, "tasks", json_object_array_length(p) + json_object_array_length(k));
	return 0;
}

/* ---- paths and checks -------------------------------------------------- */

/* "totals.direct.writes.file_async": 0 with *v set, 1 null, <0 missing */
int vmsa_doc_number(const struct vmsa_doc *d, const char *path, double *v)
{
	jo *o = d->root;
	char key[128];
	const char *p = path;
	while (*p) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		if (n == 0 || n >= sizeof(key))
			return VMSA_E_INVAL;
		memcpy(key, p, n);
		key[n] = '\0';
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, key, &o))
			return VMSA_E_INVAL;
		p += n + (dot ? 1 : 0);
	}
	if (!o)
		return 1;
	if (!json_object_is_type(o, json_type_int) && !json_object_is_type(o, json_type_double))
		return VMSA_E_INVAL;
	*v = json_object_get_double(o);
	return 0;
}

static const char *skip(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* NUMBER | PATH | NUMBER '*' PATH */
static int operand(const struct vmsa_doc *d, const char **pp, double *v, char *why, size_t wn)
{
	const char *p = skip(*pp);
	char *end;
	errno = 0;
	double num = strtod(p, &end);
	bool is_num = end != p && errno == 0;
	double factor = 1;
	if (is_num) {
		const char *q = skip(end);
		if (*q != '*') {
			*v = num;
			*pp = q;
			return 0;
		}
		factor = num;
		p = skip(q + 1);
	}
	char path[256];
	size_t n = 0;
	while (p[n] && p[n] != ' ' && p[n] != '\t' && n < sizeof(path) - 1)
		n++;
	if (!n) {
		snprintf(why, wn, "a number or a field path is missing");
		return VMSA_E_INVAL;
	}
	memcpy(path, p, n);
	path[n] = '\0';
	int r = vmsa_doc_number(d, path, v);
	if (r < 0) {
		snprintf(why, wn, "no numeric field %s", path);
		return VMSA_E_INVAL;
	}
	if (r > 0) {
		snprintf(why, wn, "%s is not measured in this summary (null)", path);
		*pp = p + n;
		return 1;
	}
	*v *= factor;
	*pp = p + n;
	return 0;
}

int vmsa_doc_check(const struct vmsa_doc *d, const char *expr, int *pass, char *msg, size_t msgn)
{
	static const struct {
		const char *op;
		int code;
	} ops[] = {{"<=", 1}, {">=", 2}, {"==", 3}, {"!=", 4}, {"<", 5}, {">", 6}};
	const char *p = expr;
	double a, b;
	char why[300] = "";
	*pass = 0;
	int r = operand(d, &p, &a, why, sizeof(why));
	if (r < 0) {
		snprintf(msg, msgn, "%s: %s", expr, why);
		return r;
	}
	p = skip(p);
	int code = 0;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(p, ops[i].op, strlen(ops[i].op))) {
			code = ops[i].code;
			p += strlen(ops[i].op);
			break;
		}
	if (!code) {
		snprintf(msg, msgn, "%s: expected one of < <= == != >= >", expr);
		return VMSA_E_INVAL;
	}
	bool missing = r > 0;
	r = operand(d, &p, &b, why[0] ? why + strlen(why) : why, sizeof(why) - strlen(why));
	if (r < 0) {
		snprintf(msg, msgn, "%s: %s", expr, why);
		return r;
	}
	if (*skip(p)) {
		snprintf(msg, msgn, "%s: unexpected '%s'", expr, skip(p));
		return VMSA_E_INVAL;
	}
	if (missing || r > 0) {
		snprintf(msg, msgn, "%s: %s", expr, why);
		return 0;
	}
	switch (code) {
	case 1: *pass = a <= b; break;
	case 2: *pass = a >= b; break;
	case 3: *pass = a == b; break;
	case 4: *pass = a != b; break;
	case 5: *pass = a < b; break;
	default: *pass = a > b; break;
	}
	snprintf(msg, msgn, "%s: measured %.17g %s %.17g", expr, a, *pass ? "holds against" : "violates",
		 b);
	return 0;
}
