/* SPDX-License-Identifier: MIT */
/* The event catalogue (events.h): names, fields, types and builds. */
#include <string.h>

#include "../internal.h"
#include "events.h"
#include "input.h"

/* ---- reading a field's value in a build --------------------------- */

static inline int get(const struct vmsa_values *v, enum vmsa_ev_field f, uint64_t *out)
{
	if (!(v->present & VF_BIT(f)))
		return VMSA_FIELD_ABSENT;
	if (v->bad & VF_BIT(f))
		return VMSA_FIELD_ERR(v->reason[f]);
	*out = v->u[f];
	return 0;
}

static inline int get_i64(const struct vmsa_values *v, enum vmsa_ev_field f, int64_t *out)
{
	uint64_t u;
	int r = get(v, f, &u);
	if (r == 0)
		*out = (int64_t)u;
	return r;
}

static inline int get_i32(const struct vmsa_values *v, enum vmsa_ev_field f, int32_t *out)
{
	uint64_t u;
	int r = get(v, f, &u);
	if (r == 0)
		*out = (int32_t)u;
	return r;
}

/* required: absent is a missing field */
#define REQ(expr)                                                            \
	do {                                                                 \
		int r_ = (expr);                                             \
		if (r_ == VMSA_FIELD_ABSENT)                                 \
			return VMSA_FIELD_ERR(VMSA_REJECT_MISSING_FIELD);    \
		if (r_)                                                      \
			return r_;                                           \
	} while (0)
/* optional: absent leaves the default */
#define OPT(expr)                  \
	do {                       \
		int r_ = (expr);   \
		if (r_ < 0)        \
			return r_; \
	} while (0)

#define BUILD(name)                                                                  \
	static int name(const struct vmsa_values *v, struct vmsa_event *ev VMSA_UNUSED, \
			struct vmsa_traits *t VMSA_UNUSED)

/* ---- builds, one per kind of event ---------------------------------- */

/* reclaim begins, kswapd wakes, kswapd wake-up requests (bare: order unknown) */
BUILD(build_order)
{
	if (v->present == VF_BARE)
		return 0;
	OPT(get_i32(v, VF_NID, &ev->nid));
	REQ(get_i32(v, VF_ORDER, &ev->order));
	return 0;
}

BUILD(build_end)
{
	if (v->present == VF_BARE) {
		ev->nr_reclaimed = VMSA_UNKNOWN_COUNT;
		return 0;
	}
	REQ(get(v, VF_NR_RECLAIMED, &ev->nr_reclaimed));
	return 0;
}

BUILD(build_nid)
{
	OPT(get_i32(v, VF_NID, &ev->nid));
	return 0;
}

BUILD(build_isolate)
{
	REQ(get(v, VF_NR_SCANNED, &ev->nr_scanned));
	OPT(get(v, VF_NR_TAKEN, &ev->nr_taken));
	OPT(get_i32(v, VF_ORDER, &ev->order));
	OPT(get(v, VF_NR_REQUESTED, &ev->nr_requested));
	OPT(get(v, VF_NR_SKIPPED, &ev->nr_skipped));
	uint64_t x;
	int r = get(v, VF_LRU, &x);
	if (r < 0)
		return r;
	if (r == 0) {
		t->lines_with_lru_name++;
		ev->lru = (enum vmsa_lru)(x & LRU_VALUE_MASK);
		if (ev->lru == VMSA_LRU_OTHER)
			ev->file = (x & LRU_NAMED_FILE) ? 1 : (x & LRU_NAMED_ANON) ? 0 : -1;
		else
			ev->file = (ev->lru == VMSA_LRU_INACTIVE_FILE || ev->lru == VMSA_LRU_ACTIVE_FILE);
		return 0;
	}
	t->lines_without_lru_name++;
	r = get(v, VF_FILE, &x);
	if (r < 0)
		return r;
	if (r == 0)
		ev->file = x != 0;
	return 0;
}

