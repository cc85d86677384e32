/* SPDX-License-Identifier: MIT */
/* Replacing a file whole: write a temporary beside it, sync, rename. */
#define _XOPEN_SOURCE 700 /* realpath */
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

/*
 * The file that path names after its symlinks, malloc'd (NULL: out of
 * memory, errno set): path's target when it is a link to a file that
 * exists, else the last name the chain of links gives (a link to a file to
 * be made); path itself when it is no link.
 */
char *vmsa_write_file_target(const char *path)
{
	char *real = realpath(path, NULL);
	if (real)
		return real;
	char *p = strdup(path);
	for (int hops = 0; p && hops < 40; hops++) {
		struct stat s;
		char t[4096];
		ssize_t n;
		if (lstat(p, &s) || !S_ISLNK(s.st_mode) || (n = readlink(p, t, sizeof(t) - 1)) <= 0)
			break;
		t[n] = 0;
		const char *slash = strrchr(p, '/');
		size_t dir_len = t[0] != '/' && slash ? (size_t)(slash - p) + 1 : 0;
		char *next = malloc(dir_len + (size_t)n + 1);
		if (next)
			snprintf(next, dir_len + (size_t)n + 1, "%.*s%s", (int)dir_len, p, t);
		free(p);
		p = next;
	}
	return p;
}

/* Writes into a file that is not a regular one (a device, a FIFO) as it is. */
static int write_in_place(const char *path, vmsa_write_cb cb, void *payload)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return VMSA_E_IO;
	int err = cb(f, payload), e = errno;
	if (fflush(f) && !err)
		err = VMSA_E_IO, e = errno;
	if (fclose(f) && !err)
		err = VMSA_E_IO, e = errno;
	errno = e;
	return err;
}

/* path (no symlink) replaced with what cb writes. */
static int replace(const char *path, vmsa_write_cb cb, void *payload)
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

int vmsa_write_file_atomic(const char *path, vmsa_write_cb cb, void *payload)
{
	if (!path || !cb)
		return VMSA_E_INVAL;
	/* a device or FIFO is written as it is: a rename would replace the
	 * node itself (/dev/stdout, /dev/full) with a regular file */
	struct stat s;
	if (stat(path, &s) == 0 && !S_ISREG(s.st_mode)) {
		if (S_ISDIR(s.st_mode)) {
			errno = EISDIR;
			return VMSA_E_IO;
		}
		return write_in_place(path, cb, payload);
	}
	/* a symlink is followed: its target is replaced, the link stays */
	char *real = vmsa_write_file_target(path);
	if (!real)
		return VMSA_E_NOMEM;
	int err = replace(real, cb, payload), e = errno;
	free(real);
	errno = e;
	return err;
}
