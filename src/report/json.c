/* SPDX-License-Identifier: MIT */
/* The JSON summary, schema in docs/json-schema.md and docs/summary.schema.json. */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../summary_fields.h"
#include "json_rows.h"

typedef struct json_object jo;

/* the vocabulary of the lists' values (summary_fields.h) */
#define VMSA_JNULL NULL
#define VMSA_JBOOL(b) json_object_new_boolean(b)
#define VMSA_JINT(i) json_object_new_int(i)
#define VMSA_JSTR(s) json_object_new_string(s)

static jo *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

/* v, or null (the member left out, when optional) when it is 0: "when any" */
static jo *u64_any(uint64_t v)
{
	return v ? u64(v) : NULL;
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
	size_t o = vmsa_utf8_fix(b, s, n);
	jo *r = json_object_new_string_len(b, (int)o);
	free(b);
	return r;
}

/* add(), the key a name of the input's (an event's, a buffer's): bytes
 * that are not UTF-8 become U+FFFD, as in str_utf8() */
static void add_name(jo *o, const char *k, jo *v)
{
	size_t n = strlen(k);
	char *b = malloc(n * 3 + 1);
	if (!b) {
		json_object_put(v);
		return;
	}
	b[vmsa_utf8_fix(b, k, n)] = '\0';
	json_object_object_add(o, b, v);
	free(b);
}

/*
 * The objects are filled from the lists of summary_fields.h, member by
 * member in the table's order: PUT adds a member, PUT_OPT one that is
 * there only when not NULL, PUT_COUNTER a counter of struct vmsa_counters.
 */
#define PUT(k, kind, meaning, value) add(o, k, value);
#define PUT_OPT(k, kind, meaning, value)  \
	{                                 \
		jo *v_ = (value);         \
		if (v_)                   \
			add(o, k, v_);    \
	}
#define PUT_COUNTER(type, member, k, unit, meaning) add(o, k, u64((uint64_t)c->member));
#define PUT_SCANNED(type, member, k, unit, meaning) \
	add(o, k, kn.scanned ? u64((uint64_t)c->member) : NULL);
#define PUT_RECLAIMED(type, member, k, unit, meaning) \
	add(o, k, kn.reclaimed ? u64((uint64_t)c->member) : NULL);
#define PUT_END_RECLAIMED(type, member, k, unit, meaning) \
	add(o, k, kn.end_reclaimed ? u64((uint64_t)c->member) : NULL);
#define PUT_SLAB_FREED(type, member, k, unit, meaning) \
	add(o, k, kn.slab_freed ? u64((uint64_t)c->member) : NULL);
#define PUT_QUANTILE(k, q) add(o, k, h->count ? u64(vmsa_hist_quantile(h, q)) : NULL);
#define NO_MEMBER(k, kind, meaning, value)

static jo *buckets_arr(const struct vmsa_hist *h)
{
	jo *b = json_object_new_array();
	uint64_t lo, hi;
	for (size_t i = 0; vmsa_hist_next(h, &i, &lo, &hi); i++) {
		jo *o = json_object_new_object();
		VMSA_BUCKET_FIELDS(PUT)
		json_object_array_add(b, o);
	}
	return b;
}

static jo *hist_obj(const struct vmsa_hist *h)
{
	jo *o = json_object_new_object();
	VMSA_HIST_FIELDS(PUT, PUT_QUANTILE)
	return o;
}

static jo *orders(vmsa_orders_t by)
{
	uint64_t tmp[VMSA_MAX_ORDER];
	const uint64_t *v = vmsa_orders(by, tmp);
	jo *o = json_object_new_object();
	for (int i = 0; i < VMSA_MAX_ORDER; i++)
		if (v[i]) {
			char k[8];
			snprintf(k, sizeof(k), "%d", i);
			add(o, k, u64(v[i]));
		}
	return o;
}

static jo *writes_obj(const struct vmsa_counters *c, struct vmsa_known kn)
{
	jo *o = json_object_new_object();
	VMSA_WRITES_FIELDS(PUT)
	return o;
}