BUILD(build_write)
{
	uint64_t flags;
	int r = get(v, VF_FLAGS, &flags);
	if (r < 0)
		return r;
	if (r == 0) {
		t->writes_with_flags++;
		if (flags & WB_SYNC)
			t->writes_flag_sync++;
		ev->file = vmsa_wb_file(flags);
		/* SYNC and ASYNC both say; from 5.x reclaim is always async */
		ev->sync = (flags & WB_SYNC) ? 1 : 0;
	} else {
		uint64_t file, sync;
		REQ(get(v, VF_FILE, &file));
		REQ(get(v, VF_SYNC_IO, &sync));
		t->writes_with_sync_field++;
		ev->file = file != 0;
		ev->sync = sync != 0;
	}
	r = get(v, VF_NR_PAGES, &ev->nr_pages);
	if (r < 0)
		return r;
	if (r == 0)
		t->writes_with_nr_pages++;
	return 0;
}

/* the pages' kind, from the reclaim flags when the event has them */
static int flags_file(const struct vmsa_values *v, struct vmsa_event *ev)
{
	uint64_t flags;
	int r = get(v, VF_FLAGS, &flags);
	if (r < 0)
		return r;
	if (r == 0)
		ev->file = vmsa_wb_file(flags);
	return 0;
}

/* what shrink_folio_list() found (struct reclaim_stat), and the node:
 * lru_shrink_inactive's and reclaim_pages' alike */
static int folio_list_stat(const struct vmsa_values *v, struct vmsa_event *ev)
{
	OPT(get(v, VF_NR_DIRTY, &ev->nr_dirty));
	OPT(get(v, VF_NR_WRITEBACK, &ev->nr_writeback));
	OPT(get(v, VF_NR_CONGESTED, &ev->nr_congested));
	OPT(get(v, VF_NR_IMMEDIATE, &ev->nr_immediate));
	OPT(get_i32(v, VF_NID, &ev->nid));
	return 0;
}

BUILD(build_shrink_inactive)
{
	REQ(get(v, VF_NR_RECLAIMED, &ev->nr_reclaimed));
	OPT(get(v, VF_NR_SCANNED, &ev->nr_scanned));
	OPT(folio_list_stat(v, ev));
	OPT(get_i32(v, VF_PRIORITY, &ev->priority));
	return flags_file(v, ev);
}

/* lru_shrink_inactive's fields without priority and flags: no 2.6.35 form
 * without nr_scanned to allow for */
BUILD(build_reclaim_pages)
{
	REQ(get(v, VF_NR_SCANNED, &ev->nr_scanned));
	REQ(get(v, VF_NR_RECLAIMED, &ev->nr_reclaimed));
	return folio_list_stat(v, ev);
}

BUILD(build_shrink_active)
{
	OPT(get(v, VF_NR_TAKEN, &ev->nr_taken));
	OPT(get(v, VF_NR_DEACTIVATED, &ev->nr_deactivated));
	OPT(get_i32(v, VF_NID, &ev->nid));
	OPT(get_i32(v, VF_PRIORITY, &ev->priority));
	return flags_file(v, ev);
}

BUILD(build_throttled)
{
	OPT(get_i32(v, VF_NID, &ev->nid));
	OPT(get_i64(v, VF_USEC_DELAYED, &ev->usec_delayed));
	OPT(get_i64(v, VF_USEC_TIMEOUT, &ev->usec_timeout));
	if (ev->usec_delayed < 0)
		return VMSA_FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE);
	uint64_t x;
	REQ(get(v, VF_THROTTLE_REASON, &x));
	ev->throttle_reasons = (uint32_t)x;
	return 0;
}

BUILD(build_flusher)
{
	OPT(get_i32(v, VF_NID, &ev->nid));
	REQ(get(v, VF_NR_DIRTY, &ev->nr_dirty));
	REQ(get(v, VF_NR_PAGES, &ev->nr_pages));
	uint64_t x;
	REQ(get(v, VF_FLUSH_REASON, &x));
	ev->flush_reason = (enum vmsa_flush_reason)x;
	return 0;
}

