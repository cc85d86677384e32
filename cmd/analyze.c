/* SPDX-License-Identifier: MIT */
/* vmscan-analyze [OPTIONS] [FILE...]: the traces read as one, then the report. */
#include <stdio.h>
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
	enum vmsa_metrics_format mf;
	enum vmsa_input_kind kind;
	if ((cli_metrics_format(c->format, &mf) || c->metrics_path) && n > 0 &&
	    !vmsa_input_detect_path(paths[0], &kind) && kind == VMSA_INPUT_SUMMARY)
		return cmd_merge(c, n, paths); /* metrics of JSON summaries: added up as merge does */
	for (int i = 0; i < n; i++)
		if (!vmsa_input_detect_path(paths[i], &kind) && kind == VMSA_INPUT_SUMMARY)
			return cli_report_summaries(c, n, paths); /* a CI artifact, for a person */
	static const char *const stdin_only[] = {"-"};
	const char *const *inputs = n > 0 ? (const char *const *)paths : stdin_only;
	int ninputs = n > 0 ? n : 1;
	return cli_analysis(c, inputs[0], inputs, ninputs);
}
