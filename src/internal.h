/* SPDX-License-Identifier: MIT */
/* Library-private types shared by stats, summary and reporters. */
#ifndef VMSA_INTERNAL_H
#define VMSA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "vmsa/vmsa.h"
#include "abi.h"

#define VMSA_UNUSED __attribute__((unused))

/* ---- histograms (hist.c) ---------------------------------------- */

/*
 * Log-linear histogram of nanosecond values: each power of two is cut
 * into 2^sub_bits buckets, so a bucket's width is at most 1/2^sub_bits of
 * its lower bound.  Histograms with the same sub_bits merge by adding.
 */
struct vmsa_hist {
	/* the buckets held: first .. first + held - 1, the others empty (a
	 * task's stalls fill a few of its 65); a histogram has at most
	 * (64 - 8 + 1) << 8 buckets (sub_bits <= 8, as the JSON reader holds
	 * it), and every task row has one or two of these */
	uint16_t first, held;
	uint8_t sub_bits;
	uint64_t count, sum, min, max;
	/* one bucket held (held == 1) keeps its count in one, no array: what a
	 * short-lived task's one stall fills, and a hundred thousand of them
	 * made as many allocations of 8 bytes; an array holds two or more */
	union {
		uint64_t *buckets; /* held > 1: buckets[0] is bucket first */
		uint64_t one;
	};
};

/* Whether the one bucket held is counted in place (vmsa_hist.one) */
static inline bool vmsa_hist_in_one(const struct vmsa_hist *h)
{
	return h->held == 1;
}

/* The buckets held (held of them, from bucket first) */
static inline uint64_t *vmsa_hist_held(struct vmsa_hist *h)
{
	return vmsa_hist_in_one(h) ? &h->one : h->buckets;
}

static inline const uint64_t *vmsa_hist_held_c(const struct vmsa_hist *h)
{
	return vmsa_hist_in_one(h) ? &h->one : h->buckets;
}

void vmsa_hist_init(struct vmsa_hist *h, unsigned sub_bits);
void vmsa_hist_release(struct vmsa_hist *h);
int vmsa_hist_add(struct vmsa_hist *h, uint64_t v);
/* n values in the bucket of v, without count, sum, min or max (a histogram read back) */
int vmsa_hist_add_n(struct vmsa_hist *h, uint64_t v, uint64_t n);
int vmsa_hist_merge(struct vmsa_hist *dst, const struct vmsa_hist *src);
int vmsa_hist_copy(struct vmsa_hist *dst, const struct vmsa_hist *src);
size_t vmsa_hist_nbuckets(const struct vmsa_hist *h);
/* The values in bucket i (i < vmsa_hist_nbuckets()) */
static inline uint64_t vmsa_hist_bucket(const struct vmsa_hist *h, size_t i)
{
	return i >= h->first && i - h->first < h->held ? vmsa_hist_held_c(h)[i - h->first] : 0;
}
/* [lo, hi] bounds of bucket i */
void vmsa_hist_bucket_bounds(const struct vmsa_hist *h, size_t i, uint64_t *lo, uint64_t *hi);
/* The first non-empty bucket from *i on: true with *i at it and its bounds,
 * false past the last.  for (size_t i = 0; vmsa_hist_next(h, &i, &lo, &hi); i++) */
bool vmsa_hist_next(const struct vmsa_hist *h, size_t *i, uint64_t *lo, uint64_t *hi);
/*
 * Fold into power-of-two buckets: out[0] counts 0, out[i] counts values in
 * [2^(i-1), 2^i - 1].  Exact: no bucket straddles a power of two.
 */
void vmsa_hist_log2(const struct vmsa_hist *h, uint64_t out[65]);
/* value at quantile q (0..1): the upper bound of its bucket, capped at max */
uint64_t vmsa_hist_quantile(const struct vmsa_hist *h, double q);

/* Buckets in ascending order, however they are stored (a vmsa_hist, a JSON array). */
struct vmsa_buckets {
	const void *ctx;
	size_t n;
	uint64_t (*count)(const void *ctx, size_t i);
	uint64_t (*hi)(const void *ctx, size_t i);	/* upper bound, inclusive */
};
/*
 * The value at quantile q (0 < q <= 1) of count values in b: the nearest
 * rank's bucket's upper bound, held within [min, max].  Every percentile of
 * a summary, written or recomputed on merge, is this function's.
 */
uint64_t vmsa_quantile(const struct vmsa_buckets *b, uint64_t count, uint64_t min, uint64_t max,
		       double q);

#define VMSA_HIST_FINE 4	/* totals: buckets within 6.25% */
#define VMSA_HIST_COARSE 0	/* per task: log2, as bcc's tools print */

/* ---- counters --------------------------------------------------- */

/*
 * The counters of one reclaim context, each listed once: X(type, member,
 * JSON key, unit, meaning), in the order of the context's JSON object.  The
 * struct, the JSON writer and the summary's field table (summary_fields.c,
 * which also prints docs/json-schema.md) come from these lists.
 */
/* direct, memcg, softlimit and node windows only */
#define VMSA_CTX_WINDOW(X)                                                            \
	X(uint64_t, reclaims, "reclaims", COUNT, "begin events")                       \
	X(uint64_t, retries, "retries", COUNT,                                        \
	  "`goto retry`s: the priority of a window's shrink or slab events went back up") \
	X(uint64_t, completed, "reclaims_completed", COUNT, "begin..end pairs")       \
	X(uint64_t, in_progress, "in_progress", COUNT,                                \
	  "windows open at the end of input")                                         \
	X(uint64_t, in_progress_ns, "in_progress_ns", NS,                             \
	  "the open windows' time so far")                                            \
	X(uint64_t, latency_ns, "latency_ns", NS,                                     \
	  "sum of completed windows' durations (stall time)")
