/* SPDX-License-Identifier: MIT */
/*
 * The summary document: a JSON summary read back, merged, queried, checked.
 *
 * Merging follows the field table's rules (summary_fields.c; documented in
 * docs/json-schema.md, "Merging"): counters add, histograms merge bucket by
 * bucket and their percentiles are recomputed, minima and maxima combine,
 * rows of the same (comm, pid) merge, sources and notes are collected.
 * Summaries of consecutive pieces of one trace, cut where no reclaim window
 * is open, merge to the summary of the whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/decompress.h"
#include "internal.h"
#include "report/json_rows.h"
#include "summary_fields.h"

typedef struct json_object jo;

/*
 * A document holds its whole tree, or (vmsa_doc_from_summary_ref()) all
 * but its task rows, which are read from the summary it refers to: one row
 * at a time by vmsa_doc_each_row(), or added to the tree (whole()) before
 * anything reads the tree whole.  A hundred thousand rows as one tree took
 * seconds and hundreds of megabytes, for reports that read none of them.
 */
struct vmsa_doc {
	jo *root;
	const struct vmsa_summary *sum; /* of the rows not in root; NULL: none */
	struct vmsa_summary *owned;	/* sum, when freed with the document */
	bool rows_left_out;		/* vmsa_doc_parse_file_no_rows() */
	/* sum's rows were read from a summary file, each one checked to write
	 * back as it was read (rows_read()), and merged as the tree would be */
	bool rows_read;
};

/* A path for messages: "totals.direct.writes.pages", "processes[3].pid". */
struct vpath {
	char buf[512];
	size_t len;
};

static int check_shape(json_object *o, const struct vmsa_shape *s, struct vpath *p,
		       bool rows_apart, char *why, size_t n);
static bool hides_writes(json_object *o);

void vmsa_doc_free(struct vmsa_doc *d)
{
	if (!d)
		return;
	json_object_put(d->root);
	vmsa_summary_free(d->owned);
	free(d);
}

static int doc_wrap(struct vmsa_doc **out, jo *root)
{
	*out = NULL;
	if (!root)
		return VMSA_E_NOMEM;
	struct vmsa_doc *d = calloc(1, sizeof(*d));
	if (!d) {
		json_object_put(root);
		return VMSA_E_NOMEM;
	}
	d->root = root;
	*out = d;
	return 0;
}

int vmsa_doc_from_summary(struct vmsa_doc **out, const struct vmsa_summary *sum)
{
	return doc_wrap(out, vmsa_summary_to_json(sum, true));
}

int vmsa_doc_from_summary_ref(struct vmsa_doc **out, const struct vmsa_summary *sum)
{
	int err = doc_wrap(out, vmsa_summary_to_json(sum, false));
	if (!err)
		(*out)->sum = sum;
	return err;
}

int vmsa_doc_from_summary_take(struct vmsa_doc **out, struct vmsa_summary *sum)
{
	int err = vmsa_doc_from_summary_ref(out, sum);
	if (err)
		vmsa_summary_free(sum);
	else
		(*out)->owned = sum;
	return err;
}

/* The task rows of a document of vmsa_doc_from_summary_ref() in its tree */
static int whole(struct vmsa_doc *d)
{
	if (d->rows_left_out)
		return VMSA_E_INVAL; /* (they were never read) */
	if (!d->sum || json_object_object_get_ex(d->root, "processes", NULL))
		return 0;
	return vmsa_summary_rows_to_json(d->root, d->sum);
}

int vmsa_doc_each_row(const struct vmsa_doc *d, bool kswapd, int (*fn)(jo *row, void *arg),
		      void *arg)
{
	jo *rows;
	if (json_object_object_get_ex(d->root, kswapd ? "kswapd" : "processes", &rows)) {
		if (!json_object_is_type(rows, json_type_array))
			return 0;
		int err = 0;
		for (size_t i = 0; !err && i < json_object_array_length(rows); i++)
			err = fn(json_object_array_get_idx(rows, i), arg);
		return err;
	}
	for (size_t i = 0; d->sum && i < d->sum->nrows; i++) {
		const struct vmsa_task_row *r = d->sum->rows[i];
		if (r->is_kswapd != kswapd)
			continue;
		jo *o = vmsa_row_to_json(d->sum, r);
		if (!o)
			return VMSA_E_NOMEM;
		int err = fn(o, arg);
		json_object_put(o);
		if (err)
			return err;
	}
	return 0;
}

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* The end of the JSON string at p (its '"'), or NULL */
static const char *string_end(const char *p, const char *e)
{
	for (p++; p < e; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* The end of the JSON value at p, or NULL (its syntax is json-c's to judge) */
static const char *value_end(const char *p, const char *e)
{
	if (p >= e)
		return NULL;
	if (*p == '"')
		return string_end(p, e);
	if (*p != '{' && *p != '[') {
		while (p < e && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\t' &&
		       *p != '\n' && *p != '\r')
			p++;
		return p;
	}
	int depth = 0;
	while (p < e) {
		if (*p == '"') {
			if (!(p = string_end(p, e)))
				return NULL;
			continue;
		}
		if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == 0)
			return p + 1;
		p++;
	}
	return NULL;
}

/* A top-level list of rows in the text: from its '[' to past its ']' */
struct list_text {
	const char *p, *e;
};

/* The text t of n bytes with [] for the values of its top-level "processes"
 * and "kswapd" arrays (NUL-terminated, its length in *len; the lists' own
 * text in lists[0] and [1], or NULL there), or NULL when it is not an object
 * as expected (then it is parsed whole, and judged so) */
static char *without_rows(const char *t, size_t n, size_t *len, struct list_text lists[2])
{
	const char *e = t + n, *p = skip_ws(t, e), *copied = t;
	char *out = p < e && *p == '{' ? malloc(n + 1) : NULL;
	size_t o = 0;
	if (!out)
		return NULL;
	for (p++;;) {
		p = skip_ws(p, e);
		if (p < e && *p == '}')
			break;
		const char *ks = p, *ke = p < e && *p == '"' ? string_end(p, e) : NULL;
		if (!ke || (p = skip_ws(ke, e)) >= e || *p != ':')
			goto fail;
		p = skip_ws(p + 1, e);
		const char *ve = value_end(p, e);
		if (!ve)
			goto fail;
		if (*p == '[' && ((ke - ks == 11 && !memcmp(ks, "\"processes\"", 11)) ||
				  (ke - ks == 8 && !memcmp(ks, "\"kswapd\"", 8)))) {
			lists[ke - ks == 8] = (struct list_text){p, ve};
			memcpy(out + o, copied, (size_t)(p - copied));
			o += (size_t)(p - copied);
			memcpy(out + o, "[]", 2);
			o += 2;
			copied = ve;
		}
		p = skip_ws(ve, e);
		if (p < e && *p == ',') {
			p++;
			continue;
		}
		if (p < e && *p == '}')
			break;
		goto fail;
	}
	memcpy(out + o, copied, (size_t)(e - copied));
	o += (size_t)(e - copied);
	out[o] = '\0';
	*len = o;
	return out;
fail:
	free(out);
	return NULL;
}

/* Room for one more byte after n in *text (cap bytes), grown by doubling; false: ENOMEM */
static bool text_room(char **text, size_t *cap, size_t n)
{
	if (n + 1 < *cap)
		return true;
	size_t c = *cap ? 2 * *cap : (size_t)1 << 16;
	char *t = realloc(*text, c);
	if (!t)
		return false;
	*text = t;
	*cap = c;
	return true;
}

/*
 * The file's text (NUL-terminated, its length in *n), decompressed when it
 * is gzip, xz or zstd (a summary kept as s.json.gz); NULL with errno set
 * (EILSEQ: the compressed stream is broken).
 */
static char *read_text(const char *path, size_t *n)
{
	/* standard input, to its end, through a copy of the descriptor: the
	 * caller's stdin stays open */
	int fd = strcmp(path, "-") == 0 ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char *text = NULL;
	size_t cap = 0;
	struct vmsa_decomp *d = NULL;
	struct stat st; /* (read in one go, not grown up to the size by copies) */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIZE_MAX / 2) {
		cap = (size_t)st.st_size + 2;
		if (!(text = malloc(cap)))
			goto nomem;
	}
	/* the first bytes: a compressed stream's magic number? */
	unsigned char head[VMSA_COMPRESSION_MAGIC_MAX];
	size_t nhead = 0;
	for (size_t got = 1; nhead < sizeof(head) && got; nhead += got)
		if (vmsa_input_read(fd, NULL, head + nhead, sizeof(head) - nhead, &got))
			goto io;
	enum vmsa_compression c = vmsa_compression_detect(head, nhead);
	if (c && vmsa_decomp_new(&d, fd, c, head, nhead))
		goto nomem;
	*n = 0;
	if (!c) {
		if (!text_room(&text, &cap, nhead))
			goto nomem;
		memcpy(text, head, nhead);
		*n = nhead;
	}
	for (;;) {
		if (!text_room(&text, &cap, *n))
			goto nomem;
		size_t got;
		int r = vmsa_input_read(fd, d, text + *n, cap - 1 - *n, &got);
		if (r) {
			if (r != VMSA_E_IO)
				errno = EILSEQ; /* (the compressed stream is broken) */
			goto io;
		}
		if (!got)
			break;
		*n += got;
	}
	vmsa_decomp_free(d);
	close(fd);
	text[*n] = '\0';
	return text;
nomem:
	errno = ENOMEM;
io:;
	int e = errno;
	vmsa_decomp_free(d);
	free(text);
	close(fd);
	errno = e;
	return NULL;
}

/* The integer's digits [p, e) (no sign) are at most lim's value */
static bool digits_within(const char *p, const char *e, const char *lim)
{
	size_t n = (size_t)(e - p), l = strlen(lim);
	return n < l || (n == l && memcmp(p, lim, n) <= 0);
}

const char *vmsa_json_bad_number(const char *t, size_t n, const char **why)
{
	const char *p = t, *e = t + n;
	while (p < e) {
		char ch = *p;
		if (ch == '"') {
			const char *q = string_end(p, e);
			if (!q)
				return NULL; /* (not JSON: json-c says where) */
			p = q;
			continue;
		}
		if (ch == '-' || (ch >= '0' && ch <= '9')) {
			const char *s = p, *d = ch == '-' ? p + 1 : p, *q = d;
			while (q < e && *q >= '0' && *q <= '9')
				q++;
			if (q == d && q < e && ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z'))) {
				*why = "NaN and Infinity are not JSON numbers";
				return s;
			}
			if (q - d > 1 && *d == '0') {
				*why = "a number with a leading zero is not JSON";
				return s;
			}
			if (q < e && (*q == '.' || *q == 'e' || *q == 'E')) {
				/* (t is NUL-terminated: strtod stops at the number's end) */
				char *end;
				double v = strtod(s, &end);
				q = end;
				if (!isfinite(v)) {
					*why = "the number is out of a double's range";
					return s;
				}
			} else if (!digits_within(d, q, ch == '-' ? "9223372036854775808"
								  : "18446744073709551615")) {
				*why = ch == '-' ? "the integer is below -2^63"
						 : "the integer is past 2^64 - 1";
				return s;
			}
			p = q > p ? q : p + 1;
			continue;
		}
		if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')) {
			const char *q = p;
			while (q < e && ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z')))
				q++;
			size_t l = (size_t)(q - p);
			if (!((l == 4 && (!memcmp(p, "true", 4) || !memcmp(p, "null", 4))) ||
			      (l == 5 && !memcmp(p, "false", 5)))) {
				*why = "NaN and Infinity are not JSON numbers";
				return p;
			}
			p = q;
			continue;
		}
		p++;
	}
	return NULL;
}

/* The JSON value of the n bytes at t, NULL if they are not one (and
 * nothing but white space after it: two summaries in one file are not the
 * first one) */
static jo *parse_text(const char *t, size_t n)
{
	struct json_tokener *tok = json_tokener_new();
	jo *v = tok ? json_tokener_parse_ex(tok, t, (int)n) : NULL;
	if (v && (json_tokener_get_error(tok) != json_tokener_success ||
		  skip_ws(t + json_tokener_get_parse_end(tok), t + n) != t + n)) {
		json_object_put(v);
		v = NULL;
	}
	if (tok)
		json_tokener_free(tok);
	return v;
}

static int read_row(struct vmsa_summary *sum, jo *o, bool kswapd);
static void known_from_root(struct vmsa_summary *sum, jo *root);

/*
 * Whether row r, read from the JSON text [p, e) (parsed: o), writes back as
 * it was: the text itself (a summary this tool wrote, not indented), or what
 * json-c writes of o.  A row of keys or values this build does not write
 * (another build's, edited by hand) is not, and its document keeps its tree.
 */
static bool row_is_exact(struct vmsa_summary *sum, const struct vmsa_task_row *r, jo *o,
			 const char *p, const char *e, struct vmsa_jw *w)
{
	w->n = 0;
	vmsa_jw_row(w, sum, r); /* (a null pid, VMSA_PID_NONE, is written null) */
	if (w->oom)
		return false;
	if (w->n == (size_t)(e - p) && !memcmp(w->p, p, w->n))
		return true;
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								  JSON_C_TO_STRING_NOSLASHESCAPE);
	return t && strlen(t) == w->n && !memcmp(t, w->p, w->n);
}