/* One reclaim context's counters (a row's or the totals'). */
static jo *ctx_obj(const struct vmsa_counters *c, struct vmsa_known kn, bool windowed)
{
	jo *o = json_object_new_object();
	if (windowed) {
		VMSA_CTX_WINDOW(PUT_COUNTER)
	}
	VMSA_CTX_FIELDS(PUT, PUT_COUNTER, PUT_SCANNED, PUT_RECLAIMED, PUT_END_RECLAIMED,
			PUT_SLAB_FREED)
	return o;
}

/* context x of the row (or rows added up) r, with its orders */
static jo *ctx_order_obj(const struct vmsa_task_row *r, enum vmsa_ctx x, struct vmsa_known kn)
{
	jo *o = ctx_obj(vmsa_row_ctx(r, x), kn, true);
	VMSA_CTX_ORDER_FIELDS(PUT)
	return o;
}

static jo *throttle_obj(const uint64_t *n, const uint64_t *usec)
{
	jo *all = json_object_new_object();
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++) {
		jo *o = json_object_new_object();
		VMSA_THROTTLE_ONE_FIELDS(PUT)
		add(all, vmsa_throttle_name(b), o);
	}
	return all;
}

/* the sums n of mm_vmscan_reclaim_pages; NULL (left out) when there were none */
static jo *reclaim_pages_obj(const uint64_t *n)
{
	if (!n[VMSA_RP_EVENTS])
		return NULL;
	jo *o = json_object_new_object();
	VMSA_RECLAIM_PAGES_FIELDS(PUT)
	return o;
}

static jo *flusher_obj(const struct vmsa_totals *t)
{
	jo *all = json_object_new_object();
	for (int k = 0; k < VMSA_FLUSH__COUNT; k++) {
		jo *o = json_object_new_object();
		VMSA_FLUSHER_ONE_FIELDS(PUT)
		add(all, vmsa_flush_reason_name(k), o);
	}
	return all;
}

static jo *wb_known(const struct vmsa_totals *t, uint64_t v)
{
	return t->writeback_known ? u64(v) : NULL;
}

static jo *writeback_obj(const struct vmsa_totals *t)
{
	jo *all = json_object_new_object();
	for (int k = 0; k < VMSA_WB__COUNT; k++) {
		jo *o = json_object_new_object();
		VMSA_WRITEBACK_ONE_FIELDS(PUT)
		add(all, vmsa_wb_reason_name(k), o);
	}
	jo *o = all;
	VMSA_WRITEBACK_FIELDS(PUT)
	return o;
}

static jo *comm_str(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	size_t len;
	const char *c = vmsa_summary_comm(sum, r, &len);
	return str_utf8(c, len);
}

static jo *process_obj(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	struct vmsa_known kn = vmsa_known_of(sum);
	jo *o = json_object_new_object();
	VMSA_PROCESS_FIELDS(PUT, PUT_OPT)
	return o;
}

static jo *kswapd_reclaim_obj(const struct vmsa_task_row *r, struct vmsa_known kn)
{
	jo *o = ctx_obj(vmsa_row_ctx(r, VMSA_CTX_KSWAPD), kn, false);
	VMSA_KSWAPD_RECLAIM_FIELDS(PUT)
	return o;
}

/* a kswapd thread's windows of context x, when it had any */
static jo *window_obj(const struct vmsa_task_row *r, enum vmsa_ctx x, struct vmsa_known kn)
{
	return vmsa_row_ctx(r, x)->reclaims ? ctx_obj(vmsa_row_ctx(r, x), kn, true) : NULL;
}

static jo *kswapd_obj(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	struct vmsa_known kn = vmsa_known_of(sum);
	jo *o = json_object_new_object();
	VMSA_KSWAPD_ROW_FIELDS(PUT, PUT_OPT)
	return o;
}

static jo *rejected_obj(const struct vmsa_source_counts *c)
{
	jo *o = json_object_new_object();
	for (int i = 0; i < VMSA_REJECT__COUNT; i++)
		add(o, vmsa_reject_reason_name(i), u64(c->rejected_by_reason[i]));
	return o;
}

