/* SPDX-License-Identifier: MIT */
/* vmscan-analyze merge [--pretty] INPUT...: summaries (or traces) added into one. */
#include <stdio.h>

#include "cli.h"

int cmd_merge(struct cli *c, int n, char **paths)
{
	if (n < 1) {
		fprintf(stderr, "vmscan-analyze: merge wants at least one INPUT\n");
		return EXIT_USAGE;
	}
	struct vmsa_doc *all = NULL;
	int status = EXIT_OK;
	for (int i = 0; i < n && status == EXIT_OK; i++) {
		struct vmsa_doc *d;
		if ((status = cli_load_doc(c, paths[i], &d)))
			break;
		if (!all) {
			all = d;
			continue;
		}
		int err = vmsa_doc_merge(all, d);
		if (err == VMSA_E_NOMEM)
			cli_error(paths[i], err, 0);
		else if (err)
			fprintf(stderr, "vmscan-analyze: %s: cannot be merged (different layout)\n",
				paths[i]);
		status = cli_status(err, CLI_SUMMARY);
		vmsa_doc_free(d);
	}
	enum vmsa_metrics_format mf;
	bool metrics = cli_metrics_format(c->format, &mf);
	if (status == EXIT_OK && (metrics || c->metrics_path) &&
	    cli_write_metrics(c, all, metrics ? stdout : NULL))
		status = EXIT_RUNTIME;
	if (status == EXIT_OK && !metrics)
		status = cli_status(vmsa_doc_write(stdout, all, c->pretty), CLI_OUTPUT);
	vmsa_doc_free(all);
	return status;
}
