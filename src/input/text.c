/* SPDX-License-Identifier: MIT */
/*
 * Text input: one line in, one normalized event (or a classification) out.
 *
 * Line layouts understood (fields after the event name are read by name):
 *   ftrace (trace, trace_pipe, trace-cmd report), 2.6.35 .. 6.x:
 *     <comm>-<pid> [(<tgid>)] [<cpu>] [<irq/preempt flags>] <ts>: <event>: <fields>
 *   perf script:
 *     <comm> <pid>[/<tid>] [<cpu>] <ts>: <system>:<event>: <fields>
 * The task name is everything before the -PID (or the space before the
 * PID for perf) that precedes [CPU], so names may hold spaces, '/', '.',
 * ':' and '-'.
 *
 * Which events there are, their fields' names across kernels and how the
 * values make an event: the catalogue (events.h), read here and by the
 * binary decoder; this file names none of them.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../internal.h"
#include "events.h"
#include "input.h"

#define MAX_COMM 255
#define MAX_FIELDS 32

#define NEVENTS 32 /* names of catalogue events, at most */
struct vmsa_text_parser;
struct value_memo;
/* remembered values: lines of an event looked up, found; lines not looked up */
struct value_tally {
	uint32_t lines, found, pause;
	bool probed;  /* the first, short probe is over */
	bool partial; /* looked up by the text from the first field read on */
};

/* ---- small scanners over [p, e) --------------------------------- */

static inline bool is_sp(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Eight bytes at a time (little-endian machines; others take the byte
 * loops): for a word w, the lowest byte that equals c is the lowest byte
 * whose high bit is set in match_byte(w, c); the lowest byte that differs
 * from c is the lowest non-zero byte of w ^ bcast(c).
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORDWISE 1
#else
#define WORDWISE 0
#endif
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static inline uint64_t match_byte(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (ONES * c);
	return (x - ONES) & ~x & HIGHS;
}

#ifdef __SSE2__
#define SIMD16 1
/* bit i: byte i of the 16 at p is c */
static inline unsigned eq16(const char *p, char c)
{
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)p);
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, _mm_set1_epi8(c)));
}
#else
#define SIMD16 0
static inline unsigned eq16(const char *p, char c)
{
	unsigned m = 0;
	for (int i = 0; i < 16; i++)
		m |= (unsigned)(p[i] == c) << i;
	return m;
}
#endif

/*
 * The first byte in [p, e) whose bit is set by match(16 bytes), or e.
 * Spans of 16 bytes or more are read 16 at a time, the last 16 ending at e
 * (overlapping, the bytes before p masked off).
 */
#define FIND16(p, e, match)                                                    \
	do {                                                                   \
		if (SIMD16 && (e) - (p) >= 16) {                               \
			for (; (e) - (p) > 16; (p) += 16) {                    \
				unsigned m_ = match(p);                        \
				if (m_)                                        \
					return (p) + __builtin_ctz(m_);        \
			}                                                      \
			const char *q_ = (e) - 16;                             \
			unsigned m_ = match(q_) & ~((1u << ((p) - q_)) - 1);   \
			return m_ ? q_ + __builtin_ctz(m_) : (e);              \
		}                                                              \
	} while (0)

/* The first c in [p, e), or e. */
static inline const char *find_byte(const char *p, const char *e, char c)
{
#define MATCH_C(x) eq16(x, c)
	FIND16(p, e, MATCH_C);
#undef MATCH_C
	if (WORDWISE)
		for (; e - p >= 8; p += 8) {
			uint64_t m = match_byte(vmsa_load64(p), (unsigned char)c);
			if (m)
				return p + (__builtin_ctzll(m) >> 3);
		}
	while (p < e && *p != c)
		p++;
	return p;
}

/* The first a or b in [p, e), or e. */
static inline const char *find_byte2(const char *p, const char *e, char a, char b)
{
#define MATCH_AB(x) (eq16(x, a) | eq16(x, b))
	FIND16(p, e, MATCH_AB);
#undef MATCH_AB
	while (p < e && *p != a && *p != b)
		p++;
	return p;
}

/* The first space or tab in [p, e), or e. */
static inline const char *find_sp(const char *p, const char *e)
{
	if (WORDWISE)
		for (; e - p >= 8; p += 8) {
			uint64_t w = vmsa_load64(p);
			/* each mask's lowest bit is exact, so is their union's */
			uint64_t m = match_byte(w, ' ') | match_byte(w, '\t');
			if (m)
				return p + (__builtin_ctzll(m) >> 3);
		}
	while (p < e && !is_sp(*p))
		p++;
	return p;
}

/* The first byte in [p, e) that is not a space, or e. */
static inline const char *skip_spaces(const char *p, const char *e)
{
#define NOT_SP(x) (~eq16(x, ' ') & 0xffffu)
	FIND16(p, e, NOT_SP);
#undef NOT_SP
	while (p < e && *p == ' ')
		p++;
	return p;
}

/* Spaces and tabs from p on, in bulk: task names are right-aligned in 16
 * columns, timestamps in 12. */
static __attribute__((noinline)) const char *skip_sp_run(const char *p, const char *e)
{
	p = skip_spaces(p, e);
	while (p < e && is_sp(*p)) /* tabs, and spaces after them */
		p++;
	return p;
}