/* writeback_start / _written: "bdi %s: sb_dev %d:%d nr_pages=%ld ... reason=%s ..." */
BUILD(build_writeback)
{
	REQ(get_i64(v, VF_WB_NR_PAGES, &ev->wb_nr_pages));
	uint64_t x;
	REQ(get(v, VF_WB_REASON, &x));
	ev->wb_reason = (enum vmsa_wb_reason)x;
	return 0;
}

BUILD(build_slab_start)
{
	/* 3.x printed no "nid: " (nor a priority): "%pF %p: objects to shrink
	 * %ld gfp_flags %s pgs_scanned %ld lru_pgs %ld cache items %ld delta
	 * %lld total_scan %ld"; a line without fields is none */
	if (v->present == VF_BARE)
		return VMSA_FIELD_ERR(VMSA_REJECT_MISSING_FIELD);
	OPT(get_i32(v, VF_NID, &ev->nid));
	OPT(get_i32(v, VF_PRIORITY, &ev->priority));
	return 0;
}

BUILD(build_slab_end)
{
	REQ(get_i64(v, VF_RETVAL, &ev->slab_freed));
	return 0;
}

/* ---- the catalogue ----------------------------------------------- */

#define B(f) VF_BIT(VF_##f)
#define ORDER_FIELDS (B(NID) | B(ORDER))
#define BEGIN_END(ctx, begin, end)                                                   \
	{{{begin}}, VMSA_EV_RECLAIM_BEGIN, ctx, NULL, NULL, ORDER_FIELDS, build_order},    \
	{{{end}}, VMSA_EV_RECLAIM_END, ctx, NULL, NULL, B(NR_RECLAIMED), build_end}
#define EVENT(type, fields, build, ...) {{__VA_ARGS__}, type, 0, NULL, NULL, fields, build}
#define WRITEBACK(type, name) {{{name}}, type, 0, NULL, "writeback", B(WB_NR_PAGES) | B(WB_REASON), build_writeback}

/* Every vmscan event from the seeds (2.6.35) through Linux 6.12, the
 * mm_vmscan_reclaim_pages of later kernels, the kernel/ series' mm_vmscan_wakeup_flusher,
 * and the flushers' passes. */
