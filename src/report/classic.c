/* SPDX-License-Identifier: MIT */
/*
 * The classic report: the layout of the Linux 6.1 post-processing script
 * (latency list, process table, kswapd table, "Summary" block with the same
 * labels, times in seconds), with every column holding what its heading
 * says.  Lines past the Summary block are additions of this tool.
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "../internal.h"
#include "../summary_fields.h"
#include "textbuf.h"

#define NS_PER_SEC 1000000000.0

/* Task names may hold control bytes; the text report shows them as '?'. */
static void put_name(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
	}
}

/* "-pid" after a row's name ("-%" PRId32), or nothing: its length */
static size_t pid_text(const struct vmsa_summary *sum, const struct vmsa_task_row *r, char b[16])
{
	/* the (other tasks) row stands for many pids, and a row read back
	 * from a summary may have none (merged with --ignore-pid rows) */
	if (!vmsa_row_has_pid(sum, r))
		return 0;
	int64_t pid = r->key.pid;
	char d[20];
	size_t i = vmsa_u64_digits(d, (uint64_t)(pid < 0 ? -pid : pid)), n = 0;
	b[n++] = '-';
	if (pid < 0)
		b[n++] = '-';
	memcpy(b + n, d + i, sizeof(d) - i);
	return n + sizeof(d) - i;
}

/* pid_text()'s length, its digits counted, not written */
static size_t pid_text_len(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	if (!vmsa_row_has_pid(sum, r))
		return 0;
	int64_t pid = r->key.pid;
	return 1 + (pid < 0) + vmsa_u64_len((uint64_t)(pid < 0 ? -pid : pid));
}

static size_t row_label(const struct vmsa_summary *sum, const struct vmsa_task_row *r, FILE *f)
{
	size_t len;
	const char *c = vmsa_summary_comm(sum, r, &len);
	if (!f) /* (its length alone) */
		return len + pid_text_len(sum, r);
	char pid[16];
	size_t plen = pid_text(sum, r, pid);
	put_name(f, c, len);
	fwrite(pid, 1, plen, f);
	return len + plen;
}

/* row r's label, padded to width columns */
static void tb_label(struct vmsa_tb *t, const struct vmsa_summary *sum,
		     const struct vmsa_task_row *r, int width)
{
	size_t len;
	const char *c = vmsa_summary_comm(sum, r, &len);
	char pid[16];
	size_t plen = pid_text(sum, r, pid);
	vmsa_tb_name(t, c, len);
	vmsa_tb_bytes(t, pid, plen);
	if ((size_t)width > len + plen)
		vmsa_tb_spaces(t, (size_t)width - len - plen);
}

static void pad_label(const struct vmsa_summary *sum, const struct vmsa_task_row *r, FILE *f,
		      int width)
{
	size_t n = row_label(sum, r, f);
	for (size_t i = n; i < (size_t)width; i++)
		fputc(' ', f);
}

/* "tag-order=count " */
static void order_cell(struct vmsa_tb *t, const char *tag, size_t tlen, int order, uint64_t n)
{
	vmsa_tb_bytes(t, tag, tlen);
	vmsa_tb_char(t, '-');
	vmsa_tb_u64(t, (uint64_t)order, 0);
	vmsa_tb_char(t, '=');
	vmsa_tb_u64(t, n, 0);
	vmsa_tb_char(t, ' ');
}

/* "      tag-order=count " for each order counted in by */
static void orders(struct vmsa_tb *t, const char *tag, vmsa_orders_t by)
{
	if (!by)
		return;
	size_t tlen = strlen(tag);
	if (by & 1) {
		vmsa_tb_bytes(t, "      ", 6);
		order_cell(t, tag, tlen, vmsa_orders_one_order(by), vmsa_orders_one_count(by));
		return;
	}
	const uint64_t *a = vmsa_orders_array(by);
	uint32_t set = 0; /* bit o: a[o] is not 0 */
	for (int o = 0; o < VMSA_MAX_ORDER; o++)
		set |= (uint32_t)(a[o] != 0) << o;
	if (!set)
		return;
	vmsa_tb_bytes(t, "      ", 6);
	for (; set; set &= set - 1)
		order_cell(t, tag, tlen, __builtin_ctz(set), a[__builtin_ctz(set)]);
}

/* "label:<tabs to column 40>value" as the Perl script aligned it */
static void line(FILE *f, const char *label, const char *value)
{
	size_t col = strlen(label);
	fputs(label, f);
	do {
		fputc('\t', f);
		col = (col / 8 + 1) * 8;
	} while (col < 40);
	fputs(value, f);
	fputc('\n', f);
}

/* v, or "unknown" when the trace cannot tell it */
static const char *num_k(char b[32], uint64_t v, bool known)
{
	if (!known)
		return "unknown";
	snprintf(b, 32, "%" PRIu64, v);
	return b;
}

static void line_k(FILE *f, const char *label, uint64_t v, bool known)
{
	char b[32];
	line(f, label, num_k(b, v, known));
}

static void line_u(FILE *f, const char *label, uint64_t v)
{
	line_k(f, label, v, true);
}

/*
 * Seconds as the Perl layout printed them (two decimals), with as many more
 * as a short time needs to show its first two significant digits: 4.5 ms is
 * 0.0045 seconds, not 0.00.  Nanoseconds are the resolution.
 */
static void put_seconds(char *b, size_t n, uint64_t ns)
{
	int digits = 2;
	if (ns && ns < 10000000) { /* under 0.01 s: two significant digits */
		digits = 4;
		for (uint64_t lim = 1000000; digits < 9 && ns < lim; lim /= 10)
			digits++;
	}
	snprintf(b, n, "%.*f", digits, (double)ns / NS_PER_SEC);
}

static void line_s(FILE *f, const char *label, uint64_t ns)
{
	char b[64];
	put_seconds(b, sizeof(b) - 8, ns);
	strcat(b, " seconds");
	line(f, label, b);
}

