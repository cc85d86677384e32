/* SPDX-License-Identifier: MIT */
/* What the subcommands share: exit statuses, messages, statistics, reports. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_status(int err, enum cli_stage stage)
{
	if (err == VMSA_E_OK)
		return EXIT_OK;
	if (err == VMSA_E_NOMEM)
		return EXIT_RUNTIME;
	switch (stage) {
	case CLI_INPUT:
		if (err == VMSA_E_UNSUPPORTED || err == VMSA_E_STDIN_BINARY)
			return EXIT_UNSUPPORTED;
		return err == VMSA_E_CORRUPT ? EXIT_CORRUPT : EXIT_INPUT;
	case CLI_SUMMARY: /* not JSON, not a summary, or a layout that cannot be merged */
		return err == VMSA_E_IO || err == VMSA_E_ISDIR ? EXIT_INPUT : EXIT_CORRUPT;
	case CLI_LIVE:
		return EXIT_LIVE;
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

/* One --latencies row: start_ns,end_ns,duration_ns,pid,comm,kind,order (trace time, ns). */
static void on_latency(uint64_t ts, int32_t pid, const char *comm, size_t comm_len,
		       const char *kind, int order, uint64_t ns, void *payload)
{
	FILE *f = payload;
	fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId32 ",\"", ts >= ns ? ts - ns : 0, ts,
		ns, pid);
	for (size_t i = 0; i < comm_len; i++) {
		if (comm[i] == '"')
			fputc('"', f);
		fputc(comm[i] ? comm[i] : '?', f);
	}
	fprintf(f, "\",%s,%d\n", kind, order);
}

int cli_outputs_prepare(struct cli *c, const char *const *inputs, int n)
{
	int status = cli_out_check(c, inputs, n);
	struct cli_out *outs[] = {&c->json_out, &c->svg_out, &c->lat_out, &c->junit_out};
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]) && status == EXIT_OK; i++)
		status = cli_out_open(outs[i]);
	if (status == EXIT_OK && c->lat_out.f)
		fputs("start_ns,end_ns,duration_ns,pid,comm,kind,order\n", c->lat_out.f);
	return status;
}

int cli_outputs_finish(struct cli *c, int status)
{
	struct cli_out *outs[] = {&c->json_out, &c->svg_out, &c->lat_out, &c->junit_out};
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		if (status == EXIT_OK)
			status = cli_out_commit(outs[i]);
		else
			cli_out_abort(outs[i]);
	}
	return status;
}

void cli_free(struct cli *c)
{
	cli_outputs_finish(c, EXIT_RUNTIME);
	free(c->thresholds);
	free(c->names);
	c->thresholds = NULL;
	c->names = NULL;
}

int cli_stats_new(const struct cli *c, bool for_report, struct vmsa_stats **st)
{
	struct vmsa_stats_options so = {.ignore_pid = c->ignore_pid, .max_tasks = c->max_tasks};
	if (for_report) {
		so.keep_latency_list = c->latency_list && !c->ignore_pid;
		so.latency_cb = c->lat_out.f ? on_latency : NULL;
		so.latency_payload = c->lat_out.f;
	}
	int err = vmsa_stats_new(st, &so);
	if (err)
		cli_error(NULL, err, 0);
	return cli_status(err, CLI_OUTPUT);
}

int cli_finish(struct cli *c, struct vmsa_stats *st, int status)
{
	if (status < 0)
		status = EXIT_OK; /* asked to stop: the final report follows */
	if (status == EXIT_OK)
		status = cli_status(cli_report(c, st, stdout, true), CLI_OUTPUT);
	if (status == EXIT_OK && c->strict && c->messages > 0) {
		fprintf(stderr, "vmscan-analyze: %ld line(s) rejected (--strict)\n", c->messages);
		status = EXIT_REJECTED;
	}
	vmsa_stats_free(st);
	return cli_outputs_finish(c, cli_stdout_status(status));
}

/* Writes the summary into an output file (--svg, --json); 0 or an error (shown). */
static int report_file(const struct cli *c, const struct cli_out *o, const struct vmsa_summary *sum,
		       const struct vmsa_report_options *ro, bool svg)
{
	int err = svg ? vmsa_report_svg(o->f, sum, c->svg_title) : vmsa_report_json(o->f, sum, ro);
	if (err)
		fprintf(stderr, "vmscan-analyze: %s: cannot write %s: %s\n", o->path, o->option,
			vmsa_strerror(err));
	return err;
}

bool cli_metrics_format(const char *format, enum vmsa_metrics_format *fmt)
{
	*fmt = strcmp(format, "prometheus") ? VMSA_METRICS_OPENMETRICS : VMSA_METRICS_PROMETHEUS;
	return !strcmp(format, "openmetrics") || !strcmp(format, "prometheus");
}

static int write_prometheus(FILE *f, void *doc)
{
	return vmsa_report_openmetrics(f, doc, VMSA_METRICS_PROMETHEUS);
}

int cli_write_metrics(const struct cli *c, const struct vmsa_doc *doc, FILE *out)
{
	enum vmsa_metrics_format fmt;
	int err = out && cli_metrics_format(c->format, &fmt) ? vmsa_report_openmetrics(out, doc, fmt)
							     : 0;
	if (!err && c->metrics_path &&
	    (err = vmsa_write_file_atomic(c->metrics_path, write_prometheus, (void *)doc)))
		cli_error(c->metrics_path, err, errno);
	return err;
}

int cli_report(const struct cli *c, const struct vmsa_stats *st, FILE *out, bool final)
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
					 .histogram = c->histogram};
	enum vmsa_metrics_format mf;
	bool metrics = cli_metrics_format(c->format, &mf);
	if (metrics || c->metrics_path) {
		/* interval reports with --openmetrics-file go to the file only */
		FILE *mout = metrics && (final || !c->metrics_path) ? out : NULL;
		struct vmsa_doc *doc;
		err = vmsa_doc_from_summary(&doc, sum);
		if (!err)
			err = cli_write_metrics(c, doc, mout);
		vmsa_doc_free(doc);
		if (!err && !metrics && (final || !c->metrics_path))
			err = strcmp(c->format, "json") == 0 ? vmsa_report_json(out, sum, &ro)
							     : vmsa_report_classic(out, sum, &ro);
	} else if (strcmp(c->format, "json") == 0) {
		err = vmsa_report_json(out, sum, &ro);
	} else {
		err = vmsa_report_classic(out, sum, &ro);
	}
	if (cli_flush(out) && !err)
		err = VMSA_E_IO;
	if (err)
		fprintf(stderr, "vmscan-analyze: cannot write the report: %s\n", vmsa_strerror(err));
	if (!err && final && c->svg_out.f)
		err = report_file(c, &c->svg_out, sum, &ro, true);
	if (!err && final && c->json_out.f)
		err = report_file(c, &c->json_out, sum, &ro, false);
	vmsa_summary_free(sum);
	return err;
}


int cli_analysis(struct cli *c, const char *title, const char *const *inputs, int n)
{
	c->svg_title = title;
	int status = cli_outputs_prepare(c, inputs, n < 0 ? 0 : n);
	if (status)
		return status;
	struct vmsa_stats *st;
	status = cli_stats_new(c, true, &st);
	if (status)
		return status;
	return cli_finish(c, st, n < 0 ? cli_run_live(c, st) : cli_run(c, st, inputs, n));
}
