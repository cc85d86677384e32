/* SPDX-License-Identifier: MIT */
/*
 * Text input: one line in, one normalized event (or a classification) out.
 *
 * Line layouts understood (fields after the event name are read by name):
 *   ftrace (trace, trace_pipe, trace-cmd report), 2.6.35 .. 6.x:
 *     <comm>-<pid> [(<tgid>)] [<cpu>] [<irq/preempt flags>] <ts>: <event>: <fields>
 *   perf script:
 *     <comm> <pid>[/<tid>] [<cpu>] <ts>: <system>:<event>: <fields>
 * The task name is everything before the -PID (or the space before the
 * PID for perf) that precedes [CPU], so names may hold spaces, '/', '.',
 * ':' and '-'.
 *
 * Kernel variants, resolved here and nowhere else:
 *  - mm_vmscan_writepage 2.6.35: "file=%d sync_io=%d" (seeds, patch 2/8);
 *    2.6.36+: "flags=RECLAIM_WB_*"; 5.19+ renamed mm_vmscan_write_folio.
 *  - mm_vmscan_lru_isolate 2.6.35: no list; 3.x: "file=%d"; 4.8+: "lru=%s"
 *    and "classzone_idx=" (renamed "classzone=" in 5.8); only the list
 *    name tells inactive from active isolations.
 *  - mm_vmscan_throttled (5.16+) prints its delay as "usect_delayed".
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../internal.h"
#include "input.h"

#define MAX_COMM 255
#define MAX_FIELDS 32

struct vmsa_text_parser {
	struct vmsa_traits traits;
	bool last_unknown_vmscan; /* the last ignored line was mm_vmscan_* */
};

int vmsa_text_parser_new(struct vmsa_text_parser **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : VMSA_E_NOMEM;
}

void vmsa_text_parser_free(struct vmsa_text_parser *p)
{
	free(p);
}

const struct vmsa_traits *vmsa_text_parser_traits(const struct vmsa_text_parser *p)
{
	return &p->traits;
}

/* ---- small scanners over [p, e) --------------------------------- */

static inline bool is_sp(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline const char *skip_sp(const char *p, const char *e)
{
	/* task names are right-aligned in 16 columns: skip spaces 8 at a time */
	while (e - p >= 8 && memcmp(p, "        ", 8) == 0)
		p += 8;
	while (p < e && is_sp(*p))
		p++;
	return p;
}

static bool starts(const char *p, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(e - p) >= n && memcmp(p, lit, n) == 0;
}

enum num_status { NUM_OK, NUM_BAD, NUM_RANGE };

/* Decimal or 0x-hex, optional '-' (reported through *neg). Whole span. */
static enum num_status parse_num(const char *p, const char *e, uint64_t *v, bool *neg)
{
	*neg = false;
	*v = 0;
	if (p < e && *p == '-') {
		*neg = true;
		p++;
	}
	if (p >= e)
		return NUM_BAD;
	uint64_t x = 0;
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		for (; p < e; p++) {
			unsigned d;
			char c = *p;
			if (is_digit(c))
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				return NUM_BAD;
			if (x >> 60)
				return NUM_RANGE;
			x = (x << 4) | d;
		}
	} else {
		for (; p < e; p++) {
			if (!is_digit(*p))
				return NUM_BAD;
			unsigned d = (unsigned)(*p - '0');
			/* x * 10 + d <= UINT64_MAX, without a division per digit */
			if (x >= 1844674407370955161ull && (x > 1844674407370955161ull || d > 5))
				return NUM_RANGE;
			x = x * 10 + d;
		}
	}
	*v = x;
	return NUM_OK;
}

/* "sec.frac" (any number of fraction digits, kept to ns) or integer ns. */
static bool parse_ts(const char *p, const char *e, uint64_t *ns, const char **end, bool *fine)
{
	const char *s = p;
	uint64_t sec = 0;
	while (p < e && is_digit(*p)) {
		if (sec > UINT64_MAX / 10)
			return false;
		sec = sec * 10 + (uint64_t)(*p - '0');
		p++;
	}
	if (p == s)
		return false;
	if (p < e && *p == '.') {
		p++;
		const char *f = p;
		uint64_t frac = 0;
		int digits = 0;
		while (p < e && is_digit(*p)) {
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				digits++;
			}
			p++;
		}
		if (p == f)
			return false;
		*fine = (p - f) > 6;
		while (digits < 9) {
			frac *= 10;
			digits++;
		}
		if (sec > (UINT64_MAX - frac) / 1000000000ull)
			return false;
		*ns = sec * 1000000000ull + frac;
	} else {
		/* a clock that is not in ns (counter, x86-tsc): taken as ns */
		*ns = sec;
		*fine = true;
	}
	*end = p;
	return true;
}

/* ---- the header: task, pid, cpu, timestamp, event name ----------- */

struct header {
	const char *comm;
	size_t comm_len;
	int32_t pid;
	int32_t cpu;
	uint64_t ts;
	const char *name;	/* event name without a "system:" prefix */
	size_t name_len;
	const char *fields, *end;
	bool perf;
	bool fine_ts;
};

