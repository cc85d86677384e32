/* SPDX-License-Identifier: MIT */
/*
 * The fields of a JSON summary, once: each object of the document is a
 * shape, a list of members with their JSON key, unit, merge rule and
 * meaning; the dotted path of a field ("totals.direct.pages_scanned") is the
 * keys from the root.  The JSON writer fills the objects from the lists
 * below, merge takes its rules from here, check its paths and units,
 * compare its rows, the classic report its Summary labels and notes, and
 * docs/json-schema.md its field tables (tools/fields_doc.c); the unit tests
 * hold docs/summary.schema.json to it.
 */
#ifndef VMSA_SUMMARY_FIELDS_H
#define VMSA_SUMMARY_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vmsa/vmsa.h"

/* How two summaries' values of a field combine (docs/json-schema.md, "Merging"). */
enum vmsa_merge {
	VMSA_MERGE_SUM,		/* counters add (a null and a number: the number) */
	VMSA_MERGE_SUM_UNKNOWN,	/* counters add; null when either is null */
	/* counters add; a null and a number give the number only where the
	 * null's writes object has nothing it could not count (no write whose
	 * pages were not carried, its write counts known), else null */
	VMSA_MERGE_SUM_WRITES,
	VMSA_MERGE_MIN,
	VMSA_MERGE_MAX,
	VMSA_MERGE_FIRST,	/* the first summary's value (names, versions, ids) */
	VMSA_MERGE_ANY,		/* true if true in any */
	VMSA_MERGE_ALL,		/* true only if true in all */
	VMSA_MERGE_OBJECT,	/* member by member, by its shape */
	VMSA_MERGE_HIST,	/* bucket by bucket, percentiles recomputed */
	VMSA_MERGE_ROWS,	/* rows of the same comm and pid merge */
	VMSA_MERGE_CONCAT,	/* one list after the other */
	VMSA_MERGE_UNION,	/* strings, each once */
	VMSA_MERGE_DERIVED,	/* recomputed from the merged fields */
	VMSA_MERGE__COUNT
};

struct vmsa_shape;
struct vmsa_summary;

struct vmsa_field {
	/* JSON key; "*" any key (orders); NULL: the members of .shape
	 * are this shape's members too, here */
	const char *key;
	enum vmsa_unit unit;
	enum vmsa_merge merge;
	/* the members of an object, or of each element of a list */
	const struct vmsa_shape *shape;
	bool nullable;		/* null when the trace cannot tell */
	bool optional;		/* present only when it has something to say */
	const char *doc;	/* what it means, one line of Markdown */
};

struct vmsa_shape {
	const char *name;	/* as docs/summary.schema.json's $defs, where it has one */
	const struct vmsa_field *members;
	size_t n;
};

/* the document's root */
extern const struct vmsa_shape vmsa_summary_shape;

/* The member of s (or of a shape it includes) called key, NULL if none. */
const struct vmsa_field *vmsa_shape_member(const struct vmsa_shape *s, const char *key,
					   size_t keylen);
/* The field at a dotted path (objects only, no list elements), NULL if none. */
const struct vmsa_field *vmsa_field_at(const char *path);

/* The percentiles of every histogram, written and recomputed on merge. */
#define VMSA_HIST_QUANTILES(X) X("p50_ns", 0.50) X("p90_ns", 0.90) X("p99_ns", 0.99)
struct vmsa_quantile_key {
	const char *key;
	double q;
};
extern const struct vmsa_quantile_key vmsa_hist_quantile_keys[3];

#define VMSA_SCHEMA_NAME "vmscan-analyze/summary"

/* ---- the objects the JSON writer fills ----------------------------------- */

/*
 * Each list is an object's members in the order of the JSON object,
 * X(key, kind, meaning, value): kind is the table's part of the member
 * (VF_*: unit, merge rule, null or not, shape), value the JSON writer's
 * expression of it, in terms of the variables each list names and of a
 * vocabulary each file that evaluates the values defines (src/report/json.c
 * as json-c objects, json_rows.c as descriptions it writes itself):
 * u64(x), VMSA_JNULL (null), VMSA_JBOOL(b) (true, or false: see each
 * definition), VMSA_JINT(i), VMSA_JSTR(s), str_utf8(s, n) and the object
 * helpers the lists name.  summary_fields.c makes the shapes of them,
 * json.c the objects.
 */
#define VF_RULE(u, m) .unit = VMSA_UNIT_##u, .merge = VMSA_MERGE_##m
#define VF_RULE_NULL(u, m) .unit = VMSA_UNIT_##u, .merge = VMSA_MERGE_##m, .nullable = true
#define VF_SUM(u) VF_RULE(u, SUM)
#define VF_SUM_NULL(u) VF_RULE_NULL(u, SUM)
#define VF_SUM_UNKNOWN(u) VF_RULE_NULL(u, SUM_UNKNOWN)
#define VF_SUM_WRITES(u) VF_RULE_NULL(u, SUM_WRITES)
#define VF_FIRST(u) VF_RULE(u, FIRST)
#define VF_FIRST_NULL(u) VF_RULE_NULL(u, FIRST)
#define VF_OBJ(s) .unit = VMSA_UNIT_OBJECT, .merge = VMSA_MERGE_OBJECT, .shape = &s
#define VF_HIST .unit = VMSA_UNIT_OBJECT, .merge = VMSA_MERGE_HIST, .shape = &hist
#define VF_ORDERS VF_OBJ(by_order)
#define VF_LIST(m, s) .unit = VMSA_UNIT_LIST, .merge = VMSA_MERGE_##m, .shape = &s
#define VF_LIST_NULL(m, s) VF_LIST(m, s), .nullable = true

