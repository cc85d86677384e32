/* SPDX-License-Identifier: MIT */
/* vmscan-analyze [OPTIONS] [FILE...]: the traces read as one, then the report. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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
	/* a stream read as it comes (--interval, --listen) is a trace: looking
	 * at standard input's first bytes would wait for them before the
	 * metrics are served or the first interval is due */
	bool stream = c->interval > 0 || c->listen;
	enum vmsa_metrics_format mf;
	enum vmsa_input_kind kind;
#define IS_SUMMARY(path)                                                              \
	(!(stream && strcmp((path), "-") == 0) && !vmsa_input_detect_path((path), &kind) && \
	 kind == VMSA_INPUT_SUMMARY)
	if ((cli_metrics_format(c->format, &mf) || c->metrics_path) && IS_SUMMARY(inputs[0]))
		return cmd_merge(c, ninputs, inputs); /* metrics of JSON summaries: added up as merge does */
	for (int i = 0; i < ninputs; i++)
		if (IS_SUMMARY(inputs[i]))
			return cli_report_summaries(c, ninputs, inputs); /* a CI artifact, for a person */
#undef IS_SUMMARY
	return cli_analysis(c, inputs[0], (const char *const *)inputs, ninputs);
}