static bool parse_pid(const char *s, const char *pe, struct header *h)
{
	/* s..pe is the text before [CPU] (and before any (TGID)), trimmed. */
	const char *d = pe;
	while (d > s && is_digit(d[-1]))
		d--;
	if (d == pe || pe - d > 10)
		return false;
	uint64_t pid = 0;
	bool neg;
	if (parse_num(d, pe, &pid, &neg) != NUM_OK || pid > INT32_MAX)
		return false;
	const char *ce;
	if (d > s && d[-1] == '-') {
		ce = d - 1;
		h->perf = false;
	} else if (d > s && d[-1] == '/') {
		/* perf "pid/tid": the task is the tid */
		const char *q = d - 1;
		while (q > s && is_digit(q[-1]))
			q--;
		if (q == d - 1 || q == s || !is_sp(q[-1]))
			return false;
		ce = q;
		h->perf = true;
	} else if (d > s && is_sp(d[-1])) {
		ce = d;
		h->perf = true;
	} else {
		return false;
	}
	const char *cs = skip_sp(s, ce);
	if (h->perf)
		while (ce > cs && is_sp(ce[-1]))
			ce--;
	h->comm = cs;
	h->comm_len = (size_t)(ce - cs);
	h->pid = (int32_t)pid;
	return true;
}

/* Try the '[' at q as the CPU column. */
static bool try_cpu_at(const char *s, const char *q, const char *e, struct header *h)
{
	const char *r = q + 1;
	uint64_t cpu = 0;
	const char *ds = r;
	while (r < e && is_digit(*r)) {
		cpu = cpu * 10 + (uint64_t)(*r - '0');
		if (cpu > 1u << 20)
			return false;
		r++;
	}
	if (r == ds || r >= e || *r != ']')
		return false;
	r = skip_sp(r + 1, e);

	/* optional irq/preempt flags column, then the timestamp */
	const char *te;
	if (!parse_ts(r, e, &h->ts, &te, &h->fine_ts) || te >= e || *te != ':') {
		const char *f = r;
		while (r < e && !is_sp(*r))
			r++;
		if (r == f || r - f > 8)
			return false;
		r = skip_sp(r, e);
		if (!parse_ts(r, e, &h->ts, &te, &h->fine_ts) || te >= e || *te != ':')
			return false;
	}
	r = skip_sp(te + 1, e);

	/* event name, possibly "system:event", ends at ':' + space or EOL */
	const char *ns = r, *last = r;
	for (;;) {
		const char *c = memchr(r, ':', (size_t)(e - r));
		if (!c)
			return false;
		r = c;
		if (r + 1 == e || is_sp(r[1]))
			break;
		last = ++r;
	}
	if (r == ns || r == last || r - ns > 128 || memchr(ns, ' ', (size_t)(r - ns)))
		return false;
	h->name = last;
	h->name_len = (size_t)(r - last);
	h->fields = skip_sp(r + 1, e);
	h->end = e;

	/* the task and pid before [CPU], skipping a "(TGID)" column */
	const char *pe = q;
	while (pe > s && is_sp(pe[-1]))
		pe--;
	if (pe > s && pe[-1] == ')') {
		const char *o = pe - 1;
		while (o > s && o[-1] != '(')
			o--;
		if (o == s)
			return false;
		pe = o - 1;
		while (pe > s && is_sp(pe[-1]))
			pe--;
	}
	h->cpu = (int32_t)cpu;
	return parse_pid(s, pe, h);
}

static bool parse_header(const char *s, const char *e, struct header *h)
{
	for (const char *q = s; q < e; q++) {
		q = memchr(q, '[', (size_t)(e - q));
		if (!q)
			return false;
		if (q == s || !is_sp(q[-1]))
			continue;
		if (try_cpu_at(s, q, e, h))
			return true;
	}
	return false;
}

/* ---- fields ------------------------------------------------------ */

struct kv {
	const char *k, *v;
	uint16_t klen;
	uint32_t vlen;
};

struct fields {
	struct kv kv[MAX_FIELDS];
	int n;
};

/* "k=v k=v ...": a key starts after the spaces, ends at '='; a value ends
 * at the next space (memchr is vectorised; no byte loop over values). */
static void split_fields(const char *p, const char *e, struct fields *f)
{
	f->n = 0;
	while (p < e && f->n < MAX_FIELDS) {
		while (p < e && is_sp(*p))
			p++;
		const char *eq = memchr(p, '=', (size_t)(e - p));
		if (!eq)
			return;
		const char *v = eq + 1;
		const char *ve = memchr(v, ' ', (size_t)(e - v));
		if (!ve)
			ve = e;
		/* a token without '=' before this key ("page=... foo k=v"): the key
		 * is what follows the last space before '=' */
		const char *k = p;
		if (eq - p > 64 || memchr(p, ' ', (size_t)(eq - p))) {
			k = eq;
			while (k > p && !is_sp(k[-1]))
				k--;
		}
		if (k < eq && eq - k <= 64) {
			struct kv *kv = &f->kv[f->n++];
			kv->k = k;
			kv->klen = (uint16_t)(eq - k);
			kv->v = v;
			kv->vlen = (uint32_t)(ve - v);
		}
		p = ve + 1;
	}
}

