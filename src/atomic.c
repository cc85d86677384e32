/* SPDX-License-Identifier: MIT */
/* Replacing a file whole: write a temporary beside it, sync, rename. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vmsa/vmsa.h"

/* Sync the directory holding path, so that the rename survives a crash. */
static void sync_dir(const char *path, size_t dir_len)
{
	char *dir = dir_len ? strndup(path, dir_len) : strdup(".");
	if (!dir)
		return;
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd); /* best effort: the file itself is complete either way */
		close(fd);
	}
	free(dir);
}

int vmsa_write_file_atomic(const char *path, vmsa_write_cb cb, void *payload)
{
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dir_len;
	if (!*base || !cb)
		return VMSA_E_INVAL;
	/* ".NAME.XXXXXX": hidden, and not *.prom, so no collector reads it early */
	size_t n = dir_len + strlen(base) + 9;
	char *tmp = malloc(n);
	if (!tmp)
		return VMSA_E_NOMEM;
	snprintf(tmp, n, "%.*s.%s.XXXXXX", (int)dir_len, path, base);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return VMSA_E_IO;
	}
	FILE *f = fchmod(fd, 0644) ? NULL : fdopen(fd, "w");
	int err;
	if (!f) {
		err = VMSA_E_IO;
		close(fd);
	} else {
		err = cb(f, payload);
		if (fflush(f) && !err)
			err = VMSA_E_IO;
		if (!err && fsync(fileno(f)))
			err = VMSA_E_IO;
		if (fclose(f) && !err)
			err = VMSA_E_IO;
	}
	if (!err && rename(tmp, path))
		err = VMSA_E_IO;
	if (err) {
		int saved = errno;
		unlink(tmp);
		errno = saved;
	} else {
		sync_dir(path, dir_len);
	}
	free(tmp);
	return err;
}
