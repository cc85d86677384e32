/* SPDX-License-Identifier: MIT */
/*
 * The columns of a text line before its fields (text_internal.h: struct
 * header):
 *   ftrace (trace, trace_pipe, trace-cmd report), 2.6.35 .. 6.x:
 *     <comm>-<pid> [(<tgid>)] [<cpu>] [<irq/preempt flags>] <ts>: <event>: <fields>
 *   perf script:
 *     <comm> <pid>[/<tid>] [<cpu>] <ts>: <system>:<event>: <fields>
 *     (the "[<cpu>]" column only where the recording has CPUs);
 *   trace-cmd report -l (latency format):
 *     <comm>-<pid> <cpu><flags> <ts>: <event>: <fields>
 *   the kernel's latency format (options/latency-format):
 *     <comm>-<pid> <cpu><flags> <N>us<mark>: <event>: <fields>
 *   and with options/verbose too:
 *     <comm> <pid> <cpu> <flags> <preempt> <index> [<hex us>] <ms>ms (+<ms>ms): <event>: <fields>
 *   trace-cmd report: "<instance>: " before the line of a buffer instance,
 *   "(+<delta>) " before the event name with --ts-diff; perf script: the
 *   sample's period there with -F +period.
 * The task name is everything before the -PID (or the space before the
 * PID for perf) that precedes [CPU], so names may hold spaces, '/', '.',
 * ':' and '-'; a line whose task column was cut off when it was pasted
 * ("-1234  [001] ...") has the task "<...>", the kernel's unknown name.
 * And the lost-events markers of trace_pipe and trace-cmd.
 */
#include <string.h>

#include "text_task.h"

const char vmsa_unknown_comm[6] = "<...>";

/* p moved back over the spaces before it, not before s */
static const char *skip_sp_back(const char *s, const char *p)
{
	while (p > s && is_sp(p[-1]))
		p--;
	return p;
}

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
		ce = skip_sp_back(cs, ce);
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

/* "(+12345)": the time since the event before, of trace-cmd report
 * --ts-diff, between the timestamp and the event name; the text after it
 * and its spaces, or NULL when it is none */
static const char *after_ts_diff(const char *r, const char *e)
{
	const char *d = r + 1;
	if (d < e && (*d == '+' || *d == '-'))
		d++;
	const char *ds = d;
	while (d < e && d - ds < 24 && is_digit(*d))
		d++;
	if (d == ds || d >= e || *d != ')')
		return NULL;
	return skip_sp(d + 1, e);
}

/*
 * From r (just past the timestamp's ':') on: trace-cmd's "(+delta)", perf's
 * period, and the event name.
 */
static inline __attribute__((always_inline)) bool name_after(const char *r, const char *e,
							  struct header *h)
{
	r = skip_sp(r, e);
	if (r < e && *r == '(' && !(r = after_ts_diff(r, e)))
		return false;
	if (r < e && is_digit(*r)) {
		/* perf script -F +period: the sample's period (no event name
		 * begins with a digit) */
		const char *d = r;
		while (d < e && is_digit(*d))
			d++;
		if (d < e && is_sp(*d))
			r = skip_sp(d, e);
	}

	/* event name, possibly "system:event", ends at ':' + space or EOL;
	 * perf script prints "system:event" without the ':' after it in some
	 * versions and field sets ("578.542919: vmscan:mm_vmscan_direct_reclaim_begin
	 * order=0 ..."): a "system:" before it, the name ends at a space or EOL */
	const char *ns = r, *last = r;
	for (;;) {
		r = find_byte2(r, e, ':', ' ');
		if (r == e || *r == ' ') { /* no spaces in a name */
			if (last == ns)
				return false;
			break;
		}
		if (r + 1 == e || is_sp(r[1]))
			break;
		last = ++r;
	}
	if (r == ns || r == last || r - ns > 128)
		return false;
	h->name = last;
	h->name_len = (size_t)(r - last);
	h->fields = r == e ? e : skip_sp(r + 1, e);
	h->end = e;
	return true;
}

/*
 * The columns from r (past the CPU column and its spaces) on: the optional
 * irq/preempt flags column, the timestamp, trace-cmd's "(+delta)" and the
 * event name.
 */
