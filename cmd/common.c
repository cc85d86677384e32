/* SPDX-License-Identifier: MIT */
/* What the subcommands share: exit statuses, signals, reading inputs, reports. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

int cli_status(int err, enum cli_stage stage)
{
	if (err == VMSA_E_OK)
		return EXIT_OK;
	if (err == VMSA_E_NOMEM)
		return EXIT_RUNTIME;
	switch (stage) {
	case CLI_INPUT:
		if (err == VMSA_E_UNSUPPORTED || err == VMSA_E_STDIN_BINARY)
			return EXIT_UNSUPPORTED;
		return err == VMSA_E_CORRUPT ? EXIT_CORRUPT : EXIT_INPUT;
	case CLI_SUMMARY: /* not JSON, not a summary, or a layout that cannot be merged */
		return err == VMSA_E_IO || err == VMSA_E_ISDIR ? EXIT_INPUT : EXIT_CORRUPT;
	case CLI_LIVE:
		return EXIT_LIVE;
	case CLI_THRESHOLD:
		return EXIT_USAGE;
	case CLI_OUTPUT:
		break;
	}
	return EXIT_RUNTIME;
}

void cli_error(const char *what, int err, int sys_errno)
{
	const char *msg = err == VMSA_E_IO && sys_errno ? strerror(sys_errno) : vmsa_strerror(err);
	if (what)
		fprintf(stderr, "vmscan-analyze: %s: %s\n", what, msg);
	else
		fprintf(stderr, "vmscan-analyze: %s\n", msg);
}

/* The handlers only count; the main loop, woken by EINTR, does the timing. */
static volatile sig_atomic_t sig_ints, sig_terms;
static volatile sig_atomic_t sig_seen; /* either: the analysis looks at the others */

static void on_sigint(int sig)
{
	(void)sig;
	sig_ints++;
	sig_seen++;
}

static void on_sigterm(int sig)
{
	(void)sig;
	sig_terms++;
	sig_seen++;
}

void cli_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint; /* no SA_RESTART: a blocked read returns */
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_sigterm;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

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

int cli_open_latencies(struct cli *c)
{
	if (!c->latencies_path)
		return EXIT_OK;
	c->lat_csv = fopen(c->latencies_path, "w");
	if (!c->lat_csv) {
		cli_error(c->latencies_path, VMSA_E_IO, errno);
		return cli_status(VMSA_E_IO, CLI_OUTPUT);
	}
	fputs("timestamp_ns,pid,comm,kind,order,latency_ns\n", c->lat_csv);
	return EXIT_OK;
}

int cli_close_latencies(struct cli *c)
{
	FILE *f = c->lat_csv;
	c->lat_csv = NULL;
	if (f && fclose(f)) {
		cli_error(c->latencies_path, VMSA_E_IO, errno);
		return cli_status(VMSA_E_IO, CLI_OUTPUT);
	}
	return EXIT_OK;
}

void cli_free(struct cli *c)
{
	if (c->lat_csv)
		fclose(c->lat_csv);
	c->lat_csv = NULL;
	free(c->thresholds);
	free(c->names);
	c->thresholds = NULL;
	c->names = NULL;
}

int cli_stats_new(const struct cli *c, bool for_report, struct vmsa_stats **st)
{
	struct vmsa_stats_options so = {.ignore_pid = c->ignore_pid, .max_tasks = c->max_tasks};
	if (for_report) {
		so.keep_latency_list = c->latency_list && !c->ignore_pid;
		so.latency_cb = c->lat_csv ? on_latency : NULL;
		so.latency_payload = c->lat_csv;
	}
	int err = vmsa_stats_new(st, &so);
	if (err)
		cli_error(NULL, err, 0);
	return cli_status(err, CLI_OUTPUT);
}

