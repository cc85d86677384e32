/* SPDX-License-Identifier: MIT */
/*
 * Assertions that cost nothing when they hold.  Every unit test file
 * includes this header (helpers.h and metrics_helpers.h do too), before or
 * after <check.h>: check.h's include guard keeps this definition.
 *
 * Check's ck_assert_msg() calls _mark_point() when its condition holds,
 * and in fork mode that writes a message to the runner's pipe: one
 * write(2) per passing assertion, millions of them in the suites that
 * compare parsers line by line, most of the binary's time.  Here the
 * condition is evaluated once and Check is called only when it fails,
 * with the same message, file and line as Check's own macro.  Every typed
 * macro (ck_assert_int_eq, ck_assert_str_eq, ck_assert_ptr_nonnull, ...)
 * expands to ck_assert_msg() where it is used, so it takes this one too.
 *
 * What is lost: the last passing assertion no longer moves the place
 * Check names when a test crashes or times out; it names the test's
 * START_TEST line instead (a sanitizer build prints the stack).
 */
#ifndef VMSA_TEST_ASSERTS_H
#define VMSA_TEST_ASSERTS_H

#include <check.h>

#undef ck_assert_msg
#define ck_assert_msg(expr, ...)                                                                  \
	((expr) ? (void)0                                                                          \
		: _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed", ##__VA_ARGS__))

#endif
