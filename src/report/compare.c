/* SPDX-License-Identifier: MIT */
/*
 * compare: N summaries side by side, in the layout of the 2010 cover
 * letter's tables (its rows first, in its order), then the rows a 6.1
 * kernel adds and the derived rows reclaim studies use.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"

enum kind { PLAIN, SECONDS, MSEC, PERCENT, RATE };

struct row {
	const char *label;
	enum kind kind;
	const char *a;		/* path */
	const char *b;		/* second path: a + b, or a / b (ratios) */
	const char *c;		/* third path, summed with b in ratios */
};

/* NULL label: a blank line */
static const struct row rows[] = {
	{.label = "Direct reclaims", .kind = PLAIN, .a = "totals.direct.reclaims"},
	{.label = "Direct reclaim pages scanned", .kind = PLAIN, .a = "totals.direct.pages_scanned"},
	{.label = "Direct reclaim write file async I/O", .kind = PLAIN, .a = "totals.direct.writes.file_async"},
	{.label = "Direct reclaim write anon async I/O", .kind = PLAIN, .a = "totals.direct.writes.anon_async"},
	{.label = "Direct reclaim write file sync I/O", .kind = PLAIN, .a = "totals.direct.writes.file_sync"},
	{.label = "Direct reclaim write anon sync I/O", .kind = PLAIN, .a = "totals.direct.writes.anon_sync"},
	{.label = "Wake kswapd requests", .kind = PLAIN, .a = "totals.wakeup_kswapd_requests"},
	{.label = "Kswapd wakeups", .kind = PLAIN, .a = "totals.kswapd.wakeups"},
	{.label = "Kswapd pages scanned", .kind = PLAIN, .a = "totals.kswapd.pages_scanned"},
	{.label = "Kswapd reclaim write file async I/O", .kind = PLAIN, .a = "totals.kswapd.writes.file_async"},
	{.label = "Kswapd reclaim write anon async I/O", .kind = PLAIN, .a = "totals.kswapd.writes.anon_async"},
	{.label = "Kswapd reclaim write file sync I/O", .kind = PLAIN, .a = "totals.kswapd.writes.file_sync"},
	{.label = "Kswapd reclaim write anon sync I/O", .kind = PLAIN, .a = "totals.kswapd.writes.anon_sync"},
	{.label = "Time stalled direct reclaim (seconds)", .kind = SECONDS, .a = "totals.direct.latency_ns"},
	{.label = "Time kswapd awake (seconds)", .kind = SECONDS, .a = "totals.kswapd.awake_ns"},
	{.label = NULL},
	{.label = "Direct reclaim pages reclaimed", .kind = PLAIN, .a = "totals.direct.pages_reclaimed"},
	{.label = "Kswapd pages reclaimed", .kind = PLAIN, .a = "totals.kswapd.pages_reclaimed"},
	{.label = "Flusher wake-ups from reclaim", .kind = PLAIN, .a = "totals.flusher_wakeups.all_dirty.count", .b = "totals.flusher_wakeups.flush_forward.count"},
	{.label = "  pages requested (flush forward)", .kind = PLAIN, .a = "totals.flusher_wakeups.flush_forward.requested_pages"},
	{.label = "Throttled writeback (seconds)", .kind = SECONDS, .a = "totals.throttled.writeback.delayed_ns"},
	{.label = "Throttled isolated (seconds)", .kind = SECONDS, .a = "totals.throttled.isolated.delayed_ns"},
	{.label = "Throttled noprogress (seconds)", .kind = SECONDS, .a = "totals.throttled.noprogress.delayed_ns"},
	{.label = "Throttled congested (seconds)", .kind = SECONDS, .a = "totals.throttled.congested.delayed_ns"},
	{.label = "Memcg reclaims", .kind = PLAIN, .a = "totals.memcg.reclaims", .b = "totals.memcg_softlimit.reclaims"},
	{.label = "Memcg reclaim pages scanned", .kind = PLAIN, .a = "totals.memcg.pages_scanned", .b = "totals.memcg_softlimit.pages_scanned"},
	{.label = "Direct stall p50 (ms)", .kind = MSEC, .a = "latency.direct_stall_ns.p50_ns"},
	{.label = "Direct stall p99 (ms)", .kind = MSEC, .a = "latency.direct_stall_ns.p99_ns"},
	{.label = "Direct stall max (ms)", .kind = MSEC, .a = "latency.direct_stall_ns.max_ns"},
	{.label = NULL},
	{.label = "Direct reclaim efficiency (reclaimed/scanned)", .kind = PERCENT, .a = "totals.direct.pages_reclaimed", .b = "totals.direct.pages_scanned"},
	{.label = "Kswapd reclaim efficiency (reclaimed/scanned)", .kind = PERCENT, .a = "totals.kswapd.pages_reclaimed", .b = "totals.kswapd.pages_scanned"},
	{.label = "Scan velocity (pages scanned/s)", .kind = RATE, .a = "totals.direct.pages_scanned", .b = "totals.kswapd.pages_scanned"},
	{.label = "Direct share of pages scanned", .kind = PERCENT, .a = "totals.direct.pages_scanned", .b = "totals.direct.pages_scanned", .c = "totals.kswapd.pages_scanned"},
	{.label = "File pages written per page scanned", .kind = PERCENT, .a = "totals.direct.writes.file_async", .b = "totals.direct.pages_scanned", .c = "totals.kswapd.pages_scanned"},
};

