/* SPDX-License-Identifier: MIT */
/* Test helpers: run text through a real source and the stats. */
#ifndef VMSA_TEST_HELPERS_H
#define VMSA_TEST_HELPERS_H

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "asserts.h"

struct run {
	struct vmsa_summary *sum;
	struct vmsa_source_counts counts;
	struct vmsa_totals t;
};

static inline struct run analyze_source(struct vmsa_source *src,
					const struct vmsa_stats_options *opts);

/* @text into a file read by @parse (as /proc/self/fd/N, gone after): its status */
static inline int parse_text(int (*parse)(struct vmsa_doc **, const char *), const char *text,
			     struct vmsa_doc **d)
{
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fflush(f);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(f));
	int err = parse(d, path);
	fclose(f);
	return err;
}

/* A source reading @text from *tmp, a file made for it (fclose() it after) */
static inline struct vmsa_source *text_source(const char *text, FILE **tmp)
{
	struct vmsa_source *src;
	*tmp = tmpfile();
	ck_assert_ptr_nonnull(*tmp);
	fputs(text, *tmp);
	fflush(*tmp);
	rewind(*tmp);
	ck_assert_int_eq(vmsa_source_open_text_fd(&src, fileno(*tmp), "test"), 0);
	return src;
}

/* Analyse @text (or the file @path when text is NULL). */
static inline struct run analyze(const char *text, const char *path,
				 const struct vmsa_stats_options *opts)
{
	struct vmsa_source *src;
	FILE *tmp = NULL;
	if (text)
		src = text_source(text, &tmp);
	else
		ck_assert_int_eq(vmsa_source_open_path(&src, path), 0);
	struct run r = analyze_source(src, opts);
	if (tmp)
		fclose(tmp);
	return r;
}

/* Analyse @text read with --unwrap (vmsa_source_set_unwrap()) */
static inline struct run analyze_unwrapped(const char *text)
{
	FILE *tmp;
	struct vmsa_source *src = text_source(text, &tmp);
	vmsa_source_set_unwrap(src, 1);
	struct run r = analyze_source(src, NULL);
	fclose(tmp);
	return r;
}

/* Analyse the source src to its end, and close it. */
static inline struct run analyze_source(struct vmsa_source *src,
					const struct vmsa_stats_options *opts)
{
	struct run r;
	memset(&r, 0, sizeof(r));
	struct vmsa_stats *st;
	ck_assert_int_eq(vmsa_stats_new(&st, opts), 0);
	struct vmsa_event ev;
	int err;
	while ((err = vmsa_source_next(src, &ev)) == 0)
		ck_assert_int_eq(vmsa_stats_add(st, &ev), 0);
	ck_assert_int_eq(err, VMSA_E_EOF);
	r.counts = *vmsa_source_counts(src);
	ck_assert_int_eq(vmsa_stats_add_source(st, vmsa_source_name(src), vmsa_source_format(src),
					       vmsa_source_counts(src), vmsa_source_traits(src)),
			 0);
	ck_assert_int_eq(vmsa_stats_summary(st, &r.sum), 0);
	vmsa_summary_totals(r.sum, &r.t);
	vmsa_stats_free(st);
	vmsa_source_close(src);
	return r;
}

static inline const struct vmsa_task_row *row(const struct run *r, const char *comm, int pid)
{
	const struct vmsa_task_row *x = vmsa_summary_find_task(r->sum, comm, pid);
	ck_assert_msg(x != NULL, "no row %s-%d", comm, pid);
	return x;
}

#endif