/* a histogram h; XQ(key, q) its percentiles */
#define VMSA_HIST_FIELDS(X, XQ)                                                          \
	X("count", VF_SUM(COUNT), "values", u64(h->count))                                 \
	X("sum_ns", VF_SUM(NS), "their sum", u64(h->sum))                                  \
	X("min_ns", VF_RULE_NULL(NS, MIN), "the least (null when empty)",                  \
	  h->count ? u64(h->min) : VMSA_JNULL)                                                   \
	X("max_ns", VF_RULE_NULL(NS, MAX), "the greatest (null when empty)",               \
	  h->count ? u64(h->max) : VMSA_JNULL)                                                   \
	VMSA_HIST_QUANTILES(XQ)                                                            \
	X("sub_buckets_log2", VF_FIRST(COUNT),                                             \
	  "4 for totals: buckets at most 6.25% wide; 0 for per-task: log2", u64(h->sub_bits)) \
	X("buckets", VF_LIST(DERIVED, bucket), "the non-empty buckets, ascending",         \
	  buckets_arr(h))

/* bucket i of a histogram h, bounds lo and hi */
#define VMSA_BUCKET_FIELDS(X)                                                 \
	X("lo_ns", VF_FIRST(NS), "lower bound, inclusive", u64(lo))             \
	X("hi_ns", VF_FIRST(NS), "upper bound, inclusive", u64(hi))             \
	X("count", VF_SUM(COUNT), "values in the bucket", u64(vmsa_hist_bucket(h, i)))

/* a context's writes: counters c, kn.sync: the kernel can write synchronously,
 * kn.writes: no write event's line was rejected */
#define VMSA_WRITES_FIELDS(X)                                                                 \
	X("file_async", VF_SUM_UNKNOWN(COUNT),                                                    \
	  "asynchronous file page writes (events); null when a write event's line was "       \
	  "rejected (note writes_unknown)", kn.writes ? u64(c->write[1][0]) : VMSA_JNULL)              \
	X("anon_async", VF_SUM_UNKNOWN(COUNT), "asynchronous anon page writes (events); null as " \
	  "file_async", kn.writes ? u64(c->write[0][0]) : VMSA_JNULL)                                  \
	X("file_sync", VF_SUM_WRITES(COUNT),                                                     \
	  "synchronous file page writes; null when the kernel cannot write synchronously, "   \
	  "and as file_async", kn.sync && kn.writes ? u64(c->write[1][1]) : VMSA_JNULL)                \
	X("anon_sync", VF_SUM_WRITES(COUNT), "synchronous anon page writes; null as file_sync",   \
	  kn.sync && kn.writes ? u64(c->write[0][1]) : VMSA_JNULL)                                     \
	X("pages", VF_SUM_WRITES(PAGES),                                                       \
	  "pages written; null unless the events carry nr_pages, and as file_async",           \
	  kn.writes && c->write_events_with_pages ? u64(c->write_pages) : VMSA_JNULL)

/*
 * A reclaim context's counters c (after its window counters,
 * VMSA_CTX_WINDOW in internal.h), what the trace can tell kn (struct
 * vmsa_known): XC the counters of VMSA_CTX_* there, XS, XR, XE and XF those of
 * VMSA_CTX_SCANNED, VMSA_CTX_RECLAIMED, VMSA_CTX_END and VMSA_CTX_SLAB_FREED,
 * null when kn says unknown.
 */
#define VMSA_CTX_FIELDS(X, XC, XS, XR, XE, XF)                                              \
	X("pages_scanned", VF_SUM_NULL(PAGES),                                            \
	  "inactive-list isolations' nr_scanned (MGLRU's: nr_taken): the sum of the three " \
	  "parts below; null when the trace has no lru_isolate",                          \
	  kn.scanned ? u64(vmsa_scanned(c)) : VMSA_JNULL)                                       \
	VMSA_CTX_SCANNED(XS)                                                              \
	X("pages_reclaimed", VF_SUM_NULL(PAGES),                                          \
	  "lru_shrink_inactive nr_reclaimed: the sum of the three parts below; null when " \
	  "the trace has no lru_shrink_inactive (see end_nr_reclaimed_pages)",           \
	  kn.reclaimed ? u64(vmsa_reclaimed(c)) : VMSA_JNULL)                                   \
	VMSA_CTX_RECLAIMED(XR)                                                            \
	X("writes", VF_OBJ(writes), "page writes from reclaim (below)", writes_obj(c, kn)) \
	VMSA_CTX_END(XE)                                                                  \
	VMSA_CTX_TAIL(XC)                                                                 \
	VMSA_CTX_SLAB_FREED(XF)

/* a windowed context's orders: the row (or sum of rows) r, context x */
#define VMSA_CTX_ORDER_FIELDS(X)                                                         \
	X("reclaims_by_order", VF_ORDERS,                                                  \
	  "begins per allocation order (`\"0\"`..`\"20\"`, only non-zero)",               \
	  orders(r->begins_by_order[x]))