/* The rows of the list l (kswapd's or not) into sum, each parsed alone:
 * 0, VMSA_E_NOMEM, or 1: not rows this build reads exactly */
static int rows_from_text(struct vmsa_summary *sum, size_t *cap, struct list_text l, bool kswapd,
			  struct json_tokener *tok, struct vmsa_jw *w)
{
	const char *p = skip_ws(l.p + 1, l.e), *e = l.e;
	if (p < e && *p == ']')
		return 0;
	for (;;) {
		if (p >= e || *p != '{')
			return 1;
		/* json-c says where the row ends: the object it parses first */
		json_tokener_reset(tok);
		jo *o = json_tokener_parse_ex(tok, p, e - p > INT_MAX ? INT_MAX : (int)(e - p));
		const char *ve = p + json_tokener_get_parse_end(tok);
		if (!o || json_tokener_get_error(tok) != json_tokener_success || ve > e) {
			json_object_put(o);
			return 1; /* (the tree's parse says what is wrong) */
		}
		if (sum->nrows == *cap) {
			size_t c = *cap ? 2 * *cap : 1024;
			struct vmsa_task_row **rows = realloc(sum->rows, c * sizeof(*rows));
			if (!rows) {
				json_object_put(o);
				return VMSA_E_NOMEM;
			}
			sum->rows = rows;
			*cap = c;
		}
		/* a row not of its shape (a pid of -3, a count of 1.5) is left to
		 * the tree, whose validation names it (vmsa_doc_validate()) */
		const struct vmsa_field *rf =
			vmsa_shape_member(&vmsa_summary_shape, kswapd ? "kswapd" : "processes",
					  kswapd ? 6 : 9);
		char why[8];
		struct vpath vp = {.len = 0};
		vp.buf[0] = '\0';
		/* (nor is one whose null write pages hide writes: the rows
		 * read apart merge a null and a number to the number, the
		 * tree as "sum, null if a null hides writes" says) */
		if (!rf || check_shape(o, rf->shape, &vp, false, why, sizeof(why)) ||
		    hides_writes(o)) {
			json_object_put(o);
			return 1;
		}
		int err = read_row(sum, o, kswapd);
		bool exact = !err && row_is_exact(sum, sum->rows[sum->nrows - 1], o, p, ve, w);
		json_object_put(o);
		if (err == VMSA_E_NOMEM || w->oom)
			return VMSA_E_NOMEM;
		if (!exact)
			return 1;
		p = skip_ws(ve, e);
		if (p < e && *p == ',') {
			p = skip_ws(p + 1, e);
			continue;
		}
		return p < e && *p == ']' ? 0 : 1;
	}
}

/* The two lists are the root's last members, "processes" then "kswapd" */
static bool lists_last(jo *root)
{
	const char *k1 = NULL, *k2 = NULL;
	json_object_object_foreach(root, key, v)
	{
		(void)v;
		k1 = k2;
		k2 = key;
	}
	return k1 && k2 && !strcmp(k1, "processes") && !strcmp(k2, "kswapd");
}

/*
 * The rows of a summary file read from its text a row at a time into a
 * summary of the document's own, not as a tree (a summary of 65,000 tasks,
 * 250 MB, took 3 GB and 14 s as one): 0, VMSA_E_NOMEM, or 1 when a row is
 * not one this build writes back as it was (the document then keeps its
 * tree, which merge and write take as it is).
 */
static int rows_read(struct vmsa_doc *d, const struct list_text lists[2])
{
	if (!lists[0].p || !lists[1].p || !lists_last(d->root))
		return 1;
	struct vmsa_summary *sum = calloc(1, sizeof(*sum));
	struct json_tokener *tok = json_tokener_new();
	struct vmsa_jw w = {0};
	int err = sum && tok ? 0 : VMSA_E_NOMEM;
	size_t cap = 0;
	if (!err)
		known_from_root(sum, d->root);
	for (int k = 0; k < 2 && !err; k++)
		err = rows_from_text(sum, &cap, lists[k], k == 1, tok, &w);
	vmsa_jw_release(&w);
	if (tok)
		json_tokener_free(tok);
	if (err) {
		vmsa_summary_free(sum);
		return err;
	}
	sum->ignore_pid = false; /* (each row without a pid has VMSA_PID_NONE) */
	json_object_object_del(d->root, "processes");
	json_object_object_del(d->root, "kswapd");
	d->sum = d->owned = sum;
	d->rows_read = true;
	return 0;
}

static int parse_doc(struct vmsa_doc **out, const char *path, bool rows)
{
	*out = NULL;
	size_t n;
	char *text = read_text(path, &n);
	if (!text)
		return errno == ENOMEM ? VMSA_E_NOMEM : errno == EILSEQ ? VMSA_E_CORRUPT : VMSA_E_IO;
	if (n >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
		/* a UTF-8 byte order mark (an editor's): not JSON, skipped */
		memmove(text, text + 3, n - 3 + 1);
		n -= 3;
	}
	const char *why;
	if (vmsa_json_bad_number(text, n, &why)) {
		/* (json-c reads NaN, keeps 2^64 - 1 for 2^64 + 5: not a summary's values) */
		free(text);
		return VMSA_E_CORRUPT;
	}
	struct list_text lists[2] = {{NULL, NULL}, {NULL, NULL}};
	size_t len = 0;
	char *cut = n < INT_MAX ? without_rows(text, n, &len, lists) : NULL;
	bool was_cut = cut != NULL;
	jo *root = n < INT_MAX ? parse_text(cut ? cut : text, cut ? len : n) : NULL;
	free(cut);
	if (!root) {
		free(text);
		return VMSA_E_CORRUPT;
	}
	jo *schema, *ver;
	if (!json_object_object_get_ex(root, "schema", &schema) ||
	    strcmp(json_object_get_string(schema) ? json_object_get_string(schema) : "",
		   VMSA_SCHEMA_NAME) != 0 ||
	    !json_object_object_get_ex(root, "schema_version", &ver) ||
	    /* the integer 1, not 1.9, "1x" or true (json_object_get_int() takes them) */
	    !json_object_is_type(ver, json_type_int) ||
	    json_object_get_int64(ver) != VMSA_SCHEMA_VERSION) {
		json_object_put(root);
		free(text);
		return VMSA_E_UNSUPPORTED;
	}
	int err = doc_wrap(out, root);
	if (!err && !rows)
		(*out)->rows_left_out = true;
	if (!err && rows && was_cut && (err = rows_read(*out, lists)) == 1) {
		/* the whole tree, as the file holds it */
		jo *whole_root = parse_text(text, n);
		err = whole_root ? 0 : VMSA_E_CORRUPT;
		json_object_put((*out)->root);
		(*out)->root = whole_root;
	}
	free(text);
	if (err) {
		vmsa_doc_free(*out);
		*out = NULL;
	}
	return err;
}

int vmsa_doc_parse_file(struct vmsa_doc **out, const char *path)
{
	return parse_doc(out, path, true);
}

int vmsa_doc_parse_file_no_rows(struct vmsa_doc **out, const char *path)
{
	return parse_doc(out, path, false);
}

const struct json_object *vmsa_doc_json(const struct vmsa_doc *d)
{
	return d->root;
}

/* The document's rows are its summary's, not in its tree */
static bool rows_in_sum(const struct vmsa_doc *d)
{
	return d->sum && !json_object_object_get_ex(d->root, "processes", NULL);
}

int vmsa_doc_rows_as_tree(struct vmsa_doc *d)
{
	return whole(d);
}

int vmsa_doc_write(FILE *f, const struct vmsa_doc *d, int pretty)
{
	if (d->rows_left_out)
		return VMSA_E_INVAL;
	/* the rows written from the summary as they are made, no tree (what a
	 * tree of them writes: the writers are held to each other's bytes) */
	if (rows_in_sum(d))
		return vmsa_json_write_rows_of(f, d->root, d->sum, pretty != 0);
	return vmsa_json_write(f, d->root, pretty);
}

/* ---- merge ------------------------------------------------------------ */

static bool is_int(jo *v)
{
	return v && json_object_is_type(v, json_type_int);
}

static bool is_hist(jo *o)
{
	jo *b, *s;
	return json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, "buckets", &b) &&
	       json_object_object_get_ex(o, "sub_buckets_log2", &s);
}

static uint64_t u(jo *o, const char *k)
{
	jo *v;
	return json_object_object_get_ex(o, k, &v) && v ? json_object_get_uint64(v) : 0;
}

