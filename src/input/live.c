/* SPDX-License-Identifier: MIT */
/*
 * Live input from tracefs through libtracefs, decoded by binary.c.
 *
 * Raw reads are not globally time-ordered: a record committed late on one
 * CPU can be read after another CPU's later records (seen in QEMU: a
 * reclaim's end read before its begin; in one CI run a vCPU's records more
 * than 250 ms late, in another more than 1 s).  Decoded events are therefore
 * held back for VMSA_LIVE_HOLD_NS of trace time and handed out in timestamp
 * order; a record that comes later still (counted as late) doubles the hold
 * until it would have waited for it twice over, up to VMSA_LIVE_HOLD_MAX_NS:
 * a loaded machine's late CPU is late again.  At the end (events disabled)
 * everything left is handed out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../internal.h"
#include "input.h"

struct pending {
	struct vmsa_event ev; /* its comm interned in the queue's names */
	uint64_t seq;
};

struct vmsa_live {
	struct vmsa_dl_tracefs fs;	/* libtracefs (libtraceevent: dec.dl) */
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	char name[64];
	struct vmsa_bin_decoder dec;
	struct vmsa_source_counts counts;
	struct vmsa_traits traits;
	bool enabled;
	struct vmsa_live_queue q;	/* decoded, not yet handed out */
	int err;
};

int vmsa_live_open_sized(struct vmsa_live **out, const struct vmsa_live_options *opts,
			 size_t opts_size)
{
	*out = NULL;
	struct vmsa_live_options o;
	if (opts && vmsa_abi_in(&o, sizeof o, opts, opts_size, VMSA_ABI_MIN_LIVE_OPTIONS))
		return VMSA_E_INVAL;
	if (opts)
		opts = &o;
	struct vmsa_live *lv = calloc(1, sizeof(*lv));
	if (!lv)
		return VMSA_E_NOMEM;
	int err = vmsa_bin_decoder_init(&lv->dec, &lv->counts, &lv->traits);
	if (!err)
		err = vmsa_dl_open_tracefs(&lv->fs);
	if (err)
		goto fail;
	/* libtracefs mounts tracefs when it can (as root); a user cannot */
	if (!lv->fs.tracefs_tracing_dir()) {
		err = geteuid() ? VMSA_E_PERM : VMSA_E_NOTRACEFS;
		goto fail;
	}
	snprintf(lv->name, sizeof(lv->name), "vmscan-analyze-%d", (int)getpid());
	errno = 0;
	lv->inst = lv->fs.tracefs_instance_create(lv->name);
	if (!lv->inst) {
		int e = errno;
		err = e == EACCES || e == EPERM || e == EROFS ? VMSA_E_PERM : VMSA_E_IO;
		goto fail;
	}
	err = VMSA_E_IO;
	if (opts && opts->buffer_kb &&
	    lv->fs.tracefs_instance_set_buffer_size(lv->inst, opts->buffer_kb, -1) < 0)
		goto fail;
	const char *const systems[] = {"vmscan", "writeback", NULL};
	lv->tep = lv->fs.tracefs_local_events_system(NULL, systems);
	if (!lv->tep)
		goto fail;
	if (lv->fs.tracefs_event_enable(lv->inst, "vmscan", NULL) < 0) {
		err = errno == EACCES || errno == EPERM ? VMSA_E_PERM : VMSA_E_IO;
		goto fail;
	}
	lv->enabled = true;
	/* what the flushers write (totals.flusher_writeback), where the kernel
	 * has the events; without them those counts are unknown */
	lv->fs.tracefs_event_enable(lv->inst, "writeback", "^writeback_start$");
	lv->fs.tracefs_event_enable(lv->inst, "writeback", "^writeback_written$");
	lv->fs.tracefs_trace_on(lv->inst);
	lv->traits.timestamps_ns_precision = 1;
	char *clock = lv->fs.tracefs_get_clock(lv->inst);
	if (clock) {
		snprintf(lv->traits.clock, sizeof(lv->traits.clock), "%s", clock);
		free(clock);
	}
	*out = lv;
	return 0;
fail:
	vmsa_live_close(lv);
	return err;
}

static int on_record(struct tep_event *e, struct tep_record *r, int cpu, void *ctx)
{
	(void)e;
	(void)cpu;
	struct vmsa_live *lv = ctx;
	struct vmsa_event ev;
	enum vmsa_reject_reason why;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0) {
			if (!r->missed_events)
				continue;
			vmsa_bin_lost(&lv->dec, r, &ev);
		} else {
			lv->counts.lines_read++;
			lv->counts.bytes_read += (uint64_t)(r->record_size > 0 ? r->record_size : 0);
			if (vmsa_bin_decode(&lv->dec, lv->tep, r, &ev, &why) != VMSA_BIN_EVENT)
				continue;
		}
		if (vmsa_live_queue_push(&lv->q, &ev)) {
			lv->err = VMSA_E_NOMEM;
			return 1;
		}
	}
	return 0;
}