static inline const struct kv *get(const struct fields *f, const char *key)
{
	size_t n = __builtin_strlen(key); /* a literal: folded at compile time */
	for (int i = 0; i < f->n; i++)
		if (f->kv[i].klen == n && f->kv[i].k[0] == key[0] && memcmp(f->kv[i].k, key, n) == 0)
			return &f->kv[i];
	return NULL;
}

/* Outcome of reading a field: 0 ok, 1 absent, or -(1 + reject reason). */
#define FIELD_ABSENT 1
#define FIELD_ERR(r) (-(1 + (int)(r)))

static int get_u64(const struct fields *f, const char *key, uint64_t *v)
{
	const struct kv *kv = get(f, key);
	if (!kv)
		return FIELD_ABSENT;
	bool neg;
	switch (parse_num(kv->v, kv->v + kv->vlen, v, &neg)) {
	case NUM_OK:
		return neg && *v ? FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE) : 0;
	case NUM_RANGE:
		return FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE);
	default:
		return FIELD_ERR(VMSA_REJECT_BAD_NUMBER);
	}
}

static int get_i64(const struct fields *f, const char *key, int64_t *v)
{
	const struct kv *kv = get(f, key);
	if (!kv)
		return FIELD_ABSENT;
	bool neg;
	uint64_t u;
	switch (parse_num(kv->v, kv->v + kv->vlen, &u, &neg)) {
	case NUM_OK:
		if (u > (uint64_t)INT64_MAX)
			return FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE);
		*v = neg ? -(int64_t)u : (int64_t)u;
		return 0;
	case NUM_RANGE:
		return FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE);
	default:
		return FIELD_ERR(VMSA_REJECT_BAD_NUMBER);
	}
}

static int get_order(const struct fields *f, int32_t *order, bool required)
{
	int64_t v;
	int r = get_i64(f, "order", &v);
	if (r == FIELD_ABSENT)
		return required ? FIELD_ERR(VMSA_REJECT_MISSING_FIELD) : 0;
	if (r)
		return r;
	if (v < 0 || v >= VMSA_MAX_ORDER)
		return FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE);
	*order = (int32_t)v;
	return 0;
}

static int get_nid(const struct fields *f, int32_t *nid)
{
	int64_t v;
	int r = get_i64(f, "nid", &v);
	if (r == FIELD_ABSENT)
		return 0;
	if (r)
		return r;
	if (v < 0 || v > 1 << 16)
		return FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE);
	*nid = (int32_t)v;
	return 0;
}

struct flag_name {
	const char *name;
	size_t len;
	uint32_t bit;
};
#define FLAG(name, bit) {name, sizeof(name) - 1, bit}

/* "A|B|C", a NONE name, or a number. */
static int parse_flags(const struct kv *kv, const struct flag_name *names, size_t n,
		       const char *none, uint32_t *out)
{
	const char *p = kv->v, *e = kv->v + kv->vlen;
	uint64_t num;
	bool neg;
	if (p < e && is_digit(*p)) {
		if (parse_num(p, e, &num, &neg) != NUM_OK || num > UINT32_MAX)
			return FIELD_ERR(VMSA_REJECT_BAD_VALUE);
		*out = (uint32_t)num;
		return 0;
	}
	uint32_t bits = 0;
	while (p < e) {
		const char *t = p;
		while (p < e && *p != '|')
			p++;
		size_t len = (size_t)(p - t);
		bool found = false;
		for (size_t i = 0; i < n; i++)
			if (names[i].len == len && memcmp(names[i].name, t, len) == 0) {
				bits |= names[i].bit;
				found = true;
				break;
			}
		if (!found && !(none && strlen(none) == len && memcmp(none, t, len) == 0))
			return FIELD_ERR(VMSA_REJECT_BAD_VALUE);
		if (p < e)
			p++;
	}
	*out = bits;
	return 0;
}

/* include/trace/events/vmscan.h, 2.6.36 .. 6.x */
#define WB_ANON 0x1u
#define WB_FILE 0x2u
#define WB_SYNC 0x4u
#define WB_ASYNC 0x8u
#define WB_MIXED 0x10u
static const struct flag_name reclaim_flags[] = {
	FLAG("RECLAIM_WB_ANON", WB_ANON),	FLAG("RECLAIM_WB_FILE", WB_FILE),
	FLAG("RECLAIM_WB_MIXED", WB_MIXED), FLAG("RECLAIM_WB_SYNC", WB_SYNC),
	FLAG("RECLAIM_WB_ASYNC", WB_ASYNC),
};

static const struct flag_name throttle_flags[] = {
	FLAG("VMSCAN_THROTTLE_WRITEBACK", 1u << VMSA_THROTTLE_WRITEBACK),
	FLAG("VMSCAN_THROTTLE_ISOLATED", 1u << VMSA_THROTTLE_ISOLATED),
	FLAG("VMSCAN_THROTTLE_NOPROGRESS", 1u << VMSA_THROTTLE_NOPROGRESS),
	FLAG("VMSCAN_THROTTLE_CONGESTED", 1u << VMSA_THROTTLE_CONGESTED),
};

