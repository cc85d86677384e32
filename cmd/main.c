/* SPDX-License-Identifier: MIT */
/* vmscan-analyze: options -> sources -> stats -> reporters. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vmsa/vmsa.h"

/* Exit statuses (documented in --help, README and the man page). */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,	/* out of memory, cannot write output */
	EXIT_USAGE = 2,
	EXIT_INPUT = 3,		/* an input cannot be opened or read */
	EXIT_REJECTED = 4,	/* --strict and some lines were rejected */
	EXIT_UNSUPPORTED = 5,	/* an input in a format not read (perf.data, trace.dat on stdin) */
	EXIT_CORRUPT = 6,	/* a binary input is truncated or corrupt */
	EXIT_LIVE = 7,		/* live tracing unavailable: not root, no tracefs */
	EXIT_CHECK = 8,		/* check: a threshold is violated */
};

static const char usage_text[] =
	"Usage: vmscan-analyze [OPTIONS] [FILE...]\n"
	"       vmscan-analyze live [OPTIONS]\n"
	"       vmscan-analyze merge [--pretty] INPUT...\n"
	"       vmscan-analyze compare [--name NAME]... [--relative] INPUT...\n"
	"       vmscan-analyze check [-t EXPR]... [--thresholds FILE] INPUT\n"
	"Summarise Linux page-reclaim (vmscan) tracepoints: per-process direct reclaim,\n"
	"per-kswapd activity, memcg/node reclaim, throttling and latencies.\n"
	"\n"
	"FILE is ftrace text (trace, trace_pipe, trace-cmd report), perf script\n"
	"output or a binary trace.dat (recognised by its content); '-' or no FILE\n"
	"reads text from standard input, streaming.  Several files are analysed\n"
	"together as one trace.\n"
	"\n"
	"compare prints the inputs (traces or JSON summaries) side by side in the\n"
	"rows of the 2010 cover letter's tables, then 6.1's and derived rows; the\n"
	"columns are named by --name, in order, or by the file names.\n"
	"merge adds JSON summaries (or traces) into one JSON summary.  check\n"
	"evaluates thresholds on one summary or trace: EXPR is 'A OP B' with OP one\n"
	"of < <= == != >= > and A, B a number, a field path or NUMBER * path, e.g.\n"
	"'totals.direct.writes.file_async == 0', 'latency.direct_stall_ns.p99_ns <\n"
	"5e6', 'totals.kswapd.writes.file_async <= 0.01 * totals.kswapd.pages_scanned'.\n"
	"A thresholds FILE has one EXPR a line ('#' starts a comment).\n"
	"\n"
	"live traces the running kernel (root, tracefs): it enables the vmscan\n"
	"events in a tracefs instance of its own, reads the raw records, and removes\n"
	"the instance when it stops (end of --duration, SIGINT twice, SIGTERM).\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT          report format: classic (default), json, openmetrics\n"
	"                            (vmscan_* metrics) or prometheus (the same metrics\n"
	"                            in Prometheus text format 0.0.4)\n"
	"  -j, --json FILE           also write the JSON summary to FILE\n"
	"      --openmetrics-file FILE  also write the metrics to FILE, replaced whole\n"
	"                            (temporary file, fsync, rename), in the Prometheus\n"
	"                            text format node_exporter's textfile collector reads;\n"
	"                            with --interval, rewritten every SEC seconds instead\n"
	"                            of printing a report\n"
	"      --svg FILE            also draw pages scanned over time, stalls and the\n"
	"                            stall distribution into FILE (SVG)\n"
	"      --pretty              indent JSON output\n"
	"      --ignore-pid          aggregate tasks of the same name\n"
	"      --latency-list        classic report: list every latency per task\n"
	"      --histogram           classic report: log2 histograms of direct reclaim\n"
	"                            stalls and kswapd awake time, overall and per task\n"
	"      --latencies FILE      write every completed reclaim and kswapd awake\n"
	"                            period to FILE as CSV\n"
	"      --interval SEC        while streaming, print a report every SEC seconds\n"
	"      --duration SEC        live: stop after SEC seconds\n"
	"  -t, --threshold EXPR      check: a threshold (repeatable)\n"
	"      --thresholds FILE     check: thresholds, one a line\n"
	"      --name NAME           compare: the next column's name (repeatable)\n"
	"      --relative            compare: show changes against the first column\n"
	"      --max-tasks N         keep at most N task rows (default 100000); later\n"
	"                            tasks are counted together as \"(other tasks)\"\n"
	"      --threads N           decode a text file with N threads (default: the\n"
	"                            number of CPUs, at most 16; 1: no threads)\n"
	"      --strict              exit with status 4 if any line was rejected\n"
	"      --max-messages N      show at most N rejected-line messages (default 20)\n"
	"  -q, --quiet               no rejected-line messages (they are still counted)\n"
	"  -h, --help                show this help\n"
	"  -V, --version             show the version\n"
	"\n"
	"Files over 4 MB show a progress line on stderr when it is a terminal,\n"
	"every VMSA_PROGRESS_INTERVAL seconds (default 0.5).\n"
	"\n"
	"Streaming: the first SIGINT prints a report and reading goes on; a second\n"
	"SIGINT within 2 seconds prints the final report and exits.  SIGTERM prints\n"
	"the final report and exits.\n"
	"\n"
	"Exit status: 0 success; 1 runtime error (memory, output); 2 usage error;\n"
	"3 input cannot be opened or read; 4 lines were rejected and --strict was\n"
	"given; 5 input format not supported (perf.data, trace.dat on standard\n"
	"input); 6 a trace.dat is truncated or corrupt; 7 live tracing is\n"
	"unavailable (not root, no tracefs); 8 check: a threshold is violated.\n";

