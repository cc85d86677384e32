/* SPDX-License-Identifier: MIT */
/*
 * The task rows of the JSON summary written as text directly, byte for
 * byte what json-c writes without JSON_C_TO_STRING_PRETTY (json.c), but
 * without a tree of objects per row: with many tasks the rows are most of
 * the document.  The rows' members come from the same lists of
 * summary_fields.h, whose values here are small descriptions (struct jv)
 * written where they are put.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../summary_fields.h"
#include "json_rows.h"

enum jv_kind {
	JV_NULL, /* (0: VMSA_JNULL) */
	JV_U64,
	JV_I64,
	JV_TRUE,
	JV_FALSE,
	JV_COMM,	/* a: the summary, b: the row */
	JV_CTX,		/* a: counters, x: windowed */
	JV_CTX_ORDER,	/* a: row, x: context */
	JV_WRITES,	/* a: counters */
	JV_ORDERS,	/* u: vmsa_orders_t */
	JV_THROTTLE,	/* a: counts, b: usec */
	JV_RECLAIM_PAGES, /* a: mm_vmscan_reclaim_pages sums */
	JV_HIST,	/* a: histogram */
	JV_BUCKETS,	/* a: histogram */
	JV_KSWAPD_RECLAIM, /* a: row */
};

/* A member's value, described: written by put_value(). */
typedef struct {
	enum jv_kind kind;
	int x;
	uint64_t u;
	const void *a, *b;
	struct vmsa_known kn;
} jv;

static void grow(struct vmsa_jw *w, size_t more)
{
	if (w->oom || w->n + more <= w->cap)
		return;
	size_t cap = w->cap ? w->cap : 4096;
	while (cap < w->n + more)
		cap *= 2;
	char *p = realloc(w->p, cap);
	if (!p) {
		w->oom = true;
		return;
	}
	w->p = p;
	w->cap = cap;
}

/* Room for n more bytes; false: out of memory. */
static inline bool reserve(struct vmsa_jw *w, size_t n)
{
	if (w->cap - w->n >= n)
		return true;
	grow(w, n);
	return !w->oom;
}

static inline void emit(struct vmsa_jw *w, const char *s, size_t n)
{
	if (!n || !reserve(w, n)) /* (nothing: w->p may be NULL yet) */
		return;
	memcpy(w->p + w->n, s, n);
	w->n += n;
}

/* a string literal ("" lit "": nothing else compiles) */
#define EMIT(w, lit) emit(w, "" lit "", sizeof(lit) - 1)

static void emit_u64(struct vmsa_jw *w, uint64_t v)
{
	if (!reserve(w, 20))
		return;
	if (v < 10) { /* most of a row's counters are 0 */
		w->p[w->n++] = (char)('0' + v);
		return;
	}
	char b[20];
	size_t i = vmsa_u64_digits(b, v);
	memcpy(w->p + w->n, b + i, sizeof(b) - i);
	w->n += sizeof(b) - i;
}

static void emit_i64(struct vmsa_jw *w, int64_t v)
{
	if (v < 0) {
		EMIT(w, "-");
		emit_u64(w, (uint64_t)0 - (uint64_t)v);
	} else {
		emit_u64(w, (uint64_t)v);
	}
}

/* "key": (of kl bytes) after a comma unless first */
static inline void emit_key_n(struct vmsa_jw *w, bool *first, const char *k, size_t kl)
{
	if (!reserve(w, kl + 4))
		return;
	char *p = w->p + w->n;
	if (!*first)
		*p++ = ',';
	*first = false;
	*p++ = '"';
	memcpy(p, k, kl);
	p += kl;
	*p++ = '"';
	*p++ = ':';
	w->n = (size_t)(p - w->p);
}

static void emit_key(struct vmsa_jw *w, bool *first, const char *k)
{
	emit_key_n(w, first, k, strlen(k));
}

/* A string as json-c escapes it (with JSON_C_TO_STRING_NOSLASHESCAPE). */
static void emit_str(struct vmsa_jw *w, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	EMIT(w, "\"");
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char u[7];
		switch (c) {
		case '\b': esc = "\\b"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\f': esc = "\\f"; break;
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		default:
			if (c < ' ') {
				memcpy(u, "\\u00", 4);
				u[4] = hex[c >> 4];
				u[5] = hex[c & 15];
				u[6] = '\0';
				esc = u;
			}
			break;
		}
		if (!esc)
			continue;
		emit(w, s + from, i - from);
		emit(w, esc, strlen(esc));
		from = i + 1;
	}
	emit(w, s + from, n - from);
	EMIT(w, "\"");
}

