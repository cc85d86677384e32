/* SPDX-License-Identifier: MIT */
/* The fields of a JSON summary (summary_fields.h): one table for all. */
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "summary_fields.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SHAPE(id, label) \
	static const struct vmsa_shape id = {label, id##_members, N(id##_members)}

/* the members of the lists of summary_fields.h */
#define MEMBER(k, kind, d, value) {.key = k, kind, .doc = d},
#define MEMBER_OPT(k, kind, d, value) {.key = k, kind, .optional = true, .doc = d},
#define COUNTER(type, member, k, unit, d) {.key = k, VF_SUM(unit), .doc = d},
#define COUNTER_NULL(type, member, k, unit, d) {.key = k, VF_SUM_NULL(unit), .doc = d},
#define QUANTILE(k, q) \
	{.key = k, VF_RULE_NULL(NS, DERIVED), \
	 .doc = "a percentile: its bucket's upper bound, held within min_ns..max_ns (null when empty)"},
#define INCLUDE(s) {.key = NULL, .shape = &s}

/* ---- small objects -------------------------------------------------- */

static const struct vmsa_field by_order_members[] = {
	{.key = "*", VF_SUM(COUNT), .optional = true,
	 .doc = "count per allocation order (`\"0\"`..`\"20\"`, only non-zero)"},
};
SHAPE(by_order, "by_order");

static const struct vmsa_field bucket_members[] = {VMSA_BUCKET_FIELDS(MEMBER)};
SHAPE(bucket, NULL);

#define QUANTILE_KEY(k, q) {k, q},
const struct vmsa_quantile_key vmsa_hist_quantile_keys[3] = {VMSA_HIST_QUANTILES(QUANTILE_KEY)};

/* merged as a whole (merge_hist), the rules say what each member becomes */
static const struct vmsa_field hist_members[] = {VMSA_HIST_FIELDS(MEMBER, QUANTILE)};
SHAPE(hist, "hist");

static const struct vmsa_field writes_members[] = {VMSA_WRITES_FIELDS(MEMBER)};
SHAPE(writes, "writes");

static const struct vmsa_field throttle_one_members[] = {VMSA_THROTTLE_ONE_FIELDS(MEMBER)};
SHAPE(throttle_one, "throttle_one");

/* by enum vmsa_throttle, as vmsa_throttle_name() calls them */
static const struct vmsa_field throttled_members[] = {
#define THROTTLE_MEMBER(e, kname, name, meaning) {.key = name, VF_OBJ(throttle_one), .doc = meaning},
	VMSA_THROTTLE_REASONS(THROTTLE_MEMBER)
#undef THROTTLE_MEMBER
};
SHAPE(throttled, "throttled");

static const struct vmsa_field flusher_one_members[] = {VMSA_FLUSHER_ONE_FIELDS(MEMBER)};
SHAPE(flusher_one, NULL);

/* by enum vmsa_flush_reason, as vmsa_flush_reason_name() calls them */
static const struct vmsa_field flusher_members[] = {
#define FLUSH_MEMBER(e, name, meaning) {.key = name, VF_OBJ(flusher_one), .doc = meaning},
	VMSA_FLUSH_REASONS(FLUSH_MEMBER)
#undef FLUSH_MEMBER
};
SHAPE(flusher, NULL);

static const struct vmsa_field writeback_one_members[] = {VMSA_WRITEBACK_ONE_FIELDS(MEMBER)};
SHAPE(writeback_one, NULL);

/* by enum vmsa_wb_reason, as vmsa_wb_reason_name() calls them */
static const struct vmsa_field writeback_members[] = {
#define WB_MEMBER(e, name) {.key = name, VF_OBJ(writeback_one), .doc = "reason " name},
	VMSA_WB_REASONS(WB_MEMBER)
#undef WB_MEMBER
	VMSA_WRITEBACK_FIELDS(MEMBER)
};
SHAPE(writeback, NULL);

static const struct vmsa_field reclaim_pages_members[] = {VMSA_RECLAIM_PAGES_FIELDS(MEMBER)};
SHAPE(reclaim_pages, "reclaim_pages");

