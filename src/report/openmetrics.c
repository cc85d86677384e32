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
static const char *const throttle_reasons[] = {
#define THROTTLE_NAME(e, kname, name, meaning) name,
	VMSA_THROTTLE_REASONS(THROTTLE_NAME)
#undef THROTTLE_NAME
	NULL};
static const char *const flush_reasons[] = {
#define FLUSH_NAME(e, name, meaning) name,
	VMSA_FLUSH_REASONS(FLUSH_NAME)
#undef FLUSH_NAME
	NULL};
static const char *const wb_reasons[] = {
#define WB_NAME(e, name) name,
	VMSA_WB_REASONS(WB_NAME)
#undef WB_NAME
	NULL};
static const char *const line_states[] = {"analyzed", "filtered", "ignored",
					  "rejected", "lost_marker", NULL};
static const char *const line_keys[] = {"analyzed", "filtered", "ignored",
					"rejected", "lost_markers", NULL};

static const struct dim d_window = {"context", window_ctx, NULL};
static const struct dim d_ctx = {"context", all_ctx, NULL};
static const struct dim d_page = {"type", page_types, page_type_keys};
static const struct dim d_wtype = {"type", write_types, NULL};
static const struct dim d_io = {"io", io_modes, NULL};
static const struct dim d_throttle = {"reason", throttle_reasons, NULL};
static const struct dim d_flush = {"reason", flush_reasons, NULL};
static const struct dim d_lines = {"state", line_states, line_keys};
static const struct dim d_wb = {"reason", wb_reasons, NULL};

static const struct counter counters[] = {
	{"vmscan_reclaims", NULL,
	 "Reclaim windows begun (direct, memcg, memcg soft limit, node reclaim).", false,
	 {"totals.", ".reclaims"}, {&d_window}},
	{"vmscan_reclaims_completed", NULL, "Reclaim windows that began and ended.", false,
	 {"totals.", ".reclaims_completed"}, {&d_window}},
	{"vmscan_reclaim_retries", NULL,
	 "Reclaim windows whose priority went back up: do_try_to_free_pages() retried, which "
	 "the kernel's allocstall counts again.", false, {"totals.", ".retries"}, {&d_window}},
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
	{"vmscan_reclaim_pages_events", NULL,
	 "Page-list reclaim (mm_vmscan_reclaim_pages, kernels after 6.12: MADV_PAGEOUT, "
	 "DAMON): its events, one per node of each reclaim_pages() call.", false,
	 {"totals.reclaim_pages.events"}, {NULL}},
	{"vmscan_reclaim_pages_scanned_pages", "pages",
	 "Pages page-list reclaim looked at (not in vmscan_scanned_pages).", false,
	 {"totals.reclaim_pages.pages_scanned"}, {NULL}},
	{"vmscan_reclaim_pages_reclaimed_pages", "pages",
	 "Pages page-list reclaim freed (not in vmscan_reclaimed_pages).", false,
	 {"totals.reclaim_pages.pages_reclaimed"}, {NULL}},
	{"vmscan_flusher_wakeups", NULL, "Flusher wake-ups by reclaim, by reason.", false,
	 {"totals.flusher_wakeups.", ".count"}, {&d_flush}},
	{"vmscan_flusher_writeback_passes", NULL,
	 "Writeback passes of the flusher threads (writeback:writeback_start/_written), by the "
	 "reason the kernel gives; vmscan: started for reclaim.", false,
	 {"totals.flusher_writeback.", ".passes"}, {&d_wb}},
	{"vmscan_flusher_written_pages", "pages",
	 "Pages the flusher threads wrote in those passes (nr_pages at start minus at end), by "
	 "reason.", false, {"totals.flusher_writeback.", ".pages"}, {&d_wb}},
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
		/* (the tables' names are short: neither is ever cut) */
		if ((size_t)snprintf(p, sizeof(p), "%s%s%s", path, c->seg[level] ? c->seg[level] : "",
				     dm->keys ? dm->keys[i] : dm->vals[i]) >= sizeof(p) ||
		    (size_t)snprintf(l, sizeof(l), "%s%s%s=\"%s\"", labels, *labels ? "," : "",
				     dm->label, dm->vals[i]) >= sizeof(l))
			continue;
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

/* A histogram under the fixed bounds: counts at or under 2^k - 1 ns, all, sum. */
struct fixed_hist {
	uint64_t under[LE_MAX_LOG2 + 1];
	uint64_t total, sum_ns;
};

/* Adds the summary's histogram o into h: 1, 0 when o is none (null), or VMSA_E_CORRUPT. */
static int hist_add(struct fixed_hist *h, json_object *o)
{
	json_object *buckets;
	uint64_t total, sum_ns;
	if (!o || !json_object_is_type(o, json_type_object) || !get_u64(o, "count", &total) ||
	    !get_u64(o, "sum_ns", &sum_ns) || !json_object_object_get_ex(o, "buckets", &buckets) ||
	    !json_object_is_type(buckets, json_type_array))
		return 0;
	uint64_t seen = 0;
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
				h->under[k] += c;
				break;
			}
	}
	if (seen != total)
		return VMSA_E_CORRUPT;
	h->total += total;
	h->sum_ns += sum_ns;
	return 1;
}

