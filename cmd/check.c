/* SPDX-License-Identifier: MIT */
/*
 * vmscan-analyze check [-t EXPR]... [--thresholds FILE] INPUT: thresholds on a
 * summary, as a gate that fails closed: an input without a trace fails
 * (status 9), every threshold names a field of the summary schema, and a
 * value the trace cannot tell fails unless --missing=pass.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* NUMBER, PATH or NUMBER * PATH. */
struct operand {
	double factor;		/* the number, or the path's factor */
	char path[256];		/* "" for a number */
};

enum verdict { HOLDS, VIOLATED, VACUOUS, NOT_MEASURED };

static const char *const verdict_names[] = {"holds", "violated", "vacuous", "not measured"};

struct threshold {
	char *expr;
	struct operand a, b;
	const char *op;
	/* after evaluate() */
	enum verdict verdict;
	bool pass;
	const struct operand *field, *bound; /* the side naming the field, the other */
	double measured, bound_value;
	bool measured_null, bound_null;
	char why[320];		/* vacuous or not measured: why */
};

struct gate {
	struct threshold *v;
	int n;
};

static const char *skip(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Parses an operand at *pp; 0, or a usage error told in msg. */
static int parse_operand(const char **pp, struct operand *o, char *msg, size_t msgn)
{
	const char *p = skip(*pp);
	*o = (struct operand){.factor = 1};
	if ((*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '+') {
		char *end;
		errno = 0;
		o->factor = strtod(p, &end);
		if (end == p || errno) {
			snprintf(msg, msgn, "'%s' is not a number", p);
			return EXIT_USAGE;
		}
		const char *q = skip(end);
		if (*q != '*') {
			*pp = q;
			return EXIT_OK;
		}
		p = skip(q + 1);
	}
	size_t n = strcspn(p, " \t<>=!*");
	if (n == 0 || n >= sizeof(o->path)) {
		snprintf(msg, msgn, "a number or a field path is missing at '%s'", p);
		return EXIT_USAGE;
	}
	memcpy(o->path, p, n);
	o->path[n] = '\0';
	enum vmsa_unit unit;
	if (vmsa_summary_field(o->path, &unit)) {
		snprintf(msg, msgn, "%s is not a field of the summary schema (docs/json-schema.md)",
			 o->path);
		return EXIT_USAGE;
	}
	if (unit == VMSA_UNIT_TEXT || unit == VMSA_UNIT_OBJECT || unit == VMSA_UNIT_LIST ||
	    unit == VMSA_UNIT_FLAG) {
		snprintf(msg, msgn, "%s is not a number (%s)", o->path, vmsa_unit_name(unit));
		return EXIT_USAGE;
	}
	*pp = p + n;
	return EXIT_OK;
}

/* "A OP B"; 0, or a usage error (told). */
static int parse_threshold(struct threshold *t)
{
	static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
	char msg[400] = "";
	const char *p = t->expr;
	int status = parse_operand(&p, &t->a, msg, sizeof(msg));
	p = skip(p);
	for (size_t i = 0; !status && !t->op && i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(p, ops[i], strlen(ops[i]))) {
			t->op = ops[i];
			p += strlen(ops[i]);
		}
	if (!status && !t->op) {
		snprintf(msg, sizeof(msg), "expected one of < <= == != >= > at '%s'", p);
		status = EXIT_USAGE;
	}
	if (!status)
		status = parse_operand(&p, &t->b, msg, sizeof(msg));
	if (!status && *skip(p)) {
		snprintf(msg, sizeof(msg), "unexpected '%s'", skip(p));
		status = EXIT_USAGE;
	}
	if (!status && !t->a.path[0] && !t->b.path[0]) {
		snprintf(msg, sizeof(msg), "names no field");
		status = EXIT_USAGE;
	}
	if (status)
		fprintf(stderr, "vmscan-analyze: threshold '%s': %s\n", t->expr, msg);
	return status;
}

static int add_threshold(struct gate *g, const char *text)
{
	struct threshold *v = realloc(g->v, (size_t)(g->n + 1) * sizeof(*v));
	if (!v) {
		cli_error(NULL, VMSA_E_NOMEM, 0);
		return EXIT_RUNTIME;
	}
	g->v = v;
	v[g->n] = (struct threshold){.expr = strdup(text)};
	if (!v[g->n].expr) {
		cli_error(NULL, VMSA_E_NOMEM, 0);
		return EXIT_RUNTIME;
	}
	return parse_threshold(&v[g->n++]);
}

/* One EXPR a line; '#' starts a comment, blank lines are skipped. */
static int read_thresholds(struct gate *g, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		cli_error(path, VMSA_E_IO, errno);
		return cli_status(VMSA_E_IO, CLI_INPUT);
	}
	char line[1024];
	int status = EXIT_OK;
	while (!status && fgets(line, sizeof(line), f)) {
		char *h = strchr(line, '#');
		if (h)
			*h = '\0';
		size_t l = strlen(line);
		while (l && (line[l - 1] == '\n' || line[l - 1] == ' ' || line[l - 1] == '\t'))
			line[--l] = '\0';
		const char *b = skip(line);
		if (*b)
			status = add_threshold(g, b);
	}
	fclose(f);
	return status;
}

/* What a histogram of nothing means, for the vacuous verdict. */
static void nothing_counted(const char *path, char *why, size_t n)
{
	static const struct {
		const char *hist, *what;
	} hists[] = {
		{"latency.direct_stall_ns.", "no direct reclaim stalls"},
		{"latency.kswapd_awake_ns.", "no kswapd awake periods"},
		{"latency.memcg_reclaim_ns.", "no memcg reclaims"},
	};
	for (size_t i = 0; i < sizeof(hists) / sizeof(hists[0]); i++)
		if (!strncmp(path, hists[i].hist, strlen(hists[i].hist))) {
			snprintf(why, n, "vacuous: %s", hists[i].what);
			return;
		}
	snprintf(why, n, "vacuous: nothing was counted (count is 0)");
}

/*
 * The value of o in d: 0 (*v), 1 for a statistic of nothing (its
 * histogram's count is 0), 2 for a value the trace cannot tell (null, or
 * absent from this summary); why says which.
 */
static int operand_value(const struct vmsa_doc *d, const struct operand *o, double *v, char *why,
			 size_t wn)
{
	*v = o->factor;
	if (!o->path[0])
		return 0;
	double x, count;
	int r = vmsa_doc_number(d, o->path, &x);
	if (r == 0) {
		*v = o->factor * x;
		return 0;
	}
	if (r < 0) {
		snprintf(why, wn, "not measured: %s is absent from this summary", o->path);
		return 2;
	}
	char parent[sizeof(o->path) + 8];
	snprintf(parent, sizeof(parent), "%s", o->path);
	char *dot = strrchr(parent, '.');
	if (dot) {
		strcpy(dot + 1, "count");
		if (vmsa_doc_number(d, parent, &count) == 0 && count == 0) {
			nothing_counted(o->path, why, wn);
			return 1;
		}
	}
	snprintf(why, wn, "not measured: the trace cannot tell %s", o->path);
	return 2;
}

static void evaluate(const struct vmsa_doc *d, struct threshold *t, enum cli_missing missing)
{
	bool field_left = t->a.path[0] != '\0';
	t->field = field_left ? &t->a : &t->b;
	t->bound = field_left ? &t->b : &t->a;
	char why_b[sizeof(t->why)] = "";
	int rm = operand_value(d, t->field, &t->measured, t->why, sizeof(t->why));
	int rb = operand_value(d, t->bound, &t->bound_value, why_b, sizeof(why_b));
	t->measured_null = rm != 0;
	t->bound_null = rb != 0;
	if (rm == 2 || rb == 2) {
		if (rm != 2)
			memcpy(t->why, why_b, sizeof(t->why));
		t->verdict = NOT_MEASURED;
		t->pass = missing == MISSING_PASS;
		return;
	}
	if (rm || rb) {
		if (!rm)
			memcpy(t->why, why_b, sizeof(t->why));
		t->verdict = VACUOUS;
		t->pass = true;
		return;
	}
	double a = field_left ? t->measured : t->bound_value;
	double b = field_left ? t->bound_value : t->measured;
	const char *op = t->op;
	bool pass = !strcmp(op, "<=") ? a <= b : !strcmp(op, ">=") ? a >= b
		  : !strcmp(op, "==") ? a == b : !strcmp(op, "!=") ? a != b
		  : !strcmp(op, "<") ? a < b : a > b;
	t->verdict = pass ? HOLDS : VIOLATED;
	t->pass = pass;
}

/* "X = 12", "0.5 * X = 6", "5000000" or "X = null" */
static void describe(char *buf, size_t n, const struct operand *o, double v, bool null)
{
	char num[40];
	snprintf(num, sizeof(num), null ? "null" : "%.15g", v);
	if (!o->path[0])
		snprintf(buf, n, "%s", num);
	else if (o->factor != 1)
		snprintf(buf, n, "%.15g * %s = %s", o->factor, o->path, num);
	else
		snprintf(buf, n, "%s = %s", o->path, num);
}

/* "measured X = 12, bound 0: violated" */
static void message(const struct threshold *t, char *buf, size_t n)
{
	char m[400], b[400];
	describe(m, sizeof(m), t->field, t->measured, t->measured_null);
	describe(b, sizeof(b), t->bound, t->bound_value, t->bound_null);
	const char *tail = t->verdict == NOT_MEASURED
				   ? (t->pass ? " (passes: --missing=pass)" : " (fails; --missing=pass "
									     "lets it pass)")
				   : "";
	if (t->verdict == VACUOUS || t->verdict == NOT_MEASURED)
		snprintf(buf, n, "measured %s, bound %s: %s%s", m, b, t->why, tail);
	else
		snprintf(buf, n, "measured %s, bound %s: %s", m, b, verdict_names[t->verdict]);
}

/* Writes s escaped for XML (control characters as '?'). */
static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		switch (ch) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(ch < 0x20 && ch != '\t' ? '?' : ch, f);
		}
	}
}

