/* SPDX-License-Identifier: MIT */
/*
 * The text decoder's line scanner (private to src/input/text*.c): bytes
 * found a word (8 bytes) or 16 bytes at a time, spaces skipped, numbers
 * and timestamps read.  The hot ones are inline; the rare cases are in
 * text_scan.c.
 */
#ifndef VMSA_TEXT_SCAN_H
#define VMSA_TEXT_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../internal.h"

/* The first occurrence of lit (n bytes) in [p, e): where it ends, or NULL. */
const char *vmsa_text_find_lit(const char *p, const char *e, const char *lit, size_t n);
/* Spaces and tabs from p on, in bulk (skip_sp()'s long runs). */
const char *vmsa_text_skip_sp_run(const char *p, const char *e);

static inline bool is_sp(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Eight bytes at a time (little-endian machines; others take the byte
 * loops): for a word w, the lowest byte that equals c is the lowest byte
 * whose high bit is set in match_byte(w, c); the lowest byte that differs
 * from c is the lowest non-zero byte of w ^ bcast(c).
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORDWISE 1
#else
#define WORDWISE 0
#endif
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static inline uint64_t match_byte(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (ONES * c);
	return (x - ONES) & ~x & HIGHS;
}

#ifdef __SSE2__
#define SIMD16 1
/* bit i: byte i of the 16 at p is c */
static inline unsigned eq16(const char *p, char c)
{
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)p);
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, _mm_set1_epi8(c)));
}
#else
#define SIMD16 0
static inline unsigned eq16(const char *p, char c)
{
	unsigned m = 0;
	for (int i = 0; i < 16; i++)
		m |= (unsigned)(p[i] == c) << i;
	return m;
}
#endif

/*
 * The first byte in [p, e) whose bit is set by match(16 bytes), or e.
 * Spans of 16 bytes or more are read 16 at a time, the last 16 ending at e
 * (overlapping, the bytes before p masked off).
 */
#define FIND16(p, e, match)                                                    \
	do {                                                                   \
		if (SIMD16 && (e) - (p) >= 16) {                               \
			for (; (e) - (p) > 16; (p) += 16) {                    \
				unsigned m_ = match(p);                        \
				if (m_)                                        \
					return (p) + __builtin_ctz(m_);        \
			}                                                      \
			const char *q_ = (e) - 16;                             \
			unsigned m_ = match(q_) & ~((1u << ((p) - q_)) - 1);   \
			return m_ ? q_ + __builtin_ctz(m_) : (e);              \
		}                                                              \
	} while (0)

/* The first c in [p, e), or e. */
static inline const char *find_byte(const char *p, const char *e, char c)
{
#define MATCH_C(x) eq16(x, c)
	FIND16(p, e, MATCH_C);
#undef MATCH_C
	if (WORDWISE)
		for (; e - p >= 8; p += 8) {
			uint64_t m = match_byte(vmsa_load64(p), (unsigned char)c);
			if (m)
				return p + (__builtin_ctzll(m) >> 3);
		}
	while (p < e && *p != c)
		p++;
	return p;
}

/* The first a or b in [p, e), or e. */
static inline const char *find_byte2(const char *p, const char *e, char a, char b)
{
#define MATCH_AB(x) (eq16(x, a) | eq16(x, b))
	FIND16(p, e, MATCH_AB);
#undef MATCH_AB
	while (p < e && *p != a && *p != b)
		p++;
	return p;
}

/* The first space or tab in [p, e), or e. */
static inline const char *find_sp(const char *p, const char *e)
{
	if (WORDWISE)
		for (; e - p >= 8; p += 8) {
			uint64_t w = vmsa_load64(p);
			/* each mask's lowest bit is exact, so is their union's */
			uint64_t m = match_byte(w, ' ') | match_byte(w, '\t');
			if (m)
				return p + (__builtin_ctzll(m) >> 3);
		}
	while (p < e && !is_sp(*p))
		p++;
	return p;
}

/* The first byte in [p, e) that is not a space, or e. */
static inline const char *skip_spaces(const char *p, const char *e)
{
#define NOT_SP(x) (~eq16(x, ' ') & 0xffffu)
	FIND16(p, e, NOT_SP);
#undef NOT_SP
	while (p < e && *p == ' ')
		p++;
	return p;
}


