/* SPDX-License-Identifier: MIT */
/* The options, shared by every subcommand, and --help. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage_text[] =
	"Usage: vmscan-analyze [OPTIONS] [FILE...]\n"
	"       vmscan-analyze live [OPTIONS]\n"
	"       vmscan-analyze merge [--pretty] INPUT...\n"
	"       vmscan-analyze compare [--name NAME]... [--group NAME=PATH,...]... [--relative]\n"
	"                              [--svg FILE] INPUT...\n"
	"       vmscan-analyze check [-t EXPR]... [--thresholds FILE] [--junit FILE] INPUT\n"
	"Summarise Linux page-reclaim (vmscan) tracepoints: per-process direct reclaim,\n"
	"per-kswapd activity, memcg/node and page-list reclaim, throttling and latencies.\n"
	"\n"
	"FILE is ftrace text (trace, trace_pipe, trace-cmd report), perf script\n"
	"output or a binary trace.dat (recognised by its content), plain or\n"
	"compressed with gzip, xz or zstd (recognised by its magic bytes, not its\n"
	"name); '-' or no FILE reads text from standard input, streaming (no FILE\n"
	"with a terminal on standard input is refused), a JSON summary there, or a\n"
	"trace.dat (copied into memory first).\n"
	"Several text files are one\n"
	"trace, merged in timestamp order (per-CPU splits, rotated logs); a trace.dat\n"
	"is read whole, on its own, where it stands among them ('-' is merged with\n"
	"the text files beside it, and refused among them if it holds a trace.dat).\n"
	"A FILE that is a JSON summary (or one compressed: s.json.gz) prints as the\n"
	"classic report of its trace\n"
	"(several: added up as merge does); only a trace gives the latency list,\n"
	"the filters and the SVG's timeline.\n"
	"Output files (--json, --svg, --latencies, --junit, --openmetrics-file) are\n"
	"checked before any input is read and replaced only when the command\n"
	"succeeds, all together once every one was written whole; one that is an\n"
	"input is refused (standard output, and the file on standard input, too),\n"
	"and so is an existing recorded trace unless --force.  The same file given\n"
	"twice as an input is refused (status 12).  A JSON summary is read only as\n"
	"the schema says (status 6 naming the field), through a pipe's path too\n"
	"(<(cat s.json), /dev/stdin).\n"
	"\n"
	"compare prints the inputs (traces or JSON summaries) side by side in the\n"
	"rows of the 2010 cover letter's tables, then 6.1's and derived rows; the\n"
	"columns are named by --name, in order, or by the shortest path suffix that\n"
	"tells the inputs apart.  A directory INPUT or a --group is a column of runs\n"
	"(a directory's runs: runs/*/, or itself if it holds summary.json or\n"
	"trace.dat, or its subdirectories and *.json files); such a table shows each\n"
	"row's mean +- sample sd, the runs per column, and '*' where a mean differs\n"
	"from the first column's (Welch's t-test, two-sided, p < 0.05).\n"
	"merge adds JSON summaries (or traces) into one JSON summary.  check\n"
	"evaluates thresholds on one summary or trace: EXPR is 'A OP B' with OP one\n"
	"of < <= == != >= > and A, B a number, a field path or NUMBER * path, e.g.\n"
	"'totals.direct.writes.file_async == 0', 'latency.direct_stall_ns.p99_ns <\n"
	"5e6', 'totals.kswapd.writes.file_async <= 0.01 * totals.kswapd.pages_scanned'.\n"
	"A thresholds FILE has one EXPR a line ('#' starts a comment).  A path must\n"
	"be a numeric field of the summary schema.  A statistic of nothing (a p99\n"
	"of no stalls, none begun, no line rejected, no event lost) holds\n"
	"vacuously; a value the trace cannot tell (null; a p99 of reclaims that\n"
	"never ended) fails unless --missing=pass.  An input that holds no trace fails (status 9).\n"
	"\n"
	"live traces the running kernel (root, tracefs): it enables the vmscan\n"
	"events in a tracefs instance of its own, reads the raw records, and removes\n"
	"the instance when it stops (end of --duration, SIGINT twice, SIGTERM).\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT          report format: classic (default), json, openmetrics\n"
	"                            (vmscan_* metrics) or prometheus (the same metrics\n"
	"                            in Prometheus text format 0.0.4); check: json prints\n"
	"                            the verdicts as one JSON document\n"
	"      --openmetrics-file FILE  also write the metrics to FILE, replaced whole\n"
	"                            (temporary file, fsync, rename; a device or FIFO is\n"
	"                            written as it is), in the Prometheus text format\n"
	"                            node_exporter's textfile collector reads;\n"
	"                            with --interval, rewritten every SEC seconds with\n"
	"                            the counts since the start instead of printing a\n"
	"                            report\n"
	"  -j, --json FILE           also write the JSON summary to FILE\n"
	"      --svg FILE            also draw pages scanned over time, stalls and the\n"
	"                            stall distribution into FILE (SVG); compare: each\n"
	"                            row's runs as dots, the means as bars\n"
	"      --pretty              indent JSON output\n"
	"      --ignore-pid          aggregate tasks of the same name\n"
	"      --latency-list        classic report: list every latency per task\n"
	"      --histogram           classic report: log2 histograms of direct reclaim\n"
	"                            stalls and kswapd awake time, overall and per task\n"
	"      --latencies FILE      write every completed reclaim and kswapd awake\n"
	"                            period to FILE as CSV: start_ns,end_ns,\n"
	"                            duration_ns,pid,cpu,comm,kind,order (ns)\n"
	"      --interval SEC        while streaming, print every SEC seconds a report of\n"
	"                            that interval alone (deltas that add up to the\n"
	"                            total), then the total; each after a line\n"
	"                            '=== vmscan-analyze interval N: trace A..B s, wall\n"
	"                            W0..W1 ===' ('total:' for the total); JSON: one\n"
	"                            line each, {\"interval\": {...}, \"summary\": {...}}\n"
	"      --force               let an output file replace a recorded trace\n"
	"      --duration SEC        live: stop after SEC seconds\n"
	"      --max-cgroups N       live: the metrics also count direct and memcg\n"
	"                            reclaim per cgroup (v2, read from /proc/PID/cgroup\n"
	"                            when a task first appears): vmscan_cgroup_* with a\n"
	"                            cgroup label, for the first N cgroups to reclaim\n"
	"                            (longest stalls first; default 10, 0: none), the\n"
	"                            rest as cgroup=\"other\", tasks that exited before\n"
	"                            they were read as cgroup=\"unknown\"\n"
	"      --listen ADDR:PORT    with --interval: also serve the metrics of the last\n"
	"                            interval over HTTP, GET /metrics (127.0.0.1:9101,\n"
	"                            :9101)\n"
	"  -t, --threshold EXPR      check: a threshold (repeatable)\n"
	"      --thresholds FILE     check: thresholds, one a line\n"
	"      --missing pass|fail   check: what a value the trace cannot tell gives\n"
	"                            (default fail)\n"
	"      --allow-empty         check: an input without vmscan events passes\n"
	"      --junit FILE          check: also write a JUnit XML report to FILE\n"
	"      --name NAME           compare: the next column's name (repeatable)\n"
	"      --relative            compare: show changes against the first column\n"
	"      --pid PID[,PID...]    analyse only the events of these pids (kswapd\n"
	"                            threads too); repeatable\n"
	"      --comm GLOB           only the events of tasks whose name matches GLOB\n"
	"                            (fnmatch: * ? [...]; '/' and '.' are ordinary)\n"
	"      --cpu LIST            only the events recorded on these CPUs (0,2-3)\n"
	"      --since SEC, --until SEC  only the events from / up to this trace time\n"
	"                            (seconds, as the trace's timestamp column); a\n"
	"                            reclaim cut by the window counts as an end without\n"
	"                            a begin or in progress at the end\n"
	"      --instance NAME       only the events (and lost-event markers) of the\n"
	"                            buffer instance NAME (trace-cmd record -B NAME;\n"
	"                            top: the top buffer); repeatable\n"
	"                            Events left out are counted as filtered.\n"
	"      --sort FIELD          classic: the process and kswapd tables by FIELD,\n"
	"                            largest first: reclaims, pages_scanned,\n"
	"                            pages_reclaimed, latency_ns, ... (see the man page)\n"
	"      --top N               classic: at most N rows a table (by --sort, else\n"
	"                            latency_ns), the rest added up in one row\n"
	"      --group NAME=PATH,... compare: a column NAME of the runs PATH,... (files,\n"
	"                            or run directories); after the INPUT columns\n"
	"      --max-tasks N         keep at most N task rows (default 100000); later\n"
	"                            tasks are counted together as \"(other tasks)\"\n"
	"                            (kswapd threads keep their own rows)\n"
	"      --threads N           decode a text file with N threads (default: the\n"
	"                            number of CPUs, at most 16, for a file of 64 MiB\n"
	"                            or more, else 1; 1: no threads; merged text\n"
	"                            files share them)\n"
	"      --unwrap              join events broken over several lines (a trace\n"
	"                            pasted into a mail): a line that does not begin\n"
	"                            like a trace line and holds fields (k=v, or\n"
	"                            mm_shrink_slab_*'s labels) goes on the one\n"
	"                            before when the joined line is an event; a hard\n"
	"                            wrap (fold -w 80) is joined without spaces\n"
	"                            (text; no threads)\n"
	"      --strict              exit with status 4 if any line was rejected or\n"
	"                            a trace.dat was not read whole (check: status 9)\n"
	"      --max-messages N      show at most N rejected-line messages (default 20)\n"
	"  -q, --quiet               no rejected-line messages (they are still counted)\n"
	"                            nor an input's end line (merge, check, compare\n"
	"                            show only the end line without it)\n"
	"  -h, --help                show this help\n"
	"  -V, --version             show the version\n"
	"An option that does not apply to the subcommand or the format is a usage\n"
	"error.\n"
	"\n"
	"Files over 4 MB show a progress line on stderr when it is a terminal,\n"
	"every VMSA_PROGRESS_INTERVAL seconds (default 0.5).\n"
	"\n"
	"Streaming: the first SIGINT prints a report and reading goes on; a second\n"
	"SIGINT within 2 seconds prints the final report and exits.  SIGTERM (and\n"
	"SIGHUP) prints the final report and exits; an input so cut, a file or a\n"
	"pipe, is noted stopped_before_end.  check stops on any of them without a\n"
	"verdict (status 11).  Each report after a SIGINT's, the final one\n"
	"too, is headed '=== vmscan-analyze total: ...' (with --format json: one\n"
	"line each, {\"interval\": {\"kind\": \"total\", \"final\": false|true, ...},\n"
	"\"summary\": ...}).\n"
	"\n"
	"Exit status: 0 success; 1 runtime error (memory, output); 2 usage error;\n"
	"3 input cannot be opened or read; 4 lines were rejected (or a trace.dat not\n"
	"read whole) and --strict was given; 5 input format not supported (perf.data, trace.dat on standard\n"
	"input, a library it needs cannot be loaded); 6 a trace.dat is truncated or corrupt,\n"
	"a JSON input is not a summary (or its counts add up past 2^64 - 1); 7 live tracing is\n"
	"unavailable (not root, no tracefs); 8 check: a threshold is violated;\n"
	"9 check: the input holds no trace (unreadable as a trace or not read whole,\n"
	"no vmscan events, or rejected lines with --strict); 10 a compressed input is truncated or\n"
	"corrupt (the message names the file and the byte); 11 check: interrupted\n"
	"by a signal before its verdict (never a pass); 12 the same file given twice\n"
	"as an input (it would be counted twice); 13 a count of a trace would pass\n"
	"2^64 - 1.\n";

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