/* the parts of pages_scanned, then of pages_reclaimed */
#define VMSA_CTX_SCANNED(X)                                                           \
	X(uint64_t, scanned_file, "pages_scanned_file", PAGES, "of pages_scanned, file") \
	X(uint64_t, scanned_anon, "pages_scanned_anon", PAGES, "of pages_scanned, anon") \
	X(uint64_t, scanned_unknown, "pages_scanned_unsplit", PAGES,                  \
	  "of pages_scanned, where the trace cannot split file from anon (2.6.35; an `lru=` name this tool does not know that says neither)")
#define VMSA_CTX_RECLAIMED(X)                                                         \
	X(uint64_t, reclaimed_file, "pages_reclaimed_file", PAGES,                    \
	  "of pages_reclaimed, file")                                                 \
	X(uint64_t, reclaimed_anon, "pages_reclaimed_anon", PAGES,                    \
	  "of pages_reclaimed, anon")                                                 \
	X(uint64_t, reclaimed_unknown, "pages_reclaimed_unsplit", PAGES,              \
	  "of pages_reclaimed, where the trace cannot split file from anon")
/* after "writes" */
#define VMSA_CTX_END(X)                                                               \
	X(uint64_t, end_nr_reclaimed, "end_nr_reclaimed_pages", PAGES,                \
	  "sum of the end events' nr_reclaimed (includes slab, unlike pages_reclaimed); " \
	  "null when an end event printed no fields")
#define VMSA_CTX_TAIL(X)                                                              \
	X(uint64_t, nr_dirty, "nr_dirty_pages", PAGES, "sum from lru_shrink_inactive") \
	X(uint64_t, nr_writeback, "nr_writeback_pages", PAGES,                        \
	  "sum from lru_shrink_inactive")                                             \
	X(uint64_t, nr_congested, "nr_congested_pages", PAGES,                        \
	  "sum from lru_shrink_inactive")                                             \
	X(uint64_t, nr_immediate, "nr_immediate_pages", PAGES,                        \
	  "sum from lru_shrink_inactive")                                             \
	X(uint64_t, mglru_scanned, "mglru_scanned_pages", PAGES,                      \
	  "multi-gen LRU isolations (nr_requested 4096): nr_scanned, folios looked at") \
	X(uint64_t, mglru_skipped, "mglru_skipped_pages", PAGES,                      \
	  "the same: nr_skipped (other zones); nr_scanned - nr_skipped - nr_taken were sorted") \
	X(uint64_t, mglru_isolated, "mglru_isolated_pages", PAGES,                    \
	  "the same: nr_taken, counted in pages_scanned as pgscan_* counts it")        \
	X(uint64_t, active_isolated, "active_isolated_pages", PAGES,                  \
	  "active-list rotation: nr_taken of isolations from the active lists")       \
	X(uint64_t, deactivated, "deactivated_pages", PAGES,                          \
	  "active-list rotation: pages deactivated")                                  \
	X(uint64_t, slab_calls, "slab_shrinker_calls", COUNT,                         \
	  "mm_shrink_slab_start events")
/* (null when the trace has shrinker starts but no end: vmsa_known.slab_freed) */
#define VMSA_CTX_SLAB_FREED(X)                                                       \
	X(int64_t, slab_freed, "slab_objects_freed", COUNT,                           \
	  "sum of positive mm_shrink_slab_end return values; null when the trace has " \
	  "mm_shrink_slab_start events but no mm_shrink_slab_end")

#define VMSA_COUNTER_MEMBER(type, member, key, unit, meaning) type member;

struct vmsa_counters {
	VMSA_CTX_WINDOW(VMSA_COUNTER_MEMBER)
	VMSA_CTX_SCANNED(VMSA_COUNTER_MEMBER)
	VMSA_CTX_RECLAIMED(VMSA_COUNTER_MEMBER)
	uint64_t write[2][2];		/* [file][sync] events (folios) */
	uint64_t write_pages;		/* pages, where the event says */
	uint64_t write_events_with_pages;
	VMSA_CTX_END(VMSA_COUNTER_MEMBER)
	VMSA_CTX_TAIL(VMSA_COUNTER_MEMBER)
	VMSA_CTX_SLAB_FREED(VMSA_COUNTER_MEMBER)
};

struct vmsa_latency {
	uint64_t end_ts_ns;
	uint64_t ns;
	int32_t order;
	uint8_t kind;			/* enum vmsa_ctx */
};

/*
 * A task row's counters besides its contexts' and its per-order counts,
 * each listed once: X(member, dimensions).  Rows merge and totals add up
 * through these lists.  Every task may ask kswapd to wake (the row's own);
 * the others are counted by few tasks (kswapd threads, throttled tasks,
 * flusher wakers, page-list reclaimers, unmatched events): they are in the row's struct
 * vmsa_row_more, made when first counted.
 */
#define VMSA_ROW_COUNTERS(X)                                        \
	X(wakeup_kswapd, )