static inline __attribute__((always_inline)) bool ts_to_name(const char *r, const char *e,
							  struct header *h)
{
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
	return name_after(te + 1, e, h);
}

/* The CPU's digits at r, up to the first byte that is not one; NULL when
 * there are none or they say more than 2^20 */
static const char *cpu_digits(const char *r, const char *e, uint64_t *cpu)
{
	*cpu = 0;
	const char *ds = r;
	for (; r < e && is_digit(*r); r++) {
		*cpu = *cpu * 10 + (uint64_t)(*r - '0');
		if (*cpu > 1u << 20)
			return NULL;
	}
	return r == ds ? NULL : r;
}

bool vmsa_text_cpu_to_name(const char *q, const char *e, struct header *h)
{
	const char *r = q + 1;
	uint64_t cpu = 0;
	unsigned n;
	if (WORDWISE && e - r >= 8 && (n = lead_digits(vmsa_load64(r), &cpu)) - 1u < 7u) {
		r += n; /* "001]": the usual few digits at once */
	} else if (!(r = cpu_digits(r, e, &cpu))) {
		return false;
	}
	if (r >= e || *r != ']' || cpu > 1u << 20)
		return false;
	h->cpu = (int32_t)cpu;
	return ts_to_name(skip_sp(r + 1, e), e, h);
}

bool vmsa_text_name_at(const char *r, const char *e, struct header *h)
{
	return name_after(r, e, h);
}

#ifdef __SSE2__ /* (templates are read 16 bytes at a time: text_task.h) */
/* bits [at, at + n) */
static uint32_t tpl_bits(ptrdiff_t at, size_t n)
{
	return n ? (uint32_t)((((uint64_t)1 << n) - 1) << at) : 0;
}

/*
 * The template of the columns [q, ...) that vmsa_text_cpu_to_name() read
 * into *h, or none (t->len 0) when they are not "[CPU]", flags or none,
 * "SEC.FRAC:" in TPL_BYTES, or when reading the line by the template
 * (tpl_header(), as later lines are read) does not give *h: checked, not
 * assumed.
 */
static void learn_tpl(const char *q, const char *e, const struct header *h, struct header_tpl *t)
{
	if (e - q < TPL_READ)
		return;
	const char *r = q + 1;
	while (r < e && is_digit(*r))
		r++;
	size_t cpu_n = (size_t)(r - q - 1);
	if (cpu_n < 1 || cpu_n > 6 || r == e || *r != ']')
		return;
	uint32_t digit = tpl_bits(1, cpu_n), flag = 0, flag0 = 0;
	const char *ts = skip_sp(r + 1, e);
	if (ts < e && !is_digit(*ts)) { /* the flags ("d..1."), then the timestamp */
		const char *f = ts;
		ts = find_sp(f, e);
		if (ts - f > 8)
			return;
		flag0 = tpl_bits(f - q, 1);
		flag = tpl_bits(f + 1 - q, (size_t)(ts - f - 1));
		ts = skip_sp(ts, e);
	}
	const char *d = ts;
	while (d < e && is_digit(*d))
		d++;
	size_t sec_n = (size_t)(d - ts);
	if (sec_n < 1 || sec_n > 8 || d == e || *d != '.')
		return;
	const char *fr = ++d;
	while (d < e && is_digit(*d))
		d++;
	size_t frac_n = (size_t)(d - fr), len = (size_t)(d + 1 - q);
	if (frac_n < 1 || frac_n > 9 || d == e || *d != ':' || len > TPL_BYTES)
		return;
	digit |= tpl_bits(ts - q, sec_n) | tpl_bits(fr - q, frac_n);
	t->exact = tpl_bits(0, len) & ~(digit | flag | flag0);
	t->digit = digit;
	t->flag = flag;
	t->flag0 = flag0;
	t->cpu_n = (uint8_t)cpu_n;
	t->sec_off = (uint8_t)(ts - q);
	t->sec_n = (uint8_t)sec_n;
	t->frac_n = (uint8_t)frac_n;
	memcpy(t->text, q, TPL_BYTES);
	t->len = (uint8_t)len;
	struct header g;
	if (!tpl_header(t, q, e, &g) || g.cpu != h->cpu || g.ts != h->ts ||
	    g.fine_ts != h->fine_ts || g.name != h->name || g.name_len != h->name_len ||
	    g.fields != h->fields || g.end != h->end)
		t->len = 0;
}

