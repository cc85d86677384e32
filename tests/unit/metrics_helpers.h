/* SPDX-License-Identifier: MIT */
/* Test helpers for the metrics: documents from text, rendering, whole lines. */
#ifndef VMSA_TEST_METRICS_HELPERS_H
#define VMSA_TEST_METRICS_HELPERS_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmsa/vmsa.h"
#include "asserts.h"

/* A summary document from JSON text (through a temporary file). */
static inline struct vmsa_doc *doc_from_text(const char *text)
{
	char path[] = "/tmp/vmsa-doc-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct vmsa_doc *d;
	ck_assert_int_eq(vmsa_doc_parse_file(&d, path), 0);
	unlink(path);
	return d;
}

/* The metrics of d (per cgroup of cg, when not NULL); *err is what the writer returned.
 * (Not inlined: GCC 12 then takes the text returned for the address of buf,
 * open_memstream()'s, and warns of a dangling pointer at the caller's assertions.) */
static __attribute__((noinline, unused)) char *
render_metrics(const struct vmsa_doc *d, enum vmsa_metrics_format fmt, struct vmsa_cgroups *cg,
	       int *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	*err = vmsa_report_openmetrics_cgroups(f, d, fmt, cg);
	fclose(f);
	return buf;
}

/* line (without its newline) is a whole line of text */
static inline int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return 1;
	return 0;
}

#define HAS(text, line) ck_assert_msg(has_line(text, line), "missing line: %s", line)
#define HASNT(text, line) ck_assert_msg(!has_line(text, line), "unexpected line: %s", line)

#endif
