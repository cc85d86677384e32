/* SPDX-License-Identifier: MIT */
/* The fields of a JSON summary (summary_fields.h): one table for all. */
#include <string.h>

#include "internal.h"
#include "summary_fields.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SHAPE(id, label) \
	static const struct vmsa_shape id = {label, id##_members, N(id##_members)}

/* one member of each kind */
#define SUM(k, u) {.key = k, .unit = VMSA_UNIT_##u, .merge = VMSA_MERGE_SUM}
#define SUM_NULL(k, u) {.key = k, .unit = VMSA_UNIT_##u, .merge = VMSA_MERGE_SUM, .nullable = true}
#define FIRST(k, u) {.key = k, .unit = VMSA_UNIT_##u, .merge = VMSA_MERGE_FIRST}
#define FIRST_NULL(k, u) {.key = k, .unit = VMSA_UNIT_##u, .merge = VMSA_MERGE_FIRST, .nullable = true}
#define OBJ(k, s) {.key = k, .unit = VMSA_UNIT_OBJECT, .merge = VMSA_MERGE_OBJECT, .shape = &s}
#define HIST(k) {.key = k, .unit = VMSA_UNIT_OBJECT, .merge = VMSA_MERGE_HIST, .shape = &hist}
#define INCLUDE(s) {.key = NULL, .shape = &s}

/* ---- small objects -------------------------------------------------- */

static const struct vmsa_field by_order_members[] = {
	{.key = "*", .unit = VMSA_UNIT_COUNT, .merge = VMSA_MERGE_SUM, .optional = true},
};
SHAPE(by_order, "by_order");

static const struct vmsa_field bucket_members[] = {
	FIRST("lo_ns", NS), FIRST("hi_ns", NS), SUM("count", COUNT),
};
SHAPE(bucket, NULL);

const struct vmsa_quantile_key vmsa_hist_quantile_keys[3] = {
	{"p50_ns", 0.50}, {"p90_ns", 0.90}, {"p99_ns", 0.99}};

/* merged as a whole (merge_hist), the rules say what each member becomes */
static const struct vmsa_field hist_members[] = {
	SUM("count", COUNT),
	SUM("sum_ns", NS),
	{.key = "min_ns", .unit = VMSA_UNIT_NS, .merge = VMSA_MERGE_MIN, .nullable = true},
	{.key = "max_ns", .unit = VMSA_UNIT_NS, .merge = VMSA_MERGE_MAX, .nullable = true},
	{.key = "p50_ns", .unit = VMSA_UNIT_NS, .merge = VMSA_MERGE_DERIVED, .nullable = true},
	{.key = "p90_ns", .unit = VMSA_UNIT_NS, .merge = VMSA_MERGE_DERIVED, .nullable = true},
	{.key = "p99_ns", .unit = VMSA_UNIT_NS, .merge = VMSA_MERGE_DERIVED, .nullable = true},
	FIRST("sub_buckets_log2", COUNT),
	{.key = "buckets", .unit = VMSA_UNIT_LIST, .merge = VMSA_MERGE_DERIVED, .shape = &bucket},
};
SHAPE(hist, "hist");

static const struct vmsa_field writes_members[] = {
	SUM("file_async", COUNT), SUM("anon_async", COUNT),
	SUM_NULL("file_sync", COUNT), SUM_NULL("anon_sync", COUNT),
	SUM_NULL("pages", PAGES),
};
SHAPE(writes, "writes");

static const struct vmsa_field throttle_one_members[] = {
	SUM("count", COUNT), SUM("delayed_ns", NS),
};
SHAPE(throttle_one, "throttle_one");

static const struct vmsa_field throttled_members[] = {
	OBJ("writeback", throttle_one), OBJ("isolated", throttle_one),
	OBJ("noprogress", throttle_one), OBJ("congested", throttle_one),
};
SHAPE(throttled, "throttled");

static const struct vmsa_field flusher_one_members[] = {
	SUM("count", COUNT), SUM("dirty_pages_met", PAGES), SUM("requested_pages", PAGES),
};
SHAPE(flusher_one, NULL);

static const struct vmsa_field flusher_members[] = {
	OBJ("all_dirty", flusher_one), OBJ("flush_forward", flusher_one),
};
SHAPE(flusher, NULL);

/* ---- reclaim contexts --------------------------------------------- */

#define CTX_MEMBER(type, member, key, unit) SUM(key, unit),
static const struct vmsa_field ctx_members[] = {
	SUM("pages_scanned", PAGES),
	VMSA_CTX_SCANNED(CTX_MEMBER)
	SUM("pages_reclaimed", PAGES),
	VMSA_CTX_RECLAIMED(CTX_MEMBER)
	OBJ("writes", writes),
	VMSA_CTX_TAIL(CTX_MEMBER)
};
SHAPE(ctx, "ctx");

static const struct vmsa_field ctx_windowed_members[] = {
	VMSA_CTX_WINDOW(CTX_MEMBER)
	INCLUDE(ctx),
};
SHAPE(ctx_windowed, "ctx_windowed");

static const struct vmsa_field ctx_window_order_members[] = {
	INCLUDE(ctx_windowed),
	OBJ("reclaims_by_order", by_order),
};
SHAPE(ctx_window_order, "ctx_window_order");

static const struct vmsa_field kswapd_totals_members[] = {
	INCLUDE(ctx),
	SUM("wakeups", COUNT),
	OBJ("wakeups_by_order", by_order),
	SUM("rewakeups", COUNT),
	OBJ("rewakeups_by_order", by_order),
	SUM("awake_ns", NS),
	SUM("awake_in_progress", COUNT),
};
SHAPE(kswapd_totals, "kswapd_totals");

static const struct vmsa_field kswapd_reclaim_members[] = {
	INCLUDE(ctx),
	SUM("awake_ns", NS),
};
SHAPE(kswapd_reclaim, "kswapd_reclaim");

/* ---- input ------------------------------------------------------------ */

static const struct vmsa_field rejected_members[] = {
	SUM("bad_header", COUNT), SUM("missing_field", COUNT), SUM("bad_number", COUNT),
	SUM("out_of_range", COUNT), SUM("bad_value", COUNT), SUM("line_too_long", COUNT),
	SUM("comm_too_long", COUNT),
};
SHAPE(rejected, NULL);

static const struct vmsa_field traits_members[] = {
	FIRST("lru_isolate_names_list", FLAG), FIRST("write_event", TEXT),
	FIRST("sync_io_expressed", FLAG), FIRST("write_pages_expressed", FLAG),
	FIRST("timestamp_resolution", TEXT),
};
SHAPE(traits, NULL);

static const struct vmsa_field per_cpu_members[] = {
	SUM("*", COUNT),
};
SHAPE(per_cpu, NULL);

static const struct vmsa_field recording_members[] = {
	FIRST_NULL("tracedat_version", COUNT), FIRST_NULL("uname", TEXT),
	FIRST_NULL("clock", TEXT), FIRST_NULL("kernel_release", TEXT),
	FIRST_NULL("cpus", COUNT),
	{.key = "events_lost_per_cpu", .unit = VMSA_UNIT_LIST, .merge = VMSA_MERGE_FIRST,
	 .shape = &per_cpu, .nullable = true},
	FIRST_NULL("instances", COUNT),
};
SHAPE(recording, NULL);

/* a source is listed as it was read: its members are not merged */
static const struct vmsa_field source_members[] = {
	FIRST("name", TEXT), FIRST("format", TEXT),
	FIRST("bytes_read", COUNT), FIRST("lines_read", COUNT), FIRST("lines_analyzed", COUNT),
	FIRST("lines_ignored", COUNT), FIRST("lines_lost_markers", COUNT),
	FIRST("lines_rejected", COUNT), OBJ("rejected_by_reason", rejected),
	FIRST("events_lost", COUNT), FIRST("lost_markers_without_count", COUNT),
	FIRST("unknown_vmscan_events", COUNT), OBJ("traits", traits),
	FIRST("counted_as", TEXT), OBJ("recording", recording),
};
SHAPE(source, "source");

static const struct vmsa_field input_members[] = {
	{.key = "sources", .unit = VMSA_UNIT_LIST, .merge = VMSA_MERGE_CONCAT, .shape = &source},
	SUM("lines_read", COUNT), SUM("lines_analyzed", COUNT), SUM("lines_ignored", COUNT),
	SUM("lines_rejected", COUNT), SUM("lines_lost_markers", COUNT),
	SUM("events_lost", COUNT), SUM("events_analyzed", COUNT),
	{.key = "first_timestamp_ns", .unit = VMSA_UNIT_NS, .merge = VMSA_MERGE_MIN, .nullable = true},
	{.key = "last_timestamp_ns", .unit = VMSA_UNIT_NS, .merge = VMSA_MERGE_MAX, .nullable = true},
	{.key = "duration_ns", .unit = VMSA_UNIT_NS, .merge = VMSA_MERGE_DERIVED},
};
SHAPE(input, NULL);

/* ---- totals and latency --------------------------------------------- */

static const struct vmsa_field totals_members[] = {
	OBJ("direct", ctx_window_order),
	OBJ("memcg", ctx_window_order),
	OBJ("memcg_softlimit", ctx_window_order),
	OBJ("node", ctx_window_order),
	OBJ("kswapd", kswapd_totals),
	OBJ("outside_reclaim", ctx),
	SUM("wakeup_kswapd_requests", COUNT),
	OBJ("wakeup_kswapd_by_order", by_order),
	OBJ("throttled", throttled),
	OBJ("flusher_wakeups", flusher),
	SUM("unmatched_begins", COUNT),
	SUM("unmatched_ends", COUNT),
	{.key = "tasks", .unit = VMSA_UNIT_COUNT, .merge = VMSA_MERGE_DERIVED},
	SUM("tasks_folded", COUNT),
	{.key = "sync_io_applicable", .unit = VMSA_UNIT_FLAG, .merge = VMSA_MERGE_ANY},
	{.key = "pages_scanned_known", .unit = VMSA_UNIT_FLAG, .merge = VMSA_MERGE_ALL},
};
SHAPE(totals, NULL);

static const struct vmsa_field latency_members[] = {
	HIST("direct_stall_ns"), HIST("kswapd_awake_ns"), HIST("memcg_reclaim_ns"),
};
SHAPE(latency, NULL);

/* ---- task rows --------------------------------------------------------- */

static const struct vmsa_field process_members[] = {
	FIRST("comm", TEXT),
	FIRST_NULL("pid", ID),
	OBJ("direct", ctx_window_order),
	OBJ("memcg", ctx_window_order),
	OBJ("memcg_softlimit", ctx_window_order),
	OBJ("node", ctx_window_order),
	OBJ("outside_reclaim", ctx),
	SUM("wakeup_kswapd_requests", COUNT),
	OBJ("wakeup_kswapd_by_order", by_order),
	OBJ("throttled", throttled),
	SUM("unmatched_begins", COUNT),
	SUM("unmatched_ends", COUNT),
	HIST("direct_stall_ns"),
};
SHAPE(process, "process");

#define OPT_CTX(k) \
	{.key = k, .unit = VMSA_UNIT_OBJECT, .merge = VMSA_MERGE_OBJECT, .shape = &ctx_windowed, \
	 .optional = true}
static const struct vmsa_field kswapd_row_members[] = {
	FIRST("comm", TEXT),
	FIRST_NULL("pid", ID),
	FIRST_NULL("nid", ID),
	SUM("wakeups", COUNT),
	OBJ("wakeups_by_order", by_order),
	SUM("rewakeups", COUNT),
	OBJ("rewakeups_by_order", by_order),
	SUM("awake_in_progress", COUNT),
	SUM("awake_in_progress_ns", NS),
	SUM("sleeps_without_wake", COUNT),
	OBJ("reclaim", kswapd_reclaim),
	OPT_CTX("direct"),
	OPT_CTX("memcg"),
	OPT_CTX("memcg_softlimit"),
	OPT_CTX("node"),
	OBJ("throttled", throttled),
	HIST("awake_ns_histogram"),
};
SHAPE(kswapd_row, "kswapd");

/* ---- the document ----------------------------------------------------- */

static const struct vmsa_field tool_members[] = {
	FIRST("name", TEXT), FIRST("version", TEXT),
};
SHAPE(tool, NULL);

static const struct vmsa_field note_members[] = {
	FIRST("*", TEXT),
};
SHAPE(note, NULL);

static const struct vmsa_field root_members[] = {
	FIRST("schema", TEXT),
	FIRST("schema_version", COUNT),
	OBJ("tool", tool),
	OBJ("input", input),
	{.key = "notes", .unit = VMSA_UNIT_LIST, .merge = VMSA_MERGE_UNION, .shape = &note},
	OBJ("totals", totals),
	OBJ("latency", latency),
	{.key = "processes", .unit = VMSA_UNIT_LIST, .merge = VMSA_MERGE_ROWS, .shape = &process},
	{.key = "kswapd", .unit = VMSA_UNIT_LIST, .merge = VMSA_MERGE_ROWS, .shape = &kswapd_row},
};
const struct vmsa_shape vmsa_summary_shape = {NULL, root_members, N(root_members)};

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
#define RATIO(l, den_, num_) {.label = l, .fmt = VMSA_FMT_PERCENT, .num = {num_}, .den = {den_}}
#define BLANK {.label = NULL}
#define D "totals.direct."
#define K "totals.kswapd."
#define T "totals."

const struct vmsa_compare_row vmsa_compare_rows[] = {
	ROW_CLASSIC("Direct reclaims", COUNT, "Direct reclaims:", D "reclaims"),
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
		    "Time stalled direct reclaim:", D "latency_ns"),
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