/* Appends arg to a repeated option's list; -1 when out of memory (the list stays). */
static int append(const char ***list, int *n, const char *arg)
{
	const char **l = realloc(*list, (size_t)(*n + 1) * sizeof(**list));
	if (!l)
		return -1;
	l[(*n)++] = arg;
	*list = l;
	return 0;
}

#define READERS (SUB_ANALYZE | SUB_LIVE)	/* the subcommands that print a report */
#define ALL (SUB_ANALYZE | SUB_LIVE | SUB_MERGE | SUB_COMPARE | SUB_CHECK)

enum { O_PRETTY = 256, O_IGNORE_PID, O_LAT_LIST, O_LATENCIES, O_INTERVAL, O_STRICT,
       O_MAXMSG, O_DURATION, O_THRESHOLDS, O_NAME, O_RELATIVE, O_HISTOGRAM, O_SVG,
       O_MAXTASKS, O_THREADS, O_FORCE, O_ALLOW_EMPTY, O_MISSING, O_JUNIT, O_METRICS_FILE,
       O_UNWRAP, O_PID, O_COMM, O_CPU, O_SINCE, O_UNTIL, O_INSTANCE, O_SORT, O_TOP, O_MAX_CGROUPS, O_LISTEN,
       O_GROUP };

/* Every option, with the subcommands it applies to (the others refuse it). */
static const struct {
	struct option o;
	unsigned subs;
} options[] = {
	{{"format", required_argument, NULL, 'f'}, READERS | SUB_MERGE | SUB_COMPARE | SUB_CHECK},
	{{"json", required_argument, NULL, 'j'}, READERS},
	{{"pretty", no_argument, NULL, O_PRETTY}, READERS | SUB_MERGE | SUB_COMPARE},
	{{"ignore-pid", no_argument, NULL, O_IGNORE_PID}, READERS},
	{{"latency-list", no_argument, NULL, O_LAT_LIST}, READERS},
	{{"histogram", no_argument, NULL, O_HISTOGRAM}, READERS},
	{{"svg", required_argument, NULL, O_SVG}, READERS | SUB_COMPARE},
	{{"openmetrics-file", required_argument, NULL, O_METRICS_FILE}, READERS | SUB_MERGE},
	{{"latencies", required_argument, NULL, O_LATENCIES}, READERS},
	{{"interval", required_argument, NULL, O_INTERVAL}, READERS},
	{{"duration", required_argument, NULL, O_DURATION}, SUB_LIVE},
	{{"max-cgroups", required_argument, NULL, O_MAX_CGROUPS}, SUB_LIVE},
	{{"listen", required_argument, NULL, O_LISTEN}, READERS},
	{{"threshold", required_argument, NULL, 't'}, SUB_CHECK},
	{{"thresholds", required_argument, NULL, O_THRESHOLDS}, SUB_CHECK},
	{{"missing", required_argument, NULL, O_MISSING}, SUB_CHECK},
	{{"allow-empty", no_argument, NULL, O_ALLOW_EMPTY}, SUB_CHECK},
	{{"junit", required_argument, NULL, O_JUNIT}, SUB_CHECK},
	{{"name", required_argument, NULL, O_NAME}, SUB_COMPARE},
	{{"relative", no_argument, NULL, O_RELATIVE}, SUB_COMPARE},
	{{"group", required_argument, NULL, O_GROUP}, SUB_COMPARE},
	{{"force", no_argument, NULL, O_FORCE}, READERS | SUB_MERGE | SUB_COMPARE | SUB_CHECK},
	{{"strict", no_argument, NULL, O_STRICT}, READERS | SUB_CHECK},
	{{"max-messages", required_argument, NULL, O_MAXMSG}, READERS},
	{{"pid", required_argument, NULL, O_PID}, READERS},
	{{"comm", required_argument, NULL, O_COMM}, READERS},
	{{"cpu", required_argument, NULL, O_CPU}, READERS},
	{{"since", required_argument, NULL, O_SINCE}, READERS},
	{{"until", required_argument, NULL, O_UNTIL}, READERS},
	{{"instance", required_argument, NULL, O_INSTANCE}, SUB_ANALYZE},
	{{"sort", required_argument, NULL, O_SORT}, READERS},
	{{"top", required_argument, NULL, O_TOP}, READERS},
	{{"max-tasks", required_argument, NULL, O_MAXTASKS}, ALL},
	{{"threads", required_argument, NULL, O_THREADS}, ALL & ~SUB_LIVE},
	{{"unwrap", no_argument, NULL, O_UNWRAP}, ALL & ~SUB_LIVE},
	{{"quiet", no_argument, NULL, 'q'}, ALL},
	{{"help", no_argument, NULL, 'h'}, ALL},
	{{"version", no_argument, NULL, 'V'}, ALL},
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* ---- record filters and the order of the task tables ---------------- */

/* --pid, --comm, --cpu, --since, --until, --instance into c's filter; an exit status or -1. */
static int filter_option(struct cli *c, int opt, const char *arg)
{
	static const struct {
		int opt;
		enum vmsa_filter_kind kind;
		const char *name, *wants;
	} kinds[] = {
		{O_PID, VMSA_FILTER_PID, "--pid", "PID[,PID...]"},
		{O_COMM, VMSA_FILTER_COMM, "--comm", "a pattern"},
		{O_CPU, VMSA_FILTER_CPU, "--cpu", "a CPU list such as 0,2-3"},
		{O_SINCE, VMSA_FILTER_SINCE, "--since", "seconds of trace time, at most --until"},
		{O_UNTIL, VMSA_FILTER_UNTIL, "--until", "seconds of trace time, at least --since"},
		{O_INSTANCE, VMSA_FILTER_INSTANCE, "--instance", "a buffer instance's name, or top"},
	};
	size_t i = 0;
	while (kinds[i].opt != opt)
		i++;
	int err = c->filter ? 0 : vmsa_filter_new(&c->filter);
	if (!err)
		err = vmsa_filter_add(c->filter, kinds[i].kind, arg);
	if (err == VMSA_E_INVAL) {
		fprintf(stderr, "vmscan-analyze: %s wants %s, not '%s'\n", kinds[i].name,
			kinds[i].wants, arg);
		return EXIT_USAGE;
	}
	return err ? EXIT_RUNTIME : -1;
}

/* --sort FIELD: one of vmsa_sort_field()'s; an exit status or -1. */
static int sort_option(struct cli *c, const char *arg)
{
	for (size_t i = 0; vmsa_sort_field(i); i++)
		if (!strcmp(vmsa_sort_field(i), arg)) {
			c->sort = vmsa_sort_field(i);
			return -1;
		}
	fprintf(stderr, "vmscan-analyze: --sort: unknown field '%s'; one of:", arg);
	for (size_t i = 0; vmsa_sort_field(i); i++)
		fprintf(stderr, " %s", vmsa_sort_field(i));
	fputs("\n", stderr);
	return EXIT_USAGE;
}

/* The index in options[] of the option getopt_long() returned as val. */
static size_t option_index(int val)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].o.val == val)
			return i;
	return NOPTIONS;
}

