/* SPDX-License-Identifier: MIT */
/*
 * Mean, sample sd and Welch's t-test (src/welch.c: the t distribution's
 * tail by the incomplete beta function's continued fraction) against values computed
 * independently with Python 3.11 and SciPy 1.10 (Debian's python3-scipy):
 *     from scipy import stats; import statistics as st
 *     r = stats.ttest_ind(b, a, equal_var=False)          # t, p
 *     va, vb = st.variance(a) / len(a), st.variance(b) / len(b)
 *     df = (va + vb)**2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
 * (st.mean and st.stdev for the means and sds), as each case notes.
 */
#include <check.h>
#include <math.h>

#include "welch.h"
#include "asserts.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* relative closeness */
static void close_to(double got, double want, double rel, const char *what)
{
	ck_assert_msg(fabs(got - want) <= rel * fabs(want), "%s: got %.17g, want %.17g", what, got,
		      want);
}

START_TEST(test_mean_sd)
{
	/* st.mean = 5, st.stdev = 2.138089935299395 (sqrt(32/7)) */
	static const double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct vmsa_sample s;
	vmsa_sample_of(&s, v, N(v));
	ck_assert_uint_eq(s.n, 8);
	close_to(s.mean, 5, 1e-15, "mean");
	close_to(s.sd, 2.138089935299395, 1e-14, "sd");
	ck_assert(s.min == 2 && s.max == 9);
	/* one value: no sd; none: nothing */
	vmsa_sample_of(&s, v + 7, 1);
	ck_assert(s.n == 1 && s.mean == 9 && isnan(s.sd) && s.min == 9 && s.max == 9);
	vmsa_sample_of(&s, v, 0);
	ck_assert(s.n == 0 && isnan(s.mean) && isnan(s.sd) && isnan(s.min));
	/* large values, small spread: two passes keep the digits
	 * (st.stdev([1e9 + 1, 1e9 + 2, 1e9 + 3]) = 1.0) */
	static const double big[] = {1e9 + 1, 1e9 + 2, 1e9 + 3};
	vmsa_sample_of(&s, big, N(big));
	close_to(s.sd, 1.0, 1e-12, "sd of large values");
}
END_TEST

static const struct welch_case {
	const char *name;
	double a[60], b[60];
	size_t na, nb;
	double t, df, p;
} cases[] = {
	/* st.mean(a) = 10.05, st.mean(b) = 11.2 */
	{"significant", {10.1, 9.8, 10.3, 10.0}, {11.2, 10.9, 11.5}, 4, 3,
	 5.69102408201203, 3.408897302413631, 0.007535536466250451},
	/* three 6.1 runs' direct reclaims against two of them */
	{"not significant", {1000, 603, 428}, {603, 428}, 3, 2,
	 -0.8477651354326635, 2.8106289392987223, 0.46264495510796894},
	/* a tiny p; df exactly 4 (equal sizes and variances) */
	{"tiny p", {1, 1.1, 0.9}, {5, 5.1, 4.9}, 3, 3,
	 48.98979485566364, 4.0, 1.0387794650848846e-06},
	/* p near 1 */
	{"p near 1", {1, 2, 3, 4}, {1.1, 2, 3, 4}, 4, 4,
	 0.02779565624894561, 5.994557554651404, 0.9787273731547255},
	/* one constant sample: df = nb - 1 */
	{"one constant", {4, 4, 4, 4}, {5, 6, 7}, 4, 3,
	 3.464101615137755, 2.0, 0.07417990022744853},
};

START_TEST(test_welch_against_scipy)
{
	for (size_t i = 0; i < N(cases); i++) {
		const struct welch_case *c = &cases[i];
		struct vmsa_sample a, b;
		struct vmsa_welch w;
		vmsa_sample_of(&a, c->a, c->na);
		vmsa_sample_of(&b, c->b, c->nb);
		vmsa_welch_test(&w, &a, &b);
		ck_assert_msg(w.tested, "%s", c->name);
		close_to(w.t, c->t, 1e-12, c->name);
		close_to(w.df, c->df, 1e-12, c->name);
		close_to(w.p, c->p, 1e-10, c->name);
	}
}
END_TEST

