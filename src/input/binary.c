/* SPDX-License-Identifier: MIT */
/*
 * Decoding of binary ftrace records (trace.dat and live tracefs) into the
 * normalized event, by field *name* with the formats the records came with
 * (libtraceevent); the per-event field lookups are cached by event id.  The
 * events, their fields' names and how they make a struct vmsa_event are the
 * catalogue's (events.h), which the text decoder reads too.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "events.h"
#include "input.h"

/* What a record's event id is, found on its first record (desc_for()). */
enum state { S_UNSEEN = 0, S_OTHER, S_UNKNOWN_VMSCAN, S_KNOWN };

/* Where a field the build reads lies in the record, found once per event. */
struct fieldpos {
	uint16_t off;
	uint8_t size;	/* 1, 2, 4 or 8; 0: not a number tep_read_number() reads */
	uint8_t sign;	/* declared signed */
};

struct evdesc {
	uint8_t state;
	uint8_t native;	/* the records' byte order is the host's */
	uint8_t nfields;
	uint16_t need;	/* the record size that holds every field */
	const struct vmsa_event_desc *desc;	/* S_KNOWN */
	const struct vmsa_event_name *nm;
	uint8_t field[VF__COUNT];		/* of those present, in bit order */
	struct fieldpos pos[VF__COUNT];
	/* a VT_WB_REASON field's record values 0 .. WB_RAW - 1, as enum
	 * vmsa_wb_reason by the names of the event's print format */
#define WB_RAW 16
	uint8_t wb_reason[WB_RAW];
};

/* In the print format's arguments: __print_symbolic(REC->field, {v, "name"}...) */
static const struct tep_print_arg *symbolic_of(const struct tep_print_arg *a, const char *field)
{
	for (; a; a = a->next) {
		if (a->type == TEP_PRINT_SYMBOL && a->symbol.field &&
		    a->symbol.field->type == TEP_PRINT_FIELD && a->symbol.field->field.name &&
		    strcmp(a->symbol.field->field.name, field) == 0)
			return a;
	}
	return NULL;
}

/* d->wb_reason from the symbols of the event's field named field */
static void learn_wb_reasons(struct evdesc *d, const struct tep_event *e, const char *field)
{
	memset(d->wb_reason, VMSA_WB_OTHER, sizeof(d->wb_reason));
	const struct tep_print_arg *a = symbolic_of(e->print_fmt.args, field);
	for (const struct tep_print_flag_sym *s = a ? a->symbol.symbols : NULL; s; s = s->next) {
		char *end;
		unsigned long v = s->value ? strtoul(s->value, &end, 0) : WB_RAW;
		uint64_t r;
		if (v < WB_RAW && end != s->value && !*end && s->str &&
		    vmsa_value_from_symbol(VT_WB_REASON, s->str, strlen(s->str), &r) == 0)
			d->wb_reason[v] = (uint8_t)r;
	}
}

/* pid -> task name, direct-mapped */
#define COMM_SLOTS 256
struct vmsa_bin_comm {
	int pid;
	uint32_t len;
	const char *comm;
};

static void describe(const struct vmsa_bin_decoder *dec, struct evdesc *d, struct tep_event *e)
{
	const struct vmsa_catalogue *c = dec->cat;
	memset(d, 0, sizeof(*d));
	d->state = S_OTHER;
	if (!e->system || !e->name)
		return;
	if (strcmp(e->system, c->system) == 0)
		d->state = S_UNKNOWN_VMSCAN;
	for (int i = 0; i < VMSA_NEVENTS && !d->desc; i++)
		for (int j = 0; j < VMSA_MAX_NAMES && c->event[i].names[j].name; j++)
			if (strcmp(e->system, c->event[i].system ? c->event[i].system : c->system) == 0 &&
			    strcmp(e->name, c->event[i].names[j].name) == 0) {
				d->desc = &c->event[i];
				d->nm = &c->event[i].names[j];
				break;
			}
	if (!d->desc)
		return;
	d->state = S_KNOWN;
	for (uint32_t want = d->desc->fields; want; want &= want - 1) {
		int f = __builtin_ctz(want);
		struct tep_format_field *ff = NULL;
		for (int a = 0; a < VMSA_MAX_ALIASES && c->field[f].names[a] && !ff; a++)
			ff = dec->dl.tep_find_field(e, c->field[f].names[a]);
		if (!ff)
			continue;
		struct fieldpos *p = &d->pos[d->nfields];
		d->field[d->nfields++] = (uint8_t)f;
		if (c->field[f].type == VT_WB_REASON)
			learn_wb_reasons(d, e, ff->name);
		p->sign = (ff->flags & TEP_FIELD_IS_SIGNED) != 0;
		/* beyond any record: bad on every record, as a field that is no number */
		if (ff->offset < 0 || ff->size < 0 || ff->offset + ff->size > UINT16_MAX) {
			p->off = 0;
			p->size = 0;
			continue;
		}
		p->off = (uint16_t)ff->offset;
		p->size = (ff->size == 1 || ff->size == 2 || ff->size == 4 || ff->size == 8)
				  ? (uint8_t)ff->size : 0;
		unsigned end = (unsigned)ff->offset + (unsigned)ff->size;
		if (end > d->need)
			d->need = (uint16_t)end;
	}
}