const struct vmsa_catalogue vmsa_catalogue = {
	.system = "vmscan",
	/* (mm_shrink_: mm_shrink_slab_*, and mm_shrink_count_* of kernels
	 * that have them, which this tool does not read) */
	.prefixes = {"mm_vmscan_", "mm_shrink_"},
	.field = {
		[VF_ORDER] = {{"order"}, VT_ORDER, NULL},
		[VF_NID] = {{"nid"}, VT_NID, "nid: "},
		[VF_NR_RECLAIMED] = {{"nr_reclaimed"}, VT_COUNT, NULL},
		[VF_NR_SCANNED] = {{"nr_scanned"}, VT_COUNT, NULL},
		[VF_NR_TAKEN] = {{"nr_taken"}, VT_COUNT, NULL},
		[VF_LRU] = {{"lru"}, VT_LRU, NULL},
		[VF_FILE] = {{"file"}, VT_COUNT, NULL},
		[VF_FLAGS] = {{"flags", "reclaim_flags"}, VT_RECLAIM_FLAGS, NULL},
		[VF_SYNC_IO] = {{"sync_io"}, VT_COUNT, NULL},
		[VF_NR_PAGES] = {{"nr_pages"}, VT_COUNT, NULL},
		[VF_NR_DIRTY] = {{"nr_dirty"}, VT_COUNT, NULL},
		[VF_NR_WRITEBACK] = {{"nr_writeback"}, VT_COUNT, NULL},
		[VF_NR_CONGESTED] = {{"nr_congested"}, VT_COUNT, NULL},
		[VF_NR_IMMEDIATE] = {{"nr_immediate"}, VT_COUNT, NULL},
		[VF_NR_DEACTIVATED] = {{"nr_deactivated"}, VT_COUNT, NULL},
		/* sic, the 5.16+ print format; the record's field is usec_ */
		[VF_USEC_DELAYED] = {{"usect_delayed", "usec_delayed"}, VT_I64, NULL},
		[VF_USEC_TIMEOUT] = {{"usec_timeout"}, VT_I64, NULL},
		[VF_THROTTLE_REASON] = {{"reason"}, VT_THROTTLE_FLAGS, NULL},
		[VF_FLUSH_REASON] = {{"reason"}, VT_FLUSH_REASON, NULL},
		[VF_RETVAL] = {{"retval"}, VT_I64, "last shrinker return val "},
		[VF_NR_REQUESTED] = {{"nr_requested"}, VT_COUNT, NULL},
		[VF_NR_SKIPPED] = {{"nr_skipped"}, VT_COUNT, NULL},
		[VF_PRIORITY] = {{"priority"}, VT_COUNT, "priority "},
		[VF_WB_NR_PAGES] = {{"nr_pages"}, VT_I64, NULL},
		[VF_WB_REASON] = {{"reason"}, VT_WB_REASON, NULL},
	},
	.event = {
		BEGIN_END(VMSA_CTX_DIRECT, "mm_vmscan_direct_reclaim_begin",
			  "mm_vmscan_direct_reclaim_end"),
		BEGIN_END(VMSA_CTX_MEMCG, "mm_vmscan_memcg_reclaim_begin",
			  "mm_vmscan_memcg_reclaim_end"),
		BEGIN_END(VMSA_CTX_SOFTLIMIT, "mm_vmscan_memcg_softlimit_reclaim_begin",
			  "mm_vmscan_memcg_softlimit_reclaim_end"),
		BEGIN_END(VMSA_CTX_NODE, "mm_vmscan_node_reclaim_begin",
			  "mm_vmscan_node_reclaim_end"),
		EVENT(VMSA_EV_KSWAPD_WAKE, ORDER_FIELDS, build_order, {"mm_vmscan_kswapd_wake"}),
		EVENT(VMSA_EV_KSWAPD_SLEEP, B(NID), build_nid, {"mm_vmscan_kswapd_sleep"}),
		EVENT(VMSA_EV_WAKEUP_KSWAPD, ORDER_FIELDS, build_order, {"mm_vmscan_wakeup_kswapd"}),
		/* memcg_isolate: 2.6.36 .. 3.x */
		EVENT(VMSA_EV_LRU_ISOLATE,
		      B(NR_SCANNED) | B(NR_TAKEN) | B(ORDER) | B(LRU) | B(FILE) | B(NR_REQUESTED) |
			      B(NR_SKIPPED),
		      build_isolate, {"mm_vmscan_lru_isolate"}, {"mm_vmscan_memcg_isolate"}),
		EVENT(VMSA_EV_WRITE, B(FLAGS) | B(FILE) | B(SYNC_IO) | B(NR_PAGES), build_write,
		      {"mm_vmscan_writepage"}, {"mm_vmscan_write_folio", VMSA_NT_WRITE_FOLIO}),
		EVENT(VMSA_EV_SHRINK_INACTIVE,
		      B(NR_RECLAIMED) | B(NR_SCANNED) | B(NR_DIRTY) | B(NR_WRITEBACK) |
			      B(NR_CONGESTED) | B(NR_IMMEDIATE) | B(NID) | B(FLAGS) | B(PRIORITY),
		      build_shrink_inactive, {"mm_vmscan_lru_shrink_inactive"}),
		EVENT(VMSA_EV_SHRINK_ACTIVE,
		      B(NR_TAKEN) | B(NR_DEACTIVATED) | B(NID) | B(FLAGS) | B(PRIORITY),
		      build_shrink_active, {"mm_vmscan_lru_shrink_active"}),
		EVENT(VMSA_EV_THROTTLED,
		      B(NID) | B(USEC_DELAYED) | B(USEC_TIMEOUT) | B(THROTTLE_REASON),
		      build_throttled, {"mm_vmscan_throttled"}),
		/* after 6.12, reclaim_pages() (MADV_PAGEOUT, DAMON): "nid=%d
		 * nr_scanned=%ld nr_reclaimed=%ld nr_dirty=%ld ... nr_unmap_fail=%ld" */
		EVENT(VMSA_EV_RECLAIM_PAGES,
		      B(NR_RECLAIMED) | B(NR_SCANNED) | B(NR_DIRTY) | B(NR_WRITEBACK) |
			      B(NR_CONGESTED) | B(NR_IMMEDIATE) | B(NID),
		      build_reclaim_pages, {"mm_vmscan_reclaim_pages"}),
		/* kernel/ series: "nid=%d nr_dirty=%lu nr_pages=%ld reason=%s" */
		EVENT(VMSA_EV_FLUSHER_WAKE, B(NID) | B(NR_DIRTY) | B(NR_PAGES) | B(FLUSH_REASON),
		      build_flusher, {"mm_vmscan_wakeup_flusher"}),
		/* "<fn> <ptr>: nid: N objects to shrink ... priority N" (3.x: no
		 * nid; before 4.16: pgs_scanned and lru_pgs, no priority) */
		{{{"mm_shrink_slab_start"}}, VMSA_EV_SLAB_START, 0,
		 "nid: % objects to shrink % gfp_flags % pgs_scanned % lru_pgs % cache items % "
		 "delta % total_scan % priority %",
		 NULL, B(NID) | B(PRIORITY), build_slab_start},
		/* "<fn> <ptr>: nid: N unused scan count ... last shrinker return val N" */
		{{{"mm_shrink_slab_end"}}, VMSA_EV_SLAB_END, 0,
		 "nid: % unused scan count % new scan count % total_scan % last shrinker return val %",
		 NULL, B(RETVAL), build_slab_end},
		/* 3.1+: how much a flusher wrote, and why (pages: the start's
		 * nr_pages less the written's, as wb_writeback() counts down) */
		WRITEBACK(VMSA_EV_WB_START, "writeback_start"),
		WRITEBACK(VMSA_EV_WB_WRITTEN, "writeback_written"),
	},
};
#undef B

