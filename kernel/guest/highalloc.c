// SPDX-License-Identifier: MIT
/*
 * High-order allocation pressure from user space, in the spirit of the
 * seeds' "Stress HighAlloc" (which used a kernel module):
 *  1. fragment memory: map MB megabytes of anonymous memory, touch it, then
 *     give back every other page (MADV_DONTNEED), leaving no free block
 *     larger than a page where the map was;
 *  2. ask for HUGE huge pages (order 9, as the 2010 cover letter's HighAlloc
 *     did) through /proc/sys/vm/nr_hugepages: the kernel allocates them one
 *     by one with __GFP_RETRY_MAYFAIL (direct reclaim and compaction of the
 *     page cache and the fragmented map) and keeps what it got; the count
 *     read back is the success measure; they are given back after;
 *  3. ask for order-4 blocks: resizing a pipe with F_SETPIPE_SZ to 4 MB
 *     allocates its array of 1024 struct pipe_buffer with kcalloc(), about
 *     40 KB, which kmalloc serves from the page allocator as one order-4
 *     block (GFP_KERNEL: may enter direct reclaim and compaction).  Root
 *     may exceed /proc/sys/fs/pipe-max-size.
 * usage: highalloc MB PIPES [HUGE]
 * Prints what it asked for, what it got and how long each step took.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* nr_hugepages set to n, then read back; -1 on error */
static long huge_pages(long n)
{
	FILE *f = fopen("/proc/sys/vm/nr_hugepages", "w");
	if (!f || fprintf(f, "%ld\n", n) < 0 || fclose(f) != 0)
		return -1;
	long got = -1;
	f = fopen("/proc/sys/vm/nr_hugepages", "r");
	if (!f || fscanf(f, "%ld", &got) != 1)
		got = -1;
	if (f)
		fclose(f);
	return got;
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 128;
	int pipes = argc > 2 ? atoi(argv[2]) : 2000;
	long huge = argc > 3 ? atol(argv[3]) : 0;
	double t0 = now();
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = mb << 20;
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (size_t off = 0; off < len; off += page)
		p[off] = 1;
	for (size_t off = 0; off < len; off += 2 * page)
		madvise(p + off, page, MADV_DONTNEED);
	double tf = now(), t1 = tf;
	if (huge > 0) {
		long got = huge_pages(huge);
		double t2 = now();
		printf("order9_asked=%ld order9_got=%ld order9_seconds=%.3f\n", huge, got, t2 - t1);
		fflush(stdout);
		huge_pages(0); /* given back */
		t1 = now();
	}
	int ok = 0, failed = 0;
	for (int i = 0; i < pipes; i++) {
		int fd[2];
		if (pipe(fd)) {
			failed++;
			continue;
		}
		if (fcntl(fd[1], F_SETPIPE_SZ, 4 << 20) < 0)
			failed++;
		else
			ok++;
		/* kept open: the blocks stay allocated and pressure builds */
	}
	double t3 = now();
	printf("highalloc: %zu MB fragmented, %d order-4 pipe arrays, %d failed\n", mb, ok,
	       failed);
	printf("fragment_seconds=%.3f order4_asked=%d order4_got=%d order4_seconds=%.3f\n",
	       tf - t0, pipes, ok, t3 - t1);
	fflush(stdout);
	return 0;
}
