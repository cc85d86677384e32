/* SPDX-License-Identifier: MIT */
/*
 * compare: N summaries side by side, in the layout of the 2010 cover
 * letter's tables (its rows first, in its order), then the rows a 6.1
 * kernel adds and the derived rows reclaim studies use.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../summary_fields.h"

/* The fields some column lacks: absent from its document, not null. */
struct missing {
	int col;
	const char *path;
};

struct lacks {
	struct missing *v;
	size_t n, cap;
};

/* Notes (once) that document col has no field path. */
static void note_missing(struct lacks *m, int col, const char *path)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].col == col && !strcmp(m->v[i].path, path))
			return;
	if (vmsa_grow((void **)&m->v, &m->cap, m->n + 1, sizeof(*m->v), 8) == 0)
		m->v[m->n++] = (struct missing){col, path};
}

/* The trace cannot tell this field (null), unless it is a sync-write count,
 * null because the kernel cannot write synchronously (not applicable). */
static bool unknown_field(const char *path)
{
	size_t n = strlen(path);
	return !(n > 5 && !strcmp(path + n - 5, "_sync"));
}

/* The sum of the fields at paths: NAN if one is null (then *unknown, see
 * unknown_field()), or absent (then *absent). */
static double sum_of(const struct vmsa_doc *d, const char *const *paths, bool *absent,
		     bool *unknown, struct lacks *m, int col)
{
	double s = 0;
	for (int i = 0; i < VMSA_COMPARE_PATHS && paths[i]; i++) {
		double v;
		int r = vmsa_doc_number(d, paths[i], &v);
		if (r < 0) {
			*absent = true;
			note_missing(m, col, paths[i]);
		}
		if (r == 1 && unknown_field(paths[i]))
			*unknown = true;
		s = i ? s + (r == 0 ? v : NAN) : (r == 0 ? v : NAN);
	}
	return s;
}

/* NAN when not measured (null: *unknown), not applicable or a ratio of
 * nothing, or absent (then *absent) */
static double value(const struct vmsa_doc *d, const struct vmsa_compare_row *r, bool *absent,
		    bool *unknown, struct lacks *m, int col)
{
	*absent = *unknown = false;
	double num = sum_of(d, r->num, absent, unknown, m, col);
	switch (r->fmt) {
	case VMSA_FMT_PERCENT: {
		double den = sum_of(d, r->den, absent, unknown, m, col);
		return den > 0 ? 100.0 * num / den : NAN;
	}
	case VMSA_FMT_RATE: {
		double secs = sum_of(d, r->den, absent, unknown, m, col) / 1e9;
		return secs > 0 ? num / secs : NAN;
	}
	default:
		return num;
	}
}

/* "?": a field is absent from this input; "unknown": the trace cannot tell
 * (null); "-": not applicable, or a ratio of nothing */
static void fmt(char *buf, size_t n, enum vmsa_format k, double v, bool absent, bool unknown)
{
	if (absent) {
		snprintf(buf, n, "?");
		return;
	}
	if (isnan(v) && unknown) {
		snprintf(buf, n, "unknown");
		return;
	}
	if (isnan(v)) {
		snprintf(buf, n, "-");
		return;
	}
	switch (k) {
	case VMSA_FMT_SECONDS:
		snprintf(buf, n, "%.2f", v / 1e9);
		break;
	case VMSA_FMT_MSEC:
		snprintf(buf, n, "%.2f", v / 1e6);
		break;
	case VMSA_FMT_PERCENT:
		snprintf(buf, n, "%.2f%%", v);
		break;
	default:
		snprintf(buf, n, "%.0f", v);
	}
}