/* The samples of h, after labels (which may be empty) in each. */
static int hist_samples(struct writer *w, const char *labels, const struct fixed_hist *h)
{
	size_t n = strlen(labels) + 64;
	char *le = malloc(n);
	if (!le)
		return VMSA_E_NOMEM;
	const char *sep = *labels ? "," : "";
	char val[48];
	uint64_t cum = 0;
	for (int k = LE_MIN_LOG2; k <= LE_MAX_LOG2; k++) {
		cum += h->under[k];
		seconds(val, sizeof(val), (UINT64_C(1) << k) - 1);
		snprintf(le, n, "%s%sle=\"%s\"", labels, sep, val);
		count(val, sizeof(val), (double)cum);
		sample(w, "_bucket", le, val);
	}
	snprintf(le, n, "%s%sle=\"+Inf\"", labels, sep);
	count(val, sizeof(val), (double)h->total);
	sample(w, "_bucket", le, val);
	seconds(val, sizeof(val), h->sum_ns);
	sample(w, "_sum", labels, val);
	count(val, sizeof(val), (double)h->total);
	sample(w, "_count", labels, val);
	free(le);
	return 0;
}

/* One histogram, left out when the document has none or it is null. */
static int histogram_samples(struct writer *w, json_object *latency, const struct histogram *h)
{
	json_object *o;
	struct fixed_hist fh = {{0}, 0, 0};
	int r = json_object_object_get_ex(latency, h->key, &o) ? hist_add(&fh, o) : 0;
	if (r <= 0)
		return r;
	family(w, h->name, "histogram", "seconds", h->help);
	return hist_samples(w, "", &fh);
}

/* ---- per-cgroup series ------------------------------------------------- */

/* The counters of a task row summed per cgroup, in each reclaim window context. */
static const struct cg_counter {
	const char *name, *unit, *help, *key;
	bool ns;
} cg_counters[] = {
	{"vmscan_cgroup_reclaims", NULL,
	 "Reclaim windows begun by the cgroup's tasks (its cgroup read when the task first "
	 "appeared), by reclaim context.", "reclaims", false},
	{"vmscan_cgroup_reclaim_seconds", "seconds",
	 "Time the cgroup's tasks spent in completed reclaim windows, by reclaim context.",
	 "latency_ns", true},
	{"vmscan_cgroup_scanned_pages", "pages",
	 "Pages scanned by the cgroup's tasks inside their reclaim windows, by reclaim context.",
	 "pages_scanned", false},
	{"vmscan_cgroup_reclaimed_pages", "pages",
	 "Pages reclaimed by the cgroup's tasks inside their reclaim windows, by reclaim context.",
	 "pages_reclaimed", false},
};
#define NCG (sizeof(cg_counters) / sizeof(cg_counters[0]))
#define NWIN 4 /* window_ctx[] */

struct cg_agg {
	uint64_t v[NCG][NWIN];
	bool null[NCG][NWIN];	/* a task's value unknown: the sum is too */
	struct fixed_hist stall;
	uint64_t reclaims;	/* all windows: the cgroup is active */
};

