/* SPDX-License-Identifier: MIT */
/*
 * Aggregation: per-task state machines and counters, O(tasks) memory.
 *
 * Attribution rule (docs/attribution.md): every scan, reclaim, write and
 * shrinker call is charged to the innermost reclaim window open on the
 * task that emitted it (direct, memcg, memcg softlimit or node reclaim,
 * each between its begin and end); failing that to kswapd when the task
 * is a kswapd thread; failing that to "outside_reclaim".  With list names
 * (4.8+) only isolations from the inactive lists count as scanned, as
 * shrink_inactive_list() counts pgscan_* in mm/vmscan.c.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_WINDOWS 4

/*
 * What an event reads of its task (pid, name, row, the innermost window)
 * is in the first 64 bytes, allocated on a cache line: with thousands of
 * tasks interleaved, each event's task is one cache miss, not two or three.
 */
struct task_state {
	int32_t pid;
	uint16_t last_len;	/* of last_comm (UINT16_MAX: none) */
	uint8_t nwin;
	bool comm_placeholder;
	bool folded;		/* counted in the "(other tasks)" row */
	bool is_kswapd;
	bool awake;
	uint8_t wb_open;	/* its writeback_start's reason + 1, 0: none open */
	uint32_t comm_id;
	struct vmsa_task_row *row;
	char last_comm[16];	/* a name whose events change nothing */
	struct {
		uint64_t begin_ts;
		int32_t order;
		uint8_t ctx;
		int8_t priority;	/* of its last shrink or slab event, -1: none yet */
	} win[MAX_WINDOWS];
	int32_t kswapd_order;
	uint32_t row_idx;	/* row's place in order[] (not of a folded task) */
	uint64_t wake_ts;
	int64_t wb_nr_pages;	/* its writeback_start's */
};

/* Task states come from chunks of TASK_CHUNK, each on its own cache line. */
#define TASK_SIZE 128
#define TASK_CHUNK 512
_Static_assert(sizeof(struct task_state) <= TASK_SIZE, "task_state outgrew TASK_SIZE");

/*
 * Tasks by pid: open addressing, linear probing, at most 3/4 full.  A slot
 * is 8 bytes, a pid and a reference to its task's state (task_at()): a
 * trace of a million pids has a table of 4 million slots, all of them
 * zeroed and faulted in as it grew.
 */
#define REF_NONE 0u		/* an empty slot */
#define REF_IDLE UINT32_MAX	/* a folded task at rest (struct vmsa_stats) */
#define REF_FRESH (UINT32_MAX - 1) /* a task of no state and no row (a restart's) */
#define REF_ROW 0x80000000u	/* | i: a task at rest of no state, its row order[i] */
struct pid_table {
	struct pid_slot {
		int32_t pid;
		uint32_t ref; /* REF_*, or the state's index + 1 (below REF_ROW) */
	} *slot;
	uint32_t bits;
	size_t n;
};

static inline size_t pid_home(const struct pid_table *pt, int32_t pid)
{
	return (size_t)(((uint32_t)pid * 2654435769u) >> (32 - pt->bits));
}

/* The slot of pid, or NULL */
static struct pid_slot *pids_slot(const struct pid_table *pt, int32_t pid)
{
	if (!pt->slot)
		return NULL;
	size_t mask = ((size_t)1 << pt->bits) - 1;
	for (size_t i = pid_home(pt, pid);; i = (i + 1) & mask) {
		if (pt->slot[i].ref == REF_NONE)
			return NULL;
		if (pt->slot[i].pid == pid)
			return &pt->slot[i];
	}
}

static void pids_put(struct pid_table *pt, int32_t pid, uint32_t ref)
{
	size_t mask = ((size_t)1 << pt->bits) - 1;
	size_t i = pid_home(pt, pid);
	while (pt->slot[i].ref != REF_NONE)
		i = (i + 1) & mask;
	pt->slot[i].pid = pid;
	pt->slot[i].ref = ref;
	pt->n++;
}

static int pids_add(struct pid_table *pt, int32_t pid, uint32_t ref)
{
	if (!pt->slot || (pt->n + 1) * 4 > ((size_t)3 << pt->bits)) {
		struct pid_table bigger = {.bits = pt->slot ? pt->bits + 1 : 10};
		if (bigger.bits > 31)
			return VMSA_E_NOMEM;
		bigger.slot = calloc((size_t)1 << bigger.bits, sizeof(*bigger.slot));
		if (!bigger.slot)
			return VMSA_E_NOMEM;
		for (size_t i = 0; pt->slot && i < ((size_t)1 << pt->bits); i++)
			if (pt->slot[i].ref != REF_NONE)
				pids_put(&bigger, pt->slot[i].pid, pt->slot[i].ref);
		free(pt->slot);
		*pt = bigger;
	}
	pids_put(pt, pid, ref);
	return 0;
}

/* every task's state (tasks at rest: the statistics' folded_idle or at_rest) */
#define PIDS_FOR_EACH(st, i, task)                                                      \
	for (size_t i = 0; (st)->tasks.slot && i < ((size_t)1 << (st)->tasks.bits); i++) \
		if ((st)->tasks.slot[i].ref != REF_NONE &&                              \
		    ((task) = task_at(st, (st)->tasks.slot[i].ref)) != NULL)

/*
 * Rows live in blocks of many (no allocation per row), which the statistics
 * and the summaries taken from them share by reference count: a summary
 * takes a reference to every block instead of copying rows.  A shared row
 * is written by no one; the statistics copy it into a block of their own
 * before they change it (copy on write), and the summary keeps what it saw.
 * A block goes, with the histograms and latency lists of its rows, when its
 * last holder lets go.  The statistics hold a block while it has a row in
 * their table, or rows still to give.  A summary's own rows (read back from
 * JSON, adopted in a merge, or copies of shared rows it changes) are in
 * blocks of its own, which it alone holds (summary_own).
 */
/*
 * The parts of a block's rows (contexts' counters, per-order counts) are
 * cut from chunks of the block's own and freed with it, not one by one: a
 * hundred thousand short-lived tasks made as many allocations and frees,
 * each free a miss in memory at the end.
 */
struct part_chunk {
	struct part_chunk *next;
	size_t size, used;
	uint64_t mem[];
};

struct vmsa_row_block {
	atomic_size_t refs;
	struct vmsa_row_block *prev, *next; /* the statistics' list of the blocks they hold */
	uint32_t used, cap;
	uint32_t live; /* rows of the statistics' table in this block */
	size_t mapped; /* bytes mapped (a big block), 0: allocated */
	bool summary_own; /* a summary's own rows (vmsa_summary_new_row()) */
	struct part_chunk *parts; /* the newest first */
	struct vmsa_task_row rows[];
};

/* rows of the first block; each next one twice as many, up to ROW_BLOCK_BIG
 * bytes, then every block is mapped, that size, on huge pages if it can be
 * (one page fault for hundreds of rows instead of one every row or two).
 * A block of ROW_BLOCK_MAP bytes or more is mapped, whole huge pages of
 * rows: the kernel gives them zeroed, where calloc() zeroed them again (it
 * cannot tell fresh memory from the heap's top): 2.4% of the instructions
 * of a run of 65,000 short-lived tasks. */
#define ROW_BLOCK_FIRST 8
#define ROW_BLOCK_BIG ((size_t)4 << 20)
#define ROW_BLOCK_MAP ((size_t)256 << 10)
/*
 * A pid's rows (one a name it had) are found from its task's row, in a ring
 * through all of them: pid_next[i] is the place in order[] of the next row
 * of order[i]'s pid (i itself for a pid of one row).  A table of rows by
 * (pid, name) held 24 to 48 bytes a row, and a new task's row was a miss of
 * the caches in it: 6% of a run of 65,000 short-lived tasks.  A pid of more
 * than RING_WALK names (a task that renames itself for each job) has its
 * rows in a table by (pid, name) too, so that no name costs a walk of them
 * all: struct long_rings.
 */
#define NO_ROW UINT32_MAX
#define RING_WALK 32
#define ALL_IN UINT32_MAX /* a slot's name: every row of its pid is in the table */
struct long_rings {
	struct ring_slot {
		int32_t pid;
		uint32_t comm_id;
		uint32_t idx; /* in order[], + 1; 0: an empty slot */
	} *slot;
	uint32_t bits;
	size_t n;
};

struct vmsa_stats {
	struct vmsa_stats_options opts;
	struct vmsa_comms comms;
	uint32_t placeholder_id;
	struct pid_table tasks;
	struct vmsa_task_row **order;	/* the rows, in the order they were made */
	size_t order_cap;
	uint32_t *pid_next;		/* (above) */
	size_t pid_next_cap;
	struct long_rings long_rings;
	struct vmsa_row_block *blocks;	/* held, newest first; the first gives rows */
	uint32_t next_block_rows;
	struct task_state *last_task;	/* consecutive events often share a task */
	char **task_chunks;		/* where task states live */
	size_t ntask_chunks, task_chunks_cap, chunk_used;
	/*
	 * A task folded into "(other tasks)" with nothing open (no window,
	 * not awake, no writeback pass) keeps no state of its own: its pid's
	 * slot says REF_IDLE (folded_idle), and its next event takes a state from
	 * idle_states (given back ones) again, folded.  A million short-lived
	 * tasks past --max-tasks held a million states of 128 bytes.
	 */
	struct task_state folded_idle;
	uint32_t *idle_states;		/* references (pid_slot) */
	size_t nidle, idle_cap;
	/*
	 * The same for tasks of a row of their own, once they hold more
	 * states than REST_AFTER (a trace of a few tasks keeps them all): the
	 * slot says REF_ROW | the row's place in order[], and what a state
	 * held besides is what a task at rest has (nothing open, the name its
	 * row's).  at_rest is what the passes over all pids read of them.
	 */
	struct task_state at_rest;
	size_t max_tasks, nrows;
	struct vmsa_task_row *other;	/* rows beyond max_tasks */
	uint32_t other_idx;		/* its place in order[] */
	uint64_t tasks_folded;
	struct vmsa_source_info *sources;
	size_t nsources;
	struct vmsa_hist stall, awake, memcg;
	struct vmsa_timeline timeline;
	uint64_t first_ts, last_ts;
	bool have_ts;
	uint64_t events;
	uint64_t by_type[VMSA_EV__COUNT];
	struct vmsa_writeback wb;
	uint64_t lost;
	uint64_t lost_unsaid; /* LOST events that said no number */
	uint64_t negative_latencies, comm_changes;
	uint64_t ends_without_reclaimed; /* end events that did not say nr_reclaimed */
	uint64_t isolations_counted, isolations_not_counted;
	/* counts past 2^64 - 1 (big_values()): the values of 2^32 and more
	 * added, and the event count from which a count could wrap */
	uint64_t big, events_limit;
};

/* ---- interned names ---------------------------------------------- */

struct vmsa_comm_chunk {
	struct vmsa_comm_chunk *next;
	size_t used, cap;
	_Alignas(max_align_t) char b[];
};
#define COMM_CHUNK ((size_t)64 << 10)

static uint32_t comm_hash(const char *s, size_t n)
{
	uint64_t h = 0xCBF29CE484222325ull ^ n;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001B3ull;
	return (uint32_t)(h ^ (h >> 32));
}

/* The bytes of an entry and its name of len bytes (and a NUL) in a chunk */
static size_t comm_entry_bytes(size_t len)
{
	return (sizeof(struct vmsa_comm) + len + 1 + _Alignof(max_align_t) - 1) /
	       _Alignof(max_align_t) * _Alignof(max_align_t);
}

/* An entry and its name of len bytes (and a NUL), in the newest chunk */
static struct vmsa_comm *comm_alloc(struct vmsa_comms *c, size_t len)
{
	size_t need = comm_entry_bytes(len);
	struct vmsa_comm_chunk *k = c->chunks;
	if (!k || k->cap - k->used < need) {
		size_t cap = need > COMM_CHUNK ? need : COMM_CHUNK;
		if (!(k = malloc(sizeof(*k) + cap)))
			return NULL;
		k->next = c->chunks;
		k->used = 0;
		k->cap = cap;
		c->chunks = k;
	}
	struct vmsa_comm *e = (struct vmsa_comm *)(void *)(k->b + k->used);
	k->used += need;
	e->name = (char *)(e + 1);
	return e;
}

/* The slot of name (hash h): its id + 1, or the empty slot it would take */
static uint32_t *comm_slot(const struct vmsa_comms *c, const char *name, size_t len, uint32_t h)
{
	for (uint32_t i = h & c->mask;; i = (i + 1) & c->mask) {
		uint32_t *sl = &c->slot[i];
		if (!*sl)
			return sl;
		const struct vmsa_comm *e = c->by_id[*sl - 1];
		if (e->hash == h && e->len == len && memcmp(e->name, name, len) == 0)
			return sl;
	}
}