/* The JUnit XML report: one testcase per threshold (or one for an input without a trace). */
static void junit(FILE *f, const char *input, const struct gate *g, const char *no_trace)
{
	int failures = 0, tests = no_trace ? 1 : g->n;
	for (int i = 0; !no_trace && i < g->n; i++)
		failures += !g->v[i].pass;
	if (no_trace)
		failures = 1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuites name=\"vmscan-analyze check\" tests=\"%d\" failures=\"%d\">\n"
		   "  <testsuite name=\"",
		tests, failures);
	xml_text(f, input);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\">\n", tests,
		failures);
	if (no_trace) {
		fputs("    <testcase classname=\"vmscan-analyze.check\" name=\"input holds a trace\">\n"
		      "      <failure type=\"no trace\" message=\"", f);
		xml_text(f, no_trace);
		fputs("\"/>\n    </testcase>\n", f);
	}
	for (int i = 0; !no_trace && i < g->n; i++) {
		const struct threshold *t = &g->v[i];
		char msg[1200];
		message(t, msg, sizeof(msg));
		fputs("    <testcase classname=\"vmscan-analyze.check\" name=\"", f);
		xml_text(f, t->expr);
		fputs("\">\n", f);
		if (!t->pass) {
			fprintf(f, "      <failure type=\"%s\" message=\"", verdict_names[t->verdict]);
			xml_text(f, msg);
			fputs("\"/>\n", f);
		} else {
			fputs("      <system-out>", f);
			xml_text(f, msg);
			fputs("</system-out>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
}

static struct json_object *json_number(double v, bool null)
{
	return null ? NULL : json_object_new_double(v);
}

/* The verdicts as one JSON document (--format json). */
static void json_report(const char *input, const struct gate *g, const char *no_trace,
			int status)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
	json_object_object_add(root, "input", json_object_new_string(input));
	json_object_object_add(root, "status",
			       json_object_new_string(no_trace ? "no trace"
						      : status == EXIT_OK ? "pass" : "fail"));
	json_object_object_add(root, "exit_status", json_object_new_int(status));
	if (no_trace)
		json_object_object_add(root, "reason", json_object_new_string(no_trace));
	for (int i = 0; !no_trace && i < g->n; i++) {
		const struct threshold *t = &g->v[i];
		char msg[1200];
		message(t, msg, sizeof(msg));
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "threshold", json_object_new_string(t->expr));
		json_object_object_add(o, "field", json_object_new_string(t->field->path));
		json_object_object_add(o, "op", json_object_new_string(t->op));
		json_object_object_add(o, "measured", json_number(t->measured, t->measured_null));
		json_object_object_add(o, "bound", json_number(t->bound_value, t->bound_null));
		json_object_object_add(o, "verdict",
				       json_object_new_string(verdict_names[t->verdict]));
		json_object_object_add(o, "pass", json_object_new_boolean(t->pass));
		json_object_object_add(o, "message", json_object_new_string(msg));
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "thresholds", arr);
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN |
							  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

/* Why d holds no trace for the gate, or NULL. */
static const char *no_trace_in(const struct cli *c, const struct vmsa_doc *d, char *buf,
			       size_t n)
{
	double analyzed = 0, rejected = 0;
	if (vmsa_doc_number(d, "input.lines_analyzed", &analyzed) < 0)
		analyzed = 0;
	if (vmsa_doc_number(d, "input.lines_rejected", &rejected) < 0)
		rejected = 0;
	if (analyzed == 0 && !c->allow_empty)
		return "the input holds no vmscan events (--allow-empty to pass on it)";
	if (c->strict && rejected > 0) {
		snprintf(buf, n, "%.0f line(s) rejected (--strict)", rejected);
		return buf;
	}
	return NULL;
}

int cmd_check(struct cli *c, int n, char **paths)
{
	if (n != 1) {
		fprintf(stderr, "vmscan-analyze: check wants one INPUT\n");
		return EXIT_USAGE;
	}
	struct gate g = {0};
	int status = EXIT_OK;
	for (int i = 0; i < c->nthresholds && status == EXIT_OK; i++)
		status = add_threshold(&g, c->thresholds[i]);
	if (status == EXIT_OK && c->thresholds_file)
		status = read_thresholds(&g, c->thresholds_file);
	if (status == EXIT_OK && !g.n) {
		fprintf(stderr, "vmscan-analyze: check wants thresholds (-t, --thresholds)\n");
		status = EXIT_USAGE;
	}
	if (status == EXIT_OK)
		status = cli_outputs_prepare(c, (const char *const *)paths, 1);
	struct vmsa_doc *d = NULL;
	const char *no_trace = NULL;
	char why[200];
	if (status == EXIT_OK) {
		status = cli_load_doc(c, paths[0], &d);
		if (status == EXIT_UNSUPPORTED || status == EXIT_CORRUPT)
			no_trace = "the input could not be read as a trace (told above)";
		else if (status == EXIT_OK)
			no_trace = no_trace_in(c, d, why, sizeof(why));
	}
	if (no_trace) {
		fprintf(stderr, "vmscan-analyze: check: %s: %s\n", paths[0], no_trace);
		status = EXIT_NO_TRACE;
	} else if (status == EXIT_OK) {
		int failed = 0;
		for (int i = 0; i < g.n; i++) {
			evaluate(d, &g.v[i], c->missing);
			failed += !g.v[i].pass;
		}
		if (failed) {
			fprintf(stderr, "vmscan-analyze: %d of %d thresholds violated\n", failed, g.n);
			status = EXIT_CHECK;
		}
	}
	if (status == EXIT_OK || status == EXIT_CHECK || status == EXIT_NO_TRACE) {
		if (!strcmp(c->format, "json"))
			json_report(paths[0], &g, no_trace, status);
		else
			for (int i = 0; !no_trace && i < g.n; i++) {
				char msg[1200];
				message(&g.v[i], msg, sizeof(msg));
				printf("%s %s: %s\n", g.v[i].pass ? "ok  " : "FAIL", g.v[i].expr, msg);
			}
		if (c->junit_out.f)
			junit(c->junit_out.f, paths[0], &g, no_trace);
		/* the report is written whatever the verdict */
		int written = cli_outputs_finish(c, cli_stdout_status(EXIT_OK));
		if (written)
			status = written;
	}
	for (int i = 0; i < g.n; i++)
		free(g.v[i].expr);
	free(g.v);
	vmsa_doc_free(d);
	return status;
}