/* one throttle reason b of counts n and microseconds usec */
#define VMSA_THROTTLE_ONE_FIELDS(X)                                            \
	X("count", VF_SUM(COUNT), "mm_vmscan_throttled events", u64(n[b]))       \
	X("delayed_ns", VF_SUM(NS), "their usec_delayed", u64(usec[b] * 1000))

/* one flusher wake-up reason k of the totals t */
#define VMSA_FLUSHER_ONE_FIELDS(X)                                                       \
	X("count", VF_SUM(COUNT), "mm_vmscan_wakeup_flusher events", u64(t->flusher_wakeups[k])) \
	X("dirty_pages_met", VF_SUM(PAGES), "dirty pages reclaim met",                    \
	  u64(t->flusher_dirty_pages[k]))                                                 \
	X("requested_pages", VF_SUM(PAGES), "pages asked to write back (0: all dirty pages)", \
	  u64(t->flusher_requested_pages[k]))

/* one writeback reason k of the totals t: null when the trace has no
 * writeback events */
#define VMSA_WRITEBACK_ONE_FIELDS(X)                                                      \
	X("passes", VF_SUM_NULL(COUNT),                                                   \
	  "flusher passes: a worker's writeback_start and the writeback_written after it", \
	  wb_known(t, t->writeback_passes[k]))                                            \
	X("pages", VF_SUM_NULL(PAGES),                                                    \
	  "pages they wrote: each start's nr_pages less its written's",                   \
	  wb_known(t, t->writeback_pages[k]))

/* the flushers' passes of the totals t, after one object per reason */
#define VMSA_WRITEBACK_FIELDS(X)                                                          \
	X("unpaired", VF_SUM_NULL(COUNT),                                                 \
	  "writeback_start or _written events without their other half (not counted above)", \
	  wb_known(t, t->writeback_unpaired))

/* the sums n of mm_vmscan_reclaim_pages (enum vmsa_reclaim_pages_count) */
#define VMSA_RECLAIM_PAGES_FIELDS(X)                                                    \
	X("events", VF_SUM(COUNT),                                                        \
	  "mm_vmscan_reclaim_pages events: one per node of each reclaim_pages() call",     \
	  u64(n[VMSA_RP_EVENTS]))                                                         \
	X("pages_scanned", VF_SUM(PAGES),                                                 \
	  "their nr_scanned: pages of the caller's list looked at (not in pgscan_*)",      \
	  u64(n[VMSA_RP_SCANNED]))                                                        \
	X("pages_reclaimed", VF_SUM(PAGES), "their nr_reclaimed (not in pgsteal_*)",       \
	  u64(n[VMSA_RP_RECLAIMED]))                                                      \
	X("nr_dirty_pages", VF_SUM(PAGES), "their nr_dirty", u64(n[VMSA_RP_DIRTY]))        \
	X("nr_writeback_pages", VF_SUM(PAGES), "their nr_writeback",                      \
	  u64(n[VMSA_RP_WRITEBACK]))                                                      \
	X("nr_congested_pages", VF_SUM(PAGES), "their nr_congested",                      \
	  u64(n[VMSA_RP_CONGESTED]))                                                      \
	X("nr_immediate_pages", VF_SUM(PAGES), "their nr_immediate",                      \
	  u64(n[VMSA_RP_IMMEDIATE]))

/* a process row r of the summary sum, and a kswapd row's first members */
#define VMSA_ROW_KEY_FIELDS(X, XO)                                                      \
	X("comm", VF_FIRST(TEXT), "task name; bytes that are not UTF-8 become U+FFFD",    \
	  comm_str(sum, r))                                                               \
	X("pid", VF_FIRST_NULL(ID), "null with --ignore-pid and in the `(other tasks)` row", \
	  vmsa_row_has_pid(sum, r) ? VMSA_JINT(r->key.pid) : VMSA_JNULL)             \
	XO("other_tasks", VF_RULE(FLAG, ALL),                                             \
	   "true in the row of the tasks past `--max-tasks` (comm `(other tasks)`, pid null); " \
	   "absent in the others; merge keeps it apart from the rows of real tasks",       \
	   r->key.pid == VMSA_PID_OTHER ? VMSA_JBOOL(1) : VMSA_JNULL)

