/* SPDX-License-Identifier: MIT */
/*
 * Output files (--json, --svg, --latencies, --junit): checked before any
 * input is read, written to a temporary file beside their place and renamed
 * into it only when the command succeeded, so that a failed run leaves the
 * old file as it was and an output never replaces an input or a trace.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The directory part of path ("." when there is none); malloc'd, NULL when out of memory. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/*
 * A line of a tracer's text output other than vmscan's: "... [CPU] ... SECS.FRACTION: name:"
 * (ftrace) or "... SECS.FRACTION: name:" (perf script).
 */
static bool tracepoint_line(const char *l, size_t n)
{
	for (size_t i = 0; i + 2 < n; i++) {
		if (l[i] != ':' || l[i + 1] != ' ')
			continue;
		size_t j = i, digits = 0;
		while (j > 0 && l[j - 1] >= '0' && l[j - 1] <= '9')
			j--, digits++;
		if (!digits || j == 0 || l[j - 1] != '.')
			continue;
		size_t k = i + 2, name = 0;
		while (k < n && (l[k] == '_' || (l[k] >= 'a' && l[k] <= 'z') ||
				 (l[k] >= '0' && l[k] <= '9')))
			k++, name++;
		if (name && k < n && l[k] == ':')
			return true;
	}
	return false;
}

/*
 * A line of the header trace-cmd report prints before the events, one line
 * a CPU on a big machine ("CPU 17 is empty"), or a comment, or blank: not
 * counted among the first lines looked at.
 */
static bool header_line(const char *l, size_t n)
{
	static const char *const heads[] = {"cpus=", "version = ", "#"};
	while (n && (*l == ' ' || *l == '\t'))
		l++, n--;
	while (n && (l[n - 1] == '\r' || l[n - 1] == ' '))
		n--;
	if (!n)
		return true;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (n >= strlen(heads[i]) && !memcmp(l, heads[i], strlen(heads[i])))
			return true;
	static const char cpu[] = "CPU ", empty[] = " is empty";
	size_t k = sizeof(cpu) - 1, e = sizeof(empty) - 1;
	if (n <= k + e || memcmp(l, cpu, k) || memcmp(l + n - e, empty, e))
		return false;
	for (size_t i = k; i < n - e; i++)
		if (l[i] < '0' || l[i] > '9')
			return false;
	return true;
}

/* Whether the regular file at path is a recorded trace (binary, or text with tracepoint lines). */
static bool is_trace(const char *path)
{
	enum vmsa_input_kind kind;
	if (vmsa_input_detect_path(path, &kind))
		return false;
	if (kind == VMSA_INPUT_TRACEDAT || kind == VMSA_INPUT_PERFDATA)
		return true;
	if (kind != VMSA_INPUT_TEXT)
		return false;
	/* its first 200 lines after trace-cmd report's header, however many
	 * CPUs that lists, within the first HEAD bytes (decompressed:
	 * trace.txt.xz is a trace too) */
	enum { HEAD = 200 * 4096 };
	char *head = malloc(HEAD);
	size_t len = 0;
	if (head)
		vmsa_input_head(path, head, HEAD, &len); /* (what could be read) */
	struct vmsa_text_parser *p = NULL;
	bool found = false;
	if (head && vmsa_text_parser_new(&p) == 0)
		for (size_t at = 0, lines = 0; lines < 200 && !found && at < len;) {
			const char *line = head + at, *nl = memchr(line, '\n', len - at);
			size_t n = nl ? (size_t)(nl - line) : len - at;
			at += n + 1;
			if (header_line(line, n))
				continue; /* (not counted) */
			if (lines++, n > 4095)
				continue; /* (a line no trace has) */
			struct vmsa_event ev;
			enum vmsa_reject_reason why;
			found = vmsa_text_parse_line(p, line, n, &ev, &why) != VMSA_LINE_IGNORED ||
				tracepoint_line(line, n);
		}
	vmsa_text_parser_free(p);
	free(head);
	return found;
}

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Whether the output a (stat sa, NULL: none yet) is the input b: by name,
 * or by device and inode; '-' is the file on standard input, when that is
 * a regular one (--svg s.json < s.json would replace it). */
static bool same_file(const char *a, const struct stat *sa, const char *b)
{
	struct stat sb;
	if (!strcmp(a, b))
		return true;
	if (!sa)
		return false;
	if (!strcmp(b, "-"))
		return fstat(STDIN_FILENO, &sb) == 0 && S_ISREG(sb.st_mode) && same_inode(sa, &sb);
	return stat(b, &sb) == 0 && same_inode(sa, &sb);
}

/*
 * The shell opens standard output before this program runs: with '>' onto
 * an input the input is already empty, with '>>' the report would go into
 * the trace it is of.  Refused as cat refuses "input file is output file".
 */