static const char *write_event_name(const struct vmsa_traits *t)
{
	return vmsa_write_event_name(t);
}

static jo *lru_name_obj(const struct vmsa_name_count *n)
{
	jo *o = json_object_new_object();
	VMSA_LRU_NAME_FIELDS(PUT)
	return o;
}

/* a table of names not known (struct vmsa_traits), NULL when empty */
static jo *names_obj(const struct vmsa_name_count *tab, bool lru)
{
	int n = 0;
	for (int i = 0; i < VMSA_NAME_COUNTS; i++)
		n += tab[i].name[0] != 0;
	if (!n)
		return NULL;
	jo *o = lru ? json_object_new_array() : json_object_new_object();
	for (int i = 0; i < VMSA_NAME_COUNTS; i++)
		if (!tab[i].name[0])
			continue;
		else if (lru)
			json_object_array_add(o, lru_name_obj(&tab[i]));
		else
			add_name(o, tab[i].name, u64(tab[i].count));
	return o;
}

/* the events of each buffer (traits.events_by_buffer), NULL when no instance had any */
static jo *buffers_obj(const struct vmsa_traits *t)
{
	const struct vmsa_name_count *in = t->instance_events;
	uint64_t top = t->top_buffer_events;
	bool any = false;
	for (int i = 0; i < VMSA_NAME_COUNTS; i++) {
		any |= in[i].name[0] != 0;
		if (!strcmp(in[i].name, VMSA_TOP_BUFFER))
			top += in[i].count; /* (an instance of the top's name: with it) */
	}
	if (!any)
		return NULL;
	jo *o = json_object_new_object();
	add(o, VMSA_TOP_BUFFER, u64(top));
	for (int i = 0; i < VMSA_NAME_COUNTS; i++)
		if (in[i].name[0] && strcmp(in[i].name, VMSA_TOP_BUFFER))
			add_name(o, in[i].name, u64(in[i].count));
	return o;
}

static jo *traits_obj(const struct vmsa_traits *t)
{
	jo *o = json_object_new_object();
	VMSA_TRAITS_FIELDS(PUT, PUT_OPT)
	return o;
}

static jo *kernel_release(const struct vmsa_traits *t, bool dat)
{
	char release[64] = "";
	if (dat && sscanf(t->uname, "%*s %*s %63s", release) != 1)
		release[0] = '\0';
	/* (bytes of the file: a damaged one's are not UTF-8) */
	return release[0] ? str_utf8(release, strlen(release)) : NULL;
}

static jo *lost_per_cpu(const struct vmsa_traits *t, bool dat)
{
	if (!dat || !t->cpu_stats)
		return NULL;
	jo *a = json_object_new_array();
	for (int i = 0; i < t->cpu_stats && i < 64; i++)
		json_object_array_add(a, u64(t->cpu_lost[i]));
	return a;
}

/* what a binary file says about its recording */
static jo *recording_obj(const struct vmsa_traits *t, bool dat)
{
	jo *o = json_object_new_object();
	VMSA_RECORDING_FIELDS(PUT)
	return o;
}

static jo *source_obj(const struct vmsa_source_info *s)
{
	const struct vmsa_source_counts *c = &s->counts;
	const struct vmsa_traits *t = &s->traits;
	bool dat = t->tracedat_version != 0;
	jo *o = json_object_new_object();
	VMSA_SOURCE_FIELDS(PUT, PUT_OPT)
	return o;
}

static jo *sources_arr(const struct vmsa_summary *sum)
{
	jo *a = json_object_new_array();
	for (size_t i = 0; i < sum->nsources; i++)
		json_object_array_add(a, source_obj(&sum->sources[i]));
	return a;
}

static jo *input_obj(const struct vmsa_summary *sum)
{
	const struct vmsa_totals *t = &sum->totals;
	struct vmsa_source_counts cnt = {0};
	for (size_t i = 0; i < sum->nsources; i++)
		vmsa_counts_add(&cnt, &sum->sources[i].counts);
	jo *o = json_object_new_object();
	VMSA_INPUT_FIELDS(PUT)
	return o;
}