#define VMSA_PROCESS_FIELDS(X, XO)                                                      \
	VMSA_ROW_KEY_FIELDS(X, XO)                                                        \
	X("direct", VF_OBJ(ctx_window_order), "direct reclaim", ctx_order_obj(r, VMSA_CTX_DIRECT, kn)) \
	X("memcg", VF_OBJ(ctx_window_order), "memcg reclaim", ctx_order_obj(r, VMSA_CTX_MEMCG, kn)) \
	X("memcg_softlimit", VF_OBJ(ctx_window_order), "memcg softlimit reclaim",        \
	  ctx_order_obj(r, VMSA_CTX_SOFTLIMIT, kn))                                     \
	X("node", VF_OBJ(ctx_window_order), "node reclaim", ctx_order_obj(r, VMSA_CTX_NODE, kn)) \
	X("outside_reclaim", VF_OBJ(ctx), "work in no reclaim window",                    \
	  ctx_obj(vmsa_row_ctx(r, VMSA_CTX_NONE), kn, false))                                   \
	X("wakeup_kswapd_requests", VF_SUM(COUNT), "mm_vmscan_wakeup_kswapd events",      \
	  u64(r->wakeup_kswapd))                                                          \
	X("wakeup_kswapd_by_order", VF_ORDERS, "the same, per order", orders(r->wakeup_by_order[0])) \
	X("throttled", VF_OBJ(throttled), "throttling, per reason",                       \
	  throttle_obj(vmsa_row_more(r)->throttled, vmsa_row_more(r)->throttled_usec)) \
	XO("reclaim_pages", VF_OBJ(reclaim_pages),                                        \
	   "its page-list reclaim (mm_vmscan_reclaim_pages: MADV_PAGEOUT, DAMON), when it did any", \
	   reclaim_pages_obj(vmsa_row_more(r)->reclaim_pages))                          \
	X("unmatched_begins", VF_SUM(COUNT), "begins abandoned without an end",           \
	  u64(vmsa_row_more(r)->unmatched_begins))                                 \
	X("unmatched_ends", VF_SUM(COUNT), "ends without a begin", u64(vmsa_row_more(r)->unmatched_ends)) \
	X("direct_stall_ns", VF_HIST, "direct reclaim stalls (log2)", hist_obj(&r->stall))

/* a kswapd row r; XO members are there only when not NULL */
#define VMSA_KSWAPD_ROW_FIELDS(X, XO)                                                   \
	VMSA_ROW_KEY_FIELDS(X, XO)                                                        \
	X("nid", VF_FIRST_NULL(ID), "its node: its events' nid, null when none said", \
	  r->kswapd_nid >= 0 ? VMSA_JINT(r->kswapd_nid) : VMSA_JNULL)                \
	X("wakeups", VF_SUM(COUNT), "mm_vmscan_kswapd_wake events that woke it",          \
	  u64(vmsa_row_more(r)->kswapd_wakeups))                                   \
	X("wakeups_by_order", VF_ORDERS, "the same, per order", orders(r->kswapd_wake_by_order[0])) \
	X("rewakeups", VF_SUM(COUNT), "wakes while awake", u64(vmsa_row_more(r)->kswapd_rewakeups)) \
	X("rewakeups_by_order", VF_ORDERS, "the same, per order",                         \
	  orders(r->kswapd_rewake_by_order[0]))                                              \
	X("awake_in_progress", VF_SUM(COUNT), "awake at the end of input (0 or 1)",        \
	  u64(vmsa_row_ctx(r, VMSA_CTX_KSWAPD)->in_progress))                                        \
	X("awake_in_progress_ns", VF_SUM(NS), "the time awake so far",                    \
	  u64(vmsa_row_ctx(r, VMSA_CTX_KSWAPD)->in_progress_ns))                                     \
	X("sleeps_without_wake", VF_SUM(COUNT), "mm_vmscan_kswapd_sleep with no wake before", \
	  u64(vmsa_row_more(r)->kswapd_sleep_without_wake))                        \
	X("reclaim", VF_OBJ(kswapd_reclaim), "its kswapd-context object plus `awake_ns`",  \
	  kswapd_reclaim_obj(r, kn))                                                    \
	XO("direct", VF_OBJ(ctx_windowed), "direct reclaim windows, when it had any",     \
	   window_obj(r, VMSA_CTX_DIRECT, kn))                                          \
	XO("memcg", VF_OBJ(ctx_windowed), "memcg reclaim windows, when it had any",       \
	   window_obj(r, VMSA_CTX_MEMCG, kn))                                           \
	XO("memcg_softlimit", VF_OBJ(ctx_windowed), "memcg softlimit windows, when it had any", \
	   window_obj(r, VMSA_CTX_SOFTLIMIT, kn))                                       \
	XO("node", VF_OBJ(ctx_windowed), "node reclaim windows, when it had any",         \
	   window_obj(r, VMSA_CTX_NODE, kn))                                            \
	X("throttled", VF_OBJ(throttled), "throttling, per reason",                       \
	  throttle_obj(vmsa_row_more(r)->throttled, vmsa_row_more(r)->throttled_usec)) \
	XO("reclaim_pages", VF_OBJ(reclaim_pages),                                        \
	   "page-list reclaim by a task named as a kswapd thread, when it did any",       \
	   reclaim_pages_obj(vmsa_row_more(r)->reclaim_pages))                          \
	X("awake_ns_histogram", VF_HIST, "awake periods (log2)", hist_obj(&vmsa_row_more(r)->awake))

/* a kswapd row r's reclaim, after the members of ctx */
#define VMSA_KSWAPD_RECLAIM_FIELDS(X)                                                   \
	X("awake_ns", VF_SUM(NS), "time awake, wake to sleep", u64(vmsa_row_ctx(r, VMSA_CTX_KSWAPD)->latency_ns))

