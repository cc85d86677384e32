/* SPDX-License-Identifier: MIT */
/* The scan timeline: every page added is in exactly one bin, whatever the
 * order of the timestamps and however often the bins merge. */
#include <check.h>
#include <stdlib.h>

#include "internal.h"
#include "asserts.h"

#define BIN 100000000ull /* the first bin width, 100 ms */

static void sums(const struct vmsa_timeline *t, uint64_t *d, uint64_t *k)
{
	*d = *k = 0;
	for (size_t i = 0; i < t->n; i++) {
		*d += t->direct[i];
		*k += t->kswapd[i];
	}
}

/* the bin that holds ts */
static uint64_t at(const struct vmsa_timeline *t, uint64_t ts, int kswapd)
{
	uint64_t idx = ts / t->bin_ns;
	ck_assert_uint_ge(idx, t->base);
	ck_assert_uint_lt(idx - t->base, t->n);
	return (kswapd ? t->kswapd : t->direct)[idx - t->base];
}

START_TEST(test_merges_keep_every_page)
{
	struct vmsa_timeline t = {0};
	uint64_t d = 0, k = 0;
	/* every bin of the first width used once: 65,536 bins */
	for (uint64_t i = 0; i < VMSA_TIMELINE_MAX_BINS; i++) {
		ck_assert_int_eq(vmsa_timeline_add(&t, i * BIN, 1, 2), 0);
		d += 1;
		k += 2;
	}
	ck_assert_uint_eq(t.n, VMSA_TIMELINE_MAX_BINS);
	/* one past the end merges pairs: half the bins, each twice as wide */
	ck_assert_int_eq(vmsa_timeline_add(&t, VMSA_TIMELINE_MAX_BINS * BIN, 5, 0), 0);
	d += 5;
	ck_assert_uint_eq(t.bin_ns, 2 * BIN);
	ck_assert_uint_eq(t.n, VMSA_TIMELINE_MAX_BINS / 2 + 1);
	/* then bins far past the old end: the bins between them hold nothing */
	uint64_t far = 3 * (uint64_t)VMSA_TIMELINE_MAX_BINS / 2 * BIN;
	ck_assert_int_eq(vmsa_timeline_add(&t, far, 7, 0), 0);
	d += 7;
	uint64_t sd, sk;
	sums(&t, &sd, &sk);
	ck_assert_uint_eq(sd, d);
	ck_assert_uint_eq(sk, k);
	ck_assert_uint_eq(at(&t, 0, 0), 2);
	ck_assert_uint_eq(at(&t, VMSA_TIMELINE_MAX_BINS * BIN, 0), 5);
	ck_assert_uint_eq(at(&t, far - t.bin_ns, 0), 0);
	ck_assert_uint_eq(at(&t, far, 0), 7);
	vmsa_timeline_release(&t);
}
END_TEST

START_TEST(test_earlier_and_later_and_copy)
{
	struct vmsa_timeline t = {0};
	/* a timestamp far on, then earlier ones (merged inputs arrive so) */
	uint64_t ts[] = {500 * BIN, 10 * BIN, 501 * BIN + 1, 0, 9000 * BIN, 10 * BIN + 5};
	uint64_t d = 0;
	for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		ck_assert_int_eq(vmsa_timeline_add(&t, ts[i], i + 1, 0), 0);
		d += i + 1;
	}
	ck_assert_uint_eq(t.bin_ns, BIN);
	ck_assert_uint_eq(t.base, 0);
	ck_assert_uint_eq(t.n, 9001);
	uint64_t sd, sk;
	sums(&t, &sd, &sk);
	ck_assert_uint_eq(sd, d);
	ck_assert_uint_eq(sk, 0);
	ck_assert_uint_eq(at(&t, 10 * BIN, 0), 2 + 6);
	ck_assert_uint_eq(at(&t, 0, 0), 4);
	ck_assert_uint_eq(at(&t, 700 * BIN, 0), 0);

	struct vmsa_timeline c;
	ck_assert_int_eq(vmsa_timeline_copy(&c, &t), 0);
	ck_assert_uint_eq(c.n, t.n);
	for (size_t i = 0; i < t.n; i++)
		ck_assert_uint_eq(c.direct[i], t.direct[i]);
	/* the copy goes on by itself */
	ck_assert_int_eq(vmsa_timeline_add(&c, 20000 * BIN, 3, 0), 0);
	ck_assert_int_eq(vmsa_timeline_add(&t, 1 * BIN, 1, 0), 0);
	sums(&c, &sd, &sk);
	ck_assert_uint_eq(sd, d + 3);
	sums(&t, &sd, &sk);
	ck_assert_uint_eq(sd, d + 1);
	vmsa_timeline_release(&c);
	vmsa_timeline_release(&t);
}
END_TEST

START_TEST(test_empty_copy)
{
	struct vmsa_timeline t = {0}, c;
	ck_assert_int_eq(vmsa_timeline_add(&t, 5, 0, 0), 0); /* nothing scanned: no bin */
	ck_assert_ptr_null(t.direct);
	ck_assert_int_eq(vmsa_timeline_copy(&c, &t), 0);
	ck_assert_ptr_null(c.direct);
	ck_assert_uint_eq(c.n, 0);
	vmsa_timeline_release(&c);
	vmsa_timeline_release(&t);
}
END_TEST

Suite *timeline_suite(void)
{
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_merges_keep_every_page);
	tcase_add_test(tc, test_earlier_and_later_and_copy);
	tcase_add_test(tc, test_empty_copy);
	suite_add_tcase(s, tc);
	return s;
}
