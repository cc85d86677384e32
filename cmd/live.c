/* SPDX-License-Identifier: MIT */
/* vmscan-analyze live [OPTIONS]: the running kernel's events until stopped. */
#include <stdio.h>

#include "cli.h"

int cmd_live(struct cli *c, int n, char **args)
{
	(void)args;
	if (n > 0) {
		fprintf(stderr, "vmscan-analyze: live takes no FILE\n");
		return EXIT_USAGE;
	}
	c->svg_title = "live";
	int status = cli_outputs_prepare(c, NULL, 0);
	if (status)
		return status;
	struct vmsa_stats *st;
	status = cli_stats_new(c, true, &st);
	if (status)
		return status;
	return cli_finish(c, st, cli_run_live(c, st));
}