/* the totals' kswapd context, after the members of ctx: totals t, rows added up all */
#define VMSA_KSWAPD_TOTALS_FIELDS(X)                                                    \
	X("wakeups", VF_SUM(COUNT), "mm_vmscan_kswapd_wake events that woke a kswapd",     \
	  u64(t->kswapd_wakeups))                                                         \
	X("wakeups_by_order", VF_ORDERS, "the same, per order", orders(all->kswapd_wake_by_order[0])) \
	X("rewakeups", VF_SUM(COUNT), "wakes while awake", u64(t->kswapd_rewakeups))      \
	X("rewakeups_by_order", VF_ORDERS, "the same, per order",                         \
	  orders(all->kswapd_rewake_by_order[0]))                                            \
	X("awake_ns", VF_SUM(NS), "time awake, wake to sleep",                            \
	  u64(vmsa_row_ctx(all, VMSA_CTX_KSWAPD)->latency_ns))                                      \
	X("awake_in_progress", VF_SUM(COUNT), "kswapd threads awake at the end of input", \
	  u64(vmsa_row_ctx(all, VMSA_CTX_KSWAPD)->in_progress))

/* the totals t of the summary sum, rows added up all, kn as a context's; XO
 * members are there only when not NULL */
#define VMSA_TOTALS_FIELDS(X, XO)                                                       \
	X("direct", VF_OBJ(ctx_window_order), "direct reclaim (docs/attribution.md)",     \
	  ctx_order_obj(all, VMSA_CTX_DIRECT, kn))                                      \
	X("memcg", VF_OBJ(ctx_window_order), "memcg reclaim", ctx_order_obj(all, VMSA_CTX_MEMCG, kn)) \
	X("memcg_softlimit", VF_OBJ(ctx_window_order), "memcg softlimit reclaim",        \
	  ctx_order_obj(all, VMSA_CTX_SOFTLIMIT, kn))                                   \
	X("node", VF_OBJ(ctx_window_order), "node reclaim", ctx_order_obj(all, VMSA_CTX_NODE, kn)) \
	X("kswapd", VF_OBJ(kswapd_totals), "kswapd reclaim: the page, write and slab fields, and wake-ups", \
	  kswapd_totals_obj(t, all, kn))                                                \
	X("outside_reclaim", VF_OBJ(ctx), "work in no reclaim window: the page, write and slab fields", \
	  ctx_obj(vmsa_row_ctx(all, VMSA_CTX_NONE), kn, false))                                 \
	X("wakeup_kswapd_requests", VF_SUM(COUNT), "all mm_vmscan_wakeup_kswapd events, from any task", \
	  u64(t->wakeup_kswapd))                                                          \
	X("wakeup_kswapd_by_order", VF_ORDERS, "the same, per order", orders(all->wakeup_by_order[0])) \
	X("throttled", VF_OBJ(throttled), "throttling, per reason",                       \
	  throttle_obj(t->throttled, t->throttled_usec))                                  \
	X("flusher_wakeups", VF_OBJ(flusher),                                             \
	  "this project's mm_vmscan_wakeup_flusher, per reason", flusher_obj(t))          \
	X("flusher_writeback", VF_OBJ(writeback),                                         \
	  "what the flushers wrote, per reason (writeback:writeback_start/_written)",       \
	  writeback_obj(t))                                                               \
	XO("reclaim_pages", VF_OBJ(reclaim_pages),                                        \
	   "page-list reclaim (mm_vmscan_reclaim_pages, kernels after 6.12: MADV_PAGEOUT, " \
	   "DAMON's pageout), when the trace has any: no reclaim window, and apart from "  \
	   "every context's pages above", reclaim_pages_obj(t->reclaim_pages))            \
	X("unmatched_begins", VF_SUM(COUNT), "begins abandoned without an end",           \
	  u64(t->unmatched_begins))                                                       \
	X("unmatched_ends", VF_SUM(COUNT), "ends without a begin", u64(t->unmatched_ends)) \
	X("tasks", VF_RULE(COUNT, DERIVED), "rows", u64(t->tasks))                        \
	X("tasks_folded", VF_SUM(COUNT),                                                  \
	  "tasks past `--max-tasks`, counted in one process row named `(other tasks)`",   \
	  u64(t->tasks_folded))                                                           \
	X("sync_io_applicable", VF_RULE(FLAG, ANY), "the kernel can write synchronously", \
	  VMSA_JBOOL(t->sync_applicable))                                    \
	X("pages_scanned_known", VF_RULE(FLAG, ALL),                                      \
	  "false when the trace has reclaim events but no lru_isolate",                  \
	  VMSA_JBOOL(!t->scans_missing))

/* the summary sum's histograms */
#define VMSA_LATENCY_FIELDS(X)                                                          \
	X("direct_stall_ns", VF_HIST, "direct reclaim stalls", hist_obj(&sum->stall_hist)) \
	X("kswapd_awake_ns", VF_HIST, "kswapd awake periods", hist_obj(&sum->awake_hist)) \
	X("memcg_reclaim_ns", VF_HIST, "memcg and softlimit reclaims", hist_obj(&sum->memcg_hist))

/* an lru= name this tool does not know: its slot n of struct vmsa_traits */
#define VMSA_LRU_NAME_FIELDS(X)                                                         \
	X("name", VF_FIRST(TEXT), "as the trace printed it; `(other names)`: the names past " \
	  "the first 15", str_utf8(n->name, strlen(n->name)))                            \
	X("isolations", VF_FIRST(COUNT), "lru_isolate events of the list", u64(n->count)) \
	X("nr_scanned", VF_FIRST(PAGES), "their nr_scanned, counted in pages_scanned",   \
	  u64(n->pages))

