/* SPDX-License-Identifier: MIT */
/*
 * Text input: one line in, one normalized event (or a classification) out.
 * The line's columns (text_header.c, the task memo in text_task.h) give its
 * task, pid, CPU, timestamp and event name; the event's fields are read
 * (text_fields.h, text_fields.c) into its values, from which the event's
 * build makes the event.  The parts: text_internal.h.
 *
 * Which events there are, their fields' names across kernels and how the
 * values make an event: the catalogue (events.h), read here and by the
 * binary decoder; these files name none of them.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "text_fields.h"
#include "text_task.h"

int vmsa_text_parser_new_with(struct vmsa_text_parser **out, const struct vmsa_catalogue *cat)
{
	*out = malloc(sizeof(**out));
	if (!*out)
		return VMSA_E_NOMEM;
	memset(*out, 0, sizeof(**out));
	(*out)->cat = cat;
	int err = vmsa_text_index_catalogue(*out);
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

int vmsa_text_parser_new(struct vmsa_text_parser **out)
{
	return vmsa_text_parser_new_with(out, &vmsa_catalogue);
}

void vmsa_text_parser_free(struct vmsa_text_parser *p)
{
	if (!p)
		return;
	for (int i = 0; i < NEVENTS; i++)
		free(p->value_memo[i]);
	free(p);
}

const struct vmsa_traits *vmsa_text_parser_traits(const struct vmsa_text_parser *p)
{
	return &p->traits;
}

void vmsa_text_parser_use_layouts(struct vmsa_text_parser *p, bool on)
{
	p->general_only = !on;
}

void vmsa_text_parser_remember_values(struct vmsa_text_parser *p, bool on)
{
	p->no_value_memo = !on;
}

uint64_t vmsa_text_parser_layout_reads(const struct vmsa_text_parser *p)
{
	return p->layout_reads;
}

uint64_t vmsa_text_parser_value_reads(const struct vmsa_text_parser *p)
{
	return p->value_reads;
}

static bool mentions_vmscan(const struct vmsa_catalogue *c, const char *s, const char *e)
{
	for (size_t i = 0; i < sizeof(c->prefixes) / sizeof(c->prefixes[0]); i++)
		if (c->prefixes[i] && vmsa_text_find_lit(s, e, c->prefixes[i], strlen(c->prefixes[i])))
			return true;
	return false;
}


enum vmsa_line_kind vmsa_text_parse_line(struct vmsa_text_parser *p, const char *line, size_t len,
					 struct vmsa_event *ev, enum vmsa_reject_reason *reason)
{
	/* a copy, not memset: gcc makes that "rep stos", slow to start */
	static const struct vmsa_event blank = {.order = -1, .nid = -1, .file = -1, .sync = -1};
	const char *s = line, *e = line + len;
	if (e > s && e[-1] == '\r')
		e--;
	p->last_unknown_vmscan = false;
	struct header h;
	struct task_memo *tm = NULL;
	if (WORDWISE && e - s >= 24) {
		tm = &p->task_memo[task_hash(s)];
		if (!p->general_only && memo_header(tm, s, e, &h))
			goto have_header;
	}
	s = skip_sp(s, e);
	if (s == e || *s == '#')
		return VMSA_LINE_IGNORED;

	if (*s == 'C') {
		uint64_t n;
		bool known;
		if (vmsa_text_parse_lost(s, e, &n, &known)) {
			memcpy(ev, &blank, sizeof(*ev));
			ev->type = VMSA_EV_LOST;
			ev->lost = n;
			return VMSA_LINE_LOST;
		}
	}

	if (!vmsa_text_parse_header(line, s, e, &h)) {
		/* the dialect is the first one a line shows */
		if (p->traits.dialect == VMSA_DIALECT_UNKNOWN &&
		    (starts(s, e, "cpus=") || starts(s, e, "version = ")))
			p->traits.dialect = VMSA_DIALECT_FTRACE;
		if (mentions_vmscan(p->cat, s, e)) {
			*reason = VMSA_REJECT_BAD_HEADER;
			return VMSA_LINE_REJECTED;
		}
		return VMSA_LINE_IGNORED;
	}
	if (tm)
		memo_store(tm, line, &h);