/* milliseconds without trailing zeros, as order-latency pairs were shown */
static void put_ms(FILE *f, uint64_t ns)
{
	char b[48];
	snprintf(b, sizeof(b), "%" PRIu64 ".%06" PRIu64, ns / 1000000, ns % 1000000);
	size_t n = strlen(b);
	while (n && b[n - 1] == '0')
		b[--n] = '\0';
	if (n && b[n - 1] == '.')
		b[--n] = '\0';
	fputs(b, f);
}

static void latency_list(FILE *f, const struct vmsa_summary *sum, int width)
{
	fputs("\nReclaim latencies expressed as order-latency_in_ms\n", f);
	for (size_t i = 0; i < sum->nrows; i++) {
		const struct vmsa_task_row *r = sum->rows[i];
		const struct vmsa_row_more *m = vmsa_row_more(r);
		if (!m->nlat)
			continue;
		pad_label(sum, r, f, width);
		fputc(' ', f);
		for (size_t j = 0; j < m->nlat; j++) {
			if (m->lat[j].order >= 0)
				fprintf(f, "%" PRId32 "-", m->lat[j].order);
			else /* a begin that did not say */
				fputs("unknown-", f);
			put_ms(f, m->lat[j].ns);
			fputc(' ', f);
		}
		fputc('\n', f);
	}
}

/* pages scanned, reclaimed or written, or time spent */
static bool any_counts(const struct vmsa_counters *c)
{
	return vmsa_scanned(c) || vmsa_reclaimed(c) || c->write[0][0] || c->write[0][1] ||
	       c->write[1][0] || c->write[1][1] || c->latency_ns;
}

/* ---- the process and kswapd tables: rows, order, --top ---------------- */

/* A row's value of a sort field in context x (the table's: direct or kswapd). */
typedef uint64_t (*sort_value)(const struct vmsa_task_row *r, enum vmsa_ctx x);

static uint64_t v_reclaims(const struct vmsa_task_row *r, enum vmsa_ctx x)
{
	return vmsa_row_ctx(r, x)->reclaims; /* kswapd: its wake-ups */
}

static uint64_t v_wakeup_requests(const struct vmsa_task_row *r, enum vmsa_ctx x VMSA_UNUSED)
{
	return r->wakeup_kswapd;
}

static uint64_t v_rewakeups(const struct vmsa_task_row *r, enum vmsa_ctx x VMSA_UNUSED)
{
	return vmsa_row_more(r)->kswapd_rewakeups;
}

static uint64_t v_scanned(const struct vmsa_task_row *r, enum vmsa_ctx x)
{
	return vmsa_scanned(vmsa_row_ctx(r, x));
}

static uint64_t v_reclaimed(const struct vmsa_task_row *r, enum vmsa_ctx x)
{
	return vmsa_reclaimed(vmsa_row_ctx(r, x));
}

static uint64_t v_file_sync(const struct vmsa_task_row *r, enum vmsa_ctx x)
{
	return vmsa_row_ctx(r, x)->write[1][1];
}

static uint64_t v_anon_sync(const struct vmsa_task_row *r, enum vmsa_ctx x)
{
	return vmsa_row_ctx(r, x)->write[0][1];
}

static uint64_t v_file_async(const struct vmsa_task_row *r, enum vmsa_ctx x)
{
	return vmsa_row_ctx(r, x)->write[1][0];
}

static uint64_t v_anon_async(const struct vmsa_task_row *r, enum vmsa_ctx x)
{
	return vmsa_row_ctx(r, x)->write[0][0];
}

static uint64_t v_latency(const struct vmsa_task_row *r, enum vmsa_ctx x)
{
	return vmsa_row_ctx(r, x)->latency_ns; /* kswapd: time awake */
}

#define IN_PROCESSES (1u << VMSA_CTX_DIRECT)
#define IN_KSWAPD (1u << VMSA_CTX_KSWAPD)

/*
 * The fields --sort takes, by their keys in the summary's per-task objects
 * (docs/json-schema.md); tables: those whose rows have the field (a table
 * whose rows have not keeps its order).
 */
static const struct sort_key {
	const char *name;
	sort_value value;
	unsigned tables;
} sort_keys[] = {
	{"reclaims", v_reclaims, IN_PROCESSES | IN_KSWAPD},
	{"wakeup_kswapd_requests", v_wakeup_requests, IN_PROCESSES},
	{"wakeups", v_reclaims, IN_KSWAPD},
	{"rewakeups", v_rewakeups, IN_KSWAPD},
	{"pages_scanned", v_scanned, IN_PROCESSES | IN_KSWAPD},
	{"pages_reclaimed", v_reclaimed, IN_PROCESSES | IN_KSWAPD},
	{"file_sync", v_file_sync, IN_PROCESSES | IN_KSWAPD},
	{"anon_sync", v_anon_sync, IN_PROCESSES | IN_KSWAPD},
	{"file_async", v_file_async, IN_PROCESSES | IN_KSWAPD},
	{"anon_async", v_anon_async, IN_PROCESSES | IN_KSWAPD},
	{"latency_ns", v_latency, IN_PROCESSES | IN_KSWAPD},
	{"awake_ns", v_latency, IN_KSWAPD},
};
#define NSORT_KEYS (sizeof(sort_keys) / sizeof(sort_keys[0]))

const char *vmsa_sort_field(size_t i)
{
	return i < NSORT_KEYS ? sort_keys[i].name : NULL;
}

/* The sort field called name (NULL: none asked), or NULL with *bad set. */
static const struct sort_key *find_sort_key(const char *name, bool *bad)
{
	*bad = false;
	for (size_t i = 0; name && i < NSORT_KEYS; i++)
		if (!strcmp(sort_keys[i].name, name))
			return &sort_keys[i];
	*bad = name != NULL;
	return NULL;
}

/* the first lines of a row: its key, its parts' pointers and the counters
 * the tables show (the passes in name order ask for them ahead: internal.h) */
static inline void prefetch_row(const struct vmsa_task_row *r)
{
	vmsa_prefetch(r, 192);
}
_Static_assert(sizeof(struct vmsa_task_row) <= 192, "a row in three cache lines");
_Static_assert(offsetof(struct vmsa_task_row, more) + sizeof(void *) <= 192,
	       "the counters the tables read in a row's first 192 bytes");