#define VMSA_ROW_MORE_COUNTERS(X)                                   \
	X(kswapd_wakeups, )                                         \
	X(kswapd_rewakeups, )                                       \
	X(throttled, [VMSA_THROTTLE__COUNT])                        \
	X(throttled_usec, [VMSA_THROTTLE__COUNT])                   \
	X(unmatched_ends, )                                         \
	X(unmatched_begins, )                                       \
	X(kswapd_sleep_without_wake, )                              \
	X(flusher_wakeups, [VMSA_FLUSH__COUNT])                     \
	X(flusher_dirty_pages, [VMSA_FLUSH__COUNT])                 \
	X(flusher_requested_pages, [VMSA_FLUSH__COUNT])             \
	X(reclaim_pages, [VMSA_RP__COUNT])

/*
 * A row's per-order counts, each a vmsa_orders_t (below): X(member, how
 * many).  begins_by_order has one per windowed context.
 */
#define VMSA_ROW_ORDERS(X)                                          \
	X(begins_by_order, VMSA_CTX__COUNT - 2)                     \
	X(wakeup_by_order, 1)                                       \
	X(kswapd_wake_by_order, 1)                                  \
	X(kswapd_rewake_by_order, 1)

/* The flushers' passes (writeback_start .. _written of one worker), by
 * reason: whole-system counts, kept out of the task rows (kworkers are no
 * reclaimers, and recordings started apart see different ones). */
struct vmsa_writeback {
	uint64_t passes[VMSA_WB__COUNT];
	uint64_t pages[VMSA_WB__COUNT];
	uint64_t unpaired;
	bool seen; /* the trace has writeback events (kept by vmsa_stats_restart()) */
};

#define VMSA_ROW_MEMBER(member, dims) uint64_t member dims;
/*
 * Per-order counts in one word: 0, none counted; the low bit set, the count
 * of a single order (the order in bits 1-5, the count from bit 6 on): what
 * almost every task counts, and a hundred thousand short-lived tasks made
 * as many arrays of VMSA_MAX_ORDER counters, mostly zeros; else the address
 * of such an array, made when a second order is counted (or the count
 * outgrows its bits).  Read with vmsa_order_count() or vmsa_orders().
 */
typedef uintptr_t vmsa_orders_t;
#define VMSA_ORDERS_SHIFT 6
#define VMSA_ORDERS_ONE_MAX (UINTPTR_MAX >> VMSA_ORDERS_SHIFT)
_Static_assert(VMSA_MAX_ORDER <= 32, "an order in five bits");

#define VMSA_ROW_ORDER_MEMBER(member, n) vmsa_orders_t member[n];

struct vmsa_row_block;

/* What few task rows count (VMSA_ROW_MORE_COUNTERS first, then the rest) */
struct vmsa_row_more {
	VMSA_ROW_MORE_COUNTERS(VMSA_ROW_MEMBER)
	struct vmsa_hist awake; /* kswapd awake time */
	/* the per-event latency list, kept only when asked for (the row's
	 * own, whether the row is a block's or not) */
	struct vmsa_latency *lat;
	size_t nlat, lat_cap;
};
#define VMSA_ROW_MORE_COUNTER_BYTES offsetof(struct vmsa_row_more, awake)

/*
 * Counters of one task identity: (pid, comm).  The statistics keep their
 * rows in blocks (stats.c) that a summary shares instead of copying: a row
 * marked shared is read by the statistics and by summaries and written by
 * none (the statistics copy it before changing it).  A summary's own rows
 * (read back, or copied before it changes them) are in blocks of its own,
 * changed in place (vmsa_summary_new_row()); a row of no block (block NULL:
 * a total on the stack) is its holder's alone.
 * Its 192 bytes (three cache lines) hold what the text tables read of it
 * (its key, its parts' pointers, the wake-up counts): the report asks for
 * them ahead (report/classic.c).  A trace of short-lived tasks holds a row
 * for each of them: what few rows have is in their parts.
 */
struct vmsa_task_row {
	struct vmsa_row_block *block;
	struct {
		int32_t pid;
		uint32_t comm_id;
	} key;
	bool is_kswapd;
	bool shared;
	int32_t kswapd_nid;
	/* made when the task first counts something in the context (NULL: all
	 * zero; vmsa_row_ctx() reads either): a task is seldom in more than one,
	 * and a trace may hold a hundred thousand tasks */
	struct vmsa_counters *ctx[VMSA_CTX__COUNT];
	VMSA_ROW_ORDERS(VMSA_ROW_ORDER_MEMBER)
	VMSA_ROW_COUNTERS(VMSA_ROW_MEMBER)
	/* made when the task first counts one of them (NULL: all zero;
	 * vmsa_row_more() reads either) */
	struct vmsa_row_more *more;
	struct vmsa_hist stall;		/* direct reclaim latency */
};

/* ---- interned task names ---------------------------------------- */

struct vmsa_comm {
	uint32_t id;
	uint32_t hash;
	size_t len;
	char *name;			/* NUL-terminated copy (may hold NULs), after it */
};

/*
 * Names by id, and ids by name: open addressing over the ids (id + 1, 0 an
 * empty slot; at most half full), each name with its entry in chunks that
 * never move.  (A uthash table and three allocations a name took a quarter
 * of the time of a trace of 100,000 task names, and a summary's copy
 * interned them all again.)
 */
