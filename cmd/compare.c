/* SPDX-License-Identifier: MIT */
/* vmscan-analyze compare [--name NAME]... [--relative] INPUT...: side by side. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_compare(struct cli *c, int n, char **paths)
{
	if (n < 1) {
		fprintf(stderr, "vmscan-analyze: compare wants at least one INPUT\n");
		return EXIT_USAGE;
	}
	if (c->nnames > n) {
		fprintf(stderr, "vmscan-analyze: more --name than inputs\n");
		return EXIT_USAGE;
	}
	struct vmsa_doc **docs = calloc((size_t)n, sizeof(*docs));
	const char **names = calloc((size_t)n, sizeof(*names));
	int status = docs && names ? EXIT_OK : cli_status(VMSA_E_NOMEM, CLI_OUTPUT);
	for (int i = 0; i < n && status == EXIT_OK; i++) {
		status = cli_load_doc(c, paths[i], &docs[i]);
		const char *base = strrchr(paths[i], '/');
		names[i] = i < c->nnames ? c->names[i] : base ? base + 1 : paths[i];
	}
	if (status == EXIT_OK)
		status = cli_status(vmsa_report_compare(stdout, (const struct vmsa_doc *const *)docs,
							names, n, !strcmp(c->format, "json"),
							c->relative),
				    CLI_OUTPUT);
	for (int i = 0; docs && i < n; i++)
		vmsa_doc_free(docs[i]);
	free(docs);
	free(names);
	return status;
}