int vmsa_catalogue_add_alias(struct vmsa_catalogue *c, enum vmsa_ev_field f, const char *name)
{
	if ((unsigned)f >= VF__COUNT || !name || !*name)
		return VMSA_E_INVAL;
	for (int i = 0; i < VMSA_MAX_ALIASES; i++)
		if (!c->field[f].names[i]) {
			c->field[f].names[i] = name;
			return 0;
		}
	return VMSA_E_INVAL;
}

/* ---- values -------------------------------------------------------- */

struct symbol {
	const char *name;
	uint8_t len;
	uint32_t value;
};
#define SYM(name, value) {name, sizeof(name) - 1, value}

/* include/trace/events/vmscan.h, 2.6.36 .. 6.x (WB_*: input.h) */
static const struct symbol reclaim_flags[] = {
	SYM("ANON", WB_ANON), SYM("FILE", WB_FILE), SYM("MIXED", WB_MIXED),
	SYM("SYNC", WB_SYNC), SYM("ASYNC", WB_ASYNC), SYM("NONE", 0), {NULL, 0, 0},
};
static const struct symbol throttle_flags[] = {
#define THROTTLE_SYM(e, kname, name, meaning) SYM(kname, 1u << VMSA_THROTTLE_##e),
	VMSA_THROTTLE_REASONS(THROTTLE_SYM)
#undef THROTTLE_SYM
	SYM("NONE", 0), {NULL, 0, 0},
};
/* enum lru_list, in its order; then the abbreviations a 2016 mmotm tree
 * (node-lru, before 4.8) printed for them (a trace of it posted to linux-mm
 * has all four) */
