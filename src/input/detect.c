/* SPDX-License-Identifier: MIT */
/* What an input is, by its first bytes: a JSON summary, trace.dat, perf.data or text. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../internal.h"

static const char tracedat_magic[] = "\x17\x08\x44tracing";
static const char perfdata_magic[] = "PERFILE2";

static size_t skip_space(const unsigned char *b, size_t len)
{
	size_t i = 0;
	while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
		i++;
	return i;
}

enum vmsa_input_kind vmsa_input_detect(const void *head, size_t len)
{
	const unsigned char *b = head;
	if (len >= sizeof(tracedat_magic) - 1 &&
	    memcmp(b, tracedat_magic, sizeof(tracedat_magic) - 1) == 0)
		return VMSA_INPUT_TRACEDAT;
	if (len >= sizeof(perfdata_magic) - 1 &&
	    memcmp(b, perfdata_magic, sizeof(perfdata_magic) - 1) == 0)
		return VMSA_INPUT_PERFDATA;
	size_t i = skip_space(b, len);
	return i < len && b[i] == '{' ? VMSA_INPUT_SUMMARY : VMSA_INPUT_TEXT;
}

int vmsa_input_detect_path(const char *path, enum vmsa_input_kind *kind)
{
	*kind = VMSA_INPUT_TEXT;
	if (strcmp(path, "-") == 0)
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == EISDIR ? VMSA_E_ISDIR : VMSA_E_IO;
	struct stat st;
	int err = 0;
	if (fstat(fd, &st))
		err = VMSA_E_IO;
	else if (S_ISDIR(st.st_mode))
		err = VMSA_E_ISDIR;
	unsigned char buf[4096];
	bool first = true;
	while (!err && S_ISREG(st.st_mode)) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = VMSA_E_IO;
			break;
		}
		size_t len = (size_t)n, i = skip_space(buf, len);
		/* the magic numbers are at the start; a summary's '{' after any white space */
		if (first)
			*kind = vmsa_input_detect(buf, len);
		else if (i < len && buf[i] == '{')
			*kind = VMSA_INPUT_SUMMARY;
		if (len == 0 || i < len)
			break;
		first = false;
	}
	int saved = errno;
	close(fd);
	errno = saved;
	return err;
}