/* ---- reclaim contexts --------------------------------------------- */

static const struct vmsa_field ctx_members[] = {VMSA_CTX_FIELDS(MEMBER, COUNTER, COUNTER_NULL, COUNTER_NULL, COUNTER_NULL, COUNTER_NULL)};
SHAPE(ctx, "ctx");

static const struct vmsa_field ctx_windowed_members[] = {
	VMSA_CTX_WINDOW(COUNTER)
	INCLUDE(ctx),
};
SHAPE(ctx_windowed, "ctx_windowed");

static const struct vmsa_field ctx_window_order_members[] = {
	INCLUDE(ctx_windowed),
	VMSA_CTX_ORDER_FIELDS(MEMBER)
};
SHAPE(ctx_window_order, "ctx_window_order");

static const struct vmsa_field kswapd_totals_members[] = {
	INCLUDE(ctx),
	VMSA_KSWAPD_TOTALS_FIELDS(MEMBER)
};
SHAPE(kswapd_totals, "kswapd_totals");

static const struct vmsa_field kswapd_reclaim_members[] = {
	INCLUDE(ctx),
	VMSA_KSWAPD_RECLAIM_FIELDS(MEMBER)
};
SHAPE(kswapd_reclaim, "kswapd_reclaim");

/* ---- input ------------------------------------------------------------ */

#define REJECTED(name, k, msg) {.key = k, VF_SUM(COUNT), .doc = msg},
static const struct vmsa_field rejected_members[] = {VMSA_REJECT_REASONS(REJECTED)};
SHAPE(rejected, NULL);

static const struct vmsa_field lru_name_members[] = {VMSA_LRU_NAME_FIELDS(MEMBER)};
SHAPE(lru_name, NULL);

static const struct vmsa_field event_names_members[] = {
	{.key = "*", VF_FIRST(COUNT), .optional = true,
	 .doc = "lines of an event name; `(other names)` takes the names past the first 15"},
};
SHAPE(event_names, NULL);

static const struct vmsa_field buffer_names_members[] = {
	{.key = "*", VF_FIRST(COUNT), .optional = true,
	 .doc = "events and lost-event markers of a buffer: `top`, or an instance's name"},
};
SHAPE(buffer_names, NULL);

static const struct vmsa_field traits_members[] = {VMSA_TRAITS_FIELDS(MEMBER, MEMBER_OPT)};
SHAPE(traits, NULL);

static const struct vmsa_field per_cpu_members[] = {
	{.key = "*", VF_SUM(COUNT), .doc = "events lost on one CPU"},
};
SHAPE(per_cpu, NULL);

static const struct vmsa_field recording_members[] = {VMSA_RECORDING_FIELDS(MEMBER)};
SHAPE(recording, NULL);

/* a source is listed as it was read: its members are not merged */
static const struct vmsa_field source_members[] = {VMSA_SOURCE_FIELDS(MEMBER, MEMBER_OPT)};
SHAPE(source, "source");

static const struct vmsa_field input_members[] = {VMSA_INPUT_FIELDS(MEMBER)};
SHAPE(input, NULL);

/* ---- totals and latency --------------------------------------------- */

static const struct vmsa_field totals_members[] = {VMSA_TOTALS_FIELDS(MEMBER, MEMBER_OPT)};
SHAPE(totals, NULL);

static const struct vmsa_field latency_members[] = {VMSA_LATENCY_FIELDS(MEMBER)};
SHAPE(latency, NULL);

/* ---- task rows --------------------------------------------------------- */

static const struct vmsa_field process_members[] = {VMSA_PROCESS_FIELDS(MEMBER, MEMBER_OPT)};
SHAPE(process, "process");

static const struct vmsa_field kswapd_row_members[] = {VMSA_KSWAPD_ROW_FIELDS(MEMBER, MEMBER_OPT)};
SHAPE(kswapd_row, "kswapd");

/* ---- the document ----------------------------------------------------- */

static const struct vmsa_field tool_members[] = {VMSA_TOOL_FIELDS(MEMBER)};
SHAPE(tool, NULL);

