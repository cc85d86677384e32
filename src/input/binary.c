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

struct evdesc {
	uint8_t state;
	const struct vmsa_event_desc *desc;	/* S_KNOWN */
	const struct vmsa_event_name *nm;
	struct tep_format_field *field[VF__COUNT]; /* of those desc reads: by name */
};

static void describe(const struct vmsa_catalogue *c, struct evdesc *d, struct tep_event *e)
{
	memset(d, 0, sizeof(*d));
	d->state = S_OTHER;
	if (!e->system || strcmp(e->system, c->system) != 0)
		return;
	d->state = S_UNKNOWN_VMSCAN;
	for (int i = 0; i < VMSA_NEVENTS && !d->desc; i++)
		for (int j = 0; j < VMSA_MAX_NAMES && c->event[i].names[j].name; j++)
			if (strcmp(e->name, c->event[i].names[j].name) == 0) {
				d->desc = &c->event[i];
				d->nm = &c->event[i].names[j];
				break;
			}
	if (!d->desc)
		return;
	d->state = S_KNOWN;
	for (uint32_t want = d->desc->fields; want; want &= want - 1) {
		int f = __builtin_ctz(want);
		for (int a = 0; a < VMSA_MAX_ALIASES && c->field[f].names[a] && !d->field[f]; a++)
			d->field[f] = tep_find_field(e, c->field[f].names[a]);
	}
}

/* The fields of record r that the event's build reads, into *v. */
static void read_values(const struct vmsa_catalogue *c, const struct evdesc *d,
			struct tep_record *r, struct vmsa_values *v)
{
	v->present = v->bad = 0;
	for (uint32_t want = d->desc->fields; want; want &= want - 1) {
		enum vmsa_field i = (enum vmsa_field)__builtin_ctz(want);
		struct tep_format_field *f = d->field[i];
		if (!f)
			continue;
		unsigned long long x;
		if (f->offset < 0 || f->size < 0 || f->offset + f->size > r->size ||
		    tep_read_number_field(f, r->data, &x)) {
			vmsa_values_bad(v, i, VMSA_FIELD_ERR(VMSA_REJECT_BAD_NUMBER));
			continue;
		}
		/* a field narrower than 64 bits that the kernel declares signed */
		bool neg = false;
		if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size > 0 && f->size <= 8) {
			unsigned bits = (unsigned)f->size * 8;
			if ((x >> (bits - 1)) & 1) {
				neg = true;
				x = bits == 64 ? -x : ((1ull << bits) - x) & ((1ull << bits) - 1);
			}
		}
		uint64_t u;
		int rc = vmsa_value_from_number((enum vmsa_field_type)c->field[i].type, neg, x, &u);
		if (rc)
			vmsa_values_bad(v, i, rc);
		else
			vmsa_values_set(v, i, u);
	}
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
	if (d->state == S_UNSEEN) {
		struct tep_event *e = tep_find_event(tep, id);
		if (!e)
			return NULL;
		describe(td->cat, d, e);
	}
	return d;
}

void vmsa_bin_decoder_init(struct vmsa_bin_decoder *d, struct vmsa_source_counts *counts,
			   struct vmsa_traits *traits)
{
	memset(d, 0, sizeof(*d));
	d->counts = counts;
	d->traits = traits;
	d->cat = &vmsa_catalogue;
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
	if (d->state != S_KNOWN) {
		dec->counts->lines_ignored++;
		if (d->state == S_UNKNOWN_VMSCAN)
			dec->counts->unknown_vmscan_events++;
		return VMSA_BIN_IGNORED;
	}
	struct vmsa_values v;
	read_values(dec->cat, d, r, &v);
	ev->type = (enum vmsa_event_type)d->desc->type;
	ev->ctx = (enum vmsa_ctx)d->desc->ctx;
	vmsa_count_name(d->nm, dec->traits);
	int rc = d->desc->build(&v, ev, dec->traits);
	if (rc) {
		enum vmsa_reject_reason rej = (enum vmsa_reject_reason)(-rc - 1);
		dec->counts->lines_rejected++;
		dec->counts->rejected_by_reason[rej]++;
		*reason = rej;
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
