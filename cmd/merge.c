/* SPDX-License-Identifier: MIT */
/* vmscan-analyze merge [--pretty] INPUT...: summaries (or traces) added into one. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The inputs (summaries, or traces analysed) added into *all; an exit status. */
static int load_all(struct cli *c, int n, char **paths, struct vmsa_doc **all_out)
{
	struct vmsa_doc *all = NULL;
	int status = EXIT_OK;
	for (int i = 0; i < n && status == EXIT_OK; i++) {
		struct vmsa_doc *d;
		if ((status = cli_load_doc(c, paths[i], true, &d)))
			break;
		if (!all) {
			all = d;
			continue;
		}
		int err = vmsa_doc_merge(all, d);
		if (err == VMSA_E_NOMEM)
			cli_error(paths[i], err, 0);
		else if (err == VMSA_E_OVERFLOW)
			fprintf(stderr, "vmscan-analyze: %s: cannot be merged: %s\n", paths[i],
				vmsa_strerror(err));
		else if (err)
			fprintf(stderr, "vmscan-analyze: %s: cannot be merged (different layout)\n",
				paths[i]);
		status = cli_status(err, CLI_SUMMARY);
		vmsa_doc_free(d);
	}
	*all_out = all;
	return status;
}

int cmd_merge(struct cli *c, int n, char **paths)
{
	if (n < 1) {
		fprintf(stderr, "vmscan-analyze: merge wants at least one INPUT\n");
		return EXIT_USAGE;
	}
	/* the --openmetrics-file: not an input, nor a recorded trace (without
	 * --force), checked before any input is read, as for the analysis */
	struct vmsa_doc *all = NULL;
	int status = cli_out_check(c, (const char *const *)paths, n);
	if (status == EXIT_OK)
		status = load_all(c, n, paths, &all);
	enum vmsa_metrics_format mf;
	bool metrics = cli_metrics_format(c->format, &mf);
	if (status == EXIT_OK && (metrics || c->metrics_path) &&
	    cli_write_metrics(c, all, metrics ? stdout : NULL, false, NULL))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK && !metrics)
		status = cli_status(vmsa_doc_write(stdout, all, c->pretty), CLI_OUTPUT);
	/* the file last, once standard output took the report: a run that
	 * fails leaves the old one */
	if (status == EXIT_OK && cli_flush(stdout))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK && cli_write_metrics_file(c, all, true))
		status = EXIT_RUNTIME;
	vmsa_doc_free(all);
	return status;
}

/* Which of the n inputs cannot be read back into a summary (the first; NULL:
 * none alone), for the message of a merged document that cannot be */
static const char *unreadable_input(struct cli *c, int n, char **paths)
{
	for (int i = 0; i < n; i++) {
		struct vmsa_doc *d;
		struct vmsa_summary *sum = NULL;
		if (cli_load_doc(c, paths[i], true, &d))
			return paths[i];
		int err = vmsa_summary_from_doc(&sum, d);
		vmsa_summary_free(sum);
		vmsa_doc_free(d);
		if (err && err != VMSA_E_NOMEM)
			return paths[i];
	}
	return NULL;
}

/* The report of a summary document: classic, JSON, --svg and --json files. */
static int report_doc(struct cli *c, const struct vmsa_doc *all, int n, char **paths)
{
	struct vmsa_summary *sum = NULL;
	int err = vmsa_summary_from_doc(&sum, all);
	if (err) {
		/* (named: a summary that is JSON but not a summary's layout) */
		const char *bad = err == VMSA_E_NOMEM ? NULL
				  : n == 1 ? paths[0] : unreadable_input(c, n, paths);
		if (bad)
			fprintf(stderr, "vmscan-analyze: %s: not a summary's layout: %s\n", bad,
				vmsa_strerror(err));
		else if (err == VMSA_E_NOMEM)
			cli_error(NULL, err, 0);
		else
			fprintf(stderr, "vmscan-analyze: the summaries merged are not a summary's "
					"layout: %s\n", vmsa_strerror(err));
		return cli_status(err, CLI_SUMMARY);
	}
	struct vmsa_report_options ro = {.ignore_pid = c->ignore_pid, .pretty = c->pretty,
					 .histogram = c->histogram, .sort = c->sort, .top = c->top};
	err = strcmp(c->format, "json") ? vmsa_report_classic(stdout, sum, &ro)
					: vmsa_doc_write(stdout, all, c->pretty);
	if (!err && c->svg_out.f)
		err = vmsa_report_svg(c->svg_out.f, sum, c->svg_title);
	if (!err && c->json_out.f)
		err = vmsa_doc_write(c->json_out.f, all, c->pretty);
	/* (its error told) */
	if (!err && c->metrics_out.f && cli_write_metrics_file(c, all, true)) {
		vmsa_summary_free(sum);
		return EXIT_RUNTIME;
	}
	vmsa_summary_free(sum);
	if (err && !cli_stdout_closed()) /* (| head: status 1, quietly) */
		fprintf(stderr, "vmscan-analyze: cannot write the report: %s\n", vmsa_strerror(err));
	return cli_status(err, CLI_OUTPUT);
}

int cli_report_summaries(struct cli *c, int n, char **paths)
{
	static const char *const trace_only[] = {"--pid", "--comm", "--cpu", "--since", "--until",
						 "--latency-list", "--latencies", "--interval",
						 "--ignore-pid"};
	bool given[] = {c->filter, c->filter, c->filter, c->filter, c->filter, c->latency_list,
			c->lat_out.path, c->interval > 0, c->ignore_pid};
	for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++)
		if (given[i]) {
			fprintf(stderr, "vmscan-analyze: %s needs a trace: it does not apply to a JSON "
					"summary input\nTry 'vmscan-analyze --help'.\n",
				i < 5 ? "a filter (--pid, --comm, --cpu, --since, --until)"
				      : trace_only[i]);
			return EXIT_USAGE;
		}
	c->svg_title = paths[0];
	int status = cli_outputs_prepare(c, (const char *const *)paths, n);
	struct vmsa_doc *all = NULL;
	if (status == EXIT_OK)
		status = load_all(c, n, paths, &all);
	if (status == EXIT_OK)
		status = report_doc(c, all, n, paths);
	vmsa_doc_free(all);
	return cli_outputs_finish(c, cli_stdout_status(status));
}
