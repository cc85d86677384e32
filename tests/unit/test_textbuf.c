/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report/textbuf.h"
#include "asserts.h"

/* values near the edges a formatter gets wrong: powers of ten, their
 * neighbours, half milliseconds, the 2^53 limit */
static uint64_t edge(uint64_t i, uint64_t *rnd)
{
	static const uint64_t tens[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
					100000000, 1000000000, 10000000000ull, 100000000000ull,
					1000000000000ull, 1000000000000000ull,
					10000000000000000000ull};
	*rnd = *rnd * 6364136223846793005ull + 1442695040888963407ull;
	uint64_t r = *rnd >> 11;
	switch (i % 6) {
	case 0:
		return tens[r % 15] + (r >> 8) % 3 - 1;
	case 1: /* a half millisecond, give or take up to 40 ns */
		return (r >> 8) % 100000000 * 1000000 + 500000 + (r % 81) - 40;
	case 2:
		return ((uint64_t)1 << 53) + (r % 5) - 2;
	case 3:
		return r % 1000000000000ull;
	case 4:
		return r >> (r % 53);
	default:
		return UINT64_MAX - r % 3;
	}
}

/* every cell format of the text tables, through the buffer and through
 * snprintf, over a stream small enough to flush many times */
START_TEST(test_cells_as_printf_writes_them)
{
	char *got = NULL, *want = malloc(1 << 24);
	size_t got_len = 0, want_len = 0;
	FILE *f = open_memstream(&got, &got_len);
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(want);
	struct vmsa_tb *t = malloc(sizeof(*t));
	ck_assert_ptr_nonnull(t);
	t->f = f;
	t->n = 0;
	uint64_t rnd = 42;
	for (uint64_t i = 0; i < 200000; i++) {
		uint64_t v = edge(i, &rnd);
		int w = (int)(i % 30); /* (the fast cells are up to 24 wide) */
		vmsa_tb_u64(t, v, w);
		want_len += (size_t)sprintf(want + want_len, "%*" PRIu64, w, v);
		vmsa_tb_char(t, '|');
		want[want_len++] = '|';
		vmsa_tb_secs3(t, v, w);
		want_len += (size_t)sprintf(want + want_len, "%*.3f", w, (double)v / 1e9);
		vmsa_tb_name(t, "a\x01\x7f\xff", i % 5);
		memcpy(want + want_len, "a??\xff", i % 5);
		want_len += i % 5;
		vmsa_tb_spaces(t, i % 70);
		memset(want + want_len, ' ', i % 70);
		want_len += i % 70;
		/* (bytes: up to a step inline, more the long way) */
		static const char text[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					   "0123456789abcdefghijklmnopqrstuvwxyz";
		vmsa_tb_bytes(t, text + i % 7, i % 90);
		memcpy(want + want_len, text + i % 7, i % 90);
		want_len += i % 90;
		if (want_len > (1 << 24) - 4096) {
			vmsa_tb_flush(t);
			fflush(f);
			ck_assert_uint_eq(got_len, want_len);
			ck_assert_msg(memcmp(got, want, want_len) == 0, "a difference before %zu",
				      want_len);
			fseek(f, 0, SEEK_SET);
			want_len = 0;
		}
	}
	vmsa_tb_flush(t);
	fflush(f);
	ck_assert_uint_eq(got_len, want_len);
	size_t i = 0;
	while (i < want_len && got[i] == want[i])
		i++;
	ck_assert_msg(i == want_len, "byte %zu: %.40s vs %.40s", i, got + i, want + i);
	fclose(f);
	free(got);
	free(want);
	free(t);
}
END_TEST

/* the digits and their count, as printf writes them */
START_TEST(test_digits_as_printf_writes_them)
{
	uint64_t rnd = 7;
	for (uint64_t i = 0; i < 300000; i++) {
		uint64_t v = i < 1000 ? i : edge(i, &rnd);
		char want[24], d[20];
		int n = snprintf(want, sizeof(want), "%" PRIu64, v);
		size_t at = vmsa_u64_digits(d, v);
		ck_assert_uint_eq(20 - at, (size_t)n);
		ck_assert_msg(memcmp(d + at, want, (size_t)n) == 0, "%s: %.*s", want, n, d + at);
		ck_assert_uint_eq(vmsa_u64_len(v), (size_t)n);
	}
}
END_TEST

Suite *textbuf_suite(void)
{
	Suite *s = suite_create("textbuf");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_cells_as_printf_writes_them);
	tcase_add_test(tc, test_digits_as_printf_writes_them);
	suite_add_tcase(s, tc);
	return s;
}