/* The handlers only count; the main loop, woken by EINTR, does the timing. */
static volatile sig_atomic_t sig_ints, sig_terms;

static void on_sigint(int sig)
{
	(void)sig;
	sig_ints++;
}

static void on_sigterm(int sig)
{
	(void)sig;
	sig_terms++;
}

struct cli {
	const char *format;
	const char *json_path;
	const char *metrics_path;	/* --openmetrics-file */
	const char *svg_path;
	const char *svg_title;
	const char *latencies_path;
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
	long messages;
	FILE *lat_csv;
	sig_atomic_t ints_seen;
	double last_int;	/* when the last SIGINT was seen, or < 0 */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What the signals since the last look ask for: 0 nothing, 1 report, 2 exit. */
static int signal_request(struct cli *c)
{
	if (sig_terms)
		return 2;
	sig_atomic_t n = sig_ints;
	if (n == c->ints_seen)
		return 0;
	double t = now_s();
	bool quick = n - c->ints_seen > 1 || (c->last_int >= 0 && t - c->last_int <= 2.0);
	c->ints_seen = n;
	c->last_int = t;
	return quick ? 2 : 1;
}

static void on_reject(const char *src, uint64_t line_no, enum vmsa_reject_reason r,
		      const char *line, size_t len, void *payload)
{
	struct cli *c = payload;
	c->messages++;
	if (c->quiet || c->messages > c->max_messages) {
		if (!c->quiet && c->messages == c->max_messages + 1)
			fprintf(stderr, "vmscan-analyze: further rejected lines are counted, not "
					"shown\n");
		return;
	}
	fprintf(stderr, "vmscan-analyze: %s:%" PRIu64 ": rejected (%s: %s): ", src, line_no,
		vmsa_reject_reason_name(r), vmsa_reject_reason_message(r));
	size_t n = len > 160 ? 160 : len;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)line[i];
		fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, stderr);
	}
	fputs(len > n ? "...\n" : "\n", stderr);
}

static void on_latency(uint64_t ts, int32_t pid, const char *comm, size_t comm_len,
		       const char *kind, int order, uint64_t ns, void *payload)
{
	FILE *f = payload;
	fprintf(f, "%" PRIu64 ".%09" PRIu64 ",%" PRId32 ",\"", ts / 1000000000u, ts % 1000000000u,
		pid);
	for (size_t i = 0; i < comm_len; i++) {
		if (comm[i] == '"')
			fputc('"', f);
		fputc(comm[i] ? comm[i] : '?', f);
	}
	fprintf(f, "\",%s,%d,%" PRIu64 "\n", kind, order, ns);
}

