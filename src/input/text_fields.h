/* SPDX-License-Identifier: MIT */
/*
 * The field reader's hot paths (private to src/input/text*.c; the rest is in
 * text_fields.c): a line's fields read by a learned layout, its values, and
 * the values remembered for a field text.
 */
#ifndef VMSA_TEXT_FIELDS_H
#define VMSA_TEXT_FIELDS_H

#include <stdlib.h>

#include "text_internal.h"

/* The catalogue's names, by a hash of the name, open addressing; built with the parser */
#define EVENT_SLOTS 64
static inline unsigned event_hash(const char *name, size_t len)
{
	return ((unsigned)len * 7u + (unsigned char)name[10] + (unsigned char)name[len - 1]) &
	       (EVENT_SLOTS - 1);
}

static inline __attribute__((always_inline)) int find_event(const struct vmsa_text_parser *p,
							     const char *name, size_t len)
{
	unsigned char c0 = (unsigned char)name[0];
	if (len < 11 || !((p->first_bytes[c0 >> 6] >> (c0 & 63)) & 1))
		return -1;
	for (unsigned h = event_hash(name, len);; h = (h + 1) & (EVENT_SLOTS - 1)) {
		int i = p->event_slot[h];
		if (i < 0)
			return -1;
		if (p->names[i].len == len && vmsa_same_bytes(p->names[i].name, name, len))
			return i;
	}
}



/* The token at t begins with the slot's key and its '=' (a key holds no space) */
static inline bool at_key(const struct layout *l, const struct layout_slot *s, const char *t,
			  const char *e)
{
#ifdef __SSE2__
	if (e - t >= 16 && s->klen <= 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)t);
		__m128i k = _mm_loadu_si128((const __m128i *)(const void *)s->key16);
		return ((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, k)) & s->kmask) == s->kmask;
	}
#endif
	return (size_t)(e - t) >= s->klen && vmsa_same_bytes(t, l->keys + s->koff, s->klen);
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
		if (!at_key(l, k, t, e))
			return s;
		const char *end = find_byte(t + k->klen, e, ' ');
		if (end == e)
			return s;
		t = end + 1;
	}
	*skipped = l->lead;
	return t;
}