struct vmsa_comm_chunk;
struct vmsa_comms {
	uint32_t *slot;
	uint32_t mask;			/* slots - 1 */
	struct vmsa_comm **by_id;
	uint32_t n, cap;
	uint32_t last; /* the id interned last: asked first (short-lived tasks
			* of one name ask for the same name over and over) */
	struct vmsa_comm_chunk *chunks; /* newest first */
};

int vmsa_comms_intern(struct vmsa_comms *c, const char *name, size_t len, uint32_t *id);
void vmsa_comms_release(struct vmsa_comms *c);
int vmsa_comms_copy(struct vmsa_comms *dst, const struct vmsa_comms *src);

#define VMSA_COMM_PLACEHOLDER "<...>"
#define VMSA_COMM_OTHER "(other tasks)"
/* the pid of the (other tasks) row: tasks past --max-tasks */
#define VMSA_PID_OTHER (-2)
/* the pid of a row by name alone (--ignore-pid), or read from a summary's
 * row whose pid is null */
#define VMSA_PID_NONE (-1)

/* ---- sources recorded for the input block ------------------------ */

struct vmsa_source_info {
	char *name;
	char *format;
	struct vmsa_source_counts counts;
	struct vmsa_traits traits;
};

/* ---- timeline (for plots) -------------------------------------------- */

#define VMSA_TIMELINE_MAX_BINS 65536	/* past it, bins merge in pairs */
#define VMSA_TIMELINE_TOP_STALLS 200

struct vmsa_stall_mark {
	uint64_t begin_ns, dur_ns;
};

/* Pages scanned per time bin, and the longest direct stalls: O(1) memory. */
struct vmsa_timeline {
	uint64_t bin_ns;	/* 100 ms, doubled whenever the bins run out */
	uint64_t base;		/* index (ts / bin_ns) of bins[0] */
	size_t n, cap;		/* bins in use; room for (cap <= VMSA_TIMELINE_MAX_BINS) */
	uint64_t last_idx, last_start; /* the last bin added to, and where it starts */
	uint64_t *direct, *kswapd;	/* cap bins each, those past n zero */
	struct vmsa_stall_mark top[VMSA_TIMELINE_TOP_STALLS]; /* a min-heap by dur */
	size_t ntop;
};

int vmsa_timeline_add(struct vmsa_timeline *t, uint64_t ts, uint64_t direct, uint64_t kswapd);
void vmsa_timeline_stall(struct vmsa_timeline *t, uint64_t begin, uint64_t dur);
int vmsa_timeline_copy(struct vmsa_timeline *dst, const struct vmsa_timeline *src);
void vmsa_timeline_release(struct vmsa_timeline *t);

/* Adds every count of c to d (source.c). */
void vmsa_counts_add(struct vmsa_source_counts *d, const struct vmsa_source_counts *c);

/* Whether the regular file at path holds a trace.dat, compressed or not (detect.c). */
bool vmsa_input_is_tracedat(const char *path);

/*
 * Several sources as one trace (interleave.c): their events in timestamp order
 * (equal times in source order; a lost marker at its input's last time).
 * The sources stay the caller's and open while the merge is used.
 */
struct vmsa_interleave;
int vmsa_interleave_new(struct vmsa_interleave **out, struct vmsa_source *const *src, int n);
void vmsa_interleave_free(struct vmsa_interleave *m);
/* 0 with *ev (valid until the next call) from source *which, VMSA_E_EOF
 * when all ended, or source *which's error. */
int vmsa_interleave_next(struct vmsa_interleave *m, const struct vmsa_event **ev, int *which);

/*
 * vmsa_source_next() without a copy (source.c): *ev points to the next
 * event, valid until the next call (into the reader's batch, or own when it
 * is read into own); the same returns.
 */
int vmsa_source_next_ref(struct vmsa_source *s, struct vmsa_event *own,
			 const struct vmsa_event **ev);
/* The pid of the next event, decoded ahead, or of the next line, read
 * ahead without decoding it (serial text reading), or -1. */
int32_t vmsa_source_peek_pid(const struct vmsa_source *s);
/* Serial text reading: up to n events decoded at a time, those after the
 * first from the lines already read (1, the default: one; at most 16); and
 * whether some decoded are still to be handed out. */
void vmsa_source_set_lookahead(struct vmsa_source *s, unsigned n);
/* A trace.dat found in s (standard input, a pipe) is refused
 * (VMSA_E_STDIN_BINARY), not copied to memory and read: s is merged with
 * text files. */
void vmsa_source_no_spill(struct vmsa_source *s);
bool vmsa_source_pending(const struct vmsa_source *s);

/* ---- the summary --------------------------------------------------- */

