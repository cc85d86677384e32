/* SPDX-License-Identifier: MIT */
#include <check.h>

#include "internal.h"

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
				if (h.buckets[b])
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

Suite *hist_suite(void);
Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("hist");
	tcase_add_test(tc, test_bucket_bounds_cover_values);
	tcase_add_test(tc, test_quantiles_and_merge);
	suite_add_tcase(s, tc);
	return s;
}