/* --format openmetrics or prometheus: 1 and *fmt set; 0 for other formats. */
static int metrics_format(const char *format, enum vmsa_metrics_format *fmt)
{
	*fmt = strcmp(format, "prometheus") ? VMSA_METRICS_OPENMETRICS : VMSA_METRICS_PROMETHEUS;
	return !strcmp(format, "openmetrics") || !strcmp(format, "prometheus");
}

static int write_prometheus(FILE *f, void *doc)
{
	return vmsa_report_openmetrics(f, doc, VMSA_METRICS_PROMETHEUS);
}

/* Metrics of doc to out (in the --format, if a metrics one) and to --openmetrics-file. */
static int write_metrics(const struct cli *c, const struct vmsa_doc *doc, FILE *out)
{
	enum vmsa_metrics_format fmt;
	int err = out && metrics_format(c->format, &fmt) ? vmsa_report_openmetrics(out, doc, fmt)
							 : 0;
	if (!err && c->metrics_path &&
	    (err = vmsa_write_file_atomic(c->metrics_path, write_prometheus, (void *)doc)))
		fprintf(stderr, "vmscan-analyze: %s: %s\n", c->metrics_path,
			err == VMSA_E_IO ? strerror(errno) : vmsa_strerror(err));
	return err;
}

static int report(const struct cli *c, struct vmsa_stats *st, FILE *out, bool final)
{
	struct vmsa_summary *sum;
	int err = vmsa_stats_summary(st, &sum);
	if (err) {
		fprintf(stderr, "vmscan-analyze: %s\n", vmsa_strerror(err));
		return EXIT_RUNTIME;
	}
	struct vmsa_report_options ro = {.ignore_pid = c->ignore_pid,
					 .latency_list = c->latency_list,
					 .pretty = c->pretty,
					 .histogram = c->histogram};
	enum vmsa_metrics_format mf;
	bool metrics = metrics_format(c->format, &mf);
	if (metrics || c->metrics_path) {
		/* interval reports with --openmetrics-file go to the file only */
		FILE *mout = metrics && (final || !c->metrics_path) ? out : NULL;
		struct vmsa_doc *doc;
		err = vmsa_doc_from_summary(&doc, sum);
		if (!err)
			err = write_metrics(c, doc, mout);
		vmsa_doc_free(doc);
		if (!err && !metrics && (final || !c->metrics_path))
			err = strcmp(c->format, "json") == 0 ? vmsa_report_json(out, sum, &ro)
							     : vmsa_report_classic(out, sum, &ro);
	} else if (strcmp(c->format, "json") == 0)
		err = vmsa_report_json(out, sum, &ro);
	else
		err = vmsa_report_classic(out, sum, &ro);
	if (!err && final && c->svg_path) {
		FILE *sf = fopen(c->svg_path, "w");
		if (!sf) {
			fprintf(stderr, "vmscan-analyze: %s: %s\n", c->svg_path, strerror(errno));
			vmsa_summary_free(sum);
			return EXIT_RUNTIME;
		}
		err = vmsa_report_svg(sf, sum, c->svg_title);
		if (fclose(sf) && !err)
			err = VMSA_E_IO;
	}
	if (!err && final && c->json_path) {
		FILE *jf = fopen(c->json_path, "w");
		if (!jf) {
			fprintf(stderr, "vmscan-analyze: %s: %s\n", c->json_path, strerror(errno));
			vmsa_summary_free(sum);
			return EXIT_RUNTIME;
		}
		err = vmsa_report_json(jf, sum, &ro);
		if (fclose(jf) && !err)
			err = VMSA_E_IO;
	}
	fflush(out);
	vmsa_summary_free(sum);
	if (err) {
		fprintf(stderr, "vmscan-analyze: cannot write the report: %s\n", vmsa_strerror(err));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}


/* Feed one input; returns an exit status, or -1 to stop reading (signal). */
static int run_source(struct cli *c, struct vmsa_stats *st, const char *path)
{
	struct vmsa_source *src;
	int err = vmsa_source_open_path(&src, path);
	if (err) {
		if (err == VMSA_E_IO)
			fprintf(stderr, "vmscan-analyze: %s: %s\n", path, strerror(errno));
		else
			fprintf(stderr, "vmscan-analyze: %s: %s\n", path, vmsa_strerror(err));
		return err == VMSA_E_NOMEM ? EXIT_RUNTIME
		       : err == VMSA_E_CORRUPT ? EXIT_CORRUPT : EXIT_INPUT;
	}
	vmsa_source_set_reject_cb(src, on_reject, c);
	vmsa_source_set_threads(src, c->threads);
	if (c->interval > 0)
		vmsa_source_set_poll_timeout(src, 100);
	double next_report = c->interval > 0 ? now_s() + c->interval : 0;
	int status = EXIT_OK;
	uint64_t n = 0;
	/* a progress line for big files, on a terminal only (never in logs) */
	struct stat fst;
	bool progress = isatty(STDERR_FILENO) && strcmp(path, "-") && stat(path, &fst) == 0 &&
			S_ISREG(fst.st_mode) && fst.st_size > (4 << 20);
	const char *pi = getenv("VMSA_PROGRESS_INTERVAL");
	double every = pi ? strtod(pi, NULL) : 0.5;
	double t0 = now_s(), next_progress = t0 + every;
	struct vmsa_event ev;
	for (;;) {
		err = vmsa_source_next(src, &ev);
		if (err == 0) {
			err = vmsa_stats_add(st, &ev);
			if (err) {
				fprintf(stderr, "vmscan-analyze: %s\n", vmsa_strerror(err));
				status = EXIT_RUNTIME;
				break;
			}
			if ((++n & 4095) && sig_ints == c->ints_seen && !sig_terms)
				continue;
		} else if (err == VMSA_E_EOF) {
			break;
		} else if (err != VMSA_E_AGAIN) {
			if (err == VMSA_E_UNSUPPORTED) {
				fprintf(stderr,
					"vmscan-analyze: %s: %s input is not supported; convert "
					"it to text first (perf script)\n",
					path, vmsa_source_format(src));
				status = EXIT_UNSUPPORTED;
			} else if (err == VMSA_E_STDIN_BINARY) {
				fprintf(stderr, "vmscan-analyze: %s: %s\n", path, vmsa_strerror(err));
				status = EXIT_UNSUPPORTED;
			} else {
				fprintf(stderr, "vmscan-analyze: %s: %s\n", path,
					err == VMSA_E_IO ? strerror(errno) : vmsa_strerror(err));
				status = err == VMSA_E_NOMEM ? EXIT_RUNTIME : EXIT_INPUT;
			}
			break;
		}
		int req = signal_request(c);
		if (req == 2) {
			status = -1;
			break;
		}
		if (progress && now_s() >= next_progress) {
			const struct vmsa_source_counts *k = vmsa_source_counts(src);
			double el = now_s() - t0;
			if (vmsa_source_traits(src)->tracedat_version)
				fprintf(stderr, "\r%s: %" PRIu64 " records, %.1f M events/s, %d:%02d   ",
					path, k->lines_read, (double)n / el / 1e6, (int)el / 60,
					(int)el % 60);
			else
				fprintf(stderr,
					"\r%s: %.0f / %.0f MB (%.0f%%), %.1f M events/s, %d:%02d   ",
					path, (double)k->bytes_read / 1048576.0,
					(double)fst.st_size / 1048576.0,
					100.0 * (double)k->bytes_read / (double)fst.st_size,
					(double)n / el / 1e6, (int)el / 60, (int)el % 60);
			next_progress = now_s() + every;
		}
		bool due = c->interval > 0 && now_s() >= next_report;
		if (req == 1 || due) {
			if (req == 1)
				fprintf(stderr, "vmscan-analyze: SIGINT: report follows; press Ctrl-C "
						"again within 2 s to exit\n");
			vmsa_stats_add_source(st, vmsa_source_name(src), vmsa_source_format(src),
					      vmsa_source_counts(src), vmsa_source_traits(src));
			int r = report(c, st, stdout, false);
			if (r) {
				status = r;
				break;
			}
			if (due)
				next_report = now_s() + c->interval;
		}
	}
	if (progress)
		fputs("\r\033[K", stderr);
	if (vmsa_stats_add_source(st, vmsa_source_name(src), vmsa_source_format(src),
				  vmsa_source_counts(src), vmsa_source_traits(src)))
		status = EXIT_RUNTIME;
	const struct vmsa_source_counts *k = vmsa_source_counts(src);
	if (status == EXIT_OK && k->lines_analyzed == 0 && !c->quiet)
		fprintf(stderr,
			"vmscan-analyze: %s: no vmscan events in %" PRIu64 " %s (were the vmscan "
			"events enabled?)\n",
			path, k->lines_read, vmsa_source_traits(src)->tracedat_version ? "records" : "lines");
	vmsa_source_close(src);
	return status;
}

static int add_live_event(const struct vmsa_event *ev, void *payload)
{
	return vmsa_stats_add(payload, ev) ? -1 : 0;
}

static void add_live_source(struct vmsa_stats *st, struct vmsa_live *lv)
{
	vmsa_stats_add_source(st, vmsa_live_name(lv), "live", vmsa_live_counts(lv),
			      vmsa_live_traits(lv));
}

/* live: poll the instance until stopped, then drain once more. */
static int run_live(struct cli *c, struct vmsa_stats *st)
{
	struct vmsa_live *lv;
	int err = vmsa_live_open(&lv, &(struct vmsa_live_options){.buffer_kb = 8192});
	if (err) {
		fprintf(stderr, "vmscan-analyze: live: %s\n", vmsa_strerror(err));
		return EXIT_LIVE;
	}
	signal(SIGPIPE, SIG_IGN); /* a closed pipe must not skip the cleanup */
	double start = now_s(), next_report = start + c->interval;
	int status = EXIT_OK;
	for (;;) {
		if (vmsa_live_drain(lv, add_live_event, st)) {
			fprintf(stderr, "vmscan-analyze: live: reading the buffers failed\n");
			status = EXIT_RUNTIME;
			break;
		}
		int req = signal_request(c);
		if (req == 2 || (c->duration > 0 && now_s() - start >= c->duration))
			break;
		bool due = c->interval > 0 && now_s() >= next_report;
		if (req == 1 || due) {
			add_live_source(st, lv);
			if ((status = report(c, st, stdout, false)))
				break;
			if (due)
				next_report = now_s() + c->interval;
		}
		nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
	}
	vmsa_live_stop(lv);
	if (vmsa_live_drain(lv, add_live_event, st) && !status)
		status = EXIT_RUNTIME;
	add_live_source(st, lv);
	vmsa_live_close(lv);
	return status;
}

/* Whether path holds JSON (a summary) rather than a trace. */
static bool json_input(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : NULL;
	int first = ' ';
	while (f && (first == ' ' || first == '\n' || first == '\t' || first == '\r'))
		first = fgetc(f);
	if (f)
		fclose(f);
	return first == '{';
}

/* A JSON summary file as it is, or a trace analysed into one. */
static int load_doc(struct cli *c, const char *path, struct vmsa_doc **out)
{
	*out = NULL;
	if (json_input(path)) {
		int err = vmsa_doc_parse_file(out, path);
		if (err) {
			fprintf(stderr, "vmscan-analyze: %s: %s\n", path,
				err == VMSA_E_UNSUPPORTED
					? "not a vmscan-analyze JSON summary of schema version 1"
					: vmsa_strerror(err));
			return err == VMSA_E_IO ? EXIT_INPUT : EXIT_CORRUPT;
		}
		return EXIT_OK;
	}
	struct vmsa_stats_options so = {.ignore_pid = c->ignore_pid, .max_tasks = c->max_tasks};
	struct vmsa_stats *st;
	if (vmsa_stats_new(&st, &so))
		return EXIT_RUNTIME;
	int status = run_source(c, st, path);
	if (status == EXIT_OK) {
		struct vmsa_summary *sum;
		if (vmsa_stats_summary(st, &sum) || vmsa_doc_from_summary(out, sum))
			status = EXIT_RUNTIME;
		else
			vmsa_summary_free(sum);
	}
	vmsa_stats_free(st);
	return status < 0 ? EXIT_OK : status;
}

static int run_merge(struct cli *c, int n, char **paths)
{
	if (n < 1) {
		fprintf(stderr, "vmscan-analyze: merge wants at least one INPUT\n");
		return EXIT_USAGE;
	}
	struct vmsa_doc *all = NULL;
	int status = EXIT_OK;
	for (int i = 0; i < n && status == EXIT_OK; i++) {
		struct vmsa_doc *d;
		if ((status = load_doc(c, paths[i], &d)))
			break;
		if (!all) {
			all = d;
			continue;
		}
		if (vmsa_doc_merge(all, d)) {
			fprintf(stderr, "vmscan-analyze: %s: cannot be merged (different layout)\n",
				paths[i]);
			status = EXIT_CORRUPT;
		}
		vmsa_doc_free(d);
	}
	enum vmsa_metrics_format mf;
	if (status == EXIT_OK && (metrics_format(c->format, &mf) || c->metrics_path)) {
		if (write_metrics(c, all, metrics_format(c->format, &mf) ? stdout : NULL))
			status = EXIT_RUNTIME;
		if (metrics_format(c->format, &mf)) {
			vmsa_doc_free(all);
			return status;
		}
	}
	if (status == EXIT_OK && vmsa_doc_write(stdout, all, c->pretty))
		status = EXIT_RUNTIME;
	vmsa_doc_free(all);
	return status;
}

static int run_compare(struct cli *c, int n, char **paths)
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
	int status = docs && names ? EXIT_OK : EXIT_RUNTIME;
	for (int i = 0; i < n && status == EXIT_OK; i++) {
		status = load_doc(c, paths[i], &docs[i]);
		const char *base = strrchr(paths[i], '/');
		names[i] = i < c->nnames ? c->names[i] : base ? base + 1 : paths[i];
	}
	if (status == EXIT_OK &&
	    vmsa_report_compare(stdout, (const struct vmsa_doc *const *)docs, names, n,
				!strcmp(c->format, "json"), c->relative))
		status = EXIT_RUNTIME;
	for (int i = 0; docs && i < n; i++)
		vmsa_doc_free(docs[i]);
	free(docs);
	free(names);
	return status;
}

