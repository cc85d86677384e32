/* SPDX-License-Identifier: MIT */
#include "textbuf.h"

#include "../internal.h"

void vmsa_tb_flush(struct vmsa_tb *t)
{
	if (t->n)
		fwrite(t->b, 1, t->n, t->f);
	t->n = 0;
}

void vmsa_tb_bytes_long(struct vmsa_tb *t, const char *s, size_t n)
{
	while (n) {
		size_t k = n < VMSA_TB_STEP ? n : VMSA_TB_STEP;
		memcpy(vmsa_tb_room(t, k), s, k);
		t->n += k;
		s += k;
		n -= k;
	}
}

void vmsa_tb_spaces(struct vmsa_tb *t, size_t n)
{
	while (n) {
		size_t k = n < VMSA_TB_STEP ? n : VMSA_TB_STEP;
		memset(vmsa_tb_room(t, k), ' ', k);
		t->n += k;
		n -= k;
	}
}

void vmsa_tb_name(struct vmsa_tb *t, const char *s, size_t n)
{
	while (n) {
		size_t k = n < VMSA_TB_STEP ? n : VMSA_TB_STEP;
		char *p = vmsa_tb_room(t, k);
		for (size_t i = 0; i < k; i++) {
			unsigned char c = (unsigned char)s[i];
			p[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
		}
		t->n += k;
		s += k;
		n -= k;
	}
}

/*
 * The len <= 24 bytes at s right-aligned in width <= 40 columns, written as
 * blocks of a fixed size (40 spaces, then 24 bytes from s: s has 24 bytes to
 * read) into the 64 bytes of room: no call for a cell of a few bytes.  What
 * the blocks write past the cell's end is not text yet (t->n stops short of
 * it) and the next append writes over it.
 */
static void right(struct vmsa_tb *t, const char *s, size_t len, int width)
{
	size_t pad = width > 0 && (size_t)width > len ? (size_t)width - len : 0;
	if (pad + len > 40) { /* (no caller's width is; it would work all the same) */
		vmsa_tb_spaces(t, pad);
		vmsa_tb_bytes(t, s, len);
		return;
	}
	char *p = vmsa_tb_room(t, 64);
	memset(p, ' ', 40);
	memcpy(p + pad, s, 24);
	t->n += pad + len;
}

/* vmsa_tb_u64() of what its usual cell is not */
void vmsa_tb_u64_long(struct vmsa_tb *t, uint64_t v, int width)
{
	char d[44] = {0}; /* the 20 digits' room, then what right() reads on */
	size_t i = vmsa_u64_digits(d, v);
	right(t, d + i, 20 - i, width);
}

void vmsa_tb_secs3(struct vmsa_tb *t, uint64_t ns, int width)
{
	uint64_t ms = ns / 1000000, rem = ns % 1000000;
	/*
	 * printf rounds the double ns / 1e9 to three decimals.  That double is
	 * within 1 ns of the true quotient below 2^53 ns (104 days), so away
	 * from a half millisecond the integers round the same way; near one (a
	 * tie, where the double's last bit decides) and past 2^53, printf says.
	 */
	if (ns >= (uint64_t)1 << 53 || (rem > 500000 - 16 && rem < 500000 + 16)) {
		char b[48];
		int k = snprintf(b, sizeof(b), "%*.3f", width, (double)ns / 1e9);
		vmsa_tb_bytes(t, b, (size_t)k);
		return;
	}
	ms += rem > 500000;
	char d[48] = {0}; /* 24 bytes, then what right() reads on */
	unsigned f = (unsigned)(ms % 1000);
	d[23] = (char)('0' + f % 10);
	d[22] = (char)('0' + f / 10 % 10);
	d[21] = (char)('0' + f / 100);
	d[20] = '.';
	size_t i = vmsa_u64_digits(d, ms / 1000);
	right(t, d + i, 24 - i, width);
}