/* Room for one more id: by_id and the slots (rehashed) grown */
static int comm_room(struct vmsa_comms *c)
{
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? c->cap * 2 : 64;
		struct vmsa_comm **n = realloc(c->by_id, cap * sizeof(*n));
		if (!n)
			return VMSA_E_NOMEM;
		c->by_id = n;
		c->cap = cap;
	}
	if (c->slot && (c->n + 1) * 2 <= c->mask + 1)
		return 0;
	uint32_t slots = c->slot ? (c->mask + 1) * 2 : 128;
	uint32_t *s = calloc(slots, sizeof(*s));
	if (!s)
		return VMSA_E_NOMEM;
	free(c->slot);
	c->slot = s;
	c->mask = slots - 1;
	for (uint32_t i = 0; i < c->n; i++)
		*comm_slot(c, c->by_id[i]->name, c->by_id[i]->len, c->by_id[i]->hash) = i + 1;
	return 0;
}

int vmsa_comms_intern(struct vmsa_comms *c, const char *name, size_t len, uint32_t *id)
{
	struct vmsa_comm *e = c->last < c->n ? c->by_id[c->last] : NULL;
	if (e && e->len == len && memcmp(e->name, name, len) == 0) {
		*id = e->id;
		return 0;
	}
	uint32_t h = comm_hash(name, len);
	uint32_t *sl = c->slot ? comm_slot(c, name, len, h) : NULL;
	if (sl && *sl) {
		*id = c->last = *sl - 1;
		return 0;
	}
	if (comm_room(c) || !(e = comm_alloc(c, len)))
		return VMSA_E_NOMEM;
	memcpy(e->name, name, len);
	e->name[len] = '\0';
	e->len = len;
	e->hash = h;
	e->id = c->n;
	c->by_id[c->n++] = e;
	*comm_slot(c, name, len, h) = e->id + 1;
	*id = c->last = e->id;
	return 0;
}

void vmsa_comms_release(struct vmsa_comms *c)
{
	for (struct vmsa_comm_chunk *k = c->chunks, *next; k; k = next) {
		next = k->next;
		free(k);
	}
	free(c->slot);
	free(c->by_id);
	memset(c, 0, sizeof(*c));
}

int vmsa_comms_copy(struct vmsa_comms *dst, const struct vmsa_comms *src)
{
	/* the same ids: the slots copied whole, the names into one chunk */
	memset(dst, 0, sizeof(*dst));
	if (!src->n)
		return 0;
	size_t bytes = 0;
	for (uint32_t i = 0; i < src->n; i++)
		bytes += comm_entry_bytes(src->by_id[i]->len);
	struct vmsa_comm_chunk *k = malloc(sizeof(*k) + bytes);
	dst->by_id = malloc(src->n * sizeof(*dst->by_id));
	dst->slot = malloc(((size_t)src->mask + 1) * sizeof(*dst->slot));
	if (!k || !dst->by_id || !dst->slot) {
		free(k);
		vmsa_comms_release(dst);
		return VMSA_E_NOMEM;
	}
	k->next = NULL;
	k->used = 0;
	k->cap = bytes;
	dst->chunks = k;
	dst->cap = src->n;
	dst->mask = src->mask;
	memcpy(dst->slot, src->slot, ((size_t)src->mask + 1) * sizeof(*dst->slot));
	for (uint32_t i = 0; i < src->n; i++) {
		const struct vmsa_comm *s = src->by_id[i];
		struct vmsa_comm *e = comm_alloc(dst, s->len); /* (fits: counted above) */
		memcpy(e->name, s->name, s->len + 1);
		e->len = s->len;
		e->hash = s->hash;
		e->id = s->id;
		dst->by_id[i] = e;
	}
	dst->n = src->n;
	dst->last = src->last;
	return 0;
}

/* ---- rows ---------------------------------------------------------- */

static void row_init(struct vmsa_task_row *r)
{
	vmsa_hist_init(&r->stall, VMSA_HIST_COARSE);
	r->kswapd_nid = -1;
}

const struct vmsa_row_more vmsa_row_more_none = {.awake.sub_bits = VMSA_HIST_COARSE};

/* What a row owns besides itself. */
static void row_release(struct vmsa_task_row *r)
{
	vmsa_row_counters_free(r);
	vmsa_hist_release(&r->stall);
}

/* Adds n 64-bit counters: every member of the counter sets is one. */
static void add_u64s(void *restrict d, const void *restrict s, size_t bytes)
{
	uint64_t *restrict dp = d;
	const uint64_t *restrict sp = s;
	for (size_t i = 0; i < bytes / sizeof(uint64_t); i++)
		dp[i] += sp[i];
}

/* Adds the per-order counts s to *d (d's): 0 or VMSA_E_NOMEM */
static int add_orders(struct vmsa_task_row *d, vmsa_orders_t *o, vmsa_orders_t s)
{
	if (!s)
		return 0;
	if (s & 1)
		return vmsa_orders_add(d, o, vmsa_orders_one_order(s), vmsa_orders_one_count(s));
	uint64_t *a = vmsa_orders_array_mut(d, o);
	if (!a)
		return VMSA_E_NOMEM;
	add_u64s(a, vmsa_orders_array(s), VMSA_MAX_ORDER * sizeof(uint64_t));
	return 0;
}

/* Adds s's contexts' and per-order counts to d's (made where d has none) */
static int add_made(struct vmsa_task_row *d, const struct vmsa_task_row *s)
{
	for (int c = 0; c < VMSA_CTX__COUNT; c++)
		if (s->ctx[c]) {
			struct vmsa_counters *dc = vmsa_row_ctx_mut(d, c);
			if (!dc)
				return VMSA_E_NOMEM;
			vmsa_counters_add(dc, s->ctx[c]);
		}
#define ADD_ORDERS(member, n)                                                   \
	for (int i = 0; i < (n); i++)                                           \
		if (add_orders(d, &d->member[i], s->member[i]))                 \
			return VMSA_E_NOMEM;
	VMSA_ROW_ORDERS(ADD_ORDERS)
#undef ADD_ORDERS
	if (s->more) {
		struct vmsa_row_more *m = vmsa_row_more_mut(d);
		if (!m)
			return VMSA_E_NOMEM;
		add_u64s(m, s->more, VMSA_ROW_MORE_COUNTER_BYTES);
	}
	return 0;
}

/* s's histograms merged into d's (d's vmsa_row_more made when s has one,
 * as add_made() makes it): 0 or VMSA_E_NOMEM */
static int row_hists_merge(struct vmsa_task_row *d, const struct vmsa_task_row *s)
{
	if (vmsa_hist_merge(&d->stall, &s->stall))
		return VMSA_E_NOMEM;
	if (!s->more)
		return 0;
	struct vmsa_row_more *m = vmsa_row_more_mut(d);
	return m && !vmsa_hist_merge(&m->awake, &s->more->awake) ? 0 : VMSA_E_NOMEM;
}

/* Copies s's counters, histograms and latency list into d (d's are lost). */
static int row_copy(struct vmsa_task_row *d, const struct vmsa_task_row *s)
{
	struct vmsa_row_block *b = d->block;
	*d = *s;
	d->block = b;
	d->shared = false;
	/* the contexts' and per-order counts: copies of their own */
	memset(d->ctx, 0, sizeof(d->ctx));
#define NO_ORDERS(member, n) memset(d->member, 0, sizeof(d->member));
	VMSA_ROW_ORDERS(NO_ORDERS)
#undef NO_ORDERS
	d->more = NULL;
	vmsa_hist_init(&d->stall, VMSA_HIST_COARSE);
	if (add_made(d, s) || row_hists_merge(d, s))
		return VMSA_E_NOMEM;
	size_t n = vmsa_row_more(s)->nlat;
	if (n) {
		struct vmsa_row_more *m = vmsa_row_more_mut(d); /* (add_made() made it) */
		if (!m || !(m->lat = malloc(n * sizeof(*m->lat))))
			return VMSA_E_NOMEM;
		memcpy(m->lat, s->more->lat, n * sizeof(*m->lat));
		m->nlat = m->lat_cap = n;
	}
	return 0;
}

/* ---- row blocks ------------------------------------------------------ */