/* An unsigned number of size 1, 2, 4 or 8 at p, in the host's byte order. */
static inline uint64_t load_native(const unsigned char *p, unsigned size)
{
	switch (size) {
	case 1:
		return *p;
	case 2: {
		uint16_t x;
		memcpy(&x, p, 2);
		return x;
	}
	case 4: {
		uint32_t x;
		memcpy(&x, p, 4);
		return x;
	}
	default: {
		uint64_t x;
		memcpy(&x, p, 8);
		return x;
	}
	}
}

/* The same in the file's byte order (as tep_read_number() reads it). */
static inline uint64_t load(bool native, const void *p, unsigned size)
{
	uint64_t x = load_native(p, size);
	if (native)
		return x;
	switch (size) {
	case 1:
		return x;
	case 2:
		return __builtin_bswap16((uint16_t)x);
	case 4:
		return __builtin_bswap32((uint32_t)x);
	default:
		return __builtin_bswap64(x);
	}
}

/* The fields of a record (size bytes at data) that the event's build reads, into *v. */
static void read_values(const struct vmsa_bin_decoder *dec, const struct evdesc *d,
			const unsigned char *data, int size, struct vmsa_values *v)
{
	const struct vmsa_catalogue *c = dec->cat;
	bool whole = size >= (int)d->need;
	v->present = v->bad = 0;
	for (int k = 0; k < d->nfields; k++) {
		enum vmsa_ev_field i = (enum vmsa_ev_field)d->field[k];
		const struct fieldpos *f = &d->pos[k];
		if (!f->size || (!whole && (int)f->off + f->size > size)) {
			vmsa_values_bad(v, i, VMSA_FIELD_ERR(VMSA_REJECT_BAD_NUMBER));
			continue;
		}
		uint64_t x = load(d->native, data + f->off, f->size);
		/* a field narrower than 64 bits that the kernel declares signed */
		bool neg = false;
		if (f->sign) {
			unsigned bits = (unsigned)f->size * 8;
			if ((x >> (bits - 1)) & 1) {
				neg = true;
				x = bits == 64 ? -x : ((1ull << bits) - x) & ((1ull << bits) - 1);
			}
		}
		uint64_t u;
		int rc = 0;
		if (c->field[i].type == VT_WB_REASON)
			u = !neg && x < WB_RAW ? d->wb_reason[x] : VMSA_WB_OTHER;
		else
			rc = vmsa_value_from_number((enum vmsa_field_type)c->field[i].type, neg, x, &u);
		if (rc)
			vmsa_values_bad(v, i, rc);
		else
			vmsa_values_set(v, i, u);
	}
}

/*
 * The record header's type and pid (the fields every event's format starts
 * with), found in the first event's format of a tep; 0, or -1 when the
 * tep does not describe them.
 */
static int learn_header(struct vmsa_bin_decoder *dec, struct tep_handle *tep,
			const struct tep_record *r)
{
	dec->tep = NULL;
	struct tep_event *e = dec->dl.tep_find_event_by_record(tep, (struct tep_record *)r);
	if (!e)
		return -1;
	struct tep_format_field *t = dec->dl.tep_find_common_field(e, "common_type");
	struct tep_format_field *p = dec->dl.tep_find_common_field(e, "common_pid");
	if (!t || !p || t->offset < 0 || p->offset < 0 ||
	    (t->size != 1 && t->size != 2 && t->size != 4) || (p->size != 2 && p->size != 4))
		return -1;
	dec->type_off = t->offset;
	dec->type_size = t->size;
	dec->pid_off = p->offset;
	dec->pid_size = p->size;
	dec->native = dec->dl.tep_is_file_bigendian(tep) == dec->dl.tep_is_local_bigendian(tep);
	dec->tep = tep;
	return 0;
}