bool vmsa_text_cpu_to_name_learn(const char *q, const char *e, struct header *h,
				 struct header_tpl *t)
{
	t->len = 0;
	if (!vmsa_text_cpu_to_name(q, e, h))
		return false;
	learn_tpl(q, e, h, t);
	return true;
}
#endif

/*
 * A line without a "[CPU]" column, its timestamp at t:
 *   trace-cmd report -l (latency format): "<comm>-<pid> <cpu><flags> <ts>: ..."
 *     (the CPU's digits and the irq/preempt flags are one word: "1d..2.",
 *     with -R "1-0x24");
 *   perf script of a recording without CPUs (perf record -- command):
 *     "<comm> <pid>[/<tid>] <ts>: <system>:<event>: ..."
 */
static bool header_at_ts(const char *s, const char *first, const char *t, const char *e,
			 const char *colon, struct header *h)
{
	const char *pe = skip_sp_back(s, t);
	const char *w = pe; /* the word before the timestamp */
	while (w > s && !is_sp(w[-1]))
		w--;
	uint64_t cpu;
	const char *fl = cpu_digits(w, pe, &cpu);
	/* (flags: "d..2.", or with -R their number: "-0x24") */
	bool flags = fl && fl < pe && pe - fl <= 12 && w > s;
	for (const char *c = fl; flags && c < pe; c++)
		flags = is_digit(*c) || *c == '.' || *c == '-' || (*c >= 'a' && *c <= 'z') ||
			(*c >= 'A' && *c <= 'Z');
	if (flags) {
		/* latency format: "-<pid>" before the CPU and its flags */
		w = skip_sp_back(s, w);
		if (!parse_pid(s, first, w, h) || h->perf)
			return false;
		h->cpu = (int32_t)cpu;
	} else {
		if (!parse_pid(s, first, pe, h) || !h->perf)
			return false;
		h->cpu = -1; /* (not recorded) */
	}
	return colon ? name_after(colon + 1, e, h) : ts_to_name(t, e, h);
}

/*
 * The kernel's own latency format (options/latency-format of a tracefs
 * instance): "<comm>-<pid> <cpu><flags> <N>us<mark>: ", N microseconds
 * since the buffer's start, the mark ' ', '+', '!', '#', '*', '@' or '$'
 * (how long until the next event).  At t: the ':' after it, or NULL.
 */
static const char *lat_us(const char *t, const char *e, uint64_t *ns)
{
	uint64_t us = 0;
	const char *d = t;
	for (; d < e && is_digit(*d) && d - t < 16; d++)
		us = us * 10 + (uint64_t)(*d - '0');
	if (d == t || e - d < 3 || d[0] != 'u' || d[1] != 's')
		return NULL;
	d += 2;
	if (*d != ':' && strchr("+!#*@$ ", *d))
		d++;
	if (d < e && *d == ' ' && d[-1] != ' ')
		d++; /* (a mark, then ": ") */
	if (d >= e || *d != ':')
		return NULL;
	*ns = us * 1000;
	return d;
}

static bool is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

/* The value of the digits [p, e), in base 16 or 10 (at most 16 or 19 of them) */
static uint64_t digits_of(const char *p, const char *e, bool hex)
{
	uint64_t x = 0;
	for (; p < e; p++)
		x = x * (hex ? 16 : 10) + (uint64_t)(is_digit(*p) ? *p - '0' : *p - 'a' + 10);
	return x;
}

/* The run of digits (hex: of hex digits) that ends at pe, at most max
 * bytes, its value in *v: where it begins, or NULL when there is none */
static const char *digits_before(const char *s, const char *pe, bool hex, size_t max,
				 uint64_t *v)
{
	const char *d = pe;
	while (d > s && (hex ? is_hex(d[-1]) : is_digit(d[-1])) && (size_t)(pe - d) < max)
		d--;
	if (d == pe || (d > s && !is_sp(d[-1])))
		return NULL;
	*v = digits_of(d, pe, hex);
	return d;
}

