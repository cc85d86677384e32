/* SPDX-License-Identifier: MIT */
/*
 * vmscan-analyze compare [--name NAME]... [--group NAME=PATH,...]... [--relative]
 * INPUT...: side by side; a directory or a --group is a column of runs.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* ---- columns of runs ------------------------------------------------------ */

/* The inputs of one column: paths[0..n), allocated. */
struct runs {
	char **paths;
	int n;
};

static void runs_free(struct runs *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->paths[i]);
	free(r->paths);
	*r = (struct runs){0};
}

static int runs_add(struct runs *r, char *path)
{
	char **p = path ? realloc(r->paths, (size_t)(r->n + 1) * sizeof(*p)) : NULL;
	if (!p) {
		free(path);
		return cli_status(VMSA_E_NOMEM, CLI_OUTPUT);
	}
	p[r->n++] = path;
	r->paths = p;
	return EXIT_OK;
}

/* "dir/name", allocated (NULL when out of memory). */
static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	char *p = malloc(n + 1 + strlen(name) + 1);
	if (p)
		sprintf(p, "%.*s/%s", (int)n, dir, name);
	return p;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* A run directory's input, allocated: its summary.json, else its trace.dat; NULL if neither. */
static char *run_input(const char *dir)
{
	static const char *const names[] = {"summary.json", "trace.dat"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = join(dir, names[i]);
		struct stat st;
		if (p && !stat(p, &st) && S_ISREG(st.st_mode))
			return p;
		free(p);
	}
	return NULL;
}

/* Names in natural order: "2" before "10". */
static int natural_cmp(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			size_t la = strspn(a, "0123456789"), lb = strspn(b, "0123456789");
			int c = la != lb ? (la < lb ? -1 : 1) : strncmp(a, b, la);
			if (c)
				return c;
			a += la;
			b += lb;
		} else if (*a != *b) {
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		} else {
			a++;
			b++;
		}
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

/*
 * The runs of the directory dir (README, "Repeated runs"): the
 * subdirectories of dir/runs/ if it exists; else dir itself when it is a
 * run directory (holds summary.json or trace.dat); else dir's
 * subdirectories (each a run directory) and its *.json files, in natural
 * name order, hidden names skipped.  An exit status (told).
 */
static int dir_runs(const char *dir, struct runs *r)
{
	char *runs_dir = join(dir, "runs"), *single = NULL;
	if (!runs_dir)
		return cli_status(VMSA_E_NOMEM, CLI_OUTPUT);
	bool nested = is_dir(runs_dir);
	if (!nested && (single = run_input(dir))) {
		free(runs_dir);
		return runs_add(r, single);
	}
	const char *from = nested ? runs_dir : dir;
	struct dirent **ents;
	int ne = scandir(from, &ents, NULL, NULL), status = EXIT_OK;
	if (ne < 0) {
		fprintf(stderr, "vmscan-analyze: %s: %s\n", from, strerror(errno));
		free(runs_dir);
		return EXIT_INPUT;
	}
	char **names = calloc((size_t)ne + 1, sizeof(*names));
	int nn = 0;
	for (int i = 0; i < ne; i++) {
		if (names && ents[i]->d_name[0] != '.')
			names[nn++] = ents[i]->d_name;
	}
	if (!names)
		status = cli_status(VMSA_E_NOMEM, CLI_OUTPUT);
	else
		qsort(names, (size_t)nn, sizeof(*names), natural_cmp);
	for (int i = 0; i < nn && status == EXIT_OK; i++) {
		char *p = join(from, names[i]);
		if (p && is_dir(p)) {
			char *in = run_input(p);
			if (!in)
				fprintf(stderr, "vmscan-analyze: %s: not a run (no summary.json or "
						"trace.dat)\n", p);
			status = in ? runs_add(r, in) : EXIT_INPUT;
			free(p);
		} else if (p && (nested || !ends_with(names[i], ".json"))) {
			free(p); /* not a run: vmstat deltas, notes */
		} else {
			status = runs_add(r, p);
		}
	}
	if (status == EXIT_OK && !r->n) {
		fprintf(stderr, "vmscan-analyze: %s: no runs (subdirectories with summary.json or "
				"trace.dat, or *.json summaries)\n", from);
		status = EXIT_INPUT;
	}
	for (int i = 0; i < ne; i++)
		free(ents[i]);
	free(ents);
	free(names);
	free(runs_dir);
	return status;
}

