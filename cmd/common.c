/* SPDX-License-Identifier: MIT */
/* What the subcommands share: exit statuses, messages, statistics, reports. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"

int cli_status(int err, enum cli_stage stage)
{
	if (err == VMSA_E_OK)
		return EXIT_OK;
	if (err == VMSA_E_NOMEM)
		return EXIT_RUNTIME;
	switch (stage) {
	case CLI_INPUT:
		if (err == VMSA_E_UNSUPPORTED || err == VMSA_E_STDIN_BINARY || err == VMSA_E_NOLIB)
			return EXIT_UNSUPPORTED;
		if (err == VMSA_E_DECOMPRESS)
			return EXIT_DECOMPRESS;
		return err == VMSA_E_CORRUPT ? EXIT_CORRUPT : EXIT_INPUT;
	case CLI_SUMMARY: /* not JSON, not a summary, or a layout that cannot be merged */
		return err == VMSA_E_IO || err == VMSA_E_ISDIR ? EXIT_INPUT : EXIT_CORRUPT;
	case CLI_LIVE:
		return err == VMSA_E_NOLIB ? EXIT_UNSUPPORTED : EXIT_LIVE;
	case CLI_THRESHOLD:
		return EXIT_USAGE;
	case CLI_OUTPUT:
		break;
	}
	return EXIT_RUNTIME;
}

void cli_error(const char *what, int err, int sys_errno)
{
	const char *msg = err == VMSA_E_IO && sys_errno ? strerror(sys_errno) : vmsa_strerror(err);
	if (what)
		fprintf(stderr, "vmscan-analyze: %s: %s\n", what, msg);
	else
		fprintf(stderr, "vmscan-analyze: %s\n", msg);
}

/*
 * One --latencies row: start_ns,end_ns,duration_ns,pid,cpu,comm,kind,order
 * (trace time and duration in ns; cpu empty when the trace does not say).
 */
static void on_latency(const struct vmsa_latency_record *l, void *payload)
{
	FILE *f = payload;
	uint64_t ts = l->end_ns, ns = l->duration_ns;
	fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId32 ",", ts >= ns ? ts - ns : 0, ts,
		ns, l->pid);
	if (l->cpu >= 0)
		fprintf(f, "%" PRId32, l->cpu);
	fputs(",\"", f);
	for (size_t i = 0; i < l->comm_len; i++) {
		if (l->comm[i] == '"')
			fputc('"', f);
		fputc(l->comm[i] ? l->comm[i] : '?', f);
	}
	if (l->order >= 0)
		fprintf(f, "\",%s,%d\n", l->kind, l->order);
	else /* a begin that did not say its order */
		fprintf(f, "\",%s,\n", l->kind);
}

/* The outputs renamed together; the --openmetrics-file among them only
 * when it is a regular file (or none yet): a device or FIFO is opened when
 * it is written, last, as the library writes it */
static size_t outputs_of(struct cli *c, struct cli_out **outs)
{
	struct stat s;
	size_t n = 0;
	outs[n++] = &c->json_out;
	outs[n++] = &c->svg_out;
	outs[n++] = &c->lat_out;
	outs[n++] = &c->junit_out;
	if (c->metrics_out.path && (c->metrics_out.f || stat(c->metrics_out.path, &s) ||
				    S_ISREG(s.st_mode)))
		outs[n++] = &c->metrics_out;
	return n;
}

int cli_outputs_prepare(struct cli *c, const char *const *inputs, int n)
{
	int status = cli_out_check(c, inputs, n);
	struct cli_out *outs[5];
	size_t nouts = outputs_of(c, outs);
	for (size_t i = 0; i < nouts && status == EXIT_OK; i++)
		status = cli_out_open(outs[i]);
	if (status == EXIT_OK && c->lat_out.f)
		fputs("start_ns,end_ns,duration_ns,pid,cpu,comm,kind,order\n", c->lat_out.f);
	return status;
}

int cli_outputs_finish(struct cli *c, int status)
{
	/* every one written whole before any is renamed: a run that fails
	 * on one output replaces none (an error told by cli_out_close()) */
	struct cli_out *outs[5];
	size_t n = outputs_of(c, outs);
	for (size_t i = 0; i < n && status == EXIT_OK; i++)
		status = cli_out_close(outs[i]);
	for (size_t i = 0; i < n; i++) {
		if (status == EXIT_OK)
			status = cli_out_rename(outs[i]);
		else
			cli_out_abort(outs[i]);
	}
	return status;
}

