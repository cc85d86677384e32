/* SPDX-License-Identifier: MIT */
/*
 * What an input is, by its first bytes: a JSON summary, trace.dat, perf.data
 * or text; and whether a file, compressed or not, holds a trace.dat.
 */
#define _GNU_SOURCE /* tee */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../internal.h"
#include "decompress.h"

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
	/* (a UTF-8 byte order mark, as some editors save JSON, is skipped) */
	size_t bom = len >= 3 && !memcmp(b, "\xEF\xBB\xBF", 3) ? 3 : 0;
	size_t i = bom + skip_space(b + bom, len - bom);
	return i < len && b[i] == '{' ? VMSA_INPUT_SUMMARY : VMSA_INPUT_TEXT;
}

/*
 * Opens path to look at it, only when it is a regular file (*fd = -1 when
 * it is not): opening a FIFO, even without blocking, lets its writer in,
 * and closing it again would throw away what the writer wrote before the
 * real open.  VMSA_E_ISDIR or VMSA_E_IO as stat(2) and open(2) say.
 */
static int open_regular(const char *path, int *fd)
{
	struct stat st;
	*fd = -1;
	if (stat(path, &st))
		return VMSA_E_IO;
	if (S_ISDIR(st.st_mode))
		return VMSA_E_ISDIR;
	if (!S_ISREG(st.st_mode))
		return 0;
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0)
		return errno == EISDIR ? VMSA_E_ISDIR : VMSA_E_IO;
	return 0;
}

/* The compression of the input on fd whose first bytes are at offset at */
static enum vmsa_compression compression_at(int fd, off_t at)
{
	unsigned char magic[VMSA_COMPRESSION_MAGIC_MAX];
	ssize_t m = pread(fd, magic, sizeof(magic), at);
	return m > 0 ? vmsa_compression_detect(magic, (size_t)m) : VMSA_COMPRESSION_NONE;
}

/* buf filled from the input on fd (through d: vmsa_input_read()), up to cap
 * bytes or its end; *have bytes in it, also when an error is returned */
static int fill(int fd, struct vmsa_decomp *d, void *buf, size_t cap, size_t *have)
{
	*have = 0;
	for (size_t got = 1; *have < cap && got; *have += got) {
		int err = vmsa_input_read(fd, d, (char *)buf + *have, cap - *have, &got);
		if (err)
			return err;
	}
	return 0;
}

/*
 * What the input on fd (read from where it stands; through a decompressor
 * of kind c, when c is one) is, by its first bytes: past any white space,
 * as far as it goes (a summary may begin with it).  A read error: VMSA_E_IO
 * and text; a broken compressed stream: what its first bytes said.
 */
static int kind_of(int fd, enum vmsa_compression c, enum vmsa_input_kind *kind)
{
	*kind = VMSA_INPUT_TEXT;
	struct vmsa_decomp *d = NULL;
	if (c && vmsa_decomp_new(&d, fd, c, NULL, 0))
		return 0; /* (the analysis says why) */
	unsigned char buf[4096];
	int err = 0;
	for (bool first = true;; first = false) {
		size_t have;
		err = fill(fd, d, buf, sizeof(buf), &have);
		if (err == VMSA_E_IO) {
			*kind = VMSA_INPUT_TEXT;
			break;
		}
		/* the magic numbers are at the start; a summary's '{' after any white space */
		size_t i = skip_space(buf, have);
		if (first)
			*kind = vmsa_input_detect(buf, have);
		else if (i < have && buf[i] == '{')
			*kind = VMSA_INPUT_SUMMARY;
		if (err || have < sizeof(buf) || i < have) {
			err = 0;
			break;
		}
	}
	int saved = errno;
	vmsa_decomp_free(d);
	errno = saved;
	return err;
}

/*
 * What the first n bytes of a compressed stream of kind c decompress to:
 * 1 a summary, 0 not (text, or a stream broken: the trace's reader says
 * where), -1 not known yet (all of them decoded to white space or to
 * nothing: a stream's first block may need more of it).
 */
static int compressed_head(const unsigned char *b, size_t n, enum vmsa_compression c)
{
	struct vmsa_decomp *d;
	/* (no descriptor: once the n bytes are decoded, reading more fails) */
	if (vmsa_decomp_new(&d, -1, c, b, n))
		return 0;
	unsigned char out[4096];
	int verdict = -1;
	for (;;) {
		size_t got = 0;
		int err = vmsa_decomp_read(d, out, sizeof(out), &got);
		size_t i = skip_space(out, got);
		if (i < got) {
			verdict = out[i] == '{';
			break;
		}
		if (err == VMSA_E_IO)
			break; /* the n bytes are decoded: more are needed */
		if (err || vmsa_decomp_done(d)) {
			verdict = 0;
			break;
		}
	}
	vmsa_decomp_free(d);
	return verdict;
}

/*
 * What the first n bytes on a pipe say: 1 a summary, 0 not, -1 not known
 * yet (white space alone, or a compressed stream's start).  *compressed:
 * they begin a compressed stream, or could.
 */
static int pipe_head(const unsigned char *b, size_t n, bool *compressed)
{
	enum vmsa_compression c = vmsa_compression_detect(b, n);
	*compressed = c != VMSA_COMPRESSION_NONE || vmsa_compression_maybe(b, n);
	if (c)
		return compressed_head(b, n, c);
	if (*compressed || skip_space(b, n) == n)
		return -1;
	return vmsa_input_detect(b, n) == VMSA_INPUT_SUMMARY;
}