static void set_u(jo *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static jo *copy(jo *v)
{
	jo *c = NULL;
	if (!v)
		return NULL;
	json_object_deep_copy(v, &c, NULL);
	return c;
}

static int by_lo(const void *a, const void *b)
{
	uint64_t x = u(*(jo *const *)a, "lo_ns"), y = u(*(jo *const *)b, "lo_ns");
	return (x > y) - (x < y);
}

static uint64_t bucket_count(const void *ctx, size_t i)
{
	return u(json_object_array_get_idx(ctx, i), "count");
}

static uint64_t bucket_hi(const void *ctx, size_t i)
{
	return u(json_object_array_get_idx(ctx, i), "hi_ns");
}

/* a + b into *sum: false when it passes 2^64 - 1 (a merge then fails: a
 * count that wrapped would be a small, plausible and wrong number) */
static bool add_u64(uint64_t a, uint64_t b, uint64_t *sum)
{
	*sum = a + b;
	return *sum >= a;
}

static int merge_hist(jo *d, jo *s)
{
	uint64_t dc = u(d, "count"), sc = u(s, "count"), count, sum_ns;
	if (u(d, "sub_buckets_log2") != u(s, "sub_buckets_log2"))
		return VMSA_E_INVAL;
	if (!sc)
		return 0;
	if (!add_u64(dc, sc, &count) || !add_u64(u(d, "sum_ns"), u(s, "sum_ns"), &sum_ns))
		return VMSA_E_OVERFLOW;
	jo *db, *sb;
	json_object_object_get_ex(d, "buckets", &db);
	json_object_object_get_ex(s, "buckets", &sb);
	for (size_t i = 0; i < json_object_array_length(sb); i++) {
		jo *e = json_object_array_get_idx(sb, i);
		size_t j;
		for (j = 0; j < json_object_array_length(db); j++) {
			jo *f = json_object_array_get_idx(db, j);
			if (u(f, "lo_ns") == u(e, "lo_ns")) {
				uint64_t c;
				if (!add_u64(u(f, "count"), u(e, "count"), &c))
					return VMSA_E_OVERFLOW;
				set_u(f, "count", c);
				break;
			}
		}
		if (j == json_object_array_length(db))
			json_object_array_add(db, copy(e));
	}
	json_object_array_sort(db, by_lo);
	uint64_t mn = dc ? (u(d, "min_ns") < u(s, "min_ns") ? u(d, "min_ns") : u(s, "min_ns"))
			 : u(s, "min_ns");
	uint64_t mx = u(d, "max_ns") > u(s, "max_ns") ? u(d, "max_ns") : u(s, "max_ns");
	set_u(d, "count", count);
	set_u(d, "sum_ns", sum_ns);
	set_u(d, "min_ns", mn);
	set_u(d, "max_ns", mx);
	struct vmsa_buckets bk = {db, json_object_array_length(db), bucket_count, bucket_hi};
	for (size_t k = 0; k < sizeof(vmsa_hist_quantile_keys) / sizeof(vmsa_hist_quantile_keys[0]); k++)
		set_u(d, vmsa_hist_quantile_keys[k].key,
		      vmsa_quantile(&bk, count, mn, mx, vmsa_hist_quantile_keys[k].q));
	return 0;
}

static int merge_obj(jo *d, jo *s, const struct vmsa_shape *shape);

/* true for the "(other tasks)" row of the tasks past --max-tasks */
static bool other_tasks(jo *row)
{
	jo *o;
	return json_object_object_get_ex(row, "other_tasks", &o) && json_object_get_boolean(o);
}

/*
 * Rows are the same task when comm and pid (null with --ignore-pid) agree;
 * the "(other tasks)" rows (pid null) merge with each other only.
 */
static bool same_row(jo *a, jo *b)
{
	jo *ca, *cb, *pa, *pb;
	if (other_tasks(a) != other_tasks(b))
		return false;
	json_object_object_get_ex(a, "comm", &ca);
	json_object_object_get_ex(b, "comm", &cb);
	json_object_object_get_ex(a, "pid", &pa);
	json_object_object_get_ex(b, "pid", &pb);
	if (json_object_get_string_len(ca) != json_object_get_string_len(cb) ||
	    memcmp(json_object_get_string(ca), json_object_get_string(cb),
		   (size_t)json_object_get_string_len(ca)) != 0)
		return false;
	if (!pa || !pb)
		return !pa && !pb;
	return json_object_get_int64(pa) == json_object_get_int64(pb);
}

static int row_order(const void *x, const void *y)
{
	jo *a = *(jo *const *)x, *b = *(jo *const *)y, *ca, *cb, *pa, *pb;
	json_object_object_get_ex(a, "comm", &ca);
	json_object_object_get_ex(b, "comm", &cb);
	size_t la = (size_t)json_object_get_string_len(ca), lb = (size_t)json_object_get_string_len(cb);
	int c = memcmp(json_object_get_string(ca), json_object_get_string(cb), la < lb ? la : lb);
	if (c)
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	json_object_object_get_ex(a, "pid", &pa);
	json_object_object_get_ex(b, "pid", &pb);
	int64_t x1 = pa ? json_object_get_int64(pa) : -1, y1 = pb ? json_object_get_int64(pb) : -1;
	return (x1 > y1) - (x1 < y1);
}

/* A hash of what same_row() compares */
static uint64_t row_hash(jo *row)
{
	jo *c, *p;
	uint64_t h = other_tasks(row) ? 0x9E3779B97F4A7C15ull : 0xCBF29CE484222325ull;
	if (json_object_object_get_ex(row, "comm", &c)) {
		const char *s = json_object_get_string(c);
		for (int i = 0, n = json_object_get_string_len(c); i < n; i++)
			h = (h ^ (unsigned char)s[i]) * 0x100000001B3ull;
	}
	if (json_object_object_get_ex(row, "pid", &p) && p)
		h ^= (uint64_t)json_object_get_int64(p) * 0xC2B2AE3D27D4EB4Full;
	return h ^ (h >> 29);
}

/* The rows of d by same_row(), for the rows of s: open addressing, indices + 1 */
struct row_index {
	size_t *slot;
	size_t mask;
};

static size_t *row_slot(const struct row_index *ix, jo *d, jo *r)
{
	for (size_t i = row_hash(r) & ix->mask;; i = (i + 1) & ix->mask)
		if (!ix->slot[i] || same_row(json_object_array_get_idx(d, ix->slot[i] - 1), r))
			return &ix->slot[i];
}

static int merge_rows(jo *d, jo *s, const struct vmsa_shape *shape)
{
	/* (rows were matched by a search of d for each row of s: two summaries
	 * of 65,000 tasks each did not merge in minutes) */
	size_t nd = json_object_array_length(d), ns = json_object_array_length(s), cap = 16;
	while (cap < 2 * (nd + ns))
		cap *= 2;
	struct row_index ix = {calloc(cap, sizeof(size_t)), cap - 1};
	if (!ix.slot)
		return VMSA_E_NOMEM;
	for (size_t j = 0; j < nd; j++) {
		size_t *sl = row_slot(&ix, d, json_object_array_get_idx(d, j));
		if (!*sl) /* (a repeated row: the first takes the others, as before) */
			*sl = j + 1;
	}
	int err = 0;
	for (size_t i = 0; !err && i < ns; i++) {
		jo *r = json_object_array_get_idx(s, i);
		size_t *sl = row_slot(&ix, d, r);
		if (*sl) {
			err = merge_obj(json_object_array_get_idx(d, *sl - 1), r, shape);
		} else {
			jo *c = copy(r);
			if ((r && !c) || json_object_array_add(d, c)) {
				json_object_put(c);
				err = VMSA_E_NOMEM;
			} else {
				*sl = json_object_array_length(d);
			}
		}
	}
	free(ix.slot);
	if (!err)
		json_object_array_sort(d, row_order);
	return err;
}

static bool has_string(jo *arr, jo *s)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++)
		if (strcmp(json_object_get_string(json_object_array_get_idx(arr, i)),
			   json_object_get_string(s)) == 0)
			return true;
	return false;
}

/* A key the table does not know (a newer summary's) merges by its type. */
static enum vmsa_merge rule_of_type(jo *v)
{
	switch (json_object_get_type(v)) {
	case json_type_object: return is_hist(v) ? VMSA_MERGE_HIST : VMSA_MERGE_OBJECT;
	case json_type_array: return VMSA_MERGE_CONCAT;
	case json_type_boolean: return VMSA_MERGE_ANY;
	case json_type_int: return VMSA_MERGE_SUM;
	default: return VMSA_MERGE_FIRST;
	}
}

/* Merges s's value sv of key into d, by the rule of field f. */
static int merge_value(jo *d, const char *key, jo *sv, const struct vmsa_field *f)
{
	jo *dv = NULL;
	bool had = json_object_object_get_ex(d, key, &dv);
	/* a sum of what one of them cannot tell is not known either (the
	 * writes, where a line of a write event was rejected) */
	if (f && f->merge == VMSA_MERGE_SUM_UNKNOWN && had && (!dv || !sv)) {
		json_object_object_add(d, key, NULL);
		return 0;
	}
	if (!sv)
		return 0;
	if (!dv) {
		json_object_object_add(d, key, copy(sv));
		return 0;
	}
	enum json_type t = json_object_get_type(dv);
	if (t != json_object_get_type(sv))
		return VMSA_E_INVAL;
	enum vmsa_merge rule = f ? f->merge : rule_of_type(dv);
	const struct vmsa_shape *shape = f ? f->shape : NULL;
	switch (rule) {
	case VMSA_MERGE_OBJECT:
		return t == json_type_object ? merge_obj(dv, sv, shape) : VMSA_E_INVAL;
	case VMSA_MERGE_HIST:
		return t == json_type_object && is_hist(dv) ? merge_hist(dv, sv) : VMSA_E_INVAL;
	case VMSA_MERGE_ROWS:
		return t == json_type_array ? merge_rows(dv, sv, shape) : VMSA_E_INVAL;
	case VMSA_MERGE_CONCAT:
	case VMSA_MERGE_UNION:
		if (t != json_type_array)
			return VMSA_E_INVAL;
		for (size_t i = 0; i < json_object_array_length(sv); i++) {
			jo *e = json_object_array_get_idx(sv, i);
			if (rule == VMSA_MERGE_UNION && has_string(dv, e))
				continue;
			json_object_array_add(dv, copy(e));
		}
		return 0;
	case VMSA_MERGE_ANY:
	case VMSA_MERGE_ALL:
		if (t == json_type_boolean) {
			bool a = json_object_get_boolean(dv), b = json_object_get_boolean(sv);
			json_object_object_add(d, key, json_object_new_boolean(
							       rule == VMSA_MERGE_ALL ? a && b : a || b));
		}
		return 0;
	case VMSA_MERGE_SUM:
	case VMSA_MERGE_SUM_UNKNOWN:
	case VMSA_MERGE_SUM_WRITES:
	case VMSA_MERGE_MIN:
	case VMSA_MERGE_MAX:
		if (is_int(dv)) {
			uint64_t a = json_object_get_uint64(dv), b = json_object_get_uint64(sv), sum;
			bool add = rule != VMSA_MERGE_MIN && rule != VMSA_MERGE_MAX;
			if (add && !add_u64(a, b, &sum))
				return VMSA_E_OVERFLOW;
			set_u(d, key, add ? sum
				      : rule == VMSA_MERGE_MIN ? (a < b ? a : b)
							       : (a > b ? a : b));
		}
		return 0;
	default:
		return 0; /* the first document's, or recomputed after */
	}
}

/* The integer member key of the object o; false when it is null, absent or no integer. */
static bool int_member(jo *o, const char *key, uint64_t *v)
{
	jo *m = NULL;
	if (!json_object_object_get_ex(o, key, &m) || !m || !is_int(m))
		return false;
	*v = json_object_get_uint64(m);
	return true;
}

