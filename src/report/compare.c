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
#include "../welch.h"

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
	if (!m)
		return; /* (an optional row's field) */
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
 * nothing, or absent (then *absent; an optional row's field is unknown: the
 * trace has none of its events, or its kernel cannot print them) */
static double value(const struct vmsa_doc *d, const struct vmsa_compare_row *r, bool *absent,
		    bool *unknown, struct lacks *m, int col)
{
	*absent = *unknown = false;
	double num = sum_of(d, r->num, absent, unknown, r->optional ? NULL : m, col);
	if (r->optional && *absent) {
		*absent = false;
		*unknown = true;
		return NAN;
	}
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

/* A row left out: optional (row->optional), and num[0] absent from every
 * input: docs[0..n), or every run of cols[0..n) when docs is NULL */
static bool row_hidden(const struct vmsa_compare_row *row, const struct vmsa_doc *const *docs,
		       const struct vmsa_compare_column *cols, int n)
{
	if (!row->label || !row->optional)
		return false;
	double v;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < (docs ? 1 : cols[i].nruns); j++)
			if (vmsa_doc_number(docs ? docs[i] : cols[i].runs[j], row->num[0], &v) >= 0)
				return false;
	return true;
}

/* A count row's cell as the exact integer it is (a double is not, past
 * 2^53: 2^64 - 1 printed as 18446744073709551616): true and *u when every
 * field it adds up is an integer and the sum fits. */
