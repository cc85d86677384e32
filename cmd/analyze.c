/* SPDX-License-Identifier: MIT */
/* vmscan-analyze [OPTIONS] [FILE...]: the traces read as one, then the report. */
#include <stdio.h>

#include "cli.h"

int cmd_analyze(struct cli *c, int n, char **paths)
{
	if (c->duration > 0) {
		fprintf(stderr, "vmscan-analyze: --duration is for live\n");
		return EXIT_USAGE;
	}
	enum vmsa_metrics_format mf;
	enum vmsa_input_kind kind;
	if ((cli_metrics_format(c->format, &mf) || c->metrics_path) && n > 0 &&
	    !vmsa_input_detect_path(paths[0], &kind) && kind == VMSA_INPUT_SUMMARY)
		return cmd_merge(c, n, paths); /* metrics of JSON summaries: added up as merge does */
	static const char *const stdin_only[] = {"-"};
	const char *const *inputs = n > 0 ? (const char *const *)paths : stdin_only;
	c->svg_title = inputs[0];
	struct vmsa_stats *st;
	int status = cli_stats_new(c, true, &st);
	if (status)
		return status;
	return cli_finish(c, st, cli_run(c, st, inputs, n > 0 ? n : 1));
}