/* a source's traits t; XO members are there only when not NULL */
#define VMSA_TRAITS_FIELDS(X, XO)                                                       \
	X("lru_isolate_names_list", VF_FIRST(FLAG), "lru_isolate says `lru=` (4.8+)",      \
	  VMSA_JBOOL(t->lines_with_lru_name > 0))                            \
	X("write_event", VF_FIRST(TEXT),                                                  \
	  "`mm_vmscan_write_folio`, `mm_vmscan_writepage` or `none`",                     \
	  VMSA_JSTR(write_event_name(t)))                                    \
	X("sync_io_expressed", VF_FIRST(FLAG), "a write event can say it was synchronous", \
	  VMSA_JBOOL(t->writes_with_sync_field || t->writes_flag_sync))      \
	X("write_pages_expressed", VF_FIRST(FLAG), "write events carry `nr_pages`",       \
	  VMSA_JBOOL(t->writes_with_nr_pages > 0))                           \
	X("timestamp_resolution", VF_FIRST(TEXT), "`ns` or `us`",                          \
	  VMSA_JSTR(t->timestamps_ns_precision ? "ns" : "us"))               \
	XO("lru_names_not_known", VF_LIST(FIRST, lru_name),                                      \
	   "`lru=` names of lru_isolate this tool does not know (`odd_list`), when any: "   \
	   "their isolations are in pages_scanned, file or anon where the name says "    \
	   "(else unsplit)",                                                               \
	   names_obj(t->lru_other, true))                                                 \
	XO("wrapped_events", VF_FIRST(COUNT),                                             \
	   "events broken over several lines (a trace pasted into a mail) and not "       \
	   "repaired, when any: their lines are ignored or rejected (try --unwrap)",       \
	   u64_any(t->wrapped_events))                                                    \
	XO("late_events", VF_FIRST(COUNT),                                                \
	   "live: records read after a later one had been analyzed (a CPU's records "     \
	   "came later than the hold-back), when any: the periods they belong to may be " \
	   "cut", u64_any(t->late_events))                                                \
	XO("live_hold_ns", VF_FIRST(NS),                                                  \
	   "live: the hold-back at the end, when late records raised it from 1 s "        \
	   "(doubled until it covers twice their lateness, 16 s at most)",               \
	   u64_any(t->live_hold_ns))                                                      \
	XO("live_released_early", VF_FIRST(COUNT),                                        \
	   "live: records handed out before their hold-back ended, as a million were "    \
	   "held (a busy machine, a long hold), when any: records of their time that "     \
	   "come later count as late", u64_any(t->live_released_early))                   \
	XO("unwrapped_events", VF_FIRST(COUNT), "events --unwrap joined again, when any",   \
	   u64_any(t->unwrapped_events))                                                  \
	XO("unwrapped_lines", VF_FIRST(COUNT),                                            \
	   "the lines they had been broken into after their first: each counted in "      \
	   "`lines_read` and, with its event, in `lines_analyzed`",                        \
	   t->unwrapped_events ? u64(t->unwrapped_lines) : VMSA_JNULL)                          \
	XO("events_by_buffer", VF_OBJ(buffer_names),                                        \
	   "vmscan events and lost-event markers by the buffer they were recorded in, "   \
	   "when a buffer instance had any (trace-cmd record -B NAME: its trace.dat, or "  \
	   "`NAME: ` before a line of trace-cmd report): `top` (the top buffer, and an "    \
	   "instance named so), then each instance by its name; names of other bytes "     \
	   "than letters, digits, `_`, `-` and `.` as `(other names)`; with --instance, "  \
	   "the buffers it keeps",                                                         \
	   buffers_obj(t))                                                                \
	XO("report_files", VF_FIRST(COUNT),                                               \
	   "trace-cmd report of several trace.dat files (`-i a.dat -i b.dat`): the "      \
	   "files, by the `FILE: cpus=N` line it prints for each, when any: their events " \
	   "are interleaved by time and analyzed as one trace", u64_any(t->report_files))  \
	XO("writes_rejected", VF_FIRST(COUNT),                                              \
	   "lines of write events (writepage, write_folio) rejected, when any: the write " \
	   "counts are null (note writes_unknown)", u64_any(t->writes_rejected))           \
	XO("stopped_before_end", VF_FIRST(FLAG),                                          \
	   "true when the analysis was stopped (SIGINT twice, SIGTERM, SIGHUP) before "    \
	   "the end of this input (a file, or a pipe whose writer had not finished): its " \
	   "counts are of the part read (note stopped_before_end)",                        \
	   t->stopped_before_end ? VMSA_JBOOL(1) : VMSA_JNULL)                     \
	XO("tracedat_short", VF_FIRST(COUNT),                                             \
	   "trace.dat: the CPUs (of all its buffers) whose records were not read to the "  \
	   "end of their data as the file's headers give it (a damaged page, a block "    \
	   "that does not decompress, data of another CPU), when any: events are "         \
	   "missing, how many is unknown; each counts in `lost_markers_without_count` "    \
	   "(note tracedat_short)", u64_any(t->tracedat_short))                           \
	XO("timestamps_integer", VF_FIRST(COUNT),                                         \
	   "lines whose timestamp is an integer, when any: taken as ns, which a trace "   \
	   "clock that does not count in ns (counter, uptime, x86-tsc) does not print "   \
	   "(note timestamps_integer)", u64_any(t->timestamps_integer))                  \
	XO("timestamps_out_of_order", VF_FIRST(COUNT),                                    \
	   "events whose timestamp is more than 1 s before an earlier line's, when any: " \
	   "a damaged timestamp, or inputs out of order (note timestamps_out_of_order)",  \
	   u64_any(t->timestamps_out_of_order))

