/* SPDX-License-Identifier: MIT */
/* The line scanner's rare cases (text_scan.h). */
#include "text_scan.h"

/* Spaces and tabs from p on, in bulk: task names are right-aligned in 16
 * columns, timestamps in 12. */
const char *vmsa_text_skip_sp_run(const char *p, const char *e)
{
	p = skip_spaces(p, e);
	while (p < e && is_sp(*p)) /* tabs, and spaces after them */
		p++;
	return p;
}

enum num_status vmsa_text_parse_num_slow(const char *p, const char *e, uint64_t *v, bool *neg)
{
	*neg = false;
	*v = 0;
	if (p < e && *p == '-') {
		*neg = true;
		p++;
	}
	if (p >= e)
		return NUM_BAD;
	uint64_t x = 0;
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		for (; p < e; p++) {
			unsigned d;
			char c = *p;
			if (is_digit(c))
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				return NUM_BAD;
			if (x >> 60)
				return NUM_RANGE;
			x = (x << 4) | d;
		}
	} else {
		for (; p < e; p++) {
			if (!is_digit(*p))
				return NUM_BAD;
			unsigned d = (unsigned)(*p - '0');
			/* x * 10 + d <= UINT64_MAX, without a division per digit */
			if (x >= 1844674407370955161ull && (x > 1844674407370955161ull || d > 5))
				return NUM_RANGE;
			x = x * 10 + d;
		}
	}
	*v = x;
	return NUM_OK;
}

bool vmsa_text_parse_ts_slow(const char *p, const char *e, uint64_t *ns, const char **end,
			     uint8_t *fine)
{
	const uint32_t *scale = ts_scale;
	const char *s = p;
	uint64_t sec = 0;
	for (; p < e && is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (sec >= 1844674407370955161ull && (sec > 1844674407370955161ull || d > 5))
			return false;
		sec = sec * 10 + d;
	}
	if (p == s)
		return false;
	if (p < e && *p == '.') {
		p++;
		const char *f = p;
		uint64_t frac = 0;
		for (; p < e && is_digit(*p) && p - f < 9; p++)
			frac = frac * 10 + (uint64_t)(*p - '0');
		frac *= scale[p - f];
		while (p < e && is_digit(*p)) /* below a nanosecond */
			p++;
		if (p == f)
			return false;
		*fine = (p - f) > 6;
		/* sec * 1e9 + frac fits: always below 18446744073 s */
		if (sec >= 18446744073ull && sec > (UINT64_MAX - frac) / 1000000000ull)
			return false;
		*ns = sec * 1000000000ull + frac;
	} else {
		/* a clock that is not in ns (counter, x86-tsc), or ns
		 * (trace-cmd report --raw-ts): taken as ns, and told */
		*ns = sec;
		*fine = TS_INTEGER;
	}
	*end = p;
	return true;
}

const char *vmsa_text_find_lit(const char *p, const char *e, const char *lit, size_t n)
{
	/* 16 starts at a time: those whose first and last bytes match the
	 * literal's, then the bytes between (a label's first letter alone is
	 * common in the text before it) */
	if (SIMD16 && n >= 2 && n <= 64) {
		for (; e - p >= (ptrdiff_t)(n - 1 + 16); p += 16) {
			unsigned m = eq16(p, lit[0]) & eq16(p + n - 1, lit[n - 1]);
			for (; m; m &= m - 1) {
				const char *q = p + __builtin_ctz(m);
				if (vmsa_same_bytes(q + 1, lit + 1, n - 2))
					return q + n;
			}
		}
	}
	while ((size_t)(e - p) >= n) {
		const char *q = memchr(p, lit[0], (size_t)(e - p) - n + 1);
		if (!q)
			return NULL;
		if (memcmp(q, lit, n) == 0)
			return q + n;
		p = q + 1;
	}
	return NULL;
}

