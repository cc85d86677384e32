/* SPDX-License-Identifier: MIT */
/*
 * The columns of a text line before its fields (text_internal.h: struct
 * header):
 *   ftrace (trace, trace_pipe, trace-cmd report), 2.6.35 .. 6.x:
 *     <comm>-<pid> [(<tgid>)] [<cpu>] [<irq/preempt flags>] <ts>: <event>: <fields>
 *   perf script:
 *     <comm> <pid>[/<tid>] [<cpu>] <ts>: <system>:<event>: <fields>
 * The task name is everything before the -PID (or the space before the
 * PID for perf) that precedes [CPU], so names may hold spaces, '/', '.',
 * ':' and '-'; a line whose task column was cut off when it was pasted
 * ("-1234  [001] ...") has the task "<...>", the kernel's unknown name.
 * And the lost-events markers of trace_pipe and trace-cmd.
 */
#include "text_internal.h"

const char vmsa_unknown_comm[6] = "<...>";

/* first: where the line's leading spaces end (skip_sp(s, e)) */
static bool parse_pid(const char *s, const char *first, const char *pe, struct header *h)
{
	/* s..pe is the text before [CPU] (and before any (TGID)), trimmed. */
	/* the digits before pe, at most 10, read backwards */
	const char *d = pe;
	uint64_t pid = 0, unit = 1;
	for (; d > s && is_digit(d[-1]); d--, unit *= 10) {
		if (pe - d == 10)
			return false;
		pid += (uint64_t)(d[-1] - '0') * unit;
	}
	if (d == pe || pid > INT32_MAX)
		return false;
	const char *ce;
	if (d > s && d[-1] == '-') {
		ce = d - 1;
		h->perf = false;
	} else if (d > s && d[-1] == '/') {
		/* perf "pid/tid": the task is the tid */
		const char *q = d - 1;
		while (q > s && is_digit(q[-1]))
			q--;
		if (q == d - 1 || q == s || !is_sp(q[-1]))
			return false;
		ce = q;
		h->perf = true;
	} else if (d > s && is_sp(d[-1])) {
		ce = d;
		h->perf = true;
	} else {
		return false;
	}
	const char *cs = first < ce ? first : ce; /* skip_sp(s, ce) */
	if (h->perf)
		while (ce > cs && is_sp(ce[-1]))
			ce--;
	h->comm = cs;
	h->comm_len = (size_t)(ce - cs);
	if (!h->comm_len) {
		/* the task column was cut off ("-1234  [001] ..."): the name is
		 * unknown, as the kernel says it when it has none */
		h->comm = vmsa_unknown_comm;
		h->comm_len = sizeof(vmsa_unknown_comm) - 1;
	}
	h->pid = (int32_t)pid;
	return true;
}

bool vmsa_text_cpu_to_name(const char *q, const char *e, struct header *h)
{
	const char *r = q + 1;
	uint64_t cpu = 0;
	const char *ds = r;
	unsigned n;
	if (WORDWISE && e - r >= 8 && (n = lead_digits(vmsa_load64(r), &cpu)) < 8) {
		r += n; /* "001]": the usual few digits at once */
	} else {
		for (cpu = 0; r < e && is_digit(*r); r++) {
			cpu = cpu * 10 + (uint64_t)(*r - '0');
			if (cpu > 1u << 20)
				return false;
		}
	}
	if (r == ds || r >= e || *r != ']' || cpu > 1u << 20)
		return false;
	r = skip_sp(r + 1, e);

	/* optional irq/preempt flags column, then the timestamp */
	const char *te;
	if (r == e || !is_digit(*r) || !parse_ts(r, e, &h->ts, &te, &h->fine_ts) || te >= e ||
	    *te != ':') {
		const char *f = r;
		r = find_sp(r, e);
		if (r == f || r - f > 8)
			return false;
		r = skip_sp(r, e);
		if (!parse_ts(r, e, &h->ts, &te, &h->fine_ts) || te >= e || *te != ':')
			return false;
	}
	r = skip_sp(te + 1, e);

	/* event name, possibly "system:event", ends at ':' + space or EOL */
	const char *ns = r, *last = r;
	for (;;) {
		r = find_byte2(r, e, ':', ' ');
		if (r == e || *r == ' ') /* no spaces in a name */
			return false;
		if (r + 1 == e || is_sp(r[1]))
			break;
		last = ++r;
	}
	if (r == ns || r == last || r - ns > 128)
		return false;
	h->name = last;
	h->name_len = (size_t)(r - last);
	h->fields = skip_sp(r + 1, e);
	h->end = e;
	h->cpu = (int32_t)cpu;
	return true;
}

/* Try the '[' at q as the CPU column. */
static bool try_cpu_at(const char *s, const char *first, const char *q, const char *e,
		       struct header *h)
{
	if (!vmsa_text_cpu_to_name(q, e, h))
		return false;
	/* the task and pid before [CPU], skipping a "(TGID)" column */
	const char *pe = q;
	while (pe > s && is_sp(pe[-1]))
		pe--;
	if (pe > s && pe[-1] == ')') {
		const char *o = pe - 1;
		while (o > s && o[-1] != '(')
			o--;
		if (o == s)
			return false;
		pe = o - 1;
		while (pe > s && is_sp(pe[-1]))
			pe--;
	}
	return parse_pid(s, first, pe, h);
}

bool vmsa_text_line_start(const char *s, const char *first, const char *e)
{
	for (const char *q = first; q < e; q++) {
		q = find_byte(q, e, '[');
		if (q == e)
			return false;
		if (q == s || !is_sp(q[-1]))
			continue;
		const char *r = q + 1;
		while (r < e && is_digit(*r))
			r++;
		if (r == q + 1 || r == e || *r != ']')
			continue;
		const char *pe = q;
		while (pe > s && is_sp(pe[-1]))
			pe--;
		struct header h;
		if (parse_pid(s, first, pe, &h))
			return true;
	}
	return false;
}

bool vmsa_text_parse_header(const char *s, const char *first, const char *e, struct header *h)
{
	/* (no '[' among the leading spaces: the search starts after them) */
	h->first_lb = true;
	for (const char *q = first; q < e; q++) {
		q = find_byte(q, e, '[');
		if (q == e)
			return false;
		if (q == s || !is_sp(q[-1])) {
			h->first_lb = false;
			continue;
		}
		if (try_cpu_at(s, first, q, e, h)) {
			h->cpu_col = q;
			return true;
		}
		h->first_lb = false;
	}
	return false;
}


bool vmsa_text_parse_lost(const char *p, const char *e, uint64_t *n, bool *known)
{
	if (!starts(p, e, "CPU:"))
		return false;
	p += 4;
	while (p < e && is_digit(*p))
		p++;
	p = skip_sp(p, e);
	if (!starts(p, e, "["))
		return false;
	p++;
	bool neg;
	if (starts(p, e, "LOST ")) {
		p += 5;
		const char *d = p;
		while (p < e && is_digit(*p))
			p++;
		if (!starts(p, e, " EVENTS]") || parse_num(d, p, n, &neg) != NUM_OK)
			return false;
		*known = true;
		return true;
	}
	if (starts(p, e, "EVENTS DROPPED]")) {
		*n = 0;
		*known = false;
		return true;
	}
	const char *d = p;
	while (p < e && is_digit(*p))
		p++;
	if (!starts(p, e, " EVENTS DROPPED]") || parse_num(d, p, n, &neg) != NUM_OK)
		return false;
	*known = true;
	return true;
}

