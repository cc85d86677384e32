/* SPDX-License-Identifier: MIT */
/*
 * Mean, sample standard deviation and Welch's t-test (welch.h).  The
 * two-sided tail of Student's t distribution with df degrees of freedom is
 * the regularized incomplete beta function, P(|T| > t) = I_x(df/2, 1/2)
 * with x = df / (df + t^2), evaluated by its continued fraction (the
 * classical expansion, e.g. Abramowitz and Stegun 26.5.8) with the
 * modified Lentz method, on the side of x where it converges quickly
 * (I_x(a, b) = 1 - I_{1-x}(b, a) on the other).  No library: a dependency
 * loaded by every run of the tool would cost its start-up.
 */
#define _DEFAULT_SOURCE /* lgamma_r: lgamma() writes the global signgam */
#include <math.h>

#include "welch.h"

void vmsa_sample_of(struct vmsa_sample *s, const double *v, size_t n)
{
	*s = (struct vmsa_sample){.n = n, .mean = NAN, .sd = NAN, .min = NAN, .max = NAN};
	if (!n)
		return;
	double sum = 0;
	s->min = s->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		s->min = fmin(s->min, v[i]);
		s->max = fmax(s->max, v[i]);
	}
	s->mean = sum / (double)n;
	if (n < 2)
		return;
	/* two passes: the squares of the deviations, not of the values */
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = sqrt(ss / (double)(n - 1));
}

/* The continued fraction of I_x(a, b), for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = 1 / (fabs(d) < tiny ? tiny : d);
	double h = d;
	for (int m = 1; m <= 10000; m++) {
		/* the even step, then the odd one */
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
					 : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			d = 1 + num * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			h *= d * c;
			if (odd && fabs(d * c - 1) < eps)
				return h;
		}
	}
	return h;
}

/* I_x(a, b) for 0 <= x <= 1, y = 1 - x given apart (it may be the more precise) */
static double beta_regularized(double a, double b, double x, double y)
{
	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	int sign;
	double lbeta = lgamma_r(a, &sign) + lgamma_r(b, &sign) - lgamma_r(a + b, &sign);
	double front = exp(a * log(x) + b * log(y) - lbeta);
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, y) / b;
}

void vmsa_welch_test(struct vmsa_welch *w, const struct vmsa_sample *a,
		     const struct vmsa_sample *b)
{
	*w = (struct vmsa_welch){.t = NAN, .df = NAN, .p = NAN};
	if (a->n < 2 || b->n < 2)
		return;
	w->tested = true;
	double va = a->sd * a->sd / (double)a->n, vb = b->sd * b->sd / (double)b->n;
	double diff = b->mean - a->mean;
	if (va + vb == 0) {
		/* no variance: the means are equal or certainly not */
		w->t = diff == 0 ? 0 : copysign(INFINITY, diff);
		w->p = diff == 0 ? 1 : 0;
		return;
	}
	w->t = diff / sqrt(va + vb);
	w->df = (va + vb) * (va + vb) /
		(va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	double t2 = w->t * w->t;
	w->p = fmin(1, beta_regularized(w->df / 2, 0.5, w->df / (w->df + t2), t2 / (w->df + t2)));
}
