/* SPDX-License-Identifier: MIT */
/*
 * Report lines made in a buffer and written to a stream 64 KiB at a time
 * (textbuf.c): what fprintf() does for the text reports' table cells, each
 * cell's output byte for byte the same, without parsing a format per cell.
 * A report of tens of thousands of tasks spent most of its time in fprintf().
 */
#ifndef VMSA_TEXTBUF_H
#define VMSA_TEXTBUF_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* the most bytes one append but vmsa_tb_bytes(), _spaces() and _name() writes */
#define VMSA_TB_STEP 64

struct vmsa_tb {
	FILE *f;
	size_t n;
	char b[64 * 1024];
};

/* Writes what is held to the stream (its errors stay the stream's: ferror()). */
void vmsa_tb_flush(struct vmsa_tb *t);

/* Room for k <= VMSA_TB_STEP bytes at the end of the text. */
static inline char *vmsa_tb_room(struct vmsa_tb *t, size_t k)
{
	if (t->n + k > sizeof(t->b))
		vmsa_tb_flush(t);
	return t->b + t->n;
}

static inline void vmsa_tb_char(struct vmsa_tb *t, char c)
{
	*vmsa_tb_room(t, 1) = c;
	t->n++;
}

/* (the calls below are inline where a table's cells make them, a dozen a
 * row: a report of many tasks spent a third of its cells' time calling) */
void vmsa_tb_bytes_long(struct vmsa_tb *t, const char *s, size_t n);
static inline void vmsa_tb_bytes(struct vmsa_tb *t, const char *s, size_t n)
{
	if (n > VMSA_TB_STEP) {
		vmsa_tb_bytes_long(t, s, n);
		return;
	}
	memcpy(vmsa_tb_room(t, n), s, n);
	t->n += n;
}

void vmsa_tb_spaces(struct vmsa_tb *t, size_t n);
/* a task name as the text reports show it: control bytes as '?' */
void vmsa_tb_name(struct vmsa_tb *t, const char *s, size_t n);

/* "%*" PRIu64, width >= 0 (a negative one is taken as 0, not as '-') */
void vmsa_tb_u64_long(struct vmsa_tb *t, uint64_t v, int width);
static inline void vmsa_tb_u64(struct vmsa_tb *t, uint64_t v, int width)
{
	if (v >= 100000000 || width > 24) {
		vmsa_tb_u64_long(t, v, width);
		return;
	}
	/* the usual cell: its spaces as one block, its digits written from
	 * the right in place */
	unsigned n = 1;
	for (uint64_t x = v; x >= 10; x /= 10)
		n++;
	size_t w = width > 0 && (unsigned)width > n ? (size_t)width : n;
	char *p = vmsa_tb_room(t, 32);
	memset(p, ' ', 24);
	t->n += w;
	p += w;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
}
/* "%*.3f" of ns / 1e9 (seconds, three decimals), width >= 0 */
void vmsa_tb_secs3(struct vmsa_tb *t, uint64_t ns, int width);

#endif /* VMSA_TEXTBUF_H */
