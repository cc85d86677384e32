/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdlib.h>

#include "internal.h"
#include "asserts.h"

START_TEST(test_bucket_bounds_cover_values)
{
	for (unsigned sb = 0; sb <= 4; sb += 4) {
		struct vmsa_hist h;
		vmsa_hist_init(&h, sb);
		uint64_t vals[] = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 1000, 999999, 1ull << 40,
				   UINT64_MAX};
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
			vmsa_hist_init(&h, sb);
			ck_assert_int_eq(vmsa_hist_add(&h, vals[i]), 0);
			size_t n = vmsa_hist_nbuckets(&h), found = n;
			for (size_t b = 0; b < n; b++)
				if (vmsa_hist_bucket(&h, b))
					found = b;
			uint64_t lo, hi;
			vmsa_hist_bucket_bounds(&h, found, &lo, &hi);
			ck_assert_msg(lo <= vals[i] && vals[i] <= hi, "v=%llu in [%llu,%llu]",
				      (unsigned long long)vals[i], (unsigned long long)lo,
				      (unsigned long long)hi);
			if (sb == 4 && lo >= 16)
				ck_assert(hi - lo <= lo / 16); /* within 6.25% */
			vmsa_hist_release(&h);
		}
	}
}
END_TEST

START_TEST(test_quantiles_and_merge)
{
	struct vmsa_hist a, b;
	vmsa_hist_init(&a, 4);
	vmsa_hist_init(&b, 4);
	for (uint64_t v = 1; v <= 100; v++)
		vmsa_hist_add(v <= 50 ? &a : &b, v * 1000);
	ck_assert_int_eq(vmsa_hist_merge(&a, &b), 0);
	ck_assert_uint_eq(a.count, 100);
	ck_assert_uint_eq(a.sum, 5050 * 1000);
	ck_assert_uint_eq(a.min, 1000);
	ck_assert_uint_eq(a.max, 100000);
	/* nearest rank: p50 is the 50th value, 50000, within its bucket */
	uint64_t p50 = vmsa_hist_quantile(&a, 0.5);
	ck_assert(p50 >= 50000 && p50 <= 50000 + 50000 / 16);
	ck_assert_uint_eq(vmsa_hist_quantile(&a, 1.0), 100000);
	uint64_t p99 = vmsa_hist_quantile(&a, 0.99);
	ck_assert(p99 >= 99000 && p99 <= 100000);
	struct vmsa_hist c;
	vmsa_hist_init(&c, 0);
	ck_assert_int_eq(vmsa_hist_merge(&c, &a), VMSA_E_INVAL);
	vmsa_hist_release(&a);
	vmsa_hist_release(&b);
	vmsa_hist_release(&c);
}
END_TEST

/*
 * A histogram of one bucket keeps its count in place (vmsa_hist_in_one(),
 * no array): added to, merged from and into, and grown into an array when a value
 * falls in another bucket, it counts what an array would.
 */
START_TEST(test_one_bucket_in_place)
{
	struct vmsa_hist a, b, c;
	vmsa_hist_init(&a, 4);
	vmsa_hist_init(&b, 4);
	vmsa_hist_init(&c, 4);
	size_t i1000 = 0, i5000 = 0;
	uint64_t lo, hi;
	for (size_t i = 0; i < vmsa_hist_nbuckets(&a); i++) {
		vmsa_hist_bucket_bounds(&a, i, &lo, &hi);
		if (lo <= 1000 && 1000 <= hi)
			i1000 = i;
		if (lo <= 5000 && 5000 <= hi)
			i5000 = i;
	}
	ck_assert_int_eq(vmsa_hist_add(&a, 1000), 0);
	ck_assert_int_eq(vmsa_hist_add(&a, 1000), 0);
	ck_assert(vmsa_hist_in_one(&a));
	ck_assert_uint_eq(vmsa_hist_bucket(&a, i1000), 2);
	ck_assert_int_eq(vmsa_hist_merge(&b, &a), 0); /* into an empty one */
	ck_assert(vmsa_hist_in_one(&b));
	ck_assert_uint_eq(vmsa_hist_bucket(&b, i1000), 2);
	size_t i = 0, n = 0;
	for (; vmsa_hist_next(&b, &i, &lo, &hi); i++)
		n++;
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(vmsa_hist_add(&a, 5000), 0); /* another bucket: an array */
	ck_assert(!vmsa_hist_in_one(&a));
	ck_assert_uint_eq(vmsa_hist_bucket(&a, i1000), 2);
	ck_assert_uint_eq(vmsa_hist_bucket(&a, i5000), 1);
	ck_assert_int_eq(vmsa_hist_add(&c, 10), 0);
	ck_assert_int_eq(vmsa_hist_add(&c, 100000), 0);
	ck_assert_int_eq(vmsa_hist_merge(&c, &b), 0); /* one into an array */
	ck_assert_uint_eq(vmsa_hist_bucket(&c, i1000), 2);
	ck_assert_int_eq(vmsa_hist_merge(&b, &a), 0); /* an array into one */
	ck_assert(!vmsa_hist_in_one(&b));
	ck_assert_uint_eq(vmsa_hist_bucket(&b, i1000), 4);
	ck_assert_uint_eq(vmsa_hist_bucket(&b, i5000), 1);
	ck_assert_uint_eq(b.count, 5);
	vmsa_hist_release(&a);
	vmsa_hist_release(&b);
	vmsa_hist_release(&c);
}
END_TEST

