/* SPDX-License-Identifier: MIT */
/*
 * Metrics: a JSON summary document as OpenMetrics 1.0 or Prometheus 0.0.4
 * text, for a fleet's time series (README, "Fleet").
 *
 * Everything is read from the document through the public API, so a summary
 * just computed, a summary file and merged summaries give the same metrics:
 * scalars by dotted path (vmsa_doc_number), the histograms' bucket arrays
 * from the document's JSON text parsed again with json-c.  A null or absent
 * value (not known from the trace) is left out, never written as 0; a
 * family with no known value is left out whole.
 *
 * Histograms get fixed bounds, 2^k - 1 ns for k = 10..40 (about 1 us to
 * 18 min) and +Inf, so every scrape of every host has the same series and
 * sum by (le) is meaningful.  A summary bucket never straddles a power of
 * two (docs/json-schema.md: log-linear buckets), so each falls whole under
 * one bound and the cumulative counts are exact.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmsa/vmsa.h"
#include "../internal.h"

#define LE_MIN_LOG2 10
#define LE_MAX_LOG2 40

/* One label dimension: its name, values, and what each puts into the path. */
struct dim {
	const char *label;
	const char *const *vals;	/* NULL-terminated */
	const char *const *keys;	/* path pieces, parallel to vals; NULL: vals */
};

/*
 * A counter family.  The path of one sample is
 * seg[0] key0 seg[1] key1 seg[2] key2 seg[3], a key per dimension used.
 */
struct counter {
	const char *name, *unit, *help;
	bool ns;			/* a _ns field, written in seconds */
	const char *seg[4];
	const struct dim *dims[3];
};

static const char *const window_ctx[] = {"direct", "memcg", "memcg_softlimit", "node", NULL};
static const char *const all_ctx[] = {"direct",		 "kswapd", "memcg", "memcg_softlimit",
				      "node",		 "outside_reclaim", NULL};
static const char *const page_types[] = {"file", "anon", "unknown", NULL};
static const char *const page_type_keys[] = {"_file", "_anon", "_unsplit", NULL};
static const char *const write_types[] = {"file", "anon", NULL};
static const char *const io_modes[] = {"async", "sync", NULL};
static const char *const throttle_reasons[] = {"writeback", "isolated", "noprogress",
					       "congested", NULL};
static const char *const flush_reasons[] = {"all_dirty", "flush_forward", NULL};
static const char *const line_states[] = {"analyzed", "ignored", "rejected", "lost_marker",
					  NULL};
static const char *const line_keys[] = {"analyzed", "ignored", "rejected", "lost_markers",
					NULL};

static const struct dim d_window = {"context", window_ctx, NULL};
static const struct dim d_ctx = {"context", all_ctx, NULL};
static const struct dim d_page = {"type", page_types, page_type_keys};
static const struct dim d_wtype = {"type", write_types, NULL};
static const struct dim d_io = {"io", io_modes, NULL};
static const struct dim d_throttle = {"reason", throttle_reasons, NULL};
static const struct dim d_flush = {"reason", flush_reasons, NULL};
static const struct dim d_lines = {"state", line_states, line_keys};

