/* SPDX-License-Identifier: MIT */
/* Mergeable log-linear latency histograms. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void vmsa_hist_init(struct vmsa_hist *h, unsigned sub_bits)
{
	memset(h, 0, sizeof(*h));
	h->sub_bits = (uint8_t)sub_bits;
}

void vmsa_hist_release(struct vmsa_hist *h)
{
	if (!h)
		return;
	if (h->held > 1)
		free(h->buckets);
	h->buckets = NULL;
	h->first = h->held = 0;
}

size_t vmsa_hist_nbuckets(const struct vmsa_hist *h)
{
	return (size_t)(64 - h->sub_bits + 1) << h->sub_bits;
}

static size_t bucket_of(unsigned s, uint64_t v)
{
	if (v < ((uint64_t)1 << s))
		return (size_t)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned shift = msb - s;
	return ((size_t)(msb - s + 1) << s) + (size_t)((v >> shift) & (((uint64_t)1 << s) - 1));
}

void vmsa_hist_bucket_bounds(const struct vmsa_hist *h, size_t i, uint64_t *lo, uint64_t *hi)
{
	unsigned s = h->sub_bits;
	if (i < ((size_t)1 << s)) {
		*lo = *hi = i;
		return;
	}
	unsigned block = (unsigned)(i >> s) - 1;
	uint64_t sub = i & (((size_t)1 << s) - 1);
	*lo = (((uint64_t)1 << s) + sub) << block;
	*hi = *lo + (((uint64_t)1 << block) - 1);
}

/*
 * The buckets lo .. hi - 1 held (and those held already): the buckets
 * array grows on the side a new bucket falls, by half again at least, so
 * that values spread out make few copies.
 */
static int hold(struct vmsa_hist *h, size_t lo, size_t hi)
{
	size_t first = h->first, end = (size_t)h->first + h->held;
	if (h->held && lo >= first && hi <= end)
		return 0;
	if (!h->held && hi == lo + 1) {
		h->first = (uint16_t)lo;
		h->held = 1; /* (in place: vmsa_hist_in_one()) */
		h->one = 0;
		return 0;
	}
	size_t nb = vmsa_hist_nbuckets(h), grow = h->held / 2 + 1;
	size_t nfirst = lo, nend = hi;
	if (h->held) {
		if (lo < first)
			nfirst = lo + grow <= first ? lo : first > grow ? first - grow : 0;
		else
			nfirst = first;
		if (hi > end)
			nend = hi >= end + grow ? hi : end + grow < nb ? end + grow : nb;
		else
			nend = end;
	}
	uint64_t *b = calloc(nend - nfirst, sizeof(*b));
	if (!b)
		return VMSA_E_NOMEM;
	if (h->held)
		memcpy(b + (first - nfirst), vmsa_hist_held(h), h->held * sizeof(*b));
	if (h->held > 1)
		free(h->buckets);
	h->buckets = b; /* (two buckets or more: one more than held at least) */
	h->first = (uint16_t)nfirst;
	h->held = (uint16_t)(nend - nfirst);
	return 0;
}

int vmsa_hist_add(struct vmsa_hist *h, uint64_t v)
{
	size_t i = bucket_of(h->sub_bits, v);
	if (hold(h, i, i + 1))
		return VMSA_E_NOMEM;
	vmsa_hist_held(h)[i - h->first]++;
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	return 0;
}

int vmsa_hist_add_n(struct vmsa_hist *h, uint64_t v, uint64_t n)
{
	size_t i = bucket_of(h->sub_bits, v);
	if (hold(h, i, i + 1))
		return VMSA_E_NOMEM;
	vmsa_hist_held(h)[i - h->first] += n;
	return 0;
}

int vmsa_hist_merge(struct vmsa_hist *dst, const struct vmsa_hist *src)
{
	if (!src->count)
		return 0;
	if (dst->sub_bits != src->sub_bits)
		return VMSA_E_INVAL;
	if (src->held) {
		if (hold(dst, src->first, (size_t)src->first + src->held))
			return VMSA_E_NOMEM;
		uint64_t *d = vmsa_hist_held(dst) + (src->first - dst->first);
		const uint64_t *s = vmsa_hist_held_c(src);
		for (size_t i = 0; i < src->held; i++)
			d[i] += s[i];
	}
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	return 0;
}

int vmsa_hist_copy(struct vmsa_hist *dst, const struct vmsa_hist *src)
{
	vmsa_hist_init(dst, src->sub_bits);
	return vmsa_hist_merge(dst, src);
}

uint64_t vmsa_quantile(const struct vmsa_buckets *b, uint64_t count, uint64_t min, uint64_t max,
		       double q)
{
	/* rank of the value wanted, 1-based, as the nearest-rank method */
	uint64_t rank = (uint64_t)(q * (double)count);
	if ((double)rank < q * (double)count)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank > count)
		rank = count;
	uint64_t seen = 0;
	for (size_t i = 0; i < b->n; i++) {
		seen += b->count(b->ctx, i);
		if (seen >= rank) {
			uint64_t hi = b->hi(b->ctx, i);
			if (hi > max)
				hi = max;
			if (hi < min)
				hi = min;
			return hi;
		}
	}
	return max;
}

/* the buckets held, i from the first held: those outside are empty, and
 * count nothing toward a rank (a task's histogram holds a few of its 65) */
static uint64_t held_count(const void *ctx, size_t i)
{
	const struct vmsa_hist *h = ctx;
	return vmsa_hist_held_c(h)[i];
}

static uint64_t held_hi(const void *ctx, size_t i)
{
	const struct vmsa_hist *h = ctx;
	uint64_t lo, hi;
	vmsa_hist_bucket_bounds(h, h->first + i, &lo, &hi);
	return hi;
}

uint64_t vmsa_hist_quantile(const struct vmsa_hist *h, double q)
{
	if (!h->count)
		return 0;
	if (q <= 0 || h->min == h->max)
		return h->min; /* (vmsa_quantile() keeps to [min, max]) */
	struct vmsa_buckets b = {h, h->held, held_count, held_hi};
	return vmsa_quantile(&b, h->count, h->min, h->max, q);
}

bool vmsa_hist_next(const struct vmsa_hist *h, size_t *i, uint64_t *lo, uint64_t *hi)
{
	size_t n = h->held ? (size_t)h->first + h->held : 0;
	const uint64_t *b = vmsa_hist_held_c(h);
	if (*i < h->first)
		*i = h->first;
	while (*i < n && !b[*i - h->first])
		++*i;
	if (*i >= n)
		return false;
	vmsa_hist_bucket_bounds(h, *i, lo, hi);
	return true;
}

void vmsa_hist_log2(const struct vmsa_hist *h, uint64_t out[65])
{
	memset(out, 0, 65 * sizeof(uint64_t));
	uint64_t lo, hi;
	for (size_t i = 0; vmsa_hist_next(h, &i, &lo, &hi); i++)
		out[lo ? 64 - __builtin_clzll(lo) : 0] += vmsa_hist_bucket(h, i);
}