void cli_free(struct cli *c)
{
	cli_outputs_finish(c, EXIT_RUNTIME);
	cli_release_pipes();
	cli_listen_stop(c->listener);
	vmsa_cgroups_free(c->cgroups);
	c->listener = NULL;
	c->cgroups = NULL;
	free(c->thresholds);
	free(c->names);
	vmsa_filter_free(c->filter);
	free(c->groups);
	for (size_t i = 0; i < c->ntally; i++) /* (inputs whose end was not told) */
		free(c->tally[i].name);
	free(c->tally);
	c->tally = NULL;
	c->ntally = 0;
	c->thresholds = NULL;
	c->names = NULL;
	c->filter = NULL;
	c->groups = NULL;
}

int cli_stats_new(const struct cli *c, bool for_report, struct vmsa_stats **st)
{
	struct vmsa_stats_options so = {.ignore_pid = c->ignore_pid, .max_tasks = c->max_tasks};
	if (for_report) {
		so.keep_latency_list = c->latency_list && !c->ignore_pid;
		so.latency_record_cb = c->lat_out.f ? on_latency : NULL;
		so.latency_payload = c->lat_out.f;
	}
	int err = vmsa_stats_new(st, &so);
	if (err)
		cli_error(NULL, err, 0);
	return cli_status(err, CLI_OUTPUT);
}

/*
 * Whether --interval prints its reports on standard output: not when they
 * go to --openmetrics-file or the format is a metrics one.  Only then is
 * the total framed as one of them (a separator line, a JSON line); alone,
 * the final report is a plain report.
 */
static bool intervals_printed(const struct cli *c)
{
	enum vmsa_metrics_format mf;
	return c->interval > 0 && !c->metrics_path && !cli_metrics_format(c->format, &mf);
}

int cli_finish(struct cli *c, struct vmsa_stats *st, int status)
{
	if (status < 0)
		status = EXIT_OK; /* asked to stop: the final report follows */
	struct cli_span total = {
		.final = true, .wall_start = c->wall_start, .wall_end = cli_wall_now()};
	/* --strict failing: the report is printed, but no output file is
	 * written, the metrics file no more than the others */
	c->failed = c->strict && (c->messages > 0 || c->short_inputs > 0);
	if (status == EXIT_OK)
		status = cli_status(cli_report(c, st, stdout, true,
					       intervals_printed(c) || c->interim_printed ? &total
											 : NULL),
				    CLI_OUTPUT);
	if (status == EXIT_OK && c->strict && c->messages > 0) {
		fprintf(stderr, "vmscan-analyze: %ld line(s) rejected (--strict)\n", c->messages);
		status = EXIT_REJECTED;
	}
	if (status == EXIT_OK && c->strict && c->short_inputs > 0) {
		fprintf(stderr, "vmscan-analyze: %ld trace.dat file(s) not read whole (--strict)\n",
			c->short_inputs);
		status = EXIT_REJECTED;
	}
	vmsa_stats_free(st);
	return cli_outputs_finish(c, cli_stdout_status(status));
}

/* Writes the summary into an output file (--svg, --json); 0 or an error (shown). */
static int report_file(const struct cli *c, const struct cli_out *o, const struct vmsa_summary *sum,
		       const struct vmsa_report_options *ro, bool svg)
{
	errno = 0;
	int err = svg ? vmsa_report_svg(o->f, sum, c->svg_title) : vmsa_report_json(o->f, sum, ro);
	if (err) /* (a write's errno: "No space left on device") */
		fprintf(stderr, "vmscan-analyze: %s: cannot write %s: %s\n", o->path, o->option,
			err == VMSA_E_IO && errno ? strerror(errno) : vmsa_strerror(err));
	return err;
}

bool cli_metrics_format(const char *format, enum vmsa_metrics_format *fmt)
{
	*fmt = strcmp(format, "prometheus") ? VMSA_METRICS_OPENMETRICS : VMSA_METRICS_PROMETHEUS;
	return !strcmp(format, "openmetrics") || !strcmp(format, "prometheus");
}

/* The document and the cgroups of its tasks, for the metrics file. */
struct metrics_src {
	const struct vmsa_doc *doc;
	struct vmsa_cgroups *cgroups;
};

static int write_prometheus(FILE *f, void *payload)
{
	const struct metrics_src *m = payload;
	return vmsa_report_openmetrics_cgroups(f, m->doc, VMSA_METRICS_PROMETHEUS, m->cgroups);
}