/* r's name and the parts of context x the tables read (r is in the cache) */
static inline void prefetch_parts(const struct vmsa_summary *sum, const struct vmsa_task_row *r,
				  enum vmsa_ctx x)
{
	__builtin_prefetch(sum->comms.by_id[r->key.comm_id]);
	if (r->ctx[x])
		__builtin_prefetch(r->ctx[x]);
	if (r->more)
		__builtin_prefetch(r->more);
	vmsa_orders_t o[2] = {x == VMSA_CTX_KSWAPD ? r->kswapd_wake_by_order[0]
						   : r->begins_by_order[x],
			      x == VMSA_CTX_KSWAPD ? r->kswapd_rewake_by_order[0]
						   : r->wakeup_by_order[0]};
	for (int i = 0; i < 2; i++)
		if (o[i] && vmsa_orders_array(o[i]))
			vmsa_prefetch(vmsa_orders_array(o[i]), VMSA_MAX_ORDER * sizeof(uint64_t));
}

/* the rows of the throttle and shrinker table and of the page-list reclaim
 * table (bits besides the tables' 1u << ctx) */
#define IN_THROTTLE_SHRINK (1u << 7)
#define IN_RECLAIM_PAGES (1u << 6)
_Static_assert(VMSA_CTX__COUNT < 7, "bits of their own");

static bool in_throttle_shrink(const struct vmsa_task_row *r)
{
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++)
		if (vmsa_row_more(r)->throttled[b])
			return true;
	for (int c = 0; c < VMSA_CTX__COUNT; c++)
		if (r->ctx[c] && r->ctx[c]->slab_calls)
			return true;
	return false;
}

static bool in_processes(const struct vmsa_task_row *r);
static bool in_kswapd(const struct vmsa_task_row *r);

/* the tables row r is in */
static uint8_t row_bits(const struct vmsa_task_row *r)
{
	return (uint8_t)((in_processes(r) ? IN_PROCESSES : 0) | (in_kswapd(r) ? IN_KSWAPD : 0) |
			 (in_throttle_shrink(r) ? IN_THROTTLE_SHRINK : 0) |
			 (vmsa_row_more(r)->reclaim_pages[VMSA_RP_EVENTS] ? IN_RECLAIM_PAGES : 0));
}

/* The tables each of the n rows is in (bits[j] of rows[j]), the rows asked
 * for ahead; returns the width of the longest label */
static size_t plan_pass(const struct vmsa_summary *sum, struct vmsa_task_row *const *rows,
			size_t n, uint8_t *bits)
{
	size_t width = 0;
	for (size_t j = 0; j < n; j++) {
		if (j + 2 * VMSA_AHEAD < n)
			prefetch_row(rows[j + 2 * VMSA_AHEAD]);
		if (j + VMSA_AHEAD < n) {
			const struct vmsa_task_row *a = rows[j + VMSA_AHEAD];
			prefetch_parts(sum, a, VMSA_CTX_DIRECT);
			if (a->ctx[VMSA_CTX_KSWAPD])
				__builtin_prefetch(a->ctx[VMSA_CTX_KSWAPD]);
		}
		size_t len = row_label(sum, rows[j], NULL);
		width = len > width ? len : width;
		bits[j] = row_bits(rows[j]);
	}
	return width;
}

/* In one pass over the rows: the tables each row is in (in[i]), and the
 * width of the longest label (returned) */
static int plan_rows(const struct vmsa_summary *sum, uint8_t *in)
{
	size_t n = sum->nrows;
	/* in the order the rows were made, next to each other in memory, each
	 * row's bits then put where name order has it (no memory for that: in
	 * name order, every row a miss of the caches) */
	uint8_t *bits = sum->made_of ? malloc(n ? n : 1) : NULL;
	if (!bits)
		return (int)plan_pass(sum, sum->rows, n, in);
	size_t width = plan_pass(sum, sum->rows_made, n, bits);
	for (size_t i = 0; i < n; i++)
		in[i] = bits[sum->made_of[i]];
	free(bits);
	return (int)width;
}

/* How a table is laid out: which rows, in what order, how many. */
struct table_order {
	const struct sort_key *key;	/* NULL: name, then pid */
	size_t top;			/* 0: every row */
};

/* One row of a table, with its place in the summary's order. */
struct ranked {
	const struct vmsa_task_row *r;
	uint64_t v;
	size_t i;
};

static int by_value(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->v != y->v)
		return x->v > y->v ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The summary's next row from *at on that in[] puts in the table of bit
 * (there is one), *at past it; the rows after it asked for ahead */
static const struct vmsa_task_row *next_in(const struct vmsa_summary *sum, const uint8_t *in,
					   unsigned bit, size_t *at, enum vmsa_ctx x)
{
	size_t i = *at;
	while (!(in[i] & bit))
		i++;
	if (i + 2 * VMSA_AHEAD < sum->nrows)
		prefetch_row(sum->rows[i + 2 * VMSA_AHEAD]);
	if (i + VMSA_AHEAD < sum->nrows)
		prefetch_parts(sum, sum->rows[i + VMSA_AHEAD], x);
	*at = i + 1;
	return sum->rows[i];
}

/* A table's cells of row r (after its label), to its line's end. */
typedef void (*row_cells)(struct vmsa_tb *t, const struct vmsa_summary *sum,
			  const struct vmsa_task_row *r);

#define OTHERS_LABEL "(%zu others)"

/*
 * The rows of a table, those whose in[] has its bit, in the order asked for,
 * at most top of them and then the rest added up in one row, so that every
 * column still sums to its Summary line.  x: the context its sort values
 * are of and whose parts its rows read (for a table of no context, any).
 */
