/* SPDX-License-Identifier: MIT */
/*
 * The library in a few lines: read a text trace, aggregate it, and print
 * three numbers of the summary.
 *
 *   cc summary.c $(pkg-config --cflags --libs vmscan-analyze) -o summary
 *   ./summary trace.txt
 */
#include <inttypes.h>
#include <stdio.h>

#include <vmsa/vmsa.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE.txt\n", argv[0]);
		return 2;
	}
	struct vmsa_source *src = NULL;
	struct vmsa_stats *st = NULL;
	struct vmsa_summary *sum = NULL;
	int err = vmsa_source_open_path(&src, argv[1]);
	if (!err)
		err = vmsa_stats_new(&st, NULL);
	struct vmsa_event ev;
	while (!err && (err = vmsa_source_next(src, &ev)) == 0)
		err = vmsa_stats_add(st, &ev);
	if (err == VMSA_E_EOF) /* the whole input was read */
		err = vmsa_stats_add_source(st, vmsa_source_name(src), vmsa_source_format(src),
					    vmsa_source_counts(src), vmsa_source_traits(src));
	if (!err)
		err = vmsa_stats_summary(st, &sum);
	if (err) {
		fprintf(stderr, "%s: %s\n", argv[1], vmsa_strerror(err));
	} else {
		struct vmsa_totals t;
		vmsa_summary_totals(sum, &t);
		printf("direct reclaims %" PRIu64 "\n", t.ctx[VMSA_CTX_DIRECT].reclaims);
		printf("direct pages scanned %" PRIu64 "\n", t.ctx[VMSA_CTX_DIRECT].pages_scanned);
		printf("kswapd pages scanned %" PRIu64 "\n", t.ctx[VMSA_CTX_KSWAPD].pages_scanned);
	}
	vmsa_summary_free(sum);
	vmsa_stats_free(st);
	vmsa_source_close(src);
	return err ? 1 : 0;
}