static const struct counter counters[] = {
	{"vmscan_reclaims", NULL,
	 "Reclaim windows begun (direct, memcg, memcg soft limit, node reclaim).", false,
	 {"totals.", ".reclaims"}, {&d_window}},
	{"vmscan_reclaims_completed", NULL, "Reclaim windows that began and ended.", false,
	 {"totals.", ".reclaims_completed"}, {&d_window}},
	{"vmscan_scanned_pages", "pages",
	 "Pages scanned on inactive lists (nr_scanned of LRU isolations), by reclaim context "
	 "and page type (unknown: the trace does not name the list).", false,
	 {"totals.", ".pages_scanned"}, {&d_ctx, &d_page}},
	{"vmscan_reclaimed_pages", "pages",
	 "Pages reclaimed from inactive lists (nr_reclaimed of lru_shrink_inactive), by "
	 "reclaim context and page type.", false,
	 {"totals.", ".pages_reclaimed"}, {&d_ctx, &d_page}},
	{"vmscan_writes", NULL,
	 "Writes started by reclaim (writepage or write_folio events), by reclaim context, "
	 "page type and io mode; sync is left out where the kernel cannot write synchronously.",
	 false, {"totals.", ".writes.", "_"}, {&d_ctx, &d_wtype, &d_io}},
	{"vmscan_written_pages", "pages",
	 "Pages of the writes started by reclaim, where the events carry nr_pages.", false,
	 {"totals.", ".writes.pages"}, {&d_ctx}},
	{"vmscan_kswapd_wakeups", NULL, "kswapd threads waking from sleep.", false,
	 {"totals.kswapd.wakeups"}, {NULL}},
	{"vmscan_kswapd_rewakeups", NULL, "kswapd wake events while the thread was awake.", false,
	 {"totals.kswapd.rewakeups"}, {NULL}},
	{"vmscan_kswapd_wakeup_requests", NULL,
	 "Requests to wake kswapd (mm_vmscan_wakeup_kswapd), from any task.", false,
	 {"totals.wakeup_kswapd_requests"}, {NULL}},
	{"vmscan_throttled", NULL, "Reclaim throttling events (reclaim_throttle), by reason.",
	 false, {"totals.throttled.", ".count"}, {&d_throttle}},
	{"vmscan_throttled_seconds", "seconds", "Time reclaim was throttled for, by reason.", true,
	 {"totals.throttled.", ".delayed_ns"}, {&d_throttle}},
	{"vmscan_flusher_wakeups", NULL, "Flusher wake-ups by reclaim, by reason.", false,
	 {"totals.flusher_wakeups.", ".count"}, {&d_flush}},
	{"vmscan_lost_events", NULL, "Events the tracer dropped, as its lost-event markers say.",
	 false, {"input.events_lost"}, {NULL}},
	{"vmscan_input_lines", NULL,
	 "Input lines (or trace.dat records): vmscan events analyzed, other lines ignored, "
	 "lines rejected, lost-event markers.", false, {"input.lines_"}, {&d_lines}},
};

struct histogram {
	const char *name, *key, *help;
};

static const struct histogram histograms[] = {
	{"vmscan_direct_stall_seconds", "direct_stall_ns",
	 "Direct reclaim stalls: completed direct reclaim windows."},
	{"vmscan_memcg_reclaim_seconds", "memcg_reclaim_ns", "Completed memcg reclaim windows."},
	{"vmscan_kswapd_awake_seconds", "kswapd_awake_ns",
	 "kswapd awake periods, from wake to sleep."},
};

struct writer {
	FILE *f;
	enum vmsa_metrics_format fmt;
	const char *name, *type, *unit, *help;	/* family of the next sample */
	bool header_due;
};

static void family(struct writer *w, const char *name, const char *type, const char *unit,
		   const char *help)
{
	w->name = name;
	w->type = type;
	w->unit = unit;
	w->help = help;
	w->header_due = true;
}

/* OpenMetrics names a counter family without _total, Prometheus 0.0.4 with. */
static void sample(struct writer *w, const char *suffix, const char *labels, const char *value)
{
	if (w->header_due) {
		bool om = w->fmt == VMSA_METRICS_OPENMETRICS;
		const char *tail = !om && !strcmp(w->type, "counter") ? "_total" : "";
		fprintf(w->f, "# HELP %s%s %s\n# TYPE %s%s %s\n", w->name, tail, w->help, w->name,
			tail, w->type);
		if (om && w->unit)
			fprintf(w->f, "# UNIT %s %s\n", w->name, w->unit);
		w->header_due = false;
	}
	fprintf(w->f, "%s%s%s%s%s %s\n", w->name, suffix, *labels ? "{" : "", labels,
		*labels ? "}" : "", value);
}