static const struct vmsa_field note_members[] = {
	{.key = "*", VF_FIRST(TEXT), .doc = "`key: text`, one of the notes below"},
};
SHAPE(note, NULL);

static const struct vmsa_field root_members[] = {VMSA_ROOT_FIELDS(MEMBER, MEMBER)};
const struct vmsa_shape vmsa_summary_shape = {NULL, root_members, N(root_members)};

/* ---- notes ------------------------------------------------------------- */

static uint64_t sync_not_applicable(const struct vmsa_summary *sum)
{
	return !sum->totals.sync_applicable;
}

static uint64_t scans_missing(const struct vmsa_summary *sum)
{
	return (uint64_t)sum->totals.scans_missing;
}

static uint64_t slab_ends_missing(const struct vmsa_summary *sum)
{
	return (uint64_t)sum->slab_ends_missing;
}

static uint64_t reclaims_missing(const struct vmsa_summary *sum)
{
	return (uint64_t)sum->reclaims_missing;
}

static uint64_t went_backwards(const struct vmsa_summary *sum)
{
	return sum->negative_latencies;
}

static uint64_t tasks_folded(const struct vmsa_summary *sum)
{
	return sum->totals.tasks_folded;
}

/* A count of the sources' traits (the member at offset off), summed */
static uint64_t traits_sum(const struct vmsa_summary *sum, size_t off)
{
	uint64_t n = 0, v;
	for (size_t i = 0; i < sum->nsources; i++) {
		memcpy(&v, (const char *)&sum->sources[i].traits + off, sizeof(v));
		n += v;
	}
	return n;
}
#define TRAITS_SUM(sum, member) traits_sum(sum, offsetof(struct vmsa_traits, member))

static uint64_t writes_rejected(const struct vmsa_summary *sum)
{
	uint64_t n = TRAITS_SUM(sum, writes_rejected);
	/* (a summary read back knows the note, perhaps not the count) */
	return n ? n : sum->writes_unknown;
}

/* (stopped_before_end is 0 or 1 a source: the files cut) */
static uint64_t stopped_before_end(const struct vmsa_summary *sum)
{
	return TRAITS_SUM(sum, stopped_before_end);
}

static uint64_t tracedat_short(const struct vmsa_summary *sum)
{
	return TRAITS_SUM(sum, tracedat_short);
}

static uint64_t timestamps_integer(const struct vmsa_summary *sum)
{
	return TRAITS_SUM(sum, timestamps_integer);
}

static uint64_t timestamps_out_of_order(const struct vmsa_summary *sum)
{
	return TRAITS_SUM(sum, timestamps_out_of_order);
}

/* broken events of the sources read without --unwrap (with: unjoined) */
static uint64_t wrapped_of(const struct vmsa_summary *sum, bool unwrap)
{
	uint64_t n = 0;
	for (size_t i = 0; i < sum->nsources; i++)
		if ((sum->sources[i].traits.unwrap_on != 0) == unwrap)
			n += sum->sources[i].traits.wrapped_events;
	return n;
}

static uint64_t wrapped(const struct vmsa_summary *sum)
{
	return wrapped_of(sum, false);
}

static uint64_t unjoined(const struct vmsa_summary *sum)
{
	return wrapped_of(sum, true);
}

static uint64_t late(const struct vmsa_summary *sum)
{
	return TRAITS_SUM(sum, late_events);
}

static uint64_t events_lost(const struct vmsa_summary *sum)
{
	return sum->totals.lost_markers_without_count ? 0 : sum->totals.events_lost;
}

static uint64_t lost_unsaid(const struct vmsa_summary *sum)
{
	return sum->totals.lost_markers_without_count;
}

/* the most buffers one source has events of (traits.events_by_buffer); not
 * of a report of several files (several_report_files says what its names
 * are: the lines of a file's top buffer carry the file's name) */