static int get_reclaim_flags(const struct fields *f, uint32_t *flags)
{
	const struct kv *kv = get(f, "flags");
	if (!kv)
		return FIELD_ABSENT;
	return parse_flags(kv, reclaim_flags, sizeof(reclaim_flags) / sizeof(reclaim_flags[0]),
			   "RECLAIM_WB_NONE", flags);
}

static int get_lru(const struct fields *f, enum vmsa_lru *lru)
{
	static const char *const names[] = {"inactive_anon", "active_anon", "inactive_file",
					    "active_file", "unevictable"};
	const struct kv *kv = get(f, "lru");
	if (!kv)
		return FIELD_ABSENT;
	for (unsigned i = 0; i < 5; i++)
		if (strlen(names[i]) == kv->vlen && memcmp(names[i], kv->v, kv->vlen) == 0) {
			*lru = (enum vmsa_lru)(VMSA_LRU_INACTIVE_ANON + i);
			return 0;
		}
	uint64_t v;
	bool neg;
	/* enum lru_list value, when the symbol table was not applied */
	if (parse_num(kv->v, kv->v + kv->vlen, &v, &neg) == NUM_OK && !neg && v < 5) {
		*lru = (enum vmsa_lru)(VMSA_LRU_INACTIVE_ANON + v);
		return 0;
	}
	return FIELD_ERR(VMSA_REJECT_BAD_VALUE);
}

#define REQ(expr)                                                      \
	do {                                                           \
		int r_ = (expr);                                       \
		if (r_ == FIELD_ABSENT)                                \
			return FIELD_ERR(VMSA_REJECT_MISSING_FIELD);   \
		if (r_)                                                \
			return r_;                                     \
	} while (0)
#define OPT(expr)                        \
	do {                             \
		int r_ = (expr);         \
		if (r_ < 0)              \
			return r_;       \
	} while (0)

/* ---- per-event decoders ------------------------------------------ */

typedef int (*decode_fn)(struct vmsa_text_parser *p, const struct header *h,
			 struct vmsa_event *ev);

static int dec_begin(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
		     struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_RECLAIM_BEGIN;
	OPT(get_nid(&f, &ev->nid));
	return get_order(&f, &ev->order, true);
}

static int dec_end(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
		   struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_RECLAIM_END;
	REQ(get_u64(&f, "nr_reclaimed", &ev->nr_reclaimed));
	return 0;
}

#define CTX_DECODERS(context, suffix)                                                        \
	static int dec_begin_##suffix(struct vmsa_text_parser *p, const struct header *h, \
				      struct vmsa_event *ev)                              \
	{                                                                                \
		ev->ctx = context;                                                       \
		return dec_begin(p, h, ev);                                              \
	}                                                                                \
	static int dec_end_##suffix(struct vmsa_text_parser *p, const struct header *h,   \
				    struct vmsa_event *ev)                                \
	{                                                                                \
		ev->ctx = context;                                                       \
		return dec_end(p, h, ev);                                                \
	}
CTX_DECODERS(VMSA_CTX_DIRECT, direct)
CTX_DECODERS(VMSA_CTX_MEMCG, memcg)
CTX_DECODERS(VMSA_CTX_SOFTLIMIT, softlimit)
CTX_DECODERS(VMSA_CTX_NODE, node)

static int dec_kswapd_wake(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
			   struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_KSWAPD_WAKE;
	OPT(get_nid(&f, &ev->nid));
	return get_order(&f, &ev->order, true);
}

static int dec_kswapd_sleep(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
			    struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_KSWAPD_SLEEP;
	return get_nid(&f, &ev->nid);
}

static int dec_wakeup_kswapd(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
			     struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_WAKEUP_KSWAPD;
	OPT(get_nid(&f, &ev->nid));
	return get_order(&f, &ev->order, true);
}

static int dec_isolate(struct vmsa_text_parser *p, const struct header *h, struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_LRU_ISOLATE;
	REQ(get_u64(&f, "nr_scanned", &ev->nr_scanned));
	OPT(get_u64(&f, "nr_taken", &ev->nr_taken));
	OPT(get_order(&f, &ev->order, false));
	int r = get_lru(&f, &ev->lru);
	if (r < 0)
		return r;
	if (r == 0) {
		p->traits.lines_with_lru_name++;
		ev->file = (ev->lru == VMSA_LRU_INACTIVE_FILE || ev->lru == VMSA_LRU_ACTIVE_FILE);
		return 0;
	}
	p->traits.lines_without_lru_name++;
	uint64_t file;
	r = get_u64(&f, "file", &file);
	if (r < 0)
		return r;
	if (r == 0)
		ev->file = file != 0;
	return 0;
}