/* Task names are bytes: valid UTF-8 kept, the rest U+FFFD (as json.c's str_utf8). */
static void emit_comm(struct vmsa_jw *w, const struct vmsa_summary *sum,
		      const struct vmsa_task_row *r)
{
	size_t n;
	const char *s = vmsa_summary_comm(sum, r, &n);
	char buf[256], *b = n * 3 + 1 <= sizeof(buf) ? buf : malloc(n * 3 + 1);
	if (!b) {
		w->oom = true;
		return;
	}
	size_t o = vmsa_utf8_fix(b, s, n);
	emit_str(w, b, o);
	if (b != buf)
		free(b);
}

size_t vmsa_utf8_fix(char *b, const char *s, size_t n)
{
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
	return o;
}

static void put_value(struct vmsa_jw *w, jv v);

/* The n bytes of a member ",\"key\":value" at s, without its comma when first */
static inline void emit_member(struct vmsa_jw *w, bool *first, const char *s, size_t n)
{
	if (*first)
		emit(w, s + 1, n - 1);
	else
		emit(w, s, n);
	*first = false;
}

/* member k (a string literal) of value v (a zero or a null: its text at once) */
#define PUT_KV(k, v)                                                                 \
	do {                                                                         \
		jv kv_ = (v);                                                         \
		if (kv_.kind == JV_U64 && kv_.u == 0)                                  \
			emit_member(w, &first, ",\"" k "\":0", sizeof(k) + 4);       \
		else if (kv_.kind == JV_NULL)                                         \
			emit_member(w, &first, ",\"" k "\":null", sizeof(k) + 7);    \
		else {                                                               \
			emit_key_n(w, &first, "" k "", sizeof(k) - 1);               \
			put_value(w, kv_);                                            \
		}                                                                    \
	} while (0)

/* ---- what the lists' values call, as descriptions ------------------ */

/* the vocabulary of the lists' values (summary_fields.h) */
#define VMSA_JNULL ((jv){.kind = JV_NULL})
#define VMSA_JBOOL(b) ((jv){.kind = (b) ? JV_TRUE : JV_FALSE})
#define VMSA_JINT(i) jv_int(i)

static jv u64(uint64_t v)
{
	return (jv){.kind = JV_U64, .u = v};
}

static jv jv_int(int32_t v)
{
	return (jv){.kind = JV_I64, .u = (uint64_t)(int64_t)v};
}

static jv comm_str(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	return (jv){.kind = JV_COMM, .a = sum, .b = r};
}

static jv ctx_obj(const struct vmsa_counters *c, struct vmsa_known kn, bool windowed)
{
	return (jv){.kind = JV_CTX, .a = c, .x = windowed, .kn = kn};
}

static jv ctx_order_obj(const struct vmsa_task_row *r, enum vmsa_ctx x, struct vmsa_known kn)
{
	return (jv){.kind = JV_CTX_ORDER, .a = r, .x = (int)x, .kn = kn};
}

static jv writes_obj(const struct vmsa_counters *c, struct vmsa_known kn)
{
	return (jv){.kind = JV_WRITES, .a = c, .kn = kn};
}

static jv orders(vmsa_orders_t v)
{
	return (jv){.kind = JV_ORDERS, .u = v};
}

static jv throttle_obj(const uint64_t *n, const uint64_t *usec)
{
	return (jv){.kind = JV_THROTTLE, .a = n, .b = usec};
}

/* (left out when there were none) */
static jv reclaim_pages_obj(const uint64_t *n)
{
	return n[VMSA_RP_EVENTS] ? (jv){.kind = JV_RECLAIM_PAGES, .a = n} : VMSA_JNULL;
}

static jv hist_obj(const struct vmsa_hist *h)
{
	return (jv){.kind = JV_HIST, .a = h};
}

static jv buckets_arr(const struct vmsa_hist *h)
{
	return (jv){.kind = JV_BUCKETS, .a = h};
}

static jv kswapd_reclaim_obj(const struct vmsa_task_row *r, struct vmsa_known kn)
{
	return (jv){.kind = JV_KSWAPD_RECLAIM, .a = r, .kn = kn};
}

