// SPDX-License-Identifier: MIT
/*
 * Anonymous-memory hog: maps MB megabytes, writes every page PASSES times
 * (so pages are dirty and must be swapped to be reclaimed), then exits.
 * usage: hog MB [PASSES]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: hog MB [PASSES]\n");
		return 2;
	}
	size_t mb = strtoul(argv[1], NULL, 10);
	int passes = argc > 2 ? atoi(argv[2]) : 2;
	size_t len = mb << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	unsigned long sum = 0;
	for (int i = 0; i < passes; i++)
		for (size_t off = 0; off < len; off += page) {
			p[off] = (unsigned char)(off / page + (size_t)i);
			sum += p[off];
		}
	printf("hog %zu MB x %d passes done (%lu)\n", mb, passes, sum);
	return 0;
}