/*
 * Whether the null of key (a VMSA_MERGE_SUM_WRITES field) in the writes
 * object w hides writes: its write counts are unknown (file_async or
 * anon_async null: a line of a write event was rejected), or, for pages,
 * it counted writes whose pages the events did not carry.  A null that
 * hides nothing (no write in this context; a sync count of a kernel that
 * cannot write synchronously) is 0 where the other input has a number.
 */
static bool writes_hidden(jo *w, const char *key)
{
	jo *v = NULL;
	if (!json_object_object_get_ex(w, key, &v) || v)
		return false;
	uint64_t fa, aa, fs = 0, as = 0;
	if (!int_member(w, "file_async", &fa) || !int_member(w, "anon_async", &aa))
		return true;
	if (strcmp(key, "pages"))
		return false;
	int_member(w, "file_sync", &fs);
	int_member(w, "anon_sync", &as);
	return fa || aa || fs || as;
}

static int merge_obj(jo *d, jo *s, const struct vmsa_shape *shape)
{
	/* (looked at before any member of d is merged: the counts of d
	 * before s's were added say what d's nulls hide) */
	enum { MAX_WRITES_NULLS = 8 };
	const char *hidden[MAX_WRITES_NULLS];
	size_t nhidden = 0;
	for (size_t i = 0; shape && i < shape->n; i++) {
		const struct vmsa_field *f = &shape->members[i];
		if (f->key && f->merge == VMSA_MERGE_SUM_WRITES && nhidden < MAX_WRITES_NULLS &&
		    (writes_hidden(d, f->key) || writes_hidden(s, f->key)))
			hidden[nhidden++] = f->key;
	}
	json_object_object_foreach(s, key, sv)
	{
		const struct vmsa_field *f = shape ? vmsa_shape_member(shape, key, strlen(key)) : NULL;
		bool hide = false;
		for (size_t i = 0; f && f->merge == VMSA_MERGE_SUM_WRITES && i < nhidden; i++)
			hide |= !strcmp(hidden[i], key);
		if (hide) {
			/* a number beside a null that hides writes would pass for
			 * the sum: what one input could not count, the sum cannot */
			json_object_object_add(d, key, NULL);
			continue;
		}
		int err = merge_value(d, key, sv, f);
		if (err)
			return err;
	}
	return 0;
}

/* ---- rows merged in summaries read from files ---- */

/* A copy of row s of summary from appended to sum's rows (room for it made
 * by the caller), its name interned in sum's: the copy, or NULL (no memory) */
static struct vmsa_task_row *adopt_row(struct vmsa_summary *sum, const struct vmsa_summary *from,
				       const struct vmsa_task_row *s)
{
	struct vmsa_task_row *r = vmsa_summary_copy_row(sum, s);
	if (!r)
		return NULL;
	sum->rows[sum->nrows++] = r; /* (freed with sum) */
	size_t len;
	const char *name = vmsa_summary_comm(from, s, &len);
	uint32_t id;
	if (vmsa_comms_intern(&sum->comms, name, len, &id))
		return NULL;
	r->key.comm_id = id;
	return r;
}

static uint64_t native_hash(const struct vmsa_summary *sum, const struct vmsa_task_row *r)
{
	size_t len;
	const char *name = vmsa_summary_comm(sum, r, &len);
	uint64_t h = r->is_kswapd ? 0x9E3779B97F4A7C15ull : 0xCBF29CE484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 0x100000001B3ull;
	h ^= (uint64_t)(uint32_t)r->key.pid * 0xC2B2AE3D27D4EB4Full;
	return h ^ (h >> 29);
}

/* same_row() of the rows' JSON, in the same list: the same comm and pid (a
 * null pid VMSA_PID_NONE; the overflow row's VMSA_PID_OTHER, its other_tasks) */
static bool native_same(const struct vmsa_summary *a, const struct vmsa_task_row *x,
			const struct vmsa_summary *b, const struct vmsa_task_row *y)
{
	size_t la, lb;
	if (x->is_kswapd != y->is_kswapd || x->key.pid != y->key.pid)
		return false;
	const char *na = vmsa_summary_comm(a, x, &la), *nb = vmsa_summary_comm(b, y, &lb);
	return la == lb && !memcmp(na, nb, la);
}

static size_t *native_slot(size_t *slot, size_t mask, const struct vmsa_summary *d,
			   const struct vmsa_summary *s, const struct vmsa_task_row *r)
{
	for (size_t i = native_hash(s, r) & mask;; i = (i + 1) & mask)
		if (!slot[i] || native_same(d, d->rows[slot[i] - 1], s, r))
			return &slot[i];
}

struct named_row {
	struct vmsa_task_row *r;
	const char *name;
	size_t len;
};

/* row_order() of the rows' JSON, the processes' list first */
static int native_order(const void *x, const void *y)
{
	const struct named_row *a = x, *b = y;
	if (a->r->is_kswapd != b->r->is_kswapd)
		return a->r->is_kswapd ? 1 : -1;
	int c = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);
	if (c)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	/* (a null pid sorts as -1: the overflow row's too) */
	int64_t p = a->r->key.pid == VMSA_PID_OTHER ? VMSA_PID_NONE : a->r->key.pid;
	int64_t q = b->r->key.pid == VMSA_PID_OTHER ? VMSA_PID_NONE : b->r->key.pid;
	return (p > q) - (p < q);
}

/*
 * The rows of s added into d's as merge_rows() adds the lists of their JSON
 * (each row read back exactly: rows_read()): a row of the same key takes the
 * other's counts (vmsa_row_merge() adds what the field table adds: counters,
 * per-order counts, histograms bucket by bucket, the first nid), a new one is
 * copied, and the lists are sorted by comm, then pid.
 */
static int merge_rows_native(struct vmsa_summary *d, const struct vmsa_summary *s)
{
	size_t cap = 16;
	while (cap < 2 * (d->nrows + s->nrows))
		cap *= 2;
	size_t *slot = calloc(cap, sizeof(*slot));
	struct vmsa_task_row **rows =
		slot ? realloc(d->rows, (d->nrows + s->nrows + 1) * sizeof(*rows)) : NULL;
	if (!rows) {
		free(slot);
		return VMSA_E_NOMEM;
	}
	d->rows = rows;
	for (size_t j = 0; j < d->nrows; j++) {
		size_t *sl = native_slot(slot, cap - 1, d, d, d->rows[j]);
		if (!*sl)
			*sl = j + 1;
	}
	int err = 0;
	for (size_t i = 0; !err && i < s->nrows; i++) {
		const struct vmsa_task_row *r = s->rows[i];
		size_t *sl = native_slot(slot, cap - 1, d, s, r);
		if (*sl) {
			err = vmsa_row_merge(d->rows[*sl - 1], r);
			continue;
		}
		if (!adopt_row(d, s, r)) {
			err = VMSA_E_NOMEM;
			break;
		}
		*sl = d->nrows;
	}
	free(slot);
	struct named_row *nr = err ? NULL : malloc((d->nrows + 1) * sizeof(*nr));
	if (!err && !nr)
		err = VMSA_E_NOMEM;
	if (err)
		return err;
	for (size_t i = 0; i < d->nrows; i++) {
		nr[i].r = d->rows[i];
		nr[i].name = vmsa_summary_comm(d, d->rows[i], &nr[i].len);
	}
	qsort(nr, d->nrows, sizeof(*nr), native_order);
	for (size_t i = 0; i < d->nrows; i++)
		d->rows[i] = nr[i].r;
	free(nr);
	return 0;
}

/* The rows of both merge in their summaries: both were read from files and
 * say alike what is known (else nulls would differ row by row: the trees) */
static bool merge_natively(const struct vmsa_doc *dst, const struct vmsa_doc *src)
{
	if (!dst->rows_read || !src->rows_read || dst->owned != dst->sum || !rows_in_sum(dst) ||
	    !rows_in_sum(src))
		return false;
	struct vmsa_known a = vmsa_known_of(dst->sum), b = vmsa_known_of(src->sum);
	return a.sync == b.sync && a.scanned == b.scanned && a.reclaimed == b.reclaimed &&
	       a.end_reclaimed == b.end_reclaimed && a.writes == b.writes &&
	       a.slab_freed == b.slab_freed;
}

static bool has_note(jo *notes, const char *key);

/* Every member of o (and of the objects and lists in it) whose key starts
 * with prefix, but except, made null */
static void null_members(jo *o, const char *prefix, const char *except)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			null_members(json_object_array_get_idx(o, i), prefix, except);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, v)
	{
		if (!strncmp(key, prefix, strlen(prefix)) && strcmp(key, except))
			json_object_object_add(o, key, NULL);
		else
			null_members(v, prefix, except);
	}
}

int vmsa_doc_merge(struct vmsa_doc *dst, struct vmsa_doc *src)
{
	jo *d = dst->root, *s = src->root;
	bool native = merge_natively(dst, src);
	int err = native ? 0 : whole(dst);
	if (!err && !native)
		err = whole(src);
	if (!err)
		err = merge_obj(d, s, &vmsa_summary_shape);
	if (!err && native)
		err = merge_rows_native(dst->owned, src->sum);
	if (err)
		return err;
	/* the VMSA_MERGE_DERIVED fields */
	jo *in, *tot, *p, *k;
	if (json_object_object_get_ex(d, "input", &in)) {
		set_u(in, "duration_ns", u(in, "last_timestamp_ns") - u(in, "first_timestamp_ns"));
		/* events lost: unknown (null) when any source's markers said no number */
		jo *srcs;
		uint64_t unsaid = 0;
		if (json_object_object_get_ex(in, "sources", &srcs) &&
		    json_object_is_type(srcs, json_type_array))
			for (size_t i = 0; i < json_object_array_length(srcs); i++)
				unsaid += u(json_object_array_get_idx(srcs, i),
					    "lost_markers_without_count");
		if (unsaid)
			json_object_object_add(in, "events_lost", NULL);
	}
	/* what one of them could not tell the merged summary cannot either
	 * (its rows merged as trees: the known flags differed) */
	jo *known = NULL;
	if (!native && json_object_object_get_ex(d, "totals", &tot) &&
	    json_object_object_get_ex(tot, "pages_scanned_known", &known) && known &&
	    !json_object_get_boolean(known))
		null_members(d, "pages_scanned", "pages_scanned_known");
	jo *notes = NULL;
	if (!native && json_object_object_get_ex(d, "notes", &notes) &&
	    has_note(notes, "reclaims_missing"))
		null_members(d, "pages_reclaimed", "");
	if (!native && notes && has_note(notes, "slab_ends_missing"))
		null_members(d, "slab_objects_freed", "");
	if (json_object_object_get_ex(d, "totals", &tot) && native)
		set_u(tot, "tasks", dst->owned->nrows);
	else if (json_object_object_get_ex(d, "totals", &tot) &&
		 json_object_object_get_ex(d, "processes", &p) &&
		 json_object_object_get_ex(d, "kswapd", &k))
		set_u(tot, "tasks", json_object_array_length(p) + json_object_array_length(k));
	return 0;
}

/* ---- paths and checks -------------------------------------------------- */

