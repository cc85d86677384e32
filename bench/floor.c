/* SPDX-License-Identifier: MIT */
/*
 * bench/floor: what reading a text trace costs before any decoding, for
 * bench/run's "text, one thread >= 0.5x wc -l" target.  Not the analyzer:
 * loops that do less than any decoder of the trace must, timed beside it
 * and wc -l on the same file.
 *
 *   floor lines FILE    read(2) 256 KiB at a time and find each line's end
 *                       (memchr), as the analyzer's serial reader does
 *   floor numbers FILE  that, and on each line: the event name's end (the
 *                       second ':' after the ']' of the CPU), then every
 *                       decimal number after an '=' in the fields, added
 *                       up, each byte of the fields looked at once
 *
 * Prints the lines, a hash of the names and the sum of the numbers (so that
 * the compiler keeps the work).  Built by bench/run with the flags of the
 * analyzer's release build (-O2, no -march).
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (256u << 10)
#define MAX_LINE (64u << 10)

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "lines") && strcmp(argv[1], "numbers"))) {
		fprintf(stderr, "usage: floor lines|numbers FILE\n");
		return 2;
	}
	int numbers = strcmp(argv[1], "numbers") == 0;
	int fd = open(argv[2], O_RDONLY);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	char *buf = aligned_alloc(4096, CHUNK + MAX_LINE);
	if (!buf)
		return 1;
	size_t have = 0;
	uint64_t lines = 0, names = 0, sum = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, CHUNK + MAX_LINE - have);
		if (r < 0) {
			perror(argv[2]);
			return 1;
		}
		if (r == 0)
			break;
		have += (size_t)r;
		char *s = buf, *e = buf + have, *nl;
		while ((nl = memchr(s, '\n', (size_t)(e - s)))) {
			lines++;
			const char *q = numbers ? memchr(s, ']', (size_t)(nl - s)) : NULL;
			const char *c = q ? memchr(q, ':', (size_t)(nl - q)) : NULL;
			if (c)
				c = memchr(c + 1, ':', (size_t)(nl - c - 1));
			if (c) {
				uint64_t h = 0;
				for (const char *p = c - 1; p > q && *p != ' '; p--)
					h = h * 31 + (unsigned char)*p;
				names += h;
				for (const char *p = c; p < nl; p++) {
					if (*p != '=')
						continue;
					uint64_t v = 0;
					for (p++; p < nl && *p >= '0' && *p <= '9'; p++)
						v = v * 10 + (uint64_t)(*p - '0');
					sum += v;
				}
			}
			s = nl + 1;
		}
		have = (size_t)(e - s);
		if (have == CHUNK + MAX_LINE) /* a line longer than MAX_LINE: skipped */
			have = 0;
		memmove(buf, s, have);
	}
	printf("%llu lines, names %llu, numbers %llu\n", (unsigned long long)lines,
	       (unsigned long long)names, (unsigned long long)sum);
	free(buf);
	close(fd);
	return 0;
}