static bool exact_count(const struct vmsa_doc *d, const struct vmsa_compare_row *r, uint64_t *u)
{
	if (r->fmt != VMSA_FMT_COUNT)
		return false;
	*u = 0;
	for (int i = 0; i < VMSA_COMPARE_PATHS && r->num[i]; i++) {
		uint64_t x;
		if (vmsa_doc_u64(d, r->num[i], &x) || __builtin_add_overflow(*u, x, u))
			return false;
	}
	return true;
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

/* The column of lacks entry i: names[col], or cols[col].name. */
static const char *lacking(const struct lacks *m, size_t i, const char *const *names,
			   const struct vmsa_compare_column *cols)
{
	return names ? names[m->v[i].col] : cols[m->v[i].col].name;
}

/* "missing": [{"column", "field"}], only when some input lacks a field
 * (older outputs stay as they were). */
static void missing_json(struct json_object *root, const struct lacks *m, const char *const *names,
			 const struct vmsa_compare_column *cols)
{
	if (!m->n)
		return;
	struct json_object *miss = json_object_new_array();
	for (size_t i = 0; i < m->n; i++) {
		struct json_object *e = json_object_new_object();
		json_object_object_add(e, "column", json_object_new_string(lacking(m, i, names, cols)));
		json_object_object_add(e, "field", json_object_new_string(m->v[i].path));
		json_object_array_add(miss, e);
	}
	json_object_object_add(root, "missing", miss);
}

/* The text's note of the fields some input lacks. */
static void missing_text(FILE *f, const struct lacks *m, const char *const *names,
			 const struct vmsa_compare_column *cols)
{
	if (m->n)
		fputs("\n? a field the input lacks (a summary of another version?):\n", f);
	for (size_t i = 0; i < m->n; i++)
		fprintf(f, "  %s has no %s\n", lacking(m, i, names, cols), m->v[i].path);
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
		if (!row->label || row_hidden(row, docs, NULL, n))
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
	missing_json(root, m, names, NULL);
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
		if (!row->label || row_hidden(row, docs, NULL, n))
			continue;
		bool base_absent, base_unknown;
		double base = value(docs[0], row, &base_absent, &base_unknown, &m, 0);
		for (int i = 0; i < n; i++) {
			char b[64], *cell = cells + (r * (size_t)n + (size_t)i) * CELL;
			bool absent, unknown;
			double v = value(docs[i], row, &absent, &unknown, &m, i);
			uint64_t u;
			if (!absent && !isnan(v) && exact_count(docs[i], row, &u))
				snprintf(b, sizeof(b), "%" PRIu64, u);
			else
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
		if (row_hidden(row, docs, NULL, n))
			continue;
		fprintf(f, "%-*s", lw, row->label);
		for (int i = 0; i < n; i++)
			fprintf(f, "%*s", w, cells + (r * (size_t)n + (size_t)i) * CELL);
		fputc('\n', f);
	}
	free(cells);
	missing_text(f, &m, names, NULL);
	free(m.v);
	return ferror(f) ? VMSA_E_IO : 0;
}

/* ---- columns of repeated runs: mean ± sd, Welch's t-test ------------------ */

/* A row's values in one column of runs, in the row's unit as printed. */
struct group_cell {
	double *v;		/* per run; NAN where the run has no value */
	struct vmsa_sample s;	/* of the runs that have one */
	struct vmsa_welch w;	/* against the first column */
	bool significant;	/* w.p < VMSA_WELCH_ALPHA */
	bool absent, unknown;	/* some run lacks the field / cannot tell it */
	bool hidden;		/* its row is left out (row_hidden()) */
};

/* The factor from a row's summary value to its printed unit. */
static double row_scale(enum vmsa_format k)
{
	return k == VMSA_FMT_SECONDS ? 1e9 : k == VMSA_FMT_MSEC ? 1e6 : 1;
}

/* Fills c from the n runs of column col; vals holds n doubles, tmp n more. */
static void group_cell_fill(struct group_cell *c, const struct vmsa_compare_row *row,
			    const struct vmsa_compare_column *col, int icol, double *vals,
			    double *tmp, struct lacks *m)
{
	*c = (struct group_cell){.v = vals, .w = {.t = NAN, .df = NAN, .p = NAN}};
	size_t k = 0;
	for (int j = 0; j < col->nruns; j++) {
		bool absent, unknown;
		double v = value(col->runs[j], row, &absent, &unknown, m, icol);
		c->absent |= absent;
		c->unknown |= unknown;
		vals[j] = v / row_scale(row->fmt);
		if (!isnan(v))
			tmp[k++] = vals[j];
	}
	vmsa_sample_of(&c->s, tmp, k);
}

/* Every cell of every row: cells[r * n + i], each with its column's values;
 * VMSA_E_INVAL for no column or a column of no runs. */
static int group_cells(const struct vmsa_compare_column *cols, int n, struct lacks *m,
		       struct group_cell **out, double **store)
{
	if (n < 1)
		return VMSA_E_INVAL;
	for (int i = 0; i < n; i++)
		if (cols[i].nruns < 1 || !cols[i].runs || !cols[i].name)
			return VMSA_E_INVAL;
	size_t runs = 0;
	for (int i = 0; i < n; i++)
		runs += (size_t)cols[i].nruns;
	struct group_cell *cells = calloc(vmsa_compare_nrows * (size_t)n, sizeof(*cells));
	double *vals = calloc(vmsa_compare_nrows * runs + runs, sizeof(*vals));
	if (!cells || !vals) {
		free(cells);
		free(vals);
		return VMSA_E_NOMEM;
	}
	double *tmp = vals + vmsa_compare_nrows * runs, *next = vals;
	for (size_t r = 0; r < vmsa_compare_nrows; r++) {
		const struct vmsa_compare_row *row = &vmsa_compare_rows[r];
		struct group_cell *c = cells + r * (size_t)n;
		c[0].hidden = row_hidden(row, NULL, cols, n);
		for (int i = 0; i < n && row->label && !c[0].hidden; i++) {
			group_cell_fill(&c[i], row, &cols[i], i, next, tmp, m);
			next += cols[i].nruns;
			if (i == 0)
				continue;
			vmsa_welch_test(&c[i].w, &c[0].s, &c[i].s);
			c[i].significant = c[i].w.tested && c[i].w.p < VMSA_WELCH_ALPHA;
		}
	}
	*out = cells;
	*store = vals;
	return 0;
}

static struct json_object *json_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

/* the first column's t, df and p are null: it is not tested */
static struct json_object *group_cell_json(const struct group_cell *c, int nruns)
{
	struct json_object *o = json_object_new_object(), *vals = json_object_new_array();
	json_object_object_add(o, "n", json_object_new_int64((int64_t)c->s.n));
	json_object_object_add(o, "mean", json_num(c->s.mean));
	json_object_object_add(o, "sd", json_num(c->s.sd));
	json_object_object_add(o, "min", json_num(c->s.min));
	json_object_object_add(o, "max", json_num(c->s.max));
	for (int j = 0; j < nruns; j++)
		json_object_array_add(vals, json_num(c->v[j]));
	json_object_object_add(o, "values", vals);
	json_object_object_add(o, "t", json_num(c->w.t));
	json_object_object_add(o, "df", json_num(c->w.df));
	json_object_object_add(o, "p", json_num(c->w.p));
	json_object_object_add(o, "significant", json_object_new_boolean(c->significant));
	return o;
}

static int groups_json(FILE *f, const struct vmsa_compare_column *cols, int n,
		       const struct group_cell *cells, const struct lacks *m)
{
	struct json_object *root = json_object_new_object(), *test = json_object_new_object();
	json_object_object_add(test, "name", json_object_new_string("welch"));
	json_object_object_add(test, "sides", json_object_new_int(2));
	json_object_object_add(test, "alpha", json_object_new_double(VMSA_WELCH_ALPHA));
	json_object_object_add(test, "against", json_object_new_string(cols[0].name));
	json_object_object_add(root, "test", test);
	struct json_object *jc = json_object_new_array();
	for (int i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(cols[i].name));
		json_object_object_add(o, "runs", json_object_new_int(cols[i].nruns));
		json_object_array_add(jc, o);
	}
	json_object_object_add(root, "columns", jc);
	struct json_object *arr = json_object_new_array();
	for (size_t r = 0; r < vmsa_compare_nrows; r++) {
		const struct vmsa_compare_row *row = &vmsa_compare_rows[r];
		if (!row->label || cells[r * (size_t)n].hidden)
			continue;
		struct json_object *o = json_object_new_object(), *cs = json_object_new_array();
		json_object_object_add(o, "row", json_object_new_string(row->label));
		for (int i = 0; i < n; i++)
			json_object_array_add(cs, group_cell_json(&cells[r * (size_t)n + (size_t)i],
								  cols[i].nruns));
		json_object_object_add(o, "columns", cs);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "rows", arr);
	missing_json(root, m, NULL, cols);
	int err = vmsa_json_write(f, root, 1);
	json_object_put(root);
	return err;
}