static const struct symbol lru_names[] = {
	SYM("inactive_anon", VMSA_LRU_INACTIVE_ANON), SYM("active_anon", VMSA_LRU_ACTIVE_ANON),
	SYM("inactive_file", VMSA_LRU_INACTIVE_FILE), SYM("active_file", VMSA_LRU_ACTIVE_FILE),
	SYM("unevictable", VMSA_LRU_UNEVICTABLE),
	SYM("ia_anon", VMSA_LRU_INACTIVE_ANON), SYM("ac_anon", VMSA_LRU_ACTIVE_ANON),
	SYM("ia_file", VMSA_LRU_INACTIVE_FILE), SYM("ac_file", VMSA_LRU_ACTIVE_FILE),
	{NULL, 0, 0},
};
static const struct symbol wb_reasons[] = {
#define VMSA_WB_SYM(e, name) SYM(name, VMSA_WB_##e),
	VMSA_WB_REASONS(VMSA_WB_SYM)
#undef VMSA_WB_SYM
	SYM("try_to_free_pages", VMSA_WB_VMSCAN), {NULL, 0, 0},
};
static const struct symbol flush_reasons[] = {
#define FLUSH_SYM(e, name, meaning) SYM(name, VMSA_FLUSH_##e),
	VMSA_FLUSH_REASONS(FLUSH_SYM)
#undef FLUSH_SYM
	{NULL, 0, 0},
};

/*
 * A list name not in enum lru_list's nor one of its abbreviations above (a
 * later kernel's, "odd_list"): VMSA_LRU_OTHER, with the kind its name says where it
 * says one and only one (LRU_NAMED_ANON, LRU_NAMED_FILE).  A name is a
 * lower-case identifier; anything else is a bad value.
 */
static int lru_other(const char *s, size_t n, uint64_t *out)
{
	if (n == 0 || n > VMSA_LRU_NAME_MAX || s[0] < 'a' || s[0] > 'z')
		return VMSA_FIELD_ERR(VMSA_REJECT_BAD_VALUE);
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return VMSA_FIELD_ERR(VMSA_REJECT_BAD_VALUE);
	bool anon = false, file = false;
	for (size_t i = 0; i + 4 <= n; i++) {
		anon |= memcmp(s + i, "anon", 4) == 0;
		file |= memcmp(s + i, "file", 4) == 0;
	}
	*out = VMSA_LRU_OTHER;
	if (anon != file)
		*out |= anon ? LRU_NAMED_ANON : LRU_NAMED_FILE;
	return 0;
}

static const struct symbol *lookup(const struct symbol *tab, const char *s, size_t n)
{
	for (; tab->name; tab++)
		if (tab->len == n && vmsa_same_bytes(tab->name, s, n))
			return tab;
	return NULL;
}

/* "P_A|P_B|...": every name with the set's prefix */
static int flags_from_names(const char *prefix, size_t plen, const struct symbol *set,
			    const char *p, size_t n, uint64_t *out)
{
	const char *e = p + n;
	uint32_t bits = 0;
	while (p < e) {
		const char *t = p;
		while (p < e && *p != '|')
			p++;
		size_t len = (size_t)(p - t);
		if (len < plen || !vmsa_same_bytes(t, prefix, plen))
			return VMSA_FIELD_ERR(VMSA_REJECT_BAD_VALUE);
		const struct symbol *s = lookup(set, t + plen, len - plen);
		if (!s)
			return VMSA_FIELD_ERR(VMSA_REJECT_BAD_VALUE);
		bits |= s->value;
		if (p < e)
			p++;
	}
	*out = bits;
	return 0;
}