static void agg_add(struct cg_agg *dst, const struct cg_agg *src)
{
	for (size_t f = 0; f < NCG; f++)
		for (int c = 0; c < NWIN; c++) {
			dst->v[f][c] += src->v[f][c];
			dst->null[f][c] |= src->null[f][c];
		}
	for (int k = 0; k <= LE_MAX_LOG2; k++)
		dst->stall.under[k] += src->stall.under[k];
	dst->stall.total += src->stall.total;
	dst->stall.sum_ns += src->stall.sum_ns;
	dst->reclaims += src->reclaims;
}

/* One task row into a; VMSA_E_CORRUPT when its stall histogram is not one. */
static int row_add(struct cg_agg *a, json_object *row)
{
	for (int c = 0; c < NWIN; c++) {
		json_object *ctx;
		if (!json_object_object_get_ex(row, window_ctx[c], &ctx) ||
		    !json_object_is_type(ctx, json_type_object))
			continue;
		for (size_t f = 0; f < NCG; f++) {
			uint64_t v;
			if (get_u64(ctx, cg_counters[f].key, &v))
				a->v[f][c] += v;
			else
				a->null[f][c] = true;
		}
	}
	for (int c = 0; c < NWIN; c++)
		a->reclaims += a->v[0][c];
	json_object *h;
	return json_object_object_get_ex(row, "direct_stall_ns", &h) && hist_add(&a->stall, h) < 0
		       ? VMSA_E_CORRUPT
		       : 0;
}

/* A label value as the exposition formats escape it: \\, \", \n. */
static char *label_value(const char *s)
{
	char *out = malloc(2 * strlen(s) + 1), *o = out;
	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n')
			*o++ = '\\';
		*o++ = *s == '\n' ? 'n' : *s;
	}
	*o = '\0';
	return out;
}

/* Admission order: the longest direct stall time first, then memcg reclaim time, reclaims. */
struct cand {
	const struct cg_agg *a;
	const char *name;
	size_t index;
};

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *p = x, *q = y;
	uint64_t a[3] = {p->a->stall.sum_ns, p->a->v[1][1], p->a->reclaims};
	uint64_t b[3] = {q->a->stall.sum_ns, q->a->v[1][1], q->a->reclaims};
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] > b[i] ? -1 : 1;
	return strcmp(p->name, q->name);
}

static int name_cmp(const void *x, const void *y)
{
	const struct cand *p = x, *q = y;
	return strcmp(p->name, q->name);
}

struct row_pass {
	struct vmsa_cgroups *cg;
	struct cg_agg *agg; /* [n] unknown */
	size_t n;
};

/* A task row into its cgroup's aggregate (vmsa_doc_each_row()) */
static int row_into(json_object *row, void *arg)
{
	struct row_pass *rp = arg;
	json_object *pid, *comm;
	long idx = -1;
	if (json_object_object_get_ex(row, "pid", &pid) && json_object_is_type(pid, json_type_int) &&
	    json_object_object_get_ex(row, "comm", &comm))
		idx = vmsa_cgroups_index(rp->cg, (int32_t)json_object_get_int64(pid),
					 json_object_get_string(comm));
	return row_add(&rp->agg[idx < 0 ? rp->n : (size_t)idx], row);
}

