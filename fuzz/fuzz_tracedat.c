// SPDX-License-Identifier: MIT
/* libFuzzer: bytes as a file opened by path, so trace.dat input is reached
 * (seed with real trace.dat files: the header check, libtracecmd, the
 * binary decoder). */
#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_of(data, size);
	if (fd < 0)
		return 0;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct vmsa_source *src;
	if (vmsa_source_open_path(&src, path) == 0) {
		drive(src, NULL);
		vmsa_source_close(src);
	}
	close(fd);
	return 0;
}