static int record_type(struct vmsa_bin_decoder *dec, struct tep_handle *tep,
		       const struct tep_record *r)
{
	if (tep != dec->tep && learn_header(dec, tep, r))
		return dec->dl.tep_data_type(tep, (struct tep_record *)r);
	if (r->size < dec->type_off + dec->type_size)
		return -1;
	return (int)load(dec->native, (const unsigned char *)r->data + dec->type_off, (unsigned)dec->type_size);
}

static int record_pid(struct vmsa_bin_decoder *dec, struct tep_handle *tep,
		      const struct tep_record *r)
{
	if (tep != dec->tep || r->size < dec->pid_off + dec->pid_size)
		return dec->dl.tep_data_pid(tep, (struct tep_record *)r);
	uint64_t x = load(dec->native, (const unsigned char *)r->data + dec->pid_off, (unsigned)dec->pid_size);
	return (int)x; /* as tep_data_pid() */
}

static void set_comm(struct vmsa_bin_decoder *dec, struct tep_handle *tep, int pid,
		     const char **comm, size_t *len)
{
	struct vmsa_bin_comm *s = NULL;
	if (dec->comms) {
		s = &dec->comms[(unsigned)pid % COMM_SLOTS];
		if (s->comm && s->pid == pid) {
			*comm = s->comm;
			*len = s->len;
			return;
		}
	}
	const char *c = dec->dl.tep_data_comm_from_pid(tep, pid);
	*comm = c ? c : VMSA_COMM_PLACEHOLDER;
	*len = strlen(*comm);
	if (s) {
		s->pid = pid;
		s->comm = *comm;
		s->len = (uint32_t)*len;
	}
}

/* An event id the table takes (ids are small numbers in a kernel) */
static bool id_ok(int id)
{
	return id >= 0 && id <= 1 << 20;
}

/* Where event id's description goes (the table grown to it), or NULL. */
static struct evdesc *desc_slot(struct vmsa_bin_decoder *td, int id)
{
	if (id >= td->ndesc) {
		int n = id + 64;
		struct evdesc *nd = realloc(td->desc, (size_t)n * sizeof(*nd));
		if (!nd)
			return NULL;
		memset(nd + td->ndesc, 0, (size_t)(n - td->ndesc) * sizeof(*nd));
		td->desc = nd;
		td->ndesc = n;
	}
	return &td->desc[id];
}

static struct evdesc *desc_for(struct vmsa_bin_decoder *td, struct tep_handle *tep,
			       struct tep_record *r, int *idp)
{
	int id = record_type(td, tep, r);
	*idp = id;
	if (!id_ok(id))
		return NULL;
	if (id < td->ndesc && td->desc[id].state != S_UNSEEN)
		return &td->desc[id];
	struct evdesc *d = desc_slot(td, id);
	if (!d)
		return NULL;
	struct tep_event *e = td->dl.tep_find_event(tep, id);
	if (!e)
		return NULL;
	describe(td, d, e);
	/* (as tep_read_number() reads this tep's records) */
	d->native = td->dl.tep_is_file_bigendian(tep) == td->dl.tep_is_local_bigendian(tep);
	return d;
}

void vmsa_bin_decoder_init_bare(struct vmsa_bin_decoder *d, struct vmsa_source_counts *counts,
				struct vmsa_traits *traits)
{
	memset(d, 0, sizeof(*d));
	d->counts = counts;
	d->traits = traits;
	d->cat = &vmsa_catalogue;
}

int vmsa_bin_decoder_init(struct vmsa_bin_decoder *d, struct vmsa_source_counts *counts,
			  struct vmsa_traits *traits)
{
	vmsa_bin_decoder_init_bare(d, counts, traits);
	return vmsa_dl_open_tep(&d->dl);
}

void vmsa_bin_decoder_release(struct vmsa_bin_decoder *d)
{
	free(d->desc);
	free(d->comms);
	d->desc = NULL;
	d->comms = NULL;
	d->ndesc = 0;
	VMSA_DL_CLOSE(&d->dl);
}