/* A group cell's parts as printed: "MEAN ± SD*(k/n)". */
struct group_text {
	char mean[64], sd[32], tail[24];
	char mark;
};

/* v in a row's printed unit: counts and rates with one decimal (means) */
static void group_num(char *b, size_t n, enum vmsa_format k, double v)
{
	snprintf(b, n, k == VMSA_FMT_PERCENT ? "%.2f%%" : k == VMSA_FMT_COUNT || k == VMSA_FMT_RATE
			       ? "%.1f" : "%.2f", v);
}

static void group_text(struct group_text *t, const struct vmsa_compare_row *row,
		       const struct group_cell *c, const struct group_cell *base, int nruns,
		       bool relative)
{
	*t = (struct group_text){.mark = c->significant ? '*' : ' '};
	if (!c->s.n) {
		/* as a single column says it: absent, unknown, not applicable */
		fmt(t->mean, sizeof(t->mean), row->fmt, NAN, c->absent, c->unknown);
		return;
	}
	char b[48];
	group_num(b, sizeof(b), row->fmt, c->s.mean);
	bool change = relative && c != base && row->change && base->s.n;
	if (change && base->s.mean != 0)
		snprintf(t->mean, sizeof(t->mean), "%s(%+.0f%%)", b,
			 100.0 * (c->s.mean - base->s.mean) / base->s.mean);
	else if (change && c->s.mean != 0)
		snprintf(t->mean, sizeof(t->mean), "%s(new)", b);
	else
		snprintf(t->mean, sizeof(t->mean), "%s", b);
	if (c->s.n > 1)
		group_num(t->sd, sizeof(t->sd), row->fmt, c->s.sd);
	else
		snprintf(t->sd, sizeof(t->sd), "n/a");
	if ((int)c->s.n < nruns)
		snprintf(t->tail, sizeof(t->tail), "(%zu/%d)", c->s.n, nruns);
}

