/* SPDX-License-Identifier: MIT */
/* The command line: options, exit statuses and the helpers the subcommands share. */
#ifndef VMSA_CLI_H
#define VMSA_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vmsa/vmsa.h"

/* Exit statuses (documented in --help, README and the man page). */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,	/* out of memory, cannot write output */
	EXIT_USAGE = 2,
	EXIT_INPUT = 3,		/* an input cannot be opened or read */
	EXIT_REJECTED = 4,	/* --strict and some lines were rejected */
	EXIT_UNSUPPORTED = 5,	/* an input in a format not read (perf.data, trace.dat on stdin) */
	EXIT_CORRUPT = 6,	/* a binary input is truncated or corrupt, a JSON input no summary */
	EXIT_LIVE = 7,		/* live tracing unavailable: not root, no tracefs */
	EXIT_CHECK = 8,		/* check: a threshold is violated */
	EXIT_NO_TRACE = 9,	/* check: the input holds no trace (or --strict: rejected lines) */
	EXIT_DECOMPRESS = 10,	/* a compressed input is truncated or corrupt */
	EXIT_INTERRUPTED = 11,	/* check: stopped by a signal before its verdict */
	EXIT_DUPLICATE = 12,	/* the same file (device and inode) given twice as an input */
	EXIT_OVERFLOW = 13,	/* a count of a trace would pass 2^64 - 1 */
};

/* The subcommands, as bits: which ones an option applies to. */
enum cli_sub {
	SUB_ANALYZE = 1 << 0,
	SUB_LIVE = 1 << 1,
	SUB_MERGE = 1 << 2,
	SUB_COMPARE = 1 << 3,
	SUB_CHECK = 1 << 4,
};

/* check: what a threshold on a value the trace cannot tell (null) gives. */
enum cli_missing { MISSING_FAIL, MISSING_PASS };

/*
 * An output file: written to tmp (a temporary file beside path) and renamed
 * into place by cli_out_commit(); a device or FIFO is written directly.
 */
struct cli_out {
	const char *path;	/* NULL: not asked for */
	const char *option;	/* "--json", for messages */
	char *dest;		/* where tmp is renamed: path, or the file its symlinks lead to */
	char *tmp;
	FILE *f;
};

/* What was being done when a library call failed; cli_status() maps both to a status. */
enum cli_stage {
	CLI_INPUT,	/* opening or reading a trace (file, stdin) */
	CLI_SUMMARY,	/* reading or merging a JSON summary */
	CLI_LIVE,	/* starting live tracing */
	CLI_THRESHOLD,	/* evaluating a threshold expression */
	CLI_OUTPUT,	/* feeding the statistics, writing a report or a file */
};

struct cli {
	const char *format;
	struct cli_out json_out, svg_out, lat_out, junit_out;
	/* the final --openmetrics-file, among the outputs renamed together
	 * (cli_outputs_prepare() opens it when it is a regular file or none) */
	struct cli_out metrics_out;
	const char *svg_title;
	const char *metrics_path;	/* --openmetrics-file (written atomically by the library) */
	size_t max_cgroups;		/* live: cgroups with series of their own (--max-cgroups) */
	struct vmsa_cgroups *cgroups;	/* live: the tasks' cgroups, for the metrics; or NULL */
	const char *listen;		/* live: --listen ADDR:PORT */
	struct cli_listener *listener;	/* serving the metrics over HTTP, or NULL */
	bool pretty, ignore_pid, latency_list, strict, quiet, histogram;
	bool unwrap; /* --unwrap */
	/* no message per rejected line (merge, check and compare: they would
	 * drown the result), but the one at each input's end (-q: none) */
	bool lines_quiet;
	bool force;		/* outputs may replace a recorded trace */
	bool failed;		/* --strict failed: the final report writes no --openmetrics-file */
	bool allow_empty;	/* check: an input without vmscan events passes */
	enum cli_missing missing;
	unsigned long long given; /* bit i: option i of the option table was given */
	double interval, duration;
	const char **thresholds;
	int nthresholds;
	const char *thresholds_file;
	const char **names;
	int nnames;
	const char **groups;	/* compare: --group NAME=PATH[,PATH]... */
	int ngroups;
	bool relative;
	long max_messages;
	size_t max_tasks;
	int threads;
	struct vmsa_filter *filter;	/* --pid, --comm, --cpu, --since, --until; NULL: none */
	const char *sort;	/* --sort: a vmsa_sort_field() */
	size_t top;		/* --top */
	long messages;		/* rejected lines seen */
	long short_inputs;	/* trace.dat files not read whole (traits.tracedat_short) */
	/* each input's bad_header rejects, and those of them that begin with
	 * the event's name (inputs.c: headless()), until its end is told */
	struct cli_tally {
		char *name;
		uint64_t bad_headers, headless;
	} *tally;
	size_t ntally;
	double wall_start;	/* when the analysis began (CLOCK_REALTIME, s) */
	/* a SIGINT's report went to standard output: the final report is
	 * headed (wrapped, in JSON) as it was */
	bool interim_printed;
	sig_atomic_t ints_seen;
	bool stop_on_int;	/* a SIGINT stops at once (check), no report on it */
	double last_int;	/* when the last SIGINT was seen, or < 0 */
};

