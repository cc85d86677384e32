/* SPDX-License-Identifier: MIT */
/* Reading inputs: signals, rejected lines, progress, the analysis and its outcome, summaries. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"

/* The handlers only count; the main loop, woken by EINTR, does the timing. */
static volatile sig_atomic_t sig_ints, sig_terms;
static volatile sig_atomic_t sig_seen; /* either: the analysis looks at the others */
static volatile sig_atomic_t sig_last; /* the last signal seen, or 0 */
/* a signal not yet answered by the analysis (signal_request()) */
static volatile sig_atomic_t sig_unanswered;

/*
 * A signal that comes after the analysis last looked and before it blocks
 * in a read (a pipe whose writer waits) would never be looked at: until it
 * is answered, SIGALRM comes back every second, and the blocked read
 * returns (EINTR) to the loop that looks.
 */
static void on_sigalrm(int sig)
{
	(void)sig;
	if (sig_unanswered)
		alarm(1);
}

static void on_sigint(int sig)
{
	sig_ints++;
	sig_seen++;
	sig_last = sig;
	sig_unanswered = 1;
	alarm(1);
}

static void on_sigterm(int sig)
{
	sig_terms++;
	sig_seen++;
	sig_last = sig;
	sig_unanswered = 1;
	alarm(1);
}

int cli_interrupted(void)
{
	return sig_last;
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
	sa.sa_handler = on_sigalrm;
	sigaction(SIGALRM, &sa, NULL);
	/* a handler of a blocked signal never runs: started with them
	 * blocked (the mask is inherited), a SIGTERM would wait, pending,
	 * while a gate passed on what it had read */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
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
	if (sig_terms) {
		sig_unanswered = 0;
		return 2;
	}
	sig_atomic_t n = sig_ints;
	if (n == c->ints_seen)
		return 0;
	sig_unanswered = 0;
	if (c->stop_on_int) /* check: no report before the end, a SIGINT stops */
		return 2;
	double t = now_s();
	bool quick = n - c->ints_seen > 1 || (c->last_int >= 0 && t - c->last_int <= 2.0);
	c->ints_seen = n;
	c->last_int = t;
	return quick ? 2 : 1;
}

/*
 * The line begins with an event's name and its ':' ("mm_vmscan_x: ..." or
 * "vmscan:mm_vmscan_x: ..."), without the columns before it: what tracefs
 * prints with options/context-info set to 0 (task, pid, CPU, flags and
 * timestamp left out), which no analysis can do without.
 */
static bool headless(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	size_t name = i;
	while (i < len && (line[i] == '_' || line[i] == ':' || (line[i] >= 'a' && line[i] <= 'z') ||
			   (line[i] >= '0' && line[i] <= '9')))
		i++;
	return i > name + 1 && line[i - 1] == ':' && i < len && line[i] == ' ';
}

/* The tally of input name (made, when make); NULL: none (or no memory:
 * the counts are for a hint only).  The newest first: a reject is of the
 * input being read, almost always the last one tallied. */
static struct cli_tally *tally_of(struct cli *c, const char *name, bool make)
{
	for (size_t i = c->ntally; i-- > 0;)
		if (strcmp(c->tally[i].name, name) == 0)
			return &c->tally[i];
	if (!make)
		return NULL;
	struct cli_tally *n = realloc(c->tally, (c->ntally + 1) * sizeof(*n));
	if (!n)
		return NULL;
	c->tally = n;
	n = &c->tally[c->ntally];
	if (!(n->name = strdup(name)))
		return NULL;
	c->ntally++;
	n->bad_headers = n->headless = 0;
	return n;
}

