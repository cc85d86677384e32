/* SPDX-License-Identifier: MIT */
/*
 * The analysis loop: inputs (files, standard input, live tracing) read into
 * the stats, with interim reports on request or every interval, progress
 * and the caller's say on when to stop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "internal.h"

static const struct vmsa_analyze_options no_options;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What the loop keeps of one input while it is read. */
struct input_state {
	uint64_t filtered;	/* events the filter left out */
	/* lost-event markers it left out (--instance: another buffer's), and
	 * the events they said were lost, or that they said no number */
	uint64_t filtered_lost_markers, filtered_lost, filtered_lost_unsaid;
	/* with interval deltas: its counts (filtered_counts()) when the interval began */
	struct vmsa_source_counts mark;
};

struct group;

/* One analysis: its options, the interval clock and how it ended. */
struct run {
	struct vmsa_stats *st;
	const struct vmsa_analyze_options *o;
	double next_report;
	struct vmsa_analyze_result res;
	/* interval deltas (interval_report): the interval's own statistics */
	struct vmsa_stats *delta;
	struct vmsa_interval iv;
	/* the inputs being read: a group of files, or live tracing (one) */
	struct group *g;
	struct vmsa_live *lv;
	struct input_state live;
};

static int fail(struct run *r, int err, enum vmsa_analyze_stage stage, int sys_errno)
{
	r->res.err = err;
	r->res.stage = stage;
	r->res.sys_errno = sys_errno;
	return err;
}

static int ask(const struct run *r)
{
	return r->o->control ? r->o->control(r->o->payload) : VMSA_ANALYZE_GO_ON;
}

/* The filter's verdict on ev: true to fold it in; false counts it as filtered. */
static inline bool keep(const struct run *r, struct input_state *is, const struct vmsa_event *ev)
{
	if (!r->o->filter || vmsa_filter_keeps(r->o->filter, ev))
		return true;
	if (ev->type == VMSA_EV_LOST) {
		is->filtered_lost_markers++;
		is->filtered_lost += ev->lost;
		is->filtered_lost_unsaid += !ev->lost;
	} else {
		is->filtered++;
	}
	return false;
}