static void widen(int *w, const char *s)
{
	if ((int)strlen(s) > *w)
		*w = (int)strlen(s);
}

/* line[0..n) without its trailing blanks, and a newline */
static void put_line(FILE *f, const char *line, size_t n)
{
	while (n && line[n - 1] == ' ')
		n--;
	fwrite(line, 1, n, f);
	fputc('\n', f);
}

static int groups_text(FILE *f, const struct vmsa_compare_column *cols, int n,
		       const struct group_cell *cells, const struct lacks *m, bool relative)
{
	struct group_text *t = calloc(vmsa_compare_nrows * (size_t)n, sizeof(*t));
	int *wm = calloc((size_t)n * 4, sizeof(int));
	if (!t || !wm) {
		free(t);
		free(wm);
		return VMSA_E_NOMEM;
	}
	/* per column: the widths of the mean, the sd and the tail; the cell's */
	int *ws = wm + n, *wt = ws + n, *wc = wt + n;
	for (size_t r = 0; r < vmsa_compare_nrows; r++) {
		const struct vmsa_compare_row *row = &vmsa_compare_rows[r];
		for (int i = 0; i < n && row->label && !cells[r * (size_t)n].hidden; i++) {
			size_t at = r * (size_t)n + (size_t)i;
			group_text(&t[at], row, &cells[at], &cells[r * (size_t)n], cols[i].nruns,
				   relative);
			widen(&wm[i], t[at].mean);
			widen(&ws[i], t[at].sd);
			widen(&wt[i], t[at].tail);
		}
	}
	char runs[16];
	for (int i = 0; i < n; i++) {
		snprintf(runs, sizeof(runs), "%d", cols[i].nruns);
		wc[i] = wm[i] + 3 + ws[i] + 1 + wt[i];
		widen(&wc[i], cols[i].name);
		widen(&wc[i], runs);
		wc[i] += 2;
	}
	/* each line in line[], printed without its trailing blanks */
	int lw = 46;
	size_t cap = (size_t)lw + 2, at;
	for (int i = 0; i < n; i++)
		cap += (size_t)wc[i] + 2; /* "±" is two bytes */
	char *line = malloc(cap);
	if (!line) {
		free(t);
		free(wm);
		return VMSA_E_NOMEM;
	}
	at = (size_t)snprintf(line, cap, "%-*s", lw, "");
	for (int i = 0; i < n; i++)
		at += (size_t)snprintf(line + at, cap - at, "%*s", wc[i], cols[i].name);
	put_line(f, line, at);
	at = (size_t)snprintf(line, cap, "%-*s", lw, "runs");
	for (int i = 0; i < n; i++)
		at += (size_t)snprintf(line + at, cap - at, "%*d", wc[i], cols[i].nruns);
	put_line(f, line, at);
	for (size_t r = 0; r < vmsa_compare_nrows; r++) {
		const struct vmsa_compare_row *row = &vmsa_compare_rows[r];
		if (cells[r * (size_t)n].hidden)
			continue;
		at = (size_t)snprintf(line, cap, "%-*s", row->label ? lw : 0, row->label ? row->label : "");
		for (int i = 0; i < n && row->label; i++) {
			const struct group_text *c = &t[r * (size_t)n + (size_t)i];
			/* the cell right-aligned in its column, its parts aligned down it */
			int pad = wc[i] - (wm[i] + 3 + ws[i] + 1 + wt[i]);
			if (c->sd[0])
				at += (size_t)snprintf(line + at, cap - at, "%*s%*s ± %*s%c%-*s", pad, "",
						       wm[i], c->mean, ws[i], c->sd, c->mark, wt[i],
						       c->tail);
			else
				at += (size_t)snprintf(line + at, cap - at, "%*s%*s%*s", pad, "", wm[i],
						       c->mean, 3 + ws[i] + 1 + wt[i], "");
		}
		put_line(f, line, at);
	}
	free(line);
	free(t);
	free(wm);
	fputs("\nmean ± sample standard deviation (n - 1) of each column's runs; n/a: one value.\n"
	      "* the mean differs from the first column's: Welch's t-test, two-sided, p < 0.05\n"
	      "  (a column of one value is not tested).\n"
	      "(k/n): k of the column's n runs have a value (the others: unknown or not\n"
	      "  applicable).\n",
	      f);
	missing_text(f, m, NULL, cols);
	return ferror(f) ? VMSA_E_IO : 0;
}