static int run_check(struct cli *c, int n, char **paths)
{
	if (n != 1) {
		fprintf(stderr, "vmscan-analyze: check wants one INPUT\n");
		return EXIT_USAGE;
	}
	char **exprs = calloc((size_t)c->nthresholds + 256, sizeof(*exprs));
	int ne = 0;
	for (int i = 0; i < c->nthresholds; i++)
		exprs[ne++] = strdup(c->thresholds[i]);
	if (c->thresholds_file) {
		FILE *f = fopen(c->thresholds_file, "r");
		if (!f) {
			fprintf(stderr, "vmscan-analyze: %s: %s\n", c->thresholds_file, strerror(errno));
			return EXIT_INPUT;
		}
		char line[1024];
		while (fgets(line, sizeof(line), f) && ne < c->nthresholds + 256) {
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
				exprs[ne++] = strdup(b);
		}
		fclose(f);
	}
	if (!ne) {
		fprintf(stderr, "vmscan-analyze: check wants thresholds (-t, --thresholds)\n");
		free(exprs);
		return EXIT_USAGE;
	}
	struct vmsa_doc *d;
	int status = load_doc(c, paths[0], &d);
	int failed = 0;
	for (int i = 0; status == EXIT_OK && i < ne; i++) {
		int pass;
		char msg[600];
		if (vmsa_doc_check(d, exprs[i], &pass, msg, sizeof(msg))) {
			fprintf(stderr, "vmscan-analyze: threshold %s\n", msg);
			status = EXIT_USAGE;
			break;
		}
		printf("%s %s\n", pass ? "ok  " : "FAIL", msg);
		failed += !pass;
	}
	if (status == EXIT_OK && failed) {
		fprintf(stderr, "vmscan-analyze: %d of %d thresholds violated\n", failed, ne);
		status = EXIT_CHECK;
	}
	for (int i = 0; i < ne; i++)
		free(exprs[i]);
	free(exprs);
	vmsa_doc_free(d);
	return status;
}