struct vmsa_summary {
	struct vmsa_comms comms;
	struct vmsa_task_row **rows;	/* sorted: comm, then pid */
	/* the same rows in the order they were made, next to each other in
	 * memory (what a pass over all rows in no order of its own reads);
	 * NULL: rows[] is that order too */
	struct vmsa_task_row **rows_made;
	/* rows[i] is rows_made[made_of[i]] (NULL: not known; with rows_made
	 * alone, a pass in that order can put what it finds in name order) */
	uint32_t *made_of;
	size_t nrows;
	/* whose rows it shares, one reference each; and its own rows' blocks
	 * (vmsa_summary_new_row()), the newest of them own_block */
	struct vmsa_row_block **blocks;
	size_t nblocks, blocks_cap;
	struct vmsa_row_block *own_block;
	struct vmsa_source_info *sources;
	size_t nsources;
	struct vmsa_totals totals;
	struct vmsa_hist stall_hist;	/* all direct reclaim stalls */
	struct vmsa_hist awake_hist;	/* all kswapd awake periods */
	struct vmsa_hist memcg_hist;	/* memcg (incl. softlimit) reclaims */
	uint64_t first_ts_ns, last_ts_ns;
	bool have_ts;
	bool ignore_pid;
	uint64_t events;		/* events aggregated */
	uint64_t events_by_type[VMSA_EV__COUNT];
	struct vmsa_writeback writeback; /* the flushers' passes (no task rows) */
	uint64_t negative_latencies;	/* timestamps went backwards */
	uint64_t ends_without_reclaimed; /* end events without nr_reclaimed (no fields) */
	uint64_t comm_changes;		/* same pid, new name (pid reuse/exec) */
	uint64_t tasks_folded;		/* beyond max_tasks, in "(other tasks)" */
	uint64_t placeholder_rows_merged;
	uint64_t isolations_counted, isolations_not_counted;
	bool lru_names_seen, lru_names_missing;
	/* reclaim windows but no lru_shrink_inactive: pages reclaimed unknown */
	bool reclaims_missing;
	/* shrinker starts but no mm_shrink_slab_end: objects freed unknown */
	bool slab_ends_missing;
	/* lines of write events rejected (traits.writes_rejected): the write
	 * counts are unknown */
	bool writes_unknown;
	struct vmsa_timeline timeline;
	/* read back from a JSON summary, which has no timeline and no latency list */
	bool no_timeline;
};

/* What the trace can tell of every context; what it cannot is null (unknown). */
struct vmsa_known {
	bool sync;		/* the kernel can write synchronously */
	bool scanned;		/* pages scanned: lru_isolate events */
	bool reclaimed;		/* pages reclaimed: lru_shrink_inactive events */
	bool end_reclaimed;	/* every end event said its nr_reclaimed */
	bool writes;		/* no write event's line was rejected */
	bool slab_freed;	/* objects freed: mm_shrink_slab_end events, or no start */
};

static inline struct vmsa_known vmsa_known_of(const struct vmsa_summary *sum)
{
	return (struct vmsa_known){.sync = sum->totals.sync_applicable,
				   .scanned = !sum->totals.scans_missing,
				   .reclaimed = !sum->reclaims_missing,
				   .end_reclaimed = !sum->ends_without_reclaimed,
				   .writes = !sum->writes_unknown,
				   .slab_freed = !sum->slab_ends_missing};
}

const char *vmsa_summary_comm(const struct vmsa_summary *sum, const struct vmsa_task_row *row,
			      size_t *len);
/*
 * Counts a name [name, name + len) in tab (VMSA_NAME_COUNTS slots, struct
 * vmsa_name_count): count += count, pages += pages.  Names past the table's
 * room, too long for a slot, or of other bytes than letters, digits and '_',
 * go to its last slot, "(other names)".
 */
/* (events.c) */
void vmsa_name_count_add(struct vmsa_name_count *tab, const char *name, size_t len,
			 uint64_t count, uint64_t pages);
/* The filter keeps the events of the buffer instance name (NULL: the top
 * buffer): it names no buffers, or that one (filter.c). */
bool vmsa_filter_keeps_buffer(const struct vmsa_filter *f, const char *name, size_t len);
/* It names buffers (--instance). */
bool vmsa_filter_selects_buffers(const struct vmsa_filter *f);
/* The same for a buffer instance's name (vmsa_traits.instance_events): '-'
 * and '.' allowed as well; the index of the slot it was counted in. */
int vmsa_instance_count_add(struct vmsa_name_count *tab, const char *name, size_t len,
			    uint64_t count);
/* Adds table src into dst, name by name. */
void vmsa_name_counts_add(struct vmsa_name_count *dst, const struct vmsa_name_count *src);
/* The name of the reclaim write event the traits have seen ("none"); events.c. */
const char *vmsa_write_event_name(const struct vmsa_traits *t);
/* The document's JSON tree, read in place (summary_doc.c); owned by the document. */
struct json_object;
const struct json_object *vmsa_doc_json(const struct vmsa_doc *d);
/* The document's rows put in its tree, as a write or merge of trees needs
 * them (tests: a merge of trees against a merge of rows read from files) */
int vmsa_doc_rows_as_tree(struct vmsa_doc *d);
/* A count at a dotted path as the integer it is (vmsa_doc_number() gives a
 * double, which is not exact past 2^53): 0, or VMSA_E_INVAL when it is
 * absent, null or not an integer. */
int vmsa_doc_u64(const struct vmsa_doc *d, const char *path, uint64_t *u);
/* fn on each task row of d ("processes", or "kswapd"), in the document's order,
 * up to the first that returns non-zero (returned); a document of
 * vmsa_doc_from_summary_ref() makes each row for the call alone.  (Its tree,
 * vmsa_doc_json(), may lack the rows: read them here.) */
int vmsa_doc_each_row(const struct vmsa_doc *d, bool kswapd,
		      int (*fn)(struct json_object *row, void *arg), void *arg);
/* ---- tasks' cgroups (cgroup.c) ---- */
/* vmsa_cgroups_new() reading PROC_ROOT/PID/cgroup instead of /proc (tests). */
int vmsa_cgroups_new_at(struct vmsa_cgroups **out, const char *proc_root, size_t max_tasks,
			size_t max_series);