/* A caller's columns of another size (src/abi.h) as this library's, in
 * *own (to free), or NULL where they are of this size. */
static int columns_in(const struct vmsa_compare_column *cols, size_t col_size, int n,
		      struct vmsa_compare_column **own)
{
	*own = NULL;
	if (col_size == sizeof *cols || n <= 0)
		return col_size < VMSA_ABI_MIN_COMPARE_COLUMN ? VMSA_E_INVAL : 0;
	struct vmsa_compare_column *c = calloc((size_t)n, sizeof *c);
	if (!c)
		return VMSA_E_NOMEM;
	for (int i = 0; i < n; i++)
		if (vmsa_abi_in(&c[i], sizeof c[i], (const char *)cols + (size_t)i * col_size,
				col_size, VMSA_ABI_MIN_COMPARE_COLUMN)) {
			free(c);
			return VMSA_E_INVAL;
		}
	*own = c;
	return 0;
}

int vmsa_report_compare_groups_sized(FILE *f, const struct vmsa_compare_column *cols,
				     size_t col_size, int n, int json, int relative)
{
	struct vmsa_compare_column *own;
	int err = columns_in(cols, col_size, n, &own);
	if (err)
		return err;
	if (own)
		cols = own;
	struct lacks m = {0};
	struct group_cell *cells = NULL;
	double *store = NULL;
	err = group_cells(cols, n, &m, &cells, &store);
	if (!err)
		err = json ? groups_json(f, cols, n, cells, &m)
			   : groups_text(f, cols, n, cells, &m, relative);
	free(cells);
	free(store);
	free(m.v);
	free(own);
	return err;
}

/* ---- the same as a dot plot (SVG) ------------------------------------------ */

#define SVG_W 1000
#define SVG_X0 340	/* the plot, between the labels and the marks */
#define SVG_X1 930
#define SVG_TOP 40	/* under the title and the legend */
#define SVG_LANE 9	/* a column's lane in a row */

/* s as XML text (also inside attribute quotes); control characters dropped */
static void svg_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}

/* A row: its label, an axis from 0 (or the least value) to the greatest,
 * each column's runs as dots in a lane of its own, the mean as a bar, '*'
 * where the mean differs from the first column's. */
static void svg_row(FILE *f, const struct vmsa_compare_row *row, const struct group_cell *c,
		    int n, const struct vmsa_compare_column *cols, int y)
{
	double lo = 0, hi = 0;
	for (int i = 0; i < n; i++)
		if (c[i].s.n) {
			lo = fmin(lo, c[i].s.min);
			hi = fmax(hi, c[i].s.max);
		}
	if (hi <= lo)
		hi = lo + 1;
	int h = n * SVG_LANE;
	fputs("<g data-row=\"", f);
	svg_text(f, row->label);
	fprintf(f, "\">\n<text x=\"%d\" y=\"%d\" class=\"yl\">", SVG_X0 - 50, y + h / 2 + 4);
	svg_text(f, row->label);
	char bl[48], bh[48];
	group_num(bl, sizeof(bl), row->fmt, lo);
	group_num(bh, sizeof(bh), row->fmt, hi);
	fprintf(f, "</text>\n<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" class=\"g\"/>"
		   "<text x=\"%d\" y=\"%d\" class=\"note yl\">%s</text>"
		   "<text x=\"%d\" y=\"%d\" class=\"note yl\">%s</text>\n",
		SVG_X0, SVG_X1, y + h, y + h, SVG_X0 - 4, y + h, bl, SVG_X1, y - 1, bh);
	for (int i = 0; i < n; i++) {
		double ly = y + i * SVG_LANE + SVG_LANE / 2.0;
		for (int j = 0; j < cols[i].nruns; j++)
			if (!isnan(c[i].v[j]))
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" class=\"c%d\" "
					   "data-col=\"%d\" data-value=\"%.17g\"/>\n",
					SVG_X0 + (c[i].v[j] - lo) / (hi - lo) * (SVG_X1 - SVG_X0), ly,
					i % 8, i, c[i].v[j]);
		if (!c[i].s.n)
			continue;
		double mx = SVG_X0 + (c[i].s.mean - lo) / (hi - lo) * (SVG_X1 - SVG_X0);
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"m\" "
			   "data-col=\"%d\" data-mean=\"%.17g\"/>\n",
			mx, mx, ly - 4, ly + 4, i, c[i].s.mean);
		if (c[i].significant)
			fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"sig c%d\" data-col=\"%d\">*</text>\n",
				SVG_X1 + 8 + 10 * (i % 6), ly + 4, i % 8, i);
	}
	fputs("</g>\n", f);
}