/* A pipe for tee(2) as large as standard input's; its size in *cap */
static int side_pipe(int fd, int p[2], size_t *cap)
{
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return -1;
	int want = fcntl(fd, F_GETPIPE_SZ);
	if (want > 0)
		fcntl(p[1], F_SETPIPE_SZ, want); /* (else the default size) */
	int have = fcntl(p[1], F_GETPIPE_SZ);
	*cap = have > 0 ? (size_t)have : 4096;
	return 0;
}

/*
 * Whether fd (standard input, or a pipe opened by its path) holds a JSON summary (its first byte after white
 * space is '{', once decompressed when it is gzip, xz or zstd), found
 * without taking a byte of it: a regular file is read with pread() from
 * where it stands, a pipe's bytes are copied with tee(2), which leaves them
 * in the pipe.  A pipe is waited on for its first bytes (as the analysis
 * would), then for more while they are not enough to tell:
 * - white space alone: for up to a second, unless the writer is gone or
 *   4 KiB of it is no summary's start;
 * - the start of a compressed stream: until its first bytes decompress, the
 *   pipe is full or the writer is gone (a stream's first block may be
 *   longer than what came first).
 * Anything else (a terminal, a socket), a pipe that tells nothing by then,
 * a signal, or an error: not a summary.
 */
static bool fd_is_summary(int fd)
{
	struct stat st;
	if (fstat(fd, &st))
		return false;
	if (S_ISREG(st.st_mode)) { /* (read from where it stands, which is put back) */
		off_t at = lseek(fd, 0, SEEK_CUR);
		if (at < 0)
			return false;
		enum vmsa_input_kind kind;
		int err = kind_of(fd, compression_at(fd, at), &kind);
		return lseek(fd, at, SEEK_SET) == at && !err && kind == VMSA_INPUT_SUMMARY;
	}
	if (!S_ISFIFO(st.st_mode))
		return false;
	int p[2];
	size_t cap;
	if (side_pipe(fd, p, &cap))
		return false;
	unsigned char *buf = malloc(cap);
	bool summary = false;
	for (unsigned waits = 0, last = 0; buf;) {
		ssize_t n = tee(fd, p[1], cap, SPLICE_F_NONBLOCK);
		if (n < 0 && errno == EAGAIN) {
			/* nothing in the pipe yet: wait for the writer */
			struct pollfd pf = {.fd = fd, .events = POLLIN};
			if (poll(&pf, 1, -1) < 0)
				break; /* (a signal: the caller's to answer) */
			continue;
		}
		if (n <= 0)
			break; /* the end (empty), or tee cannot (not a pipe after all) */
		size_t got;
		fill(p[0], NULL, buf, (size_t)n, &got); /* (the n bytes tee copied) */
		bool compressed;
		int verdict = pipe_head(buf, got, &compressed);
		if (verdict >= 0) {
			summary = verdict == 1;
			break;
		}
		/* not enough to tell: the rest is on its way, unless the writer
		 * is gone (then what it wrote after the tee is looked at once
		 * more) or no more can come before the pipe is read */
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		if (last || got >= (compressed ? cap : 4096) || (!compressed && ++waits >= 1000))
			break;
		if (poll(&pf, 1, 0) > 0 && (pf.revents & (POLLHUP | POLLERR))) {
			last = 1;
			continue;
		}
		struct timespec ms = {0, 1000000};
		if (nanosleep(&ms, NULL))
			break; /* (a signal) */
	}
	free(buf);
	close(p[0]);
	close(p[1]);
	return summary;
}

int vmsa_input_detect_path(const char *path, enum vmsa_input_kind *kind)
{
	*kind = VMSA_INPUT_TEXT;
	if (strcmp(path, "-") == 0) {
		if (fd_is_summary(STDIN_FILENO))
			*kind = VMSA_INPUT_SUMMARY;
		return 0;
	}
	int fd, err = open_regular(path, &fd);
	if (err || fd < 0)
		return err;
	/* (a compressed file: what it holds once decompressed) */
	err = kind_of(fd, compression_at(fd, 0), kind);
	int saved = errno;
	close(fd);
	errno = saved;
	return err;
}

int vmsa_input_detect_fd(int fd, enum vmsa_input_kind *kind)
{
	*kind = fd_is_summary(fd) ? VMSA_INPUT_SUMMARY : VMSA_INPUT_TEXT;
	return 0;
}

int vmsa_input_head(const char *path, void *buf, size_t cap, size_t *n)
{
	*n = 0;
	int fd, err = open_regular(path, &fd);
	if (err)
		return err;
	if (fd < 0)
		return VMSA_E_INVAL;
	enum vmsa_compression c = compression_at(fd, 0);
	struct vmsa_decomp *d = NULL;
	if (!c || !(err = vmsa_decomp_new(&d, fd, c, NULL, 0)))
		err = fill(fd, d, buf, cap, n);
	int saved = errno;
	vmsa_decomp_free(d);
	close(fd);
	errno = saved;
	return err;
}

bool vmsa_input_is_tracedat(const char *path)
{
	unsigned char head[16];
	size_t n = 0;
	if (strcmp(path, "-") != 0)
		vmsa_input_head(path, head, sizeof(head), &n); /* (what could be read) */
	return n > 0 && vmsa_input_detect(head, n) == VMSA_INPUT_TRACEDAT;
}
