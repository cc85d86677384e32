/* SPDX-License-Identifier: MIT */
/*
 * Decoding of binary ftrace records (trace.dat and live tracefs) into the
 * normalized event, by field *name* with the formats the records came with
 * (libtraceevent); the per-event field lookups are cached by event id.  The
 * mapping mirrors the text decoder (text.c), which reads the same fields as
 * the kernel prints them.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "input.h"

enum kind {
	K_UNKNOWN = 0,	/* not looked at yet */
	K_OTHER,	/* not a vmscan event */
	K_BEGIN, K_END, K_KSWAPD_WAKE, K_KSWAPD_SLEEP, K_WAKEUP_KSWAPD, K_ISOLATE,
	K_WRITE, K_SHRINK_INACTIVE, K_SHRINK_ACTIVE, K_THROTTLED, K_SLAB_START,
	K_SLAB_END, K_FLUSHER, K_UNKNOWN_VMSCAN,
};

struct evdesc {
	enum kind kind;
	enum vmsa_ctx ctx;
	struct tep_format_field *order, *nid, *nr_scanned, *nr_taken, *nr_reclaimed,
		*nr_pages, *lru, *file, *sync_io, *flags, *dirty, *writeback, *congested,
		*immediate, *deactivated, *delayed, *timeout, *reason, *retval;
};

static const struct {
	const char *name;
	enum kind kind;
	enum vmsa_ctx ctx;
} names[] = {
	{"mm_vmscan_direct_reclaim_begin", K_BEGIN, VMSA_CTX_DIRECT},
	{"mm_vmscan_direct_reclaim_end", K_END, VMSA_CTX_DIRECT},
	{"mm_vmscan_memcg_reclaim_begin", K_BEGIN, VMSA_CTX_MEMCG},
	{"mm_vmscan_memcg_reclaim_end", K_END, VMSA_CTX_MEMCG},
	{"mm_vmscan_memcg_softlimit_reclaim_begin", K_BEGIN, VMSA_CTX_SOFTLIMIT},
	{"mm_vmscan_memcg_softlimit_reclaim_end", K_END, VMSA_CTX_SOFTLIMIT},
	{"mm_vmscan_node_reclaim_begin", K_BEGIN, VMSA_CTX_NODE},
	{"mm_vmscan_node_reclaim_end", K_END, VMSA_CTX_NODE},
	{"mm_vmscan_kswapd_wake", K_KSWAPD_WAKE, 0},
	{"mm_vmscan_kswapd_sleep", K_KSWAPD_SLEEP, 0},
	{"mm_vmscan_wakeup_kswapd", K_WAKEUP_KSWAPD, 0},
	{"mm_vmscan_lru_isolate", K_ISOLATE, 0},
	{"mm_vmscan_memcg_isolate", K_ISOLATE, 0},
	{"mm_vmscan_writepage", K_WRITE, 0},
	{"mm_vmscan_write_folio", K_WRITE, 0},
	{"mm_vmscan_lru_shrink_inactive", K_SHRINK_INACTIVE, 0},
	{"mm_vmscan_lru_shrink_active", K_SHRINK_ACTIVE, 0},
	{"mm_vmscan_throttled", K_THROTTLED, 0},
	{"mm_shrink_slab_start", K_SLAB_START, 0},
	{"mm_shrink_slab_end", K_SLAB_END, 0},
	{"mm_vmscan_wakeup_flusher", K_FLUSHER, 0}, /* kernel/ series */
};