/*
 * Buckets are held from the lowest to the highest one used: values added in
 * any order, far apart or close, and histograms merged in both directions,
 * count as a full array of every bucket counts them.
 */
START_TEST(test_held_buckets_count_as_all)
{
	for (unsigned sb = 0; sb <= 4; sb += 4) {
		struct vmsa_hist h[3];
		size_t nb;
		uint64_t *want[3];
		for (int k = 0; k < 3; k++) {
			vmsa_hist_init(&h[k], sb);
			nb = vmsa_hist_nbuckets(&h[k]);
			want[k] = calloc(nb, sizeof(uint64_t));
			ck_assert_ptr_nonnull(want[k]);
		}
		uint64_t x = 88172645463325252ull; /* xorshift */
		for (int n = 0; n < 3000; n++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			int k = n % 2;
			/* one value in 8 anywhere, the others near 2^(10 + n / 200) */
			uint64_t v = n % 8 ? (x % 1024) << (n / 200) : x >> (x % 64);
			ck_assert_int_eq(vmsa_hist_add(&h[k], v), 0);
			for (size_t i = 0; i < nb; i++) {
				uint64_t lo, hi;
				vmsa_hist_bucket_bounds(&h[k], i, &lo, &hi);
				if (lo <= v && v <= hi) {
					want[k][i]++;
					break;
				}
			}
		}
		/* merged into an empty one, then into each other */
		ck_assert_int_eq(vmsa_hist_merge(&h[2], &h[1]), 0);
		ck_assert_int_eq(vmsa_hist_merge(&h[2], &h[0]), 0);
		ck_assert_int_eq(vmsa_hist_merge(&h[1], &h[0]), 0);
		for (size_t i = 0; i < nb; i++) {
			want[2][i] = want[0][i] + want[1][i];
			ck_assert_uint_eq(vmsa_hist_bucket(&h[0], i), want[0][i]);
			ck_assert_uint_eq(vmsa_hist_bucket(&h[1], i), want[2][i]);
			ck_assert_uint_eq(vmsa_hist_bucket(&h[2], i), want[2][i]);
		}
		ck_assert_uint_eq(h[2].count, 3000);
		/* the buckets vmsa_hist_next() gives are the non-empty ones */
		size_t seen = 0;
		uint64_t lo, hi;
		for (size_t i = 0; vmsa_hist_next(&h[2], &i, &lo, &hi); i++) {
			ck_assert_uint_ne(want[2][i], 0);
			seen++;
		}
		for (size_t i = 0; i < nb; i++)
			seen -= want[2][i] != 0;
		ck_assert_uint_eq(seen, 0);
		for (int k = 0; k < 3; k++) {
			vmsa_hist_release(&h[k]);
			ck_assert_uint_eq(vmsa_hist_bucket(&h[k], 3), 0);
			free(want[k]);
		}
	}
}
END_TEST

Suite *hist_suite(void);
Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("hist");
	tcase_add_test(tc, test_bucket_bounds_cover_values);
	tcase_add_test(tc, test_quantiles_and_merge);
	tcase_add_test(tc, test_held_buckets_count_as_all);
	tcase_add_test(tc, test_one_bucket_in_place);
	suite_add_tcase(s, tc);
	return s;
}