/* The task's cgroup as an index of vmsa_cgroups_name(), -1 unknown. */
long vmsa_cgroups_index(const struct vmsa_cgroups *cg, int32_t pid, const char *comm);
size_t vmsa_cgroups_count(const struct vmsa_cgroups *cg);
const char *vmsa_cgroups_name(const struct vmsa_cgroups *cg, size_t i);
/* Series of its own: whether cgroup i has them; give them (false: no room left). */
bool vmsa_cgroups_has_series(const struct vmsa_cgroups *cg, size_t i);
bool vmsa_cgroups_give_series(struct vmsa_cgroups *cg, size_t i);
/* Every max_series place is taken (then cgroup="other" is written). */
bool vmsa_cgroups_series_full(const struct vmsa_cgroups *cg);

const char *vmsa_ctx_name(enum vmsa_ctx c);
const char *vmsa_throttle_name(enum vmsa_throttle t);
const char *vmsa_flush_reason_name(enum vmsa_flush_reason r);

/* scanned/reclaimed totals of a counters block */
static inline uint64_t vmsa_load64(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t vmsa_load32(const char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

#ifdef __SSE2__
static inline bool vmsa_same16(const char *a, const char *b)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)a);
	__m128i y = _mm_loadu_si128((const __m128i *)(const void *)b);
	return _mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) == 0xffff;
}
#endif

/* memcmp(a, b, n) == 0 for the short strings of a line (names, keys,
 * flags), inline and a word (or 16 bytes) at a time. */
static inline bool vmsa_same_bytes(const char *a, const char *b, size_t n)
{
#ifdef __SSE2__
	if (n >= 16) { /* (a task's line prefix, a remembered key) */
		for (size_t i = 0; i + 16 < n; i += 16)
			if (!vmsa_same16(a + i, b + i))
				return false;
		return vmsa_same16(a + n - 16, b + n - 16);
	}
#endif
	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8)
			if (vmsa_load64(a + i) != vmsa_load64(b + i))
				return false;
		return vmsa_load64(a + n - 8) == vmsa_load64(b + n - 8);
	}
	if (n >= 4)
		return vmsa_load32(a) == vmsa_load32(b) &&
		       vmsa_load32(a + n - 4) == vmsa_load32(b + n - 4);
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* The decimal digits of v, written to the end of b: returns where they
 * start (b + 20 - start is their count). */
static inline size_t vmsa_u64_digits(char b[20], uint64_t v)
{
	/* two digits a division (a report writes a few of these a row) */
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	size_t i = 20;
	for (; v >= 100; v /= 100) {
		i -= 2;
		memcpy(b + i, pairs + 2 * (v % 100), 2);
	}
	if (v >= 10) {
		i -= 2;
		memcpy(b + i, pairs + 2 * v, 2);
	} else {
		b[--i] = (char)('0' + v);
	}
	return i;
}

/* The digits of v ("%" PRIu64): their count */
static inline size_t vmsa_u64_len(uint64_t v)
{
	size_t n = 1;
	for (; v >= 100; v /= 100)
		n += 2;
	return n + (v >= 10);
}

/* mem.c: len bytes (a multiple of VMSA_HUGE_PAGE) of zeros aligned on a huge
 * page and asked to be on huge pages; NULL: out of memory. */
#define VMSA_HUGE_PAGE ((size_t)2 << 20)
void *vmsa_map_huge(size_t len);
void vmsa_unmap_huge(void *p, size_t len);

/*
 * Makes the array *p (of *cap elements of size bytes) hold at least need,
 * doubling from first: 0 or VMSA_E_NOMEM (then *p is unchanged).
 */
static inline int vmsa_grow(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : first;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * size);
	if (!q)
		return VMSA_E_NOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static inline uint64_t vmsa_scanned(const struct vmsa_counters *c)
{
	return c->scanned_file + c->scanned_anon + c->scanned_unknown;
}

static inline uint64_t vmsa_reclaimed(const struct vmsa_counters *c)
{
	return c->reclaimed_file + c->reclaimed_anon + c->reclaimed_unknown;
}

struct json_object;
/* The JSON document of sum (report/json.c), with its task rows or without */
struct json_object *vmsa_summary_to_json(const struct vmsa_summary *sum, bool with_rows);
/* A task row as the document's "processes" or "kswapd" array holds it */
struct json_object *vmsa_row_to_json(const struct vmsa_summary *sum, const struct vmsa_task_row *r);
/* Adds the "processes" and "kswapd" arrays to root, a document made without them */
int vmsa_summary_rows_to_json(struct json_object *root, const struct vmsa_summary *sum);
int vmsa_json_write(FILE *f, struct json_object *root, int pretty);
/* The document root (which has no "processes" or "kswapd") as JSON to f with
 * the rows of sum after it as those two lists, each row written directly
 * (no tree): what vmsa_json_write() writes of root with the rows added. */
int vmsa_json_write_rows_of(FILE *f, struct json_object *root, const struct vmsa_summary *sum,
			    bool pretty);

/* Whether row r of sum shows a pid: not with --ignore-pid, not the (other
 * tasks) row, not a row read back without one (JSON null, the classic
 * report's name alone) */
static inline bool vmsa_row_has_pid(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	return !sum->ignore_pid && r->key.pid != VMSA_PID_OTHER && r->key.pid != VMSA_PID_NONE;
}