static void describe(struct evdesc *d, struct tep_event *e)
{
	memset(d, 0, sizeof(*d));
	d->kind = K_OTHER;
	if (!e->system || strcmp(e->system, "vmscan") != 0)
		return;
	d->kind = K_UNKNOWN_VMSCAN;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(e->name, names[i].name) == 0) {
			d->kind = names[i].kind;
			d->ctx = names[i].ctx;
		}
	if (strcmp(e->name, "mm_vmscan_write_folio") == 0 ||
	    strcmp(e->name, "mm_vmscan_wakeup_flusher") == 0)
		d->nr_pages = tep_find_field(e, "nr_pages");
	d->order = tep_find_field(e, "order");
	d->nid = tep_find_field(e, "nid");
	d->nr_scanned = tep_find_field(e, "nr_scanned");
	d->nr_taken = tep_find_field(e, "nr_taken");
	d->nr_reclaimed = tep_find_field(e, "nr_reclaimed");
	d->lru = tep_find_field(e, "lru");
	d->file = tep_find_field(e, "file");
	d->sync_io = tep_find_field(e, "sync_io");
	d->flags = tep_find_field(e, "reclaim_flags");
	d->dirty = tep_find_field(e, "nr_dirty");
	d->writeback = tep_find_field(e, "nr_writeback");
	d->congested = tep_find_field(e, "nr_congested");
	d->immediate = tep_find_field(e, "nr_immediate");
	d->deactivated = tep_find_field(e, "nr_deactivated");
	d->delayed = tep_find_field(e, "usec_delayed");
	d->timeout = tep_find_field(e, "usec_timeout");
	d->reason = tep_find_field(e, "reason");
	d->retval = tep_find_field(e, "retval");
}

/* 0 ok, 1 absent, <0 cannot read */
static int num(struct tep_format_field *f, struct tep_record *r, unsigned long long *v)
{
	if (!f)
		return 1;
	if (f->offset < 0 || f->size < 0 || f->offset + f->size > r->size)
		return -1;
	return tep_read_number_field(f, r->data, v) ? -1 : 0;
}

/* sign-extend a field narrower than 64 bits that the kernel declares signed */
static long long snum(struct tep_format_field *f, unsigned long long v)
{
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned bits = (unsigned)f->size * 8;
		unsigned long long m = 1ull << (bits - 1);
		return (long long)((v ^ m) - m);
	}
	return (long long)v;
}