static bool given(const struct cli *c, int val)
{
	return c->given >> option_index(val) & 1;
}

static const char *sub_name(enum cli_sub sub)
{
	switch (sub) {
	case SUB_LIVE: return "live";
	case SUB_MERGE: return "merge";
	case SUB_COMPARE: return "compare";
	case SUB_CHECK: return "check";
	default: return "the analysis";
	}
}

static int refuse(const char *option, const char *why)
{
	fprintf(stderr, "vmscan-analyze: %s %s\nTry 'vmscan-analyze --help'.\n", option, why);
	return EXIT_USAGE;
}

int cli_validate(const struct cli *c, enum cli_sub sub)
{
	char why[96];
	for (size_t i = 0; i < NOPTIONS; i++)
		if ((c->given >> i & 1) && !(options[i].subs & sub)) {
			snprintf(why, sizeof(why), "does not apply to %s", sub_name(sub));
			char name[40];
			snprintf(name, sizeof(name), "--%s", options[i].o.name);
			return refuse(name, why);
		}
	bool json = !strcmp(c->format, "json");
	enum vmsa_metrics_format mf;
	bool metrics = cli_metrics_format(c->format, &mf);
	if (sub == SUB_MERGE && given(c, 'f') && !json && !metrics)
		return refuse("--format", "classic does not apply to merge (it writes JSON or metrics)");
	if ((sub == SUB_COMPARE || sub == SUB_CHECK) && metrics)
		return refuse("--format", "openmetrics and prometheus apply to the analysis and merge");
	if (sub == SUB_COMPARE && c->relative && json)
		return refuse("--relative", "does not apply to --format json");
	if (sub == SUB_COMPARE && c->pretty && !json)
		return refuse("--pretty", "applies to --format json only");
	if (!(sub & READERS))
		return EXIT_OK;
#ifndef VMSA_HAVE_MICROHTTPD
	if (c->listen)
		return refuse("--listen", "is not available: this vmscan-analyze was built without "
					  "libmicrohttpd");
#endif
	if (c->listen && !(c->interval > 0))
		return refuse("--listen", "needs --interval SEC (how often the metrics it serves are "
					  "renewed)");
	if (given(c, O_MAX_CGROUPS) && !metrics && !c->metrics_path && !c->listen)
		return refuse("--max-cgroups", "applies to the metrics (--format openmetrics or "
					       "prometheus, --openmetrics-file, --listen)");
	if (given(c, O_MAX_CGROUPS) && c->ignore_pid)
		return refuse("--max-cgroups", "cannot be combined with --ignore-pid (a cgroup is "
					       "found by pid)");
	if (c->pretty && !json && !c->json_out.path)
		return refuse("--pretty", "applies to JSON output only (--format json, --json)");
	if (c->pretty && json && c->interval > 0)
		return refuse("--pretty", "does not apply to --interval with --format json (one "
					  "JSON document a line)");
	/* (not only json: the metrics formats have no room for them either) */
	if (c->latency_list && strcmp(c->format, "classic"))
		return refuse("--latency-list", "applies to the classic format only");
	if (c->histogram && strcmp(c->format, "classic"))
		return refuse("--histogram", "applies to the classic format only");
	if ((c->sort || c->top) && strcmp(c->format, "classic"))
		return refuse(c->sort ? "--sort" : "--top",
			      "applies to the classic format only (JSON keeps every row)");
	if (c->latency_list && c->ignore_pid)
		return refuse("--ignore-pid", "cannot be combined with --latency-list (the list is "
					      "per task)");
	return EXIT_OK;
}

