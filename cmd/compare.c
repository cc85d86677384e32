/* SPDX-License-Identifier: MIT */
/* vmscan-analyze compare [--name NAME]... [--relative] INPUT...: side by side. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Where the suffix of path with k components ("a/b" for k = 2) starts; path itself if shorter. */
static const char *suffix(const char *path, int k)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--; /* "dir/" names dir */
	for (size_t i = n; i-- > 0;)
		if (path[i] == '/' && i + 1 < n && --k == 0)
			return path + i + 1;
	return path;
}

/* Whether the suffixes of a and b with k components are the same text. */
static bool same_suffix(const char *a, const char *b, int k)
{
	const char *sa = suffix(a, k), *sb = suffix(b, k);
	size_t la = strlen(sa), lb = strlen(sb);
	while (la > 1 && sa[la - 1] == '/')
		la--;
	while (lb > 1 && sb[lb - 1] == '/')
		lb--;
	return la == lb && !memcmp(sa, sb, la);
}

/*
 * A column's name: the shortest suffix of its path that no other input's
 * path ends in (".../upstream/trace.dat" and ".../nodirect/trace.dat" are
 * "upstream/trace.dat" and "nodirect/trace.dat"); the whole path if none.
 */
static const char *column_name(char **paths, int n, int i)
{
	for (int k = 1; suffix(paths[i], k) != paths[i]; k++) {
		bool unique = true;
		for (int j = 0; j < n && unique; j++)
			unique = j == i || !same_suffix(paths[i], paths[j], k);
		if (unique)
			return suffix(paths[i], k);
	}
	return paths[i];
}

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
		names[i] = i < c->nnames ? c->names[i] : column_name(paths, n, i);
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