/* "totals.direct.writes.file_async": 0 with *v set, 1 null, <0 missing */
/* The value at a dotted path: 0 and *out (NULL for null), or VMSA_E_INVAL. */
static int at_path(const struct vmsa_doc *d, const char *path, jo **out)
{
	jo *o = d->root;
	char key[128];
	const char *p = path;
	while (*p) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		if (n == 0 || n >= sizeof(key))
			return VMSA_E_INVAL;
		memcpy(key, p, n);
		key[n] = '\0';
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, key, &o))
			return VMSA_E_INVAL;
		p += n + (dot ? 1 : 0);
	}
	*out = o;
	return 0;
}

int vmsa_doc_number(const struct vmsa_doc *d, const char *path, double *v)
{
	jo *o;
	int err = at_path(d, path, &o);
	if (err)
		return err;
	if (!o)
		return 1;
	if (!json_object_is_type(o, json_type_int) && !json_object_is_type(o, json_type_double))
		return VMSA_E_INVAL;
	*v = json_object_get_double(o);
	return 0;
}

int vmsa_doc_u64(const struct vmsa_doc *d, const char *path, uint64_t *u)
{
	jo *o;
	if (at_path(d, path, &o) || !o || !json_object_is_type(o, json_type_int))
		return VMSA_E_INVAL;
	/* (a validated summary's counts are 0 .. 2^64 - 1) */
	errno = 0;
	*u = json_object_get_uint64(o);
	return errno ? VMSA_E_INVAL : 0;
}

int vmsa_doc_has_note(const struct vmsa_doc *d, const char *key)
{
	jo *notes = NULL;
	if (!d || !json_object_object_get_ex(d->root, "notes", &notes) ||
	    !json_object_is_type(notes, json_type_array))
		return 0;
	size_t kl = strlen(key);
	for (size_t i = 0; i < json_object_array_length(notes); i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(notes, i));
		if (s && !strncmp(s, key, kl) && s[kl] == ':')
			return 1;
	}
	return 0;
}

/* ---- thresholds (vmsa_threshold_check) -------------------------------- */