/* NAN when not measured (null) */
static double get(const struct vmsa_doc *d, const char *path)
{
	double v;
	return path && vmsa_doc_number(d, path, &v) == 0 ? v : NAN;
}

static double value(const struct vmsa_doc *d, const struct row *r)
{
	double a = get(d, r->a);
	switch (r->kind) {
	case PERCENT: {
		double num = a, den = get(d, r->b) + (r->c ? get(d, r->c) : 0);
		if (strstr(r->label, "File pages written"))
			num = a + get(d, "totals.kswapd.writes.file_async");
		return den > 0 ? 100.0 * num / den : NAN;
	}
	case RATE: {
		double secs = get(d, "input.duration_ns") / 1e9;
		return secs > 0 ? (a + get(d, r->b)) / secs : NAN;
	}
	default:
		return r->b ? a + get(d, r->b) : a;
	}
}

static void fmt(char *buf, size_t n, enum kind k, double v)
{
	if (isnan(v)) {
		snprintf(buf, n, "-");
		return;
	}
	switch (k) {
	case SECONDS:
		snprintf(buf, n, "%.2f", v / 1e9);
		break;
	case MSEC:
		snprintf(buf, n, "%.2f", v / 1e6);
		break;
	case PERCENT:
		snprintf(buf, n, "%.2f%%", v);
		break;
	case RATE:
		snprintf(buf, n, "%.0f", v);
		break;
	default:
		snprintf(buf, n, "%.0f", v);
	}
}

int vmsa_report_compare(FILE *f, const struct vmsa_doc *const *docs, const char *const *names,
			int n, int json, int relative)
{
	size_t nrows = sizeof(rows) / sizeof(rows[0]);
	if (json) {
		struct json_object *root = json_object_new_object(), *cols = json_object_new_array();
		struct json_object *arr = json_object_new_array();
		for (int i = 0; i < n; i++)
			json_object_array_add(cols, json_object_new_string(names[i]));
		json_object_object_add(root, "columns", cols);
		for (size_t r = 0; r < nrows; r++) {
			if (!rows[r].label)
				continue;
			struct json_object *o = json_object_new_object(), *vals = json_object_new_array();
			json_object_object_add(o, "row", json_object_new_string(rows[r].label));
			for (int i = 0; i < n; i++) {
				double v = value(docs[i], &rows[r]);
				if (rows[r].kind == SECONDS || rows[r].kind == MSEC)
					v /= rows[r].kind == SECONDS ? 1e9 : 1e6;
				json_object_array_add(vals, isnan(v) ? NULL : json_object_new_double(v));
			}
			json_object_object_add(o, "values", vals);
			json_object_array_add(arr, o);
		}
		json_object_object_add(root, "rows", arr);
		int err = vmsa_json_write(f, root, 1);
		json_object_put(root);
		return err;
	}
	int w = 14;
	for (int i = 0; i < n; i++)
		if ((int)strlen(names[i]) + 2 > w)
			w = (int)strlen(names[i]) + 2;
	int lw = 46;
	fprintf(f, "%-*s", lw, "");
	for (int i = 0; i < n; i++)
		fprintf(f, "%*s", w, names[i]);
	fputc('\n', f);
	for (size_t r = 0; r < nrows; r++) {
		if (!rows[r].label) {
			fputc('\n', f);
			continue;
		}
		fprintf(f, "%-*s", lw, rows[r].label);
		double base = value(docs[0], &rows[r]);
		for (int i = 0; i < n; i++) {
			char b[64], cell[96];
			double v = value(docs[i], &rows[r]);
			fmt(b, sizeof(b), rows[r].kind, v);
			if (relative && i > 0 && !isnan(v) && !isnan(base) && base != 0 &&
			    rows[r].kind != PERCENT)
				snprintf(cell, sizeof(cell), "%s(%+.0f%%)", b, 100.0 * (v - base) / base);
			else
				snprintf(cell, sizeof(cell), "%s", b);
			fprintf(f, "%*s", w + (relative ? 8 : 0), cell);
		}
		fputc('\n', f);
	}
	return ferror(f) ? VMSA_E_IO : 0;
}