/* Fill *ev from record r of a described vmscan event; reject reason on failure. */
static int decode(struct vmsa_bin_decoder *td, struct evdesc *d, struct tep_record *r,
		  struct vmsa_event *ev)
{
	unsigned long long v;
	int rc;
#define GET(field, dst, required)                                       \
	do {                                                            \
		rc = num(d->field, r, &v);                              \
		if (rc < 0)                                             \
			return VMSA_REJECT_BAD_NUMBER;                  \
		if (rc == 0) {                                          \
			if (snum(d->field, v) < 0)                      \
				return VMSA_REJECT_OUT_OF_RANGE;        \
			dst = v;                                        \
		} else if (required) {                                  \
			return VMSA_REJECT_MISSING_FIELD;               \
		}                                                       \
	} while (0)
	unsigned long long order = (unsigned long long)-1, nid = (unsigned long long)-1;
	bool want_order = d->kind == K_BEGIN || d->kind == K_KSWAPD_WAKE ||
			  d->kind == K_WAKEUP_KSWAPD;
	GET(order, order, want_order);
	if (want_order && order >= VMSA_MAX_ORDER)
		return VMSA_REJECT_OUT_OF_RANGE;
	ev->order = want_order ? (int32_t)order : -1;
	GET(nid, nid, false);
	ev->nid = nid < (1u << 16) ? (int32_t)nid : -1;
	switch (d->kind) {
	case K_BEGIN:
		ev->type = VMSA_EV_RECLAIM_BEGIN;
		ev->ctx = d->ctx;
		break;
	case K_END:
		ev->type = VMSA_EV_RECLAIM_END;
		ev->ctx = d->ctx;
		GET(nr_reclaimed, ev->nr_reclaimed, true);
		break;
	case K_KSWAPD_WAKE:
		ev->type = VMSA_EV_KSWAPD_WAKE;
		break;
	case K_KSWAPD_SLEEP:
		ev->type = VMSA_EV_KSWAPD_SLEEP;
		break;
	case K_WAKEUP_KSWAPD:
		ev->type = VMSA_EV_WAKEUP_KSWAPD;
		break;
	case K_ISOLATE:
		ev->type = VMSA_EV_LRU_ISOLATE;
		GET(nr_scanned, ev->nr_scanned, true);
		GET(nr_taken, ev->nr_taken, false);
		if (d->lru) {
			unsigned long long lru = 0;
			GET(lru, lru, true);
			if (lru > 4)
				return VMSA_REJECT_BAD_VALUE;
			ev->lru = (enum vmsa_lru)(VMSA_LRU_INACTIVE_ANON + lru);
			ev->file = lru == 2 || lru == 3;
			td->traits->lines_with_lru_name++;
		} else {
			unsigned long long f = 0;
			td->traits->lines_without_lru_name++;
			if (d->file) {
				GET(file, f, true);
				ev->file = f != 0;
			}
		}
		break;
	case K_WRITE: {
		ev->type = VMSA_EV_WRITE;
		unsigned long long flags = 0, f = 0, s = 0;
		if (d->flags) {
			GET(flags, flags, true);
			td->traits->writes_with_flags++;
			if (flags & WB_SYNC)
				td->traits->writes_flag_sync++;
			ev->file = vmsa_wb_file(flags);
			ev->sync = (flags & WB_SYNC) ? 1 : 0;
		} else {
			GET(file, f, true);
			GET(sync_io, s, true);
			td->traits->writes_with_sync_field++;
			ev->file = f != 0;
			ev->sync = s != 0;
		}
		if (d->nr_pages) {
			GET(nr_pages, ev->nr_pages, true);
			td->traits->writes_with_nr_pages++;
		}
		break;
	}
	case K_SHRINK_INACTIVE: {
		ev->type = VMSA_EV_SHRINK_INACTIVE;
		unsigned long long flags = 0;
		GET(nr_reclaimed, ev->nr_reclaimed, true);
		GET(nr_scanned, ev->nr_scanned, false);
		GET(dirty, ev->nr_dirty, false);
		GET(writeback, ev->nr_writeback, false);
		GET(congested, ev->nr_congested, false);
		GET(immediate, ev->nr_immediate, false);
		if (d->flags) {
			GET(flags, flags, true);
			ev->file = vmsa_wb_file(flags);
		}
		break;
	}
	case K_SHRINK_ACTIVE: {
		ev->type = VMSA_EV_SHRINK_ACTIVE;
		unsigned long long flags = 0;
		GET(nr_taken, ev->nr_taken, false);
		GET(deactivated, ev->nr_deactivated, false);
		if (d->flags) {
			GET(flags, flags, true);
			ev->file = vmsa_wb_file(flags);
		}
		break;
	}
	case K_THROTTLED: {
		ev->type = VMSA_EV_THROTTLED;
		unsigned long long delayed = 0, timeout = 0, reason = 0;
		GET(delayed, delayed, false);
		GET(timeout, timeout, false);
		GET(reason, reason, true);
		ev->usec_delayed = (int64_t)delayed;
		ev->usec_timeout = (int64_t)timeout;
		ev->throttle_reasons = (uint32_t)reason;
		break;
	}
	case K_SLAB_START:
		ev->type = VMSA_EV_SLAB_START;
		break;
	case K_SLAB_END:
		ev->type = VMSA_EV_SLAB_END;
		rc = num(d->retval, r, &v);
		if (rc < 0)
			return VMSA_REJECT_BAD_NUMBER;
		if (rc > 0)
			return VMSA_REJECT_MISSING_FIELD;
		ev->slab_freed = snum(d->retval, v);
		break;
	case K_FLUSHER: {
		ev->type = VMSA_EV_FLUSHER_WAKE;
		unsigned long long reason = 0;
		GET(dirty, ev->nr_dirty, true);
		GET(nr_pages, ev->nr_pages, true);
		GET(reason, reason, true);
		if (reason >= VMSA_FLUSH__COUNT)
			return VMSA_REJECT_BAD_VALUE;
		ev->flush_reason = (enum vmsa_flush_reason)reason;
		break;
	}
	default:
		return VMSA_REJECT_BAD_VALUE;
	}
#undef GET
	return -1;
}