static const char *skip(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* NUMBER, PATH or NUMBER * PATH. */
struct operand {
	double factor;		/* the number, or the path's factor */
	char path[256];		/* "" for a number */
};

/* Parses an operand at *pp: 0, or VMSA_E_INVAL with the reason in msg. */
static int parse_operand(const char **pp, struct operand *o, char *msg, size_t msgn)
{
	const char *p = skip(*pp);
	*o = (struct operand){.factor = 1};
	if ((*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '+') {
		char *end;
		errno = 0;
		o->factor = strtod(p, &end);
		if (end == p || errno) {
			snprintf(msg, msgn, "'%s' is not a number", p);
			return VMSA_E_INVAL;
		}
		if (!isfinite(o->factor)) { /* (strtod takes nan and inf) */
			snprintf(msg, msgn, "'%.*s' is not a finite number", (int)(end - p), p);
			return VMSA_E_INVAL;
		}
		const char *q = skip(end);
		if (*q != '*') {
			*pp = q;
			return 0;
		}
		p = skip(q + 1);
	}
	size_t n = strcspn(p, " \t<>=!*");
	if (n == 0 || n >= sizeof(o->path)) {
		snprintf(msg, msgn, "a number or a field path is missing at '%s'", p);
		return VMSA_E_INVAL;
	}
	memcpy(o->path, p, n);
	o->path[n] = '\0';
	enum vmsa_unit unit;
	if (vmsa_summary_field(o->path, &unit)) {
		snprintf(msg, msgn, "%s is not a field of the summary schema (docs/json-schema.md)",
			 o->path);
		return VMSA_E_INVAL;
	}
	if (unit == VMSA_UNIT_TEXT || unit == VMSA_UNIT_OBJECT || unit == VMSA_UNIT_LIST ||
	    unit == VMSA_UNIT_FLAG) {
		snprintf(msg, msgn, "%s is not a number (%s)", o->path, vmsa_unit_name(unit));
		return VMSA_E_INVAL;
	}
	*pp = p + n;
	return 0;
}

/* The histograms check can read, what they count, and the counts that say
 * one of their periods began (a reclaim that has not ended is one) */
static const struct nothing_hist {
	const char *hist, *what, *periods, *began[4];
	/* the periods open at the end: how many, and their time so far */
	const char *open[2][2];
} nothing_hists[] = {
	{"latency.direct_stall_ns.", "direct reclaim stalls", "direct reclaim(s)",
	 {"totals.direct.reclaims", "totals.direct.in_progress"},
	 {{"totals.direct.in_progress", "totals.direct.in_progress_ns"}}},
	{"latency.kswapd_awake_ns.", "kswapd awake periods", "kswapd wake-up(s)",
	 {"totals.kswapd.wakeups", "totals.kswapd.awake_in_progress"},
	 {{"totals.kswapd.awake_in_progress", "totals.kswapd.awake_in_progress_ns"}}},
	{"latency.memcg_reclaim_ns.", "memcg reclaims", "memcg reclaim(s)",
	 {"totals.memcg.reclaims", "totals.memcg.in_progress", "totals.memcg_softlimit.reclaims",
	  "totals.memcg_softlimit.in_progress"},
	 {{"totals.memcg.in_progress", "totals.memcg.in_progress_ns"},
	  {"totals.memcg_softlimit.in_progress", "totals.memcg_softlimit.in_progress_ns"}}},
};

/* The histogram of path, or NULL */
static const struct nothing_hist *hist_of(const char *path)
{
	for (size_t i = 0; i < sizeof(nothing_hists) / sizeof(nothing_hists[0]); i++)
		if (!strncmp(path, nothing_hists[i].hist, strlen(nothing_hists[i].hist)))
			return &nothing_hists[i];
	return NULL;
}

/* What the longest period still open at the end had lasted at least (their
 * mean time so far, rounded up to a whole ns: the longest is no shorter),
 * 0 when none is open */
static double open_at_least(const struct vmsa_doc *d, const struct nothing_hist *h)
{
	double most = 0, k, ns;
	for (size_t i = 0; i < 2 && h->open[i][0]; i++)
		if (vmsa_doc_number(d, h->open[i][0], &k) == 0 && k > 0 &&
		    vmsa_doc_number(d, h->open[i][1], &ns) == 0 && ceil(ns / k) > most)
			most = ceil(ns / k);
	return most;
}

/*
 * Whether the tracer lost events (input.events_lost not 0, or null: a
 * marker said no number, a trace.dat was not read whole); why says how
 * many.  Those events may have been any period's begin or end: a latency
 * statistic may be other than measured (a begin whose end was lost is
 * open at the end, or ended by another begin), and every count of the
 * summary is a lower bound.
 */
static bool events_were_lost(const struct vmsa_doc *d, char *why, size_t n)
{
	double v;
	int r = vmsa_doc_number(d, "input.events_lost", &v);
	if (r == 0 && v == 0)
		return false;
	if (r == 0)
		snprintf(why, n, "%.0f event(s) were lost by the tracer (input.events_lost)", v);
	else if (r == 1)
		snprintf(why, n, "events were lost by the tracer, how many is unknown "
				 "(input.events_lost is null)");
	else
		return false; /* (no such field: not a summary of a trace) */
	return true;
}

/*
 * A statistic of a histogram whose count is 0: 1 (vacuous) when nothing it
 * counts happened, 2 (not measured) when the summary says some happened
 * (begun and never ended) or may have (lines rejected, events lost): its
 * value is then unknown, never "no stalls".  An end without a begin is not
 * counted as doubt: it names its context only in the trace (the summary's
 * count is of every context and of kswapd sleeps), and nearly every trace
 * starts in the middle of something.  why says which.
 */
static int nothing_counted(const struct vmsa_doc *d, const char *path, char *why, size_t n)
{
	const struct nothing_hist *h = hist_of(path);
	double v, began = 0;
	for (size_t i = 0; h && i < sizeof(h->began) / sizeof(h->began[0]) && h->began[i]; i++) {
		if (vmsa_doc_number(d, h->began[i], &v) != 0) {
			snprintf(why, n, "not measured: %s is unknown, so %s may have happened",
				 h->began[i], h->what);
			return 2;
		}
		began = v > began ? v : began; /* (in progress: some of the begun) */
	}
	const char *what = h ? h->what : "what it counts";
	if (began > 0) {
		snprintf(why, n, "not measured: %.0f %s began and none completed (in progress "
				 "at the end, or cut)", began, h->periods);
		return 2;
	}
	static const struct {
		const char *path, *says;
	} doubt[] = {
		{"input.lines_rejected", "line(s) were rejected"},
		{"input.events_lost", "event(s) were lost by the tracer"},
	};
	for (size_t i = 0; i < sizeof(doubt) / sizeof(doubt[0]); i++) {
		int r = vmsa_doc_number(d, doubt[i].path, &v);
		if (r == 0 && v == 0)
			continue;
		if (r == 0)
			snprintf(why, n, "not measured: none of %s completed, but %.0f %s: they "
					 "may have been some", what, v, doubt[i].says);
		else
			snprintf(why, n, "not measured: none of %s completed, but %s is unknown",
				 what, doubt[i].path);
		return 2;
	}
	if (h)
		snprintf(why, n, "vacuous: no %s", h->what);
	else
		snprintf(why, n, "vacuous: nothing was counted (count is 0)");
	return 1;
}

/*
 * The value of o in d: 0 (*v), 1 for a statistic of nothing (its
 * histogram's count is 0, and nothing it counts happened: nothing_counted()),
 * 2 for a value the trace cannot tell (null, or absent from this summary),
 * 3 for a product that overflows a double; why says which.  A latency's
 * max_ns is at least what a period still open at the end had lasted (why
 * says so when that is more).
 */
static int operand_value(const struct vmsa_doc *d, const struct operand *o, double *v, char *why,
			 size_t wn)
{
	*v = o->factor;
	if (!o->path[0])
		return 0;
	double x = 0, count; /* (x: GCC -O3 sees no set through vmsa_doc_number()) */
	int r = vmsa_doc_number(d, o->path, &x);
	size_t pl = strlen(o->path);
	const struct nothing_hist *h = hist_of(o->path);
	char lost[160];
	if (r == 0 && h && events_were_lost(d, lost, sizeof(lost))) {
		/* (the open ones too: their ends may be among the lost) */
		snprintf(why, wn, "not measured: %s: they may have been begins or ends of %s, "
				  "so %s may differ", lost, h->what, o->path);
		return 2;
	}
	if (r == 0 && h && pl > 7 && !strcmp(o->path + pl - 7, ".max_ns")) {
		double open = open_at_least(d, h);
		if (open > x) {
			snprintf(why, wn, "max_ns taken as %.0f: %s open at the end had lasted at "
					  "least that (those that ended: at most %.0f)", open, h->periods, x);
			x = open;
		}
	}
	if (r == 0 && !isfinite(o->factor * x)) {
		/* (1e300 * a count: no verdict can be told of it) */
		snprintf(why, wn, "%.15g * %s overflows a double", o->factor, o->path);
		return 3;
	}
	if (r == 0) {
		*v = o->factor * x;
		return 0;
	}
	if (r < 0) {
		snprintf(why, wn, "not measured: %s is absent from this summary", o->path);
		return 2;
	}
	char parent[sizeof(o->path) + 8];
	snprintf(parent, sizeof(parent), "%s", o->path);
	char *dot = strrchr(parent, '.');
	if (dot) {
		strcpy(dot + 1, "count");
		if (vmsa_doc_number(d, parent, &count) == 0 && count == 0)
			return nothing_counted(d, o->path, why, wn);
	}
	snprintf(why, wn, "not measured: the trace cannot tell %s", o->path);
	return 2;
}

/* "X = 12", "0.5 * X = 6", "5000000" or "X = null" */
static void describe(char *buf, size_t n, const struct operand *o, double v, bool null)
{
	char num[40];
	snprintf(num, sizeof(num), null ? "null" : "%.15g", v);
	if (!o->path[0])
		snprintf(buf, n, "%s", num);
	else if (o->factor != 1)
		snprintf(buf, n, "%.15g * %s = %s", o->factor, o->path, num);
	else
		snprintf(buf, n, "%s = %s", o->path, num);
}

static const char *const verdict_names[] = {"holds", "violated", "vacuous", "not measured"};

static int threshold_check(const struct vmsa_doc *d, const char *expr, int missing_pass,
			   struct vmsa_threshold *t);

int vmsa_threshold_check_sized(const struct vmsa_doc *d, const char *expr, int missing_pass,
			       struct vmsa_threshold *t, size_t t_size)
{
	if (t_size == sizeof *t)
		return threshold_check(d, expr, missing_pass, t);
	if (t_size < VMSA_ABI_MIN_THRESHOLD)
		return VMSA_E_INVAL;
	struct vmsa_threshold whole;
	int err = threshold_check(d, expr, missing_pass, &whole);
	vmsa_abi_out(t, t_size, &whole, sizeof whole, VMSA_ABI_MIN_THRESHOLD);
	return err;
}

static int threshold_check(const struct vmsa_doc *d, const char *expr, int missing_pass,
			   struct vmsa_threshold *t)
{
	static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
	memset(t, 0, sizeof(*t));
	struct operand a, b;
	const char *p = expr, *op = NULL;
	char msg[sizeof(t->message)] = "";
	int err = parse_operand(&p, &a, msg, sizeof(msg));
	p = skip(p);
	for (size_t i = 0; !err && !op && i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(p, ops[i], strlen(ops[i]))) {
			op = ops[i];
			p += strlen(ops[i]);
		}
	if (!err && !op) {
		snprintf(msg, sizeof(msg), "expected one of < <= == != >= > at '%s'", p);
		err = VMSA_E_INVAL;
	}
	if (!err)
		err = parse_operand(&p, &b, msg, sizeof(msg));
	if (!err && *skip(p)) {
		snprintf(msg, sizeof(msg), "unexpected '%s'", skip(p));
		err = VMSA_E_INVAL;
	}
	if (!err && !a.path[0] && !b.path[0]) {
		snprintf(msg, sizeof(msg), "names no field");
		err = VMSA_E_INVAL;
	}
	if (err) {
		memcpy(t->message, msg, sizeof(t->message));
		return err;
	}
	bool field_left = a.path[0] != '\0';
	const struct operand *field = field_left ? &a : &b, *bound = field_left ? &b : &a;
	snprintf(t->field, sizeof(t->field), "%s", field->path);
	snprintf(t->op, sizeof(t->op), "%s", op);
	if (!d)
		return 0;
	char why[400] = "", why_b[400] = "";
	int rm = operand_value(d, field, &t->measured, why, sizeof(why));
	int rb = operand_value(d, bound, &t->bound, why_b, sizeof(why_b));
	t->measured_null = rm != 0;
	t->bound_null = rb != 0;
	if (rm == 3 || rb == 3) {
		/* a value, but none a double holds: fails, whatever --missing says */
		t->verdict = VMSA_VERDICT_NOT_MEASURED;
		t->pass = 0;
	} else if (rm == 2 || rb == 2) {
		t->verdict = VMSA_VERDICT_NOT_MEASURED;
		t->pass = missing_pass != 0;
	} else if (rm || rb) {
		t->verdict = VMSA_VERDICT_VACUOUS;
		t->pass = 1;
	} else {
		double x = field_left ? t->measured : t->bound;
		double y = field_left ? t->bound : t->measured;
		bool pass = !strcmp(op, "<=") ? x <= y : !strcmp(op, ">=") ? x >= y
			  : !strcmp(op, "==") ? x == y : !strcmp(op, "!=") ? x != y
			  : !strcmp(op, "<") ? x < y : x > y;
		t->verdict = pass ? VMSA_VERDICT_HOLDS : VMSA_VERDICT_VIOLATED;
		t->pass = pass;
		/* lost events: the summary's counts are lower bounds, and a
		 * verdict that holds on them holds for the trace only when
		 * more events cannot undo it (a count above a number) */
		bool lower = !strncmp(field->path, "totals.", 7) ||
			     (bound->path[0] && !strncmp(bound->path, "totals.", 7));
		bool above = !bound->path[0] && (field_left ? op[0] == '>' : op[0] == '<');
		char lost[160];
		if (pass && lower && !above && events_were_lost(d, lost, sizeof(lost))) {
			t->verdict = VMSA_VERDICT_NOT_MEASURED;
			t->pass = missing_pass != 0;
			snprintf(why, sizeof(why), "not measured: it holds on the events read, but %s: "
						   "the counts are lower bounds", lost);
			rm = 2;
		}
	}
	t->verdict_name = verdict_names[t->verdict];
	char m[400], bd[400];
	describe(m, sizeof(m), field, t->measured, t->measured_null);
	describe(bd, sizeof(bd), bound, t->bound, t->bound_null);
	const char *reason = rm == 3 || (rm == 2 && rb != 3) || (rm == 1 && rb < 2) ? why : why_b;
	const char *tail = rm == 3 || rb == 3 ? " (fails)"
			   : t->verdict != VMSA_VERDICT_NOT_MEASURED ? ""
			   : t->pass ? " (passes: --missing=pass)"
				     : " (fails; --missing=pass lets it pass)";
	if (t->verdict == VMSA_VERDICT_VACUOUS || t->verdict == VMSA_VERDICT_NOT_MEASURED)
		snprintf(t->message, sizeof(t->message), "measured %s, bound %s: %s%s", m, bd,
			 reason, tail);
	else if (why[0] || why_b[0]) /* (a max_ns that counts an open period) */
		snprintf(t->message, sizeof(t->message), "measured %s, bound %s: %s (%s)", m, bd,
			 t->verdict_name, why[0] ? why : why_b);
	else
		snprintf(t->message, sizeof(t->message), "measured %s, bound %s: %s", m, bd,
			 t->verdict_name);
	return 0;
}

/* ---- a summary document read back into a summary, for the reports ---- */

/* o's member k, NULL when o is NULL or has none */
static jo *member(jo *o, const char *k)
{
	jo *v = NULL;
	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* o has a member k and it is null (absent is not null) */
static bool said_null(jo *o, const char *k)
{
	jo *v = NULL;
	return o && json_object_object_get_ex(o, k, &v) && !v;
}

/* o's member k as a count: 0 when absent or null (a null is never shown as a
 * number: the summary's known flags say "unknown" instead) */
static uint64_t count_of(jo *o, const char *k)
{
	jo *v = member(o, k);
	return v && is_int(v) ? json_object_get_uint64(v) : 0;
}

/* Per-order counts into *by (made for the first one): 0 or VMSA_E_NOMEM */
static int read_orders(jo *o, struct vmsa_task_row *r, vmsa_orders_t *by)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return 0;
	json_object_object_foreach(o, k, v)
	{
		char *end;
		long i = strtol(k, &end, 10);
		if (!*end && i >= 0 && i < VMSA_MAX_ORDER && is_int(v) &&
		    vmsa_orders_put(r, by, (int)i, json_object_get_uint64(v)))
			return VMSA_E_NOMEM;
	}
	return 0;
}

/* A context's counters into c (NULL: none there) */
static void read_ctx(jo *o, struct vmsa_counters *c)
{
	if (!o || !c)
		return;
#define GET_COUNTER(type, m, k, unit, meaning) c->m = (type)count_of(o, k);
	VMSA_CTX_WINDOW(GET_COUNTER)
	VMSA_CTX_SCANNED(GET_COUNTER)
	VMSA_CTX_RECLAIMED(GET_COUNTER)
	VMSA_CTX_END(GET_COUNTER)
	VMSA_CTX_TAIL(GET_COUNTER)
	VMSA_CTX_SLAB_FREED(GET_COUNTER)
#undef GET_COUNTER
	jo *w = member(o, "writes");
	for (int file = 0; file < 2; file++)
		for (int sync = 0; sync < 2; sync++) {
			static const char *const keys[2][2] = {{"anon_async", "anon_sync"},
								{"file_async", "file_sync"}};
			c->write[file][sync] = count_of(w, keys[file][sync]);
		}
	c->write_pages = count_of(w, "pages");
	c->write_events_with_pages = is_int(member(w, "pages"));
}

/* the sums n of mm_vmscan_reclaim_pages of object o (0 when it is absent:
 * none), member by member of the field table */
static void read_reclaim_pages(jo *o, uint64_t *n)
{
#define u64(v) (v)
#define READ_RP(k, kind, meaning, value) value = count_of(o, k);
	VMSA_RECLAIM_PAGES_FIELDS(READ_RP)
#undef READ_RP
#undef u64
}

static void read_throttled(jo *o, uint64_t *n, uint64_t *usec)
{
	for (int b = 0; b < VMSA_THROTTLE__COUNT; b++) {
		jo *t = member(o, vmsa_throttle_name(b));
		n[b] = count_of(t, "count");
		usec[b] = count_of(t, "delayed_ns") / 1000;
	}
}

static int read_hist(jo *o, struct vmsa_hist *h, unsigned sub_bits)
{
	uint64_t bits = member(o, "sub_buckets_log2") ? count_of(o, "sub_buckets_log2") : sub_bits;
	if (bits > 8) /* (struct vmsa_hist holds no more) */
		return VMSA_E_CORRUPT;
	vmsa_hist_init(h, (unsigned)bits);
	jo *b = member(o, "buckets");
	size_t n = b && json_object_is_type(b, json_type_array) ? json_object_array_length(b) : 0;
	for (size_t i = 0; i < n; i++) {
		jo *x = json_object_array_get_idx(b, i);
		if (vmsa_hist_add_n(h, count_of(x, "lo_ns"), count_of(x, "count")))
			return VMSA_E_NOMEM;
	}
	h->count = count_of(o, "count");
	h->sum = count_of(o, "sum_ns");
	h->min = count_of(o, "min_ns");
	h->max = count_of(o, "max_ns");
	return 0;
}

static const enum vmsa_ctx windowed[] = {VMSA_CTX_DIRECT, VMSA_CTX_MEMCG, VMSA_CTX_SOFTLIMIT,
					 VMSA_CTX_NODE};

/* m, read, as r's struct vmsa_row_more when it counts anything (m's
 * histogram is r's then, else released): 0, err or VMSA_E_NOMEM */
static int keep_more(struct vmsa_task_row *r, struct vmsa_row_more *m, int err)
{
	static const char zero[VMSA_ROW_MORE_COUNTER_BYTES];
	if (!err && (m->awake.count || m->awake.held || memcmp(m, zero, sizeof(zero)))) {
		if (vmsa_row_more_make(r)) {
			*r->more = *m;
			return 0;
		}
		err = VMSA_E_NOMEM;
	}
	vmsa_hist_release(&m->awake);
	return err;
}

/* One processes[] or kswapd[] element as a row of sum. */
static int read_row(struct vmsa_summary *sum, jo *o, bool kswapd)
{
	struct vmsa_task_row *r = vmsa_summary_new_row(sum);
	if (!r)
		return VMSA_E_NOMEM;
	sum->rows[sum->nrows++] = r;
	struct vmsa_row_more m = {0};
	vmsa_hist_init(&m.awake, VMSA_HIST_COARSE);
	jo *comm = member(o, "comm"), *pid = member(o, "pid");
	if (!comm || !json_object_is_type(comm, json_type_string))
		return VMSA_E_CORRUPT;
	uint32_t id;
	if (vmsa_comms_intern(&sum->comms, json_object_get_string(comm),
			      (size_t)json_object_get_string_len(comm), &id))
		return VMSA_E_NOMEM;
	r->key.comm_id = id;
	/* the row of the tasks past --max-tasks has no pid, as every row has
	 * with --ignore-pid: it says which it is (the pids of the others were
	 * dropped when it came last) */
	if (other_tasks(o)) {
		r->key.pid = VMSA_PID_OTHER;
	} else {
		r->key.pid = is_int(pid) ? (int32_t)json_object_get_int(pid) : VMSA_PID_NONE;
		sum->ignore_pid = !is_int(pid);
	}
	for (size_t i = 0; i < sizeof(windowed) / sizeof(windowed[0]); i++) {
		jo *x = member(o, vmsa_ctx_name(windowed[i]));
		if (x && !vmsa_row_ctx_mut(r, windowed[i]))
			return VMSA_E_NOMEM;
		read_ctx(x, r->ctx[windowed[i]]);
		if (read_orders(member(x, "reclaims_by_order"), r, &r->begins_by_order[windowed[i]]))
			return VMSA_E_NOMEM;
	}
	read_throttled(member(o, "throttled"), m.throttled, m.throttled_usec);
	read_reclaim_pages(member(o, "reclaim_pages"), m.reclaim_pages);
	r->kswapd_nid = -1;
	if (!kswapd) {
		jo *x = member(o, "outside_reclaim");
		if (x && !vmsa_row_ctx_mut(r, VMSA_CTX_NONE))
			return VMSA_E_NOMEM;
		read_ctx(x, r->ctx[VMSA_CTX_NONE]);
		r->wakeup_kswapd = count_of(o, "wakeup_kswapd_requests");
		if (read_orders(member(o, "wakeup_kswapd_by_order"), r, &r->wakeup_by_order[0]))
			return VMSA_E_NOMEM;
		m.unmatched_begins = count_of(o, "unmatched_begins");
		m.unmatched_ends = count_of(o, "unmatched_ends");
		return keep_more(r, &m, read_hist(member(o, "direct_stall_ns"), &r->stall,
						  VMSA_HIST_COARSE));
	}
	struct vmsa_counters *k = vmsa_row_ctx_mut(r, VMSA_CTX_KSWAPD);
	if (!k)
		return VMSA_E_NOMEM;
	r->is_kswapd = true;
	if (is_int(member(o, "nid")))
		r->kswapd_nid = (int32_t)json_object_get_int(member(o, "nid"));
	read_ctx(member(o, "reclaim"), k);
	m.kswapd_wakeups = k->reclaims = count_of(o, "wakeups");
	m.kswapd_rewakeups = count_of(o, "rewakeups");
	if (read_orders(member(o, "wakeups_by_order"), r, &r->kswapd_wake_by_order[0]) ||
	    read_orders(member(o, "rewakeups_by_order"), r, &r->kswapd_rewake_by_order[0]))
		return VMSA_E_NOMEM;
	k->in_progress = count_of(o, "awake_in_progress");
	k->in_progress_ns = count_of(o, "awake_in_progress_ns");
	k->latency_ns = count_of(member(o, "reclaim"), "awake_ns");
	m.kswapd_sleep_without_wake = count_of(o, "sleeps_without_wake");
	return keep_more(r, &m,
			 read_hist(member(o, "awake_ns_histogram"), &m.awake, VMSA_HIST_COARSE));
}

static void read_ctx_totals(jo *o, struct vmsa_ctx_totals *t)
{
	struct vmsa_counters c = {0};
	read_ctx(o, &c);
	*t = (struct vmsa_ctx_totals){
		.reclaims = c.reclaims,
		.reclaims_completed = c.completed,
		.in_progress = c.in_progress,
		.pages_scanned = vmsa_scanned(&c),
		.pages_scanned_file = c.scanned_file,
		.pages_scanned_anon = c.scanned_anon,
		.pages_reclaimed = vmsa_reclaimed(&c),
		.pages_reclaimed_file = c.reclaimed_file,
		.pages_reclaimed_anon = c.reclaimed_anon,
		.write_file_async = c.write[1][0],
		.write_anon_async = c.write[0][0],
		.write_file_sync = c.write[1][1],
		.write_anon_sync = c.write[0][1],
		.write_pages = c.write_pages,
		.latency_ns = c.latency_ns,
		.end_nr_reclaimed = c.end_nr_reclaimed,
		.retries = c.retries,
	};
}

static void read_totals(jo *o, struct vmsa_totals *t)
{
	for (int x = 0; x < VMSA_CTX__COUNT; x++)
		read_ctx_totals(member(o, vmsa_ctx_name(x)), &t->ctx[x]);
	jo *k = member(o, "kswapd");
	t->ctx[VMSA_CTX_KSWAPD].latency_ns = count_of(k, "awake_ns");
	t->ctx[VMSA_CTX_KSWAPD].in_progress = count_of(k, "awake_in_progress");
	t->kswapd_wakeups = t->ctx[VMSA_CTX_KSWAPD].reclaims = count_of(k, "wakeups");
	t->kswapd_rewakeups = count_of(k, "rewakeups");
	t->wakeup_kswapd = count_of(o, "wakeup_kswapd_requests");
	read_throttled(member(o, "throttled"), t->throttled, t->throttled_usec);
	read_reclaim_pages(member(o, "reclaim_pages"), t->reclaim_pages);
	for (int r = 0; r < VMSA_FLUSH__COUNT; r++) {
		jo *f = member(member(o, "flusher_wakeups"), vmsa_flush_reason_name(r));
		t->flusher_wakeups[r] = count_of(f, "count");
		t->flusher_dirty_pages[r] = count_of(f, "dirty_pages_met");
		t->flusher_requested_pages[r] = count_of(f, "requested_pages");
	}
	jo *wb = member(o, "flusher_writeback");
	jo *un = member(wb, "unpaired");
	t->writeback_known = un && is_int(un);
	t->writeback_unpaired = count_of(wb, "unpaired");
	for (int r = 0; r < VMSA_WB__COUNT; r++) {
		jo *f = member(wb, vmsa_wb_reason_name(r));
		t->writeback_passes[r] = count_of(f, "passes");
		t->writeback_pages[r] = count_of(f, "pages");
	}
	t->unmatched_begins = count_of(o, "unmatched_begins");
	t->unmatched_ends = count_of(o, "unmatched_ends");
	t->tasks_folded = count_of(o, "tasks_folded");
	/* (sync_applicable, scans_missing: known_from_root()) */
}

/* What the classic report prints of a source's traits: names not known, wrapped lines. */
static void read_traits(jo *s, struct vmsa_traits *t)
{
	jo *tr = member(s, "traits");
	t->wrapped_events = count_of(tr, "wrapped_events");
	t->late_events = count_of(tr, "late_events");
	t->live_hold_ns = count_of(tr, "live_hold_ns");
	t->live_released_early = count_of(tr, "live_released_early");
	t->unwrapped_events = count_of(tr, "unwrapped_events");
	t->unwrapped_lines = count_of(tr, "unwrapped_lines");
	t->report_files = count_of(tr, "report_files");
	t->writes_rejected = count_of(tr, "writes_rejected");
	t->timestamps_integer = count_of(tr, "timestamps_integer");
	t->tracedat_short = count_of(tr, "tracedat_short");
	t->timestamps_out_of_order = count_of(tr, "timestamps_out_of_order");
	t->stopped_before_end = json_object_get_boolean(member(tr, "stopped_before_end"));
	jo *lru = member(tr, "lru_names_not_known");
	size_t n = lru && json_object_is_type(lru, json_type_array) ? json_object_array_length(lru)
								  : 0;
	for (size_t i = 0; i < n; i++) {
		jo *e = json_object_array_get_idx(lru, i);
		const char *name = json_object_get_string(member(e, "name"));
		if (name)
			vmsa_name_count_add(t->lru_other, name, strlen(name),
					    count_of(e, "isolations"), count_of(e, "nr_scanned"));
	}
	jo *bufs = member(tr, "events_by_buffer");
	if (bufs && json_object_is_type(bufs, json_type_object)) {
		json_object_object_foreach(bufs, name, v) {
			uint64_t k = is_int(v) ? (uint64_t)json_object_get_int64(v) : 0;
			if (!strcmp(name, VMSA_TOP_BUFFER))
				t->top_buffer_events += k;
			else
				vmsa_instance_count_add(t->instance_events, name, strlen(name), k);
		}
	}
	jo *ev = member(s, "unknown_vmscan_events_by_name");
	if (ev && json_object_is_type(ev, json_type_object)) {
		json_object_object_foreach(ev, name, v)
			vmsa_name_count_add(t->event_other, name, strlen(name),
					    is_int(v) ? (uint64_t)json_object_get_int64(v) : 0, 0);
	}
}

static int read_sources(struct vmsa_summary *sum, jo *arr)
{
	size_t n = arr && json_object_is_type(arr, json_type_array) ? json_object_array_length(arr)
								  : 0;
	sum->sources = calloc(n ? n : 1, sizeof(*sum->sources));
	if (!sum->sources)
		return VMSA_E_NOMEM;
	for (size_t i = 0; i < n; i++) {
		jo *s = json_object_array_get_idx(arr, i);
		struct vmsa_source_info *si = &sum->sources[sum->nsources++];
		const char *name = json_object_get_string(member(s, "name"));
		const char *format = json_object_get_string(member(s, "format"));
		si->name = strdup(name ? name : "");
		si->format = strdup(format ? format : "");
		if (!si->name || !si->format)
			return VMSA_E_NOMEM;
		struct vmsa_source_counts *c = &si->counts;
		c->bytes_read = count_of(s, "bytes_read");
		c->lines_read = count_of(s, "lines_read");
		c->lines_analyzed = count_of(s, "lines_analyzed");
		c->lines_filtered = count_of(s, "lines_filtered");
		c->lines_ignored = count_of(s, "lines_ignored");
		c->lines_lost_markers = count_of(s, "lines_lost_markers");
		c->lines_rejected = count_of(s, "lines_rejected");
		for (int r = 0; r < VMSA_REJECT__COUNT; r++)
			c->rejected_by_reason[r] =
				count_of(member(s, "rejected_by_reason"), vmsa_reject_reason_name(r));
		c->events_lost = count_of(s, "events_lost");
		c->lost_markers_without_count = count_of(s, "lost_markers_without_count");
		c->unknown_vmscan_events = count_of(s, "unknown_vmscan_events");
		read_traits(s, &si->traits);
	}
	return 0;
}

static bool has_note(jo *notes, const char *key)
{
	size_t n = notes && json_object_is_type(notes, json_type_array)
			   ? json_object_array_length(notes) : 0;
	for (size_t i = 0; i < n; i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(notes, i));
		if (s && !strncmp(s, key, strlen(key)) && s[strlen(key)] == ':')
			return true;
	}
	return false;
}

/* What vmsa_known_of() reads, as the document's root says it */
static void known_from_root(struct vmsa_summary *sum, jo *root)
{
	jo *tot = member(root, "totals"), *known = member(tot, "pages_scanned_known");
	sum->totals.sync_applicable = json_object_get_boolean(member(tot, "sync_io_applicable"));
	sum->totals.scans_missing = known && !json_object_get_boolean(known);
	sum->reclaims_missing = has_note(member(root, "notes"), "reclaims_missing");
	sum->slab_ends_missing = has_note(member(root, "notes"), "slab_ends_missing");
	sum->writes_unknown = has_note(member(root, "notes"), "writes_unknown");
	/* the writer's null: some end event did not say its nr_reclaimed */
	sum->ends_without_reclaimed = said_null(member(tot, "direct"), "end_nr_reclaimed_pages");
}

/* The rows of a summary read from a file, copied: what read_row() gives of
 * their JSON (rows_read() held them to it) */
static int copy_rows(struct vmsa_summary *sum, const struct vmsa_summary *from)
{
	for (size_t i = 0; i < from->nrows; i++) {
		const struct vmsa_task_row *r = adopt_row(sum, from, from->rows[i]);
		if (!r)
			return VMSA_E_NOMEM;
		if (r->key.pid != VMSA_PID_OTHER) /* (read_row()'s: the last one's) */
			sum->ignore_pid = r->key.pid == VMSA_PID_NONE;
	}
	return 0;
}

/* The rows of an analysis' summary as its JSON reads back, a row at a time
 * (processes, then kswapd threads: the lists' order) */
static int rows_via_json(struct vmsa_summary *sum, const struct vmsa_summary *from)
{
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < from->nrows; i++) {
			const struct vmsa_task_row *r = from->rows[i];
			if (r->is_kswapd != (k == 1))
				continue;
			jo *o = vmsa_row_to_json(from, r);
			if (!o)
				return VMSA_E_NOMEM;
			int err = read_row(sum, o, k == 1);
			json_object_put(o);
			if (err)
				return err;
		}
	return 0;
}

