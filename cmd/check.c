/* SPDX-License-Identifier: MIT */
/* vmscan-analyze check [-t EXPR]... [--thresholds FILE] INPUT: thresholds on a summary. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct exprs {
	char **v;
	int n;
};

static int add_expr(struct exprs *e, const char *text)
{
	char **v = realloc(e->v, (size_t)(e->n + 1) * sizeof(*v));
	if (!v)
		return VMSA_E_NOMEM;
	e->v = v;
	if (!(v[e->n] = strdup(text)))
		return VMSA_E_NOMEM;
	e->n++;
	return 0;
}

/* One EXPR a line; '#' starts a comment, blank lines are skipped. */
static int read_thresholds(struct exprs *e, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		cli_error(path, VMSA_E_IO, errno);
		return cli_status(VMSA_E_IO, CLI_INPUT);
	}
	char line[1024];
	int err = 0;
	while (!err && fgets(line, sizeof(line), f)) {
		char *h = strchr(line, '#');
		if (h)
			*h = '\0';
		size_t l = strlen(line);
		while (l && (line[l - 1] == '\n' || line[l - 1] == ' ' || line[l - 1] == '\t'))
			line[--l] = '\0';
		char *b = line;
		while (*b == ' ' || *b == '\t')
			b++;
		if (*b)
			err = add_expr(e, b);
	}
	fclose(f);
	if (err)
		cli_error(NULL, err, 0);
	return cli_status(err, CLI_OUTPUT);
}

/* Evaluates every expression on d, printing ok/FAIL lines; an exit status. */
static int evaluate(const struct vmsa_doc *d, const struct exprs *e)
{
	int failed = 0;
	for (int i = 0; i < e->n; i++) {
		int pass;
		char msg[600];
		int err = vmsa_doc_check(d, e->v[i], &pass, msg, sizeof(msg));
		if (err) {
			fprintf(stderr, "vmscan-analyze: threshold %s\n", msg);
			return cli_status(err, CLI_THRESHOLD);
		}
		printf("%s %s\n", pass ? "ok  " : "FAIL", msg);
		failed += !pass;
	}
	if (failed) {
		fprintf(stderr, "vmscan-analyze: %d of %d thresholds violated\n", failed, e->n);
		return EXIT_CHECK;
	}
	return EXIT_OK;
}

int cmd_check(struct cli *c, int n, char **paths)
{
	if (n != 1) {
		fprintf(stderr, "vmscan-analyze: check wants one INPUT\n");
		return EXIT_USAGE;
	}
	struct exprs e = {0};
	int status = EXIT_OK;
	for (int i = 0; i < c->nthresholds && status == EXIT_OK; i++)
		if (add_expr(&e, c->thresholds[i])) {
			cli_error(NULL, VMSA_E_NOMEM, 0);
			status = cli_status(VMSA_E_NOMEM, CLI_OUTPUT);
		}
	if (status == EXIT_OK && c->thresholds_file)
		status = read_thresholds(&e, c->thresholds_file);
	if (status == EXIT_OK && !e.n) {
		fprintf(stderr, "vmscan-analyze: check wants thresholds (-t, --thresholds)\n");
		status = EXIT_USAGE;
	}
	struct vmsa_doc *d = NULL;
	if (status == EXIT_OK)
		status = cli_load_doc(c, paths[0], &d);
	if (status == EXIT_OK)
		status = evaluate(d, &e);
	for (int i = 0; i < e.n; i++)
		free(e.v[i]);
	free(e.v);
	vmsa_doc_free(d);
	return status;
}