static uint64_t buffers(const struct vmsa_summary *sum)
{
	uint64_t most = 0;
	for (size_t i = 0; i < sum->nsources; i++) {
		const struct vmsa_traits *t = &sum->sources[i].traits;
		if (t->report_files > 1)
			continue;
		uint64_t n = t->top_buffer_events > 0;
		for (int k = 0; k < VMSA_NAME_COUNTS; k++)
			n += t->instance_events[k].count > 0 &&
			     strcmp(t->instance_events[k].name, VMSA_TOP_BUFFER) != 0;
		most = n > most ? n : most;
	}
	return most > 1 ? most : 0;
}

/* the most trace.dat files one source is trace-cmd report of, when more than one */
static uint64_t report_files(const struct vmsa_summary *sum)
{
	uint64_t most = 0;
	for (size_t i = 0; i < sum->nsources; i++)
		if (sum->sources[i].traits.report_files > most)
			most = sum->sources[i].traits.report_files;
	return most > 1 ? most : 0;
}

#define NOTE(k, text) .key = k, .json = k ": " text
const struct vmsa_note vmsa_notes[] = {
	{NOTE("sync_io_not_applicable",
	      "this kernel's reclaim writes only asynchronously; sync counts are null"),
	 .report = {"this kernel's reclaim writes only asynchronously; sync I/O rows are 0 by "
		    "definition."},
	 .count = sync_not_applicable},
	{NOTE("scans_missing",
	      "reclaim events but no mm_vmscan_lru_isolate; pages scanned are unknown"),
	 .report = {"the trace has reclaim events but no mm_vmscan_lru_isolate events (not "
		    "enabled, or a multi-gen LRU kernel before 6.7): pages scanned are unknown, "
		    "not 0."},
	 .count = scans_missing},
	{NOTE("reclaims_missing",
	      "reclaim events but no mm_vmscan_lru_shrink_inactive; pages reclaimed are unknown "
	      "(end_nr_reclaimed_pages is the end events' sum)"),
	 .report = {"the trace has reclaim events but no mm_vmscan_lru_shrink_inactive events: "
		    "pages reclaimed are unknown, not 0; the end events' nr_reclaimed sum is shown "
		    "apart (docs/attribution.md)."},
	 .count = reclaims_missing},
	{NOTE("slab_ends_missing", "mm_shrink_slab_start events but no mm_shrink_slab_end; "
				   "objects freed are unknown"),
	 .report = {"the trace has mm_shrink_slab_start events but no mm_shrink_slab_end "
		    "events: the objects the shrinkers freed are unknown, not 0."},
	 .count = slab_ends_missing},
	{NOTE("writes_unknown",
	      "lines of write events were rejected; the write counts are unknown"),
	 .report = {"", " lines of write events (writepage, write_folio) were rejected: "
			"whether they wrote file or anon pages, sync or async, is not known; the "
			"write counts are unknown, not 0."},
	 .count = writes_rejected},
	{NOTE("stopped_before_end",
	      "the analysis was stopped before the end of an input it read "
	      "(sources[].traits.stopped_before_end): the counts are of the part read"),
	 .report = {"the analysis was stopped before the end of ",
		    " input(s): the counts above are of the part read."},
	 .count = stopped_before_end},
	{NOTE("timestamps_integer",
	      "timestamps are integers, taken as nanoseconds (traits.timestamps_integer): right "
	      "for trace-cmd report --raw-ts; a trace clock that does not count in ns (counter, "
	      "uptime, x86-tsc) gives its latencies and times in its own units"),
	 .report = {"", " lines have integer timestamps, taken as nanoseconds: right for "
			"trace-cmd report --raw-ts; with a trace clock that does not count in ns "
			"(counter, uptime, x86-tsc) the latencies and times above are in its units."},
	 .count = timestamps_integer},
	{NOTE("timestamps_out_of_order",
	      "timestamps go backwards: events more than 1 s before an earlier line's "
	      "(traits.timestamps_out_of_order); a damaged timestamp or inputs out of order: "
	      "times, stalls and latencies across them are wrong"),
	 .report = {"", " events have a timestamp more than 1 s before an earlier line's (a "
			"damaged timestamp, or inputs out of order): the times, stalls and "
			"latencies across them above are wrong."},
	 .count = timestamps_out_of_order},
	{NOTE("timestamps_went_backwards", "some latencies were counted as 0"),
	 .report = {"timestamps went backwards ",
		    " times (CPUs' clocks out of step, or inputs out of order); those latencies "
		    "were counted as 0."},
	 .count = went_backwards},
	/* the classic report has a line of its own for it */
	{NOTE("tasks_folded", "tasks beyond --max-tasks are counted in the (other tasks) row"),
	 .count = tasks_folded},
	{NOTE("late_events", "live records came later than the hold-back "
			     "(traits.late_events): the periods they belong to may be cut"),
	 .report = {"", " live records came later than the hold-back (1 s, raised after "
			"them: traits.live_hold_ns); the periods they belong to may be cut."},
	 .count = late},
	{NOTE("wrapped", "the trace looks wrapped (pasted into a mail): events are broken over "
			 "several lines (traits.wrapped_events), their lines ignored or rejected; "
			 "try --unwrap"),
	 .report = {"the trace looks wrapped: ",
		    " events are broken over several lines; try --unwrap."},
	 .count = wrapped},
	{NOTE("unjoined", "the trace looks wrapped, and --unwrap could not join some events "
			  "broken over several lines (traits.wrapped_events): their lines are "
			  "ignored or rejected"),
	 .report = {"the trace looks wrapped: --unwrap could not join ",
		    " events broken over several lines; their lines are ignored or rejected."},
	 .count = unjoined},
	{NOTE("events_lost", "the tracer dropped events; counts are lower bounds"),
	 .report = {"the tracer dropped ", " events; every count above is a lower bound."},
	 .count = events_lost},
	{NOTE("tracedat_short",
	      "a trace.dat was not read whole: CPUs of its buffers ended before the end of their "
	      "data as the file's headers give it, or read another CPU's data "
	      "(sources[].traits.tracedat_short: a damaged page, a block that does not "
	      "decompress): events are missing, how many is unknown (input.events_lost is null)"),
	 .report = {"", " CPU(s) of a trace.dat were not read to the end of their data (a damaged "
			"page, a block that does not decompress, or another CPU's data): events "
			"are missing, how many is unknown."},
	 .count = tracedat_short},
	{NOTE("events_lost_unknown",
	      "lost-event markers say no number (sources[].lost_markers_without_count): how many "
	      "events the tracer dropped is unknown (input.events_lost is null); counts are lower "
	      "bounds"),
	 .report = {"", " lost-event markers say no number: the tracer dropped events, how many is "
			"unknown; every count above is a lower bound."},
	 .count = lost_unsaid},
	{NOTE("several_buffers",
	      "the vmscan events come from several buffers (traits.events_by_buffer: trace-cmd "
	      "record -B) and are added together: where two recorded the same events, each is "
	      "counted twice; --instance NAME reads one"),
	 .report = {"the vmscan events come from ",
		    " buffers (trace-cmd record -B), added together: where two recorded the same "
		    "events, each is counted twice; --instance NAME reads one."},
	 .count = buffers},
	{NOTE("several_report_files",
	      "the text is trace-cmd report of several trace.dat files (traits.report_files: -i "
	      "a.dat -i b.dat), their events interleaved by time and analyzed as one trace: a pid "
	      "of two files is one task; analyze each file on its own (vmscan-analyze compare a.dat "
	      "b.dat)"),
	 .report = {"the text is trace-cmd report of ",
		    " trace.dat files, their events interleaved by time and analyzed as one trace "
		    "(a pid of two files is one task); analyze each file on its own (vmscan-analyze "
		    "compare a.dat b.dat)."},
	 .count = report_files},
};
const size_t vmsa_nnotes = N(vmsa_notes);

