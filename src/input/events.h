/* SPDX-License-Identifier: MIT */
/*
 * The event catalogue: every event the analyzer understands, with its names
 * across kernels, the fields it reads (their names across kernels and their
 * types), the reclaim context it belongs to and how its fields make one
 * struct vmsa_event.  The text decoder (text.c) and the binary decoder
 * (binary.c, for trace.dat and live) both read it and name no event or
 * field themselves; the statistics fold the event by its type (stats.c,
 * handlers[]).
 *
 * A decoder fills a struct vmsa_values (each field's value, or why it could
 * not be read) from its own representation, and the event's build function
 * makes the event of them.  Kernel variants are told apart by which fields
 * are present, never by version:
 *  - mm_vmscan_writepage 2.6.35: "file=%d sync_io=%d" (seeds, patch 2/8);
 *    2.6.36+: "flags=RECLAIM_WB_*" (binary: reclaim_flags); 5.19+ renamed
 *    mm_vmscan_write_folio (the one variant told by its name: traits).
 *  - mm_vmscan_lru_isolate 2.6.35: no list; 3.x: "file=%d"; 4.8+: "lru=%s";
 *    only the list name tells inactive from active isolations.
 *  - mm_vmscan_throttled (5.16+) prints its delay as usect_delayed=; the
 *    record's field is usec_delayed.
 *  - mm_shrink_slab_* print no "k=v" list: their text names a field by a
 *    label ("nid: ", "last shrinker return val "); records by name.
 */
#ifndef VMSA_EVENTS_H
#define VMSA_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "vmsa/vmsa.h"

/* The fields any event reads, one per meaning (names: the catalogue). */
enum vmsa_ev_field {
	VF_ORDER, VF_NID, VF_NR_RECLAIMED, VF_NR_SCANNED, VF_NR_TAKEN, VF_LRU, VF_FILE,
	VF_FLAGS, VF_SYNC_IO, VF_NR_PAGES, VF_NR_DIRTY, VF_NR_WRITEBACK, VF_NR_CONGESTED,
	VF_NR_IMMEDIATE, VF_NR_DEACTIVATED, VF_USEC_DELAYED, VF_USEC_TIMEOUT,
	VF_THROTTLE_REASON, VF_FLUSH_REASON, VF_RETVAL, VF_NR_REQUESTED, VF_NR_SKIPPED,
	VF_PRIORITY, VF_WB_NR_PAGES, VF_WB_REASON,
	VF__COUNT
};
#define VF_BIT(f) (1u << (f))
/*
 * An event printed without any fields (perf script -F without "trace"):
 * the values' present is VF_BARE alone.  An event that means something by
 * itself (a reclaim's begin or end, a kswapd wake or sleep) is made of the
 * line alone, what the fields would have said unknown; the others are
 * missing their fields.
 */
#define VF_BARE (1u << 31)

/* What a field's value is, and so how a decoder reads and checks it. */
enum vmsa_field_type {
	VT_COUNT,	   /* unsigned (a "-0" is 0) */
	VT_I64,		   /* signed */
	VT_ORDER,	   /* 0 .. VMSA_MAX_ORDER - 1 */
	VT_NID,		   /* 0 .. 65536 */
	VT_LRU,		   /* a list name or enum lru_list value: enum vmsa_lru, and
			    * for VMSA_LRU_OTHER the LRU_NAMED_* its name says */
	VT_RECLAIM_FLAGS,  /* RECLAIM_WB_* names or a number: WB_* bits */
	VT_THROTTLE_FLAGS, /* VMSCAN_THROTTLE_* names or a number: 1 << enum vmsa_throttle */
	VT_FLUSH_REASON,   /* a reason name or number: enum vmsa_flush_reason */
	VT_WB_REASON,	   /* a writeback reason name: enum vmsa_wb_reason (a number:
			    * the record's, which the binary decoder maps by the
			    * event's print format) */
};

/* VT_LRU values: enum vmsa_lru in the low bits; of VMSA_LRU_OTHER, a name
 * that says anon or file (and is VMSA_LRU_NAME_MAX bytes at most) */
#define LRU_VALUE_MASK 0xffu
#define LRU_NAMED_ANON 0x100u
#define LRU_NAMED_FILE 0x200u
#define VMSA_LRU_NAME_MAX 63

#define VMSA_MAX_ALIASES 4 /* names of one field */
#define VMSA_MAX_NAMES 3   /* names of one event */
#define VMSA_MAX_TEXT_KEYS 32

struct vmsa_field_desc {
	const char *names[VMSA_MAX_ALIASES]; /* the first one present is read */
	uint8_t type;			     /* enum vmsa_field_type */
	const char *label;		     /* text of events without "k=v": "label<value>" */
};

/*
 * The values a decoder read for an event: bit f of present says field f was
 * there; of those, bit f of bad says it could not be read, reason[f] why.
 * u[f] holds the value (VT_I64: as int64_t).
 */
struct vmsa_values {
	uint32_t present, bad; /* present == VF_BARE: the line printed no fields */
	uint64_t u[VF__COUNT];
	uint8_t reason[VF__COUNT];
};