static int table_rows(FILE *f, const struct vmsa_summary *sum, int w, const struct table_order *o,
		      enum vmsa_ctx x, unsigned bit, const uint8_t *in, row_cells cells)
{
	/* sorted by a value: the table's rows ranked; else the summary's
	 * order, the rows in[] takes read in place */
	bool sorted = o->key && (o->key->tables & bit);
	struct ranked *rows = NULL;
	struct vmsa_tb *t = malloc(sizeof(*t));
	if (t && sorted)
		rows = malloc((sum->nrows ? sum->nrows : 1) * sizeof(*rows));
	if (!t || (sorted && !rows)) {
		free(rows);
		free(t);
		return VMSA_E_NOMEM;
	}
	t->f = f;
	t->n = 0;
	size_t n = 0, at = 0, nrows = sum->nrows;
	for (size_t i = 0; i < nrows; i++)
		if (in[i] & bit) {
			if (sorted)
				rows[n] = (struct ranked){sum->rows[i],
							  o->key->value(sum->rows[i], x), i};
			n++;
		}
	if (sorted)
		qsort(rows, n, sizeof(*rows), by_value);
	/* the table's next row (of k), asking for those after it ahead */
#define NEXT_ROW(k)                                                                       \
	(sorted ? (((k) + 2 * VMSA_AHEAD < n ? prefetch_row(rows[(k) + 2 * VMSA_AHEAD].r) \
					     : (void)0),                                  \
		   ((k) + VMSA_AHEAD < n ? prefetch_parts(sum, rows[(k) + VMSA_AHEAD].r, x)   \
					 : (void)0),                                      \
		   rows[k].r)                                                             \
		: next_in(sum, in, bit, &at, x))
	size_t shown = o->top && o->top < n ? o->top : n;
	for (size_t k = 0; k < shown; k++) {
		const struct vmsa_task_row *r = NEXT_ROW(k);
		tb_label(t, sum, r, w);
		cells(t, sum, r);
	}
	int err = 0;
	if (shown < n) {
		struct vmsa_task_row *rest = malloc(sizeof(*rest));
		struct vmsa_row_space *space = malloc(sizeof(*space));
		if (!rest || !space) {
			err = VMSA_E_NOMEM;
		} else {
			vmsa_row_in(rest, space);
			for (size_t k = shown; k < n; k++)
				vmsa_row_counters_add(rest, NEXT_ROW(k)); /* (nothing to make) */
			char label[40];
			int len = snprintf(label, sizeof(label), OTHERS_LABEL, n - shown);
			vmsa_tb_bytes(t, label, (size_t)len);
			if (w > len)
				vmsa_tb_spaces(t, (size_t)(w - len));
			cells(t, sum, rest);
		}
		free(rest);
		free(space);
	}
#undef NEXT_ROW
	vmsa_tb_flush(t);
	free(t);
	free(rows);
	return err;
}

/* every task with direct reclaim figures or wake-up requests has a row, so
 * that each column adds up to its Summary line */
static bool in_processes(const struct vmsa_task_row *r)
{
	const struct vmsa_counters *d = vmsa_row_ctx(r, VMSA_CTX_DIRECT);
	return d->reclaims || r->wakeup_kswapd || any_counts(d);
}

/* " %8s" of v, or of "unknown" when the trace cannot tell it */
static void cell_k(struct vmsa_tb *t, uint64_t v, bool known)
{
	vmsa_tb_char(t, ' ');
	if (known)
		vmsa_tb_u64(t, v, 8);
	else
		vmsa_tb_bytes(t, " unknown", 8);
}

/* " %8" PRIu64 " %10" PRIu64 "   %8s %8s  %8" PRIu64 " %8" PRIu64: the
 * cells the process and kswapd tables share */
static void cells6(struct vmsa_tb *t, const struct vmsa_summary *sum, uint64_t a, uint64_t b,
		   const struct vmsa_counters *c)
{
	struct vmsa_known kn = vmsa_known_of(sum);
	vmsa_tb_char(t, ' ');
	vmsa_tb_u64(t, a, 8);
	vmsa_tb_char(t, ' ');
	vmsa_tb_u64(t, b, 10);
	vmsa_tb_bytes(t, "  ", 2);
	cell_k(t, vmsa_scanned(c), kn.scanned);
	cell_k(t, vmsa_reclaimed(c), kn.reclaimed);
	vmsa_tb_char(t, ' ');
	cell_k(t, c->write[1][1] + c->write[0][1], kn.writes);
	cell_k(t, c->write[1][0] + c->write[0][0], kn.writes);
}

static void process_cells(struct vmsa_tb *t, const struct vmsa_summary *sum,
			  const struct vmsa_task_row *r)
{
	const struct vmsa_counters *d = vmsa_row_ctx(r, VMSA_CTX_DIRECT);
	cells6(t, sum, d->reclaims, r->wakeup_kswapd, d);
	vmsa_tb_char(t, ' ');
	vmsa_tb_secs3(t, d->latency_ns, 8);
	orders(t, "direct", r->begins_by_order[VMSA_CTX_DIRECT]);
	orders(t, "wakeup", r->wakeup_by_order[0]);
	vmsa_tb_char(t, '\n');
}

static int process_table(FILE *f, const struct vmsa_summary *sum, int w,
			 const struct table_order *o, const uint8_t *in)
{
	fprintf(f, "\n%-*s %8s %10s   %8s %8s  %8s %8s %8s\n", w, "Process", "Direct", "Wokeup",
		"Pages", "Pages", "Pages", "Pages", "Time");
	fprintf(f, "%-*s %8s %10s   %8s %8s  %8s %8s %8s\n", w, "details", "Rclms", "Kswapd",
		"Scanned", "Rclmed", "Sync-IO", "ASync-IO", "Stalled");
	return table_rows(f, sum, w, o, VMSA_CTX_DIRECT, IN_PROCESSES, in, process_cells);
}

/* every kswapd thread, woken in the trace or not */
static bool in_kswapd(const struct vmsa_task_row *r)
{
	return r->is_kswapd || vmsa_row_more(r)->kswapd_wakeups ||
	       any_counts(vmsa_row_ctx(r, VMSA_CTX_KSWAPD));
}