int cli_write_metrics_file(const struct cli *c, const struct vmsa_doc *doc, bool final)
{
	struct metrics_src m = {doc, c->cgroups};
	int err = 0;
	/* the final one into its temporary file, renamed with the other
	 * outputs (cli_outputs_finish()) */
	if (final && c->metrics_out.f && !c->failed) {
		errno = 0;
		if ((err = write_prometheus(c->metrics_out.f, &m)))
			fprintf(stderr, "vmscan-analyze: %s: cannot write --openmetrics-file: %s\n",
				c->metrics_path,
				err == VMSA_E_IO && errno ? strerror(errno) : vmsa_strerror(err));
		return err;
	}
	if (c->metrics_path && !c->failed &&
	    (err = vmsa_write_file_atomic(c->metrics_path, write_prometheus, &m)))
		fprintf(stderr, "vmscan-analyze: %s: cannot write --openmetrics-file: %s\n",
			c->metrics_path,
			err == VMSA_E_IO && errno ? strerror(errno) : vmsa_strerror(err));
	return err;
}

int cli_write_metrics(const struct cli *c, const struct vmsa_doc *doc, FILE *out, bool file,
		      bool *told)
{
	enum vmsa_metrics_format fmt;
	int err = out && cli_metrics_format(c->format, &fmt)
			  ? vmsa_report_openmetrics_cgroups(out, doc, fmt, c->cgroups)
			  : 0;
	if (told)
		*told = false;
	if (err)
		return err;
	if (file)
		err = cli_write_metrics_file(c, doc, false);
	if (!err && c->listener && (err = cli_listen_publish(c->listener, doc, c->cgroups)))
		cli_error("--listen", err, 0);
	if (told)
		*told = err != 0;
	return err;
}

double cli_wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ISO 8601, UTC, milliseconds: "2026-12-04T15:30:00.123Z". */
static void iso_time(char *buf, size_t n, double t)
{
	time_t s = (time_t)t;
	int ms = (int)((t - (double)s) * 1000.0);
	struct tm tm;
	gmtime_r(&s, &tm);
	size_t k = strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + k, n - k, ".%03dZ", ms > 999 ? 999 : ms);
}

/* A trace time in ns from doc (path), as text: "%.6f" seconds or "-"; JSON: ns or null. */
static void trace_time(const struct vmsa_doc *d, const char *path, bool json, char *buf,
		       size_t n)
{
	double v;
	if (vmsa_doc_number(d, path, &v))
		snprintf(buf, n, json ? "null" : "-");
	else
		snprintf(buf, n, json ? "%.0f" : "%.6f", json ? v : v / 1e9);
}

/*
 * The head of a report that covers a span: the separator line, or the
 * start of the JSON line up to "summary": (the report follows, then "}").
 */
static int span_head(const struct vmsa_summary *sum, const struct cli_span *span, bool json,
		     FILE *out)
{
	struct vmsa_doc *d;
	int err = vmsa_doc_from_summary_ref(&d, sum);
	if (err)
		return err;
	char first[40], last[40], w0[40], w1[40], idx[24];
	trace_time(d, "input.first_timestamp_ns", json, first, sizeof(first));
	trace_time(d, "input.last_timestamp_ns", json, last, sizeof(last));
	vmsa_doc_free(d);
	iso_time(w0, sizeof(w0), span->wall_start);
	iso_time(w1, sizeof(w1), span->wall_end);
	snprintf(idx, sizeof(idx), "%" PRIu64, span->index);
	if (!json)
		fprintf(out, "=== vmscan-analyze %s%s: trace %s..%s s, wall %s..%s ===\n",
			span->index ? "interval " : "total", span->index ? idx : "", first, last, w0,
			w1);
	else
		fprintf(out,
			"{\"interval\":{\"index\":%s,\"kind\":\"%s\",\"final\":%s,"
			"\"first_event_ns\":%s,\"last_event_ns\":%s,\"wall_start\":\"%s\","
			"\"wall_end\":\"%s\"},\"summary\":",
			span->index ? idx : "null", span->index ? "delta" : "total",
			span->final ? "true" : "false", first, last, w0, w1);
	return 0;
}

/* A stream to out that holds back newlines until more follows (and drops
 * those at the end): a JSON report, which ends with one, written straight
 * into the {"interval": ..., "summary": ...} line.  (It was made in memory
 * first: a summary of 65,000 tasks is a line of 250 MB.) */
struct no_last_newline {
	FILE *out;
	size_t held;
};