int vmsa_live_queue_push(struct vmsa_live_queue *q, const struct vmsa_event *ev)
{
	if (vmsa_grow((void **)&q->pend, &q->cap, q->npend + 1, sizeof(*q->pend), 1024))
		return VMSA_E_NOMEM;
	/* (the name interned: records held for up to 16 s of a busy machine
	 * kept 256 bytes of name each) */
	size_t n = !ev->comm ? 0 : ev->comm_len < VMSA_COMM_MAX ? ev->comm_len : VMSA_COMM_MAX;
	uint32_t id;
	if (n && ((!q->names && !(q->names = calloc(1, sizeof(*q->names)))) ||
		  vmsa_comms_intern(q->names, ev->comm, n, &id)))
		return VMSA_E_NOMEM;
	struct pending *p = &q->pend[q->npend++];
	p->ev = *ev;
	p->seq = q->seq++;
	p->ev.comm = n ? q->names->by_id[id]->name : "";
	p->ev.comm_len = n;
	if (ev->ts_ns > q->max_ts)
		q->max_ts = ev->ts_ns;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;
	if (x->ev.ts_ns != y->ev.ts_ns)
		return x->ev.ts_ns < y->ev.ts_ns ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

int vmsa_live_drain(struct vmsa_live *lv, vmsa_event_cb cb, void *payload)
{
	lv->fs.tracefs_load_cmdlines(NULL, lv->tep);
	lv->err = 0;
	if (lv->fs.tracefs_iterate_raw_events(lv->tep, lv->inst, NULL, 0, on_record, lv) < 0 &&
	    !lv->err)
		return VMSA_E_IO;
	if (lv->err)
		return lv->err;
	return vmsa_live_queue_release(&lv->q, !lv->enabled, &lv->traits, cb, payload);
}

/*
 * The records pushed since the last release sorted, then merged with the
 * ones held (in order already), from the back: a drain every 100 ms sorted
 * all of up to 16 s of a busy machine's records each time.
 */
static void sort_new(struct vmsa_live_queue *q)
{
	size_t old = q->sorted, k = q->npend - old;
	qsort(q->pend + old, k, sizeof(*q->pend), by_time);
	if (old && k && by_time(&q->pend[old - 1], &q->pend[old]) > 0) {
		struct pending *tmp = malloc(k * sizeof(*tmp));
		if (!tmp) {
			qsort(q->pend, q->npend, sizeof(*q->pend), by_time);
		} else {
			memcpy(tmp, q->pend + old, k * sizeof(*tmp));
			size_t i = old, j = k, o = q->npend;
			while (j) {
				if (i && by_time(&q->pend[i - 1], &tmp[j - 1]) > 0)
					q->pend[--o] = q->pend[--i];
				else
					q->pend[--o] = tmp[--j];
			}
			free(tmp);
		}
	}
	q->sorted = q->npend;
}

int vmsa_live_queue_release(struct vmsa_live_queue *q, bool all, struct vmsa_traits *traits,
			    vmsa_event_cb cb, void *payload)
{
	sort_new(q);
	/* hand out what is old enough; everything once the events are off */
	size_t i = 0, max_held = q->max_held ? q->max_held : VMSA_LIVE_MAX_HELD;
	int r = 0;
	for (; i < q->npend && !r; i++) {
		struct pending *p = &q->pend[i];
		uint64_t hold = q->hold_ns ? q->hold_ns : VMSA_LIVE_HOLD_NS;
		if (!all && p->ev.ts_ns + hold > q->max_ts) {
			if (q->npend - i <= max_held)
				break;
			traits->live_released_early++; /* (too many held: out early) */
		}
		/* a record older than one already handed out came later than
		 * the hold-back: its period may be cut (traits.late_events);
		 * the next ones of its CPU are held for */
		if (p->ev.ts_ns < q->out_ts) {
			traits->late_events++;
			uint64_t late = q->out_ts - p->ev.ts_ns;
			while (hold < VMSA_LIVE_HOLD_MAX_NS && hold < 2 * late)
				hold *= 2;
			q->hold_ns = hold < VMSA_LIVE_HOLD_MAX_NS ? hold : VMSA_LIVE_HOLD_MAX_NS;
			if (q->hold_ns > VMSA_LIVE_HOLD_NS)
				traits->live_hold_ns = q->hold_ns;
		} else {
			q->out_ts = p->ev.ts_ns;
		}
		r = cb(&p->ev, payload);
	}
	memmove(q->pend, q->pend + i, (q->npend - i) * sizeof(*q->pend));
	q->npend -= i;
	q->sorted = q->npend;
	return r;
}

void vmsa_live_queue_free(struct vmsa_live_queue *q)
{
	free(q->pend);
	if (q->names)
		vmsa_comms_release(q->names);
	free(q->names);
	memset(q, 0, sizeof(*q));
}

int vmsa_live_stop(struct vmsa_live *lv)
{
	if (!lv->enabled)
		return 0;
	lv->enabled = false;
	lv->fs.tracefs_event_disable(lv->inst, "writeback", NULL); /* (where it was enabled) */
	return lv->fs.tracefs_event_disable(lv->inst, "vmscan", NULL) < 0 ? VMSA_E_IO : 0;
}

void vmsa_live_close(struct vmsa_live *lv)
{
	if (!lv)
		return;
	if (lv->inst) {
		vmsa_live_stop(lv);
		lv->fs.tracefs_instance_destroy(lv->inst);
		lv->fs.tracefs_instance_free(lv->inst);
	}
	if (lv->tep)
		lv->dec.dl.tep_free(lv->tep);
	vmsa_bin_decoder_release(&lv->dec);
	VMSA_DL_CLOSE(&lv->fs);
	vmsa_live_queue_free(&lv->q);
	free(lv);
}

const char *vmsa_live_name(const struct vmsa_live *lv)
{
	return lv->name;
}

const struct vmsa_source_counts *vmsa_live_counts(const struct vmsa_live *lv)
{
	return &lv->counts;
}

const struct vmsa_traits *vmsa_live_traits(const struct vmsa_live *lv)
{
	return &lv->traits;
}