static uint64_t at_most(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* An input's counts with the events the filter left out moved from
 * analyzed to filtered (a decoder thread's counts may lag its events). */
static struct vmsa_source_counts filtered_counts(const struct input_state *is,
						 const struct vmsa_source_counts *c)
{
	struct vmsa_source_counts k = *c;
	k.lines_filtered = at_most(is->filtered, k.lines_analyzed);
	k.lines_analyzed -= k.lines_filtered;
	/* a marker of a buffer left out: filtered, its losses not this analysis' */
	uint64_t markers = at_most(is->filtered_lost_markers, k.lines_lost_markers);
	k.lines_lost_markers -= markers;
	k.lines_filtered += markers;
	k.events_lost -= at_most(is->filtered_lost, k.events_lost);
	k.lost_markers_without_count -= at_most(is->filtered_lost_unsaid,
						k.lost_markers_without_count);
	return k;
}

/* Interval deltas: one vmsa_stats_add() for both statistics. */
static int add_event(struct run *r, const struct vmsa_event *ev)
{
	int err = vmsa_stats_add(r->st, ev);
	return err || !r->delta ? err : vmsa_stats_add(r->delta, ev);
}

static int deltas_start(struct run *r)
{
	if (!(r->o->interval_s > 0 && r->o->interval_report))
		return 0;
	int err = vmsa_stats_new_like(r->st, &r->delta);
	if (err)
		return fail(r, err, VMSA_ANALYZE_ADD, 0);
	r->iv = (struct vmsa_interval){.index = 1, .wall_start_s = wall_s()};
	return 0;
}

/* An input's counts into the stats, and what it read in this interval into the delta. */
static int record_counts(struct run *r, struct input_state *is, const char *name,
			 const char *format, const struct vmsa_source_counts *raw,
			 const struct vmsa_traits *traits)
{
	struct vmsa_source_counts kf = filtered_counts(is, raw);
	const struct vmsa_source_counts *k = &kf;
	struct vmsa_traits kept;
	if (vmsa_filter_selects_buffers(r->o->filter)) {
		/* the buffers analyzed: those the filter keeps (every buffer's
		 * events and markers are in lines_read all the same) */
		kept = *traits;
		if (!vmsa_filter_keeps_buffer(r->o->filter, NULL, 0))
			kept.top_buffer_events = 0;
		memset(kept.instance_events, 0, sizeof(kept.instance_events));
		for (int i = 0; i < VMSA_NAME_COUNTS; i++) {
			const struct vmsa_name_count *c = &traits->instance_events[i];
			if (c->name[0] && vmsa_filter_keeps_buffer(r->o->filter, c->name,
								   strlen(c->name)))
				vmsa_instance_count_add(kept.instance_events, c->name,
							strlen(c->name), c->count);
		}
		traits = &kept;
	}
	int err = vmsa_stats_add_source(r->st, name, format, k, traits);
	if (err || !r->delta)
		return err;
	_Static_assert(sizeof(*k) % sizeof(uint64_t) == 0, "counts are 64-bit counters");
	struct vmsa_source_counts d;
	const uint64_t *now = (const uint64_t *)(const void *)k;
	const uint64_t *then = (const uint64_t *)(const void *)&is->mark;
	uint64_t *out = (uint64_t *)(void *)&d;
	for (size_t i = 0; i < sizeof(d) / sizeof(uint64_t); i++)
		out[i] = now[i] - then[i];
	return vmsa_stats_add_source(r->delta, name, format, &d, traits);
}

static void remark(struct run *r);

/* The interval's report, then the next interval. */
static int interval_end(struct run *r, bool final)
{
	r->iv.final = final;
	r->iv.wall_end_s = wall_s();
	int err = r->o->interval_report(r->delta, r->st, &r->iv, r->o->payload);
	if (err)
		return fail(r, err, VMSA_ANALYZE_REPORTING, 0);
	if ((err = vmsa_stats_restart(r->delta)))
		return fail(r, err, VMSA_ANALYZE_ADD, 0);
	if (!final)
		remark(r);
	r->iv.index++;
	r->iv.wall_start_s = r->iv.wall_end_s;
	return 0;
}

/*
 * After a look at the control callback: an interim report when asked for
 * or due; record() first puts the input's counts into the stats.
 */
static int interim(struct run *r, int req, int (*record)(struct run *r, void *in), void *in)
{
	bool due = r->o->interval_s > 0 && now_s() >= r->next_report;
	if (req != VMSA_ANALYZE_REPORT && !due)
		return 0;
	int err = record(r, in);
	if (err)
		return fail(r, err, VMSA_ANALYZE_ADD, 0);
	if (req == VMSA_ANALYZE_REPORT || !r->delta) {
		err = r->o->report ? r->o->report(r->st, r->o->payload) : 0;
		if (err)
			return fail(r, err, VMSA_ANALYZE_REPORTING, 0);
	}
	if (due && r->delta && (err = interval_end(r, false)))
		return err;
	if (due)
		r->next_report = now_s() + r->o->interval_s;
	return 0;
}

/* ---- files ------------------------------------------------------------ */

/*
 * Inputs read as one trace: one source, or several text sources merged in
 * timestamp order (a trace.dat is always read alone).
 */
struct group {
	struct vmsa_source **src;
	const char *const *paths;
	int first, n;		/* paths[0] is input number first */
	struct vmsa_interleave *merge; /* n > 1 */
	struct input_state *is;	/* one per source */
	bool cut;		/* the analysis stopped while reading it */
};

static int record_group(struct run *r, void *in)
{
	struct group *g = in;
	int err = 0;
	for (int i = 0; i < g->n && !err && g->src[i]; i++) {
		const struct vmsa_traits *t = vmsa_source_traits(g->src[i]);
		struct vmsa_traits cut;
		/* an input stopped before its end: a file, and a pipe or a
		 * terminal too, whose writer had not said it was done (a CI
		 * job's SIGTERM cuts a pipe's trace as much as a file's) */
		if (g->cut) {
			cut = *t;
			cut.stopped_before_end = 1;
			t = &cut;
		}
		err = record_counts(r, &g->is[i], vmsa_source_name(g->src[i]),
				    vmsa_source_format(g->src[i]), vmsa_source_counts(g->src[i]), t);
	}
	return err;
}

/* Each input's counts as an interval begins. */
static void remark(struct run *r)
{
	if (r->lv) {
		r->live.mark = filtered_counts(&r->live, vmsa_live_counts(r->lv));
		return;
	}
	for (int i = 0; r->g && i < r->g->n && r->g->src[i]; i++)
		r->g->is[i].mark = filtered_counts(&r->g->is[i], vmsa_source_counts(r->g->src[i]));
}

/* Where the inputs are, for the progress callback. */
struct progress {
	struct vmsa_analyze_progress p;
	double t0, next;
	bool on;
	const struct group *g;
	struct vmsa_source_counts sum; /* of a group's sources */
	struct vmsa_traits traits;
	char path[512];
};

static void progress_start(struct progress *pg, const struct run *r, const struct group *g)
{
	const struct vmsa_analyze_options *o = r->o;
	uint64_t size = 0;
	bool files = o->progress != NULL;
	for (int i = 0; i < g->n && files; i++) {
		struct stat fst;
		files = strcmp(g->paths[i], "-") && stat(g->paths[i], &fst) == 0 &&
			S_ISREG(fst.st_mode);
		size += files ? (uint64_t)fst.st_size : 0;
	}
	pg->on = files && size > o->progress_min_bytes;
	pg->t0 = now_s();
	pg->next = pg->t0 + o->progress_every_s;
	pg->g = g;
	pg->p = (struct vmsa_analyze_progress){.path = g->paths[0],
					       .size = pg->on ? size : 0,
					       .counts = vmsa_source_counts(g->src[0]),
					       .traits = vmsa_source_traits(g->src[0])};
	if (g->n > 1) {
		snprintf(pg->path, sizeof(pg->path), "%s and %d more", g->paths[0], g->n - 1);
		memset(&pg->traits, 0, sizeof(pg->traits));
		pg->p.path = pg->path;
		pg->p.counts = &pg->sum;
		pg->p.traits = &pg->traits;
	}
}

static void progress_tell(struct progress *pg, const struct run *r, uint64_t events, bool done)
{
	if (!pg->on || (!done && now_s() < pg->next))
		return;
	if (pg->g->n > 1) {
		/* the group's counts; bytes of the files as they lie on disk */
		memset(&pg->sum, 0, sizeof(pg->sum));
		for (int i = 0; i < pg->g->n; i++) {
			const struct vmsa_traits *t = vmsa_source_traits(pg->g->src[i]);
			vmsa_counts_add(&pg->sum, vmsa_source_counts(pg->g->src[i]));
			if (t->compression)
				pg->sum.bytes_read += t->compressed_bytes -
						      vmsa_source_counts(pg->g->src[i])->bytes_read;
		}
	}
	pg->p.events = events;
	pg->p.elapsed_s = now_s() - pg->t0;
	pg->p.done = done;
	r->o->progress(&pg->p, r->o->payload);
	pg->next = now_s() + r->o->progress_every_s;
}

/*
 * Reads a group to its end; 0, VMSA_ANALYZE_STOP (> 0) or an error.
 * Made twice (read_group()): with deltas, every event goes to the
 * interval's statistics too; without, the loop has no test for it.
 */
static inline __attribute__((always_inline)) int read_events(struct run *r, struct group *g,
							       bool deltas, bool merged)
{
	const struct vmsa_filter *filter = r->o->filter;
	struct vmsa_stats *st = r->st;
	const volatile sig_atomic_t *attention = r->o->attention;
	sig_atomic_t seen = attention ? *attention : 0;
	struct progress pg;
	progress_start(&pg, r, g);
	uint64_t n = 0;
	int ret = 0;
	struct vmsa_event ev;
	const struct vmsa_event *e = &ev; /* a merge's points to its own */
	bool hint = false;
	bool due = false; /* the checks below wait for the events decoded ahead */
	/* a signal that came before the reading began (while the inputs were
	 * opened) is answered first: it is in seen, and a read that blocks
	 * (a pipe whose writer waits) would never give the loop a look */
	if (attention && *attention) {
		int req = ask(r);
		ret = req == VMSA_ANALYZE_STOP ? VMSA_ANALYZE_STOP : interim(r, req, record_group, g);
		if (ret) {
			progress_tell(&pg, r, n, true);
			return ret;
		}
	}
	for (;;) {
		int which = 0;
		int err = !merged ? vmsa_source_next_ref(g->src[0], &ev, &e)
				  : vmsa_interleave_next(g->merge, &e, &which);
		if (err == 0) {
			if (hint) {
				int32_t p = vmsa_source_peek_pid(g->src[0]);
				if (p >= 0)
					vmsa_stats_prefetch_pid(st, p);
			}
			if (!filter || keep(r, &g->is[which], e)) {
				err = vmsa_stats_add(st, e);
				if (deltas && !err)
					err = vmsa_stats_add(r->delta, e);
			}
			if (err) {
				ret = fail(r, err, VMSA_ANALYZE_ADD, 0);
				break;
			}
			if ((++n & 4095) && (!attention || *attention == seen) && !due)
				continue;
			if ((err = vmsa_stats_overflowed(st))) {
				ret = fail(r, err, VMSA_ANALYZE_ADD, 0);
				break;
			}
			/* (they are counted as analyzed: a report or a stop
			 * before they are added would miss them) */
			if (!merged && vmsa_source_pending(g->src[0])) {
				due = true;
				continue;
			}
			due = false;
		} else if (err == VMSA_E_EOF) {
			break;
		} else if (err != VMSA_E_AGAIN) {
			ret = fail(r, err, VMSA_ANALYZE_READ, errno);
			r->res.input = g->first + which;
			r->res.why = vmsa_source_stream_error(g->src[which], &r->res.offset);
			break;
		}
		if (attention)
			seen = *attention;
		/* (reading one text, its next line's pid: a hint for the task table) */
		hint = !merged && vmsa_stats_wants_pid_hints(st);
		/* (thousands of tasks: events several at a time) */
		if (!merged)
			vmsa_source_set_lookahead(g->src[0], vmsa_stats_wants_lookahead(st) ? 16 : 1);
		int req = ask(r);
		if (req == VMSA_ANALYZE_STOP) {
			ret = VMSA_ANALYZE_STOP;
			break;
		}
		progress_tell(&pg, r, n, false);
		if ((ret = interim(r, req, record_group, g)))
			break;
	}
	progress_tell(&pg, r, n, true);
	return ret;
}

static int read_group(struct run *r, struct group *g)
{
	if (g->n > 1)
		return r->delta ? read_events(r, g, true, true) : read_events(r, g, false, true);
	return r->delta ? read_events(r, g, true, false) : read_events(r, g, false, false);
}

/* How many of the n inputs at paths are read together: a trace.dat alone, else the text up to one. */
static int group_len(const char *const *paths, int n)
{
	if (n == 1 || vmsa_input_is_tracedat(paths[0]))
		return 1;
	int k = 1;
	while (k < n && !vmsa_input_is_tracedat(paths[k]))
		k++;
	return k;
}

static int open_group(struct run *r, struct group *g)
{
	/* the threads asked for are shared by the group's files; auto (0)
	 * leaves each file of a group to one thread */
	int threads = r->o->threads;
	if (g->n > 1)
		threads = threads > g->n ? threads / g->n : 1;
	for (int i = 0; i < g->n; i++) {
		r->res.input = g->first + i;
		struct vmsa_open_options oo = {.tracedat_reader = r->o->tracedat_reader};
		int err = vmsa_source_open_path_with(&g->src[i], g->paths[i], &oo);
		if (err)
			return fail(r, err, VMSA_ANALYZE_OPEN, errno);
		vmsa_source_set_reject_cb(g->src[i], r->o->reject_cb, r->o->reject_payload);
		vmsa_source_set_threads(g->src[i], threads);
		vmsa_source_set_unwrap(g->src[i], r->o->unwrap);
		/* a trace.dat is read alone: one that could not be told from
		 * text before reading (standard input, a pipe) is refused among
		 * text files merged with it */
		if (g->n > 1)
			vmsa_source_no_spill(g->src[i]);
		if (r->o->interval_s > 0)
			vmsa_source_set_poll_timeout(g->src[i], 100);
	}
	if (r->o->interval_s > 0)
		r->next_report = now_s() + r->o->interval_s;
	if (g->n > 1) {
		int err = vmsa_interleave_new(&g->merge, g->src, g->n);
		if (err)
			return fail(r, err, VMSA_ANALYZE_OPEN, 0);
	}
	return 0;
}

/* The group's counts into the stats (and the caller told of each input); closed. */
static int close_group(struct run *r, struct group *g, int ret)
{
	if (g->src[0]) {
		if (r->res.input >= g->first && r->res.input < g->first + g->n &&
		    g->src[r->res.input - g->first])
			r->res.format = vmsa_source_format(g->src[r->res.input - g->first]);
		int err = ret && ret != VMSA_ANALYZE_STOP && r->res.stage == VMSA_ANALYZE_OPEN
				  ? 0
				  : record_group(r, g);
		if (err && (!ret || ret == VMSA_ANALYZE_STOP))
			ret = fail(r, err, VMSA_ANALYZE_ADD, 0);
	}
	for (int i = 0; i < g->n && g->src[i]; i++) {
		if (!ret && r->o->input_end)
			r->o->input_end(g->paths[i], vmsa_source_counts(g->src[i]),
					vmsa_source_traits(g->src[i]), r->o->payload);
		vmsa_source_close(g->src[i]);
	}
	vmsa_interleave_free(g->merge);
	return ret;
}

int vmsa_analyze_files_sized(struct vmsa_stats *st, const char *const *paths, int n,
			     const struct vmsa_analyze_options *opts, size_t opts_size,
			     struct vmsa_analyze_result *res, size_t res_size)
{
	struct vmsa_analyze_options o;
	if ((opts && vmsa_abi_in(&o, sizeof o, opts, opts_size, VMSA_ABI_MIN_ANALYZE_OPTIONS)) ||
	    (res && res_size < VMSA_ABI_MIN_ANALYZE_RESULT))
		return VMSA_E_INVAL;
	struct run r = {.st = st, .o = opts ? &o : &no_options};
	r.res.input = -1;
	int ret = deltas_start(&r);
	struct vmsa_source **src = n > 0 ? calloc((size_t)n, sizeof(*src)) : NULL;
	struct input_state *is = n > 0 ? calloc((size_t)n, sizeof(*is)) : NULL;
	if (n > 0 && (!src || !is) && !ret)
		ret = fail(&r, VMSA_E_NOMEM, VMSA_ANALYZE_OPEN, 0);
	for (int i = 0; i < n && !ret;) {
		struct group g = {.src = src + i, .paths = paths + i, .first = i, .is = is + i};
		g.n = group_len(g.paths, n - i);
		r.res.format = NULL;
		r.g = &g;
		ret = open_group(&r, &g);
		if (!ret) {
			ret = read_group(&r, &g);
			if (!ret || ret == VMSA_ANALYZE_STOP)
				r.res.input = i + g.n - 1;
			g.cut = ret == VMSA_ANALYZE_STOP;
		}
		ret = close_group(&r, &g, ret);
		r.g = NULL;
		i += g.n;
	}
	free(src);
	free(is);
	if (ret == VMSA_ANALYZE_STOP) {
		r.res.stopped = 1;
		ret = 0;
	}
	if (!ret && r.delta)
		ret = interval_end(&r, true);
	vmsa_stats_free(r.delta);
	if (res)
		vmsa_abi_out(res, res_size, &r.res, sizeof r.res, VMSA_ABI_MIN_ANALYZE_RESULT);
	return ret;
}

/* ---- live ------------------------------------------------------------- */

static int record_live(struct run *r, void *in)
{
	struct vmsa_live *lv = in;
	return record_counts(r, &r->live, vmsa_live_name(lv), "live", vmsa_live_counts(lv),
			     vmsa_live_traits(lv));
}

/* The drain callback: one event into the stats, its error kept. */
struct live_feed {
	struct run *r;
	struct vmsa_cgroups *cgroups;	/* each event's task noted, or NULL */
	int err;
};

static int feed_live(const struct vmsa_event *ev, void *payload)
{
	struct live_feed *f = payload;
	if (!keep(f->r, &f->r->live, ev))
		return f->err = 0;
	if (f->cgroups && ev->type != VMSA_EV_LOST &&
	    (f->err = vmsa_cgroups_note(f->cgroups, ev->pid, ev->comm, ev->comm_len)))
		return f->err;
	f->err = add_event(f->r, ev);
	return f->err;
}

/* Drains what the buffers hold; 0 or the error, placed in r->res. */
static int drain(struct run *r, struct vmsa_live *lv)
{
	struct live_feed f = {.r = r, .cgroups = r->o->cgroups};
	int err = vmsa_live_drain(lv, feed_live, &f);
	if (f.err)
		return fail(r, f.err, VMSA_ANALYZE_ADD, 0);
	return err ? fail(r, err, VMSA_ANALYZE_READ, errno) : 0;
}

int vmsa_analyze_live_sized(struct vmsa_stats *st, const struct vmsa_live_options *lopts,
			    size_t lopts_size, double duration_s,
			    const struct vmsa_analyze_options *opts, size_t opts_size,
			    struct vmsa_analyze_result *res, size_t res_size)
{
	struct vmsa_analyze_options o;
	struct vmsa_live_options lo;
	if ((opts && vmsa_abi_in(&o, sizeof o, opts, opts_size, VMSA_ABI_MIN_ANALYZE_OPTIONS)) ||
	    (lopts && vmsa_abi_in(&lo, sizeof lo, lopts, lopts_size, VMSA_ABI_MIN_LIVE_OPTIONS)) ||
	    (res && res_size < VMSA_ABI_MIN_ANALYZE_RESULT))
		return VMSA_E_INVAL;
	if (lopts)
		lopts = &lo;
	struct run r = {.st = st, .o = opts ? &o : &no_options};
	r.res.input = -1;
	r.res.format = "live";
	struct vmsa_live *lv = NULL;
	int ret = deltas_start(&r);
	if (!ret && (ret = vmsa_live_open(&lv, lopts)))
		fail(&r, ret, VMSA_ANALYZE_OPEN, 0);
	if (ret) {
		vmsa_stats_free(r.delta);
		r.res.format = NULL;
		if (res)
			vmsa_abi_out(res, res_size, &r.res, sizeof r.res,
				     VMSA_ABI_MIN_ANALYZE_RESULT);
		return ret;
	}
	r.lv = lv;
	double start = now_s();
	r.next_report = start + r.o->interval_s;
	for (;;) {
		if ((ret = drain(&r, lv)))
			break;
		int req = ask(&r);
		if (req == VMSA_ANALYZE_STOP) {
			r.res.stopped = 1;
			break;
		}
		if (duration_s > 0 && now_s() - start >= duration_s)
			break;
		if ((ret = interim(&r, req, record_live, lv)))
			break;
		nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
	}
	vmsa_live_stop(lv);
	struct vmsa_analyze_result first = r.res;
	int err = drain(&r, lv);
	if (ret)
		r.res = first; /* the first error is the one told */
	else
		ret = err;
	int rerr = record_live(&r, lv);
	if (!ret && rerr)
		ret = fail(&r, rerr, VMSA_ANALYZE_ADD, 0);
	if (!ret && r.delta)
		ret = interval_end(&r, true);
	vmsa_stats_free(r.delta);
	vmsa_live_close(lv);
	if (res)
		vmsa_abi_out(res, res_size, &r.res, sizeof r.res, VMSA_ABI_MIN_ANALYZE_RESULT);
	return ret;
}