/* Outcome of a read or a build: 0 ok, 1 absent, or -(1 + reject reason). */
#define VMSA_FIELD_ABSENT 1
#define VMSA_FIELD_ERR(r) (-(1 + (int)(r)))

/* ev->type and ev->ctx are set; the rest from v.  Counts what it saw in *t. */
typedef int (*vmsa_build_fn)(const struct vmsa_values *v, struct vmsa_event *ev,
			     struct vmsa_traits *t);

/* A name an event goes by, and what seeing it says of the kernel. */
struct vmsa_event_name {
	const char *name;
	uint8_t trait; /* enum vmsa_name_trait */
};
enum vmsa_name_trait { VMSA_NT_NONE, VMSA_NT_WRITE_FOLIO };

struct vmsa_event_desc {
	struct vmsa_event_name names[VMSA_MAX_NAMES];
	uint8_t type;  /* enum vmsa_event_type: the statistics' handler */
	uint8_t ctx;   /* enum vmsa_ctx, RECLAIM_BEGIN/END */
	/* NULL: text fields are "k=v"; else they are labels, and this is the
	 * text of its print format after the function and shrinker (all
	 * kernels' labels), each value a '%' */
	const char *labels;
	const char *system; /* NULL: the catalogue's */
	uint32_t fields; /* VF_BIT()s the build reads */
	vmsa_build_fn build;
};

#define VMSA_NEVENTS 22

struct vmsa_catalogue {
	const char *system;	  /* the records' trace system (of most events) */
	const char *prefixes[2];  /* of the names of the system's events */
	struct vmsa_field_desc field[VF__COUNT];
	struct vmsa_event_desc event[VMSA_NEVENTS];
};

/* The catalogue the analyzer uses. */
extern const struct vmsa_catalogue vmsa_catalogue;

/* Adds name as the last alias of field f in *c (a copy): 0 or VMSA_E_INVAL. */
int vmsa_catalogue_add_alias(struct vmsa_catalogue *c, enum vmsa_ev_field f, const char *name);


/* A symbolic value [s, s + n) of type t: 0, VMSA_FIELD_ABSENT (not a
 * symbol of the type: try it as a number) or VMSA_FIELD_ERR(reason). */
int vmsa_value_from_symbol(enum vmsa_field_type t, const char *s, size_t n, uint64_t *out);

/*
 * A number as a value of type t (neg: it had a minus sign, u its
 * magnitude): 0 with *out set, or VMSA_FIELD_ERR(reason).
 */
static inline int vmsa_value_from_number(enum vmsa_field_type t, bool neg, uint64_t u, uint64_t *out)
{
	const int oor = VMSA_FIELD_ERR(VMSA_REJECT_OUT_OF_RANGE);
	const int bad = VMSA_FIELD_ERR(VMSA_REJECT_BAD_VALUE);
	switch (t) {
	case VT_COUNT:
		if (neg && u)
			return oor;
		*out = u;
		return 0;
	case VT_I64:
		if (u > (uint64_t)INT64_MAX)
			return oor;
		*out = neg ? (uint64_t)-(int64_t)u : u;
		return 0;
	case VT_ORDER:
		if ((neg && u) || u >= VMSA_MAX_ORDER)
			return oor;
		*out = u;
		return 0;
	case VT_NID:
		if ((neg && u) || u > 1u << 16)
			return oor;
		*out = u;
		return 0;
	case VT_LRU: /* enum lru_list, when the symbol table was not applied */
		if (neg || u > VMSA_LRU_UNEVICTABLE - VMSA_LRU_INACTIVE_ANON)
			return bad;
		*out = VMSA_LRU_INACTIVE_ANON + u;
		return 0;
	case VT_RECLAIM_FLAGS:
	case VT_THROTTLE_FLAGS:
		if (neg || u > UINT32_MAX)
			return bad;
		*out = u;
		return 0;
	case VT_FLUSH_REASON:
		if (neg || u >= VMSA_FLUSH__COUNT)
			return bad;
		*out = u;
		return 0;
	case VT_WB_REASON: /* a number of its kernel's enum wb_reason: which is
			    * whose, only a record's print format says */
		*out = VMSA_WB_OTHER;
		return 0;
	}
	return bad;
}

/* Records that a field could not be read. */
static inline void vmsa_values_bad(struct vmsa_values *v, enum vmsa_ev_field f, int err)
{
	v->present |= VF_BIT(f);
	v->bad |= VF_BIT(f);
	v->reason[f] = (uint8_t)(-err - 1);
}

static inline void vmsa_values_set(struct vmsa_values *v, enum vmsa_ev_field f, uint64_t x)
{
	v->present |= VF_BIT(f);
	v->u[f] = x;
}

/* The event a decoder found, with what its name says counted in *t. */
static inline void vmsa_count_name(const struct vmsa_event_name *n, struct vmsa_traits *t)
{
	if (n->trait == VMSA_NT_WRITE_FOLIO)
		t->write_folio_events++;
}

#endif