/* what a trace.dat source says of its recording: traits t, dat: a trace.dat */
#define VMSA_RECORDING_FIELDS(X)                                                        \
	X("tracedat_version", VF_FIRST_NULL(COUNT), "the file format's version",          \
	  dat ? u64(t->tracedat_version) : VMSA_JNULL)                                          \
	X("uname", VF_FIRST_NULL(TEXT), "the recording system's uname",                   \
	  dat && t->uname[0] ? str_utf8(t->uname, strlen(t->uname)) : VMSA_JNULL)               \
	X("clock", VF_FIRST_NULL(TEXT), "the trace clock", dat && t->clock[0] ? str_utf8(t->clock, strlen(t->clock)) : VMSA_JNULL) \
	X("kernel_release", VF_FIRST_NULL(TEXT), "from `uname`", kernel_release(t, dat))  \
	X("cpus", VF_FIRST_NULL(COUNT), "CPUs recorded", dat ? VMSA_JINT(t->cpus) : VMSA_JNULL) \
	X("events_lost_per_cpu", VF_LIST_NULL(FIRST, per_cpu),\
	  "overrun plus dropped, summed over buffers, from the CPU stats trace-cmd saved", \
	  lost_per_cpu(t, dat))                                                           \
	X("instances", VF_FIRST_NULL(COUNT), "buffer instances", dat ? VMSA_JINT(t->instances) : VMSA_JNULL)

/* a source s, its counts c and traits t, dat: a trace.dat; XO as in traits */
#define VMSA_SOURCE_FIELDS(X, XO)                                                       \
	X("name", VF_FIRST(TEXT), "as given", str_utf8(s->name, strlen(s->name)))         \
	X("format", VF_FIRST(TEXT), "the format it was read as", VMSA_JSTR(s->format)) \
	X("compression", VF_FIRST(TEXT),                                                  \
	  "`none`, `gzip`, `xz` or `zstd`, by the magic bytes; the counts are of what it held", \
	  VMSA_JSTR(vmsa_compression_name(t->compression)))                  \
	X("bytes_read", VF_FIRST(COUNT), "bytes", u64(c->bytes_read))                     \
	X("lines_read", VF_FIRST(COUNT),                                                  \
	  "= `lines_analyzed` + `lines_filtered` + `lines_ignored` + `lines_lost_markers` + " \
	  "`lines_rejected`",                                                             \
	  u64(c->lines_read))                                                             \
	X("lines_analyzed", VF_FIRST(COUNT), "vmscan events", u64(c->lines_analyzed))     \
	X("lines_filtered", VF_FIRST(COUNT),                                              \
	  "vmscan events left out by `--pid`, `--comm`, `--cpu`, `--since` or `--until`",  \
	  u64(c->lines_filtered))                                                         \
	X("lines_ignored", VF_FIRST(COUNT),                                               \
	  "not vmscan events, and vmscan events not understood (`unknown_vmscan_events`)", \
	  u64(c->lines_ignored))                                                          \
	X("lines_lost_markers", VF_FIRST(COUNT), "lost-events markers", u64(c->lines_lost_markers)) \
	X("lines_rejected", VF_FIRST(COUNT), "rejected, by reason below", u64(c->lines_rejected)) \
	X("rejected_by_reason", VF_OBJ(rejected), "rejected lines per reason",            \
	  rejected_obj(c))                                                                \
	X("events_lost", VF_FIRST(COUNT), "sum of lost-event markers", u64(c->events_lost)) \
	X("lost_markers_without_count", VF_FIRST(COUNT), "lost-event markers that say no number", \
	  u64(c->lost_markers_without_count))                                             \
	X("unknown_vmscan_events", VF_FIRST(COUNT),                                       \
	  "vmscan events this tool does not understand (`mm_vmscan_*`, `vmscan:*`): "      \
	  "a part of `lines_ignored`",                                                    \
	  u64(c->unknown_vmscan_events))                                                  \
	XO("unknown_vmscan_events_by_name", VF_OBJ(event_names),                          \
	   "the same by event name, when any (text input)", names_obj(t->event_other, false)) \
	X("traits", VF_OBJ(traits), "what the field names say about the kernel", traits_obj(t)) \
	X("counted_as", VF_FIRST(TEXT),                                                   \
	  "`lines` or `records`: what the `lines_*` counts are (a trace.dat lost marker counts as one)", \
	  VMSA_JSTR(dat ? "records" : "lines"))                              \
	X("recording", VF_OBJ(recording), "what a trace.dat says about itself (null for text)", \
	  recording_obj(t, dat))