/*
 * The one mapping from a library error (enum vmsa_error) to an exit status.
 * Out of memory is EXIT_RUNTIME wherever it happens.
 */
int cli_status(int err, enum cli_stage stage);

/* "vmscan-analyze: WHAT: message" (WHAT may be NULL); VMSA_E_IO shows sys_errno. */
void cli_error(const char *what, int err, int sys_errno);

/*
 * Parses the options into *c (set up with defaults first).  Returns -1 to go
 * on, with *first the index of the first operand, or an exit status (--help,
 * --version, a usage error).
 */
int cli_parse(struct cli *c, int argc, char **argv, int *first);

/*
 * Refuses (a usage error, told) an option that does not apply to the
 * subcommand sub or to the chosen format; an exit status.
 */
int cli_validate(const struct cli *c, enum cli_sub sub);

/* Installs the SIGINT/SIGTERM/SIGHUP handlers the streaming loop reads. */
void cli_signals(void);

/* The last of those signals received (SIGINT, SIGTERM or SIGHUP), or 0. */
int cli_interrupted(void);

/*
 * Checks every output file asked for against the inputs[0..n) before any is
 * read: an output that is an input, a directory, a recorded trace (without
 * --force) or in a directory that cannot be written is refused (told); then
 * opens them (their temporary files) and writes the --latencies header.  An
 * exit status.
 */
int cli_outputs_prepare(struct cli *c, const char *const *inputs, int n);

/*
 * With status EXIT_OK: closes every output (their temporary files) and,
 * only when all of them were written whole, renames them into place; else
 * (or on any other status) removes them all, so that no old file is
 * replaced unless every one is.  An exit status.
 */
int cli_outputs_finish(struct cli *c, int status);

/* cli_outputs_prepare()'s check of the output paths alone; an exit status. */
int cli_out_check(const struct cli *c, const char *const *inputs, int n);
/* Standard output, when it is a regular file, is none of the n inputs
 * (by name; '-', or none when none_is_stdin, is standard input): EXIT_OK,
 * else EXIT_USAGE, told */
int cli_stdout_check(int n, char *const *inputs, bool none_is_stdin);

/* The n inputs are n files: none named twice, by name or by device and
 * inode ('-': the file on standard input); EXIT_OK, else EXIT_DUPLICATE, told */
int cli_inputs_distinct(int n, char *const *inputs);

/* Opens o's temporary file (nothing when o->path is NULL); an exit status. */
int cli_out_open(struct cli_out *o);

/* Closes o and renames it into place; a write error is told, an exit status. */
int cli_out_commit(struct cli_out *o);

/* cli_out_commit() in two steps: close (the error told, o's temporary file
 * removed: an exit status), then rename (an exit status; on an error o's
 * temporary file is removed, told). */
int cli_out_close(struct cli_out *o);
int cli_out_rename(struct cli_out *o);

/* Closes o and removes its temporary file: the old file stays as it was. */
void cli_out_abort(struct cli_out *o);

/* fflush(out), remembering why the standard output failed; 0 or VMSA_E_IO. */
int cli_flush(FILE *out);

/* Whether standard output is a pipe (or socket) whose reader is gone (| head). */
bool cli_stdout_closed(void);

/* status, or EXIT_RUNTIME (told) when the standard output could not be
 * written; a closed pipe (cli_stdout_closed()) is EXIT_RUNTIME untold. */
int cli_stdout_status(int status);

/* Frees what cli_parse() allocated and removes unfinished outputs. */
void cli_free(struct cli *c);

/* New stats with the options asked for (for_report: latencies too); an exit status. */
int cli_stats_new(const struct cli *c, bool for_report, struct vmsa_stats **st);

/*
 * After reading into st with status (-1: stopped by a signal, as good as
 * EXIT_OK): the final report, if all went well, --strict, then the output
 * files renamed into place (or removed on any failure); frees st.  An exit
 * status.
 */
int cli_finish(struct cli *c, struct vmsa_stats *st, int status);

/*
 * Reads the traces at paths[0..n) into st: returns an exit status, or -1
 * when a signal asked to stop (what was read stays in st).
 */