static void on_reject(const char *src, uint64_t line_no, enum vmsa_reject_reason r,
		      const char *line, size_t len, void *payload)
{
	struct cli *c = payload;
	struct cli_tally *t = r == VMSA_REJECT_BAD_HEADER ? tally_of(c, src, true) : NULL;
	if (t) {
		t->bad_headers++;
		t->headless += headless(line, len);
	}
	c->messages++;
	if (c->quiet || c->lines_quiet || c->messages > c->max_messages) {
		if (!c->quiet && !c->lines_quiet && c->messages == c->max_messages + 1)
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

/*
 * An interim report on request (SIGINT): the total so far, after a line
 * "=== vmscan-analyze total: ..." (cli_report()).
 */
static int interim_report(const struct vmsa_stats *st, void *payload)
{
	struct cli *c = payload;
	struct cli_span total = {.wall_start = c->wall_start, .wall_end = cli_wall_now()};
	c->interim_printed = true;
	return cli_report(c, st, stdout, false, &total);
}

/*
 * --interval: the interval's delta after a line "=== vmscan-analyze
 * interval N: ..." (as JSON, one line a report); the metrics (the
 * --openmetrics-file, or a metrics --format) stay cumulative, as
 * Prometheus wants its counters.
 */
static int interval_report(const struct vmsa_stats *delta, const struct vmsa_stats *st,
			   const struct vmsa_interval *iv, void *payload)
{
	const struct cli *c = payload;
	enum vmsa_metrics_format mf;
	if (c->metrics_path || cli_metrics_format(c->format, &mf)) {
		/* the final report follows the last interval */
		return iv->final ? 0 : cli_report(c, st, stdout, false, NULL);
	}
	struct cli_span span = {.index = iv->index, .final = iv->final != 0,
				.wall_start = iv->wall_start_s, .wall_end = iv->wall_end_s};
	/* the served metrics stay cumulative; the printed report is the delta */
	int err = c->listener ? cli_listen_publish_stats(c, st) : 0;
	return err ? err : cli_report(c, delta, stdout, false, &span);
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
	uint64_t done = p->traits->compression ? p->traits->compressed_bytes : p->counts->bytes_read;
	if (p->traits->tracedat_version)
		fprintf(stderr, "\r%s: %" PRIu64 " records, %.1f M events/s, %d:%02d   ", p->path,
			p->counts->lines_read, rate, (int)el / 60, (int)el % 60);
	else
		fprintf(stderr, "\r%s: %.0f / %.0f MB (%.0f%%), %.1f M events/s, %d:%02d   ", p->path,
			(double)done / 1048576.0, (double)p->size / 1048576.0,
			100.0 * (double)done / (double)p->size, rate, (int)el / 60,
			(int)el % 60);
}

static void input_end(const char *path, const struct vmsa_source_counts *k,
		      const struct vmsa_traits *traits, void *payload)
{
	struct cli *c = payload;
	struct cli_tally *t = tally_of(c, path, false);
	/* (only where no line was read as an event: a trace pasted into a mail
	 * and wrapped has lines that go on a broken event and begin with its
	 * name too, among events read whole) */
	bool all_headless = t && t->headless && t->headless == t->bad_headers &&
			    k->lines_analyzed == 0 && !traits->wrapped_events;
	if (t) { /* (told: an input named again starts anew) */
		free(t->name);
		*t = c->tally[--c->ntally];
	}
	if (k->lines_analyzed == 0 && k->lines_rejected && !c->quiet)
		fprintf(stderr,
			"vmscan-analyze: %s: no vmscan event could be read in %" PRIu64 " %s: "
			"%" PRIu64 " rejected\n",
			path, k->lines_read, traits->tracedat_version ? "records" : "lines",
			k->lines_rejected);
	else if (k->lines_analyzed == 0 && k->unknown_vmscan_events && !c->quiet)
		fprintf(stderr,
			"vmscan-analyze: %s: no vmscan event this tool reads in %" PRIu64 " %s: "
			"%" PRIu64 " of vmscan events it does not know (input.sources[]."
			"unknown_vmscan_events_by_name)\n",
			path, k->lines_read, traits->tracedat_version ? "records" : "lines",
			k->unknown_vmscan_events);
	else if (k->lines_analyzed == 0 && !c->quiet)
		fprintf(stderr,
			"vmscan-analyze: %s: no vmscan events in %" PRIu64 " %s (were the vmscan "
			"events enabled?)\n",
			path, k->lines_read, traits->tracedat_version ? "records" : "lines");
	if (all_headless && !c->quiet)
		fprintf(stderr,
			"vmscan-analyze: %s: its rejected lines begin with the event's name, "
			"without the task-pid, [CPU] and timestamp columns: the trace was recorded "
			"with tracefs' options/context-info set to 0; record it with 1 (the "
			"default)\n",
			path);
	if (traits->tracedat_short) {
		c->short_inputs++;
		if (!c->quiet)
			fprintf(stderr,
				"vmscan-analyze: %s: %" PRIu64 " CPU(s) of the file were not read to "
				"the end of their data (a damaged page, a block that does not "
				"decompress, or another CPU's data): events are missing, how many "
				"is unknown\n",
				path, traits->tracedat_short);
	}
	if (traits->wrapped_events && !c->quiet)
		fprintf(stderr,
			"vmscan-analyze: %s: the trace looks wrapped: %" PRIu64 " events are broken "
			"over several lines%s\n",
			path, traits->wrapped_events,
			c->unwrap ? " that --unwrap could not join" : "; try --unwrap");
	if (traits->unwrapped_events && !c->quiet)
		fprintf(stderr,
			"vmscan-analyze: %s: --unwrap joined %" PRIu64 " events broken over "
			"several lines (%" PRIu64 " lines went on their first)\n",
			path, traits->unwrapped_events, traits->unwrapped_lines);
}

static struct vmsa_analyze_options analyze_options(struct cli *c)
{
	const char *pi = getenv("VMSA_PROGRESS_INTERVAL");
	return (struct vmsa_analyze_options){
		.threads = c->threads,
		.unwrap = c->unwrap,
		/* this program reads trace.dat files too (main.c) */
		.tracedat_reader = "/proc/self/exe",
		.filter = c->filter,
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
		.interval_report = interval_report,
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
		if (err == VMSA_E_DECOMPRESS && res->why)
			fprintf(stderr, "vmscan-analyze: %s: %s at byte %" PRIu64 " (of the compressed input)\n",
				what, res->why, res->offset);
		else if (err == VMSA_E_UNSUPPORTED)
			fprintf(stderr, "vmscan-analyze: %s: %s input is not supported; convert it "
					"to text first (perf script)\n", what, res->format);
		else
			cli_error(what, err, res->sys_errno);
		return cli_status(err, CLI_INPUT);
	case VMSA_ANALYZE_ADD:
		if (err == VMSA_E_OVERFLOW) {
			/* (a wrapped sum would be a small number that looks right) */
			fprintf(stderr, "vmscan-analyze: %s: a count of the trace would pass 2^64 - 1 "
					"(its events' values add up past what 64 bits hold): the "
					"analysis stops\n", what);
			return EXIT_OVERFLOW;
		}
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
	o.cgroups = c->cgroups;
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
		/* (check and compare read no task rows; merge makes them) */
		if (!err)
			err = vmsa_doc_from_summary_take(out, sum);
		if (err)
			cli_error(NULL, err, 0);
		status = cli_status(err, CLI_OUTPUT);
	}
	vmsa_stats_free(st);
	return status;
}

/*
 * JSON that json-c reads but that is not a summary's JSON (NaN, Infinity, an
 * integer past 2^64 - 1: vmsa_json_bad_number()) in the file f: true, and
 * where into buf ("line L, column C: why").
 */
static bool bad_number_at(FILE *f, char *buf, size_t n)
{
	char *text = NULL;
	size_t cap = 0, len = 0, got;
	if (fseek(f, 0, SEEK_SET))
		return false;
	do {
		if (len + 65536 + 1 > cap) {
			char *t = realloc(text, cap = 2 * cap + 65536 + 1);
			if (!t) {
				free(text);
				return false;
			}
			text = t;
		}
		len += got = fread(text + len, 1, cap - 1 - len, f);
	} while (got);
	text[len] = '\0';
	const char *why, *at = vmsa_json_bad_number(text, len, &why);
	if (at) {
		size_t line = 1, col = 1;
		for (const char *p = text; p < at; p++)
			if (*p == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		snprintf(buf, n, "line %zu, column %zu: %s", line, col, why);
	}
	free(text);
	return at != NULL;
}

/*
 * Where the JSON of the file at path stops being JSON, as "line L, column C:
 * what json-c says" into buf; false when it is JSON (or cannot be read).
 */
static bool json_error_at(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	/* (a compressed summary's place would be one in its compressed bytes) */
	int c0;
	while ((c0 = getc(f)) == ' ' || c0 == '\t' || c0 == '\n' || c0 == '\r')
		;
	if (c0 != '{' || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return false;
	}
	struct json_tokener *tok = json_tokener_new();
	char chunk[65536];
	size_t got, line = 1, col = 1;
	enum json_tokener_error err = json_tokener_continue;
	struct json_object *v = NULL;
	bool after = false; /* text after the value */
	while (tok && !after && (got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		size_t end = got;
		if (!v) {
			v = json_tokener_parse_ex(tok, chunk, (int)got);
			err = json_tokener_get_error(tok);
			if (err != json_tokener_continue)
				end = json_tokener_get_parse_end(tok);
		}
		for (size_t i = 0; i < got && !after; i++) {
			if (v && i >= end && chunk[i] != ' ' && chunk[i] != '\t' && chunk[i] != '\n' &&
			    chunk[i] != '\r') {
				after = true;
				break;
			}
			if (!v && i >= end)
				break;
			if (chunk[i] == '\n') {
				line++;
				col = 1;
			} else {
				col++;
			}
		}
		if (!v && err != json_tokener_continue)
			break;
	}
	bool bad = tok && (!v || after);
	if (tok && !bad)
		bad = bad_number_at(f, buf, n);
	fclose(f);
	if (after)
		snprintf(buf, n, "line %zu, column %zu: more after the document's end (two in one file?)",
			 line, col);
	else if (bad && err == json_tokener_continue)
		snprintf(buf, n, "line %zu, column %zu: the JSON ends before it is whole", line, col);
	else if (bad && v)
		; /* (bad_number_at() said where) */
	else if (bad)
		snprintf(buf, n, "line %zu, column %zu: %s", line, col, json_tokener_error_desc(err));
	json_object_put(v);
	if (tok)
		json_tokener_free(tok);
	return bad;
}

/*
 * The pipes given by a path (/dev/fd/N, as a shell's <(...) makes, or
 * /dev/stdin), opened to be looked at and kept open until the program
 * ends: a pipe whose only reader closed it would end its writer (SIGPIPE)
 * before the path is opened again to be read.
 */
static struct held_pipe {
	char *path;
	int fd;
} *held;
static size_t nheld;

/* An anonymous pipe (pipefs, whose open never waits for a writer), not a
 * named FIFO (opened and closed here, it would take its writer's open) */
static bool anonymous_pipe(const char *path)
{
	struct stat s, p;
	int fds[2];
	if (stat(path, &s) || !S_ISFIFO(s.st_mode) || pipe(fds))
		return false;
	bool same = fstat(fds[0], &p) == 0 && p.st_dev == s.st_dev;
	close(fds[0]);
	close(fds[1]);
	return same;
}

int cli_detect(const char *path, enum vmsa_input_kind *kind)
{
	if (!strcmp(path, "-") || !anonymous_pipe(path))
		return vmsa_input_detect_path(path, kind);
	for (size_t i = 0; i < nheld; i++)
		if (!strcmp(held[i].path, path))
			return vmsa_input_detect_fd(held[i].fd, kind);
	struct held_pipe *h = realloc(held, (nheld + 1) * sizeof(*h));
	if (!h)
		return VMSA_E_NOMEM;
	held = h;
	h = &held[nheld];
	if (!(h->path = strdup(path)))
		return VMSA_E_NOMEM;
	h->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (h->fd < 0) {
		free(h->path);
		return VMSA_E_IO;
	}
	nheld++;
	return vmsa_input_detect_fd(h->fd, kind);
}

void cli_release_pipes(void)
{
	for (size_t i = 0; i < nheld; i++) {
		close(held[i].fd);
		free(held[i].path);
	}
	free(held);
	held = NULL;
	nheld = 0;
}

int cli_load_doc(struct cli *c, const char *path, bool rows, struct vmsa_doc **out)
{
	*out = NULL;
	enum vmsa_input_kind kind;
	/* one that cannot be read is left to the analysis, which says why */
	if (cli_detect(path, &kind) || kind != VMSA_INPUT_SUMMARY)
		return analyze_doc(c, path, out);
	int err = rows ? vmsa_doc_parse_file(out, path) : vmsa_doc_parse_file_no_rows(out, path);
	char where[600];
	/* a summary edited by hand, or damaged: every field of its type */
	if (!err && (err = vmsa_doc_validate(*out, where, sizeof(where)))) {
		fprintf(stderr, "vmscan-analyze: %s: not a valid summary: %s\n", path, where);
		vmsa_doc_free(*out);
		*out = NULL;
		return cli_status(err, CLI_SUMMARY);
	}
	if (err == VMSA_E_CORRUPT && json_error_at(path, where, sizeof(where)))
		fprintf(stderr, "vmscan-analyze: %s: not valid JSON at %s\n", path, where);
	else if (err)
		fprintf(stderr, "vmscan-analyze: %s: %s\n", path,
			err == VMSA_E_UNSUPPORTED
				? "not a vmscan-analyze JSON summary of schema version 1"
				: vmsa_strerror(err));
	return cli_status(err, CLI_SUMMARY);
}
