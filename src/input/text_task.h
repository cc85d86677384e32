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

/* The header of [s, e) when it begins like a line of the set's (either way) */
static inline bool memo_header(struct task_memo_set *set, const char *s, const char *e,
			       struct header *h)
{
	unsigned w = set->recent;
	if (!memo_starts(&set->way[w], s, e)) {
		w ^= 1;
		if (!memo_starts(&set->way[w], s, e))
			return false;
		set->recent = (uint8_t)w;
	}
	const struct task_memo *m = &set->way[w];
	if (!vmsa_text_cpu_to_name(s + m->plen - 1, e, h))
		return false;
	h->comm = s + m->comm_off;
	h->comm_len = m->comm_len;
	h->pid = m->pid;
	h->perf = m->perf;
	h->inst = m->inst_len ? s + m->inst_off : NULL;
	h->inst_len = m->inst_len;
	return true;
}

/* Remember the start of the line s: in the way of the set not used last */
static inline void memo_store(struct task_memo_set *set, const char *s, const struct header *h)
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
}

#endif