static inline __attribute__((always_inline)) const char *skip_sp(const char *p, const char *e)
{
	/* most runs between columns are one space */
	if (p == e || !is_sp(*p))
		return p;
	if (++p == e || !is_sp(*p))
		return p;
	if (WORDWISE && e - p >= 8) {
		/* up to 8 more spaces as one word (a padded timestamp) */
		uint64_t x = vmsa_load64(p) ^ (ONES * ' ');
		if (x) {
			p += __builtin_ctzll(x) >> 3;
			if (!is_sp(*p))
				return p;
		}
	}
	return skip_sp_run(p, e);
}

static bool starts(const char *p, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(e - p) >= n && memcmp(p, lit, n) == 0;
}

enum num_status { NUM_OK, NUM_BAD, NUM_RANGE };

/* Decimal or 0x-hex, optional '-' (reported through *neg). Whole span. */
static enum num_status parse_num_slow(const char *p, const char *e, uint64_t *v, bool *neg);

/* The common case inline: up to 19 decimal digits cannot overflow. */
static inline enum num_status parse_num(const char *p, const char *e, uint64_t *v, bool *neg)
{
	/* (a sign, "0x" or any other non-digit goes the slow way) */
	if (p < e && e - p <= 19) {
		uint64_t x = 0;
		for (const char *q = p; q < e; q++) {
			if (!is_digit(*q))
				return parse_num_slow(p, e, v, neg);
			x = x * 10 + (uint64_t)(*q - '0');
		}
		*neg = false;
		*v = x;
		return NUM_OK;
	}
	return parse_num_slow(p, e, v, neg);
}

static enum num_status parse_num_slow(const char *p, const char *e, uint64_t *v, bool *neg)
{
	*neg = false;
	*v = 0;
	if (p < e && *p == '-') {
		*neg = true;
		p++;
	}
	if (p >= e)
		return NUM_BAD;
	uint64_t x = 0;
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		for (; p < e; p++) {
			unsigned d;
			char c = *p;
			if (is_digit(c))
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				return NUM_BAD;
			if (x >> 60)
				return NUM_RANGE;
			x = (x << 4) | d;
		}
	} else {
		for (; p < e; p++) {
			if (!is_digit(*p))
				return NUM_BAD;
			unsigned d = (unsigned)(*p - '0');
			/* x * 10 + d <= UINT64_MAX, without a division per digit */
			if (x >= 1844674407370955161ull && (x > 1844674407370955161ull || d > 5))
				return NUM_RANGE;
			x = x * 10 + d;
		}
	}
	*v = x;
	return NUM_OK;
}

/* "sec.frac" (any number of fraction digits, kept to ns) or integer ns. */
/*
 * The leading decimal digits of the word w (bytes in memory order): their
 * number (0..8) and, when fewer than 8, their value.  Subtracting '0' from
 * every byte is exact up to the first non-digit, which is the first byte
 * with its high bit set in d or in d + 0x76 (d >= 10).
 */
