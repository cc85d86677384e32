/* SPDX-License-Identifier: MIT */
/* The command line: options, exit statuses and the helpers the subcommands share. */
#ifndef VMSA_CLI_H
#define VMSA_CLI_H

#include <signal.h>
#include <stdbool.h>
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
	const char *json_path;
	const char *svg_path;
	const char *svg_title;
	const char *latencies_path;
	const char *metrics_path;	/* --openmetrics-file */
	bool pretty, ignore_pid, latency_list, strict, quiet, histogram;
	double interval, duration;
	const char **thresholds;
	int nthresholds;
	const char *thresholds_file;
	const char **names;
	int nnames;
	bool relative;
	long max_messages;
	size_t max_tasks;
	int threads;
	long messages;		/* rejected lines seen */
	FILE *lat_csv;
	sig_atomic_t ints_seen;
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

/* Installs the SIGINT/SIGTERM/SIGHUP handlers the streaming loop reads. */
void cli_signals(void);

/* Opens the --latencies CSV, if asked, and writes its header; an exit status. */
int cli_open_latencies(struct cli *c);

/* Closes the --latencies CSV, if open; an exit status (it cannot be written). */
int cli_close_latencies(struct cli *c);

/* Frees what cli_parse() allocated and closes the CSV, unchecked. */
void cli_free(struct cli *c);

/* New stats with the options asked for (for_report: latencies too); an exit status. */
int cli_stats_new(const struct cli *c, bool for_report, struct vmsa_stats **st);

/*
 * After reading into st with status (-1: stopped by a signal, as good as
 * EXIT_OK): the final report, if all went well, the --latencies CSV closed,
 * --strict; frees st.  An exit status.
 */
int cli_finish(struct cli *c, struct vmsa_stats *st, int status);

/*
 * Reads the traces at paths[0..n) into st: returns an exit status, or -1
 * when a signal asked to stop (what was read stays in st).
 */
int cli_run(struct cli *c, struct vmsa_stats *st, const char *const *paths, int n);

/* Reads the running kernel's events into st until stopped: as cli_run(). */
int cli_run_live(struct cli *c, struct vmsa_stats *st);

/*
 * Prints the report of st to out in the chosen format; final: also the
 * --svg and --json files.  Returns 0 or the error (already shown).
 */
int cli_report(const struct cli *c, const struct vmsa_stats *st, FILE *out, bool final);

/* --format openmetrics or prometheus: true and *fmt set; false for the others. */
bool cli_metrics_format(const char *format, enum vmsa_metrics_format *fmt);

/*
 * The metrics of doc to out (when not NULL, in the --format, a metrics one)
 * and to the --openmetrics-file (replaced whole).  0 or the error (shown).
 */
int cli_write_metrics(const struct cli *c, const struct vmsa_doc *doc, FILE *out);

/* A JSON summary as it is, or a trace analysed into one; an exit status. */
int cli_load_doc(struct cli *c, const char *path, struct vmsa_doc **out);

/* The subcommands: the operands after the subcommand's name; an exit status. */
int cmd_analyze(struct cli *c, int n, char **paths);
int cmd_live(struct cli *c, int n, char **args);
int cmd_merge(struct cli *c, int n, char **paths);
int cmd_compare(struct cli *c, int n, char **paths);
int cmd_check(struct cli *c, int n, char **paths);

#endif /* VMSA_CLI_H */