static int compare_json(FILE *f, const struct vmsa_doc *const *docs, const char *const *names,
			int n, struct lacks *m)
{
	struct json_object *root = json_object_new_object(), *cols = json_object_new_array();
	struct json_object *arr = json_object_new_array();
	for (int i = 0; i < n; i++)
		json_object_array_add(cols, json_object_new_string(names[i]));
	json_object_object_add(root, "columns", cols);
	for (size_t r = 0; r < vmsa_compare_nrows; r++) {
		const struct vmsa_compare_row *row = &vmsa_compare_rows[r];
		if (!row->label)
			continue;
		struct json_object *o = json_object_new_object(), *vals = json_object_new_array();
		json_object_object_add(o, "row", json_object_new_string(row->label));
		for (int i = 0; i < n; i++) {
			bool absent, unknown;
			double v = value(docs[i], row, &absent, &unknown, m, i);
			if (row->fmt == VMSA_FMT_SECONDS || row->fmt == VMSA_FMT_MSEC)
				v /= row->fmt == VMSA_FMT_SECONDS ? 1e9 : 1e6;
			json_object_array_add(vals, isnan(v) ? NULL : json_object_new_double(v));
		}
		json_object_object_add(o, "values", vals);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "rows", arr);
	if (m->n) {
		/* only when some input lacks a field: older outputs stay as they were */
		struct json_object *miss = json_object_new_array();
		for (size_t i = 0; i < m->n; i++) {
			struct json_object *e = json_object_new_object();
			json_object_object_add(e, "column", json_object_new_string(names[m->v[i].col]));
			json_object_object_add(e, "field", json_object_new_string(m->v[i].path));
			json_object_array_add(miss, e);
		}
		json_object_object_add(root, "missing", miss);
	}
	int err = vmsa_json_write(f, root, 1);
	json_object_put(root);
	return err;
}

int vmsa_report_compare(FILE *f, const struct vmsa_doc *const *docs, const char *const *names,
			int n, int json, int relative)
{
	struct lacks m = {0};
	if (json) {
		int err = compare_json(f, docs, names, n, &m);
		free(m.v);
		return err;
	}
	/* every cell first, so that the columns are as wide as their widest cell */
	enum { CELL = 96 };
	char *cells = calloc(vmsa_compare_nrows * (size_t)n, CELL);
	if (!cells) {
		free(m.v);
		return VMSA_E_NOMEM;
	}
	int w = 14;
	for (int i = 0; i < n; i++)
		if ((int)strlen(names[i]) + 2 > w)
			w = (int)strlen(names[i]) + 2;
	for (size_t r = 0; r < vmsa_compare_nrows; r++) {
		const struct vmsa_compare_row *row = &vmsa_compare_rows[r];
		if (!row->label)
			continue;
		bool base_absent, base_unknown;
		double base = value(docs[0], row, &base_absent, &base_unknown, &m, 0);
		for (int i = 0; i < n; i++) {
			char b[64], *cell = cells + (r * (size_t)n + (size_t)i) * CELL;
			bool absent, unknown;
			double v = value(docs[i], row, &absent, &unknown, &m, i);
			fmt(b, sizeof(b), row->fmt, v, absent, unknown);
			bool change = relative && i > 0 && row->change && !isnan(v) && !isnan(base);
			if (change && base != 0)
				snprintf(cell, CELL, "%s(%+.0f%%)", b, 100.0 * (v - base) / base);
			else if (change && v != 0) /* from 0: no percentage says it */
				snprintf(cell, CELL, "%s(new)", b);
			else
				snprintf(cell, CELL, "%s", b);
			if ((int)strlen(cell) + 2 > w)
				w = (int)strlen(cell) + 2;
		}
	}
	int lw = 46;
	fprintf(f, "%-*s", lw, "");
	for (int i = 0; i < n; i++)
		fprintf(f, "%*s", w, names[i]);
	fputc('\n', f);
	for (size_t r = 0; r < vmsa_compare_nrows; r++) {
		const struct vmsa_compare_row *row = &vmsa_compare_rows[r];
		if (!row->label) {
			fputc('\n', f);
			continue;
		}
		fprintf(f, "%-*s", lw, row->label);
		for (int i = 0; i < n; i++)
			fprintf(f, "%*s", w, cells + (r * (size_t)n + (size_t)i) * CELL);
		fputc('\n', f);
	}
	free(cells);
	if (m.n)
		fputs("\n? a field the input lacks (a summary of another version?):\n", f);
	for (size_t i = 0; i < m.n; i++)
		fprintf(f, "  %s has no %s\n", names[m.v[i].col], m.v[i].path);
	free(m.v);
	return ferror(f) ? VMSA_E_IO : 0;
}