static inline unsigned lead_digits(uint64_t w, uint64_t *val)
{
	uint64_t d = w - ONES * '0';
	uint64_t stop = (d | (d + ONES * 0x76)) & HIGHS;
	unsigned n = stop ? (unsigned)__builtin_ctzll(stop) >> 3 : 8;
	if (n == 0 || n == 8) {
		*val = 0;
		return n;
	}
	/* the n digits in the high bytes, zeros below: eight digits at once */
	d <<= 8 * (8 - n);
	d = d * 10 + (d >> 8);
	d = (((d & 0x000000FF000000FFull) * 0x000F424000000064ull) +
	     (((d >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull)) >> 32;
	*val = d & 0xffffffffu;
	return n;
}

static const uint32_t ts_scale[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
				      10000,	  1000,	     100,      10,	1};

static __attribute__((noinline)) bool parse_ts_slow(const char *p, const char *e, uint64_t *ns,
						    const char **end, bool *fine);

static inline __attribute__((always_inline)) bool
parse_ts(const char *p, const char *e, uint64_t *ns, const char **end, bool *fine)
{
	if (WORDWISE && e - p >= 16) {
		/* the usual "S.F" with at most 7 digits each: a word at a time */
		uint64_t sec, frac;
		unsigned n = lead_digits(vmsa_load64(p), &sec), m;
		if (n && n < 8 && p[n] == '.' && (m = lead_digits(vmsa_load64(p + n + 1), &frac)) &&
		    m < 8) {
			*ns = sec * 1000000000ull + frac * ts_scale[m];
			*fine = m > 6;
			*end = p + n + 1 + m;
			return true;
		}
	}
	return parse_ts_slow(p, e, ns, end, fine);
}

static bool parse_ts_slow(const char *p, const char *e, uint64_t *ns, const char **end,
			  bool *fine)
{
	const uint32_t *scale = ts_scale;
	const char *s = p;
	uint64_t sec = 0;
	for (; p < e && is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (sec >= 1844674407370955161ull && (sec > 1844674407370955161ull || d > 5))
			return false;
		sec = sec * 10 + d;
	}
	if (p == s)
		return false;
	if (p < e && *p == '.') {
		p++;
		const char *f = p;
		uint64_t frac = 0;
		for (; p < e && is_digit(*p) && p - f < 9; p++)
			frac = frac * 10 + (uint64_t)(*p - '0');
		frac *= scale[p - f];
		while (p < e && is_digit(*p)) /* below a nanosecond */
			p++;
		if (p == f)
			return false;
		*fine = (p - f) > 6;
		/* sec * 1e9 + frac fits: always below 18446744073 s */
		if (sec >= 18446744073ull && sec > (UINT64_MAX - frac) / 1000000000ull)
			return false;
		*ns = sec * 1000000000ull + frac;
	} else {
		/* a clock that is not in ns (counter, x86-tsc): taken as ns */
		*ns = sec;
		*fine = true;
	}
	*end = p;
	return true;
}

/* ---- the header: task, pid, cpu, timestamp, event name ----------- */

struct header {
	const char *comm;
	size_t comm_len;
	int32_t pid;
	int32_t cpu;
	uint64_t ts;
	const char *name;	/* event name without a "system:" prefix */
	size_t name_len;
	const char *fields, *end;
	bool perf;
	bool fine_ts;
	const char *cpu_col; /* parse_header(): the '[' of the CPU column */
	bool first_lb;	     /* parse_header(): it is the line's first '[' */
};

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
	h->pid = (int32_t)pid;
	return true;
}

/* The columns from the '[' at q on: CPU, flags, timestamp, event name. */
static bool cpu_to_name(const char *q, const char *e, struct header *h)
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
	if (!cpu_to_name(q, e, h))
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

/* h->cpu_col: the '[' of the CPU column; h->first_lb: the line's first '[' */
static bool parse_header(const char *s, const char *first, const char *e, struct header *h)
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

/*
 * Lines of one task begin alike: "<spaces><comm>-<pid> [".  A line that
 * begins with the same bytes, up to and including the first '[', as a
 * line whose header was read has the same task and pid (they depend on
 * nothing after that '['), and its CPU column is at the same place, as
 * parse_header() finds the CPU column at the first '[' that leads to a
 * valid header.  So only the columns after it are read.  (No such start
 * is one of a "CPU:N [" lost-events marker, whose '[' follows no pid, nor
 * of a '#' comment: those lines are told apart before any header.)
 */
#define TASK_MEMO 256
#define TASK_PREFIX 48
struct task_memo {
	uint8_t plen;	/* 0: empty; bytes of prefix, the '[' last */
	bool perf;
	uint16_t comm_off, comm_len;
	int32_t pid;
	char prefix[TASK_PREFIX];
};

/* A hash of the line's first 24 bytes (e - s >= 24) */
static inline unsigned task_hash(const char *s)
{
	uint64_t h = vmsa_load64(s) * 0x9E3779B97F4A7C15ull;
	h ^= vmsa_load64(s + 8) * 0xC2B2AE3D27D4EB4Full;
	h ^= vmsa_load64(s + 16) * 0x165667B19E3779F9ull;
	return (unsigned)(h >> 56) % TASK_MEMO;
}

static inline bool memo_header(const struct task_memo *m, const char *s, const char *e,
			       struct header *h)
{
	if (!m->plen || (size_t)(e - s) <= m->plen || !vmsa_same_bytes(s, m->prefix, m->plen) ||
	    !cpu_to_name(s + m->plen - 1, e, h))
		return false;
	h->comm = s + m->comm_off;
	h->comm_len = m->comm_len;
	h->pid = m->pid;
	h->perf = m->perf;
	return true;
}

static inline void memo_store(struct task_memo *m, const char *s, const struct header *h)
{
	size_t plen = (size_t)(h->cpu_col + 1 - s);
	if (!h->first_lb || plen > TASK_PREFIX || h->comm_len > UINT16_MAX)
		return;
	m->plen = (uint8_t)plen;
	memcpy(m->prefix, s, plen);
	m->comm_off = (uint16_t)(h->comm - s);
	m->comm_len = (uint16_t)h->comm_len;
	m->pid = h->pid;
	m->perf = h->perf;
}

/*
 * The field names any event reads (the catalogue's fields and their
 * aliases), each once: a line's "k=v" tokens are looked up once into
 * struct fields, indexed by these; decoders never search by name.
 */
#define K_NONE 0xff /* a field no event reads */

struct text_keys {
	uint8_t n;
	uint8_t len[VMSA_MAX_TEXT_KEYS];
	const char *name[VMSA_MAX_TEXT_KEYS];
	uint32_t of_field[VF__COUNT]; /* bit k: key k names the field, by precedence */
};

struct span {
	const char *p;
	uint32_t len;
};

struct fields {
	uint32_t present; /* bit k: v[k] is set */
	struct span v[VMSA_MAX_TEXT_KEYS];
};

static unsigned key_of(const struct text_keys *keys, const char *k, size_t n)
{
	for (unsigned i = 0; i < keys->n; i++)
		if (keys->len[i] == n && vmsa_same_bytes(keys->name[i], k, n))
			return i;
	return K_NONE;
}

/* The first occurrence of a key is the one read. */
static inline void set_field(struct fields *f, unsigned k, const char *v, size_t len)
{
	if (k == K_NONE || (f->present & (1u << k)))
		return;
	f->present |= 1u << k;
	f->v[k].p = v;
	f->v[k].len = (uint32_t)len;
}

/*
 * The general reader: "k=v k=v ..."; a key starts after the spaces and ends
 * at '='; a value ends at the next space.  A token without '=' before a key
 * ("page=... foo k=v"): the key is what follows the last space before '='.
 * When the text was exactly "k=v" tokens one space apart, *learn becomes
 * its layout (below); otherwise *learn is marked not learned.
 */
#define MAX_KEY 64

/*
 * Layouts.  A kernel prints an event's fields in a fixed order, so after
 * one line of an event has been read by name, the next ones are read in
 * place: each key is compared where the layout says it is, and values not
 * needed are stepped over.  A line that differs in any way (another key,
 * spacing, one token more or less) is read by the general reader, which
 * relearns the layout from it.  Both readers give the same fields for every
 * line the fast one accepts (tests/unit/test_layouts.c compares them).
 */
struct layout_slot {
	char key16[16];	/* the key and '=', zero-padded (compared 16 at once) */
	uint32_t kmask;	/* bit i: byte i of key16 is part of it */
	uint16_t koff;	/* the key and its '=' in layout.keys */
	uint8_t klen;	/* including the '=' */
	uint8_t key;	/* enum key, K_NONE for values skipped */
};

struct layout {
	bool learned;
	uint8_t n;
	uint8_t lead; /* leading slots that name no field the event reads */
	struct layout_slot slot[MAX_FIELDS];
	char keys[512];
};

/*
 * The spaces of a line, 64 bytes at a time as a bit mask (bit i: byte i of
 * the block is ' '), so that finding the next one does not wait on the
 * previous one.
 */
struct spaces {
	const char *base, *e;
	uint64_t bits;
};

static inline uint64_t space_bits(const char *p, const char *e)
{
	uint64_t bits = 0;
	size_t n = e - p < 64 ? (size_t)(e - p) : 64, i = 0;
#ifdef __SSE2__
	const __m128i sp = _mm_set1_epi8(' ');
	for (; i + 16 <= n; i += 16) {
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		bits |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, sp)) << i;
	}
	if (i < n && n >= 16) {
		/* the rest: the last 16 bytes, overlapping what was done */
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
		bits |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, sp)) << (n - 16);
		i = n;
	}
