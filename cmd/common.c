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

static void on_latency(uint64_t ts, int32_t pid, const char *comm, size_t comm_len,
		       const char *kind, int order, uint64_t ns, void *payload)
{
	FILE *f = payload;
	fprintf(f, "%" PRIu64 ".%09" PRIu64 ",%" PRId32 ",\"", ts / 1000000000u, ts % 1000000000u,
		pid);
	for (size_t i = 0; i < comm_len; i++) {
		if (comm[i] == '"')
			fputc('"', f);
		fputc(comm[i] ? comm[i] : '?', f);
	}
	fprintf(f, "\",%s,%d,%" PRIu64 "\n", kind, order, ns);
}

int cli_open_latencies(struct cli *c)
{
	if (!c->latencies_path)
		return EXIT_OK;
	c->lat_csv = fopen(c->latencies_path, "w");
	if (!c->lat_csv) {
		cli_error(c->latencies_path, VMSA_E_IO, errno);
		return cli_status(VMSA_E_IO, CLI_OUTPUT);
	}
	fputs("timestamp_ns,pid,comm,kind,order,latency_ns\n", c->lat_csv);
	return EXIT_OK;
}

int cli_close_latencies(struct cli *c)
{
	FILE *f = c->lat_csv;
	c->lat_csv = NULL;
	if (f && fclose(f)) {
		cli_error(c->latencies_path, VMSA_E_IO, errno);
		return cli_status(VMSA_E_IO, CLI_OUTPUT);
	}
	return EXIT_OK;
}

void cli_free(struct cli *c)
{
	if (c->lat_csv)
		fclose(c->lat_csv);
	c->lat_csv = NULL;
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
		so.latency_cb = c->lat_csv ? on_latency : NULL;
		so.latency_payload = c->lat_csv;
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
	int closed = cli_close_latencies(c);
	if (closed)
		status = closed;
	if (status == EXIT_OK && c->strict && c->messages > 0) {
		fprintf(stderr, "vmscan-analyze: %ld line(s) rejected (--strict)\n", c->messages);
		status = EXIT_REJECTED;
	}
	vmsa_stats_free(st);
	return status;
}

/* Writes the summary into a file of its own (--svg, --json); 0 or an error (shown). */
static int report_file(const struct cli *c, const char *path, const struct vmsa_summary *sum,
		       const struct vmsa_report_options *ro, bool svg)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		cli_error(path, VMSA_E_IO, errno);
		return VMSA_E_IO;
	}
	int err = svg ? vmsa_report_svg(f, sum, c->svg_title) : vmsa_report_json(f, sum, ro);
	if (fclose(f) && !err)
		err = VMSA_E_IO;
	if (err)
		fprintf(stderr, "vmscan-analyze: cannot write the report: %s\n", vmsa_strerror(err));
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
	fflush(out);
	if (err)
		fprintf(stderr, "vmscan-analyze: cannot write the report: %s\n", vmsa_strerror(err));
	if (!err && final && c->svg_path)
		err = report_file(c, c->svg_path, sum, &ro, true);
	if (!err && final && c->json_path)
		err = report_file(c, c->json_path, sum, &ro, false);
	vmsa_summary_free(sum);
	return err;
}

