/* SPDX-License-Identifier: MIT */
/*
 * Memory mapped on huge pages where the kernel gives them (transparent huge
 * pages, asked for with MADV_HUGEPAGE: the usual "madvise" setting gives
 * them only when asked).  Where each page fault is dear (virtual machines:
 * one costs about 11 us on the development machine) one fault for 2 MiB
 * instead of 512 is the difference, for memory that is filled soon anyway.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include <stdint.h>
#include <sys/mman.h>

#include "internal.h"

void *vmsa_map_huge(size_t len)
{
	size_t extra = len + VMSA_HUGE_PAGE;
	char *p = mmap(NULL, extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	char *a = (char *)(((uintptr_t)p + VMSA_HUGE_PAGE - 1) & ~(uintptr_t)(VMSA_HUGE_PAGE - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (p + extra > a + len)
		munmap(a + len, (size_t)(p + extra - (a + len)));
#ifdef MADV_HUGEPAGE
	madvise(a, len, MADV_HUGEPAGE); /* a hint: without it, small pages */
#endif
	return a;
}

void vmsa_unmap_huge(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}
