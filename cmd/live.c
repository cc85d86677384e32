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
	return cli_analysis(c, "live", NULL, -1);
}