static void kswapd_cells(struct vmsa_tb *t, const struct vmsa_summary *sum,
			 const struct vmsa_task_row *r)
{
	const struct vmsa_counters *k = vmsa_row_ctx(r, VMSA_CTX_KSWAPD);
	const struct vmsa_row_more *m = vmsa_row_more(r);
	cells6(t, sum, m->kswapd_wakeups, m->kswapd_rewakeups, k);
	orders(t, "wake", r->kswapd_wake_by_order[0]);
	orders(t, "rewake", r->kswapd_rewake_by_order[0]);
	vmsa_tb_char(t, '\n');
}

static int kswapd_table(FILE *f, const struct vmsa_summary *sum, int w,
			const struct table_order *o, const uint8_t *in)
{
	fprintf(f, "\n%-*s %8s %10s   %8s %8s  %8s %8s\n", w, "Kswapd", "Kswapd", "Order", "Pages",
		"Pages", "Pages", "Pages");
	fprintf(f, "%-*s %8s %10s   %8s %8s  %8s %8s\n", w, "Instance", "Wakeups", "Re-wakeup",
		"Scanned", "Rclmed", "Sync-IO", "ASync-IO");
	return table_rows(f, sum, w, o, VMSA_CTX_KSWAPD, IN_KSWAPD, in, kswapd_cells);
}

/* a Summary line whose label is the field table's (its compare row's) */
static void field_k(FILE *f, const char *path, uint64_t v, bool known)
{
	const char *label = vmsa_classic_label(path);
	line_k(f, label ? label : path, v, known);
}

static void field_u(FILE *f, const char *path, uint64_t v)
{
	field_k(f, path, v, true);
}

static void field_s(FILE *f, const char *path, uint64_t ns)
{
	const char *label = vmsa_classic_label(path);
	line_s(f, label ? label : path, ns);
}

/* One half of the Summary block: direct reclaim or kswapd. */
static const struct summary_half {
	enum vmsa_ctx ctx;
	const char *path;	/* the fields' path in the JSON summary */
	const char *name;	/* the lines' labels that are not the field table's */
	const char *count;	/* the first line's field */
	const char *time;	/* the last line's field */
	bool direct;		/* retries, end events' sum, wake-up requests */
} summary_halves[] = {
	{VMSA_CTX_DIRECT, "totals.direct.", "Direct reclaim", "reclaims", "latency_ns", true},
	{VMSA_CTX_KSWAPD, "totals.kswapd.", "Kswapd", "wakeups", "awake_ns", false},
};

static void summary_half(FILE *f, const struct vmsa_summary *sum, const struct summary_half *h)
{
	const struct vmsa_totals *t = &sum->totals;
	const struct vmsa_ctx_totals *c = &t->ctx[h->ctx];
	struct vmsa_known kn = vmsa_known_of(sum);
	char path[64], label[96];
#define PATH(key) (snprintf(path, sizeof(path), "%s%s", h->path, key), path)
#define LABEL(what) (snprintf(label, sizeof(label), "%s %s:", h->name, what), label)
	field_u(f, PATH(h->count), h->direct ? c->reclaims : t->kswapd_wakeups);
	if (h->direct)
		line_u(f, LABEL("retries"), c->retries);
	field_k(f, PATH("pages_scanned"), c->pages_scanned, kn.scanned);
	line_k(f, LABEL("file pages scanned"), c->pages_scanned_file, kn.scanned);
	line_k(f, LABEL("anon pages scanned"), c->pages_scanned_anon, kn.scanned);
	field_k(f, PATH("pages_reclaimed"), c->pages_reclaimed, kn.reclaimed);
	line_k(f, LABEL("file pages reclaimed"), c->pages_reclaimed_file, kn.reclaimed);
	line_k(f, LABEL("anon pages reclaimed"), c->pages_reclaimed_anon, kn.reclaimed);
	if (h->direct && !kn.reclaimed) /* docs/attribution.md: an approximation, labelled */
		line_k(f, LABEL("pages reclaimed (from end events)"), c->end_nr_reclaimed,
		       kn.end_reclaimed);
	field_k(f, PATH("writes.file_sync"), c->write_file_sync, kn.writes);
	field_k(f, PATH("writes.anon_sync"), c->write_anon_sync, kn.writes);
	field_k(f, PATH("writes.file_async"), c->write_file_async, kn.writes);
	field_k(f, PATH("writes.anon_async"), c->write_anon_async, kn.writes);
	if (h->direct)
		field_u(f, "totals.wakeup_kswapd_requests", t->wakeup_kswapd);
	field_s(f, PATH(h->time), c->latency_ns);
#undef PATH
#undef LABEL
}

static void summary_block(FILE *f, const struct vmsa_summary *sum)
{
	fputs("\nSummary\n", f);
	summary_half(f, sum, &summary_halves[0]);
	fputc('\n', f);
	summary_half(f, sum, &summary_halves[1]);
}

