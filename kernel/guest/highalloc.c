// SPDX-License-Identifier: MIT
/*
 * High-order allocation pressure from user space, in the spirit of the
 * seeds' "Stress HighAlloc" (which used a kernel module):
 *  1. fragment memory: map MB megabytes of anonymous memory, touch it, then
 *     give back every other page (MADV_DONTNEED), leaving no free block
 *     larger than a page where the map was;
 *  2. ask for high-order blocks: resizing a pipe with F_SETPIPE_SZ to 4 MB
 *     allocates its array of 1024 struct pipe_buffer with kcalloc(), about
 *     40 KB, which kmalloc serves from the page allocator as one order-4
 *     block (GFP_KERNEL: may enter direct reclaim and compaction).  Root
 *     may exceed /proc/sys/fs/pipe-max-size.
 * usage: highalloc MB PIPES
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 128;
	int pipes = argc > 2 ? atoi(argv[2]) : 2000;
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
	printf("highalloc: %zu MB fragmented, %d order-4 pipe arrays, %d failed\n", mb, ok,
	       failed);
	return 0;
}