/* The counters of r's context c: zeros when it has counted none there */
static inline const struct vmsa_counters *vmsa_row_ctx(const struct vmsa_task_row *r, int c)
{
	static const struct vmsa_counters none;
	return r->ctx[c] ? r->ctx[c] : &none;
}

/* r's counters of context c made (zeroed); NULL: out of memory */
struct vmsa_counters *vmsa_row_ctx_make(struct vmsa_task_row *r, int c)
	__attribute__((cold, noinline));

/* The same, to be changed: made when first needed; NULL: out of memory */
static inline struct vmsa_counters *vmsa_row_ctx_mut(struct vmsa_task_row *r, int c)
{
	struct vmsa_counters *x = r->ctx[c];
	return __builtin_expect(x != NULL, 1) ? x : vmsa_row_ctx_make(r, c);
}

/* What few rows count (struct vmsa_row_more) of r: zeros when it has none */
extern const struct vmsa_row_more vmsa_row_more_none;
static inline const struct vmsa_row_more *vmsa_row_more(const struct vmsa_task_row *r)
{
	return r->more ? r->more : &vmsa_row_more_none;
}

/* r's struct vmsa_row_more made (zeroed); NULL: out of memory */
struct vmsa_row_more *vmsa_row_more_make(struct vmsa_task_row *r) __attribute__((cold, noinline));

/* The same, to be changed: made when first needed; NULL: out of memory */
static inline struct vmsa_row_more *vmsa_row_more_mut(struct vmsa_task_row *r)
{
	return r->more ? r->more : vmsa_row_more_make(r);
}

/* The counters of o, when it has an array of them; else NULL */
static inline const uint64_t *vmsa_orders_array(vmsa_orders_t o)
{
	return o & 1 ? NULL : (const uint64_t *)o;
}

/* o as one count: its order and count (o has the low bit set) */
static inline int vmsa_orders_one_order(vmsa_orders_t o)
{
	return (int)(o >> 1 & 31);
}

static inline uint64_t vmsa_orders_one_count(vmsa_orders_t o)
{
	return (uint64_t)(o >> VMSA_ORDERS_SHIFT);
}

static inline vmsa_orders_t vmsa_orders_one(int order, uint64_t n)
{
	return (vmsa_orders_t)n << VMSA_ORDERS_SHIFT | (vmsa_orders_t)order << 1 | 1;
}

/* The count of order in o */
static inline uint64_t vmsa_order_count(vmsa_orders_t o, int order)
{
	if (o & 1)
		return vmsa_orders_one_order(o) == order ? vmsa_orders_one_count(o) : 0;
	return o ? ((const uint64_t *)o)[order] : 0;
}

/* o's counts as VMSA_MAX_ORDER counters: its array, or tmp filled in */
static inline const uint64_t *vmsa_orders(vmsa_orders_t o, uint64_t tmp[VMSA_MAX_ORDER])
{
	const uint64_t *a = vmsa_orders_array(o);
	if (a)
		return a;
	memset(tmp, 0, VMSA_MAX_ORDER * sizeof(*tmp));
	if (o)
		tmp[vmsa_orders_one_order(o)] = vmsa_orders_one_count(o);
	return tmp;
}

/* bytes of zeros for a part of r (contexts' counters, per-order counts):
 * cut from its block's chunks, or allocated for a row of no block (stats.c);
 * NULL: out of memory */
void *vmsa_row_part(struct vmsa_task_row *r, size_t bytes);

/* *o (one of r's) as an array, made with what *o counts when it has none;
 * NULL: out of memory (*o unchanged) */
uint64_t *vmsa_orders_array_mut(struct vmsa_task_row *r, vmsa_orders_t *o);

/* Adds n to the count of order in *o (one of r's): 0 or VMSA_E_NOMEM (*o
 * unchanged) */
int vmsa_orders_add(struct vmsa_task_row *r, vmsa_orders_t *o, int order, uint64_t n);
/* Sets the count of order in *o to n: the same */
int vmsa_orders_put(struct vmsa_task_row *r, vmsa_orders_t *o, int order, uint64_t n);

/* Makes sure that vmsa_orders_inc(o, order) needs no memory: 0 or
 * VMSA_E_NOMEM (*o unchanged) */
static inline int vmsa_orders_ready(struct vmsa_task_row *r, vmsa_orders_t *o, int order)
{
	vmsa_orders_t v = *o;
	if (!v || !(v & 1) ||
	    (vmsa_orders_one_order(v) == order && vmsa_orders_one_count(v) < VMSA_ORDERS_ONE_MAX))
		return 0;
	return vmsa_orders_array_mut(r, o) ? 0 : VMSA_E_NOMEM;
}

/* One more of order in *o (vmsa_orders_ready() said 0 for it) */
static inline void vmsa_orders_inc(vmsa_orders_t *o, int order)
{
	vmsa_orders_t v = *o;
	if (!v)
		*o = vmsa_orders_one(order, 1);
	else if (v & 1)
		*o = v + ((vmsa_orders_t)1 << VMSA_ORDERS_SHIFT);
	else
		((uint64_t *)v)[order]++;
}

/*
 * Rows in name order (a summary's) are all over memory: they are kept in the
 * order they were made.  A pass over tens of thousands of them waits on
 * memory at every row and again at every part of it, unless it asks for
 * them ahead: a row VMSA_AHEAD * 2 rows on, the parts of one VMSA_AHEAD on
 * (its lines are in the cache by then).
 */