/* ---- lookups ---------------------------------------------------------- */

const struct vmsa_field *vmsa_shape_member(const struct vmsa_shape *s, const char *key,
					   size_t keylen)
{
	for (size_t i = 0; s && i < s->n; i++) {
		const struct vmsa_field *f = &s->members[i];
		if (!f->key) {
			const struct vmsa_field *g = vmsa_shape_member(f->shape, key, keylen);
			if (g)
				return g;
		} else if ((strlen(f->key) == keylen && !memcmp(f->key, key, keylen)) ||
			   !strcmp(f->key, "*")) {
			return f;
		}
	}
	return NULL;
}

const struct vmsa_field *vmsa_field_at(const char *path)
{
	const struct vmsa_shape *s = &vmsa_summary_shape;
	const struct vmsa_field *f = NULL;
	const char *p = path;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		if (!n || !s || (f && f->unit == VMSA_UNIT_LIST))
			return NULL;
		f = vmsa_shape_member(s, p, n);
		if (!f)
			return NULL;
		if (!dot)
			return f;
		s = f->shape;
		p = dot + 1;
	}
}

int vmsa_summary_field(const char *path, enum vmsa_unit *unit)
{
	const struct vmsa_field *f = path ? vmsa_field_at(path) : NULL;
	if (!f)
		return VMSA_E_INVAL;
	if (unit)
		*unit = f->unit;
	return 0;
}