/* What the 2010 layout has no room for. */
static void additions(FILE *f, const struct vmsa_summary *sum)
{
	const struct vmsa_totals *t = &sum->totals;
	struct vmsa_known kn = vmsa_known_of(sum);
	static const enum vmsa_ctx extra[] = {VMSA_CTX_MEMCG, VMSA_CTX_SOFTLIMIT, VMSA_CTX_NODE};
	static const char *const title[] = {"Memcg", "Memcg softlimit", "Node"};
	char label[64];
	fputs("\nOther reclaim (not in the direct reclaim figures above)\n", f);
	for (int i = 0; i < 3; i++) {
		const struct vmsa_ctx_totals *c = &t->ctx[extra[i]];
		snprintf(label, sizeof(label), "%s reclaims:", title[i]);
		line_u(f, label, c->reclaims);
		if (!c->reclaims)
			continue;
		snprintf(label, sizeof(label), "%s reclaim pages scanned:", title[i]);
		line_k(f, label, c->pages_scanned, kn.scanned);
		snprintf(label, sizeof(label), "%s reclaim pages reclaimed:", title[i]);
		line_k(f, label, c->pages_reclaimed, kn.reclaimed);
		if (!kn.reclaimed) {
			snprintf(label, sizeof(label), "%s reclaim pages reclaimed (from end events):",
				 title[i]);
			line_k(f, label, c->end_nr_reclaimed, kn.end_reclaimed);
		}
		snprintf(label, sizeof(label), "%s reclaim writes:", title[i]);
		line_k(f, label,
		       c->write_file_async + c->write_anon_async + c->write_file_sync +
			       c->write_anon_sync,
		       kn.writes);
		snprintf(label, sizeof(label), "Time in %s reclaim:", title[i]);
		line_s(f, label, c->latency_ns);
	}
	const struct vmsa_ctx_totals *o = &t->ctx[VMSA_CTX_NONE];
	if (o->pages_scanned || o->pages_reclaimed || o->write_file_async || o->write_anon_async) {
		line_k(f, "Pages scanned outside any window:", o->pages_scanned, kn.scanned);
		line_k(f, "Pages reclaimed outside any window:", o->pages_reclaimed, kn.reclaimed);
	}
	bool throttled = false;
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++)
		throttled |= t->throttled[b] != 0;
	if (throttled) {
		fputs("\nThrottling\n", f);
		for (int b = 0; b < VMSA_THROTTLE__COUNT; b++) {
			char v[64];
			snprintf(label, sizeof(label), "Throttled %s:", vmsa_throttle_name(b));
			char secs[32];
			put_seconds(secs, sizeof(secs), t->throttled_usec[b] * 1000);
			snprintf(v, sizeof(v), "%" PRIu64 " times, %s seconds", t->throttled[b], secs);
			line(f, label, v);
		}
	}
	const uint64_t *rp = t->reclaim_pages;
	if (rp[VMSA_RP_EVENTS]) {
		fputs("\nPage-list reclaim (mm_vmscan_reclaim_pages: MADV_PAGEOUT, DAMON; not in "
		      "the figures above)\n", f);
		line_u(f, "Page-list reclaim events:", rp[VMSA_RP_EVENTS]);
		line_u(f, "Page-list reclaim pages scanned:", rp[VMSA_RP_SCANNED]);
		line_u(f, "Page-list reclaim pages reclaimed:", rp[VMSA_RP_RECLAIMED]);
		line_u(f, "Page-list reclaim dirty pages:", rp[VMSA_RP_DIRTY]);
		line_u(f, "Page-list reclaim pages under writeback:", rp[VMSA_RP_WRITEBACK]);
		line_u(f, "Page-list reclaim nr_congested pages:", rp[VMSA_RP_CONGESTED]);
		line_u(f, "Page-list reclaim nr_immediate pages:", rp[VMSA_RP_IMMEDIATE]);
	}
	if (t->flusher_wakeups[0] || t->flusher_wakeups[1]) {
		fputs("\nFlusher wake-ups from reclaim\n", f);
		for (int r = 0; r < VMSA_FLUSH__COUNT; r++) {
			char v[96];
			snprintf(label, sizeof(label), "Flusher wake-ups (%s):",
				 vmsa_flush_reason_name(r));
			snprintf(v, sizeof(v), "%" PRIu64 " (dirty met %" PRIu64 ", requested %" PRIu64 ")",
				 t->flusher_wakeups[r], t->flusher_dirty_pages[r],
				 t->flusher_requested_pages[r]);
			line(f, label, v);
		}
	}
	if (t->writeback_known) {
		fputs("\nFlusher writeback (writeback_start to _written)\n", f);
		for (int r = 0; r < VMSA_WB__COUNT; r++) {
			if (r != VMSA_WB_VMSCAN && !t->writeback_passes[r])
				continue;
			char v[96];
			if (r == VMSA_WB_VMSCAN)
				snprintf(label, sizeof(label), "Flusher pages written for reclaim:");
			else
				snprintf(label, sizeof(label), "Flusher pages written (%s):",
					 vmsa_wb_reason_name(r));
			snprintf(v, sizeof(v), "%" PRIu64 " (%" PRIu64 " passes)", t->writeback_pages[r],
				 t->writeback_passes[r]);
			line(f, label, v);
		}
		if (t->writeback_unpaired) {
			char v[32];
			snprintf(v, sizeof(v), "%" PRIu64, t->writeback_unpaired);
			line(f, "Flusher events without their pair:", v);
		}
	}
	fputs("\nInput\n", f);
	uint64_t read = 0, an = 0, filt = 0, ign = 0, rej = 0, unknown = 0, joined = 0,
		 joined_lines = 0;
	struct vmsa_name_count events[VMSA_NAME_COUNTS] = {0}, lrus[VMSA_NAME_COUNTS] = {0};
	for (size_t i = 0; i < sum->nsources; i++) {
		read += sum->sources[i].counts.lines_read;
		an += sum->sources[i].counts.lines_analyzed;
		filt += sum->sources[i].counts.lines_filtered;
		ign += sum->sources[i].counts.lines_ignored;
		rej += sum->sources[i].counts.lines_rejected;
		unknown += sum->sources[i].counts.unknown_vmscan_events;
		joined += sum->sources[i].traits.unwrapped_events;
		joined_lines += sum->sources[i].traits.unwrapped_lines;
		vmsa_name_counts_add(events, sum->sources[i].traits.event_other);
		vmsa_name_counts_add(lrus, sum->sources[i].traits.lru_other);
	}
	line_u(f, "Lines read:", read);
	line_u(f, "Lines analyzed:", an);
	if (filt) /* a filter (--pid, --comm, --cpu, --since, --until) left them out */
		line_u(f, "Lines filtered out:", filt);
	if (joined) {
		char v[64];
		snprintf(v, sizeof(v), "%" PRIu64 " (%" PRIu64 " lines after their first)", joined,
			 joined_lines);
		line(f, "Events joined again (--unwrap):", v);
	}
	/* vmscan events not understood are ignored lines, said apart */
	line_u(f, "Lines ignored (not vmscan):", ign - unknown);
	if (unknown) {
		line_u(f, "Lines ignored (vmscan events not understood):", unknown);
		for (int i = 0; i < VMSA_NAME_COUNTS; i++) {
			if (!events[i].name[0])
				continue; /* (the table is filled from both ends) */
			char name[sizeof(events[i].name) + 4];
			snprintf(name, sizeof(name), "  %.63s:", events[i].name);
			line_u(f, name, events[i].count);
		}
	}
	line_u(f, "Lines rejected:", rej);
	for (int i = 0; i < VMSA_NAME_COUNTS; i++) {
		if (!lrus[i].name[0])
			continue;
		char name[sizeof(lrus[i].name) + 32], v[96];
		snprintf(name, sizeof(name), "LRU list not known, lru=%.63s:", lrus[i].name);
		snprintf(v, sizeof(v), "%" PRIu64 " isolations, %" PRIu64 " pages scanned (counted)",
			 lrus[i].count, lrus[i].pages);
		line(f, name, v);
	}
	/* (a marker that said no number: how many is not known; the note says more) */
	line_k(f, "Events lost by the tracer:", t->events_lost, !t->lost_markers_without_count);
	line_u(f, "Reclaims in progress at end:", t->ctx[VMSA_CTX_DIRECT].in_progress +
						      t->ctx[VMSA_CTX_MEMCG].in_progress +
						      t->ctx[VMSA_CTX_SOFTLIMIT].in_progress +
						      t->ctx[VMSA_CTX_NODE].in_progress);
	line_u(f, "Kswapd awake at end:", t->ctx[VMSA_CTX_KSWAPD].in_progress);
	line_u(f, "Ends without a begin:", t->unmatched_ends);
	line_u(f, "Begins without an end:", t->unmatched_begins);
	if (t->tasks_folded)
		line_u(f, "Tasks in (other tasks), past --max-tasks:", t->tasks_folded);
	for (size_t i = 0; i < vmsa_nnotes; i++) {
		const struct vmsa_note *n = &vmsa_notes[i];
		uint64_t count = n->report[0] ? n->count(sum) : 0;
		if (!count)
			continue;
		fprintf(f, "Note: %s", n->report[0]);
		if (n->report[1])
			fprintf(f, "%" PRIu64 "%s", count, n->report[1]);
		fputc('\n', f);
	}
}

