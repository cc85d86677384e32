// SPDX-License-Identifier: MIT
/*
 * libFuzzer: a whole text input through source, stats and every report,
 * read once in the caller's thread and once by worker threads in small
 * batches: the two JSON reports must be the same.
 */
#include "common.h" /* first: _GNU_SOURCE */

#include <string.h>

#include "input/input.h"

static char *run(const uint8_t *data, size_t size, int threads)
{
	char *json = NULL;
	int fd = memfd_of(data, size);
	if (fd < 0)
		return NULL;
	struct vmsa_source *src;
	if (vmsa_source_open_text_fd(&src, fd, "fuzz") == 0) {
		vmsa_source_set_threads(src, threads);
		vmsa_source_set_batch_bytes(src, 1024);
		drive(src, &json);
		vmsa_source_close(src);
	}
	close(fd);
	return json;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *a = run(data, size, 1), *b = run(data, size, 2);
	if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0))
		abort();
	free(a);
	free(b);
	return 0;
}