/* A time of the verbose latency format at p: "<digits>.<3 digits>ms" where
 * the clock counts ns, else the clock's count "%lld" (negative where such
 * clocks are out of step between CPUs); past it, or NULL */
static const char *lat_time(const char *p, const char *e, bool in_ns)
{
	if (!in_ns && p < e && *p == '-')
		p++;
	const char *d = p;
	while (d < e && is_digit(*d) && (!in_ns || d - p < 20))
		d++;
	if (d == p)
		return NULL;
	if (!in_ns)
		return d;
	if (e - d < 6 || d[0] != '.' || !is_digit(d[1]) || !is_digit(d[2]) || !is_digit(d[3]) ||
	    d[4] != 'm' || d[5] != 's')
		return NULL;
	return d + 6;
}

/*
 * The kernel's verbose latency format (options/latency-format and
 * options/verbose of a tracefs instance, trace or trace_pipe):
 *   "%16s %7d %3d %d %08x %08lx [%08llx] %ld.%03ldms (+%ld.%03ldms): "
 * the task's name right-aligned (it may hold spaces), its pid, the CPU, the
 * irq flags as a number, the preempt count, the event's index; then the
 * time in hex, microseconds of the trace clock, and in ms since the
 * buffer's start and until the next event.  Where the clock does not count
 * ns (counter, x86-tsc) the time is the clock's own count, in hex, and
 * "%lld (+%lld): " follows it (older kernels printed the pid narrower, "%5d").
 */
static bool parse_header_verbose(const char *s, const char *first, const char *e,
				 struct header *h)
{
	for (const char *q = find_byte(first, e, '['); q < e; q = find_byte(q + 1, e, '[')) {
		if (q == first || !is_sp(q[-1]))
			continue;
		const char *x = q + 1;
		while (x < e && is_hex(*x) && x - q <= 16)
			x++;
		size_t nx = (size_t)(x - q - 1);
		if (nx < 8 || nx > 16 || e - x < 2 || x[0] != ']' || x[1] != ' ')
			continue;
		uint64_t ts = digits_of(q + 1, x, true);
		/* the times after it: since the buffer's start, "(+" until the next */
		const char *t = lat_time(x + 2, e, true);
		bool in_ns = t != NULL;
		if (!in_ns)
			t = lat_time(x + 2, e, false);
		if (!t || e - t < 3 || t[0] != ' ' || t[1] != '(' || t[2] != '+' ||
		    !(t = lat_time(t + 3, e, in_ns)) || e - t < 2 || t[0] != ')' || t[1] != ':')
			continue;
		if (in_ns) {
			if (ts > UINT64_MAX / 1000)
				continue;
			ts *= 1000;
		}
		const char *after = t + 2; /* (past the ':') */
		/* back from the '[': index, preempt count, flags, CPU, pid */
		const char *ix, *pc, *p;
		uint64_t idx, preempt, flags, cpu, pid;
		if (!(ix = digits_before(s, q - 1, true, 16, &idx)) || q - 1 - ix < 8 || ix == s ||
		    !(pc = digits_before(s, ix - 1, true, 8, &preempt)) || ix - 1 - pc != 8 ||
		    pc == s || !(p = digits_before(s, skip_sp_back(s, pc), false, 10, &flags)) ||
		    p == s || !(p = digits_before(s, skip_sp_back(s, p), false, 8, &cpu)) ||
		    p == s || !(p = digits_before(s, skip_sp_back(s, p), false, 10, &pid)) ||
		    pid > INT32_MAX || cpu > 1u << 20)
			continue;
		(void)flags;
		(void)preempt;
		if (p == first) {
			/* a task without a name ("%16s" of ""): unknown, as a cut
			 * task column is in the usual format */
			h->comm = vmsa_unknown_comm;
			h->comm_len = sizeof(vmsa_unknown_comm) - 1;
		} else {
			/* (digits_before() saw a blank before the pid) */
			h->comm = first;
			h->comm_len = (size_t)(skip_sp_back(first, p) - first);
		}
		h->pid = (int32_t)pid;
		h->cpu = (int32_t)cpu;
		h->perf = false;
		h->ts = ts;
		/* (a clock not in ns prints its counts: an integer) */
		h->fine_ts = in_ns ? 0 : TS_INTEGER;
		h->first_lb = false;
		h->cpu_col = q;
		return name_after(after, e, h);
	}
	return false;
}