#define VMSA_AHEAD 16

static inline void vmsa_prefetch(const void *p, size_t bytes)
{
	for (size_t b = 0; b < bytes; b += 64)
		__builtin_prefetch((const char *)p + b);
	__builtin_prefetch((const char *)p + bytes - 1);
}

/* all of r's parts: its name's entry, contexts, per-order counts, buckets */
static inline void vmsa_prefetch_parts(const struct vmsa_comms *comms,
				       const struct vmsa_task_row *r)
{
	__builtin_prefetch(comms->by_id[r->key.comm_id]);
	for (int c = 0; c < VMSA_CTX__COUNT; c++)
		if (r->ctx[c])
			vmsa_prefetch(r->ctx[c], sizeof(*r->ctx[c]));
#define PREFETCH_ORDERS(member, n)                                         \
	for (int i = 0; i < (n); i++)                                      \
		if (r->member[i] && vmsa_orders_array(r->member[i]))       \
			vmsa_prefetch(vmsa_orders_array(r->member[i]),     \
				      VMSA_MAX_ORDER * sizeof(uint64_t));
	VMSA_ROW_ORDERS(PREFETCH_ORDERS)
#undef PREFETCH_ORDERS
	if (r->stall.held > 1)
		__builtin_prefetch(r->stall.buckets);
	if (r->more)
		vmsa_prefetch(r->more, sizeof(*r->more));
}

/*
 * Room for all of a row's contexts and per-order counts, for a row that adds
 * up others (totals): vmsa_row_in() points the row at it, so that adding
 * makes nothing and cannot fail.  Such a row is never freed.
 */
#define VMSA_ROW_ORDER_COUNT(member, n) +(n)
struct vmsa_row_space {
	struct vmsa_counters ctx[VMSA_CTX__COUNT];
	struct vmsa_row_more more;
	uint64_t orders[0 VMSA_ROW_ORDERS(VMSA_ROW_ORDER_COUNT)][VMSA_MAX_ORDER];
};
/* r zeroed, its counters in *sp (zeroed too) */
void vmsa_row_in(struct vmsa_task_row *r, struct vmsa_row_space *sp);

void vmsa_counters_add(struct vmsa_counters *dst, const struct vmsa_counters *src);
/* Adds the counters of src's contexts, VMSA_ROW_ORDERS, VMSA_ROW_COUNTERS and
 * VMSA_ROW_MORE_COUNTERS to dst's: 0, or VMSA_E_NOMEM (dst then holds part
 * of them). */
int vmsa_row_counters_add(struct vmsa_task_row *dst, const struct vmsa_task_row *src);
/* Lets go of r's contexts and per-order counts (freed, unless they are its
 * block's, which frees them with itself): r counts nothing */
void vmsa_row_counters_free(struct vmsa_task_row *r);
int vmsa_row_merge(struct vmsa_task_row *dst, const struct vmsa_task_row *src);
/*
 * A new zeroed row of sum's own, in a block of sum's (sum->blocks, freed
 * with it; its parts are cut from the block's chunks), for the caller to
 * put in sum->rows; NULL: out of memory.  The
 * rows a summary reads (summary_doc.c) are made so: one allocation a block,
 * not one a row and one a part.  Rows of a summary's own block are changed
 * in place, never copied first as the statistics' shared rows are.
 */
struct vmsa_task_row *vmsa_summary_new_row(struct vmsa_summary *sum);
/* The same, a copy of s: its counters, histograms and latency list */
struct vmsa_task_row *vmsa_summary_copy_row(struct vmsa_summary *sum, const struct vmsa_task_row *s);
/* sum's rows in the order of their names, then pids (memcmp's order):
 * 0 or VMSA_E_NOMEM (the order is then unchanged) */
int vmsa_summary_sort_rows(struct vmsa_summary *sum);

/* ---- interval deltas (stats.c) ----------------------------------- */

/* New empty stats with st's options, without its latency callbacks. */
int vmsa_stats_new_like(const struct vmsa_stats *st, struct vmsa_stats **out);
/*
 * Starts the next interval: every counter, histogram, source and the trace
 * span go back to zero, while the windows still open (reclaims, kswapd
 * awake) stay open, so their ends are counted in the interval they fall in.
 * Rows without an open window go; a task's next event makes its row again.
 * VMSA_E_NOMEM leaves st as it was.
 */
int vmsa_stats_restart(struct vmsa_stats *st);
/* Whether the task table is large enough to ask for a pid's place ahead of
 * its event, and that asking (a hint: the event may be of another pid). */
bool vmsa_stats_wants_pid_hints(const struct vmsa_stats *st);
/* Whether the tasks are more than the caches hold: events are best taken
 * several at a time then (vmsa_source_set_lookahead()). */
bool vmsa_stats_wants_lookahead(const struct vmsa_stats *st);
void vmsa_stats_prefetch_pid(const struct vmsa_stats *st, int32_t pid);
/* VMSA_E_OVERFLOW when the events added since a value of 2^32 or more could
 * have taken a count past 2^64 - 1 (stats.c, big_values()), else 0: asked
 * every 4096 events by the analysis loop and by vmsa_stats_summary(). */
int vmsa_stats_overflowed(const struct vmsa_stats *st);
/* The task states held (tasks with something open, or not at rest): tests. */
size_t vmsa_stats_states_held(const struct vmsa_stats *st);

#endif /* VMSA_INTERNAL_H */