static int dec_write(struct vmsa_text_parser *p, const struct header *h, struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_WRITE;
	uint32_t flags;
	int r = get_reclaim_flags(&f, &flags);
	if (r < 0)
		return r;
	if (r == 0) {
		p->traits.writes_with_flags++;
		if (flags & WB_SYNC)
			p->traits.writes_flag_sync++;
		ev->file = (flags & WB_FILE) ? 1 : (flags & WB_ANON) ? 0 : -1;
		/* SYNC and ASYNC both say; from 5.x reclaim is always async */
		ev->sync = (flags & WB_SYNC) ? 1 : 0;
	} else {
		uint64_t file, sync;
		REQ(get_u64(&f, "file", &file));
		REQ(get_u64(&f, "sync_io", &sync));
		p->traits.writes_with_sync_field++;
		ev->file = file != 0;
		ev->sync = sync != 0;
	}
	r = get_u64(&f, "nr_pages", &ev->nr_pages);
	if (r < 0)
		return r;
	if (r == 0)
		p->traits.writes_with_nr_pages++;
	else
		ev->nr_pages = 0;
	return 0;
}

static int dec_write_folio(struct vmsa_text_parser *p, const struct header *h,
			   struct vmsa_event *ev)
{
	p->traits.write_folio_events++;
	return dec_write(p, h, ev);
}

static int dec_shrink_inactive(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
			       struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_SHRINK_INACTIVE;
	REQ(get_u64(&f, "nr_reclaimed", &ev->nr_reclaimed));
	OPT(get_u64(&f, "nr_scanned", &ev->nr_scanned));
	OPT(get_u64(&f, "nr_dirty", &ev->nr_dirty));
	OPT(get_u64(&f, "nr_writeback", &ev->nr_writeback));
	OPT(get_u64(&f, "nr_congested", &ev->nr_congested));
	OPT(get_u64(&f, "nr_immediate", &ev->nr_immediate));
	OPT(get_nid(&f, &ev->nid));
	uint32_t flags;
	int r = get_reclaim_flags(&f, &flags);
	if (r < 0)
		return r;
	if (r == 0)
		ev->file = (flags & WB_FILE) ? 1 : (flags & WB_ANON) ? 0 : -1;
	return 0;
}

static int dec_shrink_active(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
			     struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_SHRINK_ACTIVE;
	OPT(get_u64(&f, "nr_taken", &ev->nr_taken));
	OPT(get_u64(&f, "nr_deactivated", &ev->nr_deactivated));
	OPT(get_nid(&f, &ev->nid));
	uint32_t flags;
	int r = get_reclaim_flags(&f, &flags);
	if (r < 0)
		return r;
	if (r == 0)
		ev->file = (flags & WB_FILE) ? 1 : (flags & WB_ANON) ? 0 : -1;
	return 0;
}

static int dec_throttled(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
			 struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_THROTTLED;
	OPT(get_nid(&f, &ev->nid));
	int r = get_i64(&f, "usect_delayed", &ev->usec_delayed); /* sic, 5.16+ */
	if (r == FIELD_ABSENT)
		r = get_i64(&f, "usec_delayed", &ev->usec_delayed);
	if (r < 0)
		return r;
	OPT(get_i64(&f, "usec_timeout", &ev->usec_timeout));
	if (ev->usec_delayed < 0)
		return FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE);
	const struct kv *kv = get(&f, "reason");
	if (!kv)
		return FIELD_ERR(VMSA_REJECT_MISSING_FIELD);
	return parse_flags(kv, throttle_flags, sizeof(throttle_flags) / sizeof(throttle_flags[0]),
			   "VMSCAN_THROTTLE_NONE", &ev->throttle_reasons);
}

/* kernel/ series: "nid=%d nr_dirty=%lu nr_pages=%ld reason=all_dirty|flush_forward" */
static int dec_flusher(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
		       struct vmsa_event *ev)
{
	struct fields f;
	split_fields(h->fields, h->end, &f);
	ev->type = VMSA_EV_FLUSHER_WAKE;
	OPT(get_nid(&f, &ev->nid));
	REQ(get_u64(&f, "nr_dirty", &ev->nr_dirty));
	REQ(get_u64(&f, "nr_pages", &ev->nr_pages));
	const struct kv *kv = get(&f, "reason");
	if (!kv)
		return FIELD_ERR(VMSA_REJECT_MISSING_FIELD);
	if (kv->vlen == 9 && memcmp(kv->v, "all_dirty", 9) == 0)
		ev->flush_reason = VMSA_FLUSH_ALL_DIRTY;
	else if (kv->vlen == 13 && memcmp(kv->v, "flush_forward", 13) == 0)
		ev->flush_reason = VMSA_FLUSH_FORWARD;
	else
		return FIELD_ERR(VMSA_REJECT_BAD_VALUE);
	return 0;
}

/* mm_shrink_slab_*: "<fn> <ptr>: nid: N ... last shrinker return val N" */
static const char *find_lit(const char *p, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	while ((size_t)(e - p) >= n) {
		const char *q = memchr(p, lit[0], (size_t)(e - p) - n + 1);
		if (!q)
			return NULL;
		if (memcmp(q, lit, n) == 0)
			return q + n;
		p = q + 1;
	}
	return NULL;
}

