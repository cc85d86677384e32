/* SPDX-License-Identifier: MIT */
/* vmscan-analyze: the options, then the subcommand that does the work (cmd/). */
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
	struct cli c;
	int first;
	int status = cli_parse(&c, argc, argv, &first);
	if (status >= 0) {
		cli_free(&c);
		return status;
	}
	cli_signals();
	status = cli_open_latencies(&c);
	if (status) {
		cli_free(&c);
		return status;
	}
	static const struct {
		const char *name;
		int (*run)(struct cli *c, int n, char **args);
		bool quiet; /* per-line messages would drown the result */
	} subs[] = {
		{"merge", cmd_merge, true},
		{"check", cmd_check, true},
		{"compare", cmd_compare, true},
		{"live", cmd_live, false},
	};
	const char *sub = first < argc ? argv[first] : "";
	int (*run)(struct cli *, int, char **) = NULL;
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]) && !run; i++)
		if (!strcmp(sub, subs[i].name)) {
			run = subs[i].run;
			c.quiet = c.quiet || subs[i].quiet;
			first++;
		}
	status = run ? run(&c, argc - first, &argv[first])
		     : cmd_analyze(&c, argc - first, &argv[first]);
	cli_free(&c);
	return status;
}
