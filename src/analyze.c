/* SPDX-License-Identifier: MIT */
/*
 * The analysis loop: inputs (files, standard input, live tracing) read into
 * the stats, with interim reports on request or every interval, progress
 * and the caller's say on when to stop.
 */
#include <errno.h>
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

/* One analysis: its options, the interval clock and how it ended. */
struct run {
	struct vmsa_stats *st;
	const struct vmsa_analyze_options *o;
	double next_report;
	struct vmsa_analyze_result res;
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

/*
 * After a look at the control callback: an interim report when asked for
 * or due; record_counts() first puts the input's counts into the stats.
 */
static int interim(struct run *r, int req, int (*record_counts)(struct run *r, void *in), void *in)
{
	bool due = r->o->interval_s > 0 && now_s() >= r->next_report;
	if (req != VMSA_ANALYZE_REPORT && !due)
		return 0;
	record_counts(r, in);
	int err = r->o->report ? r->o->report(r->st, r->o->payload) : 0;
	if (err)
		return fail(r, err, VMSA_ANALYZE_REPORTING, 0);
	if (due)
		r->next_report = now_s() + r->o->interval_s;
	return 0;
}

/* ---- files ------------------------------------------------------------ */

static int record_source(struct run *r, void *in)
{
	struct vmsa_source *src = in;
	return vmsa_stats_add_source(r->st, vmsa_source_name(src), vmsa_source_format(src),
				     vmsa_source_counts(src), vmsa_source_traits(src));
}

/* Where a file is, for the progress callback. */
struct progress {
	struct vmsa_analyze_progress p;
	double t0, next;
	bool on;
};

static void progress_start(struct progress *pg, const struct run *r, const char *path,
			   const struct vmsa_source *src)
{
	const struct vmsa_analyze_options *o = r->o;
	struct stat fst;
	pg->on = o->progress && strcmp(path, "-") && stat(path, &fst) == 0 &&
		 S_ISREG(fst.st_mode) && (uint64_t)fst.st_size > o->progress_min_bytes;
	pg->t0 = now_s();
	pg->next = pg->t0 + o->progress_every_s;
	pg->p = (struct vmsa_analyze_progress){.path = path,
					       .size = pg->on ? (uint64_t)fst.st_size : 0,
					       .counts = vmsa_source_counts(src),
					       .traits = vmsa_source_traits(src)};
}

static void progress_tell(struct progress *pg, const struct run *r, uint64_t events, bool done)
{
	if (!pg->on || (!done && now_s() < pg->next))
		return;
	pg->p.events = events;
	pg->p.elapsed_s = now_s() - pg->t0;
	pg->p.done = done;
	r->o->progress(&pg->p, r->o->payload);
	pg->next = now_s() + r->o->progress_every_s;
}

/* Reads one input to its end; 0, VMSA_ANALYZE_STOP (> 0) or an error. */
static int read_source(struct run *r, struct vmsa_source *src, const char *path)
{
	struct vmsa_stats *st = r->st;
	const volatile sig_atomic_t *attention = r->o->attention;
	sig_atomic_t seen = attention ? *attention : 0;
	struct progress pg;
	progress_start(&pg, r, path, src);
	uint64_t n = 0;
	int ret = 0;
	struct vmsa_event ev;
	for (;;) {
		int err = vmsa_source_next(src, &ev);
		if (err == 0) {
			err = vmsa_stats_add(st, &ev);
			if (err) {
				ret = fail(r, err, VMSA_ANALYZE_ADD, 0);
				break;
			}
			if ((++n & 4095) && (!attention || *attention == seen))
				continue;
		} else if (err == VMSA_E_EOF) {
			break;
		} else if (err != VMSA_E_AGAIN) {
			ret = fail(r, err, VMSA_ANALYZE_READ, errno);
			break;
		}
		if (attention)
			seen = *attention;
		int req = ask(r);
		if (req == VMSA_ANALYZE_STOP) {
			ret = VMSA_ANALYZE_STOP;
			break;
		}
		progress_tell(&pg, r, n, false);
		if ((ret = interim(r, req, record_source, src)))
			break;
	}
	progress_tell(&pg, r, n, true);
	return ret;
}

int vmsa_analyze_files(struct vmsa_stats *st, const char *const *paths, int n,
		       const struct vmsa_analyze_options *opts, struct vmsa_analyze_result *res)
{
	struct run r = {.st = st, .o = opts ? opts : &no_options};
	r.res.input = -1;
	int ret = 0;
	for (int i = 0; i < n && !ret; i++) {
		r.res.input = i;
		r.res.format = NULL;
		struct vmsa_source *src;
		int err = vmsa_source_open_path(&src, paths[i]);
		if (err) {
			ret = fail(&r, err, VMSA_ANALYZE_OPEN, errno);
			break;
		}
		vmsa_source_set_reject_cb(src, r.o->reject_cb, r.o->reject_payload);
		vmsa_source_set_threads(src, r.o->threads);
		if (r.o->interval_s > 0) {
			vmsa_source_set_poll_timeout(src, 100);
			r.next_report = now_s() + r.o->interval_s;
		}
		ret = read_source(&r, src, paths[i]);
		r.res.format = vmsa_source_format(src);
		err = record_source(&r, src);
		if (err && (!ret || ret == VMSA_ANALYZE_STOP))
			ret = fail(&r, err, VMSA_ANALYZE_ADD, 0);
		if (!ret && r.o->input_end)
			r.o->input_end(paths[i], vmsa_source_counts(src), vmsa_source_traits(src),
				       r.o->payload);
		vmsa_source_close(src);
	}
	if (ret == VMSA_ANALYZE_STOP) {
		r.res.stopped = 1;
		ret = 0;
	}
	if (res)
		*res = r.res;
	return ret;
}

/* ---- live ------------------------------------------------------------- */

static int record_live(struct run *r, void *in)
{
	struct vmsa_live *lv = in;
	return vmsa_stats_add_source(r->st, vmsa_live_name(lv), "live", vmsa_live_counts(lv),
				     vmsa_live_traits(lv));
}

/* The drain callback: one event into the stats, its error kept. */
struct live_feed {
	struct vmsa_stats *st;
	int err;
};

static int feed_live(const struct vmsa_event *ev, void *payload)
{
	struct live_feed *f = payload;
	f->err = vmsa_stats_add(f->st, ev);
	return f->err;
}

/* Drains what the buffers hold; 0 or the error, placed in r->res. */
static int drain(struct run *r, struct vmsa_live *lv)
{
	struct live_feed f = {.st = r->st};
	int err = vmsa_live_drain(lv, feed_live, &f);
	if (f.err)
		return fail(r, f.err, VMSA_ANALYZE_ADD, 0);
	return err ? fail(r, err, VMSA_ANALYZE_READ, errno) : 0;
}

int vmsa_analyze_live(struct vmsa_stats *st, const struct vmsa_live_options *lopts,
		      double duration_s, const struct vmsa_analyze_options *opts,
		      struct vmsa_analyze_result *res)
{
	struct run r = {.st = st, .o = opts ? opts : &no_options};
	r.res.input = -1;
	r.res.format = "live";
	struct vmsa_live *lv;
	int ret = vmsa_live_open(&lv, lopts);
	if (ret) {
		fail(&r, ret, VMSA_ANALYZE_OPEN, 0);
		r.res.format = NULL;
		if (res)
			*res = r.res;
		return ret;
	}
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
	record_live(&r, lv);
	vmsa_live_close(lv);
	if (res)
		*res = r.res;
	return ret;
}
