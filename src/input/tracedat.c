/* SPDX-License-Identifier: MIT */
/*
 * Binary trace.dat input through libtracecmd and libtraceevent.
 *
 * Records of the top buffer and of every instance (trace-cmd record -B) are
 * merged in timestamp order.  Each record is decoded by field *name* with
 * the event formats stored in the file, so any kernel's layout works; the
 * per-event field lookups are cached by event id.  Task names come from
 * the file's saved cmdlines.  The mapping from fields to the normalized
 * event mirrors the text decoder (text.c), which reads the same fields as
 * the kernel prints them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string.h>
#include <trace-cmd.h>

#include "../internal.h"
#include "input.h"

/*
 * Exported by libtracecmd 3.x and documented there, but declared only in
 * trace-cmd's private header.
 */
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

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

struct cursor {
	struct tracecmd_input *h;
	struct tep_handle *tep;
	int cpu;
	struct tep_record *rec;
};

struct vmsa_tracedat {
	struct tracecmd_input *top;
	struct tracecmd_input **handles;	/* top, then instances */
	int nhandles;
	struct cursor *pending;		/* its record comes after a lost marker */
	struct cursor *cur;
	int ncur;
	struct evdesc *desc;	/* by event id */
	int ndesc;
	struct tep_record *held;	/* returned last; freed on the next call */
	struct vmsa_source_counts *counts;
	struct vmsa_traits *traits;
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

#define WB_ANON 0x1u
#define WB_FILE 0x2u
#define WB_SYNC 0x4u

/* Fill *ev from record r of a described vmscan event; reject reason on failure. */
static int decode(struct vmsa_tracedat *td, struct evdesc *d, struct tep_record *r,
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
			ev->file = (flags & WB_FILE) ? 1 : (flags & WB_ANON) ? 0 : -1;
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
			ev->file = (flags & WB_FILE) ? 1 : (flags & WB_ANON) ? 0 : -1;
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
			ev->file = (flags & WB_FILE) ? 1 : (flags & WB_ANON) ? 0 : -1;
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

/*
 * Check the fixed part of the file header before libtracecmd reads it: the
 * library (3.1.6) frees twice or allocates without bound on some truncated
 * or corrupted headers (found by tests/e2e/tracedat_corrupt.py under ASan).
 * Layout (trace-cmd's trace-cmd.dat(5)): magic "\x17\x08\x44tracing",
 * version string, endianness byte, long size byte, 4-byte page size; v7
 * adds the compression name and version strings and the 8-byte offset of
 * the first options section; v6 goes on with "header_page" and its size.
 */
static int check_header(int fd)
{
	struct stat st;
	unsigned char b[512];
	if (fstat(fd, &st) || st.st_size < 24)
		return VMSA_E_CORRUPT;
	ssize_t n = pread(fd, b, sizeof(b), 0);
	if (n < 24)
		return VMSA_E_CORRUPT;
	size_t p = 10, end = (size_t)n;
	unsigned version = 0;
	while (p < end && b[p] >= '0' && b[p] <= '9' && p < 14)
		version = version * 10 + (unsigned)(b[p++] - '0');
	if (p >= end || b[p++] != 0 || (version != 6 && version != 7))
		return VMSA_E_CORRUPT;
	if (p + 6 > end)
		return VMSA_E_CORRUPT;
	bool big = b[p++] != 0;
	if (b[p - 1] > 1 || (b[p] != 4 && b[p] != 8))
		return VMSA_E_CORRUPT;
	p++;
#define GETN(v, len)                                                    \
	do {                                                            \
		v = 0;                                                  \
		for (size_t i_ = 0; i_ < (len); i_++)                   \
			v |= (uint64_t)b[p + (big ? (len) - 1 - i_ : i_)] << (8 * i_); \
		p += (len);                                             \
	} while (0)
	uint64_t page;
	GETN(page, 4);
	if (page < 4096 || page > (1u << 20) || (page & (page - 1)))
		return VMSA_E_CORRUPT;
	if (version == 7) {
		for (int str = 0; str < 2; str++) {
			size_t s0 = p;
			while (p < end && b[p] && p - s0 < 64)
				p++;
			if (p >= end || b[p])
				return VMSA_E_CORRUPT;
			p++;
		}
		if (p + 8 > end)
			return VMSA_E_CORRUPT;
		uint64_t opts;
		GETN(opts, 8);
		if (opts < p || opts + 16 > (uint64_t)st.st_size)
			return VMSA_E_CORRUPT;
	} else {
		if (p + 12 + 8 > end || memcmp(b + p, "header_page", 12) != 0)
			return VMSA_E_CORRUPT;
		p += 12;
		uint64_t size;
		GETN(size, 8);
		if (size > (uint64_t)st.st_size - p)
			return VMSA_E_CORRUPT;
	}
#undef GETN
	return 0;
}

int vmsa_tracedat_open(struct vmsa_tracedat **out, const char *path,
		       struct vmsa_source_counts *counts, struct vmsa_traits *traits)
{
	*out = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return VMSA_E_IO;
	int bad = check_header(fd);
	close(fd);
	if (bad)
		return bad;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	struct vmsa_tracedat *td = calloc(1, sizeof(*td));
	if (!td)
		return VMSA_E_NOMEM;
	td->counts = counts;
	td->traits = traits;
	td->top = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!td->top) {
		free(td);
		return VMSA_E_CORRUPT;
	}
	int ninst = tracecmd_buffer_instances(td->top);
	if (ninst < 0)
		ninst = 0;
	struct tracecmd_input **hs = calloc((size_t)ninst + 1, sizeof(*hs));
	if (!hs)
		goto nomem;
	int nh = 0;
	hs[nh++] = td->top;
	for (int i = 0; i < ninst; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(td->top, i);
		if (h)
			hs[nh++] = h;
	}
	int total = 0;
	for (int i = 0; i < nh; i++) {
		int c = tracecmd_cpus(hs[i]);
		if (c < 0 || c > 4096) {
			td->handles = hs;
			td->nhandles = nh;
			goto corrupt;
		}
		total += c;
	}
	td->cur = calloc((size_t)total + 1, sizeof(*td->cur));
	if (!td->cur) {
		td->handles = hs;
		td->nhandles = nh;
		goto nomem;
	}
	for (int i = 0; i < nh; i++)
		for (int c = 0; c < tracecmd_cpus(hs[i]); c++) {
			struct cursor *k = &td->cur[td->ncur++];
			k->h = hs[i];
			k->tep = tracecmd_get_tep(hs[i]);
			k->cpu = c;
			k->rec = tracecmd_read_data(hs[i], c);
		}
	td->handles = hs;
	td->nhandles = nh;
	traits->tracedat_version = (uint32_t)tracecmd_get_in_file_version(td->top);
	const char *u = tracecmd_get_uname(td->top), *clk = tracecmd_get_trace_clock(td->top);
	snprintf(traits->uname, sizeof(traits->uname), "%s", u ? u : "");
	snprintf(traits->clock, sizeof(traits->clock), "%s", clk ? clk : "");
	traits->cpus = tracecmd_cpus(td->top);
	traits->instances = ninst;
	traits->timestamps_ns_precision = 1;
	traits->dialect = VMSA_DIALECT_UNKNOWN;
	*out = td;
	return 0;
nomem:
	vmsa_tracedat_close(td);
	return VMSA_E_NOMEM;
corrupt:
	vmsa_tracedat_close(td);
	return VMSA_E_CORRUPT;
}

void vmsa_tracedat_close(struct vmsa_tracedat *td)
{
	if (!td)
		return;
	if (td->held)
		tracecmd_free_record(td->held);
	for (int i = 0; i < td->ncur; i++)
		if (td->cur[i].rec)
			tracecmd_free_record(td->cur[i].rec);
	for (int i = td->nhandles - 1; i >= 1; i--)
		tracecmd_close(td->handles[i]);
	if (td->top)
		tracecmd_close(td->top);
	free(td->handles);
	free(td->cur);
	free(td->desc);
	free(td);
}

static struct evdesc *desc_for(struct vmsa_tracedat *td, struct tep_handle *tep,
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

int vmsa_tracedat_next(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		       enum vmsa_reject_reason *reason)
{
	if (td->held) {
		tracecmd_free_record(td->held);
		td->held = NULL;
	}
	for (;;) {
		struct cursor *best = td->pending;
		td->pending = NULL;
		if (!best)
			for (int i = 0; i < td->ncur; i++)
				if (td->cur[i].rec &&
				    (!best || td->cur[i].rec->ts < best->rec->ts))
					best = &td->cur[i];
		if (!best)
			return VMSA_E_EOF;
		struct tep_record *r = best->rec;
		if (r->missed_events) {
			/* the ring buffer dropped events before this record:
			 * a lost marker now, the record itself on the next call */
			memset(ev, 0, sizeof(*ev));
			ev->type = VMSA_EV_LOST;
			ev->order = ev->nid = -1;
			ev->file = ev->sync = -1;
			ev->ts_ns = r->ts;
			ev->cpu = r->cpu;
			td->counts->lines_lost_markers++;
			td->counts->lines_read++;
			if (r->missed_events > 0) {
				ev->lost = (uint64_t)r->missed_events;
				td->counts->events_lost += ev->lost;
			} else {
				td->counts->lost_markers_without_count++;
			}
			r->missed_events = 0;
			td->pending = best;
			return 0;
		}
		best->rec = tracecmd_read_data(best->h, best->cpu);
		td->counts->lines_read++;
		td->counts->bytes_read += (uint64_t)(r->record_size > 0 ? r->record_size : 0);
		*record_no = td->counts->lines_read;
		memset(ev, 0, sizeof(*ev));
		ev->order = ev->nid = -1;
		ev->file = ev->sync = -1;
		struct evdesc *d = desc_for(td, best->tep, r);
		if (!d) {
			td->counts->lines_rejected++;
			td->counts->rejected_by_reason[VMSA_REJECT_BAD_HEADER]++;
			*reason = VMSA_REJECT_BAD_HEADER;
			tracecmd_free_record(r);
			return VMSA_TRACEDAT_REJECTED;
		}
		if (d->kind == K_OTHER || d->kind == K_UNKNOWN_VMSCAN) {
			td->counts->lines_ignored++;
			if (d->kind == K_UNKNOWN_VMSCAN)
				td->counts->unknown_vmscan_events++;
			tracecmd_free_record(r);
			continue;
		}
		int rej = decode(td, d, r, ev);
		if (rej >= 0) {
			td->counts->lines_rejected++;
			td->counts->rejected_by_reason[rej]++;
			*reason = (enum vmsa_reject_reason)rej;
			tracecmd_free_record(r);
			return VMSA_TRACEDAT_REJECTED;
		}
		ev->ts_ns = r->ts;
		ev->cpu = r->cpu;
		ev->pid = tep_data_pid(best->tep, r);
		const char *comm = tep_data_comm_from_pid(best->tep, ev->pid);
		ev->comm = comm ? comm : VMSA_COMM_PLACEHOLDER;
		ev->comm_len = strlen(ev->comm);
		td->counts->lines_analyzed++;
		td->held = r; /* ev->comm may point into tep; the record stays until next */
		return 0;
	}
}