void vmsa_bin_decoder_remember_comms(struct vmsa_bin_decoder *d)
{
	if (!d->comms)
		d->comms = calloc(COMM_SLOTS, sizeof(*d->comms)); /* none: looked up each time */
}

/* A record of description d (NULL: its type could not be read), counted;
 * ev->pid and ev->comm are the caller's to set. */
static enum vmsa_bin_result decode(struct vmsa_bin_decoder *dec, const struct evdesc *d,
				   const unsigned char *data, int size, uint64_t ts, int cpu,
				   size_t comm_len, struct vmsa_event *ev,
				   enum vmsa_reject_reason *reason)
{
	memset(ev, 0, sizeof(*ev));
	ev->order = ev->nid = ev->priority = -1;
	ev->file = ev->sync = -1;
	if (!d) {
		dec->counts->lines_rejected++;
		dec->counts->rejected_by_reason[VMSA_REJECT_BAD_HEADER]++;
		*reason = VMSA_REJECT_BAD_HEADER;
		return VMSA_BIN_REJECTED;
	}
	if (d->state != S_KNOWN) {
		dec->counts->lines_ignored++;
		if (d->state == S_UNKNOWN_VMSCAN)
			dec->counts->unknown_vmscan_events++;
		return VMSA_BIN_IGNORED;
	}
	if (comm_len > VMSA_COMM_MAX) { /* (its saved cmdline) */
		dec->counts->lines_rejected++;
		dec->counts->rejected_by_reason[VMSA_REJECT_COMM_TOO_LONG]++;
		*reason = VMSA_REJECT_COMM_TOO_LONG;
		return VMSA_BIN_REJECTED;
	}
	struct vmsa_values v;
	read_values(dec, d, data, size, &v);
	ev->type = (enum vmsa_event_type)d->desc->type;
	ev->ctx = (enum vmsa_ctx)d->desc->ctx;
	vmsa_count_name(d->nm, dec->traits);
	int rc = d->desc->build(&v, ev, dec->traits);
	if (rc) {
		enum vmsa_reject_reason rej = (enum vmsa_reject_reason)(-rc - 1);
		dec->traits->writes_rejected += ev->type == VMSA_EV_WRITE;
		dec->counts->lines_rejected++;
		dec->counts->rejected_by_reason[rej]++;
		*reason = rej;
		return VMSA_BIN_REJECTED;
	}
	ev->ts_ns = ts;
	ev->cpu = cpu;
	dec->counts->lines_analyzed++;
	return VMSA_BIN_EVENT;
}

enum vmsa_bin_result vmsa_bin_decode(struct vmsa_bin_decoder *dec, struct tep_handle *tep,
				     struct tep_record *r, struct vmsa_event *ev,
				     enum vmsa_reject_reason *reason)
{
	int id, pid = 0;
	const struct evdesc *d = desc_for(dec, tep, r, &id);
	const char *comm = NULL;
	size_t len = 0;
	if (d && d->state == S_KNOWN) {
		pid = record_pid(dec, tep, r);
		set_comm(dec, tep, pid, &comm, &len);
	}
	enum vmsa_bin_result res = decode(dec, d, r->data, r->size, r->ts, r->cpu, len, ev, reason);
	if (res == VMSA_BIN_EVENT) {
		ev->pid = pid;
		ev->comm = comm;
		ev->comm_len = len;
	}
	return res;
}

const struct evdesc *vmsa_bin_describe(struct vmsa_bin_decoder *dec, struct tep_handle *tep,
				       struct tep_record *r, int *id, int *pid, const char **comm,
				       size_t *comm_len, unsigned *need)
{
	const struct evdesc *d = desc_for(dec, tep, r, id);
	*need = 0;
	if (d && d->state == S_KNOWN) {
		*pid = record_pid(dec, tep, r);
		set_comm(dec, tep, *pid, comm, comm_len);
		*need = d->need;
	}
	return d;
}

const size_t vmsa_bin_desc_size = sizeof(struct evdesc);

/*
 * A description as it travels: its two catalogue pointers as indices (the
 * event's in the catalogue + 1, 0 for none; its name's among the event's), so
 * that a copy of the program at other addresses (an exec'd reader, ASLR)
 * reads it.  Both ends hold the same catalogue (the same program).
 */