int vmsa_value_from_symbol(enum vmsa_field_type t, const char *s, size_t n, uint64_t *out)
{
	if (n && s[0] >= '0' && s[0] <= '9')
		return VMSA_FIELD_ABSENT; /* a number */
	const struct symbol *sym;
	switch (t) {
	case VT_RECLAIM_FLAGS:
		return flags_from_names("RECLAIM_WB_", 11, reclaim_flags, s, n, out);
	case VT_THROTTLE_FLAGS:
		return flags_from_names("VMSCAN_THROTTLE_", 16, throttle_flags, s, n, out);
	case VT_LRU:
		sym = lookup(lru_names, s, n);
		if (!sym)
			return lru_other(s, n, out);
		break;
	case VT_FLUSH_REASON:
		sym = lookup(flush_reasons, s, n);
		break;
	case VT_WB_REASON: /* a reason of a later kernel: counted as other */
		sym = lookup(wb_reasons, s, n);
		*out = sym ? sym->value : VMSA_WB_OTHER;
		return 0;
	default:
		return VMSA_FIELD_ABSENT;
	}
	if (!sym)
		return VMSA_FIELD_ERR(VMSA_REJECT_BAD_VALUE);
	*out = sym->value;
	return 0;
}

const char *vmsa_write_event_name(const struct vmsa_traits *t)
{
	if (t->write_folio_events)
		return "mm_vmscan_write_folio";
	return t->writes_with_flags || t->writes_with_sync_field ? "mm_vmscan_writepage" : "none";
}

/* ---- names this tool does not know -------------------------------- */

#define OTHER_NAMES "(other names)"

/* '-' and '.' besides letters, digits and '_' where dashes */
static int name_count_add(struct vmsa_name_count *tab, const char *name, size_t len,
			  uint64_t count, uint64_t pages, bool dashes)
{
	const size_t room = sizeof(tab->name);
	struct vmsa_name_count *last = &tab[VMSA_NAME_COUNTS - 1];
	struct vmsa_name_count *slot = last;
	/* a name is letters, digits and '_' (the rest, bytes of any kind, would
	 * make no JSON key one can trust) */
	bool plain = len > 0 && len < room;
	for (size_t i = 0; plain && i < len; i++) {
		char ch = name[i];
		plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			(ch >= '0' && ch <= '9') || ch == '_' || (dashes && (ch == '-' || ch == '.'));
	}
	if (plain)
		for (struct vmsa_name_count *c = tab; c < last; c++) {
			if (!c->name[0]) {
				memcpy(c->name, name, len);
				c->name[len] = '\0';
			} else if (strncmp(c->name, name, len) || c->name[len]) {
				continue;
			}
			slot = c;
			break;
		}
	if (slot == last && !last->name[0])
		memcpy(last->name, OTHER_NAMES, sizeof(OTHER_NAMES));
	slot->count += count;
	slot->pages += pages;
	return (int)(slot - tab);
}

void vmsa_name_count_add(struct vmsa_name_count *tab, const char *name, size_t len,
			 uint64_t count, uint64_t pages)
{
	name_count_add(tab, name, len, count, pages, false);
}

int vmsa_instance_count_add(struct vmsa_name_count *tab, const char *name, size_t len,
			    uint64_t count)
{
	return name_count_add(tab, name, len, count, 0, true);
}

void vmsa_name_counts_add(struct vmsa_name_count *dst, const struct vmsa_name_count *src)
{
	for (int i = 0; i < VMSA_NAME_COUNTS - 1 && src[i].name[0]; i++) /* (first ones) */
		name_count_add(dst, src[i].name, strlen(src[i].name), src[i].count, src[i].pages,
			       true); /* (src's names were checked as they came) */
	const struct vmsa_name_count *o = &src[VMSA_NAME_COUNTS - 1];
	struct vmsa_name_count *d = &dst[VMSA_NAME_COUNTS - 1];
	if (!o->name[0])
		return;
	memcpy(d->name, OTHER_NAMES, sizeof(OTHER_NAMES));
	d->count += o->count;
	d->pages += o->pages;
}
