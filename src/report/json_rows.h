/* SPDX-License-Identifier: MIT */
/* The JSON summary's task rows written directly (json_rows.c). */
#ifndef VMSA_JSON_ROWS_H
#define VMSA_JSON_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "../internal.h"

/* Text being written: p[0..n); oom once an allocation failed. */
/* blank objects, written once: contexts (windowed or not, with per-order
 * counts, by vmsa_known), an empty histogram, no throttling */
#define VMSA_JW_BLANKS 5
struct vmsa_jw {
	char *p;
	size_t n, cap;
	bool oom;
	/* the text of a context object whose counters (and per-order counts)
	 * are all zero, as written for a vmsa_known (most tasks reclaim in one
	 * context of five), of a histogram that holds nothing and of
	 * throttling counts that are all zero (kinds 3 and 4: kn unused) */
	struct vmsa_jw_blank {
		char *text; /* NULL: not written yet */
		size_t len;
	} blank[VMSA_JW_BLANKS][64];
};

/* Frees what w holds (its text and the blank objects) */
void vmsa_jw_release(struct vmsa_jw *w);
/* Appends the n bytes at s */
void vmsa_jw_put(struct vmsa_jw *w, const char *s, size_t n);

/* Appends row r of sum as json-c writes it without indenting (process_obj()
 * or kswapd_obj() of json.c, written by json_object_to_json_string_ext()). */
void vmsa_jw_row(struct vmsa_jw *w, const struct vmsa_summary *sum, const struct vmsa_task_row *r);

/* Appends the n bytes of JSON text s (as json-c writes it without indenting)
 * as json-c writes it with JSON_C_TO_STRING_PRETTY: each member and element
 * on a line of its own, two spaces a level, an empty object's or array's
 * closer on the next line; level: the depth it stands at (0: a document of
 * its own, 2: a row in a summary's list). */
void vmsa_jw_pretty(struct vmsa_jw *w, const char *s, size_t n, int level);

/* The n bytes of s as UTF-8 into out (room for 3n): valid sequences kept,
 * every other byte U+FFFD.  Returns the bytes written. */
size_t vmsa_utf8_fix(char *out, const char *s, size_t n);

#endif /* VMSA_JSON_ROWS_H */
