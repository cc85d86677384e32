// SPDX-License-Identifier: MIT
/* libFuzzer: a whole text input through source, stats and every report. */
#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_of(data, size);
	if (fd < 0)
		return 0;
	struct vmsa_source *src;
	if (vmsa_source_open_text_fd(&src, fd, "fuzz") == 0) {
		drive(src);
		vmsa_source_close(src);
	}
	close(fd);
	return 0;
}