static int dec_slab_start(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
			  struct vmsa_event *ev)
{
	ev->type = VMSA_EV_SLAB_START;
	if (!find_lit(h->fields, h->end, "nid: "))
		return FIELD_ERR(VMSA_REJECT_MISSING_FIELD);
	return 0;
}

static int dec_slab_end(struct vmsa_text_parser *p VMSA_UNUSED, const struct header *h,
			struct vmsa_event *ev)
{
	ev->type = VMSA_EV_SLAB_END;
	const char *v = find_lit(h->fields, h->end, "last shrinker return val ");
	if (!v)
		return FIELD_ERR(VMSA_REJECT_MISSING_FIELD);
	const char *e = v;
	if (e < h->end && *e == '-')
		e++;
	while (e < h->end && is_digit(*e))
		e++;
	uint64_t u;
	bool neg;
	enum num_status st = parse_num(v, e, &u, &neg);
	if (st == NUM_RANGE || (st == NUM_OK && u > INT64_MAX))
		return FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE);
	if (st != NUM_OK)
		return FIELD_ERR(VMSA_REJECT_BAD_NUMBER);
	ev->slab_freed = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

struct event_desc {
	const char *name;
	size_t len;
	decode_fn fn;
};

/* Every vmscan event from the seeds (2.6.35) through Linux 6.1. */
#define EV(name, fn) {name, sizeof(name) - 1, fn}
static const struct event_desc events[] = {
	EV("mm_vmscan_direct_reclaim_begin", dec_begin_direct),
	EV("mm_vmscan_direct_reclaim_end", dec_end_direct),
	EV("mm_vmscan_memcg_reclaim_begin", dec_begin_memcg),
	EV("mm_vmscan_memcg_reclaim_end", dec_end_memcg),
	EV("mm_vmscan_memcg_softlimit_reclaim_begin", dec_begin_softlimit),
	EV("mm_vmscan_memcg_softlimit_reclaim_end", dec_end_softlimit),
	EV("mm_vmscan_node_reclaim_begin", dec_begin_node),
	EV("mm_vmscan_node_reclaim_end", dec_end_node),
	EV("mm_vmscan_kswapd_wake", dec_kswapd_wake),
	EV("mm_vmscan_kswapd_sleep", dec_kswapd_sleep),
	EV("mm_vmscan_wakeup_kswapd", dec_wakeup_kswapd),
	EV("mm_vmscan_lru_isolate", dec_isolate),
	EV("mm_vmscan_memcg_isolate", dec_isolate), /* 2.6.36 .. 3.x */
	EV("mm_vmscan_writepage", dec_write),
	EV("mm_vmscan_write_folio", dec_write_folio),
	EV("mm_vmscan_lru_shrink_inactive", dec_shrink_inactive),
	EV("mm_vmscan_lru_shrink_active", dec_shrink_active),
	EV("mm_vmscan_throttled", dec_throttled),
	EV("mm_vmscan_wakeup_flusher", dec_flusher), /* kernel/ series */
	EV("mm_shrink_slab_start", dec_slab_start),
	EV("mm_shrink_slab_end", dec_slab_end),
};
#undef EV

static const struct event_desc *find_event(const char *name, size_t len)
{
	if (len < 10 || name[0] != 'm' || name[1] != 'm' || name[2] != '_')
		return NULL;
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (events[i].len == len && memcmp(events[i].name, name, len) == 0)
			return &events[i];
	return NULL;
}

static bool mentions_vmscan(const char *s, const char *e)
{
	return find_lit(s, e, "mm_vmscan_") || find_lit(s, e, "mm_shrink_slab_");
}

/* "CPU:N [LOST M EVENTS]" (trace_pipe), "CPU:N [M EVENTS DROPPED]" (trace-cmd) */
static bool parse_lost(const char *p, const char *e, uint64_t *n, bool *known)
{
	if (!starts(p, e, "CPU:"))
		return false;
	p += 4;
	while (p < e && is_digit(*p))
		p++;
	p = skip_sp(p, e);
	if (!starts(p, e, "["))
		return false;
	p++;
	bool neg;
	if (starts(p, e, "LOST ")) {
		p += 5;
		const char *d = p;
		while (p < e && is_digit(*p))
			p++;
		if (!starts(p, e, " EVENTS]") || parse_num(d, p, n, &neg) != NUM_OK)
			return false;
		*known = true;
		return true;
	}
	if (starts(p, e, "EVENTS DROPPED]")) {
		*n = 0;
		*known = false;
		return true;
	}
	const char *d = p;
	while (p < e && is_digit(*p))
		p++;
	if (!starts(p, e, " EVENTS DROPPED]") || parse_num(d, p, n, &neg) != NUM_OK)
		return false;
	*known = true;
	return true;
}

enum vmsa_line_kind vmsa_text_parse_line(struct vmsa_text_parser *p, const char *line, size_t len,
					 struct vmsa_event *ev, enum vmsa_reject_reason *reason)
{
	const char *s = line, *e = line + len;
	if (e > s && e[-1] == '\r')
		e--;
	p->last_unknown_vmscan = false;
	s = skip_sp(s, e);
	if (s == e || *s == '#')
		return VMSA_LINE_IGNORED;

