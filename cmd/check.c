/* SPDX-License-Identifier: MIT */
/*
 * vmscan-analyze check [-t EXPR]... [--thresholds FILE] INPUT: thresholds on a
 * summary, as a gate that fails closed: an input without a trace fails
 * (status 9), every threshold names a field of the summary schema, and a
 * value the trace cannot tell fails unless --missing=pass.
 */
#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A threshold as given, and what the library made of it. */
struct threshold {
	char *expr;
	struct vmsa_threshold r;
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

/* Parsed (no document yet); 0, or a usage error (told). */
static int parse_threshold(struct threshold *t)
{
	if (!vmsa_threshold_check(NULL, t->expr, 0, &t->r))
		return EXIT_OK;
	fprintf(stderr, "vmscan-analyze: threshold '%s': %s\n", t->expr, t->r.message);
	return EXIT_USAGE;
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

/*
 * One EXPR a line, read whole (getline: no length limit); '#' starts a
 * comment, blank lines are skipped, a line may end in CRLF.  A read error
 * (a directory, an I/O error) is the file's error, never its end: the
 * thresholds after it would be lost and the gate pass on the rest.
 */
static int read_thresholds(struct gate *g, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		cli_error(path, VMSA_E_IO, errno);
		return cli_status(VMSA_E_IO, CLI_INPUT);
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int status = EXIT_OK;
	for (long no = 1; !status && (errno = 0, got = getline(&line, &cap, f)) >= 0; no++) {
		if (memchr(line, '\0', (size_t)got)) {
			fprintf(stderr, "vmscan-analyze: %s:%ld: a NUL byte in a threshold line\n",
				path, no);
			status = EXIT_USAGE;
			break;
		}
		char *h = strchr(line, '#');
		if (h)
			*h = '\0';
		size_t l = strlen(line);
		while (l && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' ' ||
			     line[l - 1] == '\t'))
			line[--l] = '\0';
		const char *b = skip(line);
		if (*b)
			status = add_threshold(g, b);
	}
	if (!status && ferror(f)) {
		int e = errno;
		cli_error(path, e == ENOMEM ? VMSA_E_NOMEM : VMSA_E_IO, e);
		status = e == ENOMEM ? EXIT_RUNTIME : cli_status(VMSA_E_IO, CLI_INPUT);
	}
	free(line);
	fclose(f);
	return status;
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

/*
 * The JUnit XML report: one testcase per threshold (or one for an input
 * without a trace, or one in error for a check that was interrupted: no
 * verdict, and none of the thresholds passed).
 */
static void junit(FILE *f, const char *input, const struct gate *g, const char *no_trace,
		  const char *interrupted)
{
	int failures = 0, errors = interrupted ? 1 : 0, tests = no_trace || interrupted ? 1 : g->n;
	if (interrupted)
		no_trace = NULL;
	for (int i = 0; !no_trace && !interrupted && i < g->n; i++)
		failures += !g->v[i].r.pass;
	if (no_trace)
		failures = 1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuites name=\"vmscan-analyze check\" tests=\"%d\" failures=\"%d\" "
		   "errors=\"%d\">\n"
		   "  <testsuite name=\"",
		tests, failures, errors);
	xml_text(f, input);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\">\n", tests,
		failures, errors);
	if (interrupted) {
		fputs("    <testcase classname=\"vmscan-analyze.check\" name=\"check ran to its "
		      "end\">\n      <error type=\"interrupted\" message=\"", f);
		xml_text(f, interrupted);
		fputs("\"/>\n    </testcase>\n  </testsuite>\n</testsuites>\n", f);
		return;
	}
	if (no_trace) {
		fputs("    <testcase classname=\"vmscan-analyze.check\" name=\"input holds a trace\">\n"
		      "      <failure type=\"no trace\" message=\"", f);
		xml_text(f, no_trace);
		fputs("\"/>\n    </testcase>\n", f);
	}
	for (int i = 0; !no_trace && i < g->n; i++) {
		const struct vmsa_threshold *t = &g->v[i].r;
		fputs("    <testcase classname=\"vmscan-analyze.check\" name=\"", f);
		xml_text(f, g->v[i].expr);
		fputs("\">\n", f);
		if (!t->pass) {
			fprintf(f, "      <failure type=\"%s\" message=\"", t->verdict_name);
			xml_text(f, t->message);
			fputs("\"/>\n", f);
		} else {
			fputs("      <system-out>", f);
			xml_text(f, t->message);
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

/* The verdicts as one JSON document (--format json); interrupted: none,
 * status "interrupted" and why. */
static void json_report(const char *input, const struct gate *g, const char *no_trace,
			const char *interrupted, int status)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
	if (interrupted)
		no_trace = NULL;
	json_object_object_add(root, "input", json_object_new_string(input));
	json_object_object_add(root, "status",
			       json_object_new_string(interrupted ? "interrupted"
						      : no_trace ? "no trace"
						      : status == EXIT_OK ? "pass" : "fail"));
	json_object_object_add(root, "exit_status", json_object_new_int(status));
	if (no_trace || interrupted)
		json_object_object_add(root, "reason",
				       json_object_new_string(interrupted ? interrupted : no_trace));
	for (int i = 0; !no_trace && !interrupted && i < g->n; i++) {
		const struct vmsa_threshold *t = &g->v[i].r;
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "threshold", json_object_new_string(g->v[i].expr));
		json_object_object_add(o, "field", json_object_new_string(t->field));
		json_object_object_add(o, "op", json_object_new_string(t->op));
		json_object_object_add(o, "measured", json_number(t->measured, t->measured_null));
		json_object_object_add(o, "bound", json_number(t->bound, t->bound_null));
		json_object_object_add(o, "verdict", json_object_new_string(t->verdict_name));
		json_object_object_add(o, "pass", json_object_new_boolean(t->pass));
		json_object_object_add(o, "message", json_object_new_string(t->message));
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
	/* (a damaged trace.dat: whatever its counts say, they are of a part) */
	if (vmsa_doc_has_note(d, "tracedat_short"))
		return "the trace.dat was not read whole: CPUs of it ended before the end of their "
		       "data (note tracedat_short)";
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
	c->stop_on_int = true; /* a SIGINT stops the gate: no interim report */
	for (int i = 0; i < c->nthresholds && status == EXIT_OK; i++)
		status = add_threshold(&g, c->thresholds[i]);
	if (status == EXIT_OK && c->thresholds_file)
		status = read_thresholds(&g, c->thresholds_file);
	if (status == EXIT_OK && !g.n) {
		if (c->thresholds_file)
			fprintf(stderr, "vmscan-analyze: %s: no threshold in it (one EXPR a line)\n",
				c->thresholds_file);
		else
			fprintf(stderr, "vmscan-analyze: check wants thresholds (-t, --thresholds)\n");
		status = EXIT_USAGE;
	}
	if (status == EXIT_OK)
		status = cli_outputs_prepare(c, (const char *const *)paths, 1);
	bool prepared = status == EXIT_OK;
	struct vmsa_doc *d = NULL;
	const char *no_trace = NULL;
	char why[200], interrupted[200];
	if (status == EXIT_OK) {
		status = cli_load_doc(c, paths[0], false, &d);
		if (status == EXIT_UNSUPPORTED || status == EXIT_CORRUPT || status == EXIT_DECOMPRESS)
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
			/* parsed above; an error would leave pass 0: fails closed */
			vmsa_threshold_check(d, g.v[i].expr, c->missing == MISSING_PASS, &g.v[i].r);
			failed += !g.v[i].r.pass;
		}
		if (failed) {
			fprintf(stderr, "vmscan-analyze: %d of %d thresholds violated\n", failed, g.n);
			status = EXIT_CHECK;
		}
	}
	/* a signal (a CI job cancelled or timed out: SIGTERM, SIGHUP; SIGINT)
	 * stopped the reading, or came before the verdict: what was read is
	 * not the input, and nothing may say pass */
	int sig = prepared ? cli_interrupted() : 0;
	if (sig && status != EXIT_RUNTIME) {
		snprintf(interrupted, sizeof(interrupted),
			 "interrupted by %s before the end of the input: no verdict",
			 sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM");
		fprintf(stderr, "vmscan-analyze: check: %s: %s\n", paths[0], interrupted);
		status = EXIT_INTERRUPTED;
	}
	if (status == EXIT_OK || status == EXIT_CHECK || status == EXIT_NO_TRACE ||
	    status == EXIT_INTERRUPTED) {
		const char *stop = status == EXIT_INTERRUPTED ? interrupted : NULL;
		if (!strcmp(c->format, "json"))
			json_report(paths[0], &g, no_trace, stop, status);
		else
			for (int i = 0; !no_trace && !stop && i < g.n; i++)
				printf("%s %s: %s\n", g.v[i].r.pass ? "ok  " : "FAIL", g.v[i].expr,
				       g.v[i].r.message);
		if (c->junit_out.f)
			junit(c->junit_out.f, paths[0], &g, no_trace, stop);
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