/* One of --group's comma-separated runs: a file, or a run directory's input. */
static int list_run(const char *item, size_t len, struct runs *r)
{
	char *p = strndup(item, len);
	if (p && is_dir(p)) {
		char *in = run_input(p);
		if (!in)
			fprintf(stderr, "vmscan-analyze: %s: not a run (no summary.json or trace.dat)\n",
				p);
		free(p);
		return in ? runs_add(r, in) : EXIT_INPUT;
	}
	return runs_add(r, p);
}

/* --group NAME=PATH[,PATH]...: *name (in arg) and the runs. An exit status. */
static int group_runs(const char *arg, const char **name, size_t *namelen, struct runs *r)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1]) {
		fprintf(stderr, "vmscan-analyze: --group wants NAME=PATH[,PATH]..., not '%s'\n", arg);
		return EXIT_USAGE;
	}
	*name = arg;
	*namelen = (size_t)(eq - arg);
	int status = EXIT_OK;
	for (const char *p = eq + 1; status == EXIT_OK; p++) {
		size_t len = strcspn(p, ",");
		if (!len) {
			fprintf(stderr, "vmscan-analyze: --group %.*s: an empty path\n", (int)*namelen,
				arg);
			return EXIT_USAGE;
		}
		status = list_run(p, len, r);
		p += len;
		if (!*p)
			break;
	}
	return status;
}

/* The table (one run a column: as the cover letter; runs: mean ± sd), then --svg. */
static int compare_report(struct cli *c, const struct vmsa_compare_column *cols, int ncols,
			  bool runs)
{
	bool json = !strcmp(c->format, "json");
	int err;
	if (runs) {
		err = vmsa_report_compare_groups(stdout, cols, ncols, json, c->relative);
	} else {
		const struct vmsa_doc **docs = calloc((size_t)ncols, sizeof(*docs));
		const char **names = calloc((size_t)ncols, sizeof(*names));
		for (int i = 0; docs && names && i < ncols; i++) {
			docs[i] = cols[i].runs[0];
			names[i] = cols[i].name;
		}
		err = docs && names ? vmsa_report_compare(stdout, docs, names, ncols, json,
							 c->relative)
				    : VMSA_E_NOMEM;
		free(docs);
		free(names);
	}
	/* the table written, or the --svg is not replaced (| head, a full disk) */
	if (!err && (cli_flush(stdout) || ferror(stdout)))
		return EXIT_RUNTIME; /* (told by cli_stdout_status()) */
	if (err) {
		if (!cli_stdout_closed())
			fprintf(stderr, "vmscan-analyze: cannot write the report: %s\n",
				vmsa_strerror(err));
		return cli_status(err, CLI_OUTPUT);
	}
	errno = 0;
	if (c->svg_out.f && (err = vmsa_report_compare_svg(c->svg_out.f, cols, ncols))) {
		fprintf(stderr, "vmscan-analyze: %s: cannot write --svg: %s\n", c->svg_out.path,
			err == VMSA_E_IO && errno ? strerror(errno) : vmsa_strerror(err));
		return cli_status(err, CLI_OUTPUT);
	}
	return cli_out_commit(&c->svg_out);
}

/*
 * Every run's path (those of directories and --group too) is no output:
 * not standard output (a regular file: compare ... >> run/summary.json),
 * nor the --svg FILE, which is then opened; an exit status.
 */