/* Nanoseconds as exact decimal seconds: 1500000 -> "0.0015". */
static void seconds(char *buf, size_t n, uint64_t ns)
{
	int len = snprintf(buf, n, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	while (len > 0 && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len > 0 && buf[len - 1] == '.')
		buf[len - 1] = '\0';
}

static void count(char *buf, size_t n, double v)
{
	if (v == (double)(uint64_t)v)
		snprintf(buf, n, "%" PRIu64, (uint64_t)v);
	else
		snprintf(buf, n, "%.17g", v);
}

/* The samples of counter c from dimension level on; path and labels so far. */
static void counter_samples(struct writer *w, const struct vmsa_doc *d, const struct counter *c,
			    int level, const char *path, const char *labels)
{
	char p[256], l[256];
	const struct dim *dm = level < 3 ? c->dims[level] : NULL;
	if (!dm) {
		snprintf(p, sizeof(p), "%s%s", path, c->seg[level] ? c->seg[level] : "");
		double v;
		if (vmsa_doc_number(d, p, &v) != 0 || v < 0)
			return; /* null: unknown; absent: not in this document */
		char val[48];
		if (c->ns)
			seconds(val, sizeof(val), (uint64_t)v);
		else
			count(val, sizeof(val), v);
		sample(w, "_total", labels, val);
		return;
	}
	for (int i = 0; dm->vals[i]; i++) {
		snprintf(p, sizeof(p), "%s%s%s", path, c->seg[level] ? c->seg[level] : "",
			 dm->keys ? dm->keys[i] : dm->vals[i]);
		snprintf(l, sizeof(l), "%s%s%s=\"%s\"", labels, *labels ? "," : "", dm->label,
			 dm->vals[i]);
		counter_samples(w, d, c, level + 1, p, l);
	}
}

static bool get_u64(json_object *o, const char *key, uint64_t *v)
{
	json_object *x;
	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int))
		return false;
	*v = json_object_get_uint64(x);
	return true;
}

/* One histogram, left out when the document has none or it is null. */
static int histogram_samples(struct writer *w, json_object *latency, const struct histogram *h)
{
	json_object *o, *buckets;
	uint64_t total, sum_ns;
	if (!json_object_object_get_ex(latency, h->key, &o) ||
	    !json_object_is_type(o, json_type_object) || !get_u64(o, "count", &total) ||
	    !get_u64(o, "sum_ns", &sum_ns) || !json_object_object_get_ex(o, "buckets", &buckets) ||
	    !json_object_is_type(buckets, json_type_array))
		return 0;
	uint64_t under[LE_MAX_LOG2 + 1] = {0}, seen = 0;
	size_t n = json_object_array_length(buckets);
	for (size_t i = 0; i < n; i++) {
		json_object *b = json_object_array_get_idx(buckets, i);
		uint64_t hi, c;
		if (!get_u64(b, "hi_ns", &hi) || !get_u64(b, "count", &c))
			return VMSA_E_CORRUPT;
		seen += c;
		/* the first bound at or above the bucket's upper end */
		for (int k = LE_MIN_LOG2; k <= LE_MAX_LOG2; k++)
			if (hi <= (UINT64_C(1) << k) - 1) {
				under[k] += c;
				break;
			}
	}
	if (seen != total)
		return VMSA_E_CORRUPT;
	family(w, h->name, "histogram", "seconds", h->help);
	char le[64], val[48];
	uint64_t cum = 0;
	for (int k = LE_MIN_LOG2; k <= LE_MAX_LOG2; k++) {
		cum += under[k];
		seconds(val, sizeof(val), (UINT64_C(1) << k) - 1);
		snprintf(le, sizeof(le), "le=\"%s\"", val);
		count(val, sizeof(val), (double)cum);
		sample(w, "_bucket", le, val);
	}
	count(val, sizeof(val), (double)total);
	sample(w, "_bucket", "le=\"+Inf\"", val);
	seconds(val, sizeof(val), sum_ns);
	sample(w, "_sum", "", val);
	count(val, sizeof(val), (double)total);
	sample(w, "_count", "", val);
	return 0;
}

int vmsa_report_openmetrics(FILE *f, const struct vmsa_doc *d, enum vmsa_metrics_format fmt)
{
	double version;
	if (vmsa_doc_number(d, "schema_version", &version) != 0)
		return VMSA_E_CORRUPT;
	const json_object *root = vmsa_doc_json(d);
	json_object *latency;
	struct writer w = {.f = f, .fmt = fmt};
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		const struct counter *c = &counters[i];
		family(&w, c->name, "counter", c->unit, c->help);
		counter_samples(&w, d, c, 0, "", "");
	}
	int err = 0;
	if (json_object_object_get_ex(root, "latency", &latency) &&
	    json_object_is_type(latency, json_type_object))
		for (size_t i = 0; !err && i < sizeof(histograms) / sizeof(histograms[0]); i++)
			err = histogram_samples(&w, latency, &histograms[i]);
	if (!err && fmt == VMSA_METRICS_OPENMETRICS)
		fputs("# EOF\n", f);
	if (!err && (fflush(f) || ferror(f)))
		err = VMSA_E_IO;
	return err;
}