static struct evdesc *desc_for(struct vmsa_bin_decoder *td, struct tep_handle *tep,
			       struct tep_record *r)
{
	int id = tep_data_type(tep, r);
	if (id < 0 || id > 1 << 20)
		return NULL;
	if (id >= td->ndesc) {
		int n = id + 64;
		struct evdesc *nd = realloc(td->desc, (size_t)n * sizeof(*nd));
		if (!nd)
			return NULL;
		memset(nd + td->ndesc, 0, (size_t)(n - td->ndesc) * sizeof(*nd));
		td->desc = nd;
		td->ndesc = n;
	}
	struct evdesc *d = &td->desc[id];
	if (d->kind == K_UNKNOWN) {
		struct tep_event *e = tep_find_event(tep, id);
		if (!e)
			return NULL;
		describe(d, e);
	}
	return d;
}

void vmsa_bin_decoder_init(struct vmsa_bin_decoder *d, struct vmsa_source_counts *counts,
			   struct vmsa_traits *traits)
{
	memset(d, 0, sizeof(*d));
	d->counts = counts;
	d->traits = traits;
}

void vmsa_bin_decoder_release(struct vmsa_bin_decoder *d)
{
	free(d->desc);
	d->desc = NULL;
	d->ndesc = 0;
}

enum vmsa_bin_result vmsa_bin_decode(struct vmsa_bin_decoder *dec, struct tep_handle *tep,
				     struct tep_record *r, struct vmsa_event *ev,
				     enum vmsa_reject_reason *reason)
{
	memset(ev, 0, sizeof(*ev));
	ev->order = ev->nid = -1;
	ev->file = ev->sync = -1;
	struct evdesc *d = desc_for(dec, tep, r);
	if (!d) {
		dec->counts->lines_rejected++;
		dec->counts->rejected_by_reason[VMSA_REJECT_BAD_HEADER]++;
		*reason = VMSA_REJECT_BAD_HEADER;
		return VMSA_BIN_REJECTED;
	}
	if (d->kind == K_OTHER || d->kind == K_UNKNOWN_VMSCAN) {
		dec->counts->lines_ignored++;
		if (d->kind == K_UNKNOWN_VMSCAN)
			dec->counts->unknown_vmscan_events++;
		return VMSA_BIN_IGNORED;
	}
	int rej = decode(dec, d, r, ev);
	if (rej >= 0) {
		dec->counts->lines_rejected++;
		dec->counts->rejected_by_reason[rej]++;
		*reason = (enum vmsa_reject_reason)rej;
		return VMSA_BIN_REJECTED;
	}
	ev->ts_ns = r->ts;
	ev->cpu = r->cpu;
	ev->pid = tep_data_pid(tep, r);
	const char *comm = tep_data_comm_from_pid(tep, ev->pid);
	ev->comm = comm ? comm : VMSA_COMM_PLACEHOLDER;
	ev->comm_len = strlen(ev->comm);
	dec->counts->lines_analyzed++;
	return VMSA_BIN_EVENT;
}

void vmsa_bin_lost(struct vmsa_bin_decoder *dec, struct tep_record *r, struct vmsa_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = VMSA_EV_LOST;
	ev->order = ev->nid = -1;
	ev->file = ev->sync = -1;
	ev->ts_ns = r->ts;
	ev->cpu = r->cpu;
	dec->counts->lines_lost_markers++;
	dec->counts->lines_read++;
	if (r->missed_events > 0) {
		ev->lost = (uint64_t)r->missed_events;
		dec->counts->events_lost += ev->lost;
	} else {
		dec->counts->lost_markers_without_count++;
	}
	r->missed_events = 0;
}
