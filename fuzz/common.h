// SPDX-License-Identifier: MIT
/* Shared by the stream harnesses: input bytes -> source -> stats -> both reports. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vmsa/vmsa.h"

/* *json (when not NULL): the JSON report, malloc'd */
static void drive(struct vmsa_source *src, char **json)
{
	struct vmsa_stats *st;
	if (vmsa_stats_new(&st, &(struct vmsa_stats_options){.keep_latency_list = 1}))
		return;
	struct vmsa_event ev;
	int n = 0;
	int r;
	while ((r = vmsa_source_next(src, &ev)) == 0 || r == VMSA_E_AGAIN)
		if (r == 0 && n++ < 1000000)
			vmsa_stats_add(st, &ev);
	vmsa_stats_add_source(st, vmsa_source_name(src), vmsa_source_format(src),
			      vmsa_source_counts(src), vmsa_source_traits(src));
	struct vmsa_summary *sum;
	if (vmsa_stats_summary(st, &sum) == 0) {
		FILE *null = fopen("/dev/null", "w");
		struct vmsa_report_options ro = {.latency_list = 1};
		vmsa_report_classic(null, sum, &ro);
		size_t len;
		FILE *js = json ? open_memstream(json, &len) : NULL;
		vmsa_report_json(js ? js : null, sum, &ro);
		if (js)
			fclose(js);
		struct vmsa_doc *d;
		if (vmsa_doc_from_summary(&d, sum) == 0) {
			const struct vmsa_doc *docs[] = {d, d};
			const char *names[] = {"a", "b"};
			vmsa_report_compare(null, docs, names, 2, 0, 1);
			vmsa_doc_free(d);
		}
		fclose(null);
		vmsa_summary_free(sum);
	}
	vmsa_stats_free(st);
}

/* the bytes as a file descriptor (memfd), positioned at 0 */
static int memfd_of(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}