int vmsa_summary_from_doc(struct vmsa_summary **out, const struct vmsa_doc *d)
{
	*out = NULL;
	if (d->rows_left_out)
		return VMSA_E_INVAL; /* (they were never read) */
	bool tree = !rows_in_sum(d);
	jo *root = d->root, *procs = member(root, "processes"), *ksw = member(root, "kswapd");
	jo *in = member(root, "input"), *lat = member(root, "latency");
	if (!member(root, "totals") || !in ||
	    (tree && (!json_object_is_type(procs, json_type_array) ||
		      !json_object_is_type(ksw, json_type_array))))
		return VMSA_E_CORRUPT;
	struct vmsa_summary *sum = calloc(1, sizeof(*sum));
	if (!sum)
		return VMSA_E_NOMEM;
	size_t np = tree ? json_object_array_length(procs) : d->sum->nrows;
	size_t nk = tree ? json_object_array_length(ksw) : 0;
	int err = VMSA_E_NOMEM;
	if (!(sum->rows = calloc(np + nk + 1, sizeof(*sum->rows))))
		goto fail;
	if (!tree && (err = d->rows_read ? copy_rows(sum, d->sum) : rows_via_json(sum, d->sum)))
		goto fail;
	for (size_t i = 0; tree && i < np + nk; i++)
		if ((err = read_row(sum, json_object_array_get_idx(i < np ? procs : ksw,
								   i < np ? i : i - np),
				    i >= np)))
			goto fail;
	if (vmsa_summary_sort_rows(sum)) { /* as the analysis orders them */
		err = VMSA_E_NOMEM;
		goto fail;
	}
	if ((err = read_sources(sum, member(in, "sources"))))
		goto fail;
	read_totals(member(root, "totals"), &sum->totals);
	known_from_root(sum, root);
	sum->totals.tasks = sum->nrows;
	sum->totals.events_lost = count_of(in, "events_lost");
	for (size_t i = 0; i < sum->nsources; i++)
		sum->totals.lost_markers_without_count +=
			sum->sources[i].counts.lost_markers_without_count;
	if (sum->totals.lost_markers_without_count) /* (null: what the markers said) */
		for (size_t i = 0; i < sum->nsources; i++)
			sum->totals.events_lost += sum->sources[i].counts.events_lost;
	sum->tasks_folded = sum->totals.tasks_folded;
	sum->events = count_of(in, "events_analyzed");
	sum->have_ts = is_int(member(in, "first_timestamp_ns"));
	sum->first_ts_ns = count_of(in, "first_timestamp_ns");
	sum->last_ts_ns = count_of(in, "last_timestamp_ns");
	sum->no_timeline = true;
	if ((err = read_hist(member(lat, "direct_stall_ns"), &sum->stall_hist, VMSA_HIST_FINE)) ||
	    (err = read_hist(member(lat, "kswapd_awake_ns"), &sum->awake_hist, VMSA_HIST_FINE)) ||
	    (err = read_hist(member(lat, "memcg_reclaim_ns"), &sum->memcg_hist, VMSA_HIST_FINE)))
		goto fail;
	*out = sum;
	return 0;
fail:
	vmsa_summary_free(sum);
	return err;
}

