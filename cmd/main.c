/* SPDX-License-Identifier: MIT */
/* vmscan-analyze: the options, then the subcommand that does the work (cmd/). */
#define _GNU_SOURCE /* sbrk, MADV_HUGEPAGE */
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

/*
 * The heap on transparent huge pages (what glibc's glibc.malloc.hugetlb=1
 * tunable does, for this program alone): the heap grows by HEAP_STEP at a
 * time, is given back only when that much is free, holds allocations up to
 * 32 MiB (not a mapping each), and its first step is asked to be on huge
 * pages.  A task's state is a few small allocations, and a trace of many
 * tasks touched one new 4 KiB page every few tasks: in a virtual machine,
 * where a page fault costs about 11 us, 65,000 short-lived tasks took 0.36 s
 * with 15,000 faults and take 0.17 to 0.26 s with 200; a million tasks
 * 4.7 s and 124,000 faults -> 2.0 s and 33,000.  Untouched pages cost
 * nothing, but a small run clears a huge page or two: 5 MB of text took
 * about 0.5 ms (5%) longer.  (The mmap threshold is set as well because
 * setting the others stops glibc from raising it: every allocation over
 * 128 KiB would be a mapping of its own, faulted in page by page, each
 * time.)  Nothing happens
 * where the heap is not grown by brk (other allocators, sanitizers) or the
 * system says never to huge pages.  Not for live, which runs for days and
 * should give memory back.
 */
#define HEAP_STEP (256 << 20)
/* the heap's head, never used (volatile: else gcc drops the allocation) */
static void *volatile heap_head;
static void heap_on_huge_pages(void)
{
#if defined(__GLIBC__) && defined(M_TOP_PAD) && defined(MADV_HUGEPAGE)
	mallopt(M_TOP_PAD, HEAP_STEP);
	mallopt(M_TRIM_THRESHOLD, 2 * HEAP_STEP);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	/* more than the heap has left: it grows here, by HEAP_STEP more */
	const size_t want = 1 << 20;
	const uintptr_t huge = (uintptr_t)2 << 20;
	char *before = sbrk(0);
	char *p = malloc(want);
	char *after = sbrk(0);
	/*
	 * A page of a 2 MiB range touched before the advice makes the whole
	 * range small pages: malloc has written the header of the chunk after
	 * p's, so the advice begins at the first huge page above it.  The
	 * head below that (the program's first allocations and the rest of
	 * the range they are in) is then taken by one allocation that is
	 * never touched, so that everything allocated from here on is above
	 * it.  Both ranges were filled a 4 KiB page at a time before: page
	 * faults of a run of 65,000 short-lived tasks 565 -> 110, of 6 tasks
	 * (43 MB) 189 -> 86, of 1.3 million tasks 877 -> 131.
	 */
	uintptr_t lo = ((uintptr_t)p + want + 64 + huge - 1) & ~(huge - 1);
	size_t head = lo - (uintptr_t)p;
	bool grew = p && before != (char *)-1 && after > before && p + want <= after &&
		    lo < (uintptr_t)after;
	if (grew)
		madvise((void *)lo, (uintptr_t)after - lo, MADV_HUGEPAGE);
	free(p);
	if (grew)
		heap_head = malloc(head);
#endif
}

/*
 * libtraceevent's tep_parse_kallsyms(), replaced for this program (the
 * executable exports it, so libtracecmd's and libtracefs's calls bind here,
 * as an LD_PRELOAD would): opening a trace.dat hands it the whole
 * /proc/kallsyms the file saved, to name kernel addresses when events are
 * printed.  vmscan-analyze never prints an address as a symbol (it decodes
 * fields by offset, and the names it prints come from the formats' tables),
 * and the parse was the largest part of the open: 26,589 lines, ~5 of 35 ms
 * on the 6.12 fixture.  Only this executable: a program linked with libvmsa
 * keeps the library's.
 */
struct tep_handle;
int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms);
int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	(void)tep;
	(void)kallsyms;
	return 0;
}

int main(int argc, char **argv)
{
	/* started by the library to read a trace.dat (inputs.c): it never
	 * returns then; its heap on huge pages too */
	if (argc > 1 && !strcmp(argv[1], VMSA_TRACEDAT_READER_ARG)) {
		heap_on_huge_pages();
		vmsa_tracedat_reader_main(argc, argv);
	}
	/* a closed pipe on standard output (| head) is a write error, status 1,
	 * not a signal that ends the program before it removes its temporary
	 * files (the trace.dat reader it starts gets SIGPIPE back) */
	signal(SIGPIPE, SIG_IGN);
	struct cli c;
	int first;
	int status = cli_parse(&c, argc, argv, &first);
	if (status >= 0) {
		cli_free(&c);
		return cli_stdout_status(status);
	}
	static const struct {
		const char *name;
		enum cli_sub sub;
		int (*run)(struct cli *c, int n, char **args);
		bool lines_quiet; /* per-line messages would drown the result */
	} subs[] = {
		{"merge", SUB_MERGE, cmd_merge, true},
		{"check", SUB_CHECK, cmd_check, true},
		{"compare", SUB_COMPARE, cmd_compare, true},
		{"live", SUB_LIVE, cmd_live, false},
	};
	const char *name = first < argc ? argv[first] : "";
	enum cli_sub sub = SUB_ANALYZE;
	int (*run)(struct cli *, int, char **) = cmd_analyze;
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]) && sub == SUB_ANALYZE; i++)
		if (!strcmp(name, subs[i].name)) {
			sub = subs[i].sub;
			run = subs[i].run;
			c.lines_quiet = subs[i].lines_quiet;
			first++;
		}
	status = cli_validate(&c, sub);
	if (status == EXIT_OK)
		status = cli_stdout_check(argc - first, &argv[first], sub == SUB_ANALYZE);
	if (status == EXIT_OK) {
		if (sub != SUB_LIVE)
			heap_on_huge_pages();
		cli_signals();
		status = cli_stdout_status(run(&c, argc - first, &argv[first]));
	}
	cli_free(&c);
	return status;
}