void vmsa_bin_desc_wire(const struct vmsa_bin_decoder *dec, const void *desc, void *out)
{
	struct evdesc d;
	memcpy(&d, desc, sizeof(d));
	const struct vmsa_catalogue *c = dec->cat;
	uintptr_t e = 0, n = 0;
	if (d.desc) {
		e = (uintptr_t)(d.desc - c->event) + 1;
		n = d.nm ? (uintptr_t)(d.nm - d.desc->names) : 0;
	}
	d.desc = (const struct vmsa_event_desc *)e;
	d.nm = (const struct vmsa_event_name *)n;
	memcpy(out, &d, sizeof(d));
}

int vmsa_bin_set_desc(struct vmsa_bin_decoder *dec, int id, const void *wire)
{
	if (!id_ok(id))
		return VMSA_E_CORRUPT;
	struct evdesc *d = desc_slot(dec, id);
	if (!d)
		return VMSA_E_NOMEM;
	memcpy(d, wire, sizeof(*d));
	/* (another process's: every index and position is checked) */
	const struct vmsa_catalogue *c = dec->cat;
	const size_t nev = sizeof(c->event) / sizeof(c->event[0]);
	uintptr_t e = (uintptr_t)d->desc, n = (uintptr_t)d->nm;
	d->desc = NULL;
	d->nm = NULL;
	bool ok = d->state > S_UNSEEN && d->state <= S_KNOWN && d->native <= 1;
	if (ok && d->state == S_KNOWN) {
		ok = e >= 1 && e <= nev && d->nfields <= VF__COUNT;
		if (ok) {
			d->desc = &c->event[e - 1];
			ok = n < sizeof(d->desc->names) / sizeof(d->desc->names[0]);
			if (ok)
				d->nm = &d->desc->names[n];
		}
		for (int k = 0; ok && k < d->nfields; k++) {
			const struct fieldpos *f = &d->pos[k];
			ok = d->field[k] < VF__COUNT &&
			     (f->size == 0 || f->size == 1 || f->size == 2 || f->size == 4 ||
			      f->size == 8) && (unsigned)f->off + f->size <= d->need;
		}
		for (int k = 0; ok && k < WB_RAW; k++)
			ok = d->wb_reason[k] <= VMSA_WB_OTHER;
	}
	if (!ok)
		memset(d, 0, sizeof(*d));
	return ok ? 0 : VMSA_E_CORRUPT;
}

bool vmsa_bin_has_desc(const struct vmsa_bin_decoder *dec, int id)
{
	return id >= 0 && id < dec->ndesc && dec->desc[id].state != S_UNSEEN;
}

unsigned vmsa_bin_need(const struct vmsa_bin_decoder *dec, int id)
{
	return vmsa_bin_has_desc(dec, id) && dec->desc[id].state == S_KNOWN ? dec->desc[id].need : 0;
}

enum vmsa_bin_result vmsa_bin_decode_as(struct vmsa_bin_decoder *dec, int id, const void *data,
					int size, uint64_t ts, int cpu, int pid, const char *comm,
					size_t comm_len, struct vmsa_event *ev,
					enum vmsa_reject_reason *reason)
{
	const struct evdesc *d = vmsa_bin_has_desc(dec, id) ? &dec->desc[id] : NULL;
	enum vmsa_bin_result res = decode(dec, d, data, size, ts, cpu, comm_len, ev, reason);
	if (res == VMSA_BIN_EVENT) {
		ev->pid = pid;
		ev->comm = comm;
		ev->comm_len = comm_len;
	}
	return res;
}

void vmsa_bin_lost_at(struct vmsa_bin_decoder *dec, uint64_t ts, int cpu, int64_t missed,
		      struct vmsa_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = VMSA_EV_LOST;
	ev->order = ev->nid = ev->priority = -1;
	ev->file = ev->sync = -1;
	ev->ts_ns = ts;
	ev->cpu = cpu;
	dec->counts->lines_lost_markers++;
	dec->counts->lines_read++;
	if (missed > 0) {
		ev->lost = (uint64_t)missed;
		dec->counts->events_lost += ev->lost;
	} else {
		dec->counts->lost_markers_without_count++;
	}
}

void vmsa_bin_lost(struct vmsa_bin_decoder *dec, struct tep_record *r, struct vmsa_event *ev)
{
	vmsa_bin_lost_at(dec, r->ts, r->cpu, r->missed_events, ev);
	r->missed_events = 0;
}
