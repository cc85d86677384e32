/* SPDX-License-Identifier: MIT */
/*
 * Statistics of repeated runs (compare's groups): a sample's mean and
 * sample standard deviation, and Welch's unequal-variances t-test of two
 * samples' means.
 */
#ifndef VMSA_WELCH_H
#define VMSA_WELCH_H

#include <stdbool.h>
#include <stddef.h>

/* n values: their mean, sample standard deviation (n - 1; NAN when n < 2),
 * least and greatest (all NAN when n = 0). */
struct vmsa_sample {
	size_t n;
	double mean, sd, min, max;
};

void vmsa_sample_of(struct vmsa_sample *s, const double *v, size_t n);

/* Welch's t-test of b's mean against a's, two-sided. */
struct vmsa_welch {
	bool tested;	/* false: a sample has fewer than 2 values (t, df, p NAN) */
	double t;	/* (b.mean - a.mean) / sqrt(a.sd^2/a.n + b.sd^2/b.n); +-INFINITY
			 * when both are constant and their means differ */
	double df;	/* Welch-Satterthwaite degrees of freedom; NAN when both are constant */
	double p;	/* two-sided p-value; both constant: 1 if the means are equal, else 0 */
};

void vmsa_welch_test(struct vmsa_welch *w, const struct vmsa_sample *a,
		     const struct vmsa_sample *b);

/* The level below which compare calls a difference significant. */
#define VMSA_WELCH_ALPHA 0.05

#endif /* VMSA_WELCH_H */
