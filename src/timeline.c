/* SPDX-License-Identifier: MIT */
/* Pages scanned over time and the longest stalls, in bounded memory. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define START_BIN_NS 100000000ull /* 100 ms */

static void halve(struct vmsa_timeline *t)
{
	t->last_idx = UINT64_MAX; /* its bin is gone */
	/* bins pair up from an even absolute index, so merges stay aligned */
	size_t shift = t->base & 1;
	size_t n = (t->n + shift + 1) / 2;
	for (size_t i = 0; i < n; i++) {
		uint64_t d = 0, k = 0;
		for (size_t j = 0; j < 2; j++) {
			size_t src = 2 * i + j;
			if (src < shift || src - shift >= t->n)
				continue;
			d += t->direct[src - shift];
			k += t->kswapd[src - shift];
		}
		t->direct[i] = d;
		t->kswapd[i] = k;
	}
	/* the bins past the new end held the pairs just merged: empty again,
	 * since a later bin there starts from nothing */
	memset(t->direct + n, 0, (t->n - n) * sizeof(uint64_t));
	memset(t->kswapd + n, 0, (t->n - n) * sizeof(uint64_t));
	t->n = n;
	t->base /= 2;
	t->bin_ns *= 2;
}

/*
 * Room for at least `need` bins (need <= VMSA_TIMELINE_MAX_BINS), bins past
 * n zero.  The arrays grow by doubling from a few bins: a run of seconds
 * uses a handful, and a full-size array is 1 MiB of memory to fault in and
 * clear, a third of a small trace.dat's page faults when it was allocated
 * whole (twice: the summary copied it).
 */
static int reserve(struct vmsa_timeline *t, size_t need)
{
	if (need <= t->cap)
		return 0;
	size_t cap = t->cap ? t->cap : 64;
	while (cap < need)
		cap *= 2;
	if (cap > VMSA_TIMELINE_MAX_BINS)
		cap = VMSA_TIMELINE_MAX_BINS;
	uint64_t *d = realloc(t->direct, cap * sizeof(uint64_t));
	if (d)
		t->direct = d;
	uint64_t *k = d ? realloc(t->kswapd, cap * sizeof(uint64_t)) : NULL;
	if (!k)
		return VMSA_E_NOMEM;
	t->kswapd = k;
	memset(t->direct + t->cap, 0, (cap - t->cap) * sizeof(uint64_t));
	memset(t->kswapd + t->cap, 0, (cap - t->cap) * sizeof(uint64_t));
	t->cap = cap;
	return 0;
}

int vmsa_timeline_add(struct vmsa_timeline *t, uint64_t ts, uint64_t direct, uint64_t kswapd)
{
	if (!direct && !kswapd)
		return 0;
	if (!t->bin_ns)
		t->bin_ns = START_BIN_NS;
	if (!t->direct) {
		if (reserve(t, 1))
			return VMSA_E_NOMEM;
		t->base = ts / t->bin_ns;
		t->n = 1;
	}
	/* the common case: the bin of the last call, without a division */
	if (t->n && ts - t->last_start < t->bin_ns && t->last_idx >= t->base &&
	    t->last_idx < t->base + t->n) {
		size_t i = (size_t)(t->last_idx - t->base);
		t->direct[i] += direct;
		t->kswapd[i] += kswapd;
		return 0;
	}
	for (;;) {
		uint64_t idx = ts / t->bin_ns;
		t->last_idx = idx;
		t->last_start = idx * t->bin_ns;
		uint64_t lo = idx < t->base ? idx : t->base;
		uint64_t hi = idx >= t->base + t->n ? idx : t->base + t->n - 1;
		if (hi - lo + 1 > VMSA_TIMELINE_MAX_BINS) {
			halve(t);
			continue;
		}
		if (reserve(t, (size_t)(hi - lo + 1)))
			return VMSA_E_NOMEM;
		if (idx < t->base) { /* earlier than anything so far: shift right */
			size_t by = (size_t)(t->base - idx);
			memmove(t->direct + by, t->direct, t->n * sizeof(uint64_t));
			memmove(t->kswapd + by, t->kswapd, t->n * sizeof(uint64_t));
			memset(t->direct, 0, by * sizeof(uint64_t));
			memset(t->kswapd, 0, by * sizeof(uint64_t));
			t->base = idx;
			t->n += by;
		}
		size_t i = (size_t)(idx - t->base);
		if (i >= t->n)
			t->n = i + 1;
		t->direct[i] += direct;
		t->kswapd[i] += kswapd;
		return 0;
	}
}

static void sift_down(struct vmsa_stall_mark *h, size_t n, size_t i)
{
	for (;;) {
		size_t m = i, l = 2 * i + 1, r = l + 1;
		if (l < n && h[l].dur_ns < h[m].dur_ns)
			m = l;
		if (r < n && h[r].dur_ns < h[m].dur_ns)
			m = r;
		if (m == i)
			return;
		struct vmsa_stall_mark x = h[i];
		h[i] = h[m];
		h[m] = x;
		i = m;
	}
}

void vmsa_timeline_stall(struct vmsa_timeline *t, uint64_t begin, uint64_t dur)
{
	struct vmsa_stall_mark *h = t->top;
	if (t->ntop < VMSA_TIMELINE_TOP_STALLS) {
		size_t i = t->ntop++;
		h[i] = (struct vmsa_stall_mark){begin, dur};
		while (i && h[(i - 1) / 2].dur_ns > h[i].dur_ns) {
			struct vmsa_stall_mark x = h[i];
			h[i] = h[(i - 1) / 2];
			h[(i - 1) / 2] = x;
			i = (i - 1) / 2;
		}
	} else if (dur > h[0].dur_ns) {
		h[0] = (struct vmsa_stall_mark){begin, dur};
		sift_down(h, t->ntop, 0);
	}
}

int vmsa_timeline_copy(struct vmsa_timeline *dst, const struct vmsa_timeline *src)
{
	*dst = *src;
	dst->direct = dst->kswapd = NULL;
	dst->cap = 0;
	if (!src->n)
		return 0;
	/* room for the bins in use alone: the copy grows if added to */
	if (reserve(dst, src->n)) {
		vmsa_timeline_release(dst);
		return VMSA_E_NOMEM;
	}
	memcpy(dst->direct, src->direct, src->n * sizeof(uint64_t));
	memcpy(dst->kswapd, src->kswapd, src->n * sizeof(uint64_t));
	return 0;
}

void vmsa_timeline_release(struct vmsa_timeline *t)
{
	free(t->direct);
	free(t->kswapd);
	t->direct = t->kswapd = NULL;
	t->cap = 0;
}