static int compare_svg(FILE *f, const struct vmsa_compare_column *cols, int n);

int vmsa_report_compare_svg_sized(FILE *f, const struct vmsa_compare_column *cols,
				  size_t col_size, int n)
{
	struct vmsa_compare_column *own;
	int err = columns_in(cols, col_size, n, &own);
	if (!err)
		err = compare_svg(f, own ? own : cols, n);
	free(own);
	return err;
}

static int compare_svg(FILE *f, const struct vmsa_compare_column *cols, int n)
{
	struct lacks m = {0};
	struct group_cell *cells = NULL;
	double *store = NULL;
	int err = group_cells(cols, n, &m, &cells, &store);
	free(m.v);
	if (err)
		return err;
	/* the rows with a value somewhere */
	int rows = 0, rh = n * SVG_LANE + 14;
	for (size_t r = 0; r < vmsa_compare_nrows; r++)
		for (int i = 0; i < n && vmsa_compare_rows[r].label; i++)
			if (cells[r * (size_t)n + (size_t)i].s.n) {
				rows++;
				break;
			}
	int height = SVG_TOP + rows * rh + 40;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
		   "<style>.g{stroke:#ddd;stroke-width:1}.m{stroke:#000;stroke-width:2}"
		   ".yl{text-anchor:end}.note{fill:#666;font-size:9px}.h{font-size:14px;"
		   "font-weight:bold}.sig{font-weight:bold}"
		   ".c0{fill:#1f77b4}.c1{fill:#d62728}.c2{fill:#2ca02c}.c3{fill:#ff7f0e}"
		   ".c4{fill:#9467bd}.c5{fill:#8c564b}.c6{fill:#e377c2}.c7{fill:#7f7f7f}"
		   "circle{fill-opacity:0.7}</style>\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		   "<title>vmscan-analyze compare</title>\n"
		   "<text x=\"10\" y=\"18\" class=\"h\">Runs per setting: each run a dot, the mean "
		   "a bar</text>\n",
		SVG_W, height, SVG_W, height);
	for (int i = 0, x = 10; i < n; i++) {
		fprintf(f, "<circle cx=\"%d\" cy=\"30\" r=\"4\" class=\"c%d\"/>"
			   "<text x=\"%d\" y=\"34\" data-col=\"%d\" data-runs=\"%d\">",
			x + 4, i % 8, x + 12, i, cols[i].nruns);
		svg_text(f, cols[i].name);
		fprintf(f, " (%d)</text>\n", cols[i].nruns);
		x += 40 + 7 * (int)strlen(cols[i].name);
	}
	int y = SVG_TOP + 8;
	for (size_t r = 0; r < vmsa_compare_nrows; r++) {
		const struct group_cell *c = cells + r * (size_t)n;
		bool any = false;
		for (int i = 0; i < n && vmsa_compare_rows[r].label; i++)
			any |= c[i].s.n > 0;
		if (!any)
			continue;
		svg_row(f, &vmsa_compare_rows[r], c, n, cols, y);
		y += rh;
	}
	fprintf(f, "<text x=\"10\" y=\"%d\" class=\"note\">* the mean differs from the first "
		   "column's (Welch's t-test, two-sided, p &lt; 0.05). Each row's axis runs from 0 "
		   "(or its least value) to its greatest value, in the row's unit.</text>\n",
		height - 14);
	fputs("</svg>\n", f);
	free(cells);
	free(store);
	return ferror(f) ? VMSA_E_IO : 0;
}