/* A line without a "[CPU]" column: its first word that is a timestamp
 * followed by ':' (not the first word: a task comes before it) */
static bool parse_header_unbracketed(const char *s, const char *first, const char *e,
				     struct header *h)
{
	for (const char *t = find_sp(first, e); t < e;) {
		t = skip_sp(t, e);
		if (t < e && is_digit(*t)) {
			const char *te;
			uint64_t ts;
			uint8_t fine;
			if (parse_ts(t, e, &ts, &te, &fine) && te < e && *te == ':' &&
			    (te + 1 == e || is_sp(te[1])))
				return header_at_ts(s, first, t, e, NULL, h);
			if ((te = lat_us(t, e, &ts)) && (te + 1 == e || is_sp(te[1]))) {
				h->ts = ts;
				h->fine_ts = false;
				return header_at_ts(s, first, t, e, te, h);
			}
		}
		t = find_sp(t, e);
	}
	return false;
}

/* Try the '[' at q as the CPU column: read by h->tpl where the columns
 * fit it, else the long way. */
static bool try_cpu_at(const char *s, const char *first, const char *q, const char *e,
		       struct header *h)
{
	bool by_tpl = false;
#ifdef __SSE2__ /* (no template is learned or read without it) */
	by_tpl = h->tpl && tpl_header(h->tpl, q, e, h);
	if (by_tpl)
		++*h->tpl_reads;
#endif
	if (!by_tpl && !vmsa_text_cpu_to_name(q, e, h))
		return false;
	/* the task and pid before [CPU], skipping a "(TGID)" column */
	const char *pe = skip_sp_back(s, q);
	if (pe > s && pe[-1] == ')') {
		const char *o = pe - 1;
		while (o > s && o[-1] != '(')
			o--;
		if (o == s)
			return false;
		pe = skip_sp_back(s, o - 1);
	}
	return parse_pid(s, first, pe, h);
}

/*
 * "dat:     cp-378  [001] ...": trace-cmd report names the buffer instance
 * an event was recorded in (trace-cmd record -B NAME) before its line
 * (right-aligned when it reports several files: "      dat:").  The prefix
 * is the line's first word when it ends with ':' and is followed by a
 * space (vmsa_text_parse_header() asks more: a task may be named "tmux:
 * server"); where after it the line is none, the line is read whole.  The
 * text after the prefix, or NULL.
 * (A line that reads both ways, "a: b-7 [000] ...", is read as of task "b"
 * in instance "a": instances are common, task names with ": " are not.)
 */
const char *vmsa_text_after_instance(const char *s, const char *first, const char *e)
{
	(void)s;
	/* (a word at a time: on every line that is no task's again) */
	const char *w = find_sp(first, e);
	if (w - first < 2 || w == e || w[-1] != ':' || memchr(first, '[', (size_t)(w - first)))
		return NULL;
	return w;
}

const char *vmsa_text_unquote(const char *first, const char *e)
{
	if (first == e || *first != '>')
		return first;
	while (first < e && (*first == '>' || is_sp(*first)))
		first++;
	return first;
}

static bool line_start_from(const char *s, const char *first, const char *e)
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
		const char *pe = skip_sp_back(s, q);
		struct header h;
		if (parse_pid(s, first, pe, &h))
			return true;
	}
	return false;
}

bool vmsa_text_line_start(const char *s, const char *first, const char *e)
{
	if (first < e && *first == '>')
		s = first = vmsa_text_unquote(first, e);
	const char *a = vmsa_text_after_instance(s, first, e);
	if (a && line_start_from(a, skip_sp(a, e), e))
		return true;
	if (line_start_from(s, first, e))
		return true;
	/* a whole line without a "[CPU]" column, or of the verbose latency
	 * format ("[<hex us>]": no CPU's digits) */
	struct header h;
	return (a && parse_header_unbracketed(a, skip_sp(a, e), e, &h)) ||
	       parse_header_unbracketed(s, first, e, &h) || parse_header_verbose(s, first, e, &h);
}