/* The text [s, e) as the value of field f of type t, into *v. */
static inline __attribute__((always_inline)) void
read_value(struct flag_memo *memo, enum vmsa_ev_field f, enum vmsa_field_type t, const char *s,
	   const char *e, struct vmsa_values *v)
{
	bool symbolic = t >= VT_LRU;
	uint64_t x, u;
	bool neg;
	int r;
	if (symbolic &&
	    (r = vmsa_text_read_symbol(memo, t, s, (size_t)(e - s), &x)) != VMSA_FIELD_ABSENT)
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

/* A count of one name, the usual: plain digits straight in; else read_value(). */
static inline void value_plain(struct vmsa_text_parser *p, enum vmsa_ev_field i, const char *s,
			       const char *e, struct vmsa_values *v)
{
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

/*
 * The fields of a "k=v" event that its build reads, by its plan, from the
 * keys of *f: those in mask, in the order of precedence of a field's names
 * (the first one present is read).
 */
static inline void values_named(struct vmsa_text_parser *p, const struct plan *pl,
				const struct fields *f, uint32_t mask, struct vmsa_values *v)
{
	for (uint32_t m = f->present & mask; m; m &= m - 1) {
		unsigned k = (unsigned)__builtin_ctz(m);
		enum vmsa_ev_field i = (enum vmsa_ev_field)pl->field_of_key[k];
		if (v->present & VF_BIT(i))
			continue; /* a name of higher precedence was there */
		read_value(p->flag_memo, i, (enum vmsa_field_type)pl->type_of_key[k], f->v[k].p,
			   f->v[k].p + f->v[k].len, v);
	}
}

/* All of them: the counts of one name first (no other name sets their field) */
static inline void values_kv(struct vmsa_text_parser *p, const struct plan *pl,
			     const struct fields *f, struct vmsa_values *v)
{
	for (uint32_t c = f->present & pl->keys & pl->plain; c; c &= c - 1) {
		unsigned k = (unsigned)__builtin_ctz(c);
		value_plain(p, (enum vmsa_ev_field)pl->field_of_key[k], f->v[k].p,
			    f->v[k].p + f->v[k].len, v);
	}
	values_named(p, pl, f, pl->keys & ~pl->plain, v);
}

/*
 * A line read by its event's layout, in one pass: tokens are what lies
 * between single spaces, and the layout's n tokens must be all there is,
 * each starting with its key and '='.  A count of one name (plan.plain) is
 * read as it is met, its digits ending its token; the other keys the layout
 * names are kept in *f for values_named().  False: the line does not fit
 * the layout (what was set in *v and *f is then to be dropped).
 */
static inline bool read_layout(struct vmsa_text_parser *p, const struct layout *l, const char *t,
			       const char *e, struct fields *f, struct vmsa_values *v)
{
	if (l->n == 0)
		return t == e;
	const struct layout_slot *s = l->slot, *last = s + l->n - 1;
	for (;; s++) {
		if (!at_key(l, s, t, e))
			return false;
		const char *q = t + s->klen;
		uint64_t x;
		unsigned nd;
		/* the usual count: 1 to 7 digits and a space, at once */
		if (s->count != NO_COUNT && s != last && WORDWISE && e - q >= 8 &&
		    (nd = lead_digits(vmsa_load64(q), &x)) - 1u < 7u && q[nd] == ' ') {
			vmsa_values_set(v, (enum vmsa_ev_field)s->count, x);
			t = q + nd + 1;
			continue;
		}
		const char *end = find_byte(q, e, ' ');
		if (s == last ? end != e : end == e)
			return false;
		if (s->count != NO_COUNT) {
			value_plain(p, (enum vmsa_ev_field)s->count, q, end, v);
		} else if (s->key != K_NONE) { /* no repeats: the learning took the first */
			f->present |= 1u << s->key;
			f->v[s->key].p = q;
			f->v[s->key].len = (uint32_t)(end - q);
		}
		if (s == last)
			return true;
		t = end + 1;
	}
}

/* The values of the fields [s, e) of event: by its learned layout, else by the general reader. */
static inline void read_values(struct vmsa_text_parser *p, int event, const char *s, const char *e,
			       struct fields *f, struct vmsa_values *v)
{
	const struct layout *l = &p->layout[event];
	const struct plan *pl = &p->plan[event];
	f->present = 0;
	if (l->learned && !p->general_only) {
		if (read_layout(p, l, s, e, f, v)) {
			p->layout_reads++;
			values_named(p, pl, f, pl->keys & ~pl->plain, v);
			return;
		}
		f->present = 0;
		v->present = v->bad = 0;
	}
	vmsa_text_read_fields_general(p, event, s, e, f);
	values_kv(p, pl, f, v);
}

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

/* A hash of [p, p + n), n <= VALUE_TEXT: 16 bytes a step, the last 16
 * overlapping; its top bits (1 .. 32 of them) */
static inline unsigned text_hash(const char *p, size_t n, unsigned bits)
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
	return (unsigned)(h >> (64 - bits));
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
static inline struct value_memo *value_slot(struct vmsa_text_parser *p, int id, const char *s,
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
		if (vt->probed && vt->found < window / 8 * 7 && vt->bits < VALUE_MEMO_BITS) {
			/* more slots, before anything is given up (texts that come
			 * back among more than the small table holds look like
			 * texts that do not: the next probe tells them apart); the
			 * remembered ones go, the next lines remember anew */
			free(p->value_memo[id]);
			p->value_memo[id] = NULL;
			vt->bits = VALUE_MEMO_BITS;
		} else if (vt->found < window / 32) {
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
	if (!p->value_memo[id]) {
		if (!vt->bits)
			vt->bits = VALUE_MEMO_FIRST_BITS;
		if (!(p->value_memo[id] = calloc((size_t)1 << vt->bits, sizeof(struct value_memo))))
			return NULL; /* decoded every time */
	}
	return &p->value_memo[id][text_hash(*t, *n, vt->bits)];
}

#endif