/* the summary sum's input: counts cnt of all sources, totals t */
#define VMSA_INPUT_FIELDS(X)                                                            \
	X("sources", VF_LIST(CONCAT, source), "each input as it was read", sources_arr(sum)) \
	X("lines_read", VF_SUM(COUNT), "over all sources", u64(cnt.lines_read))           \
	X("lines_analyzed", VF_SUM(COUNT), "over all sources", u64(cnt.lines_analyzed))   \
	X("lines_filtered", VF_SUM(COUNT), "over all sources", u64(cnt.lines_filtered))   \
	X("lines_ignored", VF_SUM(COUNT), "over all sources", u64(cnt.lines_ignored))     \
	X("lines_rejected", VF_SUM(COUNT), "over all sources", u64(cnt.lines_rejected))   \
	X("lines_lost_markers", VF_SUM(COUNT), "over all sources", u64(cnt.lines_lost_markers)) \
	X("events_lost", VF_SUM_NULL(COUNT),                                              \
	  "events the tracer dropped; null when a lost-event marker says no number "      \
	  "(`sources[].lost_markers_without_count`)",                                     \
	  t->lost_markers_without_count ? VMSA_JNULL : u64(t->events_lost))                     \
	X("events_analyzed", VF_SUM(COUNT), "vmscan events aggregated", u64(sum->events)) \
	X("first_timestamp_ns", VF_RULE_NULL(NS, MIN), "the first event's",               \
	  sum->have_ts ? u64(sum->first_ts_ns) : VMSA_JNULL)                                    \
	X("last_timestamp_ns", VF_RULE_NULL(NS, MAX), "the last event's",                 \
	  sum->have_ts ? u64(sum->last_ts_ns) : VMSA_JNULL)                                     \
	X("duration_ns", VF_RULE(NS, DERIVED), "last minus first, 0 without events",      \
	  u64(sum->have_ts ? sum->last_ts_ns - sum->first_ts_ns : 0))

#define VMSA_TOOL_FIELDS(X)                                                             \
	X("name", VF_FIRST(TEXT), "`vmscan-analyze`", VMSA_JSTR("vmscan-analyze")) \
	X("version", VF_FIRST(TEXT), "its version", VMSA_JSTR(VMSA_VERSION))

/* the document of the summary sum; XR(key, kind, meaning, kswapd) its rows */
#define VMSA_ROOT_FIELDS(X, XR)                                                         \
	X("schema", VF_FIRST(TEXT), "`\"" VMSA_SCHEMA_NAME "\"`",                          \
	  VMSA_JSTR(VMSA_SCHEMA_NAME))                                       \
	X("schema_version", VF_FIRST(COUNT), "`1`", VMSA_JINT(VMSA_SCHEMA_VERSION)) \
	X("tool", VF_OBJ(tool), "the program that wrote it", tool_obj())                  \
	X("input", VF_OBJ(input), "what was read: `sources[]` and their sums", input_obj(sum)) \
	X("notes", VF_LIST(UNION, note), "conditions a reader must know (below)", notes(sum)) \
	X("totals", VF_OBJ(totals), "everything added up, by reclaim context", totals_obj(sum)) \
	X("latency", VF_OBJ(latency), "histograms over all tasks", latency_obj(sum))      \
	XR("processes", VF_LIST(ROWS, process), "one object per task that is not a kswapd thread", 0) \
	XR("kswapd", VF_LIST(ROWS, kswapd_row), "one object per kswapd thread", 1)

/* ---- notes --------------------------------------------------------------- */

/*
 * A condition a reader must know: JSON's notes[] say "key: text", the
 * classic report "Note: report[0]<count>report[1]" (no count when report[1]
 * is NULL, no line when report[0] is).
 */
struct vmsa_note {
	const char *key;
	const char *json;	/* "key: text" */
	const char *report[2];
	/* non-zero when the note applies: how many times, where it counts */
	uint64_t (*count)(const struct vmsa_summary *sum);
};
extern const struct vmsa_note vmsa_notes[];
extern const size_t vmsa_nnotes;

/* ---- compare ----------------------------------------------------- */

/* How compare shows a value (the unit, scaled for reading). */
enum vmsa_format {
	VMSA_FMT_COUNT,		/* an integer */
	VMSA_FMT_SECONDS,	/* a _ns field, in seconds */
	VMSA_FMT_MSEC,		/* a _ns field, in milliseconds */
	VMSA_FMT_PERCENT,	/* 100 * sum(num) / sum(den) */
	VMSA_FMT_RATE,		/* sum(num) per second of sum(den) (ns) */
};

#define VMSA_COMPARE_PATHS 3

/* A row of compare: sum(num) shown as fmt; NULL label: a blank line. */
struct vmsa_compare_row {
	const char *label;
	enum vmsa_format fmt;
	bool change;		/* --relative shows its change against the first column */
	const char *num[VMSA_COMPARE_PATHS];
	const char *den[VMSA_COMPARE_PATHS];
	/* the classic report's Summary label of the same number (num[0]), if any,
	 * as the Perl layout spelled it */
	const char *classic;
	/* left out when no input has num[0] (a field there only when the trace
	 * has its events), instead of a row of "?" */
	bool optional;
};

extern const struct vmsa_compare_row vmsa_compare_rows[];
extern const size_t vmsa_compare_nrows;

/* The classic label of the compare row of path, NULL if none. */
const char *vmsa_classic_label(const char *path);

#endif /* VMSA_SUMMARY_FIELDS_H */