	memset(ev, 0, sizeof(*ev));
	ev->order = -1;
	ev->nid = -1;
	ev->file = -1;
	ev->sync = -1;

	if (*s == 'C') {
		uint64_t n;
		bool known;
		if (parse_lost(s, e, &n, &known)) {
			ev->type = VMSA_EV_LOST;
			ev->lost = n;
			return VMSA_LINE_LOST;
		}
	}

	struct header h;
	if (!parse_header(line, e, &h)) {
		if (starts(s, e, "cpus=") || starts(s, e, "version = "))
			p->traits.dialect = VMSA_DIALECT_FTRACE;
		if (mentions_vmscan(s, e)) {
			*reason = VMSA_REJECT_BAD_HEADER;
			return VMSA_LINE_REJECTED;
		}
		return VMSA_LINE_IGNORED;
	}
	const struct event_desc *d = find_event(h.name, h.name_len);
	if (!d) {
		p->last_unknown_vmscan = h.name_len > 10 && memcmp(h.name, "mm_vmscan_", 10) == 0;
		return VMSA_LINE_IGNORED;
	}
	if (h.comm_len > MAX_COMM) {
		*reason = VMSA_REJECT_COMM_TOO_LONG;
		return VMSA_LINE_REJECTED;
	}
	ev->ts_ns = h.ts;
	ev->pid = h.pid;
	ev->cpu = h.cpu;
	ev->comm = h.comm;
	ev->comm_len = h.comm_len;
	int r = d->fn(p, &h, ev);
	if (r) {
		*reason = (enum vmsa_reject_reason)(-r - 1);
		return VMSA_LINE_REJECTED;
	}
	if (h.fine_ts)
		p->traits.timestamps_ns_precision++;
	if (p->traits.dialect == VMSA_DIALECT_UNKNOWN)
		p->traits.dialect = h.perf ? VMSA_DIALECT_PERF : VMSA_DIALECT_FTRACE;
	return VMSA_LINE_EVENT;
}

/* ---- the streaming source ---------------------------------------- */

#define BUF_CAP (1u << 20) /* also the longest line kept: 1 MiB */

struct vmsa_source {
	char *name;
	const char *format;
	int fd;
	bool own_fd;
	bool eof, discarding, first_chunk;
	char *buf;
	size_t start, end;
	uint64_t line_no;
	int poll_ms;
	struct vmsa_text_parser parser;
	struct vmsa_tracedat *td;	/* binary input, when not NULL */
	struct vmsa_source_counts counts;
	vmsa_reject_cb reject_cb;
	void *reject_payload;
};

int vmsa_source_open_text_fd(struct vmsa_source **out, int fd, const char *name)
{
	*out = NULL;
	struct vmsa_source *s = calloc(1, sizeof(*s));
	if (!s)
		return VMSA_E_NOMEM;
	s->name = strdup(name ? name : "-");
	s->buf = malloc(BUF_CAP);
	if (!s->name || !s->buf) {
		vmsa_source_close(s);
		return VMSA_E_NOMEM;
	}
	s->fd = fd;
	s->poll_ms = -1;
	s->first_chunk = true;
	s->format = "text";
	*out = s;
	return 0;
}

int vmsa_source_open_path(struct vmsa_source **out, const char *path)
{
	*out = NULL;
	if (strcmp(path, "-") == 0)
		return vmsa_source_open_text_fd(out, STDIN_FILENO, "-");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == EISDIR ? VMSA_E_ISDIR : VMSA_E_IO;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return VMSA_E_ISDIR;
	}
	int r = vmsa_source_open_text_fd(out, fd, path);
	if (r) {
		close(fd);
		return r;
	}
	(*out)->own_fd = true;
	/* trace.dat is recognised by content, not by name */
	char magic[10];
	if (S_ISREG(st.st_mode) && pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
	    memcmp(magic, "\x17\x08\x44tracing", 10) == 0) {
		struct vmsa_source *s = *out;
		r = vmsa_tracedat_open(&s->td, path, &s->counts, &s->parser.traits);
		if (r) {
			vmsa_source_close(s);
			*out = NULL;
			return r;
		}
		s->format = "trace.dat";
	}
	return 0;
}

void vmsa_source_close(struct vmsa_source *s)
{
	if (!s)
		return;
	vmsa_tracedat_close(s->td);
	if (s->own_fd)
		close(s->fd);
	free(s->name);
	free(s->buf);
	free(s);
}

void vmsa_source_set_reject_cb(struct vmsa_source *s, vmsa_reject_cb cb, void *payload)
{
	s->reject_cb = cb;
	s->reject_payload = payload;
}

void vmsa_source_set_poll_timeout(struct vmsa_source *s, int ms)
{
	s->poll_ms = ms;
}

const struct vmsa_source_counts *vmsa_source_counts(const struct vmsa_source *s)
{
	return &s->counts;
}

const struct vmsa_traits *vmsa_source_traits(const struct vmsa_source *s)
{
	return &s->parser.traits;
}