/* ---- validation --------------------------------------------------------- */

/* key appended (index < 0), or "[index]"; the length before, to cut back to */
static size_t vpath_push(struct vpath *p, const char *key, long index)
{
	size_t at = p->len;
	int n = index >= 0 || !key
			? snprintf(p->buf + at, sizeof(p->buf) - at, "[%ld]", index)
			: snprintf(p->buf + at, sizeof(p->buf) - at, "%s%s", at ? "." : "", key);
	if (n > 0)
		p->len = at + (size_t)n < sizeof(p->buf) ? at + (size_t)n : sizeof(p->buf) - 1;
	return at;
}

static int bad(char *why, size_t n, const struct vpath *p, const char *what)
{
	snprintf(why, n, "%s: %s", p->len ? p->buf : "(the document)", what);
	return VMSA_E_CORRUPT;
}

static int check_shape(jo *o, const struct vmsa_shape *s, struct vpath *p, bool rows_apart,
		       char *why, size_t n);

/* The value v of a field f (present): its type, its range, its members. */
static int check_value(jo *v, const struct vmsa_field *f, struct vpath *p, char *why, size_t n)
{
	if (!v)
		return f->nullable ? 0 : bad(why, n, p, "null, where the schema wants a value");
	switch (f->unit) {
	case VMSA_UNIT_COUNT:
	case VMSA_UNIT_PAGES:
	case VMSA_UNIT_NS:
	case VMSA_UNIT_ID:
		/* an integer from 0 to 2^64 - 1 (vmsa_json_bad_number() refused
		 * larger ones): not 1.5, "246", true or -1 */
		if (!json_object_is_type(v, json_type_int))
			return bad(why, n, p, json_object_is_type(v, json_type_double)
						  ? "not an integer"
						  : "not a number, where the schema wants an integer");
		if (json_object_get_int64(v) < 0)
			return bad(why, n, p, "negative, where the schema wants 0 or more");
		return 0;
	case VMSA_UNIT_FLAG:
		return json_object_is_type(v, json_type_boolean)
			       ? 0
			       : bad(why, n, p, "not true or false");
	case VMSA_UNIT_TEXT:
		return json_object_is_type(v, json_type_string) ? 0 : bad(why, n, p, "not a string");
	case VMSA_UNIT_OBJECT:
		if (!json_object_is_type(v, json_type_object))
			return bad(why, n, p, "not an object");
		return f->shape ? check_shape(v, f->shape, p, false, why, n) : 0;
	case VMSA_UNIT_LIST:
		if (!json_object_is_type(v, json_type_array))
			return bad(why, n, p, "not a list");
		break;
	}
	size_t len = json_object_array_length(v);
	/* a list of values (notes: "*" of a unit), or of objects of the shape */
	const struct vmsa_field *each =
		f->shape && f->shape->n == 1 && f->shape->members[0].key &&
				!strcmp(f->shape->members[0].key, "*")
			? &f->shape->members[0]
			: NULL;
	for (size_t i = 0; i < len; i++) {
		jo *e = json_object_array_get_idx(v, i);
		size_t at = vpath_push(p, NULL, (long)i);
		int err;
		if (each)
			err = check_value(e, each, p, why, n);
		else if (!e || !json_object_is_type(e, json_type_object))
			err = bad(why, n, p, "not an object");
		else
			err = f->shape ? check_shape(e, f->shape, p, false, why, n) : 0;
		p->len = at;
		p->buf[at] = '\0';
		if (err)
			return err;
	}
	return 0;
}

/* The members of the shape s (and of the shapes it includes) in o:
 * required ones there, each of its type.  rows_apart: the root's task
 * rows were read apart (or left out): their lists may be missing. */
static int check_shape(jo *o, const struct vmsa_shape *s, struct vpath *p, bool rows_apart,
		       char *why, size_t n)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct vmsa_field *f = &s->members[i];
		int err = 0;
		if (!f->key) {
			err = f->shape ? check_shape(o, f->shape, p, false, why, n) : 0;
		} else if (!strcmp(f->key, "*")) {
			json_object_object_foreach(o, key, v)
			{
				size_t at = vpath_push(p, key, -1);
				err = check_value(v, f, p, why, n);
				p->len = at;
				p->buf[at] = '\0';
				if (err)
					break;
			}
		} else {
			jo *v = NULL;
			size_t at = vpath_push(p, f->key, -1);
			if (!json_object_object_get_ex(o, f->key, &v)) {
				bool rows = rows_apart && (!strcmp(f->key, "processes") ||
							   !strcmp(f->key, "kswapd"));
				if (!f->optional && !rows)
					err = bad(why, n, p, "missing (a required field)");
			} else {
				err = check_value(v, f, p, why, n);
			}
			p->len = at;
			p->buf[at] = '\0';
		}
		if (err)
			return err;
	}
	return 0;
}

int vmsa_doc_validate(const struct vmsa_doc *d, char *why, size_t n)
{
	if (!d || !d->root)
		return VMSA_E_INVAL;
	struct vpath p = {.len = 0};
	p.buf[0] = '\0';
	return check_shape(d->root, &vmsa_summary_shape, &p, d->rows_read || d->rows_left_out,
			   why, n);
}

/* Whether a writes object in o (at any depth) has a null that hides writes
 * (writes_hidden()). */
static bool hides_writes(jo *o)
{
	json_object_object_foreach(o, key, v)
	{
		if (!v || !json_object_is_type(v, json_type_object))
			continue;
		if (!strcmp(key, "writes")) {
			if (writes_hidden(v, "pages") || writes_hidden(v, "file_sync") ||
			    writes_hidden(v, "anon_sync"))
				return true;
		} else if (hides_writes(v)) {
			return true;
		}
	}
	return false;
}