/* An option's count from lo to hi (the caller says what is wrong). */
static bool count_arg(const char *arg, long long lo, long long hi, long long *v)
{
	char *end;
	errno = 0;
	*v = strtoll(arg, &end, 10);
	return !errno && !*end && *v >= lo && *v <= hi;
}

/* An option's seconds, more than 0. */
static bool seconds_arg(const char *arg, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(arg, &end);
	return !errno && !*end && *v > 0;
}

int main(int argc, char **argv)
{
	struct cli c = {.format = "classic", .max_messages = 20, .last_int = -1};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	c.threads = ncpu < 1 ? 1 : ncpu > 16 ? 16 : (int)ncpu;
	enum { O_PRETTY = 256, O_IGNORE_PID, O_LAT_LIST, O_LATENCIES, O_INTERVAL, O_STRICT,
	       O_MAXMSG, O_DURATION, O_THRESHOLDS, O_NAME, O_RELATIVE, O_HISTOGRAM, O_SVG,
	       O_MAXTASKS, O_THREADS, O_METRICS_FILE };
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"json", required_argument, NULL, 'j'},
		{"pretty", no_argument, NULL, O_PRETTY},
		{"ignore-pid", no_argument, NULL, O_IGNORE_PID},
		{"latency-list", no_argument, NULL, O_LAT_LIST},
		{"histogram", no_argument, NULL, O_HISTOGRAM},
		{"svg", required_argument, NULL, O_SVG},
		{"openmetrics-file", required_argument, NULL, O_METRICS_FILE},
		{"latencies", required_argument, NULL, O_LATENCIES},
		{"interval", required_argument, NULL, O_INTERVAL},
		{"duration", required_argument, NULL, O_DURATION},
		{"threshold", required_argument, NULL, 't'},
		{"thresholds", required_argument, NULL, O_THRESHOLDS},
		{"name", required_argument, NULL, O_NAME},
		{"relative", no_argument, NULL, O_RELATIVE},
		{"strict", no_argument, NULL, O_STRICT},
		{"max-messages", required_argument, NULL, O_MAXMSG},
		{"max-tasks", required_argument, NULL, O_MAXTASKS},
		{"threads", required_argument, NULL, O_THREADS},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int opt;
	long long v;
	while ((opt = getopt_long(argc, argv, "f:j:t:qhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			c.format = optarg;
			if (strcmp(optarg, "classic") && strcmp(optarg, "json") &&
			    strcmp(optarg, "openmetrics") && strcmp(optarg, "prometheus")) {
				fprintf(stderr, "vmscan-analyze: unknown format '%s' (classic, json, "
						"openmetrics, prometheus)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			c.json_path = optarg;
			break;
		case O_PRETTY:
			c.pretty = true;
			break;
		case O_IGNORE_PID:
			c.ignore_pid = true;
			break;
		case O_LAT_LIST:
			c.latency_list = true;
			break;
		case O_HISTOGRAM:
			c.histogram = true;
			break;
		case O_SVG:
			c.svg_path = optarg;
			break;
		case O_METRICS_FILE:
			c.metrics_path = optarg;
			break;
		case O_LATENCIES:
			c.latencies_path = optarg;
			break;
		case O_INTERVAL:
			if (!seconds_arg(optarg, &c.interval)) {
				fprintf(stderr, "vmscan-analyze: --interval wants seconds > 0\n");
				return EXIT_USAGE;
			}
			break;
		case O_DURATION:
			if (!seconds_arg(optarg, &c.duration)) {
				fprintf(stderr, "vmscan-analyze: --duration wants seconds > 0\n");
				return EXIT_USAGE;
			}
			break;
		case 't':
			c.thresholds = realloc(c.thresholds, (size_t)(c.nthresholds + 1) *
								 sizeof(*c.thresholds));
			if (!c.thresholds)
				return EXIT_RUNTIME;
			c.thresholds[c.nthresholds++] = optarg;
			break;
		case O_THRESHOLDS:
			c.thresholds_file = optarg;
			break;
		case O_NAME:
			c.names = realloc(c.names, (size_t)(c.nnames + 1) * sizeof(*c.names));
			if (!c.names)
				return EXIT_RUNTIME;
			c.names[c.nnames++] = optarg;
			break;
		case O_RELATIVE:
			c.relative = true;
			break;
		case O_STRICT:
			c.strict = true;
			break;
		case O_MAXMSG:
			if (!count_arg(optarg, 0, LONG_MAX, &v)) {
				fprintf(stderr, "vmscan-analyze: --max-messages wants a count\n");
				return EXIT_USAGE;
			}
			c.max_messages = (long)v;
			break;
		case O_MAXTASKS:
			if (!count_arg(optarg, 1, LLONG_MAX, &v)) {
				fprintf(stderr, "vmscan-analyze: --max-tasks wants a count >= 1\n");
				return EXIT_USAGE;
			}
			c.max_tasks = (size_t)v;
			break;
		case O_THREADS:
			if (!count_arg(optarg, 1, 16, &v)) {
				fprintf(stderr, "vmscan-analyze: --threads wants a count from 1 to 16\n");
				return EXIT_USAGE;
			}
			c.threads = (int)v;
			break;
		case 'q':
			c.quiet = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		case 'V':
			printf("vmscan-analyze %s (JSON schema %d)\n", VMSA_VERSION,
			       VMSA_SCHEMA_VERSION);
			return EXIT_OK;
		default:
			fputs("Try 'vmscan-analyze --help'.\n", stderr);
			return EXIT_USAGE;
		}
	}

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint; /* no SA_RESTART: a blocked read returns */
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_sigterm;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (c.latencies_path) {
		c.lat_csv = fopen(c.latencies_path, "w");
		if (!c.lat_csv) {
			fprintf(stderr, "vmscan-analyze: %s: %s\n", c.latencies_path, strerror(errno));
			return EXIT_RUNTIME;
		}
		fputs("timestamp_ns,pid,comm,kind,order,latency_ns\n", c.lat_csv);
	}
	struct vmsa_stats_options so = {.ignore_pid = c.ignore_pid,
					.max_tasks = c.max_tasks,
					.keep_latency_list = c.latency_list && !c.ignore_pid,
					.latency_cb = c.lat_csv ? on_latency : NULL,
					.latency_payload = c.lat_csv};
	struct vmsa_stats *st;
	if (vmsa_stats_new(&st, &so)) {
		fprintf(stderr, "vmscan-analyze: out of memory\n");
		return EXIT_RUNTIME;
	}

	int status = EXIT_OK;
	const char *sub = optind < argc ? argv[optind] : "";
	if (!strcmp(sub, "merge") || !strcmp(sub, "check") || !strcmp(sub, "compare")) {
		c.quiet = true; /* per-line messages would drown the result */
		int n = argc - optind - 1;
		char **rest = &argv[optind + 1];
		status = !strcmp(sub, "merge")	 ? run_merge(&c, n, rest)
			 : !strcmp(sub, "check") ? run_check(&c, n, rest)
						 : run_compare(&c, n, rest);
		vmsa_stats_free(st);
		free(c.thresholds);
		free(c.names);
		if (c.lat_csv)
			fclose(c.lat_csv);
		return status;
	}
	bool live = optind < argc && strcmp(argv[optind], "live") == 0;
	if (live && optind + 1 < argc) {
		fprintf(stderr, "vmscan-analyze: live takes no FILE\n");
		vmsa_stats_free(st);
		return EXIT_USAGE;
	}
	if (!live && c.duration > 0) {
		fprintf(stderr, "vmscan-analyze: --duration is for live\n");
		vmsa_stats_free(st);
		return EXIT_USAGE;
	}
	static const char *const stdin_only[] = {"-"};
	const char *const *paths = optind < argc ? (const char *const *)&argv[optind] : stdin_only;
	int npaths = optind < argc ? argc - optind : 1;
	c.svg_title = paths[0];
	enum vmsa_metrics_format mf;
	if (!live && (metrics_format(c.format, &mf) || c.metrics_path) && json_input(paths[0])) {
		/* metrics of JSON summaries: added up as merge does */
		status = run_merge(&c, npaths, (char **)paths);
		vmsa_stats_free(st);
		free(c.thresholds);
		return status;
	}
	if (live) {
		status = run_live(&c, st);
		npaths = 0;
	}
	for (int i = 0; i < npaths; i++) {
		int r = run_source(&c, st, paths[i]);
		if (r < 0)
			break; /* asked to stop: final report below */
		if (r) {
			status = r;
			break;
		}
	}
	if (status == EXIT_OK) {
		int r = report(&c, st, stdout, true);
		if (r)
			status = r;
	}
	if (c.lat_csv && fclose(c.lat_csv)) {
		fprintf(stderr, "vmscan-analyze: %s: %s\n", c.latencies_path, strerror(errno));
		status = EXIT_RUNTIME;
	}
	if (status == EXIT_OK && c.strict && c.messages > 0) {
		fprintf(stderr, "vmscan-analyze: %ld line(s) rejected (--strict)\n", c.messages);
		status = EXIT_REJECTED;
	}
	vmsa_stats_free(st);
	free(c.thresholds);
	return status;
}