static void block_unref(struct vmsa_row_block *b)
{
	if (atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1)
		return;
	for (uint32_t i = 0; i < b->used; i++)
		row_release(&b->rows[i]);
	for (struct part_chunk *c = b->parts, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	if (b->mapped)
		vmsa_unmap_huge(b, b->mapped);
	else
		free(b);
}

static void block_ref(struct vmsa_row_block *b)
{
	atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
}

/* The statistics let go of b. */
static void block_drop(struct vmsa_stats *st, struct vmsa_row_block *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		st->blocks = b->next;
	if (b->next)
		b->next->prev = b->prev;
	block_unref(b);
}

/* A row of b left the statistics' table. */
static void block_row_gone(struct vmsa_stats *st, struct vmsa_row_block *b)
{
	if (--b->live == 0 && (b != st->blocks || b->used == b->cap))
		block_drop(st, b);
}

/*
 * A new block of about cap rows (0: ROW_BLOCK_FIRST), no more than
 * ROW_BLOCK_BIG bytes, one reference; in *next (unless NULL) the rows of
 * the block after it.  NULL: out of memory.
 */
static struct vmsa_row_block *block_new(uint32_t cap, uint32_t *next)
{
	struct vmsa_row_block *n;
	cap = cap ? cap : ROW_BLOCK_FIRST;
	size_t bytes = sizeof(*n) + cap * sizeof(n->rows[0]);
	bool big = bytes > ROW_BLOCK_BIG;
	size_t map = big ? ROW_BLOCK_BIG
		     : bytes >= ROW_BLOCK_MAP ? (bytes + VMSA_HUGE_PAGE - 1) / VMSA_HUGE_PAGE * VMSA_HUGE_PAGE
					      : 0;
	if (map) /* (rows to its end) */
		cap = (uint32_t)((map - sizeof(*n)) / sizeof(n->rows[0]));
	n = map ? vmsa_map_huge(map) : calloc(1, bytes);
	if (!n)
		return NULL;
	atomic_init(&n->refs, 1);
	n->cap = cap;
	n->mapped = map;
	if (next)
		*next = big ? cap : cap * 2;
	return n;
}

/* A new zeroed row in the newest block; NULL: out of memory. */
static struct vmsa_task_row *new_row(struct vmsa_stats *st)
{
	struct vmsa_row_block *b = st->blocks;
	if (!b || b->used == b->cap) {
		struct vmsa_row_block *n = block_new(st->next_block_rows, &st->next_block_rows);
		if (!n)
			return NULL;
		n->next = b;
		if (b)
			b->prev = n;
		st->blocks = n;
		if (b && b->live == 0)
			block_drop(st, b);
		b = n;
	}
	struct vmsa_task_row *r = &b->rows[b->used++];
	b->live++;
	r->block = b;
	row_init(r);
	return r;
}

/* Room for one more row in order[] and pid_next[]. */
static int rows_room(struct vmsa_stats *st)
{
	if (st->nrows >= NO_ROW - 1 ||
	    vmsa_grow((void **)&st->order, &st->order_cap, st->nrows + 1, sizeof(*st->order), 64) ||
	    vmsa_grow((void **)&st->pid_next, &st->pid_next_cap, st->nrows + 1,
		      sizeof(*st->pid_next), 64))
		return VMSA_E_NOMEM;
	return 0;
}

void vmsa_counters_add(struct vmsa_counters *d, const struct vmsa_counters *s)
{
	_Static_assert(sizeof(struct vmsa_counters) % sizeof(uint64_t) == 0, "counters");
	add_u64s(d, s, sizeof(*d));
}

int vmsa_row_counters_add(struct vmsa_task_row *d, const struct vmsa_task_row *s)
{
	if (add_made(d, s))
		return VMSA_E_NOMEM;
#define ADD_ROW_COUNTER(member, dims) add_u64s(&d->member, &s->member, sizeof(d->member));
	VMSA_ROW_COUNTERS(ADD_ROW_COUNTER)
#undef ADD_ROW_COUNTER
	return 0;
}

/* bytes (a multiple of 8) of zeros from b's chunks; NULL: out of memory */
static void *block_part(struct vmsa_row_block *b, size_t bytes)
{
	struct part_chunk *c = b->parts;
	if (!c || c->size - c->used < bytes) {
		/* about a context's counters a row, 64 KiB at most: a chunk's
		 * unused end is lost, and a block's last chunk may be mostly that */
		size_t size = (size_t)b->cap * sizeof(struct vmsa_counters);
		size = size < 4096 ? 4096 : size > ((size_t)64 << 10) ? (size_t)64 << 10 : size;
		size = size < bytes ? bytes : size;
		c = calloc(1, sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->next = b->parts;
		b->parts = c;
	}
	void *p = (char *)c->mem + c->used;
	c->used += bytes;
	return p;
}

void *vmsa_row_part(struct vmsa_task_row *r, size_t bytes)
{
	_Static_assert(sizeof(struct vmsa_counters) % 8 == 0, "parts of 8-byte multiples");
	return r->block ? block_part(r->block, bytes) : calloc(1, bytes);
}

uint64_t *vmsa_orders_array_mut(struct vmsa_task_row *r, vmsa_orders_t *o)
{
	vmsa_orders_t v = *o;
	if (v && !(v & 1))
		return (uint64_t *)v;
	uint64_t *a = vmsa_row_part(r, VMSA_MAX_ORDER * sizeof(*a));
	if (!a)
		return NULL;
	if (v)
		a[vmsa_orders_one_order(v)] = vmsa_orders_one_count(v);
	*o = (vmsa_orders_t)a;
	return a;
}

int vmsa_orders_add(struct vmsa_task_row *r, vmsa_orders_t *o, int order, uint64_t n)
{
	vmsa_orders_t v = *o;
	if (!n)
		return 0;
	if (!v && n <= VMSA_ORDERS_ONE_MAX) {
		*o = vmsa_orders_one(order, n);
		return 0;
	}
	if ((v & 1) && vmsa_orders_one_order(v) == order &&
	    vmsa_orders_one_count(v) <= VMSA_ORDERS_ONE_MAX - n) {
		*o = vmsa_orders_one(order, vmsa_orders_one_count(v) + n);
		return 0;
	}
	uint64_t *a = vmsa_orders_array_mut(r, o);
	if (!a)
		return VMSA_E_NOMEM;
	a[order] += n;
	return 0;
}

int vmsa_orders_put(struct vmsa_task_row *r, vmsa_orders_t *o, int order, uint64_t n)
{
	vmsa_orders_t v = *o;
	if (!v || ((v & 1) && vmsa_orders_one_order(v) == order)) {
		if (n <= VMSA_ORDERS_ONE_MAX) {
			*o = n ? vmsa_orders_one(order, n) : 0;
			return 0;
		}
	} else if ((v & 1) && !n) {
		return 0; /* (another order's count; this one's is 0) */
	}
	uint64_t *a = vmsa_orders_array_mut(r, o);
	if (!a)
		return VMSA_E_NOMEM;
	a[order] = n;
	return 0;
}

struct vmsa_counters *vmsa_row_ctx_make(struct vmsa_task_row *r, int c)
{
	return r->ctx[c] = vmsa_row_part(r, sizeof(*r->ctx[c]));
}

struct vmsa_row_more *vmsa_row_more_make(struct vmsa_task_row *r)
{
	_Static_assert(sizeof(struct vmsa_row_more) % 8 == 0, "parts of 8-byte multiples");
	struct vmsa_row_more *m = vmsa_row_part(r, sizeof(*m));
	if (m)
		vmsa_hist_init(&m->awake, VMSA_HIST_COARSE);
	return r->more = m;
}

void vmsa_row_in(struct vmsa_task_row *r, struct vmsa_row_space *sp)
{
	memset(r, 0, sizeof(*r));
	memset(sp, 0, sizeof(*sp));
	for (int c = 0; c < VMSA_CTX__COUNT; c++)
		r->ctx[c] = &sp->ctx[c];
	r->more = &sp->more;
	size_t next = 0;
#define SPACE_ORDERS(member, n)         \
	for (int i = 0; i < (n); i++)   \
		r->member[i] = (vmsa_orders_t)sp->orders[next++];
	VMSA_ROW_ORDERS(SPACE_ORDERS)
#undef SPACE_ORDERS
}

void vmsa_row_counters_free(struct vmsa_task_row *r)
{
	bool own = !r->block; /* (a block's rows' parts go with the block) */
	for (int c = 0; c < VMSA_CTX__COUNT; c++) {
		if (own)
			free(r->ctx[c]);
		r->ctx[c] = NULL;
	}
#define FREE_ORDERS(member, n)                                          \
	for (int i = 0; i < (n); i++) {                                 \
		if (own)                                                \
			free((void *)vmsa_orders_array(r->member[i]));  \
		r->member[i] = 0;                                       \
	}
	VMSA_ROW_ORDERS(FREE_ORDERS)
#undef FREE_ORDERS
	if (r->more) {
		vmsa_hist_release(&r->more->awake);
		free(r->more->lat);
		r->more->lat = NULL;
		r->more->nlat = r->more->lat_cap = 0;
		if (own)
			free(r->more);
		r->more = NULL;
	}
}

/* r's contexts' and per-order counts back to zero, where they are made */
static void row_counters_zero(struct vmsa_task_row *r)
{
	for (int c = 0; c < VMSA_CTX__COUNT; c++)
		if (r->ctx[c])
			memset(r->ctx[c], 0, sizeof(*r->ctx[c]));
#define ZERO_ORDERS(member, n)                                                   \
	for (int i = 0; i < (n); i++) {                                          \
		if (r->member[i] & 1)                                            \
			r->member[i] = 0;                                        \
		else if (r->member[i])                                           \
			memset((void *)r->member[i], 0, VMSA_MAX_ORDER * sizeof(uint64_t)); \
	}
	VMSA_ROW_ORDERS(ZERO_ORDERS)
#undef ZERO_ORDERS
	if (r->more)
		memset(r->more, 0, VMSA_ROW_MORE_COUNTER_BYTES);
}

static int lat_push(struct vmsa_task_row *r, const struct vmsa_latency *l)
{
	struct vmsa_row_more *m = vmsa_row_more_mut(r);
	if (!m || vmsa_grow((void **)&m->lat, &m->lat_cap, m->nlat + 1, sizeof(*m->lat), 16))
		return VMSA_E_NOMEM;
	m->lat[m->nlat++] = *l;
	return 0;
}

int vmsa_row_merge(struct vmsa_task_row *d, const struct vmsa_task_row *s)
{
	if (vmsa_row_counters_add(d, s))
		return VMSA_E_NOMEM;
	d->is_kswapd |= s->is_kswapd;
	if (d->kswapd_nid < 0)
		d->kswapd_nid = s->kswapd_nid;
	if (row_hists_merge(d, s))
		return VMSA_E_NOMEM;
	const struct vmsa_row_more *sm = vmsa_row_more(s);
	for (size_t i = 0; i < sm->nlat; i++)
		if (lat_push(d, &sm->lat[i]))
			return VMSA_E_NOMEM;
	return 0;
}

/* The slot of (pid, comm_id) in the table of long rings, or the empty one
 * where it goes (the table has one) */
static struct ring_slot *ring_slot(const struct long_rings *lr, int32_t pid, uint32_t comm_id)
{
	size_t mask = ((size_t)1 << lr->bits) - 1;
	uint32_t h = ((uint32_t)pid * 2654435769u) ^ (comm_id * 0x85ebca6bu);
	for (size_t i = (size_t)((h * 0x9e3779b1u) >> (32 - lr->bits));; i = (i + 1) & mask) {
		struct ring_slot *s = &lr->slot[i];
		if (!s->idx || (s->pid == pid && s->comm_id == comm_id))
			return s;
	}
}

/* Room for one more in the table of long rings */
static int ring_room(struct long_rings *lr)
{
	if (!lr->slot || (lr->n + 1) * 2 > ((size_t)1 << lr->bits)) {
		struct long_rings bigger = {.bits = lr->slot ? lr->bits + 1 : 8, .n = lr->n};
		if (bigger.bits > 31 || !(bigger.slot = calloc((size_t)1 << bigger.bits,
							      sizeof(*bigger.slot))))
			return VMSA_E_NOMEM;
		for (size_t i = 0; lr->slot && i < ((size_t)1 << lr->bits); i++)
			if (lr->slot[i].idx)
				*ring_slot(&bigger, lr->slot[i].pid, lr->slot[i].comm_id) = lr->slot[i];
		free(lr->slot);
		*lr = bigger;
	}
	return 0;
}

/* (pid, comm_id) -> idx put in the table of long rings (not in it yet) */
static int ring_put(struct long_rings *lr, int32_t pid, uint32_t comm_id, uint32_t idx)
{
	if (ring_room(lr))
		return VMSA_E_NOMEM;
	*ring_slot(lr, pid, comm_id) = (struct ring_slot){pid, comm_id, idx + 1};
	lr->n++;
	return 0;
}

/*
 * The place of pid's row of comm_id, when its ring (through of) is longer
 * than RING_WALK: from the table of long rings, the ring's rows put in it
 * first if they are not there yet; NO_ROW: none (*err 0) or out of memory.
 */
static uint32_t long_ring_find(struct vmsa_stats *st, uint32_t of, int32_t pid, uint32_t comm_id,
			       int *err)
{
	struct long_rings *lr = &st->long_rings;
	*err = 0;
	if (!lr->slot || !ring_slot(lr, pid, ALL_IN)->idx) {
		uint32_t i = of;
		do {
			if ((*err = ring_put(lr, pid, st->order[i]->key.comm_id, i)))
				return NO_ROW;
			i = st->pid_next[i];
		} while (i != of);
		if ((*err = ring_put(lr, pid, ALL_IN, of)))
			return NO_ROW;
	}
	const struct ring_slot *s = ring_slot(lr, pid, comm_id);
	return s->idx ? s->idx - 1 : NO_ROW;
}

/*
 * The row of (pid, comm_id), made if new (it may be shared), and its place
 * in order[] in *idx; NULL: out of memory.  of: the place of a row of pid
 * (its ring holds every row of the pid), or NO_ROW when the pid has none.
 */
static struct vmsa_task_row *get_row(struct vmsa_stats *st, uint32_t of, int32_t pid,
				     uint32_t comm_id, uint32_t *idx)
{
	bool long_ring = false;
	if (of != NO_ROW) {
		uint32_t i = of;
		unsigned steps = 0;
		do {
			if (st->order[i]->key.comm_id == comm_id) {
				*idx = i;
				return st->order[i];
			}
			i = st->pid_next[i];
		} while (i != of && ++steps < RING_WALK);
		if (i != of) {
			int err;
			uint32_t at = long_ring_find(st, of, pid, comm_id, &err);
			if (err)
				return NULL;
			if (at != NO_ROW) {
				*idx = at;
				return st->order[at];
			}
			long_ring = true;
		}
	}
	if (rows_room(st) || (long_ring && ring_room(&st->long_rings)))
		return NULL;
	struct vmsa_task_row *r = new_row(st);
	if (!r)
		return NULL;
	r->key.pid = pid;
	r->key.comm_id = comm_id;
	uint32_t n = (uint32_t)st->nrows;
	if (of == NO_ROW) {
		st->pid_next[n] = n;
	} else { /* into the ring, after of */
		st->pid_next[n] = st->pid_next[of];
		st->pid_next[of] = n;
	}
	*idx = n;
	st->order[st->nrows++] = r;
	if (long_ring) /* (room made above: this cannot fail) */
		ring_put(&st->long_rings, pid, comm_id, n);
	return r;
}

/* The place in order[] of task t's row (it has one) */
static inline uint32_t row_idx_of(const struct vmsa_stats *st, const struct task_state *t)
{
	return t->folded ? st->other_idx : t->row_idx;
}

/*
 * The row r of the table made the statistics' own, to be changed: a copy
 * when r is shared with a summary; NULL: out of memory (r is unchanged).
 */
static struct vmsa_task_row *own_row(struct vmsa_stats *st, struct vmsa_task_row *r, uint32_t idx)
{
	if (!r->shared)
		return r;
	struct vmsa_task_row *n = new_row(st);
	if (!n)
		return NULL;
	if (row_copy(n, r)) {
		/* the newest row of the newest block: given back */
		row_release(n);
		st->blocks->used--;
		st->blocks->live--;
		return NULL;
	}
	st->order[idx] = n;
	if (st->other == r)
		st->other = n;
	block_row_gone(st, r->block);
	return n;
}

/* ---- lifecycle ------------------------------------------------------ */

static int add_source(struct vmsa_stats *st, const char *name, const char *format,
		      const struct vmsa_source_counts *counts, const struct vmsa_traits *traits);

int vmsa_stats_new_sized(struct vmsa_stats **out, const struct vmsa_stats_options *opts,
			 size_t opts_size)
{
	*out = NULL;
	struct vmsa_stats_options o = {0};
	if (opts && vmsa_abi_in(&o, sizeof o, opts, opts_size, VMSA_ABI_MIN_STATS_OPTIONS))
		return VMSA_E_INVAL;
	struct vmsa_stats *st = calloc(1, sizeof(*st));
	if (!st)
		return VMSA_E_NOMEM;
	st->opts = o;
	st->max_tasks = st->opts.max_tasks ? st->opts.max_tasks : VMSA_DEFAULT_MAX_TASKS;
	st->folded_idle.folded = true; /* (what the passes over all pids read of it) */
	st->events_limit = UINT64_MAX; /* (no value of 2^32 or more yet) */
	vmsa_hist_init(&st->stall, VMSA_HIST_FINE);
	vmsa_hist_init(&st->awake, VMSA_HIST_FINE);
	vmsa_hist_init(&st->memcg, VMSA_HIST_FINE);
	if (vmsa_comms_intern(&st->comms, VMSA_COMM_PLACEHOLDER, strlen(VMSA_COMM_PLACEHOLDER),
			      &st->placeholder_id)) {
		vmsa_stats_free(st);
		return VMSA_E_NOMEM;
	}
	*out = st;
	return 0;
}

static void free_sources(struct vmsa_source_info *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].name);
		free(s[i].format);
	}
	free(s);
}

void vmsa_stats_free(struct vmsa_stats *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->ntask_chunks; i++)
		free(st->task_chunks[i]);
	free(st->task_chunks);
	free(st->idle_states);
	free(st->tasks.slot);
	free(st->order);
	free(st->pid_next);
	free(st->long_rings.slot);
	while (st->blocks)
		block_drop(st, st->blocks);
	vmsa_comms_release(&st->comms);
	free_sources(st->sources, st->nsources);
	vmsa_hist_release(&st->stall);
	vmsa_hist_release(&st->awake);
	vmsa_hist_release(&st->memcg);
	vmsa_timeline_release(&st->timeline);
	free(st);
}