/* The rows in a table after the Summary: those whose in[] has bit */
static size_t rows_with(const struct vmsa_summary *sum, const uint8_t *in, unsigned bit)
{
	size_t n = 0;
	for (size_t i = 0; i < sum->nrows; i++)
		n += (in[i] & bit) != 0;
	return n;
}

/* " %12s": s right-aligned in 12 columns after a space */
static void cell12(struct vmsa_tb *t, const char *s)
{
	size_t len = strlen(s);
	vmsa_tb_char(t, ' ');
	if (len < 12)
		vmsa_tb_spaces(t, 12 - len);
	vmsa_tb_bytes(t, s, len);
}

/* how often and how long reclaim throttled the task (by reason), and the
 * slab shrinkers it ran */
static void throttle_shrink_cells(struct vmsa_tb *t, const struct vmsa_summary *sum,
				  const struct vmsa_task_row *r)
{
	const struct vmsa_row_more *m = vmsa_row_more(r);
	uint64_t calls = 0;
	int64_t freed = 0;
	for (int c = 0; c < VMSA_CTX__COUNT; c++) {
		calls += vmsa_row_ctx(r, c)->slab_calls;
		freed += vmsa_row_ctx(r, c)->slab_freed;
	}
	bool freed_known = vmsa_known_of(sum).slab_freed;
	char cell[48];
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++) {
		char secs[32];
		put_seconds(secs, sizeof(secs), m->throttled_usec[b] * 1000);
		snprintf(cell, sizeof(cell), "%" PRIu64 "/%s", m->throttled[b], secs);
		cell12(t, m->throttled[b] ? cell : "-");
	}
	int k = freed_known
			? snprintf(cell, sizeof(cell), " %10" PRIu64 " %12" PRId64 "\n", calls, freed)
			: snprintf(cell, sizeof(cell), " %10" PRIu64 " %12s\n", calls, "unknown");
	vmsa_tb_bytes(t, cell, (size_t)k);
}

static uint64_t v_throttled(const struct vmsa_task_row *r, enum vmsa_ctx x VMSA_UNUSED)
{
	uint64_t usec = 0;
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++)
		usec += vmsa_row_more(r)->throttled_usec[b];
	return usec;
}

/*
 * Per task: how often and how long reclaim throttled it (by reason), and the
 * slab shrinkers it ran; only when the trace has any of either.  In the
 * summary's order; with --top the tasks throttled longest, the rest added up
 * in one row (ranked only to cut: a table that shows every row keeps its
 * order).
 */
static int throttle_shrink_table(FILE *f, const struct vmsa_summary *sum, int w,
				 const uint8_t *in, size_t top)
{
	static const struct sort_key longest = {"", v_throttled, IN_THROTTLE_SHRINK};
	size_t n = rows_with(sum, in, IN_THROTTLE_SHRINK);
	if (!n)
		return 0;
	fprintf(f, "\n%-*s", w, "Throttled and");
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++)
		fprintf(f, " %12s", vmsa_throttle_name(b));
	fprintf(f, " %10s %12s\n%-*s", "Shrinker", "Objects", w, "shrinking");
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++)
		fprintf(f, " %12s", "times/secs");
	fprintf(f, " %10s %12s\n", "calls", "freed");
	struct table_order o = {.key = top && top < n ? &longest : NULL, .top = top};
	return table_rows(f, sum, w, &o, VMSA_CTX_DIRECT, IN_THROTTLE_SHRINK, in,
			  throttle_shrink_cells);
}

