/* SPDX-License-Identifier: MIT */
/* vmscan-analyze [OPTIONS] [FILE...]: the traces read as one, then the report. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* path holds a JSON summary.  A stream read as it comes (--interval,
 * --listen) is a trace: looking at standard input's first bytes would wait
 * for them before the metrics are served or the first interval is due. */
static bool is_summary(const char *path, bool stream)
{
	enum vmsa_input_kind kind;
	if (stream && strcmp(path, "-") == 0)
		return false;
	return !cli_detect(path, &kind) && kind == VMSA_INPUT_SUMMARY;
}

int cmd_analyze(struct cli *c, int n, char **paths)
{
	if (n == 0 && isatty(STDIN_FILENO)) {
		fprintf(stderr, "vmscan-analyze: no FILE and standard input is a terminal: give a "
				"trace file, or '-' to read the terminal\n"
				"Try 'vmscan-analyze --help'.\n");
		return EXIT_USAGE;
	}
	/* no FILE: standard input, which may hold a summary too */
	static char stdin_name[] = "-";
	static char *stdin_only[] = {stdin_name};
	char **inputs = n > 0 ? paths : stdin_only;
	int ninputs = n > 0 ? n : 1;
	/* the same file twice would count every event twice, without a word */
	int status = cli_inputs_distinct(ninputs, inputs);
	if (status)
		return status;
	bool stream = c->interval > 0 || c->listen;
	bool first = is_summary(inputs[0], stream); /* (each input looked at once) */
	enum vmsa_metrics_format mf;
	if ((cli_metrics_format(c->format, &mf) || c->metrics_path) && first)
		return cmd_merge(c, ninputs, inputs); /* metrics of JSON summaries: added up as merge does */
	for (int i = 0; i < ninputs; i++)
		if (i ? is_summary(inputs[i], stream) : first)
			return cli_report_summaries(c, ninputs, inputs); /* a CI artifact, for a person */
	return cli_analysis(c, inputs[0], (const char *const *)inputs, ninputs);
}