int vmsa_stats_add_source_sized(struct vmsa_stats *st, const char *name, const char *format,
				const struct vmsa_source_counts *counts, size_t counts_size,
				const struct vmsa_traits *traits, size_t traits_size)
{
	struct vmsa_source_counts c;
	struct vmsa_traits *t = NULL;
	if (vmsa_abi_in(&c, sizeof c, counts, counts_size, VMSA_ABI_MIN_SOURCE_COUNTS))
		return VMSA_E_INVAL;
	if (traits_size != sizeof *traits) { /* (4.8 KB: copied only when it must be) */
		t = malloc(sizeof *t);
		if (!t)
			return VMSA_E_NOMEM;
		if (vmsa_abi_in(t, sizeof *t, traits, traits_size, VMSA_ABI_MIN_TRAITS)) {
			free(t);
			return VMSA_E_INVAL;
		}
		traits = t;
	}
	int err = add_source(st, name, format, &c, traits);
	free(t);
	return err;
}

static int add_source(struct vmsa_stats *st, const char *name, const char *format,
		      const struct vmsa_source_counts *counts, const struct vmsa_traits *traits)
{
	size_t i;
	for (i = 0; i < st->nsources; i++)
		if (strcmp(st->sources[i].name, name) == 0)
			break;
	if (i == st->nsources) {
		struct vmsa_source_info *n =
			realloc(st->sources, (st->nsources + 1) * sizeof(*n));
		if (!n)
			return VMSA_E_NOMEM;
		st->sources = n;
		memset(&n[i], 0, sizeof(n[i]));
		n[i].name = strdup(name);
		if (!n[i].name)
			return VMSA_E_NOMEM;
		st->nsources++;
	}
	free(st->sources[i].format);
	st->sources[i].format = strdup(format);
	if (!st->sources[i].format)
		return VMSA_E_NOMEM;
	st->sources[i].counts = *counts;
	st->sources[i].traits = *traits;
	return 0;
}

/* ---- the state machines --------------------------------------------- */

static bool is_placeholder(const char *c, size_t n)
{
	return n == 5 && memcmp(c, VMSA_COMM_PLACEHOLDER, 5) == 0;
}

/*
 * Counts that would pass 2^64 - 1.  Every count of the statistics (a row's
 * counter, the totals added up from the rows, a histogram's sum) adds each
 * event's value (or window's time) at most once: the values under 2^32 add
 * less than events * 2^32 to any count; those of 2^32 and more are added up
 * here (st->big), checked, at each such value, which on a whole trace never
 * comes but for a window of over 4.3 s.  While big + events * 2^32 fits no
 * count can wrap; the event count from which it would not fit is
 * st->events_limit, which vmsa_stats_overflowed() compares (the analysis
 * loop every 4096 events, and vmsa_stats_summary(): not each event); past
 * it, or at a value that makes big wrap (vmsa_stats_add()), the statistics
 * stop with VMSA_E_OVERFLOW: nr_scanned 2^64 - 1 then 2 summed to 1.
 */
#define BIG_SHIFT 32
static __attribute__((noinline, cold)) int big_values(struct vmsa_stats *st, uint64_t a,
						       uint64_t b, uint64_t c, uint64_t d,
						       uint64_t e, uint64_t f)
{
	const uint64_t v[] = {a, b, c, d, e, f};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] >> BIG_SHIFT && __builtin_add_overflow(st->big, v[i], &st->big))
			return VMSA_E_OVERFLOW;
	uint64_t left = UINT64_MAX - st->big; /* room for the small values */
	st->events_limit = left >> BIG_SHIFT;
	return st->events >= st->events_limit ? VMSA_E_OVERFLOW : 0;
}

static inline int values_fit(struct vmsa_stats *st, uint64_t a, uint64_t b, uint64_t c,
			     uint64_t d, uint64_t e, uint64_t f)
{
	if (__builtin_expect(((a | b | c | d | e | f) >> BIG_SHIFT) == 0, 1))
		return 0;
	return big_values(st, a, b, c, d, e, f);
}

/* The values of an event a handler adds (up to 6, uint64_t): returns
 * VMSA_E_OVERFLOW from it when they would take a count past 2^64 - 1. */
#define VALUES_FIT(st, ...)                                                              \
	do {                                                                             \
		const uint64_t v_[6] = {__VA_ARGS__};                                    \
		int e_ = values_fit(st, v_[0], v_[1], v_[2], v_[3], v_[4], v_[5]);       \
		if (__builtin_expect(e_ != 0, 0))                                        \
			return e_;                                                       \
	} while (0)

static uint64_t elapsed(struct vmsa_stats *st, uint64_t from, uint64_t to)
{
	if (to >= from)
		return to - from;
	st->negative_latencies++;
	return 0;
}

static int record_latency(struct vmsa_stats *st, struct task_state *t, enum vmsa_ctx ctx,
			  int32_t order, const struct vmsa_event *end, uint64_t ns)
{
	uint64_t end_ts = end->ts_ns;
	struct vmsa_task_row *r = t->row;
	int err = 0;
	switch (ctx) {
	case VMSA_CTX_DIRECT:
		err = vmsa_hist_add(&r->stall, ns) || vmsa_hist_add(&st->stall, ns);
		vmsa_timeline_stall(&st->timeline, end_ts - ns, ns);
		break;
	case VMSA_CTX_KSWAPD: {
		struct vmsa_row_more *m = vmsa_row_more_mut(r);
		err = !m || vmsa_hist_add(&m->awake, ns) || vmsa_hist_add(&st->awake, ns);
		break;
	}
	case VMSA_CTX_MEMCG:
	case VMSA_CTX_SOFTLIMIT:
		err = vmsa_hist_add(&st->memcg, ns);
		break;
	default:
		break;
	}
	if (err)
		return VMSA_E_NOMEM;
	if (st->opts.keep_latency_list) {
		struct vmsa_latency l = {.end_ts_ns = end_ts, .ns = ns, .order = order,
					 .kind = (uint8_t)ctx};
		if (lat_push(r, &l))
			return VMSA_E_NOMEM;
	}
	if (st->opts.latency_cb) {
		const struct vmsa_comm *c = st->comms.by_id[t->comm_id];
		st->opts.latency_cb(end_ts, t->pid, c->name, c->len, vmsa_ctx_name(ctx), order, ns,
				    st->opts.latency_payload);
	}
	if (st->opts.latency_record_cb) {
		const struct vmsa_comm *c = st->comms.by_id[t->comm_id];
		struct vmsa_latency_record l = {.end_ns = end_ts, .duration_ns = ns, .pid = t->pid,
						.cpu = end->cpu, .comm = c->name, .comm_len = c->len,
						.kind = vmsa_ctx_name(ctx), .order = order};
		st->opts.latency_record_cb(&l, st->opts.latency_payload);
	}
	return 0;
}

/* Forget windows from index i up: their ends were never seen.  0 or
 * VMSA_E_NOMEM */
static int abandon_windows(struct task_state *t, int i)
{
	int n = t->nwin - i;
	t->nwin = i;
	if (n <= 0)
		return 0;
	struct vmsa_row_more *m = vmsa_row_more_mut(t->row);
	if (!m)
		return VMSA_E_NOMEM;
	m->unmatched_begins += (uint64_t)n;
	return 0;
}

/* Past max_tasks rows: the task is counted in the "(other tasks)" row. */
static int fold(struct vmsa_stats *st, struct task_state *t)
{
	if (!st->other) {
		uint32_t id;
		if (vmsa_comms_intern(&st->comms, VMSA_COMM_OTHER, strlen(VMSA_COMM_OTHER), &id))
			return VMSA_E_NOMEM;
		st->other = get_row(st, NO_ROW, -2, id, &st->other_idx);
		if (!st->other)
			return VMSA_E_NOMEM;
	}
	t->row = st->other;
	t->comm_id = st->other->key.comm_id;
	t->folded = true;
	st->tasks_folded++;
	return 0;
}

/* Events of this name need nothing from set_task_row() until the row changes. */
static void remember_comm(struct task_state *t, const struct vmsa_event *ev)
{
	if (ev->comm_len <= sizeof(t->last_comm)) {
		memcpy(t->last_comm, ev->comm, ev->comm_len);
		t->last_len = (uint16_t)ev->comm_len;
	} else {
		t->last_len = UINT16_MAX;
	}
}

/*
 * A kswapd thread keeps a row of its own past max_tasks (up to KSWAPD_EXTRA
 * more rows): there is one a node, the kswapd table lists each, and folded
 * into "(other tasks)" it made that process row a kswapd row, which the JSON
 * wrote in "kswapd" without its direct reclaim, wake-up requests and stalls.
 */
#define KSWAPD_EXTRA 4096
static bool kswapd_keeps_row(const struct vmsa_stats *st, const struct vmsa_event *ev)
{
	return st->nrows < st->max_tasks + KSWAPD_EXTRA &&
	       (ev->type == VMSA_EV_KSWAPD_WAKE || ev->type == VMSA_EV_KSWAPD_SLEEP ||
		(ev->comm_len >= 6 && memcmp(ev->comm, "kswapd", 6) == 0));
}

/* The row of the event's (pid, comm) to t->row (which may be shared). */
static int pick_row(struct vmsa_stats *st, struct task_state *t, const struct vmsa_event *ev)
{
	if (t->folded) {
		t->row = st->other; /* (a copy of it may have been made) */
		return 0;
	}
	/* the common case: the name of this task's last event, in the task */
	if (t->row && t->last_len == ev->comm_len &&
	    vmsa_same_bytes(t->last_comm, ev->comm, ev->comm_len))
		return 0;
	if (!t->row && st->nrows >= st->max_tasks && !kswapd_keeps_row(st, ev)) {
		/* a task of no row yet is folded, its name not even interned, so
		 * memory stays bounded: no row of its pid is in the table (rows are
		 * made for a task's state, which is never let go of but folded,
		 * and a restart lets go of the rows of the tasks it leaves without
		 * one) */
		return fold(st, t);
	}
	if (t->row) {
		const struct vmsa_comm *cur = st->comms.by_id[t->comm_id];
		if (cur->len == ev->comm_len && vmsa_same_bytes(cur->name, ev->comm, ev->comm_len)) {
			remember_comm(t, ev);
			return 0;
		}
	}
	bool ph = is_placeholder(ev->comm, ev->comm_len);
	if (ph && t->row) {
		remember_comm(t, ev);
		return 0;
	}
	uint32_t id;
	if (ph) {
		id = st->placeholder_id;
	} else if (vmsa_comms_intern(&st->comms, ev->comm, ev->comm_len, &id)) {
		return VMSA_E_NOMEM;
	}
	if (t->row && t->comm_id == id) {
		remember_comm(t, ev);
		return 0;
	}
	/*
	 * A new name for the pid ends what was open only when it comes with a
	 * begin (or a kswapd wake-up): exec or pid reuse, a new task starting.
	 * Any other event under a new name belongs to the open window: the comm
	 * column of text output is the tracer's pid->name cache read when the
	 * line is printed, so a task's name can change in the middle of a
	 * reclaim it never left (trace_pipe printed "init-101" for a begin and
	 * "cat-101" for its isolations and end, a second later, where trace.dat
	 * names all of them "cat"), and a task cannot exec inside reclaim.
	 */
	if (t->row && !t->comm_placeholder) {
		st->comm_changes++;
		if (ev->type == VMSA_EV_RECLAIM_BEGIN || ev->type == VMSA_EV_KSWAPD_WAKE) {
			if (t->nwin) {
				struct vmsa_task_row *o = own_row(st, t->row, t->row_idx);
				if (!o)
					return VMSA_E_NOMEM;
				t->row = o;
			}
			if (abandon_windows(t, 0))
				return VMSA_E_NOMEM;
			t->awake = false;
		}
	}
	uint32_t idx;
	struct vmsa_task_row *r = get_row(st, t->row ? t->row_idx : NO_ROW, t->pid, id, &idx);
	if (!r || !(r = own_row(st, r, idx)))
		return VMSA_E_NOMEM;
	t->row = r;
	t->row_idx = idx;
	t->comm_id = id;
	t->comm_placeholder = ph;
	if (!ph && ev->comm_len >= 6 && memcmp(ev->comm, "kswapd", 6) == 0)
		t->is_kswapd = true;
	if (t->is_kswapd)
		r->is_kswapd = true;
	remember_comm(t, ev);
	return 0;
}

/* The event's row to t->row, the statistics' own (never shared). */
static int set_task_row(struct vmsa_stats *st, struct task_state *t, const struct vmsa_event *ev)
{
	int err = pick_row(st, t, ev);
	if (err)
		return err;
	if (t->row->shared) {
		struct vmsa_task_row *r = own_row(st, t->row, row_idx_of(st, t));
		if (!r)
			return VMSA_E_NOMEM;
		t->row = r;
	}
	return 0;
}

static enum vmsa_ctx current_ctx(const struct task_state *t)
{
	if (t->nwin)
		return (enum vmsa_ctx)t->win[t->nwin - 1].ctx;
	return t->is_kswapd ? VMSA_CTX_KSWAPD : VMSA_CTX_NONE;
}

/* Makes sure that the event's order (if it says one) can be counted in *by
 * without memory: 0 or VMSA_E_NOMEM */
