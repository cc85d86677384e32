/* SPDX-License-Identifier: MIT */
/*
 * The task memo (private to src/input/text*.c; the why: struct task_memo in
 * text_internal.h): the task and pid of a line that begins like an earlier
 * one, up to its CPU column's '['.
 */
#ifndef VMSA_TEXT_TASK_H
#define VMSA_TEXT_TASK_H

#include "text_internal.h"

/* A hash of the line's first 24 bytes (e - s >= 24) */
static inline unsigned task_hash(const char *s)
{
	uint64_t h = vmsa_load64(s) * 0x9E3779B97F4A7C15ull;
	h ^= vmsa_load64(s + 8) * 0xC2B2AE3D27D4EB4Full;
	h ^= vmsa_load64(s + 16) * 0x165667B19E3779F9ull;
	return (unsigned)(h >> 56) % TASK_MEMO;
}

static inline bool memo_starts(const struct task_memo *m, const char *s, const char *e)
{
	return m->plen && (size_t)(e - s) > m->plen && vmsa_same_bytes(s, m->prefix, m->plen);
}

/* The header template (struct header_tpl), read 16 bytes at a time: none
 * is learned or read without SSE2 */
#ifdef __SSE2__
/*
 * Bit i of the 16 bytes at p: byte i is what the template's 16 at text
 * say it is (struct header_tpl), from their masks' 16 bits at sh
 */
static inline uint32_t tpl_fits16(const char *p, const struct header_tpl *t, unsigned sh)
{
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(t->text + sh));
	__m128i d = _mm_sub_epi8(a, _mm_set1_epi8('0'));
	uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b));
	uint32_t dg = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
	uint32_t sp = (uint32_t)_mm_movemask_epi8(
		_mm_or_si128(_mm_cmpeq_epi8(a, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(a, _mm_set1_epi8('\t'))));
	return ((eq & (t->exact >> sh)) | (dg & (t->digit >> sh)) | (~sp & (t->flag >> sh)) |
		(~sp & ~dg & (t->flag0 >> sh))) & 0xffffu;
}

/* The n (1..8) digits at p, with bytes to read up to p + 8 */
static inline uint64_t tpl_digits(const char *p, unsigned n)
{
	return digits_value(vmsa_load64(p) - ONES * '0', n);
}

/*
 * The event name at r and the fields after it, the usual way ("name: ",
 * r + 33 <= e), or false: read as vmsa_text_name_at() reads it.
 */
static inline bool tpl_name(const char *r, const char *e, struct header *h)
{
	if (e - r <= 32)
		return false;
	uint32_t colon = eq16(r, ':') | eq16(r + 16, ':') << 16;
	uint32_t sp = eq16(r, ' ') | eq16(r + 16, ' ') << 16;
	uint32_t stop = colon | sp; /* (a name may hold a tab) */
	if (!stop)
		return false;
	unsigned n = (unsigned)__builtin_ctz(stop);
	/* a ':' after a name of a byte or more, a space or tab after it (a
	 * name of "system:" and the names of 31 bytes and more the long way) */
	if (n == 0 || n > 30 || !((colon >> n) & 1) || !is_sp(r[n + 1]))
		return false;
	h->name = r;
	h->name_len = n;
	h->fields = skip_sp(r + n + 1, e);
	h->end = e;
	return true;
}

/* The columns from the '[' at q on, read by the template t when they fit it */
static inline bool tpl_header(const struct header_tpl *t, const char *q, const char *e,
			      struct header *h)
{
	if (!t->len || e - q < TPL_READ)
		return false;
	uint32_t want = t->exact | t->digit | t->flag | t->flag0;
	if ((tpl_fits16(q, t, 0) | tpl_fits16(q + 16, t, 16) << 16) != want)
		return false;
	h->cpu = (int32_t)tpl_digits(q + 1, t->cpu_n);
	const char *ts = q + t->sec_off, *fr = ts + t->sec_n + 1;
	uint64_t frac = t->frac_n <= 8 ? tpl_digits(fr, t->frac_n)
				       : tpl_digits(fr, 8) * 10 + (uint64_t)(fr[8] - '0');
	h->ts = tpl_digits(ts, t->sec_n) * 1000000000ull + frac * ts_scale[t->frac_n];
	h->fine_ts = t->frac_n > 6;
	const char *r = q + t->len;
	/* (what vmsa_text_name_at() reads first: spaces, "(+delta)", a period) */
	if (r[0] == ' ' && r[1] != ' ' && r[1] != '\t' && r[1] != '(' && !is_digit(r[1]) &&
	    tpl_name(r + 1, e, h))
		return true;
	return vmsa_text_name_at(r, e, h);
}
#endif

/* The header of [s, e) when it begins like a line of the set's (either
 * way); a template learned for it is also *last's */
static inline bool memo_header(struct task_memo_set *set, const char *s, const char *e,
			       struct header *h, uint64_t *tpl_reads, struct header_tpl *last)
{
	unsigned w = set->recent;
	if (!memo_starts(&set->way[w], s, e)) {
		w ^= 1;
		if (!memo_starts(&set->way[w], s, e))
			return false;
		set->recent = (uint8_t)w;
	}
	struct task_memo *m = &set->way[w];
	const char *q = s + m->plen - 1;
#ifdef __SSE2__
	if (tpl_header(&m->tpl, q, e, h))
		++*tpl_reads;
	else if (!vmsa_text_cpu_to_name_learn(q, e, h, &m->tpl))
		return false;
	else if (m->tpl.len)
		*last = m->tpl;
#else
	(void)tpl_reads; /* (no template is read: none is learned) */
	(void)last;
	if (!vmsa_text_cpu_to_name(q, e, h))
		return false;
#endif
	h->comm = s + m->comm_off;
	h->comm_len = m->comm_len;
	h->pid = m->pid;
	h->perf = m->perf;
	h->inst = m->inst_len ? s + m->inst_off : NULL;
	h->inst_len = m->inst_len;
	return true;
}

/*
 * Remember the start of the line s: in the way of the set not used last,
 * with the template tpl (a template describes the columns from the '[' on,
 * which do not depend on the task, and every line read by one is checked
 * against it: a task's first lines were read the long way, each learning
 * one, and short-lived tasks have few others)
 */
static inline void memo_store(struct task_memo_set *set, const char *s, const struct header *h,
			      const struct header_tpl *tpl)
{
	if (!h->first_lb)
		return; /* (also: no CPU column) */
	size_t plen = (size_t)(h->cpu_col + 1 - s);
	if (plen > TASK_PREFIX || h->comm_len > UINT16_MAX || h->comm == vmsa_unknown_comm)
		return;
	set->recent ^= 1;
	struct task_memo *m = &set->way[set->recent];
	m->plen = (uint8_t)plen;
	memcpy(m->prefix, s, plen);
	m->comm_off = (uint16_t)(h->comm - s);
	m->comm_len = (uint16_t)h->comm_len;
	m->pid = h->pid;
	m->perf = h->perf;
	m->inst_off = (uint8_t)(h->inst ? h->inst - s : 0); /* (in the prefix: before '[') */
	m->inst_len = (uint8_t)(h->inst ? h->inst_len : 0);
	m->tpl = *tpl; /* (none: learned from its next line) */
}

#endif