const char *vmsa_source_name(const struct vmsa_source *s)
{
	return s->name;
}

const char *vmsa_source_format(const struct vmsa_source *s)
{
	if (s->td)
		return "trace.dat";
	switch (s->parser.traits.dialect) {
	case VMSA_DIALECT_PERF:
		return "perf-script";
	case VMSA_DIALECT_FTRACE:
		return "ftrace-text";
	default:
		return "text";
	}
}

static void reject(struct vmsa_source *s, enum vmsa_reject_reason r, const char *line, size_t len)
{
	s->counts.lines_rejected++;
	s->counts.rejected_by_reason[r]++;
	if (s->reject_cb)
		s->reject_cb(s->name, s->line_no, r, line, len, s->reject_payload);
}

/* 1: an event for the caller; 0: line consumed */
static int handle_line(struct vmsa_source *s, const char *line, size_t len, struct vmsa_event *ev)
{
	enum vmsa_reject_reason reason = VMSA_REJECT_BAD_HEADER;
	s->line_no++;
	s->counts.lines_read++;
	switch (vmsa_text_parse_line(&s->parser, line, len, ev, &reason)) {
	case VMSA_LINE_EVENT:
		s->counts.lines_analyzed++;
		return 1;
	case VMSA_LINE_LOST:
		s->counts.lines_lost_markers++;
		if (ev->lost)
			s->counts.events_lost += ev->lost;
		else
			s->counts.lost_markers_without_count++;
		return 1;
	case VMSA_LINE_REJECTED:
		reject(s, reason, line, len);
		return 0;
	case VMSA_LINE_IGNORED:
	default:
		s->counts.lines_ignored++;
		if (s->parser.last_unknown_vmscan)
			s->counts.unknown_vmscan_events++;
		return 0;
	}
}

static int check_magic(struct vmsa_source *s)
{
	size_t n = s->end - s->start;
	const char *b = s->buf + s->start;
	static const char tracedat[] = "\x17\x08\x44tracing";
	if (n >= 10 && memcmp(b, tracedat, 10) == 0) {
		s->format = "trace.dat";
		return VMSA_E_STDIN_BINARY; /* a file would have been opened as one */
	}
	if (n >= 8 && memcmp(b, "PERFILE2", 8) == 0) {
		s->format = "perf.data";
		return VMSA_E_UNSUPPORTED;
	}
	return 0;
}

static int fill(struct vmsa_source *s)
{
	if (s->start > 0) {
		memmove(s->buf, s->buf + s->start, s->end - s->start);
		s->end -= s->start;
		s->start = 0;
	}
	if (s->end == BUF_CAP) {
		/* a line longer than we keep: count it once, skip to its end */
		if (!s->discarding) {
			s->line_no++;
			s->counts.lines_read++;
			reject(s, VMSA_REJECT_LINE_TOO_LONG, s->buf, 256);
		}
		s->discarding = true;
		s->end = 0;
	}
	if (s->poll_ms >= 0) {
		struct pollfd pfd = {.fd = s->fd, .events = POLLIN};
		int r = poll(&pfd, 1, s->poll_ms);
		if (r == 0 || (r < 0 && errno == EINTR))
			return VMSA_E_AGAIN;
	}
	ssize_t n = read(s->fd, s->buf + s->end, BUF_CAP - s->end);
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return VMSA_E_AGAIN;
		return errno == EISDIR ? VMSA_E_ISDIR : VMSA_E_IO;
	}
	if (n == 0) {
		s->eof = true;
		return 0;
	}
	s->counts.bytes_read += (uint64_t)n;
	s->end += (size_t)n;
	if (s->first_chunk) {
		s->first_chunk = false;
		return check_magic(s);
	}
	return 0;
}

static int next_binary(struct vmsa_source *s, struct vmsa_event *ev)
{
	for (;;) {
		uint64_t rec = 0;
		enum vmsa_reject_reason why = VMSA_REJECT_BAD_HEADER;
		int r = vmsa_tracedat_next(s->td, ev, &rec, &why);
		if (r != VMSA_TRACEDAT_REJECTED)
			return r;
		if (s->reject_cb)
			s->reject_cb(s->name, rec, why, "", 0, s->reject_payload);
	}
}

int vmsa_source_next(struct vmsa_source *s, struct vmsa_event *ev)
{
	if (s->td)
		return next_binary(s, ev);
	for (;;) {
		char *b = s->buf + s->start;
		size_t n = s->end - s->start;
		char *nl = n ? memchr(b, '\n', n) : NULL;
		if (nl) {
			size_t len = (size_t)(nl - b);
			s->start += len + 1;
			if (s->discarding) {
				s->discarding = false;
				continue;
			}
			if (handle_line(s, b, len, ev))
				return 0;
			continue;
		}
		if (s->eof) {
			if (n == 0 || s->discarding) {
				s->start = s->end;
				return VMSA_E_EOF;
			}
			s->start = s->end;
			if (handle_line(s, b, n, ev))
				return 0;
			continue;
		}
		int r = fill(s);
		if (r)
			return r;
	}
}