static bool parse_header_from(const char *s, const char *first, const char *e, struct header *h);

bool vmsa_text_parse_header(const char *s, const char *first, const char *e, struct header *h)
{
	/* the line whole first: a line read so whose task holds no ':' has
	 * no instance's name before it (the task column would hold it) */
	bool ok = parse_header_from(s, first, e, h);
	h->inst = NULL;
	h->inst_len = 0;
	if (ok && !memchr(h->comm, ':', h->comm_len))
		return true;
	struct header whole = *h;
	const char *after = vmsa_text_after_instance(s, first, e);
	if (after) {
		/* the task column after an instance's name is right-aligned in 16
		 * bytes, and task names have at most 15: two spaces or more.  One
		 * is a task's name ("tmux: server-1176 [000] ...") but where the
		 * task column is cut to 8 bytes (trace-cmd report -l: "dat:
		 * kworker/-22 0.....", a line without "[CPU]") */
		const char *r = skip_sp(after, e);
		bool unbracketed = r - after < 2;
		if (!unbracketed ? parse_header_from(after, r, e, h)
				 : (h->first_lb = false, parse_header_unbracketed(after, r, e, h))) {
			h->inst = first;
			h->inst_len = (size_t)(after - 1 - first); /* (without its ':') */
			return true;
		}
		/* whether the line read so from its timestamp back did depends on
		 * more than the line's start: the task memo, which gives a line
		 * the header of an earlier one that began alike, keeps none */
		if (unbracketed) {
			*h = whole;
			h->first_lb = false;
			return ok;
		}
	}
	*h = whole;
	return ok;
}

static bool parse_header_from(const char *s, const char *first, const char *e, struct header *h)
{
	/* (no '[' among the leading spaces: the search starts after them) */
	h->first_lb = true;
	for (const char *q = first; q < e; q++) {
		q = find_byte(q, e, '[');
		if (q == e)
			break;
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
	h->first_lb = false; /* (so no task memo: a slower reading) */
	return parse_header_unbracketed(s, first, e, h) || parse_header_verbose(s, first, e, h);
}


/* A marker's count [d, p): *n, or unknown (0, *known false) when it is
 * none (cut, negative, not digits, past 2^64 - 1): the marker says events
 * were lost, not how many */
static void lost_count(const char *d, const char *p, uint64_t *n, bool *known)
{
	bool neg;
	*known = p > d && parse_num(d, p, n, &neg) == NUM_OK && !neg;
	if (!*known)
		*n = 0;
}

bool vmsa_text_parse_lost(const char *p, const char *e, uint64_t *n, bool *known,
			  const char **end)
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
	/* the kernel's trace file, when a writer overran the reader and the
	 * ring buffer could not say by how many (print_trace_line()) */
	static const char lost_unknown[] = "LOST EVENTS]", dropped_unknown[] = "EVENTS DROPPED]";
	if (starts(p, e, lost_unknown) || starts(p, e, dropped_unknown)) {
		*n = 0;
		*known = false;
		*end = p + (*p == 'L' ? sizeof(lost_unknown) : sizeof(dropped_unknown)) - 1;
		return true;
	}
	/* "LOST M EVENTS]", trace-cmd's "M EVENTS DROPPED]"; a marker damaged
	 * after its "LOST " or its digits ("[LOST 5 EVENTS" cut, "[LOST -5
	 * EVENTS]", "[LOST 5x EVENTS]", a count past 2^64 - 1) is still a
	 * marker, of an unknown count: events were lost */
	bool lost = starts(p, e, "LOST ");
	if (lost)
		p += 5;
	else if (p == e || !is_digit(*p))
		return false;
	const char *d = p;
	while (p < e && !is_sp(*p) && *p != ']')
		p++;
	const char *tail = lost ? " EVENTS]" : " EVENTS DROPPED]";
	size_t tn = strlen(tail);
	if (!starts(p, e, tail)) {
		*n = 0;
		*known = false;
		/* (the rest of the line: what the marker was cut into) */
		const char *r = find_byte(p, e, ']');
		*end = r < e ? r + 1 : e;
		return true;
	}
	lost_count(d, p, n, known);
	*end = p + tn;
	return true;
}

