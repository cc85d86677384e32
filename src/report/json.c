/* SPDX-License-Identifier: MIT */
/* The JSON summary, schema in docs/json-schema.md and docs/summary.schema.json. */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../summary_fields.h"

typedef struct json_object jo;

static jo *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

static void add(jo *o, const char *k, jo *v)
{
	json_object_object_add(o, k, v);
}

/* Task names are bytes: keep valid UTF-8, replace the rest with U+FFFD. */
static jo *str_utf8(const char *s, size_t n)
{
	char *b = malloc(n * 3 + 1);
	if (!b)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
				    : (c & 0xf8) == 0xf0 ? 4 : 0;
		bool ok = len && i + len <= n;
		for (size_t j = 1; ok && j < len; j++)
			ok = ((unsigned char)s[i + j] & 0xc0) == 0x80;
		if (ok && len == 2 && c < 0xc2)
			ok = false; /* overlong */
		if (ok) {
			memcpy(b + o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(b + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	jo *r = json_object_new_string_len(b, (int)o);
	free(b);
	return r;
}

static jo *hist(const struct vmsa_hist *h)
{
	jo *o = json_object_new_object();
	add(o, "count", u64(h->count));
	add(o, "sum_ns", u64(h->sum));
	add(o, "min_ns", h->count ? u64(h->min) : NULL);
	add(o, "max_ns", h->count ? u64(h->max) : NULL);
	for (size_t i = 0; i < sizeof(vmsa_hist_quantile_keys) / sizeof(vmsa_hist_quantile_keys[0]); i++)
		add(o, vmsa_hist_quantile_keys[i].key,
		    h->count ? u64(vmsa_hist_quantile(h, vmsa_hist_quantile_keys[i].q)) : NULL);
	add(o, "sub_buckets_log2", u64(h->sub_bits));
	jo *b = json_object_new_array();
	size_t n = vmsa_hist_nbuckets(h);
	for (size_t i = 0; h->buckets && i < n; i++) {
		if (!h->buckets[i])
			continue;
		uint64_t lo, hi;
		vmsa_hist_bucket_bounds(h, i, &lo, &hi);
		jo *e = json_object_new_object();
		add(e, "lo_ns", u64(lo));
		add(e, "hi_ns", u64(hi));
		add(e, "count", u64(h->buckets[i]));
		json_object_array_add(b, e);
	}
	add(o, "buckets", b);
	return o;
}

static jo *by_order(const uint64_t *v)
{
	jo *o = json_object_new_object();
	for (int i = 0; i < VMSA_MAX_ORDER; i++)
		if (v[i]) {
			char k[8];
			snprintf(k, sizeof(k), "%d", i);
			add(o, k, u64(v[i]));
		}
	return o;
}

/* One reclaim context's counters (a row's or the totals'), VMSA_CTX_* in order. */
static jo *ctx_obj(const struct vmsa_counters *c, bool sync_applicable, bool windowed)
{
	jo *o = json_object_new_object();
#define PUT(type, member, key, unit) add(o, key, u64((uint64_t)c->member));
	if (windowed) {
		VMSA_CTX_WINDOW(PUT)
	}
	add(o, "pages_scanned", u64(vmsa_scanned(c)));
	VMSA_CTX_SCANNED(PUT)
	add(o, "pages_reclaimed", u64(vmsa_reclaimed(c)));
	VMSA_CTX_RECLAIMED(PUT)
	jo *w = json_object_new_object();
	add(w, "file_async", u64(c->write[1][0]));
	add(w, "anon_async", u64(c->write[0][0]));
	add(w, "file_sync", sync_applicable ? u64(c->write[1][1]) : NULL);
	add(w, "anon_sync", sync_applicable ? u64(c->write[0][1]) : NULL);
	add(w, "pages", c->write_events_with_pages ? u64(c->write_pages) : NULL);
	add(o, "writes", w);
	VMSA_CTX_TAIL(PUT)
#undef PUT
	return o;
}

static jo *throttle_obj(const uint64_t *n, const uint64_t *usec)
{
	jo *o = json_object_new_object();
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++) {
		jo *e = json_object_new_object();
		add(e, "count", u64(n[b]));
		add(e, "delayed_ns", u64(usec[b] * 1000));
		add(o, vmsa_throttle_name(b), e);
	}
	return o;
}

static jo *row_common(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	jo *o = json_object_new_object();
	size_t len;
	const char *c = vmsa_summary_comm(sum, r, &len);
	add(o, "comm", str_utf8(c, len));
	add(o, "pid", sum->ignore_pid ? NULL : json_object_new_int(r->key.pid));
	return o;
}

static jo *process_obj(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	bool sync = sum->totals.sync_applicable;
	jo *o = row_common(sum, r);
	static const enum vmsa_ctx ctxs[] = {VMSA_CTX_DIRECT, VMSA_CTX_MEMCG, VMSA_CTX_SOFTLIMIT,
					     VMSA_CTX_NODE};
	for (int i = 0; i < 4; i++) {
		enum vmsa_ctx c = ctxs[i];
		jo *x = ctx_obj(&r->ctx[c], sync, true);
		add(x, "reclaims_by_order", by_order(r->begins_by_order[c]));
		add(o, vmsa_ctx_name(c), x);
	}
	add(o, "outside_reclaim", ctx_obj(&r->ctx[VMSA_CTX_NONE], sync, false));
	add(o, "wakeup_kswapd_requests", u64(r->wakeup_kswapd));
	add(o, "wakeup_kswapd_by_order", by_order(r->wakeup_by_order));
	add(o, "throttled", throttle_obj(r->throttled, r->throttled_usec));
	add(o, "unmatched_begins", u64(r->unmatched_begins));
	add(o, "unmatched_ends", u64(r->unmatched_ends));
	add(o, "direct_stall_ns", hist(&r->stall));
	return o;
}

static jo *kswapd_obj(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	jo *o = row_common(sum, r);
	add(o, "nid", r->kswapd_nid >= 0 ? json_object_new_int(r->kswapd_nid) : NULL);
	add(o, "wakeups", u64(r->kswapd_wakeups));
	add(o, "wakeups_by_order", by_order(r->kswapd_wake_by_order));
	add(o, "rewakeups", u64(r->kswapd_rewakeups));
	add(o, "rewakeups_by_order", by_order(r->kswapd_rewake_by_order));
	add(o, "awake_in_progress", u64(r->ctx[VMSA_CTX_KSWAPD].in_progress));
	add(o, "awake_in_progress_ns", u64(r->ctx[VMSA_CTX_KSWAPD].in_progress_ns));
	add(o, "sleeps_without_wake", u64(r->kswapd_sleep_without_wake));
	jo *k = ctx_obj(&r->ctx[VMSA_CTX_KSWAPD], sum->totals.sync_applicable, false);
	add(k, "awake_ns", u64(r->ctx[VMSA_CTX_KSWAPD].latency_ns));
	add(o, "reclaim", k);
	for (int c = VMSA_CTX_DIRECT; c <= VMSA_CTX_NODE; c++)
		if (r->ctx[c].windows)
			add(o, vmsa_ctx_name(c),
			    ctx_obj(&r->ctx[c], sum->totals.sync_applicable, true));
	add(o, "throttled", throttle_obj(r->throttled, r->throttled_usec));
	add(o, "awake_ns_histogram", hist(&r->awake));
	return o;
}

static jo *source_obj(const struct vmsa_source_info *s)
{
	const struct vmsa_source_counts *c = &s->counts;
	const struct vmsa_traits *t = &s->traits;
	jo *o = json_object_new_object();
	add(o, "name", str_utf8(s->name, strlen(s->name)));
	add(o, "format", json_object_new_string(s->format));
	add(o, "bytes_read", u64(c->bytes_read));
	add(o, "lines_read", u64(c->lines_read));
	add(o, "lines_analyzed", u64(c->lines_analyzed));
	add(o, "lines_ignored", u64(c->lines_ignored));
	add(o, "lines_lost_markers", u64(c->lines_lost_markers));
	add(o, "lines_rejected", u64(c->lines_rejected));
	jo *r = json_object_new_object();
	for (int i = 0; i < VMSA_REJECT__COUNT; i++)
		add(r, vmsa_reject_reason_name(i), u64(c->rejected_by_reason[i]));
	add(o, "rejected_by_reason", r);
	add(o, "events_lost", u64(c->events_lost));
	add(o, "lost_markers_without_count", u64(c->lost_markers_without_count));
	add(o, "unknown_vmscan_events", u64(c->unknown_vmscan_events));
	jo *tr = json_object_new_object();
	add(tr, "lru_isolate_names_list", json_object_new_boolean(t->lines_with_lru_name > 0));
	add(tr, "write_event",
	    json_object_new_string(t->write_folio_events ? "mm_vmscan_write_folio"
				   : (t->writes_with_flags || t->writes_with_sync_field)
					   ? "mm_vmscan_writepage"
					   : "none"));
	add(tr, "sync_io_expressed",
	    json_object_new_boolean(t->writes_with_sync_field || t->writes_flag_sync));
	add(tr, "write_pages_expressed", json_object_new_boolean(t->writes_with_nr_pages > 0));
	add(tr, "timestamp_resolution",
	    json_object_new_string(t->timestamps_ns_precision ? "ns" : "us"));
	add(o, "traits", tr);
	/* what a binary file says about its recording */
	bool dat = t->tracedat_version != 0;
	add(o, "counted_as", json_object_new_string(dat ? "records" : "lines"));
	jo *rec = json_object_new_object();
	add(rec, "tracedat_version", dat ? u64(t->tracedat_version) : NULL);
	add(rec, "uname", dat && t->uname[0] ? str_utf8(t->uname, strlen(t->uname)) : NULL);
	add(rec, "clock", dat && t->clock[0] ? str_utf8(t->clock, strlen(t->clock)) : NULL);
	char release[64] = "";
	if (dat && sscanf(t->uname, "%*s %*s %63s", release) != 1)
		release[0] = '\0';
	add(rec, "kernel_release", release[0] ? json_object_new_string(release) : NULL);
	add(rec, "cpus", dat ? json_object_new_int(t->cpus) : NULL);
	jo *pc = NULL;
	if (dat && t->cpu_stats) {
		pc = json_object_new_array();
		for (int i = 0; i < t->cpu_stats && i < 64; i++)
			json_object_array_add(pc, u64(t->cpu_lost[i]));
	}
	add(rec, "events_lost_per_cpu", pc);
	add(rec, "instances", dat ? json_object_new_int(t->instances) : NULL);
	add(o, "recording", rec);
	return o;
}

static jo *notes(const struct vmsa_summary *sum)
{
	jo *a = json_object_new_array();
	const struct vmsa_totals *t = &sum->totals;
	if (!t->sync_applicable)
		json_object_array_add(a, json_object_new_string(
						 "sync_io_not_applicable: this kernel's reclaim writes "
						 "only asynchronously; sync counts are null"));
	if (t->scans_missing)
		json_object_array_add(a, json_object_new_string(
						 "scans_missing: reclaim events but no "
						 "mm_vmscan_lru_isolate; pages scanned are unknown"));
	if (sum->negative_latencies)
		json_object_array_add(a, json_object_new_string(
						 "timestamps_went_backwards: some latencies were "
						 "counted as 0"));
	if (t->tasks_folded)
		json_object_array_add(a, json_object_new_string(
						 "tasks_folded: tasks beyond --max-tasks are counted "
						 "in the (other tasks) row"));
	if (t->events_lost)
		json_object_array_add(a, json_object_new_string(
						 "events_lost: the tracer dropped events; counts are "
						 "lower bounds"));
	return a;
}

static jo *summary_json(const struct vmsa_summary *sum, bool rows);

struct json_object *vmsa_summary_to_json(const struct vmsa_summary *sum)
{
	return summary_json(sum, true);
}

static jo *summary_json(const struct vmsa_summary *sum, bool with_rows)
{
	const struct vmsa_totals *t = &sum->totals;
	jo *root = json_object_new_object();
	add(root, "schema", json_object_new_string("vmscan-analyze/summary"));
	add(root, "schema_version", json_object_new_int(VMSA_SCHEMA_VERSION));
	jo *tool = json_object_new_object();
	add(tool, "name", json_object_new_string("vmscan-analyze"));
	add(tool, "version", json_object_new_string(VMSA_VERSION));
	add(root, "tool", tool);

	jo *in = json_object_new_object();
	jo *srcs = json_object_new_array();
	struct vmsa_source_counts all = {0};
	for (size_t i = 0; i < sum->nsources; i++) {
		json_object_array_add(srcs, source_obj(&sum->sources[i]));
		vmsa_counts_add(&all, &sum->sources[i].counts);
	}
	add(in, "sources", srcs);
	add(in, "lines_read", u64(all.lines_read));
	add(in, "lines_analyzed", u64(all.lines_analyzed));
	add(in, "lines_ignored", u64(all.lines_ignored));
	add(in, "lines_rejected", u64(all.lines_rejected));
	add(in, "lines_lost_markers", u64(all.lines_lost_markers));
	add(in, "events_lost", u64(t->events_lost));
	add(in, "events_analyzed", u64(sum->events));
	add(in, "first_timestamp_ns", sum->have_ts ? u64(sum->first_ts_ns) : NULL);
	add(in, "last_timestamp_ns", sum->have_ts ? u64(sum->last_ts_ns) : NULL);
	add(in, "duration_ns", u64(sum->have_ts ? sum->last_ts_ns - sum->first_ts_ns : 0));
	add(root, "input", in);
	add(root, "notes", notes(sum));

	/* totals: the rows added up, context by context */
	struct vmsa_task_row all_rows;
	memset(&all_rows, 0, sizeof(all_rows));
	for (size_t i = 0; i < sum->nrows; i++)
		vmsa_row_counters_add(&all_rows, sum->rows[i]);
	jo *tot = json_object_new_object();
	for (int c = 0; c < VMSA_CTX__COUNT; c++) {
		bool windowed = c <= VMSA_CTX_NODE;
		jo *x = ctx_obj(&all_rows.ctx[c], t->sync_applicable, windowed);
		if (windowed)
			add(x, "reclaims_by_order", by_order(all_rows.begins_by_order[c]));
		if (c == VMSA_CTX_KSWAPD) {
			add(x, "wakeups", u64(t->kswapd_wakeups));
			add(x, "wakeups_by_order", by_order(all_rows.kswapd_wake_by_order));
			add(x, "rewakeups", u64(t->kswapd_rewakeups));
			add(x, "rewakeups_by_order", by_order(all_rows.kswapd_rewake_by_order));
			add(x, "awake_ns", u64(all_rows.ctx[c].latency_ns));
			add(x, "awake_in_progress", u64(all_rows.ctx[c].in_progress));
		}
		add(tot, vmsa_ctx_name(c), x);
	}
	add(tot, "wakeup_kswapd_requests", u64(t->wakeup_kswapd));
	add(tot, "wakeup_kswapd_by_order", by_order(all_rows.wakeup_by_order));
	add(tot, "throttled", throttle_obj(t->throttled, t->throttled_usec));
	jo *fl = json_object_new_object();
	for (int k = 0; k < VMSA_FLUSH__COUNT; k++) {
		jo *e = json_object_new_object();
		add(e, "count", u64(t->flusher_wakeups[k]));
		add(e, "dirty_pages_met", u64(t->flusher_dirty_pages[k]));
		add(e, "requested_pages", u64(t->flusher_requested_pages[k]));
		add(fl, vmsa_flush_reason_name(k), e);
	}
	add(tot, "flusher_wakeups", fl);
	add(tot, "unmatched_begins", u64(t->unmatched_begins));
	add(tot, "unmatched_ends", u64(t->unmatched_ends));
	add(tot, "tasks", u64(t->tasks));
	add(tot, "tasks_folded", u64(t->tasks_folded));
	add(tot, "sync_io_applicable", json_object_new_boolean(t->sync_applicable));
	add(tot, "pages_scanned_known", json_object_new_boolean(!t->scans_missing));
	add(root, "totals", tot);

	jo *lat = json_object_new_object();
	add(lat, "direct_stall_ns", hist(&sum->stall_hist));
	add(lat, "kswapd_awake_ns", hist(&sum->awake_hist));
	add(lat, "memcg_reclaim_ns", hist(&sum->memcg_hist));
	add(root, "latency", lat);

	if (!with_rows)
		return root;
	jo *procs = json_object_new_array(), *ksw = json_object_new_array();
	for (size_t i = 0; i < sum->nrows; i++) {
		const struct vmsa_task_row *r = sum->rows[i];
		if (r->is_kswapd)
			json_object_array_add(ksw, kswapd_obj(sum, r));
		else
			json_object_array_add(procs, process_obj(sum, r));
	}
	add(root, "processes", procs);
	add(root, "kswapd", ksw);
	return root;
}

int vmsa_json_write(FILE *f, struct json_object *root, int pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
		    (pretty ? JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN);
	const char *s = json_object_to_json_string_ext(root, flags);
	if (!s)
		return VMSA_E_NOMEM;
	fputs(s, f);
	fputc('\n', f);
	return ferror(f) ? VMSA_E_IO : 0;
}

/*
 * The document is written in two parts so that memory does not grow with
 * the number of tasks: everything but the task rows as one object, then
 * the "processes" and "kswapd" arrays row by row.
 */
int vmsa_report_json(FILE *f, const struct vmsa_summary *sum,
		     const struct vmsa_report_options *opts)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
		    (opts && opts->pretty ? JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN);
	jo *root = summary_json(sum, false);
	const char *s = root ? json_object_to_json_string_ext(root, flags) : NULL;
	if (!s) {
		json_object_put(root);
		return VMSA_E_NOMEM;
	}
	size_t n = strlen(s);
	while (n && s[n - 1] != '}')
		n--;
	fwrite(s, 1, n ? n - 1 : 0, f); /* without its closing brace */
	json_object_put(root);
	for (int pass = 0; pass < 2; pass++) {
		fputs(pass ? "],\"kswapd\":[" : ",\"processes\":[", f);
		bool first = true;
		for (size_t i = 0; i < sum->nrows; i++) {
			const struct vmsa_task_row *r = sum->rows[i];
			if (r->is_kswapd != (pass == 1))
				continue;
			jo *o = pass ? kswapd_obj(sum, r) : process_obj(sum, r);
			const char *t = o ? json_object_to_json_string_ext(o, flags) : NULL;
			if (!t) {
				json_object_put(o);
				return VMSA_E_NOMEM;
			}
			if (!first)
				fputc(',', f);
			fputs(t, f);
			first = false;
			json_object_put(o);
		}
	}
	fputs("]}\n", f);
	return ferror(f) ? VMSA_E_IO : 0;
}