#endif
	for (; i < n; i++)
		bits |= (uint64_t)(p[i] == ' ') << i;
	return bits;
}

static inline void spaces_init(struct spaces *s, const char *p, const char *e)
{
	s->base = p;
	s->e = e;
	s->bits = space_bits(p, e);
}

/* The next space, or e when there is none. */
static inline const char *next_space(struct spaces *s)
{
	while (!s->bits) {
		if (s->e - s->base <= 64)
			return s->e;
		s->base += 64;
		s->bits = space_bits(s->base, s->e);
	}
	const char *q = s->base + __builtin_ctzll(s->bits);
	s->bits &= s->bits - 1;
	return q;
}

/* The token [p, end) begins with the slot's key and '='. */
static inline bool has_key(const struct layout *l, const struct layout_slot *s, const char *p,
			   const char *end, const char *e)
{
	if ((size_t)(end - p) < s->klen)
		return false;
#ifdef __SSE2__
	if (e - p >= 16 && s->klen <= 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i k = _mm_loadu_si128((const __m128i *)(const void *)s->key16);
		return ((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, k)) & s->kmask) == s->kmask;
	}
#endif
	return vmsa_same_bytes(p, l->keys + s->koff, s->klen);
}

/* The token [p, end) is the slot's key, '=' and a value: read it. */
static inline bool take_token(const struct layout *l, const struct layout_slot *s, const char *p,
			      const char *end, const char *e, struct fields *f)
{
	if (!has_key(l, s, p, end, e))
		return false;
	if (s->key != K_NONE) { /* no repeats: the learning took the first */
		f->present |= 1u << s->key;
		f->v[s->key].p = p + s->klen;
		f->v[s->key].len = (uint32_t)(end - p - s->klen);
	}
	return true;
}

/*
 * Tokens are what lies between single spaces; the layout's n tokens must
 * be all there is, each starting with its key and '='.
 */
static bool read_fields_layout(const struct layout *l, const char *p, const char *e,
			       struct fields *f)
{
	unsigned n = l->n;
	if (n == 0)
		return p == e;
	struct spaces sp;
	spaces_init(&sp, p, e);
	for (unsigned i = 0; i + 1 < n; i++) {
		const char *end = next_space(&sp);
		if (end == e || !take_token(l, &l->slot[i], p, end, e, f))
			return false;
		p = end + 1;
	}
	/* the last token runs to the end */
	return next_space(&sp) == e && take_token(l, &l->slot[n - 1], p, e, e, f);
}

static void read_fields_general(const struct text_keys *keys, const char *p, const char *e,
				struct fields *f, struct layout *learn)
{
	const char *start = p, *prev_end = NULL;
	bool clean = true;
	unsigned n = 0;
	size_t koff = 0;
	while (p < e && n < MAX_FIELDS) {
		while (p < e && is_sp(*p))
			p++;
		const char *eq = memchr(p, '=', (size_t)(e - p));
		if (!eq)
			break;
		const char *v = eq + 1;
		const char *ve = memchr(v, ' ', (size_t)(e - v));
		if (!ve)
			ve = e;
		const char *k = p;
		if (eq - p > MAX_KEY || memchr(p, ' ', (size_t)(eq - p))) {
			k = eq;
			while (k > p && !is_sp(k[-1]))
				k--;
		}
		if (k < eq && eq - k <= MAX_KEY) {
			unsigned id = key_of(keys, k, (size_t)(eq - k));
			/* clean: this token starts one space after the last one */
			if (k != (prev_end ? prev_end + 1 : start))
				clean = false;
			size_t klen = (size_t)(v - k);
			if (clean && koff + klen <= sizeof(learn->keys)) {
				learn->slot[n].koff = (uint16_t)koff;
				learn->slot[n].klen = (uint8_t)klen;
				/* a repeated key: the first one is read */
				bool dup = id != K_NONE && (f->present & (1u << id));
				learn->slot[n].key = (uint8_t)(dup ? K_NONE : id);
				memcpy(learn->keys + koff, k, klen);
				size_t in16 = klen < 16 ? klen : 16;
				memset(learn->slot[n].key16, 0, 16);
				memcpy(learn->slot[n].key16, k, in16);
				learn->slot[n].kmask = (uint32_t)((1u << in16) - 1);
				koff += klen;
			} else {
				clean = false;
			}
			set_field(f, id, v, (size_t)(ve - v));
			n++;
			prev_end = ve;
		} else {
			clean = false;
		}
		p = ve + 1;
	}
	/* the text ended with the last value: nothing unread, no cap reached */
	if ((prev_end ? prev_end : start) != e || n == MAX_FIELDS)
		clean = false;
	learn->learned = clean;
	learn->n = clean ? (uint8_t)n : 0;
}