int cli_finish(struct cli *c, struct vmsa_stats *st, int status)
{
	if (status < 0)
		status = EXIT_OK; /* asked to stop: the final report follows */
	if (status == EXIT_OK)
		status = cli_status(cli_report(c, st, stdout, true), CLI_OUTPUT);
	int closed = cli_close_latencies(c);
	if (closed)
		status = closed;
	if (status == EXIT_OK && c->strict && c->messages > 0) {
		fprintf(stderr, "vmscan-analyze: %ld line(s) rejected (--strict)\n", c->messages);
		status = EXIT_REJECTED;
	}
	vmsa_stats_free(st);
	return status;
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

/* Writes the summary into a file of its own (--svg, --json); 0 or an error (shown). */
static int report_file(const struct cli *c, const char *path, const struct vmsa_summary *sum,
		       const struct vmsa_report_options *ro, bool svg)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		cli_error(path, VMSA_E_IO, errno);
		return VMSA_E_IO;
	}
	int err = svg ? vmsa_report_svg(f, sum, c->svg_title) : vmsa_report_json(f, sum, ro);
	if (fclose(f) && !err)
		err = VMSA_E_IO;
	if (err)
		fprintf(stderr, "vmscan-analyze: cannot write the report: %s\n", vmsa_strerror(err));
	return err;
}

int cli_report(const struct cli *c, const struct vmsa_stats *st, FILE *out, bool final)
{
	struct vmsa_summary *sum;
	int err = vmsa_stats_summary(st, &sum);
	if (err) {
		cli_error(NULL, err, 0);
		return err;
	}
	struct vmsa_report_options ro = {.ignore_pid = c->ignore_pid,
					 .latency_list = c->latency_list,
					 .pretty = c->pretty,
					 .histogram = c->histogram};
	if (strcmp(c->format, "json") == 0)
		err = vmsa_report_json(out, sum, &ro);
	else
		err = vmsa_report_classic(out, sum, &ro);
	fflush(out);
	if (err)
		fprintf(stderr, "vmscan-analyze: cannot write the report: %s\n", vmsa_strerror(err));
	if (!err && final && c->svg_path)
		err = report_file(c, c->svg_path, sum, &ro, true);
	if (!err && final && c->json_path)
		err = report_file(c, c->json_path, sum, &ro, false);
	vmsa_summary_free(sum);
	return err;
}

/* The signals, for the analysis: SIGINT reports (saying so) or stops, SIGTERM stops. */
static int control(void *payload)
{
	int req = signal_request(payload);
	if (req == 1)
		fprintf(stderr, "vmscan-analyze: SIGINT: report follows; press Ctrl-C again "
				"within 2 s to exit\n");
	return req == 2 ? VMSA_ANALYZE_STOP : req == 1 ? VMSA_ANALYZE_REPORT : VMSA_ANALYZE_GO_ON;
}

/* Live, a SIGINT reports without a word. */
static int control_live(void *payload)
{
	int req = signal_request(payload);
	return req == 2 ? VMSA_ANALYZE_STOP : req == 1 ? VMSA_ANALYZE_REPORT : VMSA_ANALYZE_GO_ON;
}

static int interim_report(const struct vmsa_stats *st, void *payload)
{
	return cli_report(payload, st, stdout, false);
}

/* A progress line for big files, on a terminal only (never in logs). */
static void progress(const struct vmsa_analyze_progress *p, void *payload)
{
	(void)payload;
	if (p->done) {
		fputs("\r\033[K", stderr);
		return;
	}
	double el = p->elapsed_s, rate = (double)p->events / el / 1e6;
	if (p->traits->tracedat_version)
		fprintf(stderr, "\r%s: %" PRIu64 " records, %.1f M events/s, %d:%02d   ", p->path,
			p->counts->lines_read, rate, (int)el / 60, (int)el % 60);
	else
		fprintf(stderr, "\r%s: %.0f / %.0f MB (%.0f%%), %.1f M events/s, %d:%02d   ", p->path,
			(double)p->counts->bytes_read / 1048576.0, (double)p->size / 1048576.0,
			100.0 * (double)p->counts->bytes_read / (double)p->size, rate, (int)el / 60,
			(int)el % 60);
}

static void input_end(const char *path, const struct vmsa_source_counts *k,
		      const struct vmsa_traits *traits, void *payload)
{
	const struct cli *c = payload;
	if (k->lines_analyzed == 0 && !c->quiet)
		fprintf(stderr,
			"vmscan-analyze: %s: no vmscan events in %" PRIu64 " %s (were the vmscan "
			"events enabled?)\n",
			path, k->lines_read, traits->tracedat_version ? "records" : "lines");
}