have_header:;
	int id = find_event(p, h.name, h.name_len);
	if (id < 0) {
		/* the catalogue's first prefix is the system's own */
		p->last_unknown_vmscan = h.name_len > p->prefix_len &&
					 memcmp(h.name, p->cat->prefixes[0], p->prefix_len) == 0;
		return VMSA_LINE_IGNORED;
	}
	if (h.comm_len > MAX_COMM) {
		*reason = VMSA_REJECT_COMM_TOO_LONG;
		return VMSA_LINE_REJECTED;
	}
	const struct text_event *te = &p->names[id];
	const struct vmsa_event_desc *d = te->desc;
	struct value_memo *vm = NULL;
	const char *vt = h.fields;
	size_t n = 0;
	unsigned skipped = 0;
	if (!d->labelled)
		vm = value_slot(p, id, h.fields, h.end, &vt, &n, &skipped);
	if (vm && vm->len == n && vm->skipped == skipped && memcmp(vm->text, vt, n) == 0) {
		*ev = vm->ev;
		decoder_traits_add(&p->traits, &vm->counted);
		p->value_tally[id].found++;
		p->value_reads++;
	} else {
		memcpy(ev, &blank, sizeof(*ev));
		struct decoder_traits before;
		decoder_traits_get(&p->traits, &before);
		struct vmsa_values v;
		v.present = v.bad = 0;
		if (d->labelled) {
			vmsa_text_values_labelled(p, id, h.fields, h.end, &v);
		} else {
			struct fields f;
			read_fields(p, id, h.fields, h.end, &f);
			values_kv(p, &p->plan[id], &f, &v);
		}
		ev->type = (enum vmsa_event_type)d->type;
		ev->ctx = (enum vmsa_ctx)d->ctx;
		vmsa_count_name(te->nm, &p->traits);
		int r = d->build(&v, ev, &p->traits);
		if (r) {
			*reason = (enum vmsa_reject_reason)(-r - 1);
			return VMSA_LINE_REJECTED;
		}
		if (vm) {
			vm->len = (uint16_t)n;
			vm->skipped = (uint8_t)skipped;
			memcpy(vm->text, vt, n);
			vm->ev = *ev;
			vm->counted = before;
			decoder_traits_since(&vm->counted, &p->traits);
		}
	}
	/* the line's own (decoders and remembered values set the rest) */
	ev->ts_ns = h.ts;
	ev->pid = h.pid;
	ev->cpu = h.cpu;
	ev->comm = h.comm;
	ev->comm_len = h.comm_len;
	if (h.fine_ts)
		p->traits.timestamps_ns_precision++;
	if (p->traits.dialect == VMSA_DIALECT_UNKNOWN)
		p->traits.dialect = h.perf ? VMSA_DIALECT_PERF : VMSA_DIALECT_FTRACE;
	return VMSA_LINE_EVENT;
}

/* ---- counting ------------------------------------------------------ */

enum vmsa_line_kind vmsa_text_count_line(struct vmsa_text_parser *p, struct vmsa_source_counts *c,
					 const char *line, size_t len, struct vmsa_event *ev,
					 enum vmsa_reject_reason *reason)
{
	*reason = VMSA_REJECT_BAD_HEADER;
	c->lines_read++;
	enum vmsa_line_kind k = vmsa_text_parse_line(p, line, len, ev, reason);
	switch (k) {
	case VMSA_LINE_EVENT:
		c->lines_analyzed++;
		break;
	case VMSA_LINE_LOST:
		c->lines_lost_markers++;
		if (ev->lost)
			c->events_lost += ev->lost;
		else
			c->lost_markers_without_count++;
		break;
	case VMSA_LINE_REJECTED:
		c->lines_rejected++;
		c->rejected_by_reason[*reason]++;
		break;
	case VMSA_LINE_IGNORED:
	default:
		c->lines_ignored++;
		if (p->last_unknown_vmscan)
			c->unknown_vmscan_events++;
		break;
	}
	return k;
}

struct vmsa_traits *vmsa_text_parser_traits_mut(struct vmsa_text_parser *p)
{
	return &p->traits;
}

void vmsa_traits_add_text(struct vmsa_traits *t, const struct vmsa_traits *d)
{
	DECODER_TRAITS(DT_ADD)
	t->timestamps_ns_precision += d->timestamps_ns_precision;
	if (t->dialect == VMSA_DIALECT_UNKNOWN)
		t->dialect = d->dialect;
}
