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
#include <stddef.h>
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

uint64_t vmsa_text_parser_template_reads(const struct vmsa_text_parser *p)
{
	return p->template_reads;
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


/*
 * A frame of a call chain that perf script prints under an event of a
 * recording with call graphs (perf record -g), indented: "<address>
 * <symbol>[+0x<offset>] (<dso>)", the dso left out by -F without it.  The
 * tracepoint's own frames name the event (trace_event_raw_event_mm_vmscan_*),
 * and are no broken event line for all that.  first: past the indentation.
 */
static bool perf_frame(const char *line, const char *first, const char *e)
{
	if (first == line)
		return false; /* (not indented) */
	const char *h = first;
	while (h < e && h - first <= 16 &&
	       (is_digit(*h) || (*h >= 'a' && *h <= 'f') || (*h >= 'A' && *h <= 'F')))
		h++;
	return h - first >= 4 && h - first <= 16 && h < e && *h == ' ' && h + 1 < e && !is_sp(h[1]);
}

/* The event name is "system:name" (perf script), of the catalogue's system. */
static bool of_system(const char *system, const char *line, const struct header *h)
{
	size_t n = strlen(system);
	const char *sys = h->name - 1 - n;
	return h->name - line > (ptrdiff_t)n && h->name[-1] == ':' && memcmp(sys, system, n) == 0 &&
	       (sys == line || is_sp(sys[-1]));
}

/* An isolation from a list this tool does not know, under the list's name. */
static void count_lru_other(struct vmsa_text_parser *p, const struct fields *f,
			    const struct vmsa_event *ev)
{
	uint32_t k = f->present & p->keys.of_field[VF_LRU];
	if (!k)
		return;
	const struct span *sp = &f->v[__builtin_ctz(k)];
	vmsa_name_count_add(p->traits.lru_other, sp->p, sp->len, 1, ev->nr_scanned);
}

/* The fields' first word is "k=v": an event printed with labels (its
 * print format) shown in the raw "k=v" form of its record's fields
 * instead (trace-cmd report -R) */
static inline __attribute__((always_inline)) bool kv_first(const char *s, const char *e)
{
	/* (16 bytes at a time: the labelled form's first word is a function's
	 * name, some 30 bytes; a tab ends no word of a print format) */
	s = find_byte2(s, e, '=', ' ');
	return s < e && *s == '=';
}

/* A line that is not an event: kept for the counting (vmsa_text_count_line()) */
static inline enum vmsa_line_kind not_event(struct vmsa_text_parser *p, const char *line,
					    size_t len, enum vmsa_line_kind k)
{
	p->other_line = line;
	p->other_len = len;
	return k;
}

/*
 * An event of a buffer instance counted under its name: in the slot of the
 * one before when it is the same (a trace of one instance has a prefix on
 * every line), else looked up.
 */
static void count_buffer(struct vmsa_text_parser *p, const struct vmsa_event *ev)
{
	struct vmsa_name_count *c = &p->traits.instance_events[p->last_instance];
	size_t n = ev->instance_len;
	if (n < sizeof(c->name) && c->name[n] == '\0' && c->name[0] &&
	    memcmp(c->name, ev->instance, n) == 0) {
		c->count++;
		return;
	}
	p->last_instance = (uint8_t)vmsa_instance_count_add(p->traits.instance_events,
							     ev->instance, n, 1);
}

/* The instance's name [name, name + n) in the parser's own store (events
 * point to it), or NULL when it has no room for it. */
static const char *kept_name(struct vmsa_text_parser *p, const char *name, size_t n)
{
	if (n >= sizeof(p->inst_name[0]))
		return NULL;
	for (unsigned i = 0; i < p->ninst_names; i++)
		if (p->inst_name[i][n] == '\0' && memcmp(p->inst_name[i], name, n) == 0)
			return p->inst_name[i];
	if (p->ninst_names == sizeof(p->inst_name) / sizeof(p->inst_name[0]))
		return NULL;
	char *k = p->inst_name[p->ninst_names++];
	memcpy(k, name, n);
	k[n] = '\0';
	return k;
}

const char *vmsa_text_pending_instance(const struct vmsa_text_parser *p, size_t *len)
{
	*len = p->pending_inst ? p->pending_len : 0;
	return p->pending_inst;
}

/* a copy, not memset: gcc makes that "rep stos", slow to start */
static const struct vmsa_event blank = {
	.order = -1, .nid = -1, .file = -1, .sync = -1, .priority = -1};

/*
 * trace-cmd report -i a.dat -i b.dat names each file before its top
 * buffer's lines as "%*s: cpus=%d", the file's base name padded to the
 * longest: "a.dat: cpus=2", "  c.dat: cpus=2", and a name may hold spaces
 * ("my run.dat: cpus=2").  A report of one file prints "cpus=2" alone.
 */
static bool report_file(const char *s, const char *e)
{
	while (e > s && is_sp(e[-1]))
		e--;
	const char *d = e;
	while (d > s && is_digit(d[-1]))
		d--;
	static const char tag[] = ": cpus=";
	size_t n = sizeof(tag) - 1;
	return d < e && (size_t)(d - s) > n && memcmp(d - n, tag, n) == 0;
}

/* "CPU:N [LOST M EVENTS]" and trace-cmd's forms at s: *ev is the marker.
 * Text after it (a lost newline: the next line glued to it) is a line of
 * its own, split off (p->split). */
static bool lost_marker(struct vmsa_text_parser *p, const char *line, const char *s,
			const char *e, struct vmsa_event *ev)
{
	uint64_t n;
	bool known;
	const char *end;
	if (s == e || *s != 'C' || !vmsa_text_parse_lost(s, e, &n, &known, &end))
		return false;
	memcpy(ev, &blank, sizeof(*ev));
	ev->type = VMSA_EV_LOST;
	ev->lost = n;
	end = skip_sp(end, e);
	if (end < e)
		p->split = (size_t)(end - line);
	return true;
}

/*
 * The trace file's header line "# entries-in-buffer/entries-written: E/W
 * #P:N" (print_event_info()): W is E plus the ring buffer's overrun, the
 * events overwritten before the file was read, which no marker tells.  *ev
 * is a lost-events marker of W - E when that is not 0.
 */
static bool entries_header(const char *s, const char *e, struct vmsa_event *ev)
{
	static const char tag[] = "# entries-in-buffer/entries-written:";
	if (!starts(s, e, tag))
		return false;
	const char *p = skip_sp(s + sizeof(tag) - 1, e), *d = p;
	while (p < e && is_digit(*p))
		p++;
	uint64_t kept, written;
	bool neg;
	if (p == d || p == e || *p != '/' || parse_num(d, p, &kept, &neg) != NUM_OK)
		return false;
	d = ++p;
	while (p < e && is_digit(*p))
		p++;
	if (p == d || parse_num(d, p, &written, &neg) != NUM_OK || written <= kept)
		return false;
	memcpy(ev, &blank, sizeof(*ev));
	ev->type = VMSA_EV_LOST;
	ev->lost = written - kept;
	return true;
}

/* The values of event id's fields [s, e) read again, the general way (a
 * line glued to them split off) */
static __attribute__((noinline, cold)) void values_again(struct vmsa_text_parser *p, int id,
							 const char *s, const char *e,
							 struct fields *f, struct vmsa_values *v)
{
	v->present = v->bad = 0;
	f->present = 0;
	if (s == e) {
		v->present = VF_BARE;
	} else if (p->names[id].desc->labels && !kv_first(s, e)) {
		vmsa_text_values_labelled(p, id, s, e, v);
	} else {
		vmsa_text_read_fields_general(p, id, s, e, f);
		values_kv(p, &p->plan[id], f, v);
	}
}

/*
 * The header of a line the task memo does not know, the long way: -1 when
 * *h is read (and remembered in the memo's set tm, unless NULL), else what
 * the line is (not_event() done).  (Out of vmsa_text_parse_line(): the
 * lines it reads by the memo, nearly all, pay nothing for its code.)
 */
static __attribute__((noinline)) int long_header(struct vmsa_text_parser *p, const char *line,
						 size_t len, const char *e, struct header *h,
						 struct task_memo_set *tm, struct vmsa_event *ev,
						 enum vmsa_reject_reason *reason)
{
	const char *s = skip_sp(line, e);
	const char *text = line; /* past a mail's quoting, when it is quoted */
	if (s == line && starts(s, e, "\xEF\xBB\xBF")) /* UTF-8's byte-order mark: a file's */
		text = s = skip_sp(s + 3, e);		/* start as some editors save it */
	if (s < e && *s == '>')
		text = s = vmsa_text_unquote(s, e);
	if (s < e && *s == '#' && entries_header(s, e, ev)) {
		p->traits.top_buffer_events++;
		return not_event(p, line, len, VMSA_LINE_LOST);
	}
	if (s == e || *s == '#')
		return not_event(p, line, len, VMSA_LINE_IGNORED);

	if (lost_marker(p, line, s, e, ev)) {
		p->traits.top_buffer_events++;
		return not_event(p, line, len, VMSA_LINE_LOST);
	}

	/* (a task's first line: its columns from the '[' on by the template
	 * learned last, where they fit it) */
	h->tpl = p->general_only ? NULL : &p->last_tpl;
	h->tpl_reads = &p->template_reads;
	if (!vmsa_text_parse_header(text, s, e, h)) {
		/* a lost-events marker after a buffer instance's name (no
		 * marker reads as a header: looked for only now) */
		const char *inst = vmsa_text_after_instance(text, s, e);
		if (inst && lost_marker(p, line, skip_sp(inst, e), e, ev)) {
			ev->instance = s;
			ev->instance_len = (size_t)(inst - 1 - s);
			count_buffer(p, ev);
			p->pending_inst = kept_name(p, ev->instance, ev->instance_len);
			p->pending_len = ev->instance_len;
			return not_event(p, line, len, VMSA_LINE_LOST);
		}
		/* trace-cmd report of several files: "a.dat: cpus=2", one a file */
		bool file_cpus = report_file(s, e);
		p->traits.report_files += file_cpus;
		/* the dialect is the first one a line shows */
		if (p->traits.dialect == VMSA_DIALECT_UNKNOWN &&
		    (starts(s, e, "cpus=") || file_cpus || starts(s, e, "version = ")))
			p->traits.dialect = VMSA_DIALECT_FTRACE;
		if (mentions_vmscan(p->cat, s, e) && !perf_frame(line, s, e)) {
			*reason = VMSA_REJECT_BAD_HEADER;
			return not_event(p, line, len, VMSA_LINE_REJECTED);
		}
		return not_event(p, line, len, VMSA_LINE_IGNORED);
	}
	if (tm)
		memo_store(tm, line, h, &p->last_tpl);
	return -1;
}

/* vmsa_text_parse_line(), an event's kind with VMSA_LINE_SPLIT when another
 * line glued to it was split off (p->split): told so, the counting pays
 * nothing for the lines that are whole */
static __attribute__((noinline)) int parse_line(struct vmsa_text_parser *p, const char *line,
						size_t len, struct vmsa_event *ev,
						enum vmsa_reject_reason *reason)
{
	int split = 0;
	const char *s = line, *e = line + len;
	if (e > s && e[-1] == '\r')
		e--;
	p->last_other = OTHER_NONE;
	/* (a line right after an instance's lost-events marker) */
	const char *after_marker = p->pending_inst;
	p->pending_inst = NULL;
	struct header h;
	struct task_memo_set *tm = NULL;
	if (WORDWISE && e - s >= 24) {
		tm = &p->task_memo[task_hash(s)];
		if (!p->general_only && memo_header(tm, s, e, &h, &p->template_reads, &p->last_tpl))
			goto have_header;
	}
	int kind = long_header(p, line, len, e, &h, tm, ev, reason);
	if (kind >= 0)
		return (enum vmsa_line_kind)kind;
have_header:;
	int id = find_event(p, h.name, h.name_len);
	if (id < 0) {
		/* the catalogue's prefixes are the system's own */
		bool vmscan = (h.name_len > p->prefix_len &&
			       memcmp(h.name, p->cat->prefixes[0], p->prefix_len) == 0) ||
			      (p->prefix2_len && h.name_len > p->prefix2_len &&
			       memcmp(h.name, p->cat->prefixes[1], p->prefix2_len) == 0) ||
			      of_system(p->cat->system, line, &h);
		p->last_other = vmscan ? OTHER_VMSCAN : OTHER_SYSTEM;
		if (vmscan)
			vmsa_name_count_add(p->traits.event_other, h.name, h.name_len, 1, 0);
		return not_event(p, line, len, VMSA_LINE_IGNORED);
	}
	const struct text_event *te = &p->names[id];
	const struct vmsa_event_desc *d = te->desc;
	if (h.comm_len > MAX_COMM) {
		p->traits.writes_rejected += d->type == VMSA_EV_WRITE;
		*reason = VMSA_REJECT_COMM_TOO_LONG;
		return not_event(p, line, len, VMSA_LINE_REJECTED);
	}
	struct value_memo *vm = NULL;
	struct vmsa_values v;
	struct fields f;
	const char *vt = h.fields;
	size_t n = 0;
	unsigned skipped = 0;
	if (!d->labels)
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
		v.present = v.bad = 0;
		if (h.fields == h.end) {
			v.present = VF_BARE; /* (never remembered: value_slot() gave none) */
			f.present = 0;
		} else if (d->labels && !kv_first(h.fields, h.end)) {
			if (__builtin_expect(!vmsa_text_values_labelled(p, id, h.fields, h.end, &v) ||
						     h.end - h.fields > LABELLED_ONE,
					     0))
				goto unclean;
		} else {
			read_values(p, id, h.fields, h.end, &f, &v);
			if (__builtin_expect(!p->layout[id].learned, 0))
				goto unclean;
		}
	decoded:
		ev->type = (enum vmsa_event_type)d->type;
		ev->ctx = (enum vmsa_ctx)d->ctx;
		vmsa_count_name(te->nm, &p->traits);
		int r = d->build(&v, ev, &p->traits);
		if (r) {
			p->traits.writes_rejected += d->type == VMSA_EV_WRITE;
			*reason = (enum vmsa_reject_reason)(-r - 1);
			return not_event(p, line, len, VMSA_LINE_REJECTED);
		}
		if (ev->lru == VMSA_LRU_OTHER) { /* (k=v events only) */
			count_lru_other(p, &f, ev);
			vm = NULL; /* counted by its name on every line */
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
	if (!h.inst && after_marker) {
		/* trace-cmd report: the record after a marker, printed with it */
		h.inst = after_marker;
		h.inst_len = p->pending_len;
	}
	ev->instance = h.inst;
	ev->instance_len = h.inst_len;
	if (!h.inst)
		p->traits.top_buffer_events++;
	else
		count_buffer(p, ev);
	if (h.fine_ts) {
		p->traits.timestamps_ns_precision++;
		p->traits.timestamps_integer += h.fine_ts == TS_INTEGER;
	}
	if (p->traits.dialect == VMSA_DIALECT_UNKNOWN)
		p->traits.dialect = h.perf ? VMSA_DIALECT_PERF : VMSA_DIALECT_FTRACE;
	return VMSA_LINE_EVENT | split;
unclean:;
	/* fields that did not read cleanly: text after them may be another
	 * line glued to this one, split off, the event's own fields read again */
	const char *j;
	if (split || !(j = vmsa_text_joined_line(p->cat, h.fields, h.end)))
		goto decoded;
	p->split = (size_t)(j - line);
	split = VMSA_LINE_SPLIT;
	while (j > h.fields && (is_sp(j[-1]) || j[-1] == '\r'))
		j--;
	h.end = j;
	vm = NULL; /* (its text is the lines': not remembered) */
	values_again(p, id, h.fields, h.end, &f, &v);
	goto decoded;
}

/* The public entry: a caller's struct vmsa_event of another size (src/abi.h)
 * is decoded whole, then copied; one below the first version's is no event
 * to fill.  (The decoder's own callers call parse_line().) */
enum vmsa_line_kind vmsa_text_parse_line_sized(struct vmsa_text_parser *p, const char *line,
					       size_t len, struct vmsa_event *ev, size_t ev_size,
					       enum vmsa_reject_reason *reason)
{
	struct vmsa_event whole;
	struct vmsa_event *e = ev_size == sizeof *ev ? ev : &whole;
	if (ev_size < VMSA_ABI_MIN_EVENT)
		return VMSA_LINE_IGNORED;
	int k = parse_line(p, line, len, e, reason);
	p->split = 0; /* (a line's own: what follows it is the caller's) */
	if (e != ev)
		vmsa_abi_out(ev, ev_size, &whole, sizeof whole, VMSA_ABI_MIN_EVENT);
	return (enum vmsa_line_kind)(k & ~VMSA_LINE_SPLIT);
}

/* ---- counting ------------------------------------------------------ */

/*
 * A trace pasted into a mail comes back with each line broken at about 72
 * to 80 columns: an event's first line begins like a trace line, the lines
 * that go on with it do not.  A line of at most WRAP_MAX bytes that does not
 * begin like a trace line, right after one that does (an event, or a line
 * of at most WRAP_MAX bytes that begins like one), and that has fields in it
 * ('=', ':', an event name, or the labels of an event printed with labels:
 * labelled_text()), goes on a broken event.  Only lines that are not events
 * are looked at, so a trace that is whole costs nothing.
 */
#define WRAP_MAX 1024 /* (mails are wrapped at 72 to 120 columns; no trace line
			* is as long) */

/* The word [w, we) is one of a labelled event's print format (the catalogue's
 * labels); *value_after: a value follows it there ("priority", "val") */
static bool label_word(const struct vmsa_text_parser *p, const char *w, const char *we,
		       bool *value_after)
{
	const struct vmsa_catalogue *c = p->cat;
	size_t n = (size_t)(we - w);
	/* (a byte no label has: no label, and no walk of them all, which every
	 * line that is no event would pay for its last word) */
	for (const char *q = w; q < we; q++)
		if (!(p->label_bytes[(unsigned char)*q >> 6] & (1ull << ((unsigned char)*q & 63))))
			return false;
	for (int i = 0; i < VMSA_NEVENTS; i++) {
		const char *l = c->event[i].labels;
		if (!l)
			continue;
		for (const char *q = l, *qe; *q; q = *qe ? qe + 1 : qe) {
			qe = strchr(q, ' ');
			if (!qe)
				qe = q + strlen(q);
			if (*q != '%' && (size_t)(qe - q) == n && memcmp(q, w, n) == 0) {
				*value_after = qe[0] == ' ' && qe[1] == '%';
				return true;
			}
		}
	}
	return false;
}

/* A value of a labelled event's print format: a number, a symbol
 * ("super_cache_scan+0x0/0x1a0"), a pointer, flags ("GFP_KERNEL|__GFP_COMP"):
 * a word with a digit or without a small letter, or a module ("[xfs]") */
static bool label_value(const char *w, const char *we)
{
	if (*w == '[' && we[-1] == ']')
		return true;
	bool small = false;
	for (const char *q = w; q < we; q++) {
		if (is_digit(*q))
			return true;
		small |= *q >= 'a' && *q <= 'z';
	}
	return !small;
}

/* [s, e) is a piece of the labels and values of an event printed with labels
 * ("objects to shrink 0 gfp_flags GFP_KERNEL cache items 120 delta 3"): every
 * word one of the catalogue's labels or a value, a label among them */
static bool labelled_text(const struct vmsa_text_parser *p, const char *s, const char *e)
{
	bool label = false;
	for (s = skip_sp(s, e); s < e; s = skip_sp(s, e)) {
		const char *w = s;
		while (s < e && !is_sp(*s))
			s++;
		bool value_after;
		if (label_word(p, w, s, &value_after))
			label = true;
		else if (!label_value(w, s))
			return false;
	}
	return label;
}

/* The line that ends at end (a newline or '\r' after it) ends in a label
 * after which a value comes ("... total_scan 3 priority"), the value on the
 * next line */
static bool label_before_value(const struct vmsa_text_parser *p, const char *b, size_t end)
{
	size_t i = end;
	while (i > 0 && !is_sp(b[i - 1]) && b[i - 1] != '\n')
		i--;
	bool value_after = false;
	return i < end && label_word(p, b + i, b + end, &value_after) && value_after;
}

/* [first, e) begins with the name of an event of another system
 * ("tracing_mark_write: ..." after a first line broken before the name; not
 * a pointer, "ffff88800c45e4c0: ") */
static bool other_system(const struct vmsa_text_parser *p, const char *first, const char *e)
{
	const char *q = first;
	bool hex = true;
	for (; q < e && (is_digit(*q) || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
			 *q == '_');
	     q++)
		hex &= is_digit(*q) || (*q >= 'a' && *q <= 'f');
	bool value_after;
	return !hex && !is_digit(*first) && q - first >= 2 && q < e && *q == ':' &&
	       (q + 1 == e || is_sp(q[1])) &&
	       find_event(p, first, (size_t)(q - first)) < 0 &&
	       !mentions_vmscan(p->cat, first, q) && !label_word(p, first, q + 1, &value_after);
}

/* (value_next: the line before ends in a field's '=' or a label, whose value
 * this one may hold alone: "4") */
static bool goes_on(const struct vmsa_text_parser *p, const char *s, const char *e,
		    bool value_next)
{
	if (e > s && e[-1] == '\r')
		e--;
	const char *first = skip_sp(s, e);
	if (first < e && *first == '>')
		s = first = vmsa_text_unquote(first, e);
	const char *inst = vmsa_text_after_instance(s, first, e);
	/* (" => fn+0x1/0x2": a frame of the kernel's stacktrace, under the
	 * "<stack trace>" line of the event it was taken at) */
	if (first == e || *first == '#' || e - s > WRAP_MAX || starts(first, e, "CPU:") ||
	    starts(first, e, "=> ") ||
	    (inst && starts(skip_sp(inst, e), e, "CPU:")) || perf_frame(s, first, e))
		return false;
	if (!value_next && !memchr(first, '=', (size_t)(e - first)) &&
	    !memchr(first, ':', (size_t)(e - first)) && !mentions_vmscan(p->cat, first, e) &&
	    !labelled_text(p, first, e))
		return false;
	if (!value_next && other_system(p, first, e))
		return false; /* (an event of another system, broken: none of ours) */
	return !vmsa_text_line_start(s, first, e);
}

/* The line that ends at end (a newline or '\r' after it) ends in a field's
 * '=' with a name before it: where the name begins, else SIZE_MAX */
static size_t name_before_eq(const char *b, size_t end)
{
	if (end < 2 || b[end - 1] != '=')
		return SIZE_MAX;
	size_t i = end - 1;
	while (i > 0 && !is_sp(b[i - 1]) && b[i - 1] != '\n')
		i--;
	return i < end - 1 ? i : SIZE_MAX;
}

static __attribute__((noinline, cold)) void note_broken(struct vmsa_text_parser *p, uint64_t n)
{
	const char *line = p->other_line;
	size_t len = p->other_len;
	const char *e = line + len;
	/* right after an event (the last line that was not one is older) or a head */
	bool after_head = p->wrap_last != n - 1 || p->wrap_last_head;
	bool cont = goes_on(p, line, e, p->wrap_last == n - 1 && p->wrap_last_eq);
	if (cont && after_head)
		p->traits.wrapped_events++;
	if (n == 1) { /* (what the batch before ended with is not known here) */
		p->wrap_first_goes_on = cont;
		p->wrap_first_goes_on_eq = goes_on(p, line, e, true);
	}
	p->wrap_last = n;
	/* (an event of another system, broken or not, is none of this tool's:
	 * the lines after it are not counted as broken) */
	p->wrap_last_head = !cont && len <= WRAP_MAX && p->last_other != OTHER_SYSTEM &&
			    vmsa_text_line_start(line, skip_sp(line, e), e);
	size_t end = len - (len && line[len - 1] == '\r');
	p->wrap_last_eq = len && (name_before_eq(line, end) != SIZE_MAX ||
				  label_before_value(p, line, end));
}

/*
 * A batch of lines decoded apart from the lines before it (the parallel
 * reader): its first line is taken as following a line that was neither an
 * event nor a head, as at the start of an input, and the reader joins the
 * batches with vmsa_text_wrap_end().
 */
void vmsa_text_wrap_restart(struct vmsa_text_parser *p)
{
	p->wrap_last = 0;
	p->wrap_last_head = false;
	p->wrap_last_eq = false;
	p->wrap_first_goes_on = p->wrap_first_goes_on_eq = false;
	p->pending_inst = NULL;
}

void vmsa_text_wrap_end(const struct vmsa_text_parser *p, uint64_t lines,
			struct vmsa_wrap_edges *edges)
{
	edges->first_goes_on = p->wrap_first_goes_on;
	edges->first_goes_on_after_eq = p->wrap_first_goes_on_eq;
	edges->ends_after_head = p->wrap_last != lines || p->wrap_last_head;
	edges->ends_in_eq = p->wrap_last == lines && p->wrap_last_eq;
}

/*
 * Repairing a broken event: its first line (at most WRAP_MAX bytes, beginning
 * like a trace line) and each line after it that goes on it (goes_on()) are
 * joined in place, when the joined line makes an event; else nothing is
 * changed.  Each break (the newline, a '\r' before it, and the next line's
 * quoting in a quoted mail, "> ", and spaces) becomes one space, as the mail
 * took the space where it broke the line: the labels of an event printed
 * with them ("last shrinker return val ") are whole again.  After a line
 * that ends in a field's '=' (a break at a fixed column, not at a space:
 * "classzone_idx=" and "4" on the next line) the value is joined without a
 * space; after one that ends in a label ("priority"), with one.
 *
 * A hard wrap at a fixed column (fold -w 80) breaks a line anywhere, in a
 * header's event name, a field's name or its number, and takes no space:
 * each piece but the last is as long as the first.  A line after a piece of
 * the first one's length goes on it whatever it holds (when it does not
 * begin like a trace line), and where the pieces have that shape (two
 * pieces of the first's length or more, which tell the wrap's width; or
 * one after a first line of that width) they are joined
 * as they are, without a space, first: the mail's joining is tried when
 * that makes no event.
 */
#define UNWRAP_MAX 8 /* lines after the first, at most */
#define QUOTE_MAX 16  /* bytes of a line's quoting ("> > ") and spaces before it, at most */
/* the joined lines: the first, and UNWRAP_MAX more, each with its newline, a
 * '\r' and its quoting */
#define UNWRAP_BYTES (WRAP_MAX + UNWRAP_MAX * (WRAP_MAX + QUOTE_MAX + 2))

struct brk {
	size_t nl, quote_end; /* a break's newline, where its next line's quoting ends */
	bool cr, eq;	      /* a '\r' before the newline; the line before ends in '=' */
};

/* The lines [b, b + end) joined at their k breaks (hard: as they are),
 * in place; the joined line's length */
static size_t join_lines(char *b, const struct brk *at, unsigned k, size_t end, bool hard)
{
	size_t to = at[0].nl - at[0].cr;
	for (unsigned i = 0; i < k; i++) {
		size_t from = hard ? at[i].nl + 1 : at[i].quote_end;
		if (!hard) {
			/* each line moved up to the one before, past one space
			 * (a mail's flowed lines keep theirs at the end; none
			 * after a '=') */
			while (is_sp(b[to - 1]))
				to--;
			if (!at[i].eq)
				b[to++] = ' ';
		}
		size_t upto = i + 1 < k ? at[i + 1].nl - at[i + 1].cr : end;
		memmove(b + to, b + from, upto - from);
		to += upto - from;
	}
	return to;
}

/* Does the line [b, b + to) make an event?  (the trial leaves what decoding
 * counts as it was, and the instance that a lost-events marker left for the
 * line read next, which the line is; the caches it fills, the task memo and
 * remembered values, are the caller's as any line's) */
static bool makes_event(struct vmsa_text_parser *p, const char *b, size_t to)
{
	struct vmsa_traits t = p->traits;
	const char *inst = p->pending_inst;
	size_t inst_len = p->pending_len;
	uint64_t reads[3] = {p->layout_reads, p->value_reads, p->template_reads};
	struct vmsa_event ev;
	enum vmsa_reject_reason why;
	bool event = parse_line(p, b, to, &ev, &why) == VMSA_LINE_EVENT;
	p->traits = t;
	p->pending_inst = inst;
	p->pending_len = inst_len;
	p->layout_reads = reads[0];
	p->value_reads = reads[1];
	p->template_reads = reads[2];
	p->split = 0;
	return event;
}

size_t vmsa_text_unwrap(struct vmsa_text_parser *p, struct vmsa_source_counts *c, char *b,
			size_t len, size_t n, bool eof, unsigned *joined, size_t *line_len)
{
	*joined = 0;
	*line_len = len;
	if (len > WRAP_MAX || len >= n || !vmsa_text_line_start(b, skip_sp(b, b + len), b + len))
		return len;
	/* each break: its newline (a '\r' before it too), its next line's
	 * quoting, and whether it follows a field's '=' */
	struct brk at[UNWRAP_MAX];
	size_t end = len;
	size_t first = len - (len && b[len - 1] == '\r'); /* (the width of a hard wrap) */
	size_t piece = first;				   /* the last line's length */
	bool hard = first >= 16, by_goes_on = true;
	unsigned k = 0;
	while (k < UNWRAP_MAX && end < n) {
		const char *ns = b + end + 1, *ne = memchr(ns, '\n', (size_t)(b + n - ns));
		if (!ne) {
			/* (a line that may go on: WRAP_MAX bytes after its
			 * quoting, and a '\r') */
			if (!eof && b + n - ns <= WRAP_MAX + QUOTE_MAX + 1)
				goto more; /* the next line is not whole yet */
			ne = b + n;
		}
		bool cr = end > 0 && b[end - 1] == '\r';
		bool eq = name_before_eq(b, end - cr) != SIZE_MAX;
		bool value_next = eq || label_before_value(p, b, end - cr);
		if (ne == ns || (size_t)(ne - b) > UNWRAP_BYTES)
			break;
		bool goes = goes_on(p, ns, ne, value_next);
		/* (a hard wrap's next piece: after one of the first's length) */
		const char *f = skip_sp(ns, ne);
		bool piece_next = hard && piece == first && f < ne && *f != '#' &&
				  !starts(f, ne, "CPU:") && !vmsa_text_line_start(ns, f, ne);
		if (!goes && !piece_next)
			break;
		const char *u = f;
		if (f < ne && *f == '>') {
			u = vmsa_text_unquote(f, ne);
			if (u - ns > QUOTE_MAX)
				break;
		}
		if (k && piece != first)
			hard = false; /* (a piece before the last shorter than the first) */
		by_goes_on &= goes;
		at[k].nl = end;
		at[k].cr = cr;
		at[k].quote_end = (size_t)(u - b);
		at[k].eq = eq;
		end = (size_t)(ne - b);
		piece = (size_t)(ne - ns) - (ne > ns && ne[-1] == '\r');
		k++;
	}
	if (!k)
		return len;
	char saved[UNWRAP_BYTES];
	memcpy(saved, b, end);
	size_t to = 0;
	bool event = false;
	if (hard && (k >= 2 || first == p->unwrap_width)) {
		to = join_lines(b, at, k, end, true);
		event = makes_event(p, b, to);
		if (!event)
			memcpy(b, saved, end);
		else if (k >= 2)
			p->unwrap_width = first;
	}
	if (!event && by_goes_on) {
		to = join_lines(b, at, k, end, false);
		event = makes_event(p, b, to);
	}
	if (!event) {
		memcpy(b, saved, end);
		return len;
	}
	/* its lines after the first: read, and analyzed with it */
	c->lines_read += k;
	c->lines_analyzed += k;
	p->traits.unwrapped_events++;
	p->traits.unwrapped_lines += k;
	*joined = k;
	*line_len = to;
	return end;
more:
	/* (nothing was changed) */
	return SIZE_MAX;
}

bool vmsa_text_cut_event(struct vmsa_text_parser *p, struct vmsa_source_counts *c,
			 const char *line, size_t len, const struct vmsa_event *ev,
			 enum vmsa_reject_reason *reason)
{
	const char *e = line + len;
	while (e > line && (is_sp(e[-1]) || e[-1] == '\r'))
		e--;
	if (e == line || !is_digit(e[-1]))
		return false;
	c->lines_analyzed--;
	c->lines_rejected++;
	c->rejected_by_reason[VMSA_REJECT_BAD_NUMBER]++;
	*reason = VMSA_REJECT_BAD_NUMBER;
	if (!ev->instance)
		p->traits.top_buffer_events--;
	return true;
}

size_t vmsa_text_take_split(struct vmsa_text_parser *p)
{
	size_t at = p->split;
	p->split = 0;
	return at;
}

int vmsa_text_count_line(struct vmsa_text_parser *p, struct vmsa_source_counts *c,
			 const char *line, size_t len, struct vmsa_event *ev,
			 enum vmsa_reject_reason *reason)
{
	*reason = VMSA_REJECT_BAD_HEADER;
	c->lines_read++;
	int k = parse_line(p, line, len, ev, reason);
	if (__builtin_expect(k == VMSA_LINE_EVENT, 1)) {
		c->lines_analyzed++;
		return k;
	}
	switch (k) {
	case VMSA_LINE_EVENT | VMSA_LINE_SPLIT:
		c->lines_analyzed++;
		break;
	case VMSA_LINE_LOST:
		note_broken(p, c->lines_read);
		c->lines_lost_markers++;
		if (ev->lost)
			c->events_lost += ev->lost;
		else
			c->lost_markers_without_count++;
		if (p->split)
			return (int)k | VMSA_LINE_SPLIT;
		break;
	case VMSA_LINE_REJECTED:
		note_broken(p, c->lines_read);
		c->lines_rejected++;
		c->rejected_by_reason[*reason]++;
		if (p->split)
			return (int)k | VMSA_LINE_SPLIT;
		break;
	case VMSA_LINE_IGNORED:
	default:
		note_broken(p, c->lines_read);
		c->lines_ignored++;
		if (p->last_other == OTHER_VMSCAN)
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
	t->wrapped_events += d->wrapped_events;
	t->unwrapped_events += d->unwrapped_events;
	t->unwrapped_lines += d->unwrapped_lines;
	vmsa_name_counts_add(t->lru_other, d->lru_other);
	vmsa_name_counts_add(t->event_other, d->event_other);
	t->top_buffer_events += d->top_buffer_events;
	vmsa_name_counts_add(t->instance_events, d->instance_events);
	t->report_files += d->report_files;
	t->writes_rejected += d->writes_rejected;
	t->timestamps_integer += d->timestamps_integer;
	t->timestamps_out_of_order += d->timestamps_out_of_order;
	if (t->dialect == VMSA_DIALECT_UNKNOWN)
		t->dialect = d->dialect;
}