/* Flag strings repeat line after line: the ones read are remembered. */
#define FLAG_MEMO 8
struct flag_memo {
	uint8_t type; /* enum vmsa_field_type; 0 (VT_COUNT): empty */
	uint32_t len, bits;
	char text[64];
};

/*
 * How the fields of an event are read: the keys (struct text_keys) that name
 * a field its build reads, with that field and its type; or, for events
 * without "k=v", the labels of those fields.
 */
struct plan_item {
	uint8_t field, type; /* enum vmsa_field, enum vmsa_field_type */
	uint8_t label_len;
	const char *label;
};
struct plan {
	uint32_t keys;
	uint32_t plain; /* of keys: the one name of a VT_COUNT field */
	uint8_t field_of_key[VMSA_MAX_TEXT_KEYS], type_of_key[VMSA_MAX_TEXT_KEYS];
	uint8_t n;
	struct plan_item item[VF__COUNT];
};

/* A name of a catalogue event */
struct text_event {
	const char *name;
	uint8_t len;
	const struct vmsa_event_desc *desc;
	const struct vmsa_event_name *nm;
};

struct vmsa_text_parser {
	struct vmsa_traits traits;
	bool last_unknown_vmscan; /* the last ignored line was mm_vmscan_* */
	bool general_only;	  /* shortcuts off (tests compare both readers) */
	bool no_value_memo;	  /* remembered values off (tests read layouts) */
	uint64_t layout_reads;	  /* lines whose fields were read in place */
	uint64_t value_reads;	  /* lines whose values were remembered */
	const struct vmsa_catalogue *cat;
	size_t prefix_len; /* of the catalogue's first prefix */
	struct flag_memo flag_memo[FLAG_MEMO]; /* by a hash of the text */
	int8_t event_slot[64];	  /* names[] by name hash */
	uint8_t nnames;
	struct text_event names[NEVENTS];
	struct text_keys keys;
	struct plan plan[NEVENTS];
	struct task_memo task_memo[TASK_MEMO]; /* by a hash of a line's start */
	struct value_memo *value_memo[NEVENTS]; /* made when first needed */
	struct value_tally value_tally[NEVENTS];
	struct layout layout[NEVENTS];
};

static int index_catalogue(struct vmsa_text_parser *p);

int vmsa_text_parser_new_with(struct vmsa_text_parser **out, const struct vmsa_catalogue *cat)
{
	*out = malloc(sizeof(**out));
	if (!*out)
		return VMSA_E_NOMEM;
	memset(*out, 0, sizeof(**out));
	(*out)->cat = cat;
	int err = index_catalogue(*out);
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

static void read_fields(struct vmsa_text_parser *p, int event, const char *s, const char *e,
			struct fields *f)
{
	struct layout *l = &p->layout[event];
	f->present = 0;
	if (l->learned && !p->general_only && read_fields_layout(l, s, e, f)) {
		p->layout_reads++;
		return;
	}
	f->present = 0;
	read_fields_general(&p->keys, s, e, f, l);
	l->lead = 0;
	if (l->learned) {
		uint32_t want = p->plan[event].keys;
		while (l->lead < l->n && (l->slot[l->lead].key == K_NONE ||
					  !(want & (1u << l->slot[l->lead].key))))
			l->lead++;
	}
}

/*
 * Where the text that an event's values depend on begins: after the
 * leading tokens of its layout that name no field the event reads
 * (mm_vmscan_write_folio's page= and pfn=, which change on every line).
 * The general reader reads what follows a "k=v " token alike whatever that
 * token's value was, so two lines whose texts are the same from there on
 * have the same values.  Without a layout, or on a line that does not begin
 * with the layout's keys: the whole text.
 */
static inline const char *values_text(const struct vmsa_text_parser *p, int event, const char *s,
				      const char *e, unsigned *skipped)
{
	const struct layout *l = &p->layout[event];
	if (!l->learned || !l->lead)
		return s;
	const char *t = s;
	unsigned i = 0;
#ifdef __SSE2__
	/* the usual: keys of 16 bytes at most, values of 15 */
	for (; i < l->lead; i++) {
		const struct layout_slot *k = &l->slot[i];
		if (e - t < 32 || k->klen > 16)
			break;
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)t);
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)k->key16);
		if (((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) & k->kmask) != k->kmask)
			return s;
		unsigned m = eq16(t + k->klen, ' ');
		if (!m)
			break;
		t += k->klen + (unsigned)__builtin_ctz(m) + 1;
	}