static inline int order_ready(struct vmsa_task_row *r, vmsa_orders_t *by,
			      const struct vmsa_event *ev)
{
	return ev->order < 0 ? 0 : vmsa_orders_ready(r, by, ev->order);
}

/* Counts the event's order in *by (order_ready() said 0) */
static inline void order_count(vmsa_orders_t *by, const struct vmsa_event *ev)
{
	if (ev->order >= 0)
		vmsa_orders_inc(by, ev->order);
}

static int on_begin(struct vmsa_stats *st VMSA_UNUSED, struct task_state *t,
		    const struct vmsa_event *ev)
{
	struct vmsa_task_row *r = t->row;
	struct vmsa_counters *c = vmsa_row_ctx_mut(r, ev->ctx);
	vmsa_orders_t *by_order = &r->begins_by_order[ev->ctx];
	if (!c || order_ready(r, by_order, ev))
		return VMSA_E_NOMEM;
	for (int i = 0; i < t->nwin; i++)
		if (t->win[i].ctx == ev->ctx) {
			if (abandon_windows(t, i))
				return VMSA_E_NOMEM;
			break;
		}
	if (t->nwin == MAX_WINDOWS && abandon_windows(t, 0))
		return VMSA_E_NOMEM;
	t->win[t->nwin].ctx = (uint8_t)ev->ctx;
	t->win[t->nwin].order = ev->order;
	t->win[t->nwin].begin_ts = ev->ts_ns;
	t->win[t->nwin].priority = -1;
	t->nwin++;
	c->reclaims++;
	order_count(by_order, ev);
	return 0;
}

static int on_end(struct vmsa_stats *st, struct task_state *t, const struct vmsa_event *ev)
{
	struct vmsa_task_row *r = t->row;
	int i;
	for (i = t->nwin - 1; i >= 0; i--)
		if (t->win[i].ctx == ev->ctx)
			break;
	if (i < 0) {
		struct vmsa_row_more *m = vmsa_row_more_mut(r);
		if (!m)
			return VMSA_E_NOMEM;
		m->unmatched_ends++;
		return 0;
	}
	if (abandon_windows(t, i + 1))
		return VMSA_E_NOMEM;
	t->nwin = i;
	uint64_t ns = elapsed(st, t->win[i].begin_ts, ev->ts_ns);
	VALUES_FIT(st, ns, ev->nr_reclaimed == VMSA_UNKNOWN_COUNT ? 0 : ev->nr_reclaimed);
	struct vmsa_counters *c = vmsa_row_ctx_mut(r, ev->ctx);
	if (!c)
		return VMSA_E_NOMEM;
	c->completed++;
	c->latency_ns += ns;
	if (ev->nr_reclaimed == VMSA_UNKNOWN_COUNT)
		st->ends_without_reclaimed++;
	else
		c->end_nr_reclaimed += ev->nr_reclaimed;
	return record_latency(st, t, ev->ctx, t->win[i].order, ev, ns);
}

static int on_kswapd_wake(struct vmsa_stats *st VMSA_UNUSED, struct task_state *t,
			  const struct vmsa_event *ev)
{
	struct vmsa_task_row *r = t->row;
	t->is_kswapd = true;
	r->is_kswapd = !t->folded; /* ("(other tasks)" is a process row) */
	if (ev->nid >= 0)
		r->kswapd_nid = ev->nid;
	vmsa_orders_t *by_order =
		t->awake ? &r->kswapd_rewake_by_order[0] : &r->kswapd_wake_by_order[0];
	struct vmsa_row_more *m = vmsa_row_more_mut(r);
	if (!m || order_ready(r, by_order, ev))
		return VMSA_E_NOMEM;
	if (!t->awake) {
		struct vmsa_counters *c = vmsa_row_ctx_mut(r, VMSA_CTX_KSWAPD);
		if (!c)
			return VMSA_E_NOMEM;
		t->awake = true;
		t->wake_ts = ev->ts_ns;
		m->kswapd_wakeups++;
		c->reclaims++;
	} else {
		m->kswapd_rewakeups++;
	}
	order_count(by_order, ev);
	t->kswapd_order = ev->order;
	return 0;
}

static int on_kswapd_sleep(struct vmsa_stats *st, struct task_state *t, const struct vmsa_event *ev)
{
	struct vmsa_task_row *r = t->row;
	t->is_kswapd = true;
	r->is_kswapd = !t->folded;
	if (ev->nid >= 0)
		r->kswapd_nid = ev->nid;
	if (!t->awake) {
		struct vmsa_row_more *m = vmsa_row_more_mut(r);
		if (!m)
			return VMSA_E_NOMEM;
		m->kswapd_sleep_without_wake++;
		return 0;
	}
	struct vmsa_counters *c = vmsa_row_ctx_mut(r, VMSA_CTX_KSWAPD);
	if (!c)
		return VMSA_E_NOMEM;
	t->awake = false;
	uint64_t ns = elapsed(st, t->wake_ts, ev->ts_ns);
	VALUES_FIT(st, ns);
	c->completed++;
	c->latency_ns += ns;
	return record_latency(st, t, VMSA_CTX_KSWAPD, t->kswapd_order, ev, ns);
}

/*
 * The multi-gen LRU's scan_folios() (mm/vmscan.c, 6.7+; 6.12 as in
 * fixtures/6.12-mglru) emits lru_isolate with nr_requested = MAX_LRU_BATCH
 * (4096), nr_scanned = every folio it looked at (sorted into another
 * generation, skipped for the zone, or isolated), and counts only the
 * isolated ones (nr_taken) in pgscan_*.  Classic reclaim asks for at most
 * SWAP_CLUSTER_MAX (32) per isolate_lru_folios() call.
 */
#define VMSA_MGLRU_BATCH 4096

/* pages scanned of an inactive-list isolation, as pgscan_* counts them */
static inline uint64_t inactive_scanned(struct vmsa_counters *c, const struct vmsa_event *ev)
{
	if (ev->nr_requested != VMSA_MGLRU_BATCH)
		return ev->nr_scanned;
	c->mglru_scanned += ev->nr_scanned;
	c->mglru_skipped += ev->nr_skipped;
	c->mglru_isolated += ev->nr_taken;
	return ev->nr_taken;
}

static void on_isolate(struct vmsa_stats *st, struct vmsa_counters *c, const struct vmsa_event *ev)
{
	switch (ev->lru) {
	case VMSA_LRU_INACTIVE_FILE:
		c->scanned_file += inactive_scanned(c, ev);
		break;
	case VMSA_LRU_INACTIVE_ANON:
		c->scanned_anon += inactive_scanned(c, ev);
		break;
	case VMSA_LRU_ACTIVE_FILE:
	case VMSA_LRU_ACTIVE_ANON:
		/* shrink_active_list(): rotation, not counted in pgscan_* */
		c->active_isolated += ev->nr_taken;
		st->isolations_not_counted++;
		return;
	case VMSA_LRU_UNEVICTABLE:
		st->isolations_not_counted++;
		return;
	case VMSA_LRU_UNKNOWN:
	case VMSA_LRU_OTHER: /* a list this tool does not know: counted, never lost */
	default:
		/* older kernels: every isolation, as the 2010 script counted */
		if (ev->file == 1)
			c->scanned_file += ev->nr_scanned;
		else if (ev->file == 0)
			c->scanned_anon += ev->nr_scanned;
		else
			c->scanned_unknown += ev->nr_scanned;
		break;
	}
	st->isolations_counted++;
}

/*
 * What each event contributes to the statistics: one handler per event type
 * (the catalogue, src/input/events.c, says which events have which type).
 * t is the event's task, its row set.
 */
typedef int (*event_handler)(struct vmsa_stats *st, struct task_state *t,
			     const struct vmsa_event *ev);

/* the counters of the context the task is in; NULL: out of memory */
static inline struct vmsa_counters *ctx_counters(struct task_state *t)
{
	return vmsa_row_ctx_mut(t->row, current_ctx(t));
}

static int on_wakeup_kswapd(struct vmsa_stats *st VMSA_UNUSED, struct task_state *t,
			    const struct vmsa_event *ev)
{
	vmsa_orders_t *by_order = &t->row->wakeup_by_order[0];
	if (order_ready(t->row, by_order, ev))
		return VMSA_E_NOMEM;
	t->row->wakeup_kswapd++;
	order_count(by_order, ev);
	return 0;
}

static int on_lru_isolate(struct vmsa_stats *st, struct task_state *t, const struct vmsa_event *ev)
{
	/* (nr_skipped is added where nr_requested says a multi-gen LRU batch
	 * only, which is under 2^32) */
	VALUES_FIT(st, ev->nr_scanned, ev->nr_taken,
		   ev->nr_requested == VMSA_MGLRU_BATCH ? ev->nr_skipped : 0);
	struct vmsa_counters *c = ctx_counters(t);
	if (!c)
		return VMSA_E_NOMEM;
	uint64_t before = vmsa_scanned(c);
	on_isolate(st, c, ev);
	uint64_t n = vmsa_scanned(c) - before;
	enum vmsa_ctx cx = current_ctx(t);
	if (cx == VMSA_CTX_DIRECT || cx == VMSA_CTX_KSWAPD)
		return vmsa_timeline_add(&st->timeline, ev->ts_ns, cx == VMSA_CTX_DIRECT ? n : 0,
					 cx == VMSA_CTX_KSWAPD ? n : 0);
	return 0;
}

static int on_write(struct vmsa_stats *st, struct task_state *t,
		    const struct vmsa_event *ev)
{
	struct vmsa_counters *c = ctx_counters(t);
	if (!c)
		return VMSA_E_NOMEM;
	VALUES_FIT(st, ev->nr_pages);
	c->write[ev->file == 1][ev->sync == 1]++;
	if (ev->nr_pages) {
		c->write_pages += ev->nr_pages;
		c->write_events_with_pages++;
	}
	return 0;
}

/*
 * do_try_to_free_pages() lowers sc->priority pass by pass from DEF_PRIORITY
 * and every pass's shrink_node() shrinks lists and slab at that priority;
 * its `goto retry` starts again at DEF_PRIORITY (and counts ALLOCSTALL
 * again).  So a window's priority going back up is a retry.
 */
static inline int note_priority(struct task_state *t, const struct vmsa_event *ev)
{
	/* (an event that does not say its priority, as mm_shrink_slab_start
	 * before 5.x, says nothing of the pass) */
	if (!t->nwin || ev->priority < 0)
		return 0;
	int8_t p = ev->priority > 127 ? 127 : (int8_t)ev->priority;
	int8_t *last = &t->win[t->nwin - 1].priority;
	if (p > *last && *last >= 0) {
		struct vmsa_counters *c = vmsa_row_ctx_mut(t->row, t->win[t->nwin - 1].ctx);
		if (!c)
			return VMSA_E_NOMEM;
		c->retries++;
	}
	*last = p;
	return 0;
}

static int on_shrink_inactive(struct vmsa_stats *st, struct task_state *t,
			      const struct vmsa_event *ev)
{
	VALUES_FIT(st, ev->nr_reclaimed, ev->nr_dirty, ev->nr_writeback, ev->nr_congested,
		   ev->nr_immediate);
	struct vmsa_counters *c = ctx_counters(t);
	if (!c || note_priority(t, ev))
		return VMSA_E_NOMEM;
	if (ev->file == 1)
		c->reclaimed_file += ev->nr_reclaimed;
	else if (ev->file == 0)
		c->reclaimed_anon += ev->nr_reclaimed;
	else
		c->reclaimed_unknown += ev->nr_reclaimed;
	c->nr_dirty += ev->nr_dirty;
	c->nr_writeback += ev->nr_writeback;
	c->nr_congested += ev->nr_congested;
	c->nr_immediate += ev->nr_immediate;
	return 0;
}

static int on_shrink_active(struct vmsa_stats *st, struct task_state *t,
			    const struct vmsa_event *ev)
{
	VALUES_FIT(st, ev->nr_deactivated);
	struct vmsa_counters *c = ctx_counters(t);
	if (!c)
		return VMSA_E_NOMEM;
	c->deactivated += ev->nr_deactivated;
	return note_priority(t, ev);
}

static int on_throttled(struct vmsa_stats *st, struct task_state *t,
			const struct vmsa_event *ev)
{
	VALUES_FIT(st, (uint64_t)ev->usec_delayed);
	struct vmsa_row_more *m = vmsa_row_more_mut(t->row);
	if (!m)
		return VMSA_E_NOMEM;
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++)
		if (ev->throttle_reasons & (1u << b)) {
			m->throttled[b]++;
			m->throttled_usec[b] += (uint64_t)ev->usec_delayed;
		}
	return 0;
}

static int on_slab_start(struct vmsa_stats *st VMSA_UNUSED, struct task_state *t,
			 const struct vmsa_event *ev)
{
	struct vmsa_counters *c = ctx_counters(t);
	if (!c)
		return VMSA_E_NOMEM;
	c->slab_calls++;
	return note_priority(t, ev);
}

static int on_slab_end(struct vmsa_stats *st, struct task_state *t,
		       const struct vmsa_event *ev)
{
	VALUES_FIT(st, ev->slab_freed > 0 ? (uint64_t)ev->slab_freed : 0);
	struct vmsa_counters *c = ctx_counters(t);
	if (!c)
		return VMSA_E_NOMEM;
	c->slab_freed += ev->slab_freed > 0 ? ev->slab_freed : 0;
	return 0;
}