static jv window_obj(const struct vmsa_task_row *r, enum vmsa_ctx x, struct vmsa_known kn)
{
	return vmsa_row_ctx(r, x)->reclaims ? ctx_obj(vmsa_row_ctx(r, x), kn, true) : VMSA_JNULL;
}

/* ---- the objects, member by member ----------------------------------- */

#define WPUT(k, how, meaning, value) PUT_KV(k, value);
#define WPUT_OPT(k, how, meaning, value)         \
	{                                         \
		jv v_ = (value);                  \
		if (v_.kind != JV_NULL)           \
			PUT_KV(k, v_);            \
	}
/* a counter, or null when known is false (a zero, most of them: its
 * member's text at once) */
#define PUT_U64_IF(k, known, v)                                                   \
	do {                                                                      \
		uint64_t v_ = (v);                                                \
		if ((known) && v_ == 0) {                                         \
			emit_member(w, &first, ",\"" k "\":0", sizeof(k) + 4);    \
			break;                                                    \
		}                                                                 \
		emit_key_n(w, &first, "" k "", sizeof(k) - 1);                    \
		if (known)                                                        \
			emit_u64(w, v_);                                          \
		else                                                              \
			EMIT(w, "null");                                          \
	} while (0)
#define WPUT_COUNTER(type, member, k, unit, meaning) PUT_U64_IF(k, true, (uint64_t)c->member);
#define WPUT_SCANNED(type, member, k, unit, meaning) \
	PUT_U64_IF(k, kn.scanned, (uint64_t)c->member);
#define WPUT_RECLAIMED(type, member, k, unit, meaning) \
	PUT_U64_IF(k, kn.reclaimed, (uint64_t)c->member);
#define WPUT_END_RECLAIMED(type, member, k, unit, meaning) \
	PUT_U64_IF(k, kn.end_reclaimed, (uint64_t)c->member);
#define WPUT_SLAB_FREED(type, member, k, unit, meaning) \
	PUT_U64_IF(k, kn.slab_freed, (uint64_t)c->member);
#define WPUT_QUANTILE(k, q) PUT_KV(k, h->count ? u64(vmsa_hist_quantile(h, q)) : VMSA_JNULL);

/* the members of a context's object (ctx_obj() in json.c) */
static void ctx_members(struct vmsa_jw *w, bool *firstp, const struct vmsa_counters *c,
			struct vmsa_known kn, bool windowed)
{
	bool first = *firstp;
	if (windowed) {
		VMSA_CTX_WINDOW(WPUT_COUNTER)
	}
	VMSA_CTX_FIELDS(WPUT, WPUT_COUNTER, WPUT_SCANNED, WPUT_RECLAIMED, WPUT_END_RECLAIMED,
			WPUT_SLAB_FREED)
	*firstp = first;
}

void vmsa_jw_put(struct vmsa_jw *w, const char *s, size_t n)
{
	emit(w, s, n);
}

static void newline_indent(struct vmsa_jw *w, int level)
{
	if (!reserve(w, 1 + 2 * (size_t)level))
		return;
	w->p[w->n++] = '\n';
	memset(w->p + w->n, ' ', 2 * (size_t)level);
	w->n += 2 * (size_t)level;
}

void vmsa_jw_pretty(struct vmsa_jw *w, const char *s, size_t n, int level)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '"') { /* a string, as it stands */
			size_t j = i + 1;
			while (j < n && s[j] != '"')
				j += s[j] == '\\' ? 2 : 1;
			j = j < n ? j + 1 : n;
			emit(w, s + i, j - i);
			i = j - 1;
		} else if (c == '{' || c == '[') {
			if (i + 1 < n && s[i + 1] == (c == '{' ? '}' : ']')) {
				/* empty: the closer on the next line */
				emit(w, &c, 1);
				newline_indent(w, level);
				emit(w, s + i + 1, 1);
				i++;
				continue;
			}
			emit(w, &c, 1);
			newline_indent(w, ++level);
		} else if (c == '}' || c == ']') {
			newline_indent(w, --level);
			emit(w, &c, 1);
		} else if (c == ',') {
			emit(w, &c, 1);
			newline_indent(w, level);
		} else {
			emit(w, &c, 1);
		}
	}
}

void vmsa_jw_release(struct vmsa_jw *w)
{
	free(w->p);
	for (int i = 0; i < VMSA_JW_BLANKS; i++)
		for (size_t k = 0; k < sizeof(w->blank[i]) / sizeof(w->blank[i][0]); k++)
			free(w->blank[i][k].text);
	memset(w, 0, sizeof(*w));
}

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;
	return n == 0 || (b[0] == 0 && memcmp(b, b + 1, n - 1) == 0);
}

