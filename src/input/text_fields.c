/* SPDX-License-Identifier: MIT */
/*
 * The field reader (text_fields.h has its hot paths): the catalogue's events
 * and field names indexed for the text decoder, the general reader, which
 * learns the layouts, flag strings, and the fields of events without "k=v".
 */
#include <string.h>

#include "text_fields.h"

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

void vmsa_text_read_fields_general(struct vmsa_text_parser *p, int event, const char *s,
				   const char *e, struct fields *f)
{
	struct layout *l = &p->layout[event];
	f->present = 0;
	read_fields_general(&p->keys, s, e, f, l);
	l->lead = 0;
	if (l->learned) {
		const struct plan *pl = &p->plan[event];
		uint32_t want = pl->keys;
		while (l->lead < l->n && (l->slot[l->lead].key == K_NONE ||
					  !(want & (1u << l->slot[l->lead].key))))
			l->lead++;
		for (unsigned i = 0; i < l->n; i++) {
			unsigned k = l->slot[i].key;
			l->slot[i].count = k != K_NONE && ((pl->plain >> k) & 1) ? pl->field_of_key[k]
										 : NO_COUNT;
		}
	}
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
	return (unsigned)((h * 0x9e3779b97f4a7c15ull) >> (64 - FLAG_BITS));
}

int vmsa_text_read_symbol(struct flag_memo *memo, enum vmsa_field_type t, const char *s, size_t n,
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

/* The value after label (which ends in a space) when that value is the
 * line's last word, as mm_shrink_slab_start's "priority " and _end's "last
 * shrinker return val " are: found from the end, without a search. */
static const char *label_of_last_word(const char *s, const char *e, const char *label, size_t n)
{
	const char *w = e;
	while (w > s && !is_sp(w[-1]))
		w--;
	return w - s >= (ptrdiff_t)n && vmsa_same_bytes(w - n, label, n) &&
			       (w - n == s || is_sp(w[-(ptrdiff_t)n - 1]))
		       ? w
		       : NULL;
}

bool vmsa_text_values_labelled(struct vmsa_text_parser *p, int event, const char *s,
			       const char *e, struct vmsa_values *v)
{
	bool last_word = false;
	const struct plan *pl = &p->plan[event];
	/* labels usually come in the plan's order: each is looked for after the
	 * previous one first (the plan's last one as the line's last word
	 * first), then from the start of the fields */
	const char *from = s;
	for (unsigned j = 0; j < pl->n; j++) {
		const struct plan_item *it = &pl->item[j];
		const char *q = j + 1 == pl->n ? label_of_last_word(from, e, it->label, it->label_len)
					       : NULL;
		last_word = q != NULL;
		if (!q)
			q = vmsa_text_find_lit(from, e, it->label, it->label_len);
		if (!q && from != s)
			q = vmsa_text_find_lit(s, e, it->label, it->label_len);
		if (!q)
			continue;
		const char *ve = q;
		if (ve < e && *ve == '-')
			ve++;
		while (ve < e && is_digit(*ve))
			ve++;
		read_value(p->flag_memo, (enum vmsa_ev_field)it->field, (enum vmsa_field_type)it->type,
			   q, ve, v);
		from = ve;
	}
	return last_word;
}


/* The names of the catalogue's events, and the field names they read. */
int vmsa_text_index_catalogue(struct vmsa_text_parser *p)
{
	const struct vmsa_catalogue *c = p->cat;
	p->prefix_len = c->prefixes[0] ? strlen(c->prefixes[0]) : 0;
	p->prefix2_len = c->prefixes[1] ? strlen(c->prefixes[1]) : 0;
	memset(p->event_slot, -1, EVENT_SLOTS);
	memset(p->first_bytes, 0, sizeof(p->first_bytes));
	p->nnames = 0;
	memset(p->label_bytes, 0, sizeof(p->label_bytes));
	for (int i = 0; i < VMSA_NEVENTS; i++)
		for (const char *l = c->event[i].labels; l && *l; l++)
			p->label_bytes[(unsigned char)*l >> 6] |= 1ull << ((unsigned char)*l & 63);
	for (int i = 0; i < VMSA_NEVENTS; i++)
		for (int j = 0; j < VMSA_MAX_NAMES && c->event[i].names[j].name; j++) {
			const char *name = c->event[i].names[j].name;
			size_t len = strlen(name);
			/* (find_event() looks at the first and 11th bytes first) */
			if (p->nnames == NEVENTS || len < 11 || len > 128)
				return VMSA_E_INVAL;
			unsigned char c0 = (unsigned char)name[0];
			p->first_bytes[c0 >> 6] |= 1ull << (c0 & 63);
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