static int on_flusher_wake(struct vmsa_stats *st, struct task_state *t,
			   const struct vmsa_event *ev)
{
	if ((unsigned)ev->flush_reason >= VMSA_FLUSH__COUNT)
		return VMSA_E_INVAL;
	VALUES_FIT(st, ev->nr_dirty, ev->nr_pages);
	struct vmsa_row_more *m = vmsa_row_more_mut(t->row);
	if (!m)
		return VMSA_E_NOMEM;
	m->flusher_wakeups[ev->flush_reason]++;
	m->flusher_dirty_pages[ev->flush_reason] += ev->nr_dirty;
	m->flusher_requested_pages[ev->flush_reason] += ev->nr_pages;
	return 0;
}

/* reclaim_pages(): no window opens or closes, and its pages are not the
 * contexts' (pgscan_* and pgsteal_* do not count them) */
static int on_reclaim_pages(struct vmsa_stats *st, struct task_state *t,
			    const struct vmsa_event *ev)
{
	VALUES_FIT(st, ev->nr_scanned, ev->nr_reclaimed, ev->nr_dirty, ev->nr_writeback,
		   ev->nr_congested, ev->nr_immediate);
	struct vmsa_row_more *m = vmsa_row_more_mut(t->row);
	if (!m)
		return VMSA_E_NOMEM;
	uint64_t *n = m->reclaim_pages;
	n[VMSA_RP_EVENTS]++;
	n[VMSA_RP_SCANNED] += ev->nr_scanned;
	n[VMSA_RP_RECLAIMED] += ev->nr_reclaimed;
	n[VMSA_RP_DIRTY] += ev->nr_dirty;
	n[VMSA_RP_WRITEBACK] += ev->nr_writeback;
	n[VMSA_RP_CONGESTED] += ev->nr_congested;
	n[VMSA_RP_IMMEDIATE] += ev->nr_immediate;
	return 0;
}

/*
 * A flusher's pass: writeback_start and writeback_written of one worker,
 * around the inodes it wrote; wb_writeback() counts the work's nr_pages down
 * by the pages it wrote, so the pass wrote the start's less the written's.
 */
static int on_wb_start(struct vmsa_stats *st, struct task_state *t, const struct vmsa_event *ev)
{
	if ((unsigned)ev->wb_reason >= VMSA_WB__COUNT)
		return VMSA_E_INVAL;
	st->wb.seen = true;
	if (t->wb_open)
		st->wb.unpaired++; /* a start whose pass never ended */
	t->wb_open = (uint8_t)(ev->wb_reason + 1);
	t->wb_nr_pages = ev->wb_nr_pages;
	return 0;
}

static int on_wb_written(struct vmsa_stats *st, struct task_state *t, const struct vmsa_event *ev)
{
	if ((unsigned)ev->wb_reason >= VMSA_WB__COUNT)
		return VMSA_E_INVAL;
	st->wb.seen = true;
	if (t->wb_open != ev->wb_reason + 1 || ev->wb_nr_pages > t->wb_nr_pages) {
		/* its start is not in the trace (or is another work's) */
		st->wb.unpaired += 1 + (t->wb_open != 0);
	} else {
		VALUES_FIT(st, (uint64_t)(t->wb_nr_pages - ev->wb_nr_pages));
		st->wb.passes[ev->wb_reason]++;
		st->wb.pages[ev->wb_reason] += (uint64_t)(t->wb_nr_pages - ev->wb_nr_pages);
	}
	t->wb_open = 0;
	return 0;
}

static int on_nothing(struct vmsa_stats *st VMSA_UNUSED, struct task_state *t VMSA_UNUSED,
		      const struct vmsa_event *ev VMSA_UNUSED)
{
	return 0;
}

/* the events after which a task may have nothing open: they end with
 * may_rest() (below) */
static int on_end_rest(struct vmsa_stats *st, struct task_state *t, const struct vmsa_event *ev);
static int on_wakeup_kswapd_rest(struct vmsa_stats *st, struct task_state *t,
				 const struct vmsa_event *ev);
static int on_wb_written_rest(struct vmsa_stats *st, struct task_state *t,
			      const struct vmsa_event *ev);
static int on_reclaim_pages_rest(struct vmsa_stats *st, struct task_state *t,
				 const struct vmsa_event *ev);

static const event_handler handlers[VMSA_EV__COUNT] = {
	[VMSA_EV_RECLAIM_BEGIN] = on_begin,
	[VMSA_EV_RECLAIM_END] = on_end_rest,
	[VMSA_EV_KSWAPD_WAKE] = on_kswapd_wake,
	[VMSA_EV_KSWAPD_SLEEP] = on_kswapd_sleep,
	[VMSA_EV_WAKEUP_KSWAPD] = on_wakeup_kswapd_rest,
	[VMSA_EV_LRU_ISOLATE] = on_lru_isolate,
	[VMSA_EV_WRITE] = on_write,
	[VMSA_EV_SHRINK_INACTIVE] = on_shrink_inactive,
	[VMSA_EV_SHRINK_ACTIVE] = on_shrink_active,
	[VMSA_EV_THROTTLED] = on_throttled,
	[VMSA_EV_SLAB_START] = on_slab_start,
	[VMSA_EV_SLAB_END] = on_slab_end,
	[VMSA_EV_FLUSHER_WAKE] = on_flusher_wake,
	[VMSA_EV_WB_START] = on_wb_start,
	[VMSA_EV_WB_WRITTEN] = on_wb_written_rest,
	[VMSA_EV_LOST] = on_nothing, /* counted before any task */
	[VMSA_EV_RECLAIM_PAGES] = on_reclaim_pages_rest,
};

/* The state of reference ref (a pid_slot's, not REF_NONE) */
static inline struct task_state *task_at(const struct vmsa_stats *st, uint32_t ref)
{
	if (ref == REF_IDLE)
		return (struct task_state *)&st->folded_idle;
	if (ref >= REF_ROW)
		return (struct task_state *)&st->at_rest;
	uint32_t i = ref - 1;
	return (struct task_state *)(void *)(st->task_chunks[i / TASK_CHUNK] +
					     (size_t)(i % TASK_CHUNK) * TASK_SIZE);
}

/* A zeroed task state, 64-byte aligned, and its reference in *ref; NULL:
 * out of memory */
static struct task_state *new_task(struct vmsa_stats *st, uint32_t *ref)
{
	if (st->nidle) {
		*ref = st->idle_states[--st->nidle];
		struct task_state *t = task_at(st, *ref);
		memset(t, 0, sizeof(*t));
		return t;
	}
	if (st->ntask_chunks == 0 || st->chunk_used == TASK_CHUNK) {
		if (st->ntask_chunks >= (REF_ROW - 1) / TASK_CHUNK ||
		    vmsa_grow((void **)&st->task_chunks, &st->task_chunks_cap, st->ntask_chunks + 1,
			      sizeof(*st->task_chunks), 16))
			return NULL;
		char *c = aligned_alloc(64, (size_t)TASK_CHUNK * TASK_SIZE);
		if (!c)
			return NULL;
		st->task_chunks[st->ntask_chunks++] = c;
		st->chunk_used = 0;
	}
	*ref = (uint32_t)((st->ntask_chunks - 1) * TASK_CHUNK + st->chunk_used) + 1;
	struct task_state *t =
		(struct task_state *)(void *)(st->task_chunks[st->ntask_chunks - 1] +
					      st->chunk_used++ * TASK_SIZE);
	memset(t, 0, sizeof(*t));
	return t;
}

/* task states held past which tasks at rest give theirs back */
#define REST_AFTER 4096

/* A state again for the task at rest of slot s; NULL: out of memory */
static struct task_state *state_again(struct vmsa_stats *st, struct pid_slot *s)
{
	uint32_t was = s->ref, ref;
	struct task_state *t = new_task(st, &ref);
	if (!t)
		return NULL;
	t->pid = s->pid;
	t->last_len = UINT16_MAX;
	if (was == REF_IDLE) {
		t->folded = true;
		t->row = st->other;
		t->comm_id = st->other->key.comm_id;
	} else if (was != REF_FRESH) {
		t->row_idx = was & ~REF_ROW;
		t->row = st->order[t->row_idx];
		t->comm_id = t->row->key.comm_id;
		t->comm_placeholder = t->comm_id == st->placeholder_id;
	}
	s->ref = ref;
	return t;
}

/* The task t has nothing open: its state is given back (if it can be),
 * its slot saying where its row is. */
static void state_rest(struct vmsa_stats *st, struct task_state *t)
{
	uint32_t ref = REF_IDLE;
	if (!t->folded) {
		if (t->row_idx >= REF_FRESH - REF_ROW)
			return; /* (no room in a reference) */
		ref = REF_ROW | t->row_idx;
	}
	if (vmsa_grow((void **)&st->idle_states, &st->idle_cap, st->nidle + 1,
		      sizeof(*st->idle_states), 64))
		return; /* (it keeps its state) */
	struct pid_slot *s = pids_slot(&st->tasks, t->pid);
	st->idle_states[st->nidle++] = s->ref;
	s->ref = ref;
	if (st->last_task == t)
		st->last_task = NULL;
}

/* The task states held: those handed out of the chunks, less those given back */
static inline size_t live_states(const struct vmsa_stats *st)
{
	return st->ntask_chunks ? (st->ntask_chunks - 1) * TASK_CHUNK + st->chunk_used - st->nidle
				: 0;
}

/*
 * Past 2^18 slots (2 MB) the task table is larger than the caches, and a
 * new pid's slot is a miss of all of them (a fifth of the time of a trace
 * of a million short-lived tasks): the reader asks for it a line ahead.
 */
bool vmsa_stats_wants_pid_hints(const struct vmsa_stats *st)
{
	return st->tasks.bits >= 18;
}

/*
 * A task's state, row and counters take about 700 bytes: past 3072 tasks
 * (the table's growth to 2^13 slots) they outgrow a core's 1-2 MiB cache.
 */
bool vmsa_stats_wants_lookahead(const struct vmsa_stats *st)
{
	return st->tasks.bits >= 13;
}

void vmsa_stats_prefetch_pid(const struct vmsa_stats *st, int32_t pid)
{
	if (st->tasks.slot)
		__builtin_prefetch(&st->tasks.slot[pid_home(&st->tasks, pid)]);
}

size_t vmsa_stats_states_held(const struct vmsa_stats *st)
{
	return live_states(st);
}

/* After an event that may end what the task had open: a task past
 * REST_AFTER states, or folded, with nothing open rests (t is gone then) */
static inline void may_rest(struct vmsa_stats *st, struct task_state *t)
{
	if ((t->folded || live_states(st) > REST_AFTER) && !t->nwin && !t->awake &&
	    !t->wb_open && !t->is_kswapd && t->row)
		state_rest(st, t);
}

static int on_end_rest(struct vmsa_stats *st, struct task_state *t, const struct vmsa_event *ev)
{
	int err = on_end(st, t, ev);
	may_rest(st, t);
	return err;
}

static int on_wakeup_kswapd_rest(struct vmsa_stats *st, struct task_state *t,
				 const struct vmsa_event *ev)
{
	int err = on_wakeup_kswapd(st, t, ev);
	may_rest(st, t);
	return err;
}

static int on_wb_written_rest(struct vmsa_stats *st, struct task_state *t,
			      const struct vmsa_event *ev)
{
	int err = on_wb_written(st, t, ev);
	may_rest(st, t);
	return err;
}

static int on_reclaim_pages_rest(struct vmsa_stats *st, struct task_state *t,
				 const struct vmsa_event *ev)
{
	int err = on_reclaim_pages(st, t, ev);
	may_rest(st, t);
	return err;
}

/* a caller's struct vmsa_event of another size (src/abi.h) */
static __attribute__((noinline)) int add_resized(struct vmsa_stats *st,
						 const struct vmsa_event *ev, size_t ev_size)
{
	struct vmsa_event whole;
	int err = vmsa_abi_in(&whole, sizeof whole, ev, ev_size, VMSA_ABI_MIN_EVENT);
	return err ? err : vmsa_stats_add(st, &whole);
}