int cli_parse(struct cli *c, int argc, char **argv, int *first)
{
	*c = (struct cli){.format = "classic",
			  .max_messages = 20,
			  .max_cgroups = 10,
			  .last_int = -1,
			  .json_out.option = "--json",
			  .svg_out.option = "--svg",
			  .lat_out.option = "--latencies",
			  .junit_out.option = "--junit",
			  .metrics_out.option = "--openmetrics-file"};
	c->threads = 0; /* auto: vmsa_source_set_threads() */
	struct option longopts[NOPTIONS + 1];
	for (size_t i = 0; i < NOPTIONS; i++)
		longopts[i] = options[i].o;
	longopts[NOPTIONS] = (struct option){NULL, 0, NULL, 0};
	int opt, status;
	long long v;
	while ((opt = getopt_long(argc, argv, "f:j:t:qhV", longopts, NULL)) != -1) {
		size_t idx = option_index(opt);
		if (idx < NOPTIONS)
			c->given |= 1ull << idx;
		switch (opt) {
		case 'f':
			c->format = optarg;
			if (strcmp(optarg, "classic") && strcmp(optarg, "json") &&
			    strcmp(optarg, "openmetrics") && strcmp(optarg, "prometheus")) {
				fprintf(stderr, "vmscan-analyze: unknown format '%s' (classic, json, "
						"openmetrics, prometheus)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			c->json_out.path = optarg;
			break;
		case O_PRETTY:
			c->pretty = true;
			break;
		case O_IGNORE_PID:
			c->ignore_pid = true;
			break;
		case O_LAT_LIST:
			c->latency_list = true;
			break;
		case O_HISTOGRAM:
			c->histogram = true;
			break;
		case O_SVG:
			c->svg_out.path = optarg;
			break;
		case O_LATENCIES:
			c->lat_out.path = optarg;
			break;
		case O_JUNIT:
			c->junit_out.path = optarg;
			break;
		case O_FORCE:
			c->force = true;
			break;
		case O_ALLOW_EMPTY:
			c->allow_empty = true;
			break;
		case O_MISSING:
			if (!strcmp(optarg, "pass"))
				c->missing = MISSING_PASS;
			else if (!strcmp(optarg, "fail"))
				c->missing = MISSING_FAIL;
			else {
				fprintf(stderr, "vmscan-analyze: --missing wants pass or fail\n");
				return EXIT_USAGE;
			}
			break;
		case O_METRICS_FILE:
			c->metrics_path = c->metrics_out.path = optarg;
			break;
		case O_MAX_CGROUPS:
			if (!count_arg(optarg, 0, 100000, &v)) {
				fprintf(stderr, "vmscan-analyze: --max-cgroups wants a count from 0 to "
						"100000\n");
				return EXIT_USAGE;
			}
			c->max_cgroups = (size_t)v;
			break;
		case O_LISTEN:
			c->listen = optarg;
			break;
		case O_INTERVAL:
			if (!seconds_arg(optarg, &c->interval)) {
				fprintf(stderr, "vmscan-analyze: --interval wants seconds > 0\n");
				return EXIT_USAGE;
			}
			break;
		case O_DURATION:
			if (!seconds_arg(optarg, &c->duration)) {
				fprintf(stderr, "vmscan-analyze: --duration wants seconds > 0\n");
				return EXIT_USAGE;
			}
			break;
		case 't':
			if (append(&c->thresholds, &c->nthresholds, optarg))
				return EXIT_RUNTIME;
			break;
		case O_THRESHOLDS:
			c->thresholds_file = optarg;
			break;
		case O_NAME:
			if (append(&c->names, &c->nnames, optarg))
				return EXIT_RUNTIME;
			break;
		case O_RELATIVE:
			c->relative = true;
			break;
		case O_GROUP:
			if (append(&c->groups, &c->ngroups, optarg))
				return EXIT_RUNTIME;
			break;
		case O_STRICT:
			c->strict = true;
			break;
		case O_UNWRAP:
			c->unwrap = true;
			break;
		case O_MAXMSG:
			if (!count_arg(optarg, 0, LONG_MAX, &v)) {
				fprintf(stderr, "vmscan-analyze: --max-messages wants a count\n");
				return EXIT_USAGE;
			}
			c->max_messages = (long)v;
			break;
		case O_PID:
		case O_COMM:
		case O_CPU:
		case O_SINCE:
		case O_UNTIL:
		case O_INSTANCE:
			if ((status = filter_option(c, opt, optarg)) >= 0)
				return status;
			break;
		case O_SORT:
			if ((status = sort_option(c, optarg)) >= 0)
				return status;
			break;
		case O_TOP:
			if (!count_arg(optarg, 1, LLONG_MAX, &v)) {
				fprintf(stderr, "vmscan-analyze: --top wants a count >= 1\n");
				return EXIT_USAGE;
			}
			c->top = (size_t)v;
			break;
		case O_MAXTASKS:
			if (!count_arg(optarg, 1, LLONG_MAX, &v)) {
				fprintf(stderr, "vmscan-analyze: --max-tasks wants a count >= 1\n");
				return EXIT_USAGE;
			}
			c->max_tasks = (size_t)v;
			break;
		case O_THREADS:
			if (!count_arg(optarg, 1, 16, &v)) {
				fprintf(stderr, "vmscan-analyze: --threads wants a count from 1 to 16\n");
				return EXIT_USAGE;
			}
			c->threads = (int)v;
			break;
		case 'q':
			c->quiet = true;
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

	*first = optind;
	return -1;
}