static jo *notes(const struct vmsa_summary *sum)
{
	jo *a = json_object_new_array();
	for (size_t i = 0; i < vmsa_nnotes; i++)
		if (vmsa_notes[i].count(sum))
			json_object_array_add(a, json_object_new_string(vmsa_notes[i].json));
	return a;
}

static jo *kswapd_totals_obj(const struct vmsa_totals *t, const struct vmsa_task_row *all,
			     struct vmsa_known kn)
{
	jo *o = ctx_obj(vmsa_row_ctx(all, VMSA_CTX_KSWAPD), kn, false);
	VMSA_KSWAPD_TOTALS_FIELDS(PUT)
	return o;
}

/* the rows added up, context by context */
static jo *totals_obj(const struct vmsa_summary *sum)
{
	const struct vmsa_totals *t = &sum->totals;
	struct vmsa_known kn = vmsa_known_of(sum);
	struct vmsa_task_row rows;
	struct vmsa_row_space space;
	vmsa_row_in(&rows, &space);
	/* (in the order the rows were made: next to each other in memory) */
	struct vmsa_task_row *const *made = sum->rows_made ? sum->rows_made : sum->rows;
	for (size_t i = 0; i < sum->nrows; i++)
		vmsa_row_counters_add(&rows, made[i]); /* (nothing to make) */
	const struct vmsa_task_row *all = &rows;
	jo *o = json_object_new_object();
	VMSA_TOTALS_FIELDS(PUT, PUT_OPT)
	return o;
}

static jo *latency_obj(const struct vmsa_summary *sum)
{
	jo *o = json_object_new_object();
	VMSA_LATENCY_FIELDS(PUT)
	return o;
}

static jo *tool_obj(void)
{
	jo *o = json_object_new_object();
	VMSA_TOOL_FIELDS(PUT)
	return o;
}

/* the rows' keys, in the document's order; kswapd: the kswapd threads' */
#define ROW_KEY(k, kind, meaning, kswapd) {k, kswapd},
static const struct {
	const char *key;
	bool kswapd;
} row_lists[] = {VMSA_ROOT_FIELDS(NO_MEMBER, ROW_KEY)};
/* (the rows of the second are the first's others: vmsa_report_json()) */
_Static_assert(sizeof(row_lists) / sizeof(row_lists[0]) == 2, "two lists of rows");

static jo *rows_arr(const struct vmsa_summary *sum, bool kswapd)
{
	jo *a = json_object_new_array();
	for (size_t i = 0; i < sum->nrows; i++) {
		const struct vmsa_task_row *r = sum->rows[i];
		if (r->is_kswapd == kswapd)
			json_object_array_add(a, kswapd ? kswapd_obj(sum, r) : process_obj(sum, r));
	}
	return a;
}

/* the document, with its rows or without */
static jo *summary_json(const struct vmsa_summary *sum, bool with_rows)
{
	jo *o = json_object_new_object();
	VMSA_ROOT_FIELDS(PUT, NO_MEMBER)
	for (size_t i = 0; with_rows && i < sizeof(row_lists) / sizeof(row_lists[0]); i++)
		add(o, row_lists[i].key, rows_arr(sum, row_lists[i].kswapd));
	return o;
}

struct json_object *vmsa_summary_to_json(const struct vmsa_summary *sum, bool with_rows)
{
	return summary_json(sum, with_rows);
}

struct json_object *vmsa_row_to_json(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	return r->is_kswapd ? kswapd_obj(sum, r) : process_obj(sum, r);
}

