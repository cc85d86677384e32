/* SPDX-License-Identifier: MIT */
/*
 * The fields of a JSON summary, once: each object of the document is a
 * shape, a list of members with their JSON key, unit and merge rule; the
 * dotted path of a field ("totals.direct.pages_scanned") is the keys from
 * the root.  The JSON writer takes the counter keys from here, merge its
 * rules, check its paths and units, compare its rows, and the unit tests
 * hold docs/json-schema.md and docs/summary.schema.json to it.
 */
#ifndef VMSA_SUMMARY_FIELDS_H
#define VMSA_SUMMARY_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "vmsa/vmsa.h"

/* How two summaries' values of a field combine (docs/json-schema.md, "Merging"). */
enum vmsa_merge {
	VMSA_MERGE_SUM,		/* counters add */
	VMSA_MERGE_MIN,
	VMSA_MERGE_MAX,
	VMSA_MERGE_FIRST,	/* the first summary's value (names, versions, ids) */
	VMSA_MERGE_ANY,		/* true if true in any */
	VMSA_MERGE_ALL,		/* true only if true in all */
	VMSA_MERGE_OBJECT,	/* member by member, by its shape */
	VMSA_MERGE_HIST,	/* bucket by bucket, percentiles recomputed */
	VMSA_MERGE_ROWS,	/* rows of the same comm and pid merge */
	VMSA_MERGE_CONCAT,	/* one list after the other */
	VMSA_MERGE_UNION,	/* strings, each once */
	VMSA_MERGE_DERIVED,	/* recomputed from the merged fields */
	VMSA_MERGE__COUNT
};

struct vmsa_shape;

struct vmsa_field {
	/* JSON key; "*" any key (orders); NULL: the members of .shape
	 * are this shape's members too, here */
	const char *key;
	enum vmsa_unit unit;
	enum vmsa_merge merge;
	/* the members of an object, or of each element of a list */
	const struct vmsa_shape *shape;
	bool nullable;		/* null when the trace cannot tell */
	bool optional;		/* present only when it has something to say */
};

struct vmsa_shape {
	const char *name;	/* as docs/summary.schema.json's $defs, where it has one */
	const struct vmsa_field *members;
	size_t n;
};

/* the document's root */
extern const struct vmsa_shape vmsa_summary_shape;

/* The member of s (or of a shape it includes) called key, NULL if none. */
const struct vmsa_field *vmsa_shape_member(const struct vmsa_shape *s, const char *key,
					   size_t keylen);
/* The field at a dotted path (objects only, no list elements), NULL if none. */
const struct vmsa_field *vmsa_field_at(const char *path);

/* The percentiles of every histogram, written and recomputed on merge. */
struct vmsa_quantile_key {
	const char *key;
	double q;
};
extern const struct vmsa_quantile_key vmsa_hist_quantile_keys[3];

/* ---- compare ----------------------------------------------------- */

/* How compare shows a value (the unit, scaled for reading). */
enum vmsa_format {
	VMSA_FMT_COUNT,		/* an integer */
	VMSA_FMT_SECONDS,	/* a _ns field, in seconds */
	VMSA_FMT_MSEC,		/* a _ns field, in milliseconds */
	VMSA_FMT_PERCENT,	/* 100 * sum(num) / sum(den) */
	VMSA_FMT_RATE,		/* sum(num) per second of sum(den) (ns) */
};

#define VMSA_COMPARE_PATHS 3

/* A row of compare: sum(num) shown as fmt; NULL label: a blank line. */
struct vmsa_compare_row {
	const char *label;
	enum vmsa_format fmt;
	bool change;		/* --relative shows its change against the first column */
	const char *num[VMSA_COMPARE_PATHS];
	const char *den[VMSA_COMPARE_PATHS];
	const char *classic;	/* the classic report's label of the same number, if any */
};

extern const struct vmsa_compare_row vmsa_compare_rows[];
extern const size_t vmsa_compare_nrows;

#endif /* VMSA_SUMMARY_FIELDS_H */