static inline __attribute__((always_inline)) const char *skip_sp(const char *p, const char *e)
{
	/* most runs between columns are one space */
	if (p == e || !is_sp(*p))
		return p;
	if (++p == e || !is_sp(*p))
		return p;
	if (WORDWISE && e - p >= 8) {
		/* up to 8 more spaces as one word (a padded timestamp) */
		uint64_t x = vmsa_load64(p) ^ (ONES * ' ');
		if (x) {
			p += __builtin_ctzll(x) >> 3;
			if (!is_sp(*p))
				return p;
		}
	}
	return vmsa_text_skip_sp_run(p, e);
}

static inline bool starts(const char *p, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(e - p) >= n && memcmp(p, lit, n) == 0;
}

enum num_status { NUM_OK, NUM_BAD, NUM_RANGE };

/* Decimal or 0x-hex, optional '-' (reported through *neg). Whole span. */
enum num_status vmsa_text_parse_num_slow(const char *p, const char *e, uint64_t *v, bool *neg);

/* The common case inline: up to 19 decimal digits cannot overflow. */
static inline enum num_status parse_num(const char *p, const char *e, uint64_t *v, bool *neg)
{
	/* (a sign, "0x" or any other non-digit goes the slow way) */
	if (p < e && e - p <= 19) {
		uint64_t x = 0;
		for (const char *q = p; q < e; q++) {
			if (!is_digit(*q))
				return vmsa_text_parse_num_slow(p, e, v, neg);
			x = x * 10 + (uint64_t)(*q - '0');
		}
		*neg = false;
		*v = x;
		return NUM_OK;
	}
	return vmsa_text_parse_num_slow(p, e, v, neg);
}


/* The value of n (1..7; 8 with no byte above them) digits less '0', the
 * word d's lowest n bytes (memory order), eight digits at once */
static inline uint64_t digits_value(uint64_t d, unsigned n)
{
	/* the n digits in the high bytes, zeros below */
	d <<= 8 * (8 - n);
	d = d * 10 + (d >> 8);
	d = (((d & 0x000000FF000000FFull) * 0x000F424000000064ull) +
	     (((d >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull)) >> 32;
	return d & 0xffffffffu;
}

/*
 * The leading decimal digits of the word w (bytes in memory order): their
 * number (0..8) and, when fewer than 8, their value.  Subtracting '0' from
 * every byte is exact up to the first non-digit, which is the first byte
 * with its high bit set in d or in d + 0x76 (d >= 10).
 */
static inline unsigned lead_digits(uint64_t w, uint64_t *val)
{
	uint64_t d = w - ONES * '0';
	uint64_t stop = (d | (d + ONES * 0x76)) & HIGHS;
	unsigned n = stop ? (unsigned)__builtin_ctzll(stop) >> 3 : 8;
	if (n == 0 || n == 8) {
		*val = 0;
		return n;
	}
	*val = digits_value(d, n);
	return n;
}

/* "sec.frac" (any number of fraction digits, kept to ns) or integer ns. */
static const uint32_t ts_scale[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
				      10000,	  1000,	     100,      10,	1};

/* *fine: 0 for microseconds, 1 for more fraction digits, TS_INTEGER for an
 * integer (a trace clock that does not count in ns, or trace-cmd report
 * --raw-ts): taken as ns */
#define TS_INTEGER 2
bool vmsa_text_parse_ts_slow(const char *p, const char *e, uint64_t *ns, const char **end,
			     uint8_t *fine);

static inline __attribute__((always_inline)) bool
parse_ts(const char *p, const char *e, uint64_t *ns, const char **end, uint8_t *fine)
{
	if (WORDWISE && e - p >= 16) {
		/* the usual "S.F" with at most 7 digits each: a word at a time */
		uint64_t sec, frac;
		unsigned n = lead_digits(vmsa_load64(p), &sec), m;
		if (n && n < 8 && p[n] == '.' && (m = lead_digits(vmsa_load64(p + n + 1), &frac)) &&
		    m < 8) {
			*ns = sec * 1000000000ull + frac * ts_scale[m];
			*fine = m > 6;
			*end = p + n + 1 + m;
			return true;
		}
	}
	return vmsa_text_parse_ts_slow(p, e, ns, end, fine);
}

#endif