int cli_run(struct cli *c, struct vmsa_stats *st, const char *const *paths, int n);

/*
 * An analysis with its report: the output files checked and prepared, the
 * traces at inputs[0..n) read (n < 0: the running kernel, until stopped),
 * the final report.  title names the SVG.  An exit status.
 */
int cli_analysis(struct cli *c, const char *title, const char *const *inputs, int n);

/* Reads the running kernel's events into st until stopped: as cli_run(). */
int cli_run_live(struct cli *c, struct vmsa_stats *st);

/*
 * What a report covers, for its head: an interval's delta (index > 0) or
 * the total since the start (index 0), with the wall-clock times.
 */
struct cli_span {
	uint64_t index;
	bool final;
	double wall_start, wall_end;
};

/*
 * Prints the report of st to out in the chosen format; final: also the
 * --svg and --json files.  With span (text formats): first the line
 * "=== vmscan-analyze interval N: trace A..B s, wall W0..W1 ===" (or
 * "total:" for index 0); as JSON with --interval, one line
 * {"interval": {...}, "summary": {...}}.  An interval's delta (index > 0)
 * is printed only; the metrics outputs are written from cumulative
 * statistics.  Returns 0 or the error (shown).
 */
int cli_report(const struct cli *c, const struct vmsa_stats *st, FILE *out, bool final,
	       const struct cli_span *span);

/* The wall clock (CLOCK_REALTIME), in seconds since the epoch. */
double cli_wall_now(void);

/* --format openmetrics or prometheus: true and *fmt set; false for the others. */
bool cli_metrics_format(const char *format, enum vmsa_metrics_format *fmt);

/*
 * The metrics of doc to out (when not NULL, in the --format, a metrics one),
 * to the --openmetrics-file when file (else the caller writes it with
 * cli_write_metrics_file() once the report is out: a run that fails leaves
 * the old one) and to --listen.  0 or the error; one of the file or
 * --listen is shown and sets *told (told may be NULL), one of out is left to
 * the caller.
 */
int cli_write_metrics(const struct cli *c, const struct vmsa_doc *doc, FILE *out, bool file,
		      bool *told);
/* The --openmetrics-file (replaced whole; a device or FIFO written as it
 * is): 0, or the error, shown; nothing without the option, or with --strict
 * failing.  final: into its temporary file when cli_outputs_prepare()
 * opened one, renamed with the other outputs. */
int cli_write_metrics_file(const struct cli *c, const struct vmsa_doc *doc, bool final);

/*
 * --listen (listen.c): serve the metrics over HTTP from a thread of its own.
 * start: an exit status (the address told when it cannot be used); publish:
 * the metrics of doc become what GET /metrics serves (0 or an enum
 * vmsa_error); url: where ("http://127.0.0.1:9101/metrics"); stop: NULL is
 * fine.
 */
struct cli_listener;
int cli_listen_start(const char *addr, struct cli_listener **out);
const char *cli_listen_url(const struct cli_listener *l);
int cli_listen_publish(struct cli_listener *l, const struct vmsa_doc *doc,
		       struct vmsa_cgroups *cgroups);
void cli_listen_stop(struct cli_listener *l);
/* --listen given: the server started, serving the metrics of no event yet; an exit status. */
int cli_listen_publish_stats(const struct cli *c, const struct vmsa_stats *st);
int cli_listen_begin(struct cli *c);

/*
 * What the input at path is (vmsa_input_detect_path()), a summary given
 * through a pipe's path (/dev/fd/N of a shell's <(...), /dev/stdin) too:
 * that pipe is opened, looked at without taking a byte, and kept open
 * (cli_release_pipes()) while the path is read again.  0 or an enum
 * vmsa_error.
 */
int cli_detect(const char *path, enum vmsa_input_kind *kind);
void cli_release_pipes(void);

/* A JSON summary as it is, or a trace analysed into one; an exit status. */
/* rows: the task rows too (merge); check and compare read none */
int cli_load_doc(struct cli *c, const char *path, bool rows, struct vmsa_doc **out);

/*
 * The report of JSON summaries (and traces, analysed) given to the analysis:
 * added up as merge does, then printed as the classic report or JSON, and
 * drawn as far as a summary can be (--svg).  An exit status.
 */
int cli_report_summaries(struct cli *c, int n, char **paths);

/* The subcommands: the operands after the subcommand's name; an exit status. */
int cmd_analyze(struct cli *c, int n, char **paths);
int cmd_live(struct cli *c, int n, char **args);
int cmd_merge(struct cli *c, int n, char **paths);
int cmd_compare(struct cli *c, int n, char **paths);
int cmd_check(struct cli *c, int n, char **paths);

#endif /* VMSA_CLI_H */