static int outputs_prepare(struct cli *c, const struct runs *runs, int ncols)
{
	int total = 0, status;
	for (int i = 0; i < ncols; i++)
		total += runs[i].n;
	char **all = calloc((size_t)total + 1, sizeof(*all));
	if (!all)
		return cli_status(VMSA_E_NOMEM, CLI_OUTPUT);
	total = 0;
	for (int i = 0; i < ncols; i++)
		for (int j = 0; j < runs[i].n; j++)
			all[total++] = runs[i].paths[j];
	status = cli_stdout_check(total, all, false);
	if (status == EXIT_OK && c->svg_out.path)
		status = cli_out_check(c, (const char *const *)all, total);
	free(all);
	return status == EXIT_OK ? cli_out_open(&c->svg_out) : status;
}

/*
 * The columns: the INPUTs in order (a directory: its runs, a file: one
 * run), then each --group.  With a column of runs (a directory, a
 * --group), the table is mean ± sd with Welch's t-test.
 */
int cmd_compare(struct cli *c, int n, char **paths)
{
	int ncols = n + c->ngroups, status = EXIT_OK;
	if (ncols < 1) {
		fprintf(stderr, "vmscan-analyze: compare wants at least one INPUT or --group\n");
		return EXIT_USAGE;
	}
	if (c->nnames > n) {
		fprintf(stderr, "vmscan-analyze: more --name than inputs\n");
		return EXIT_USAGE;
	}
	bool grouped = c->ngroups > 0;
	struct runs *runs = calloc((size_t)ncols, sizeof(*runs));
	char **owned = calloc((size_t)ncols, sizeof(*owned)); /* the names */
	struct vmsa_compare_column *cols = calloc((size_t)ncols, sizeof(*cols));
	if (!runs || !owned || !cols)
		status = cli_status(VMSA_E_NOMEM, CLI_OUTPUT);
	for (int i = 0; i < ncols && status == EXIT_OK; i++) {
		const char *name;
		size_t len;
		if (i >= n) {
			status = group_runs(c->groups[i - n], &name, &len, &runs[i]);
		} else {
			/* a directory is named without its trailing '/' */
			name = i < c->nnames ? c->names[i] : column_name(paths, n, i);
			len = strlen(name);
			while (i >= c->nnames && len > 1 && name[len - 1] == '/')
				len--;
			bool dir = is_dir(paths[i]);
			grouped |= dir;
			status = dir ? dir_runs(paths[i], &runs[i]) : runs_add(&runs[i], strdup(paths[i]));
		}
		if (status == EXIT_OK && !(owned[i] = strndup(name, len)))
			status = cli_status(VMSA_E_NOMEM, CLI_OUTPUT);
		cols[i].name = owned[i];
	}
	if (status == EXIT_OK)
		status = outputs_prepare(c, runs, ncols);
	for (int i = 0; i < ncols && status == EXIT_OK; i++) {
		struct vmsa_doc **docs = calloc((size_t)runs[i].n, sizeof(*docs));
		cols[i].runs = (const struct vmsa_doc *const *)docs;
		cols[i].nruns = runs[i].n;
		if (!docs)
			status = cli_status(VMSA_E_NOMEM, CLI_OUTPUT);
		for (int j = 0; docs && j < runs[i].n && status == EXIT_OK; j++)
			status = cli_load_doc(c, runs[i].paths[j], false, &docs[j]);
	}
	if (status == EXIT_OK)
		status = compare_report(c, cols, ncols, grouped);
	for (int i = 0; cols && i < ncols; i++) {
		for (int j = 0; cols[i].runs && j < runs[i].n; j++)
			vmsa_doc_free((struct vmsa_doc *)cols[i].runs[j]);
		free((void *)cols[i].runs);
	}
	for (int i = 0; runs && owned && i < ncols; i++) {
		runs_free(&runs[i]);
		free(owned[i]);
	}
	free(runs);
	free(owned);
	free(cols);
	return status;
}