int cli_stdout_check(int n, char *const *inputs, bool none_is_stdin)
{
	struct stat so;
	if (fstat(STDOUT_FILENO, &so) || !S_ISREG(so.st_mode))
		return EXIT_OK;
	for (int i = 0; i < (n ? n : none_is_stdin); i++) {
		const char *name = n ? inputs[i] : "-";
		bool in = !strcmp(name, "-");
		struct stat si;
		if ((in ? fstat(STDIN_FILENO, &si) : stat(name, &si)) || !same_inode(&si, &so))
			continue;
		fprintf(stderr, "vmscan-analyze: %s: standard output is this input (%s); refused\n",
			in ? "standard input" : name,
			so.st_size ? "the output would be written into it" : "it is empty now");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cli_inputs_distinct(int n, char *const *inputs)
{
	struct stat *st = calloc(n > 0 ? (size_t)n : 1, sizeof(*st));
	bool *known = calloc(n > 0 ? (size_t)n : 1, sizeof(*known));
	int status = st && known ? EXIT_OK : EXIT_RUNTIME;
	if (status)
		cli_error(NULL, VMSA_E_NOMEM, 0);
	for (int i = 0; i < n && status == EXIT_OK; i++) {
		bool in = !strcmp(inputs[i], "-");
		/* (one that cannot be looked at is left to the analysis, which says why) */
		known[i] = (in ? fstat(STDIN_FILENO, &st[i]) : stat(inputs[i], &st[i])) == 0;
		for (int j = 0; j < i && status == EXIT_OK; j++) {
			bool same = (in && !strcmp(inputs[j], "-")) ||
				    (known[i] && known[j] && same_inode(&st[i], &st[j]));
			if (!same)
				continue;
			if (!strcmp(inputs[i], inputs[j]))
				fprintf(stderr, "vmscan-analyze: %s: given twice as an input (its "
						"counts would be added twice); refused\n",
					in ? "standard input" : inputs[i]);
			else
				fprintf(stderr, "vmscan-analyze: %s and %s are the same file, given "
						"twice as an input (its counts would be added twice); "
						"refused\n",
					in ? "standard input" : inputs[i],
					strcmp(inputs[j], "-") ? inputs[j] : "standard input");
			status = EXIT_DUPLICATE;
		}
	}
	free(st);
	free(known);
	return status;
}

int cli_out_check(const struct cli *c, const char *const *inputs, int n)
{
	/* the metrics file is replaced by the library (vmsa_write_file_atomic),
	 * but it is checked like the others */
	const struct cli_out metrics = {.path = c->metrics_path, .option = "--openmetrics-file"};
	const struct cli_out *outs[] = {&c->json_out, &c->svg_out, &c->lat_out, &c->junit_out,
					&metrics};
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		const struct cli_out *o = outs[i];
		if (!o->path)
			continue;
		/* "-" is standard input everywhere else, and standard output
		 * has the report: a file of that name was a surprise */
		if (!strcmp(o->path, "-")) {
			fprintf(stderr, "vmscan-analyze: %s -: an output file's name is wanted "
					"(./- for a file named so)\n", o->option);
			return EXIT_USAGE;
		}
		struct stat s;
		bool exists = stat(o->path, &s) == 0;
		for (size_t j = 0; j < i; j++)
			if (outs[j]->path && same_file(o->path, exists ? &s : NULL, outs[j]->path)) {
				fprintf(stderr, "vmscan-analyze: %s: given to both %s and %s\n", o->path,
					outs[j]->option, o->option);
				return EXIT_USAGE;
			}
		for (int j = 0; j < n; j++)
			if (same_file(o->path, exists ? &s : NULL, inputs[j])) {
				fprintf(stderr, "vmscan-analyze: %s: the output of %s is also an input%s; "
						"refused\n", o->path, o->option,
					strcmp(inputs[j], "-") ? "" : " (the file on standard input)");
				return EXIT_USAGE;
			}
		if (exists && S_ISDIR(s.st_mode)) {
			fprintf(stderr, "vmscan-analyze: %s (%s): is a directory\n", o->path, o->option);
			return EXIT_USAGE;
		}
		if (exists && S_ISREG(s.st_mode) && !c->force && is_trace(o->path)) {
			fprintf(stderr, "vmscan-analyze: %s: is a recorded trace; %s would replace it "
					"(--force to overwrite)\n", o->path, o->option);
			return EXIT_USAGE;
		}
		if (exists && !S_ISREG(s.st_mode)) /* a device or a FIFO: written as it is */
			continue;
		/* the temporary file goes beside the file a symlink leads to */
		char *real = vmsa_write_file_target(o->path);
		char *dir = real ? dir_of(real) : NULL;
		free(real);
		if (!dir) {
			cli_error(NULL, VMSA_E_NOMEM, 0);
			return EXIT_RUNTIME;
		}
		int ok = access(dir, W_OK | X_OK), e = errno;
		if (ok) {
			fprintf(stderr, "vmscan-analyze: %s (%s): cannot write into %s: %s\n", o->path,
				o->option, dir, strerror(e));
			free(dir);
			return cli_status(VMSA_E_IO, CLI_OUTPUT);
		}
		free(dir);
	}
	return EXIT_OK;
}

int cli_out_open(struct cli_out *o)
{
	if (!o->path)
		return EXIT_OK;
	struct stat s;
	bool exists = stat(o->path, &s) == 0;
	if (exists && !S_ISREG(s.st_mode)) {
		o->f = fopen(o->path, "w");
		if (!o->f)
			goto fail;
		return EXIT_OK;
	}
	/* a symlink is followed: the file it leads to is replaced, the link stays */
	o->dest = vmsa_write_file_target(o->path);
	char *dir = o->dest ? dir_of(o->dest) : NULL;
	const char *base = o->dest ? strrchr(o->dest, '/') : NULL;
	base = base ? base + 1 : o->dest;
	size_t len = (dir ? strlen(dir) : 0) + (base ? strlen(base) : 0) + 16;
	o->tmp = dir ? malloc(len) : NULL;
	if (!o->tmp) {
		free(dir);
		free(o->dest);
		o->dest = NULL;
		cli_error(NULL, VMSA_E_NOMEM, 0);
		return EXIT_RUNTIME;
	}
	snprintf(o->tmp, len, "%s/.%s.XXXXXX", dir, base);
	free(dir);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		free(o->tmp);
		free(o->dest);
		o->tmp = o->dest = NULL;
		goto fail;
	}
	mode_t mode = 0;
	if (exists)
		mode = s.st_mode & 07777;
	else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		cli_out_abort(o);
		errno = e;
		goto fail;
	}
	return EXIT_OK;
