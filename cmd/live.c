/* SPDX-License-Identifier: MIT */
/* vmscan-analyze live [OPTIONS]: the running kernel's events until stopped. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The metrics are asked for: as the report, in a file or over HTTP. */
static bool metrics_wanted(const struct cli *c)
{
	enum vmsa_metrics_format fmt;
	return cli_metrics_format(c->format, &fmt) || c->metrics_path || c->listen;
}

int cmd_live(struct cli *c, int n, char **args)
{
	(void)args;
	if (n > 0) {
		fprintf(stderr, "vmscan-analyze: live takes no FILE\n");
		return EXIT_USAGE;
	}
	/* per-cgroup series: each task's cgroup read once, when it first appears
	 * (rows merged by name have no pid to look it up by) */
	if (metrics_wanted(c) && c->max_cgroups > 0 && !c->ignore_pid) {
		int err = vmsa_cgroups_new(&c->cgroups, c->max_tasks, c->max_cgroups);
		if (err) {
			cli_error(NULL, err, 0);
			return cli_status(err, CLI_OUTPUT);
		}
	}
	return cli_analysis(c, "live", NULL, -1);
}