int vmsa_stats_add_sized(struct vmsa_stats *st, const struct vmsa_event *ev, size_t ev_size)
{
	if (__builtin_expect(ev_size != sizeof *ev, 0))
		return add_resized(st, ev, ev_size);
	if ((unsigned)ev->type >= VMSA_EV__COUNT)
		return VMSA_E_INVAL;
	/* (an invalid event is refused before anything of it is counted) */
	bool needs_order = ev->type == VMSA_EV_RECLAIM_BEGIN || ev->type == VMSA_EV_KSWAPD_WAKE ||
			   ev->type == VMSA_EV_WAKEUP_KSWAPD;
	if (needs_order && (ev->order < -1 || ev->order >= VMSA_MAX_ORDER))
		return VMSA_E_INVAL;
	if ((ev->type == VMSA_EV_RECLAIM_BEGIN || ev->type == VMSA_EV_RECLAIM_END) &&
	    (unsigned)ev->ctx >= VMSA_CTX_KSWAPD)
		return VMSA_E_INVAL;
	st->events++;
	st->by_type[ev->type]++;
	if (ev->type == VMSA_EV_LOST) {
		VALUES_FIT(st, ev->lost);
		st->lost += ev->lost;
		st->lost_unsaid += !ev->lost;
		return 0;
	}
	if (!st->have_ts || ev->ts_ns < st->first_ts)
		st->first_ts = ev->ts_ns;
	if (!st->have_ts || ev->ts_ns > st->last_ts)
		st->last_ts = ev->ts_ns;
	st->have_ts = true;

	struct task_state *t = st->last_task;
	if (!t || t->pid != ev->pid) {
		struct pid_slot *s = pids_slot(&st->tasks, ev->pid);
		t = !s ? NULL : s->ref < REF_ROW ? task_at(st, s->ref) : state_again(st, s);
		if (s && !t)
			return VMSA_E_NOMEM;
	}
	if (!t) {
		uint32_t ref;
		t = new_task(st, &ref);
		if (!t)
			return VMSA_E_NOMEM;
		t->pid = ev->pid;
		if (pids_add(&st->tasks, ev->pid, ref))
			return VMSA_E_NOMEM; /* (its chunk is freed with the rest) */
	}
	st->last_task = t;
	/* (writeback events have no row: struct vmsa_writeback) */
	if (ev->type != VMSA_EV_WB_START && ev->type != VMSA_EV_WB_WRITTEN) {
		int err = set_task_row(st, t, ev);
		if (err)
			return err;
	}
	return handlers[ev->type](st, t, ev);
}

/* ---- the summary snapshot ------------------------------------------- */

/*
 * Rows are sorted by name, then pid, in O(rows): by pid first (a radix sort
 * on the pid's bytes, which keeps rows of equal pid in the order they were
 * made), then put in buckets by name id (a name has one id) in that order,
 * the names that have rows sorted (a few, or as many as the rows when every
 * task is named apart).  A sort of all rows compared names and pids about
 * n log n times: with 65,000 short-lived tasks, 8% of the run.
 */
struct name_key {
	uint64_t head; /* the name's first 8 bytes, zero-padded, most significant first */
	const char *name;
	uint32_t len;	/* (a name is part of a line or of a JSON string: under 4 GiB) */
	uint32_t id;
};

static int name_cmp(const void *a, const void *b)
{
	const struct name_key *x = a, *y = b;
	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	/* (equal heads: the first min(len, 8) bytes are equal) */
	size_t n = x->len < y->len ? x->len : y->len;
	int c = n > 8 ? memcmp(x->name + 8, y->name + 8, n - 8) : 0;
	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

/* (12 bytes: twice as many of them as rows, at the run's peak of memory) */
struct pid_row {
	uint32_t key;	/* the pid, its sign bit flipped: unsigned order is the pid's */
	uint32_t comm_id;
	uint32_t from;	/* its place before the sort */
};

/* a[0..n) by key, stable, through tmp (n long); returns where they are */
static struct pid_row *radix_by_key(struct pid_row *a, struct pid_row *tmp, size_t n)
{
	for (unsigned shift = 0; shift < 32; shift += 8) {
		size_t count[256] = {0};
		for (size_t i = 0; i < n; i++)
			count[(a[i].key >> shift) & 0xff]++;
		if (count[(a[0].key >> shift) & 0xff] == n)
			continue; /* every key has this byte */
		for (size_t b = 0, at = 0; b < 256; b++) {
			size_t c = count[b];
			count[b] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(a[i].key >> shift) & 0xff]++] = a[i];
		struct pid_row *t = a;
		a = tmp;
		tmp = t;
	}
	return a;
}

int vmsa_summary_sort_rows(struct vmsa_summary *sum)
{
	size_t n = sum->nrows, ncomm = sum->comms.n;
	if (n < 2)
		return 0;
	if (n > UINT32_MAX)
		return VMSA_E_NOMEM;
	bool made = sum->rows_made && !memcmp(sum->rows, sum->rows_made, n * sizeof(*sum->rows));
	size_t *at = calloc(ncomm + 1, sizeof(*at));	/* rows of a name, then where they go */
	struct name_key *names = malloc(ncomm * sizeof(*names));
	struct pid_row *pr = malloc(2 * n * sizeof(*pr));
	/* the rows in their order before the sort (rows[] is written over) */
	struct vmsa_task_row **before = made ? sum->rows_made : malloc(n * sizeof(*before));
	if (!at || !names || !pr || !before) {
		free(at);
		free(names);
		free(pr);
		if (!made)
			free(before);
		return VMSA_E_NOMEM;
	}
	if (!made)
		memcpy(before, sum->rows, n * sizeof(*before));
	bool by_pid = true;
	for (size_t i = 0; i < n; i++) {
		const struct vmsa_task_row *r = sum->rows[i];
		pr[i] = (struct pid_row){(uint32_t)r->key.pid ^ 0x80000000u, r->key.comm_id,
					 (uint32_t)i};
		by_pid &= !i || pr[i - 1].key <= pr[i].key;
		at[r->key.comm_id]++;
	}
	struct pid_row *p = by_pid ? pr : radix_by_key(pr, pr + n, n);
	size_t nnames = 0;
	for (uint32_t id = 0; id < ncomm; id++) {
		if (!at[id])
			continue;
		const struct vmsa_comm *c = sum->comms.by_id[id];
		uint64_t h = 0;
		for (size_t j = 0; j < 8 && j < c->len; j++)
			h |= (uint64_t)(unsigned char)c->name[j] << (56 - 8 * j);
		names[nnames++] = (struct name_key){.head = h, .name = c->name,
						    .len = (uint32_t)c->len, .id = id};
	}
	qsort(names, nnames, sizeof(*names), name_cmp);
	size_t next = 0;
	for (size_t i = 0; i < nnames; i++) {
		size_t rows = at[names[i].id];
		at[names[i].id] = next;
		next += rows;
	}
	/* (with the rows in the order they were made before the sort: where
	 * each one was, for passes in that order; none when that fails) */
	free(sum->made_of);
	sum->made_of = NULL;
	if (made)
		sum->made_of = malloc(n * sizeof(*sum->made_of));
	for (size_t i = 0; i < n; i++) {
		size_t to = at[p[i].comm_id]++;
		sum->rows[to] = before[p[i].from];
		if (sum->made_of)
			sum->made_of[to] = p[i].from;
	}
	free(at);
	free(names);
	free(pr);
	if (!made)
		free(before);
	return 0;
}

void vmsa_summary_free(struct vmsa_summary *sum)
{
	if (!sum)
		return;
	free(sum->rows); /* (every row is a block's: shared, or the summary's own) */
	free(sum->rows_made);
	free(sum->made_of);
	for (size_t i = 0; i < sum->nblocks; i++)
		block_unref(sum->blocks[i]);
	free(sum->blocks);
	vmsa_comms_release(&sum->comms);
	free_sources(sum->sources, sum->nsources);
	vmsa_hist_release(&sum->stall_hist);
	vmsa_hist_release(&sum->awake_hist);
	vmsa_hist_release(&sum->memcg_hist);
	vmsa_timeline_release(&sum->timeline);
	free(sum);
}

struct vmsa_task_row *vmsa_summary_new_row(struct vmsa_summary *sum)
{
	struct vmsa_row_block *b = sum->own_block;
	if (!b || b->used == b->cap) {
		/* each block twice the one before, as the statistics' */
		if (vmsa_grow((void **)&sum->blocks, &sum->blocks_cap, sum->nblocks + 1,
			      sizeof(*sum->blocks), 4) ||
		    !(b = block_new(b ? b->cap * 2 : 0, NULL)))
			return NULL;
		b->summary_own = true;
		sum->blocks[sum->nblocks++] = b;
		sum->own_block = b;
	}
	struct vmsa_task_row *r = &b->rows[b->used++];
	r->block = b;
	row_init(r);
	return r;
}

struct vmsa_task_row *vmsa_summary_copy_row(struct vmsa_summary *sum, const struct vmsa_task_row *s)
{
	struct vmsa_task_row *d = vmsa_summary_new_row(sum);
	return d && !row_copy(d, s) ? d : NULL; /* (what it made: the block's, freed with it) */
}

/* Row i of the summary, its own to change (a copy if shared); NULL: out of memory. */
static struct vmsa_task_row *sum_own_row(struct vmsa_summary *sum, size_t i)
{
	struct vmsa_task_row *r = sum->rows[i];
	if (!r->block || r->block->summary_own)
		return r;
	struct vmsa_task_row *c = vmsa_summary_copy_row(sum, r);
	if (c)
		sum->rows[i] = c;
	return c;
}

/*
 * Fold "<...>" rows into the one named row of the same pid, if unique; 0 or
 * VMSA_E_NOMEM.  The named rows are sorted by pid once: a search of all rows
 * for each "<...>" row took minutes where tasks are many and the tracer's
 * name cache misses most of them (65,000 short-lived tasks, half of them
 * "<...>": 4.8 s, 0.09 s without).
 */
static int fold_placeholders(struct vmsa_summary *sum, uint32_t ph)
{
	size_t n = sum->nrows, nph = 0;
	for (size_t i = 0; i < n; i++)
		nph += sum->rows[i]->key.comm_id == ph;
	if (!nph || nph == n)
		return 0;
	if (n > UINT32_MAX)
		return VMSA_E_NOMEM;
	size_t m = 0;
	struct pid_row *pr = malloc(2 * (n - nph) * sizeof(*pr));
	if (!pr)
		return VMSA_E_NOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct vmsa_task_row *r = sum->rows[i];
		if (r->key.comm_id != ph)
			pr[m++] = (struct pid_row){(uint32_t)r->key.pid ^ 0x80000000u, r->key.comm_id,
						   (uint32_t)i};
	}
	const struct pid_row *named = radix_by_key(pr, pr + m, m);
	for (size_t i = 0; i < n; i++) {
		struct vmsa_task_row *r = sum->rows[i];
		if (r->key.comm_id == ph) {
			/* the named rows of its pid: [lo, hi) */
			uint32_t key = (uint32_t)r->key.pid ^ 0x80000000u;
			size_t lo = 0, hi = m;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (named[mid].key < key)
					lo = mid + 1;
				else
					hi = mid;
			}
			hi = lo;
			while (hi < m && named[hi].key == key && hi - lo < 2)
				hi++;
			struct vmsa_task_row *into =
				hi - lo == 1 ? sum_own_row(sum, named[lo].from) : NULL;
			if (into && vmsa_row_merge(into, r) == 0) {
				sum->rows[i] = NULL; /* (its block frees it) */
				sum->placeholder_rows_merged++;
			}
		}
	}
	free(pr);
	size_t out = 0;
	for (size_t i = 0; i < n; i++)
		if (sum->rows[i])
			sum->rows[out++] = sum->rows[i];
	sum->nrows = out;
	return 0;
}

static int merge_by_name(struct vmsa_summary *sum)
{
	size_t out = 0;
	for (size_t i = 0; i < sum->nrows; i++) {
		struct vmsa_task_row *r = sum->rows[i];
		size_t j;
		for (j = 0; j < out; j++)
			if (sum->rows[j]->key.comm_id == r->key.comm_id)
				break;
		if (j < out) {
			if (vmsa_row_merge(sum->rows[j], r))
				return VMSA_E_NOMEM;
			sum->rows[i] = NULL; /* (its block frees it) */
		} else {
			if (!(r = sum_own_row(sum, i)))
				return VMSA_E_NOMEM;
			if (r->key.pid != VMSA_PID_OTHER) /* it stays marked */
				r->key.pid = VMSA_PID_NONE;
			sum->rows[i] = NULL;
			sum->rows[out++] = r;
		}
	}
	sum->nrows = out;
	return 0;
}

static void add_ctx_totals(struct vmsa_ctx_totals *o, const struct vmsa_counters *k)
{
	o->reclaims += k->reclaims;
	o->reclaims_completed += k->completed;
	o->in_progress += k->in_progress;
	o->pages_scanned += vmsa_scanned(k);
	o->pages_scanned_file += k->scanned_file;
	o->pages_scanned_anon += k->scanned_anon;
	o->pages_reclaimed += vmsa_reclaimed(k);
	o->pages_reclaimed_file += k->reclaimed_file;
	o->pages_reclaimed_anon += k->reclaimed_anon;
	o->write_file_async += k->write[1][0];
	o->write_anon_async += k->write[0][0];
	o->write_file_sync += k->write[1][1];
	o->write_anon_sync += k->write[0][1];
	o->write_pages += k->write_pages;
	o->latency_ns += k->latency_ns;
	o->end_nr_reclaimed += k->end_nr_reclaimed;
	o->retries += k->retries;
}