#endif
	for (; i < l->lead; i++) {
		const struct layout_slot *k = &l->slot[i];
		if (!has_key(l, k, t, e, e))
			return s;
		const char *end = find_byte(t + k->klen, e, ' ');
		if (end == e)
			return s;
		t = end + 1;
	}
	*skipped = l->lead;
	return t;
}

/* Flag strings differ in the middle ("..._FILE|..." vs "..._ANON|..."). */
static unsigned flag_hash(const char *p, size_t n)
{
	uint64_t h = n;
	if (n >= 8)
		h ^= vmsa_load64(p + n / 2 - 4) ^ vmsa_load64(p + n - 8);
	else
		for (size_t i = 0; i < n; i++)
			h = (h << 8) ^ (unsigned char)p[i];
	return (unsigned)((h * 0x9e3779b97f4a7c15ull) >> 61) & (FLAG_MEMO - 1);
}

/* A symbolic value [s, s + n) of type t, remembered when it is a flag string. */
static int read_symbol(struct flag_memo *memo, enum vmsa_field_type t, const char *s, size_t n,
		       uint64_t *out)
{
	if ((t != VT_RECLAIM_FLAGS && t != VT_THROTTLE_FLAGS) || n > sizeof(memo->text))
		return vmsa_value_from_symbol(t, s, n, out);
	struct flag_memo *m = &memo[flag_hash(s, n)];
	if (m->type == t && m->len == n && vmsa_same_bytes(m->text, s, n)) {
		*out = m->bits;
		return 0;
	}
	int r = vmsa_value_from_symbol(t, s, n, out);
	if (r == 0) {
		m->type = (uint8_t)t;
		m->len = (uint32_t)n;
		m->bits = (uint32_t)*out;
		memcpy(m->text, s, n);
	}
	return r;
}

/* The text [s, e) as the value of field f of type t, into *v. */
static inline __attribute__((always_inline)) void
read_value(struct flag_memo *memo, enum vmsa_field f, enum vmsa_field_type t, const char *s,
	   const char *e, struct vmsa_values *v)
{
	bool symbolic = t >= VT_LRU;
	uint64_t x, u;
	bool neg;
	int r;
	if (symbolic &&
	    (r = read_symbol(memo, t, s, (size_t)(e - s), &x)) != VMSA_FIELD_ABSENT)
		goto done;
	switch (parse_num(s, e, &u, &neg)) {
	case NUM_OK:
		if (t == VT_COUNT && !neg) { /* the usual */
			vmsa_values_set(v, f, u);
			return;
		}
		r = vmsa_value_from_number(t, neg, u, &x);
		break;
	case NUM_RANGE:
		r = VMSA_FIELD_ERR(symbolic ? VMSA_REJECT_BAD_VALUE : VMSA_REJECT_OUT_OF_RANGE);
		break;
	default:
		r = VMSA_FIELD_ERR(symbolic ? VMSA_REJECT_BAD_VALUE : VMSA_REJECT_BAD_NUMBER);
		break;
	}
done:
	if (r)
		vmsa_values_bad(v, f, r);
	else
		vmsa_values_set(v, f, x);
}

/*
 * The fields of a "k=v" event that its build reads, by its plan: the line's
 * keys that name one, in the order of precedence of a field's names (the
 * first one present is read).
 */
static inline void values_kv(struct vmsa_text_parser *p, const struct plan *pl,
			     const struct fields *f, struct vmsa_values *v)
{
	uint32_t m = f->present & pl->keys;
	/* counts of one name, the usual: plain digits straight in */
	for (uint32_t c = m & pl->plain; c; c &= c - 1) {
		unsigned k = (unsigned)__builtin_ctz(c);
		enum vmsa_field i = (enum vmsa_field)pl->field_of_key[k];
		const char *s = f->v[k].p, *e = s + f->v[k].len;
		uint64_t x = 0;
		const char *q = s;
		if (e - s <= 19)
			for (; q < e && is_digit(*q); q++)
				x = x * 10 + (uint64_t)(*q - '0');
		if (q == e && q != s)
			vmsa_values_set(v, i, x);
		else
			read_value(p->flag_memo, i, VT_COUNT, s, e, v);
	}
	for (m &= ~pl->plain; m; m &= m - 1) {
		unsigned k = (unsigned)__builtin_ctz(m);
		enum vmsa_field i = (enum vmsa_field)pl->field_of_key[k];
		if (v->present & VF_BIT(i))
			continue; /* a name of higher precedence was there */
		read_value(p->flag_memo, i, (enum vmsa_field_type)pl->type_of_key[k], f->v[k].p,
			   f->v[k].p + f->v[k].len, v);
	}
}

/* The first occurrence of lit (n bytes) in [p, e): where it ends, or NULL. */
static const char *find_lit_n(const char *p, const char *e, const char *lit, size_t n)
{
	while ((size_t)(e - p) >= n) {
		const char *q = memchr(p, lit[0], (size_t)(e - p) - n + 1);
		if (!q)
			return NULL;
		if (memcmp(q, lit, n) == 0)
			return q + n;
		p = q + 1;
	}
	return NULL;
}

/* The fields of an event without "k=v" (mm_shrink_slab_*): "label<number>". */
static void values_labelled(struct vmsa_text_parser *p, const struct plan *pl, const char *s,
			    const char *e, struct vmsa_values *v)
{
	for (unsigned j = 0; j < pl->n; j++) {
		const struct plan_item *it = &pl->item[j];
		const char *q = find_lit_n(s, e, it->label, it->label_len);
		if (!q)
			continue;
		const char *ve = q;
		if (ve < e && *ve == '-')
			ve++;
		while (ve < e && is_digit(*ve))
			ve++;
		read_value(p->flag_memo, (enum vmsa_field)it->field, (enum vmsa_field_type)it->type,
			   q, ve, v);
	}
}