static struct vmsa_analyze_options analyze_options(struct cli *c)
{
	const char *pi = getenv("VMSA_PROGRESS_INTERVAL");
	return (struct vmsa_analyze_options){
		.threads = c->threads,
		.interval_s = c->interval,
		.reject_cb = on_reject,
		.reject_payload = c,
		.attention = &sig_seen,
		.control = control,
		.report = interim_report,
		.progress = isatty(STDERR_FILENO) ? progress : NULL,
		.progress_min_bytes = 4 << 20,
		.progress_every_s = pi ? strtod(pi, NULL) : 0.5,
		.input_end = input_end,
		.payload = c,
	};
}

/* The exit status of an analysis, and its error told. */
static int outcome(int err, const struct vmsa_analyze_result *res, const char *const *paths)
{
	if (!err)
		return res->stopped ? -1 : EXIT_OK;
	bool live = res->input < 0;
	const char *what = live ? "live" : paths[res->input];
	switch (res->stage) {
	case VMSA_ANALYZE_OPEN:
		cli_error(what, err, res->sys_errno);
		return cli_status(err, live ? CLI_LIVE : CLI_INPUT);
	case VMSA_ANALYZE_READ:
		if (live) {
			fprintf(stderr, "vmscan-analyze: live: reading the buffers failed\n");
			return cli_status(err, CLI_OUTPUT);
		}
		if (err == VMSA_E_UNSUPPORTED)
			fprintf(stderr, "vmscan-analyze: %s: %s input is not supported; convert it "
					"to text first (perf script)\n", what, res->format);
		else
			cli_error(what, err, res->sys_errno);
		return cli_status(err, CLI_INPUT);
	case VMSA_ANALYZE_ADD:
		cli_error(NULL, err, 0);
		break;
	case VMSA_ANALYZE_REPORTING: /* cli_report() told */
		break;
	}
	return cli_status(err, CLI_OUTPUT);
}

int cli_run(struct cli *c, struct vmsa_stats *st, const char *const *paths, int n)
{
	struct vmsa_analyze_options o = analyze_options(c);
	struct vmsa_analyze_result res;
	int err = vmsa_analyze_files(st, paths, n, &o, &res);
	return outcome(err, &res, paths);
}

int cli_run_live(struct cli *c, struct vmsa_stats *st)
{
	struct vmsa_analyze_options o = analyze_options(c);
	o.control = control_live;
	signal(SIGPIPE, SIG_IGN); /* a closed pipe must not skip the cleanup */
	struct vmsa_analyze_result res;
	int err = vmsa_analyze_live(st, &(struct vmsa_live_options){.buffer_kb = 8192},
				    c->duration, &o, &res);
	return outcome(err, &res, NULL);
}

/* A trace analysed into a summary document. */
static int analyze_doc(struct cli *c, const char *path, struct vmsa_doc **out)
{
	struct vmsa_stats *st;
	int status = cli_stats_new(c, false, &st);
	if (status)
		return status;
	status = cli_run(c, st, &path, 1);
	if (status <= 0) { /* read to the end, or up to a signal */
		struct vmsa_summary *sum = NULL;
		int err = vmsa_stats_summary(st, &sum);
		if (!err)
			err = vmsa_doc_from_summary(out, sum);
		vmsa_summary_free(sum);
		if (err)
			cli_error(NULL, err, 0);
		status = cli_status(err, CLI_OUTPUT);
	}
	vmsa_stats_free(st);
	return status;
}

int cli_load_doc(struct cli *c, const char *path, struct vmsa_doc **out)
{
	*out = NULL;
	enum vmsa_input_kind kind;
	/* one that cannot be read is left to the analysis, which says why */
	if (vmsa_input_detect_path(path, &kind) || kind != VMSA_INPUT_SUMMARY)
		return analyze_doc(c, path, out);
	int err = vmsa_doc_parse_file(out, path);
	if (err)
		fprintf(stderr, "vmscan-analyze: %s: %s\n", path,
			err == VMSA_E_UNSUPPORTED
				? "not a vmscan-analyze JSON summary of schema version 1"
				: vmsa_strerror(err));
	return cli_status(err, CLI_SUMMARY);
}