int vmsa_summary_rows_to_json(struct json_object *root, const struct vmsa_summary *sum)
{
	for (size_t i = 0; i < sizeof(row_lists) / sizeof(row_lists[0]); i++) {
		jo *a = rows_arr(sum, row_lists[i].kswapd);
		if (!a || json_object_object_add(root, row_lists[i].key, a)) {
			json_object_put(a);
			return VMSA_E_NOMEM;
		}
	}
	return 0;
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
int vmsa_report_json_sized(FILE *f, const struct vmsa_summary *sum,
			   const struct vmsa_report_options *opts, size_t opts_size)
{
	struct vmsa_report_options o;
	if (opts && vmsa_abi_in(&o, sizeof o, opts, opts_size, VMSA_ABI_MIN_REPORT_OPTIONS))
		return VMSA_E_INVAL;
	if (opts)
		opts = &o;
	jo *root = summary_json(sum, false);
	if (!root)
		return VMSA_E_NOMEM;
	int err = vmsa_json_write_rows_of(f, root, sum, opts && opts->pretty);
	json_object_put(root);
	return err;
}

int vmsa_json_write_rows_of(FILE *f, struct json_object *root, const struct vmsa_summary *sum,
			    bool pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
		    (pretty ? JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN);
	const char *s = json_object_to_json_string_ext(root, flags);
	if (!s)
		return VMSA_E_NOMEM;
	size_t n = strlen(s);
	while (n && s[n - 1] != '}')
		n--;
	if (n)
		n--; /* without its closing brace */
	while (pretty && n && s[n - 1] == '\n')
		n--; /* (and the line it is on) */
	fwrite(s, 1, n, f);
	/* the rows are written directly (json_rows.c), not as trees; indented
	 * (--pretty) through vmsa_jw_pretty() as json-c indents them in the
	 * tree, two levels down: a tree a row took 20 times as long */
	struct vmsa_jw w = {0}, row = {0};
	/* the rows of the lists after the first, found in the first pass: a
	 * pass over all rows to find the few kswapd ones costs as much as
	 * writing them */
	size_t *later = malloc((sum->nrows ? sum->nrows : 1) * sizeof(*later)), nlater = 0;
	if (!later)
		return VMSA_E_NOMEM;
	for (size_t pass = 0; pass < sizeof(row_lists) / sizeof(row_lists[0]); pass++) {
		if (pass)
			fputs(pretty ? "\n  ]" : "]", f);
		fprintf(f, pretty ? ",\n  \"%s\":[" : ",\"%s\":[", row_lists[pass].key);
		bool first = true;
		size_t nlist = pass ? nlater : sum->nrows;
		for (size_t k = 0; k < nlist; k++) {
			size_t i = pass ? later[k] : k;
			if (!pass && k + 2 * VMSA_AHEAD < nlist)
				vmsa_prefetch(sum->rows[k + 2 * VMSA_AHEAD], sizeof(**sum->rows));
			if (!pass && k + VMSA_AHEAD < nlist)
				vmsa_prefetch_parts(&sum->comms, sum->rows[k + VMSA_AHEAD]);
			const struct vmsa_task_row *r = sum->rows[i];
			if (r->is_kswapd != row_lists[pass].kswapd) {
				if (!pass)
					later[nlater++] = i;
				continue;
			}
			/* rows are written a megabyte at a time: a write a row
			 * costs more than the row where they are many */
			if (!first)
				vmsa_jw_put(&w, ",", 1);
			first = false;
			if (pretty) {
				vmsa_jw_put(&w, "\n    ", 5); /* (the row's line, at level 2) */
				row.n = 0;
				vmsa_jw_row(&row, sum, r);
				vmsa_jw_pretty(&w, row.p, row.n, 2);
			} else {
				vmsa_jw_row(&w, sum, r);
			}
			if (w.oom || row.oom) {
				vmsa_jw_release(&w);
				vmsa_jw_release(&row);
				free(later);
				return VMSA_E_NOMEM;
			}
			if (w.n >= (1u << 20)) {
				fwrite(w.p, 1, w.n, f);
				w.n = 0;
			}
		}
		if (w.n) /* (the rows not written yet) */
			fwrite(w.p, 1, w.n, f);
		w.n = 0;
	}
	vmsa_jw_release(&w);
	vmsa_jw_release(&row);
	free(later);
	fputs(pretty ? "\n  ]\n}\n" : "]}\n", f);
	return ferror(f) ? VMSA_E_IO : 0;
}