/* The catalogue's names, by a hash of the name, open addressing; built with the parser */
#define EVENT_SLOTS 64
static unsigned event_hash(const char *name, size_t len)
{
	return ((unsigned)len * 7u + (unsigned char)name[10] + (unsigned char)name[len - 1]) &
	       (EVENT_SLOTS - 1);
}

/* The names of the catalogue's events, and the field names they read. */
static int index_catalogue(struct vmsa_text_parser *p)
{
	const struct vmsa_catalogue *c = p->cat;
	p->prefix_len = c->prefixes[0] ? strlen(c->prefixes[0]) : 0;
	memset(p->event_slot, -1, EVENT_SLOTS);
	p->nnames = 0;
	for (int i = 0; i < VMSA_NEVENTS; i++)
		for (int j = 0; j < VMSA_MAX_NAMES && c->event[i].names[j].name; j++) {
			const char *name = c->event[i].names[j].name;
			size_t len = strlen(name);
			/* (find_event() looks at "mm_" and the 11th byte first) */
			if (p->nnames == NEVENTS || len < 11 || len > 128 || memcmp(name, "mm_", 3))
				return VMSA_E_INVAL;
			struct text_event *te = &p->names[p->nnames];
			te->name = name;
			te->len = (uint8_t)len;
			te->desc = &c->event[i];
			te->nm = &c->event[i].names[j];
			unsigned h = event_hash(name, len);
			while (p->event_slot[h] >= 0)
				h = (h + 1) & (EVENT_SLOTS - 1);
			p->event_slot[h] = (int8_t)p->nnames++;
		}
	struct text_keys *k = &p->keys;
	k->n = 0;
	for (int f = 0; f < VF__COUNT; f++) {
		k->of_field[f] = 0;
		for (int a = 0; a < VMSA_MAX_ALIASES && c->field[f].names[a]; a++) {
			const char *name = c->field[f].names[a];
			size_t len = strlen(name);
			if (len > MAX_KEY)
				return VMSA_E_INVAL;
			unsigned id = key_of(k, name, len);
			if (id == K_NONE) {
				if (k->n == VMSA_MAX_TEXT_KEYS)
					return VMSA_E_INVAL;
				id = k->n++;
				k->name[id] = name;
				k->len[id] = (uint8_t)len;
			}
			/* precedence is the catalogue's order: the lowest key bit */
			if (k->of_field[f] && id < (unsigned)__builtin_ctz(k->of_field[f]))
				return VMSA_E_INVAL;
			k->of_field[f] |= 1u << id;
		}
	}
	/* each name's plan: the fields its build reads, in the catalogue's order */
	for (int i = 0; i < p->nnames; i++) {
		struct plan *pl = &p->plan[i];
		pl->n = 0;
		pl->keys = 0;
		pl->plain = 0;
		for (uint32_t want = p->names[i].desc->fields; want; want &= want - 1) {
			int f = __builtin_ctz(want);
			if (pl->keys & k->of_field[f])
				return VMSA_E_INVAL; /* one name, two fields of the event */
			pl->keys |= k->of_field[f];
			if (c->field[f].type == VT_COUNT && !(k->of_field[f] & (k->of_field[f] - 1)))
				pl->plain |= k->of_field[f];
			for (uint32_t m = k->of_field[f]; m; m &= m - 1) {
				pl->field_of_key[__builtin_ctz(m)] = (uint8_t)f;
				pl->type_of_key[__builtin_ctz(m)] = c->field[f].type;
			}
			const char *label = c->field[f].label;
			if (label) {
				if (strlen(label) > 64)
					return VMSA_E_INVAL;
				struct plan_item *it = &pl->item[pl->n++];
				it->field = (uint8_t)f;
				it->type = c->field[f].type;
				it->label = label;
				it->label_len = (uint8_t)strlen(label);
			}
		}
	}
	return 0;
}

static int find_event(const struct vmsa_text_parser *p, const char *name, size_t len)
{
	if (len < 11 || name[0] != 'm' || name[1] != 'm' || name[2] != '_')
		return -1;
	for (unsigned h = event_hash(name, len);; h = (h + 1) & (EVENT_SLOTS - 1)) {
		int i = p->event_slot[h];
		if (i < 0)
			return -1;
		if (p->names[i].len == len && vmsa_same_bytes(p->names[i].name, name, len))
			return i;
	}
}


/* ---- remembered values ------------------------------------------ */

/*
 * Field texts repeat too: "isolate_mode=0 classzone=2 order=0 nr_requested=32
 * nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file" comes back line
 * after line.  A "k=v" event's decoder reads nothing but its fields (and the
 * parser's flag memo, a cache), so what it made of a text is remembered,
 * by event and a hash of the text, and given again for the same text: the
 * values, and what it counted in the traits.  Rejected lines are decoded
 * every time.
 */
#define VALUE_MEMO 32  /* per event, by a hash of the text */
#define VALUE_TEXT 256 /* longer field texts are decoded every time */