/*
 * Where a blank object of a kind is kept for kn: a context's (0, 1: without,
 * with its window counters; 2: with them and its per-order counts); an
 * empty histogram's (3) and throttling's (4) are the same whatever is known
 * (blank_plain()).
 */
enum { BLANK_HIST = 3, BLANK_THROTTLE = 4 };
static struct vmsa_jw_blank *blank_of(struct vmsa_jw *w, unsigned kind, struct vmsa_known kn)
{
	return &w->blank[kind][(unsigned)kn.sync | (unsigned)kn.scanned << 1 |
			       (unsigned)kn.reclaimed << 2 | (unsigned)kn.end_reclaimed << 3 |
			       (unsigned)kn.writes << 4 | (unsigned)kn.slab_freed << 5];
}

/* The blank object of a kind that does not depend on what is known */
static struct vmsa_jw_blank *blank_plain(struct vmsa_jw *w, unsigned kind)
{
	return &w->blank[kind][0];
}

/* b (NULL: the object is not blank) written, when it has been kept */
static bool put_blank(struct vmsa_jw *w, const struct vmsa_jw_blank *b)
{
	if (!b || !b->text)
		return false;
	emit(w, b->text, b->len);
	return true;
}

/* Keeps what w holds from `from` on in b (nothing kept when out of memory) */
static void keep_blank(struct vmsa_jw *w, struct vmsa_jw_blank *b, size_t from)
{
	if (w->oom || !(b->text = malloc(w->n - from)))
		return;
	memcpy(b->text, w->p + from, w->n - from);
	b->len = w->n - from;
}

static void write_ctx(struct vmsa_jw *w, const struct vmsa_counters *c, struct vmsa_known kn,
		      bool windowed)
{
	struct vmsa_jw_blank *b = NULL;
	if (all_zero(c, sizeof(*c)))
		b = blank_of(w, windowed, kn);
	if (put_blank(w, b))
		return;
	size_t from = w->n;
	bool first = true;
	EMIT(w, "{");
	ctx_members(w, &first, c, kn, windowed);
	EMIT(w, "}");
	if (b)
		keep_blank(w, b, from);
}

static void write_ctx_order(struct vmsa_jw *w, const struct vmsa_task_row *r, enum vmsa_ctx x,
			    struct vmsa_known kn)
{
	/* (the blank object is the same for every windowed context: its
	 * per-order counts are "{}") */
	const struct vmsa_counters *c = vmsa_row_ctx(r, x);
	uint64_t tmp[VMSA_MAX_ORDER];
	struct vmsa_jw_blank *b = 0;
	/* (a context never counted in is blank: the usual, asked first) */
	if ((!r->ctx[x] || all_zero(c, sizeof(*c))) &&
	    (!r->begins_by_order[x] ||
	     all_zero(vmsa_orders(r->begins_by_order[x], tmp), sizeof(tmp))))
		b = blank_of(w, 2, kn);
	if (put_blank(w, b))
		return;
	size_t from = w->n;
	bool first = true;
	EMIT(w, "{");
	ctx_members(w, &first, c, kn, true);
	VMSA_CTX_ORDER_FIELDS(WPUT)
	EMIT(w, "}");
	if (b)
		keep_blank(w, b, from);
}

static void write_kswapd_reclaim(struct vmsa_jw *w, const struct vmsa_task_row *r,
				 struct vmsa_known kn)
{
	bool first = true;
	EMIT(w, "{");
	ctx_members(w, &first, vmsa_row_ctx(r, VMSA_CTX_KSWAPD), kn, false);
	VMSA_KSWAPD_RECLAIM_FIELDS(WPUT)
	EMIT(w, "}");
}

static void write_writes(struct vmsa_jw *w, const struct vmsa_counters *c, struct vmsa_known kn)
{
	bool first = true;
	EMIT(w, "{");
	VMSA_WRITES_FIELDS(WPUT)
	EMIT(w, "}");
}