static void compute_totals(struct vmsa_summary *sum)
{
	struct vmsa_totals *t = &sum->totals;
	memset(t, 0, sizeof(*t));
	struct vmsa_task_row all_rows, *all = &all_rows;
	struct vmsa_row_space space;
	vmsa_row_in(all, &space);
	for (size_t i = 0; i < sum->nrows; i++)
		vmsa_row_counters_add(all, sum->rows[i]); /* (nothing to make) */
	for (int c = 0; c < VMSA_CTX__COUNT; c++)
		add_ctx_totals(&t->ctx[c], vmsa_row_ctx(all, c));
	t->wakeup_kswapd = all->wakeup_kswapd;
	const struct vmsa_row_more *m = all->more;
	t->kswapd_wakeups = m->kswapd_wakeups;
	t->kswapd_rewakeups = m->kswapd_rewakeups;
	memcpy(t->throttled, m->throttled, sizeof(t->throttled));
	memcpy(t->throttled_usec, m->throttled_usec, sizeof(t->throttled_usec));
	t->unmatched_ends = m->unmatched_ends + m->kswapd_sleep_without_wake;
	t->unmatched_begins = m->unmatched_begins;
	memcpy(t->flusher_wakeups, m->flusher_wakeups, sizeof(t->flusher_wakeups));
	memcpy(t->flusher_dirty_pages, m->flusher_dirty_pages, sizeof(t->flusher_dirty_pages));
	memcpy(t->flusher_requested_pages, m->flusher_requested_pages,
	       sizeof(t->flusher_requested_pages));
	memcpy(t->reclaim_pages, m->reclaim_pages, sizeof(t->reclaim_pages));
	t->writeback_known = sum->writeback.seen;
	memcpy(t->writeback_passes, sum->writeback.passes, sizeof(t->writeback_passes));
	memcpy(t->writeback_pages, sum->writeback.pages, sizeof(t->writeback_pages));
	t->writeback_unpaired = sum->writeback.unpaired;
	t->tasks = sum->nrows;

	uint64_t sync_evidence = 0, modern = 0, isolates = sum->events_by_type[VMSA_EV_LRU_ISOLATE];
	for (size_t i = 0; i < sum->nsources; i++) {
		const struct vmsa_traits *tr = &sum->sources[i].traits;
		sync_evidence += tr->writes_with_sync_field + tr->writes_flag_sync;
		modern += tr->write_folio_events + tr->lines_with_lru_name;
		t->events_lost += sum->sources[i].counts.events_lost;
		t->lost_markers_without_count += sum->sources[i].counts.lost_markers_without_count;
		sum->writes_unknown |= tr->writes_rejected > 0;
	}
	/* reclaim writes have been async only since lumpy reclaim went (3.x) */
	t->sync_applicable = sync_evidence > 0 || modern == 0;
	uint64_t windows = t->ctx[VMSA_CTX_DIRECT].reclaims + t->ctx[VMSA_CTX_MEMCG].reclaims +
			   t->kswapd_wakeups;
	t->scans_missing = windows > 0 && isolates == 0;
	sum->reclaims_missing = windows > 0 && sum->events_by_type[VMSA_EV_SHRINK_INACTIVE] == 0;
	sum->slab_ends_missing = sum->events_by_type[VMSA_EV_SLAB_START] > 0 &&
				 sum->events_by_type[VMSA_EV_SLAB_END] == 0;
}

int vmsa_stats_overflowed(const struct vmsa_stats *st)
{
	return st->events >= st->events_limit ? VMSA_E_OVERFLOW : 0;
}

int vmsa_stats_summary(const struct vmsa_stats *st, struct vmsa_summary **out)
{
	*out = NULL;
	if (vmsa_stats_overflowed(st))
		return VMSA_E_OVERFLOW;
	struct vmsa_summary *sum = calloc(1, sizeof(*sum));
	if (!sum)
		return VMSA_E_NOMEM;
	/* the rows are shared, not copied: the summary holds their blocks */
	size_t n = st->nrows, nb = 0;
	for (const struct vmsa_row_block *b = st->blocks; b; b = b->next)
		nb++;
	sum->rows = malloc((n ? n : 1) * sizeof(*sum->rows));
	sum->blocks = malloc((nb ? nb : 1) * sizeof(*sum->blocks));
	sum->blocks_cap = nb ? nb : 1;
	if (!sum->rows || !sum->blocks || vmsa_comms_copy(&sum->comms, &st->comms))
		goto nomem;
	for (struct vmsa_row_block *b = st->blocks; b; b = b->next) {
		block_ref(b);
		sum->blocks[sum->nblocks++] = b;
	}
	for (size_t i = 0; i < n; i++) {
		struct vmsa_task_row *r = st->order[i];
		if (!r->shared)
			r->shared = true;
		sum->rows[i] = r;
	}
	sum->nrows = n;
	/* what is still open is reported as in progress, up to the last event,
	 * in rows of the summary's own */
	const struct task_state *t;
	PIDS_FOR_EACH(st, ti, t)
	{
		const struct vmsa_task_row *r = t->folded ? st->other : t->row;
		if (!r || (!t->nwin && !t->awake))
			continue;
		struct vmsa_task_row *c = sum_own_row(sum, row_idx_of(st, t));
		if (!c)
			goto nomem;
		for (int i = 0; i < t->nwin; i++) {
			struct vmsa_counters *w = vmsa_row_ctx_mut(c, t->win[i].ctx);
			if (!w)
				goto nomem;
			w->in_progress++;
			w->in_progress_ns +=
				st->last_ts > t->win[i].begin_ts ? st->last_ts - t->win[i].begin_ts : 0;
		}
		if (t->awake) {
			struct vmsa_counters *k = vmsa_row_ctx_mut(c, VMSA_CTX_KSWAPD);
			if (!k)
				goto nomem;
			k->in_progress++;
			k->in_progress_ns += st->last_ts > t->wake_ts ? st->last_ts - t->wake_ts : 0;
		}
	}
	if (fold_placeholders(sum, st->placeholder_id))
		goto nomem;
	sum->ignore_pid = st->opts.ignore_pid;
	if (sum->ignore_pid && merge_by_name(sum))
		goto nomem;

	if (st->nsources) {
		sum->sources = calloc(st->nsources, sizeof(*sum->sources));
		if (!sum->sources)
			goto nomem;
		for (size_t i = 0; i < st->nsources; i++) {
			sum->sources[i] = st->sources[i];
			sum->sources[i].name = strdup(st->sources[i].name);
			sum->sources[i].format = strdup(st->sources[i].format);
			sum->nsources++;
			if (!sum->sources[i].name || !sum->sources[i].format)
				goto nomem;
		}
	}
	if (vmsa_hist_copy(&sum->stall_hist, &st->stall) ||
	    vmsa_hist_copy(&sum->awake_hist, &st->awake) ||
	    vmsa_hist_copy(&sum->memcg_hist, &st->memcg) ||
	    vmsa_timeline_copy(&sum->timeline, &st->timeline))
		goto nomem;
	sum->first_ts_ns = st->first_ts;
	sum->last_ts_ns = st->last_ts;
	sum->have_ts = st->have_ts;
	sum->events = st->events;
	memcpy(sum->events_by_type, st->by_type, sizeof(sum->events_by_type));
	sum->writeback = st->wb;
	sum->negative_latencies = st->negative_latencies;
	sum->ends_without_reclaimed = st->ends_without_reclaimed;
	sum->comm_changes = st->comm_changes;
	sum->tasks_folded = st->tasks_folded;
	sum->isolations_counted = st->isolations_counted;
	sum->isolations_not_counted = st->isolations_not_counted;
	/* (before the sort: the rows in the order they were made, next to each
	 * other in memory, not in name order, which is all over it) */
	compute_totals(sum);
	sum->totals.tasks_folded = sum->tasks_folded;
	if (!sum->nsources) {
		sum->totals.events_lost = st->lost;
		sum->totals.lost_markers_without_count = st->lost_unsaid;
	}
	if (!(sum->rows_made = malloc((sum->nrows ? sum->nrows : 1) * sizeof(*sum->rows_made))))
		goto nomem;
	memcpy(sum->rows_made, sum->rows, sum->nrows * sizeof(*sum->rows));
	if (vmsa_summary_sort_rows(sum))
		goto nomem;
	*out = sum;
	return 0;
nomem:
	vmsa_summary_free(sum);
	return VMSA_E_NOMEM;
}

int vmsa_summary_totals_sized(const struct vmsa_summary *sum, struct vmsa_totals *out,
			      size_t out_size)
{
	return vmsa_abi_out(out, out_size, &sum->totals, sizeof sum->totals, VMSA_ABI_MIN_TOTALS);
}

const char *vmsa_summary_comm(const struct vmsa_summary *sum, const struct vmsa_task_row *row,
			      size_t *len)
{
	const struct vmsa_comm *c = sum->comms.by_id[row->key.comm_id];
	if (len)
		*len = c->len;
	return c->name;
}

const struct vmsa_task_row *vmsa_summary_find_task(const struct vmsa_summary *sum,
						   const char *comm, int32_t pid)
{
	size_t n = strlen(comm);
	for (size_t i = 0; i < sum->nrows; i++) {
		const struct vmsa_comm *c = sum->comms.by_id[sum->rows[i]->key.comm_id];
		if (sum->rows[i]->key.pid == pid && c->len == n && memcmp(c->name, comm, n) == 0)
			return sum->rows[i];
	}
	return NULL;
}

/* ---- interval deltas ------------------------------------------------ */

int vmsa_stats_new_like(const struct vmsa_stats *st, struct vmsa_stats **out)
{
	struct vmsa_stats_options o = st->opts;
	o.latency_cb = NULL;
	o.latency_record_cb = NULL;
	return vmsa_stats_new(out, &o);
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
	return (x > y) - (x < y);
}

static void hist_reset(struct vmsa_hist *h)
{
	unsigned bits = h->sub_bits;
	vmsa_hist_release(h);
	vmsa_hist_init(h, bits);
}

int vmsa_stats_restart(struct vmsa_stats *st)
{
	/* the rows a task still needs: an open window, kswapd awake, folded */
	void **keep = malloc((st->tasks.n ? st->tasks.n : 1) * sizeof(*keep));
	uint32_t *moved = malloc((st->nrows ? st->nrows : 1) * sizeof(*moved)); /* to where */
	if (!keep || !moved) {
		free(keep);
		free(moved);
		return VMSA_E_NOMEM;
	}
	size_t nkeep = 0;
	struct task_state *t;
	/* first what can fail: the kept rows made the statistics' own */
	PIDS_FOR_EACH(st, ti, t)
	{
		struct vmsa_task_row *r = t->folded ? st->other : t->row;
		if (r && (t->nwin || t->awake || t->folded)) {
			if (!(r = own_row(st, r, row_idx_of(st, t)))) {
				free(keep);
				free(moved);
				return VMSA_E_NOMEM;
			}
			t->row = r;
		}
	}
	PIDS_FOR_EACH(st, ti, t)
	{
		if (t->row && (t->nwin || t->awake || t->folded))
			keep[nkeep++] = t->row;
		else
			t->row = NULL; /* the task's next event makes its row again */
	}
	/* so do tasks at rest of no state (their rows' places change) */
	for (size_t i = 0; st->tasks.slot && i < ((size_t)1 << st->tasks.bits); i++)
		if (st->tasks.slot[i].ref >= REF_ROW && st->tasks.slot[i].ref < REF_FRESH)
			st->tasks.slot[i].ref = REF_FRESH;
	qsort(keep, nkeep, sizeof(*keep), ptr_cmp);
	size_t out = 0;
	for (size_t i = 0; i < st->nrows; i++) {
		struct vmsa_task_row *r = st->order[i];
		if (!bsearch(&r, keep, nkeep, sizeof(*keep), ptr_cmp)) {
			if (r == st->other)
				st->other = NULL;
			if (!r->shared)
				row_release(r);
			block_row_gone(st, r->block);
			continue;
		}
		/* (one row of a pid is kept at most: its task's) */
		st->pid_next[out] = (uint32_t)out;
		moved[i] = (uint32_t)out;
		st->order[out++] = r;
		/* (in place: a kept row's new parts would be cut from its
		 * block's chunks again at every restart) */
		row_counters_zero(r);
#define ZERO_ROW_COUNTER(member, dims) memset(&r->member, 0, sizeof(r->member));
		VMSA_ROW_COUNTERS(ZERO_ROW_COUNTER)
#undef ZERO_ROW_COUNTER
		hist_reset(&r->stall);
		if (r->more) {
			hist_reset(&r->more->awake);
			r->more->nlat = 0;
		}
	}
	free(keep);
	st->nrows = out;
	/* (the kept rows' places changed) */
	PIDS_FOR_EACH(st, ti, t)
	if (t->row && !t->folded)
		t->row_idx = moved[t->row_idx];
	if (st->other)
		st->other_idx = moved[st->other_idx];
	free(moved);
	free(st->long_rings.slot); /* (every ring is of one row) */
	st->long_rings = (struct long_rings){0};
	free_sources(st->sources, st->nsources);
	st->sources = NULL;
	st->nsources = 0;
	hist_reset(&st->stall);
	hist_reset(&st->awake);
	hist_reset(&st->memcg);
	vmsa_timeline_release(&st->timeline);
	memset(&st->timeline, 0, sizeof(st->timeline));
	st->first_ts = st->last_ts; /* last_ts stays: what is open is timed up to it */
	st->have_ts = false;
	st->events = st->lost = st->lost_unsaid = 0;
	st->big = 0;
	st->events_limit = UINT64_MAX;
	memset(st->by_type, 0, sizeof(st->by_type));
	/* (an interval without a pass wrote nothing, when the trace has them) */
	st->wb = (struct vmsa_writeback){.seen = st->wb.seen};
	st->negative_latencies = st->comm_changes = st->tasks_folded = 0;
	st->isolations_counted = st->isolations_not_counted = 0;
	return 0;
}
