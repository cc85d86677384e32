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
		return cli_stdout_status(status);
	}
	static const struct {
		const char *name;
		enum cli_sub sub;
		int (*run)(struct cli *c, int n, char **args);
		bool quiet; /* per-line messages would drown the result */
	} subs[] = {
		{"merge", SUB_MERGE, cmd_merge, true},
		{"check", SUB_CHECK, cmd_check, true},
		{"compare", SUB_COMPARE, cmd_compare, true},
		{"live", SUB_LIVE, cmd_live, false},
	};
	const char *name = first < argc ? argv[first] : "";
	enum cli_sub sub = SUB_ANALYZE;
	int (*run)(struct cli *, int, char **) = cmd_analyze;
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]) && sub == SUB_ANALYZE; i++)
		if (!strcmp(name, subs[i].name)) {
			sub = subs[i].sub;
			run = subs[i].run;
			c.quiet = c.quiet || subs[i].quiet;
			first++;
		}
	status = cli_validate(&c, sub);
	if (status == EXIT_OK) {
		cli_signals();
		status = cli_stdout_status(run(&c, argc - first, &argv[first]));
	}
	cli_free(&c);
	return status;
}