START_TEST(test_welch_large_df)
{
	/* a = range(50), b = [1.1 * i + 3 for i in range(60)]: df 107 > 30 */
	double a[50], b[60];
	for (int i = 0; i < 60; i++) {
		if (i < 50)
			a[i] = i;
		b[i] = i * 1.1 + 3.0;
	}
	struct vmsa_sample sa, sb;
	struct vmsa_welch w;
	vmsa_sample_of(&sa, a, 50);
	vmsa_sample_of(&sb, b, 60);
	close_to(sa.sd, 14.577379737113251, 1e-14, "sd a");
	close_to(sb.sd, 19.21067411623028, 1e-14, "sd b");
	vmsa_welch_test(&w, &sa, &sb);
	close_to(w.t, 3.3953148318627764, 1e-12, "t");
	close_to(w.df, 107.12159589709329, 1e-12, "df");
	close_to(w.p, 0.0009624256599881201, 1e-9, "p");
}
END_TEST

/* n values v[i] = mul * (i % mod) + add */
static void pattern(struct vmsa_sample *s, double *v, int n, int mod, double mul, double add)
{
	for (int i = 0; i < n; i++)
		v[i] = mul * (mod ? i % mod : i) + add;
	vmsa_sample_of(s, v, (size_t)n);
}

START_TEST(test_welch_many_runs)
{
	static double a[3000], b[3000];
	static const struct {
		int na, moda, nb, modb;
		double mulb, addb, t, df, p;
	} c[] = {
		/* a = range(1000), b = [1.01 * i + 5 for i in range(1000)] */
		{1000, 0, 1000, 0, 1.01, 5, 0.769963163891728, 1997.8022124880567,
		 0.4414127753367434},
		/* a = [i % 7 for i in range(2000)], b = [i % 5 + 0.9 for i in range(3000)] */
		{2000, 7, 3000, 5, 1, 0.9, -1.888090340010171, 3309.278920609196,
		 0.05910122633013295},
	};
	for (size_t i = 0; i < N(c); i++) {
		struct vmsa_sample sa, sb;
		struct vmsa_welch w;
		pattern(&sa, a, c[i].na, c[i].moda, 1, 0);
		pattern(&sb, b, c[i].nb, c[i].modb, c[i].mulb, c[i].addb);
		vmsa_welch_test(&w, &sa, &sb);
		close_to(w.t, c[i].t, 1e-11, "t, many runs");
		close_to(w.df, c[i].df, 1e-11, "df, many runs");
		close_to(w.p, c[i].p, 1e-9, "p, many runs");
	}
}
END_TEST

START_TEST(test_welch_degenerate)
{
	static const double one[] = {3}, two[] = {3, 4}, c5[] = {5, 5, 5}, c5b[] = {5, 5},
			    c7[] = {7, 7};
	struct vmsa_sample a, b;
	struct vmsa_welch w;
	/* a sample of one: no test */
	vmsa_sample_of(&a, one, 1);
	vmsa_sample_of(&b, two, 2);
	vmsa_welch_test(&w, &a, &b);
	ck_assert(!w.tested && isnan(w.t) && isnan(w.df) && isnan(w.p));
	vmsa_welch_test(&w, &b, &a);
	ck_assert(!w.tested && isnan(w.p));
	/* both constant, equal: p = 1; different: p = 0, t infinite */
	vmsa_sample_of(&a, c5, 3);
	vmsa_sample_of(&b, c5b, 2);
	vmsa_welch_test(&w, &a, &b);
	ck_assert(w.tested && w.t == 0 && isnan(w.df) && w.p == 1);
	vmsa_sample_of(&b, c7, 2);
	vmsa_welch_test(&w, &a, &b);
	ck_assert(w.tested && isinf(w.t) && w.t > 0 && isnan(w.df) && w.p == 0);
}
END_TEST

Suite *welch_suite(void);
Suite *welch_suite(void)
{
	Suite *s = suite_create("welch");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_mean_sd);
	tcase_add_test(tc, test_welch_against_scipy);
	tcase_add_test(tc, test_welch_large_df);
	tcase_add_test(tc, test_welch_many_runs);
	tcase_add_test(tc, test_welch_degenerate);
	suite_add_tcase(s, tc);
	return s;
}