/* the traits a decoder counts */
#define DECODER_TRAITS(X)                                                           \
	X(lines_with_lru_name) X(lines_without_lru_name) X(writes_with_sync_field) \
	X(writes_with_flags) X(writes_flag_sync) X(write_folio_events)             \
	X(writes_with_nr_pages)

struct decoder_traits {
#define DT_FIELD(n) uint64_t n;
	DECODER_TRAITS(DT_FIELD)
#undef DT_FIELD
};

struct value_memo {
	uint16_t len;	 /* of text; 0: empty */
	uint8_t skipped; /* tokens before the text (they count toward MAX_FIELDS) */
	struct decoder_traits counted;
	struct vmsa_event ev; /* decoded; the header's values are each line's own */
	char text[VALUE_TEXT];
};

static inline void decoder_traits_get(const struct vmsa_traits *t, struct decoder_traits *d)
{
#define DT_GET(n) d->n = t->n;
	DECODER_TRAITS(DT_GET)
#undef DT_GET
}

/* t->n += d->n for each; d a struct decoder_traits or a struct vmsa_traits */
#define DT_ADD(n) t->n += d->n;

static inline void decoder_traits_add(struct vmsa_traits *t, const struct decoder_traits *d)
{
	DECODER_TRAITS(DT_ADD)
}

static inline void decoder_traits_since(struct decoder_traits *d, const struct vmsa_traits *t)
{
#define DT_SINCE(n) d->n = t->n - d->n;
	DECODER_TRAITS(DT_SINCE)
#undef DT_SINCE
}

/* A hash of [p, p + n), n <= VALUE_TEXT: 16 bytes a step, the last 16 overlapping. */
static inline unsigned text_hash(const char *p, size_t n)
{
	uint64_t a = n, b = 0;
#ifdef __SSE2__
	if (n >= 16) {
		__m128i acc = _mm_cvtsi32_si128((int)n);
		for (size_t i = 0; i + 16 < n; i += 16) {
			__m128i w = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			acc = _mm_add_epi32(_mm_shuffle_epi32(acc, _MM_SHUFFLE(2, 1, 0, 3)), w);
		}
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
		acc = _mm_add_epi32(_mm_shuffle_epi32(acc, _MM_SHUFFLE(2, 1, 0, 3)), w);
		a = (uint64_t)_mm_cvtsi128_si64(acc);
		b = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc));
	} else
#endif
		for (size_t i = 0; i < n; i++)
			a = (a ^ (unsigned char)p[i]) * 0x100000001B3ull;
	uint64_t h = (a ^ (b * 0x9E3779B97F4A7C15ull)) * 0xC2B2AE3D27D4EB4Full;
	return (unsigned)(h >> 58) % VALUE_MEMO;
}

/*
 * An event whose texts do not come back (mm_vmscan_write_folio's page= and
 * pfn= differ on every line) is looked up by the text from the first field
 * it reads on (values_text()), once VALUE_FIRST lines have found fewer than
 * 1 in 32; and when those do not come back either, not looked up for a
 * while: of VALUE_PROBE lines, fewer than 1 in 32 found.
 */
#define VALUE_FIRST 64
#define VALUE_PROBE 4096
#define VALUE_PAUSE (16 * VALUE_PROBE)

/*
 * The slot for the field text [s, e) of event id, and in *t, *n and
 * *skipped the text it is remembered by; NULL: not remembered.
 */
static struct value_memo *value_slot(struct vmsa_text_parser *p, int id, const char *s,
				     const char *e, const char **t, size_t *n, unsigned *skipped)
{
	if (p->general_only || p->no_value_memo)
		return NULL;
	struct value_tally *vt = &p->value_tally[id];
	if (vt->pause) {
		vt->pause--;
		return NULL;
	}
	uint32_t window = vt->probed ? VALUE_PROBE : VALUE_FIRST;
	if (++vt->lines == window) {
		if (vt->found < window / 32) {
			if (!vt->partial && p->layout[id].learned && p->layout[id].lead)
				vt->partial = true;
			else if (vt->probed)
				vt->pause = VALUE_PAUSE;
		}
		vt->probed = true;
		vt->lines = vt->found = 0;
	}
	*skipped = 0;
	*t = vt->partial ? values_text(p, id, s, e, skipped) : s;
	*n = (size_t)(e - *t);
	if (*n == 0 || *n > VALUE_TEXT)
		return NULL;
	if (!p->value_memo[id] && !(p->value_memo[id] = calloc(VALUE_MEMO, sizeof(struct value_memo))))
		return NULL; /* decoded every time */
	return &p->value_memo[id][text_hash(*t, *n)];
}

static bool mentions_vmscan(const struct vmsa_catalogue *c, const char *s, const char *e)
{
	for (size_t i = 0; i < sizeof(c->prefixes) / sizeof(c->prefixes[0]); i++)
		if (c->prefixes[i] && find_lit_n(s, e, c->prefixes[i], strlen(c->prefixes[i])))
			return true;
	return false;
}

/* "CPU:N [LOST M EVENTS]" (trace_pipe), "CPU:N [M EVENTS DROPPED]" (trace-cmd) */
static bool parse_lost(const char *p, const char *e, uint64_t *n, bool *known)
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
		if (parse_lost(s, e, &n, &known)) {
			memcpy(ev, &blank, sizeof(*ev));
			ev->type = VMSA_EV_LOST;
			ev->lost = n;
			return VMSA_LINE_LOST;
		}
	}

	if (!parse_header(line, s, e, &h)) {
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
			values_labelled(p, &p->plan[id], h.fields, h.end, &v);
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