/* The word that ends at b (spaces before b skipped), not before f: its start */
static const char *word_before(const char *f, const char *b, const char **end)
{
	b = skip_sp_back(f, b);
	const char *w = b;
	while (w > f && !is_sp(w[-1]))
		w--;
	*end = b;
	return w;
}

static bool all_digits(const char *p, const char *e)
{
	for (; p < e; p++)
		if (!is_digit(*p))
			return false;
	return true;
}

/*
 * A header in [f, e) whose CPU column's '[' is at q: where its line begins
 * (the task's word, "comm-pid" or perf's "comm pid", past a "(TGID)"
 * column), or NULL.  A task whose name holds spaces is taken from its last
 * word: the words before it stay with the event before, which reads no
 * more than its own fields.
 */
static const char *header_at_cpu(const char *f, const char *q, const char *e)
{
	const char *r = q + 1;
	while (r < e && is_digit(*r))
		r++;
	if (r == q + 1 || r == e || *r != ']')
		return NULL;
	const char *b = skip_sp_back(f, q);
	if (b > f && b[-1] == ')') {
		const char *o = b - 1;
		while (o > f && o[-1] != '(')
			o--;
		if (o == f)
			return NULL;
		b = o - 1;
	}
	const char *be, *w = word_before(f, b, &be);
	if (w == be)
		return NULL;
	if (all_digits(w, be)) /* perf: "comm pid [cpu]" */
		w = word_before(f, w, &be);
	return w > f && w < be && vmsa_text_line_start(w, w, e) ? w : NULL;
}

/* A header without a "[CPU]" column (perf script of a recording without
 * CPUs, the latency formats) whose event name [n, ...) mentions the
 * catalogue: where its line begins (the nearest word before the name from
 * which a line starts: the task's first word), or NULL */
static const char *header_before_name(const char *f, const char *n, const char *e)
{
	const char *w = n;
	for (int i = 0; i < 4 && w > f; i++) {
		const char *we;
		w = word_before(f, w, &we);
		if (w > f && i >= 1 && vmsa_text_line_start(w, w, e))
			return w;
	}
	return NULL;
}

const char *vmsa_text_joined_line(const struct vmsa_catalogue *c, const char *f, const char *e)
{
	const char *at = NULL;
	/* a '\r' that ends a line before the end */
	const char *cr = memchr(f, '\r', (size_t)(e - f));
	if (cr) {
		const char *r = cr;
		while (r < e && (*r == '\r' || is_sp(*r)))
			r++;
		if (r < e)
			at = r;
	}
	const char *lim = at ? at : e;
	/* a "[CPU]" column, or a lost-events marker ("CPU:N [LOST ...") */
	for (const char *q = find_byte(f, lim, '['); q < lim; q = find_byte(q + 1, lim, '[')) {
		if (q == f || !is_sp(q[-1]))
			continue;
		const char *we, *w = word_before(f, q, &we);
		uint64_t n;
		bool known;
		const char *end;
		if (w > f && starts(w, we, "CPU:") && vmsa_text_parse_lost(w, e, &n, &known, &end))
			return w;
		const char *h = header_at_cpu(f, q, e);
		if (h)
			return h;
	}
	/* an event of the catalogue's system, its header without "[CPU]" */
	for (size_t i = 0; i < sizeof(c->prefixes) / sizeof(c->prefixes[0]) + 1; i++) {
		const char *lit = i < sizeof(c->prefixes) / sizeof(c->prefixes[0]) ? c->prefixes[i]
										  : c->system;
		if (!lit)
			continue;
		size_t ln = strlen(lit);
		const char *m = vmsa_text_find_lit(f, lim, lit, ln);
		if (!m)
			continue;
		m -= ln;
		if (i == sizeof(c->prefixes) / sizeof(c->prefixes[0]) && (m + ln >= lim || m[ln] != ':'))
			continue;
		const char *h = header_before_name(f, m, e);
		if (h && h < lim)
			lim = h;
	}
	return lim < e ? lim : NULL;
}