/* The series of the cgroups (own, "other", "unknown") from the document's task rows. */
static int cgroup_samples(struct writer *w, const struct vmsa_doc *d, struct vmsa_cgroups *cg)
{
	size_t n = vmsa_cgroups_count(cg);
	struct cg_agg *agg = calloc(n + 2, sizeof(*agg)); /* [n] unknown, [n + 1] other */
	struct cand *cands = calloc(n + 2, sizeof(*cands));
	int err = agg && cands ? 0 : VMSA_E_NOMEM;
	struct row_pass rp = {cg, agg, n};
	if (!err)
		err = vmsa_doc_each_row(d, false, row_into, &rp);
	/* cgroups with reclaims get series of their own while there is room */
	size_t nc = 0;
	for (size_t i = 0; !err && i < n; i++)
		if (agg[i].reclaims && !vmsa_cgroups_has_series(cg, i))
			cands[nc++] = (struct cand){&agg[i], vmsa_cgroups_name(cg, i), i};
	qsort(cands, nc, sizeof(*cands), cand_cmp);
	for (size_t i = 0; i < nc && vmsa_cgroups_give_series(cg, cands[i].index); i++)
		;
	/* the series written: own ones by name, other, unknown */
	nc = 0;
	for (size_t i = 0; !err && i < n; i++) {
		if (vmsa_cgroups_has_series(cg, i))
			cands[nc++] = (struct cand){&agg[i], vmsa_cgroups_name(cg, i), i};
		else
			agg_add(&agg[n + 1], &agg[i]);
	}
	if (!err)
		qsort(cands, nc, sizeof(*cands), name_cmp);
	if (!err && vmsa_cgroups_series_full(cg))
		cands[nc++] = (struct cand){&agg[n + 1], "other", n + 1};
	if (!err && agg[n].reclaims)
		cands[nc++] = (struct cand){&agg[n], "unknown", n};
	char **labels = err ? NULL : calloc(nc + 1, sizeof(*labels));
	if (!err && !labels)
		err = VMSA_E_NOMEM;
	size_t lmax = 0;
	for (size_t i = 0; !err && i < nc; i++) {
		char *v = label_value(cands[i].name);
		size_t len = v ? strlen(v) + 16 : 0;
		if (v && (labels[i] = malloc(len)))
			snprintf(labels[i], len, "cgroup=\"%s\"", v);
		else
			err = VMSA_E_NOMEM;
		lmax = len > lmax ? len : lmax;
		free(v);
	}
	char *l = err ? NULL : malloc(lmax + 64);
	if (!err && !l)
		err = VMSA_E_NOMEM;
	/* a context the host has seen no reclaim of is left out */
	bool ctx_on[NWIN];
	for (int c = 0; c < NWIN; c++) {
		char p[64];
		double v;
		snprintf(p, sizeof(p), "totals.%s.reclaims", window_ctx[c]);
		ctx_on[c] = vmsa_doc_number(d, p, &v) == 0 && v > 0;
	}
	for (size_t f = 0; !err && f < NCG; f++) {
		const struct cg_counter *k = &cg_counters[f];
		family(w, k->name, "counter", k->unit, k->help);
		for (size_t i = 0; i < nc; i++)
			for (int c = 0; c < NWIN; c++) {
				const struct cg_agg *a = cands[i].a;
				if (!ctx_on[c] || a->null[f][c])
					continue;
				char val[48];
				snprintf(l, lmax + 64, "%s,context=\"%s\"", labels[i], window_ctx[c]);
				if (k->ns)
					seconds(val, sizeof(val), a->v[f][c]);
				else
					count(val, sizeof(val), (double)a->v[f][c]);
				sample(w, "_total", l, val);
			}
	}
	if (!err && nc && ctx_on[0])
		family(w, "vmscan_cgroup_direct_stall_seconds", "histogram", "seconds",
		       "Direct reclaim stalls of the cgroup's tasks: completed direct reclaim windows.");
	for (size_t i = 0; !err && ctx_on[0] && i < nc; i++)
		err = hist_samples(w, labels[i], &cands[i].a->stall);
	free(l);
	for (size_t i = 0; labels && i < nc; i++)
		free(labels[i]);
	free(labels);
	free(cands);
	free(agg);
	return err;
}

int vmsa_report_openmetrics_cgroups(FILE *f, const struct vmsa_doc *d,
				    enum vmsa_metrics_format fmt, struct vmsa_cgroups *cg)
{
	double version;
	if (vmsa_doc_number(d, "schema_version", &version) != 0)
		return VMSA_E_CORRUPT;
	json_object *root = (json_object *)vmsa_doc_json(d);
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
	if (!err && cg)
		err = cgroup_samples(&w, d, cg);
	if (!err && fmt == VMSA_METRICS_OPENMETRICS)
		fputs("# EOF\n", f);
	if (!err && (fflush(f) || ferror(f)))
		err = VMSA_E_IO;
	return err;
}

int vmsa_report_openmetrics(FILE *f, const struct vmsa_doc *d, enum vmsa_metrics_format fmt)
{
	return vmsa_report_openmetrics_cgroups(f, d, fmt, NULL);
}