static ssize_t nln_write(void *c, const char *buf, size_t n)
{
	struct no_last_newline *w = c;
	size_t body = n;
	while (body && buf[body - 1] == '\n')
		body--;
	if (body) {
		for (; w->held; w->held--)
			if (putc('\n', w->out) == EOF)
				return -1;
		if (fwrite(buf, 1, body, w->out) != body)
			return -1;
	}
	w->held += n - body;
	return (ssize_t)n;
}

/* The JSON summary on one line (never --pretty), inside the {"interval": ...,
 * "summary": ...} line. */
static int json_line(FILE *out, const struct vmsa_summary *sum, const struct vmsa_report_options *ro)
{
	struct no_last_newline w = {out, 0};
	FILE *m = fopencookie(&w, "w", (cookie_io_functions_t){.write = nln_write});
	if (!m)
		return VMSA_E_NOMEM;
	struct vmsa_report_options line = *ro;
	line.pretty = false;
	int err = vmsa_report_json(m, sum, &line);
	if (fclose(m) && !err)
		err = VMSA_E_IO;
	if (!err && (ferror(out) || fputs("}\n", out) < 0))
		err = VMSA_E_IO;
	return err;
}

/* The report in the classic or JSON format, after its head when it covers a span. */
static int print_report(const struct cli *c, const struct vmsa_summary *sum,
			const struct vmsa_report_options *ro, const struct cli_span *span, FILE *out)
{
	bool json = strcmp(c->format, "json") == 0;
	/* a JSON report is wrapped with its span when interval reports are
	 * printed, and a total when a SIGINT asked for one before the end (and
	 * the final one after it): one document a line, as --interval's */
	if (span && (!json || intervals_printed(c) || !span->index)) {
		int err = span_head(sum, span, json, out);
		if (err)
			return err;
		if (json)
			return json_line(out, sum, ro);
	}
	return json ? vmsa_report_json(out, sum, ro) : vmsa_report_classic(out, sum, ro);
}

int cli_report(const struct cli *c, const struct vmsa_stats *st, FILE *out, bool final,
	       const struct cli_span *span)
{
	struct vmsa_summary *sum;
	int err = vmsa_stats_summary(st, &sum);
	if (err) {
		cli_error(NULL, err, 0);
		return err;
	}
	struct vmsa_report_options ro = {.ignore_pid = c->ignore_pid,
					 .latency_list = c->latency_list,
					 .pretty = c->pretty,
					 .histogram = c->histogram,
					 .sort = c->sort,
					 .top = c->top};
	enum vmsa_metrics_format mf;
	bool metrics = cli_metrics_format(c->format, &mf);
	bool told = false; /* the metrics file's or --listen's error */
	/* an interval's delta is printed only: the metrics stay cumulative */
	bool delta = span && span->index;
	struct vmsa_doc *doc = NULL;
	if (!delta && (metrics || c->metrics_path || c->listener)) {
		/* interval reports with --openmetrics-file go to the file only;
		 * the final one's file is written last, when all else is out */
		FILE *mout = metrics && (final || !c->metrics_path) ? out : NULL;
		err = vmsa_doc_from_summary_ref(&doc, sum);
		if (!err)
			err = cli_write_metrics(c, doc, mout, !final, &told);
		if (!err && !metrics && (final || !c->metrics_path))
			err = print_report(c, sum, &ro, span, out);
	} else {
		err = print_report(c, sum, &ro, span, out);
	}
	if (cli_flush(out) && !err)
		err = VMSA_E_IO;
	if (err && !told && !(out == stdout && cli_stdout_closed()))
		fprintf(stderr, "vmscan-analyze: cannot write the report: %s\n", vmsa_strerror(err));
	if (!err && final && c->svg_out.f)
		err = report_file(c, &c->svg_out, sum, &ro, true);
	if (!err && final && c->json_out.f)
		err = report_file(c, &c->json_out, sum, &ro, false);
	if (!err && final && doc)
		err = cli_write_metrics_file(c, doc, true);
	vmsa_doc_free(doc);
	vmsa_summary_free(sum);
	return err;
}


int cli_analysis(struct cli *c, const char *title, const char *const *inputs, int n)
{
	c->svg_title = title;
	c->wall_start = cli_wall_now();
	int status = cli_outputs_prepare(c, inputs, n < 0 ? 0 : n);
	if (!status && c->listen)
		status = cli_listen_begin(c);
	if (status)
		return status;
	struct vmsa_stats *st;
	status = cli_stats_new(c, true, &st);
	if (status)
		return status;
	return cli_finish(c, st, n < 0 ? cli_run_live(c, st) : cli_run(c, st, inputs, n));
}