const char *vmsa_unit_name(enum vmsa_unit u)
{
	static const char *const names[] = {
		[VMSA_UNIT_COUNT] = "count", [VMSA_UNIT_PAGES] = "pages", [VMSA_UNIT_NS] = "ns",
		[VMSA_UNIT_ID] = "id",	     [VMSA_UNIT_FLAG] = "boolean", [VMSA_UNIT_TEXT] = "text",
		[VMSA_UNIT_OBJECT] = "object", [VMSA_UNIT_LIST] = "list",
	};
	return (unsigned)u < N(names) && names[u] ? names[u] : "?";
}

/* ---- compare's rows ----------------------------------------------------- */

#define ROW(l, f, ...) {.label = l, .fmt = VMSA_FMT_##f, .change = true, .num = {__VA_ARGS__}}
#define ROW_CLASSIC(l, f, c, ...) \
	{.label = l, .fmt = VMSA_FMT_##f, .change = true, .num = {__VA_ARGS__}, .classic = c}
/* a row of a field there only when the trace has its events */
#define ROW_OPT(l, f, ...) \
	{.label = l, .fmt = VMSA_FMT_##f, .change = true, .num = {__VA_ARGS__}, .optional = true}
#define RATIO(l, den_, num_) {.label = l, .fmt = VMSA_FMT_PERCENT, .num = {num_}, .den = {den_}}
#define BLANK {.label = NULL}
#define D "totals.direct."
#define K "totals.kswapd."
#define T "totals."

const struct vmsa_compare_row vmsa_compare_rows[] = {
	ROW_CLASSIC("Direct reclaims", COUNT, "Direct reclaims:     ", D "reclaims"),
	ROW_CLASSIC("Direct reclaim pages scanned", COUNT, "Direct reclaim pages scanned:",
		    D "pages_scanned"),
	ROW_CLASSIC("Direct reclaim write file async I/O", COUNT,
		    "Direct reclaim write file async I/O:", D "writes.file_async"),
	ROW_CLASSIC("Direct reclaim write anon async I/O", COUNT,
		    "Direct reclaim write anon async I/O:", D "writes.anon_async"),
	ROW_CLASSIC("Direct reclaim write file sync I/O", COUNT,
		    "Direct reclaim write file sync I/O:", D "writes.file_sync"),
	ROW_CLASSIC("Direct reclaim write anon sync I/O", COUNT,
		    "Direct reclaim write anon sync I/O:", D "writes.anon_sync"),
	ROW_CLASSIC("Wake kswapd requests", COUNT, "Wake kswapd requests:",
		    T "wakeup_kswapd_requests"),
	ROW_CLASSIC("Kswapd wakeups", COUNT, "Kswapd wakeups:", K "wakeups"),
	ROW_CLASSIC("Kswapd pages scanned", COUNT, "Kswapd pages scanned:", K "pages_scanned"),
	ROW_CLASSIC("Kswapd reclaim write file async I/O", COUNT,
		    "Kswapd reclaim write file async I/O:", K "writes.file_async"),
	ROW_CLASSIC("Kswapd reclaim write anon async I/O", COUNT,
		    "Kswapd reclaim write anon async I/O:", K "writes.anon_async"),
	ROW_CLASSIC("Kswapd reclaim write file sync I/O", COUNT,
		    "Kswapd reclaim write file sync I/O:", K "writes.file_sync"),
	ROW_CLASSIC("Kswapd reclaim write anon sync I/O", COUNT,
		    "Kswapd reclaim write anon sync I/O:", K "writes.anon_sync"),
	ROW_CLASSIC("Time stalled direct reclaim (seconds)", SECONDS,
		    "Time stalled direct reclaim: ", D "latency_ns"),
	ROW_CLASSIC("Time kswapd awake (seconds)", SECONDS, "Time kswapd awake:", K "awake_ns"),
	BLANK,
	ROW_CLASSIC("Direct reclaim pages reclaimed", COUNT, "Direct reclaim pages reclaimed:",
		    D "pages_reclaimed"),
	ROW_CLASSIC("Kswapd pages reclaimed", COUNT, "Kswapd pages reclaimed:",
		    K "pages_reclaimed"),
	ROW("Flusher wake-ups from reclaim", COUNT, T "flusher_wakeups.all_dirty.count",
	    T "flusher_wakeups.flush_forward.count"),
	ROW("  pages requested (flush forward)", COUNT,
	    T "flusher_wakeups.flush_forward.requested_pages"),
	ROW("Flusher pages written for reclaim", COUNT, T "flusher_writeback.vmscan.pages"),
	ROW_OPT("Page-list reclaim pages scanned", COUNT, T "reclaim_pages.pages_scanned"),
	ROW_OPT("Page-list reclaim pages reclaimed", COUNT, T "reclaim_pages.pages_reclaimed"),
	ROW("Throttled writeback (seconds)", SECONDS, T "throttled.writeback.delayed_ns"),
	ROW("Throttled isolated (seconds)", SECONDS, T "throttled.isolated.delayed_ns"),
	ROW("Throttled noprogress (seconds)", SECONDS, T "throttled.noprogress.delayed_ns"),
	ROW("Throttled congested (seconds)", SECONDS, T "throttled.congested.delayed_ns"),
	ROW("Memcg reclaims", COUNT, T "memcg.reclaims", T "memcg_softlimit.reclaims"),
	ROW("Memcg reclaim pages scanned", COUNT, T "memcg.pages_scanned",
	    T "memcg_softlimit.pages_scanned"),
	ROW("Direct stall p50 (ms)", MSEC, "latency.direct_stall_ns.p50_ns"),
	ROW("Direct stall p99 (ms)", MSEC, "latency.direct_stall_ns.p99_ns"),
	ROW("Direct stall max (ms)", MSEC, "latency.direct_stall_ns.max_ns"),
	BLANK,
	RATIO("Direct reclaim efficiency (reclaimed/scanned)", D "pages_scanned", D "pages_reclaimed"),
	RATIO("Kswapd reclaim efficiency (reclaimed/scanned)", K "pages_scanned", K "pages_reclaimed"),
	{.label = "Scan velocity (pages scanned/s)", .fmt = VMSA_FMT_RATE, .change = true,
	 .num = {D "pages_scanned", K "pages_scanned"}, .den = {"input.duration_ns"}},
	{.label = "Direct share of pages scanned", .fmt = VMSA_FMT_PERCENT,
	 .num = {D "pages_scanned"}, .den = {D "pages_scanned", K "pages_scanned"}},
	{.label = "File pages written per page scanned", .fmt = VMSA_FMT_PERCENT,
	 .num = {D "writes.file_async", K "writes.file_async"},
	 .den = {D "pages_scanned", K "pages_scanned"}},
};
const size_t vmsa_compare_nrows = N(vmsa_compare_rows);

const char *vmsa_classic_label(const char *path)
{
	for (size_t i = 0; i < vmsa_compare_nrows; i++) {
		const struct vmsa_compare_row *r = &vmsa_compare_rows[i];
		if (r->classic && !strcmp(r->num[0], path))
			return r->classic;
	}
	return NULL;
}
