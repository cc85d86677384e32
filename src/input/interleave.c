/* SPDX-License-Identifier: MIT */
/*
 * Several text inputs read as one trace: a k-way merge of their events in
 * timestamp order.  Each source keeps its own reader, decoder and counts;
 * the merge holds one event per source (a binary heap of at most k), so
 * memory is bounded by the number of inputs, not their size.  Equal
 * timestamps come out in the order the inputs were given, and an input's
 * own events keep their order (a file whose timestamps go backwards is
 * still read line after line).  A lost-events marker has no time of its
 * own: it takes the time of the event before it in its input.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "../internal.h"

/* Each source's held event lies in its own slot; the heap orders source numbers. */
struct vmsa_interleave {
	struct vmsa_source **src;
	int n;
	struct vmsa_event *ev;	/* per source: its next event */
	uint64_t *key;		/* per source: that event's time */
	uint64_t *last_ts;	/* per source: its last timestamp */
	int *heap;		/* sources holding an event, earliest first */
	int nheap;
	int *want;		/* sources whose next event is still to be read */
	int nwant;
};

int vmsa_interleave_new(struct vmsa_interleave **out, struct vmsa_source *const *src, int n)
{
	*out = NULL;
	struct vmsa_interleave *m = calloc(1, sizeof(*m));
	if (!m)
		return VMSA_E_NOMEM;
	size_t k = (size_t)n;
	m->src = calloc(k, sizeof(*m->src));
	m->ev = calloc(k, sizeof(*m->ev));
	m->key = calloc(k, sizeof(*m->key));
	m->last_ts = calloc(k, sizeof(*m->last_ts));
	m->heap = calloc(k, sizeof(*m->heap));
	m->want = calloc(k, sizeof(*m->want));
	if (!m->src || !m->ev || !m->key || !m->last_ts || !m->heap || !m->want) {
		vmsa_interleave_free(m);
		return VMSA_E_NOMEM;
	}
	m->n = n;
	/* read in input order: the first events are asked for from the last */
	for (int i = 0; i < n; i++) {
		m->src[i] = src[i];
		m->want[m->nwant++] = n - 1 - i;
	}
	*out = m;
	return 0;
}

void vmsa_interleave_free(struct vmsa_interleave *m)
{
	if (!m)
		return;
	free(m->src);
	free(m->ev);
	free(m->key);
	free(m->last_ts);
	free(m->heap);
	free(m->want);
	free(m);
}

static inline bool before(const struct vmsa_interleave *m, int a, int b)
{
	return m->key[a] < m->key[b] || (m->key[a] == m->key[b] && a < b);
}

static void push(struct vmsa_interleave *m, int s)
{
	int i = m->nheap++;
	while (i > 0) {
		int up = (i - 1) / 2;
		if (!before(m, s, m->heap[up]))
			break;
		m->heap[i] = m->heap[up];
		i = up;
	}
	m->heap[i] = s;
}

static int pop(struct vmsa_interleave *m)
{
	int top = m->heap[0], last = m->heap[--m->nheap], i = 0, n = m->nheap;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(m, m->heap[c + 1], m->heap[c]))
			c++;
		if (!before(m, m->heap[c], last))
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	if (n)
		m->heap[i] = last;
	return top;
}

int vmsa_interleave_next(struct vmsa_interleave *m, const struct vmsa_event **ev, int *which)
{
	/* the sources without a held event read theirs first */
	while (m->nwant) {
		int i = m->want[m->nwant - 1];
		int err = vmsa_source_next(m->src[i], &m->ev[i]);
		if (err == VMSA_E_EOF) {
			m->nwant--;
			continue;
		}
		if (err) {
			*which = i;
			return err;
		}
		m->nwant--;
		if (m->ev[i].type != VMSA_EV_LOST)
			m->last_ts[i] = m->ev[i].ts_ns;
		m->key[i] = m->last_ts[i];
		push(m, i);
	}
	if (!m->nheap)
		return VMSA_E_EOF;
	int i = pop(m);
	*ev = &m->ev[i]; /* not copied: it stays until the next call */
	*which = i;
	m->want[m->nwant++] = i; /* its next event, on the next call */
	return 0;
}