static void reclaim_pages_cells(struct vmsa_tb *t, const struct vmsa_summary *sum VMSA_UNUSED,
				const struct vmsa_task_row *r)
{
	const uint64_t *n = vmsa_row_more(r)->reclaim_pages;
	static const enum vmsa_reclaim_pages_count shown[] = {
		VMSA_RP_EVENTS, VMSA_RP_SCANNED, VMSA_RP_RECLAIMED, VMSA_RP_DIRTY, VMSA_RP_WRITEBACK};
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		vmsa_tb_char(t, ' ');
		vmsa_tb_u64(t, n[shown[i]], 8);
	}
	vmsa_tb_char(t, '\n');
}

static uint64_t v_reclaim_pages(const struct vmsa_task_row *r, enum vmsa_ctx x VMSA_UNUSED)
{
	return vmsa_row_more(r)->reclaim_pages[VMSA_RP_RECLAIMED];
}

/* Per task: its page-list reclaim (mm_vmscan_reclaim_pages), only when the
 * trace has any: as throttle_shrink_table(), with --top those that reclaimed
 * most pages */
static int reclaim_pages_table(FILE *f, const struct vmsa_summary *sum, int w,
			       const uint8_t *in, size_t top)
{
	static const struct sort_key most = {"", v_reclaim_pages, IN_RECLAIM_PAGES};
	size_t n = rows_with(sum, in, IN_RECLAIM_PAGES);
	if (!n)
		return 0;
	fprintf(f, "\n%-*s %8s %8s %8s %8s %8s\n", w, "Page-list", "Events", "Pages", "Pages",
		"Pages", "Pages");
	fprintf(f, "%-*s %8s %8s %8s %8s %8s\n", w, "reclaim", "", "Scanned", "Rclmed", "Dirty",
		"Writebk");
	struct table_order o = {.key = top && top < n ? &most : NULL, .top = top};
	return table_rows(f, sum, w, &o, VMSA_CTX_DIRECT, IN_RECLAIM_PAGES, in, reclaim_pages_cells);
}

/* bcc-style log2 histogram, in power-of-two buckets of nanoseconds. */
static void log2_hist(FILE *f, const char *title, const struct vmsa_hist *h)
{
	uint64_t b[65];
	vmsa_hist_log2(h, b);
	int first = 65, last = -1;
	uint64_t max = 0;
	for (int i = 0; i < 65; i++)
		if (b[i]) {
			first = i < first ? i : first;
			last = i;
			max = b[i] > max ? b[i] : max;
		}
	fprintf(f, "\n%s\n%28s : %-8s %s\n", title, "nsecs", "count", "distribution");
	if (last < 0) {
		fputs("    (none)\n", f);
		return;
	}
	for (int i = first; i <= last; i++) {
		uint64_t lo = i ? 1ull << (i - 1) : 0, hi = i ? (i == 64 ? UINT64_MAX : (1ull << i) - 1) : 0;
		char range[48];
		snprintf(range, sizeof(range), "%" PRIu64 " -> %" PRIu64, lo, hi);
		int stars = (int)((b[i] * 40 + max - 1) / max);
		fprintf(f, "%28s : %-8" PRIu64 " |%-40.*s|\n", range, b[i], stars,
			"****************************************");
	}
}

static void histograms(FILE *f, const struct vmsa_summary *sum)
{
	log2_hist(f, "Direct reclaim stall, all tasks", &sum->stall_hist);
	log2_hist(f, "Kswapd awake, all kswapd threads", &sum->awake_hist);
	for (size_t i = 0; i < sum->nrows; i++) {
		const struct vmsa_task_row *r = sum->rows[i];
		const struct vmsa_hist *h = r->is_kswapd ? &vmsa_row_more(r)->awake : &r->stall;
		if (!h->count)
			continue;
		char title[320];
		size_t len;
		const char *c = vmsa_summary_comm(sum, r, &len);
		char name[260];
		size_t k = 0;
		for (size_t j = 0; j < len && k < sizeof(name) - 1; j++)
			name[k++] = (unsigned char)c[j] < 0x20 || c[j] == 0x7f ? '?' : c[j];
		name[k] = '\0';
		if (sum->ignore_pid)
			snprintf(title, sizeof(title), "%s %s", r->is_kswapd ? "Awake," : "Stall,", name);
		else
			snprintf(title, sizeof(title), "%s %s-%" PRId32, r->is_kswapd ? "Awake," : "Stall,",
				 name, r->key.pid);
		log2_hist(f, title, h);
	}
}

int vmsa_report_classic_sized(FILE *f, const struct vmsa_summary *sum,
			      const struct vmsa_report_options *opts, size_t opts_size)
{
	struct vmsa_report_options o;
	if (opts && vmsa_abi_in(&o, sizeof o, opts, opts_size, VMSA_ABI_MIN_REPORT_OPTIONS))
		return VMSA_E_INVAL;
	if (opts)
		opts = &o;
	bool bad_sort;
	struct table_order order = {.key = find_sort_key(opts ? opts->sort : NULL, &bad_sort),
				    .top = opts ? opts->top : 0};
	if (bad_sort)
		return VMSA_E_INVAL;
	uint8_t *in = malloc(sum->nrows ? sum->nrows : 1);
	if (!in)
		return VMSA_E_NOMEM;
	int width = plan_rows(sum, in);
	if (order.top && !order.key)
		order.key = find_sort_key("latency_ns", &bad_sort); /* the longest stalls first */
	if (order.top && sum->nrows > order.top) {
		char label[40];
		int n = snprintf(label, sizeof(label), OTHERS_LABEL, sum->nrows - order.top);
		width = n > width ? n : width;
	}
	width += 2;
	if (opts && opts->latency_list && !sum->ignore_pid)
		latency_list(f, sum, width);
	int err = process_table(f, sum, width, &order, in);
	if (!err)
		err = kswapd_table(f, sum, width, &order, in);
	if (err) {
		free(in);
		return err;
	}
	summary_block(f, sum);
	additions(f, sum);
	err = throttle_shrink_table(f, sum, width, in, order.top);
	if (!err)
		err = reclaim_pages_table(f, sum, width, in, order.top);
	free(in);
	if (err)
		return err;
	if (opts && opts->histogram)
		histograms(f, sum);
	return ferror(f) ? VMSA_E_IO : 0;
}