static void write_orders(struct vmsa_jw *w, vmsa_orders_t by)
{
	uint64_t tmp[VMSA_MAX_ORDER];
	const uint64_t *v = vmsa_orders(by, tmp);
	EMIT(w, "{");
	bool first = true;
	for (int i = 0; i < VMSA_MAX_ORDER; i++)
		if (v[i]) {
			if (!first)
				EMIT(w, ",");
			first = false;
			EMIT(w, "\"");
			emit_u64(w, (uint64_t)i);
			EMIT(w, "\":");
			emit_u64(w, v[i]);
		}
	EMIT(w, "}");
}

static void write_throttle(struct vmsa_jw *w, const uint64_t *n, const uint64_t *usec)
{
	struct vmsa_jw_blank *blank = 0;
	if (all_zero(n, VMSA_THROTTLE__COUNT * sizeof(*n)) &&
	    all_zero(usec, VMSA_THROTTLE__COUNT * sizeof(*usec)))
		blank = blank_plain(w, BLANK_THROTTLE);
	if (put_blank(w, blank))
		return;
	size_t from = w->n;
	bool all_first = true;
	EMIT(w, "{");
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++) {
		emit_key(w, &all_first, vmsa_throttle_name(b));
		bool first = true;
		EMIT(w, "{");
		VMSA_THROTTLE_ONE_FIELDS(WPUT)
		EMIT(w, "}");
	}
	EMIT(w, "}");
	if (blank)
		keep_blank(w, blank, from);
}

static void write_reclaim_pages(struct vmsa_jw *w, const uint64_t *n)
{
	bool first = true;
	EMIT(w, "{");
	VMSA_RECLAIM_PAGES_FIELDS(WPUT)
	EMIT(w, "}");
}

static void write_buckets(struct vmsa_jw *w, const struct vmsa_hist *h)
{
	EMIT(w, "[");
	bool any = false;
	uint64_t lo, hi;
	for (size_t i = 0; vmsa_hist_next(h, &i, &lo, &hi); i++) {
		if (any)
			EMIT(w, ",");
		any = true;
		bool first = true;
		EMIT(w, "{");
		VMSA_BUCKET_FIELDS(WPUT)
		EMIT(w, "}");
	}
	EMIT(w, "]");
}

static void write_hist(struct vmsa_jw *w, const struct vmsa_hist *h)
{
	struct vmsa_jw_blank *blank = all_zero(h, sizeof(*h)) ? blank_plain(w, BLANK_HIST) : 0;
	if (put_blank(w, blank))
		return;
	size_t from = w->n;
	bool first = true;
	EMIT(w, "{");
	VMSA_HIST_FIELDS(WPUT, WPUT_QUANTILE)
	EMIT(w, "}");
	if (blank)
		keep_blank(w, blank, from);
}

static void put_value(struct vmsa_jw *w, jv v)
{
	switch (v.kind) {
	case JV_NULL:
		EMIT(w, "null");
		break;
	case JV_U64:
		emit_u64(w, v.u);
		break;
	case JV_I64:
		emit_i64(w, (int64_t)v.u);
		break;
	case JV_TRUE:
		EMIT(w, "true");
		break;
	case JV_FALSE:
		EMIT(w, "false");
		break;
	case JV_COMM:
		emit_comm(w, v.a, v.b);
		break;
	case JV_CTX:
		write_ctx(w, v.a, v.kn, v.x);
		break;
	case JV_CTX_ORDER:
		write_ctx_order(w, v.a, (enum vmsa_ctx)v.x, v.kn);
		break;
	case JV_WRITES:
		write_writes(w, v.a, v.kn);
		break;
	case JV_ORDERS:
		write_orders(w, (vmsa_orders_t)v.u);
		break;
	case JV_THROTTLE:
		write_throttle(w, v.a, v.b);
		break;
	case JV_RECLAIM_PAGES:
		write_reclaim_pages(w, v.a);
		break;
	case JV_HIST:
		write_hist(w, v.a);
		break;
	case JV_BUCKETS:
		write_buckets(w, v.a);
		break;
	case JV_KSWAPD_RECLAIM:
		write_kswapd_reclaim(w, v.a, v.kn);
		break;
	}
}

void vmsa_jw_row(struct vmsa_jw *w, const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	struct vmsa_known kn = vmsa_known_of(sum);
	bool first = true;
	EMIT(w, "{");
	if (r->is_kswapd) {
		VMSA_KSWAPD_ROW_FIELDS(WPUT, WPUT_OPT)
	} else {
		VMSA_PROCESS_FIELDS(WPUT, WPUT_OPT)
	}
	EMIT(w, "}");
}
