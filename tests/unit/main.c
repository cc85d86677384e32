/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmsa/vmsa.h"

Suite *text_suite(void);
Suite *stats_suite(void);
Suite *hist_suite(void);
Suite *fixtures_suite(void);
Suite *layouts_suite(void);
Suite *source_suite(void);
Suite *fields_suite(void);
Suite *catalogue_suite(void);
Suite *openmetrics_suite(void);
Suite *interval_suite(void);
Suite *filter_suite(void);
Suite *cgroup_suite(void);
Suite *welch_suite(void);
Suite *textbuf_suite(void);
Suite *timeline_suite(void);
Suite *abi_suite(void);

int main(int argc, char **argv)
{
	/* the trace.dat reader program of test_source.c's reader test: it
	 * says which file it read, then reads it (and never returns) */
	if (argc > 2 && strcmp(argv[1], VMSA_TRACEDAT_READER_ARG) == 0) {
		const char *mark = getenv("VMSA_TEST_READER_MARK");
		FILE *f = mark ? fopen(mark, "a") : NULL;
		if (f) {
			fprintf(f, "%s\n", argv[2]);
			fclose(f);
		}
		vmsa_tracedat_reader_main(argc, argv);
	}
	SRunner *sr = srunner_create(text_suite());
	srunner_add_suite(sr, stats_suite());
	srunner_add_suite(sr, hist_suite());
	srunner_add_suite(sr, fixtures_suite());
	srunner_add_suite(sr, layouts_suite());
	srunner_add_suite(sr, source_suite());
	srunner_add_suite(sr, fields_suite());
	srunner_add_suite(sr, catalogue_suite());
	srunner_add_suite(sr, openmetrics_suite());
	srunner_add_suite(sr, interval_suite());
	srunner_add_suite(sr, filter_suite());
	srunner_add_suite(sr, cgroup_suite());
	srunner_add_suite(sr, welch_suite());
	srunner_add_suite(sr, textbuf_suite());
	srunner_add_suite(sr, timeline_suite());
	srunner_add_suite(sr, abi_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