fail:
	cli_error(o->path, VMSA_E_IO, errno);
	return cli_status(VMSA_E_IO, CLI_OUTPUT);
}

int cli_out_close(struct cli_out *o)
{
	if (!o->f)
		return EXIT_OK;
	FILE *f = o->f;
	o->f = NULL;
	bool bad = ferror(f);
	int e = bad ? EIO : 0;
	if (fflush(f) && !bad)
		bad = true, e = errno;
	if (o->tmp && !bad && fsync(fileno(f)))
		bad = true, e = errno;
	if (fclose(f) && !bad)
		bad = true, e = errno;
	if (!bad)
		return EXIT_OK;
	fprintf(stderr, "vmscan-analyze: %s: cannot write %s: %s\n", o->path, o->option,
		strerror(e));
	cli_out_abort(o);
	return cli_status(VMSA_E_IO, CLI_OUTPUT);
}

int cli_out_rename(struct cli_out *o)
{
	int e = 0;
	if (o->tmp && rename(o->tmp, o->dest)) {
		e = errno;
		fprintf(stderr, "vmscan-analyze: %s: cannot write %s: %s\n", o->path, o->option,
			strerror(e));
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->dest);
	o->tmp = o->dest = NULL;
	return e ? cli_status(VMSA_E_IO, CLI_OUTPUT) : EXIT_OK;
}

int cli_out_commit(struct cli_out *o)
{
	int status = cli_out_close(o);
	return status ? status : cli_out_rename(o);
}

void cli_out_abort(struct cli_out *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->dest);
	o->tmp = o->dest = NULL;
}

/* Why the standard output could not be written first (errno), or 0. */
static int stdout_errno;

int cli_flush(FILE *out)
{
	if (fflush(out) == 0)
		return 0;
	if (out == stdout && !stdout_errno)
		stdout_errno = errno;
	return VMSA_E_IO;
}

bool cli_stdout_closed(void)
{
	/* (the errno of the write that failed is not always at hand: a pipe
	 * without a reader is told by poll, as POLLERR on its end) */
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
	return stdout_errno == EPIPE || (poll(&p, 1, 0) == 1 && (p.revents & POLLERR));
}

int cli_stdout_status(int status)
{
	errno = 0;
	if (cli_flush(stdout) == 0 && !ferror(stdout))
		return status;
	int e = stdout_errno ? stdout_errno : errno ? errno : EIO;
	static bool told;
	if (cli_stdout_closed())
		told = true; /* | head: the reader had what it wanted; status 1, quietly */
	if (!told)
		fprintf(stderr, "vmscan-analyze: cannot write the standard output: %s\n",
			strerror(e));
	told = true;
	return EXIT_RUNTIME;
}
