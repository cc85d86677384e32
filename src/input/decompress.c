/* SPDX-License-Identifier: MIT */
/*
 * Streaming decompression: gzip (zlib), xz (liblzma) and zstd (libzstd)
 * behind one reader.  The compressed input is read from a file descriptor
 * in pieces, never whole; concatenated streams are read in turn (gzip
 * members, xz streams and their padding, zstd frames).  A stream that is
 * corrupt or ends early is an error that says where (the byte offset in
 * the compressed input) and why, and stays the answer.
 */
#include <errno.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "decompress.h"
#include "dynlib.h"

#define IN_CAP (64u << 10)

static const unsigned char gzip_magic[] = {0x1f, 0x8b};
static const unsigned char xz_magic[] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
static const unsigned char zstd_magic[] = {0x28, 0xb5, 0x2f, 0xfd};

static const struct {
	const unsigned char *magic;
	size_t len;
	enum vmsa_compression kind;
} magics[] = {
	{gzip_magic, sizeof(gzip_magic), VMSA_COMPRESSION_GZIP},
	{xz_magic, sizeof(xz_magic), VMSA_COMPRESSION_XZ},
	{zstd_magic, sizeof(zstd_magic), VMSA_COMPRESSION_ZSTD},
};

const char *vmsa_compression_name(enum vmsa_compression c)
{
	switch (c) {
	case VMSA_COMPRESSION_GZIP:
		return "gzip";
	case VMSA_COMPRESSION_XZ:
		return "xz";
	case VMSA_COMPRESSION_ZSTD:
		return "zstd";
	default:
		return "none";
	}
}

enum vmsa_compression vmsa_compression_detect(const void *head, size_t len)
{
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (len >= magics[i].len && memcmp(head, magics[i].magic, magics[i].len) == 0)
			return magics[i].kind;
	return VMSA_COMPRESSION_NONE;
}

int vmsa_compression_maybe(const void *head, size_t len)
{
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (len < magics[i].len && memcmp(head, magics[i].magic, len) == 0)
			return 1;
	return 0;
}

/* Why a stream failed, by format: truncated, corrupt, trailing bytes, unsupported. */
enum why { W_TRUNCATED, W_CORRUPT, W_TRAILING, W_UNSUPPORTED, W__COUNT };
static const char *const reasons[][W__COUNT] = {
	[VMSA_COMPRESSION_GZIP] = {"truncated gzip stream", "corrupt gzip stream",
				   "trailing bytes after the gzip stream",
				   "unsupported gzip stream"},
	[VMSA_COMPRESSION_XZ] = {"truncated xz stream", "corrupt xz stream",
				 "trailing bytes after the xz stream",
				 "unsupported xz stream"},
	[VMSA_COMPRESSION_ZSTD] = {"truncated zstd stream", "corrupt zstd stream",
				   "trailing bytes after the zstd stream",
				   "unsupported zstd stream"},
};

struct vmsa_decomp {
	int fd;
	enum vmsa_compression kind;
	unsigned char *in;
	size_t in_len, in_pos;
	bool in_eof, done;
	bool member_end;	/* gzip: a member ended; what follows is looked at */
	bool frame_open;	/* zstd: a frame was begun and not finished */
	uint64_t in_total;	/* read from fd (and given at the start) */
	int err;
	const char *why;
	uint64_t err_off;
	z_stream z;
	lzma_stream x;
	ZSTD_DStream *zs;
	/* the library of its kind (dynlib.h); the others stay closed */
	struct vmsa_dl_zlib zl;
	struct vmsa_dl_lzma xl;
	struct vmsa_dl_zstd sl;
	bool z_init;		/* inflateInit2 succeeded */
};

int vmsa_decomp_new(struct vmsa_decomp **out, int fd, enum vmsa_compression kind,
		    const void *pre, size_t npre)
{
	*out = NULL;
	struct vmsa_decomp *d = calloc(1, sizeof(*d));
	if (!d)
		return VMSA_E_NOMEM;
	d->fd = fd;
	d->kind = kind;
	d->in = malloc(IN_CAP > npre ? IN_CAP : npre);
	d->x = (lzma_stream)LZMA_STREAM_INIT;
	int err = d->in ? 0 : VMSA_E_NOMEM;
	if (!err)
		err = kind == VMSA_COMPRESSION_GZIP   ? vmsa_dl_open_zlib(&d->zl)
		      : kind == VMSA_COMPRESSION_XZ   ? vmsa_dl_open_lzma(&d->xl)
		      : kind == VMSA_COMPRESSION_ZSTD ? vmsa_dl_open_zstd(&d->sl)
						      : VMSA_E_INVAL;
	if (!err) {
		bool ok;
		if (kind == VMSA_COMPRESSION_GZIP) /* gzip only: inflateInit2() */
			ok = d->z_init = d->zl.inflateInit2_(&d->z, 16 + MAX_WBITS, ZLIB_VERSION,
							      (int)sizeof(d->z)) == Z_OK;
		else if (kind == VMSA_COMPRESSION_XZ)
			ok = d->xl.lzma_stream_decoder(&d->x, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
		else
			ok = (d->zs = d->sl.ZSTD_createDStream()) != NULL &&
			     !d->sl.ZSTD_isError(d->sl.ZSTD_initDStream(d->zs));
		err = ok ? 0 : VMSA_E_NOMEM;
	}
	if (err) {
		vmsa_decomp_free(d);
		return err;
	}
	if (npre)
		memcpy(d->in, pre, npre);
	d->in_len = npre;
	d->in_total = npre;
	*out = d;
	return 0;
}

void vmsa_decomp_free(struct vmsa_decomp *d)
{
	if (!d)
		return;
	if (d->z_init)
		d->zl.inflateEnd(&d->z);
	if (d->xl.handle)
		d->xl.lzma_end(&d->x);
	if (d->sl.handle)
		d->sl.ZSTD_freeDStream(d->zs);
	VMSA_DL_CLOSE(&d->zl);
	VMSA_DL_CLOSE(&d->xl);
	VMSA_DL_CLOSE(&d->sl);
	free(d->in);
	free(d);
}

int vmsa_decomp_done(const struct vmsa_decomp *d)
{
	return d->done;
}

int vmsa_decomp_pending(const struct vmsa_decomp *d)
{
	return d->in_pos < d->in_len || d->in_eof;
}

uint64_t vmsa_decomp_in_bytes(const struct vmsa_decomp *d)
{
	return d->in_total;
}

const char *vmsa_decomp_error(const struct vmsa_decomp *d, uint64_t *offset)
{
	*offset = d->err_off;
	return d->why;
}

/* The offset of the next compressed byte to decode. */
static uint64_t consumed(const struct vmsa_decomp *d)
{
	return d->in_total - (d->in_len - d->in_pos);
}

static int fail(struct vmsa_decomp *d, enum why w, uint64_t off)
{
	d->err = VMSA_E_DECOMPRESS;
	d->why = reasons[d->kind][w];
	d->err_off = off;
	return d->err;
}

/* One step of the decoder: input from in_pos, output appended at *got. */
static int step(struct vmsa_decomp *d, unsigned char *buf, size_t cap, size_t *got)
{
	const unsigned char *src = d->in + d->in_pos;
	size_t avail = d->in_len - d->in_pos, used = 0, made = 0;
	switch (d->kind) {
	case VMSA_COMPRESSION_GZIP: {
		if (d->member_end) {
			/* zeros may pad the file; anything else must be a new member */
			while (used < avail && src[used] == 0)
				used++;
			d->in_pos += used;
			avail -= used;
			if (avail == 0)
				return 0;
			if (avail < 2 && !d->in_eof)
				return 0; /* the rest of the magic is still to come */
			if (avail < 2 || memcmp(src + used, gzip_magic, 2) != 0)
				return fail(d, W_TRAILING, consumed(d));
			d->zl.inflateReset(&d->z);
			d->member_end = false;
			src += used;
		}
		d->z.next_in = (unsigned char *)src;
		d->z.avail_in = (uInt)avail;
		d->z.next_out = buf + *got;
		d->z.avail_out = (uInt)(cap - *got);
		int r = d->zl.inflate(&d->z, Z_NO_FLUSH);
		used = avail - d->z.avail_in;
		made = (cap - *got) - d->z.avail_out;
		d->in_pos += used;
		*got += made;
		if (r == Z_STREAM_END)
			d->member_end = true;
		else if (r == Z_DATA_ERROR || r == Z_NEED_DICT)
			return fail(d, W_CORRUPT, consumed(d));
		else if (r == Z_MEM_ERROR)
			return VMSA_E_NOMEM;
		return 0;
	}
	case VMSA_COMPRESSION_XZ: {
		d->x.next_in = src;
		d->x.avail_in = avail;
		d->x.next_out = buf + *got;
		d->x.avail_out = cap - *got;
		lzma_ret r = d->xl.lzma_code(&d->x, d->in_eof ? LZMA_FINISH : LZMA_RUN);
		used = avail - d->x.avail_in;
		made = (cap - *got) - d->x.avail_out;
		d->in_pos += used;
		*got += made;
		switch (r) {
		case LZMA_OK:
			return 0;
		case LZMA_STREAM_END:
			d->done = true;
			return 0;
		case LZMA_MEM_ERROR:
			return VMSA_E_NOMEM;
		case LZMA_BUF_ERROR: /* no progress possible: the input ended */
			return fail(d, W_TRUNCATED, d->in_total);
		case LZMA_OPTIONS_ERROR:
		case LZMA_MEMLIMIT_ERROR:
			return fail(d, W_UNSUPPORTED, consumed(d));
		default:
			return fail(d, d->in_eof && !avail ? W_TRUNCATED : W_CORRUPT, consumed(d));
		}
	}
	case VMSA_COMPRESSION_ZSTD: {
		if (!avail && !d->frame_open)
			return 0; /* between frames: only more input can begin one */
		ZSTD_inBuffer zin = {src, avail, 0};
		ZSTD_outBuffer zout = {buf + *got, cap - *got, 0};
		size_t r = d->sl.ZSTD_decompressStream(d->zs, &zout, &zin);
		d->in_pos += zin.pos;
		*got += zout.pos;
		if (d->sl.ZSTD_isError(r)) {
			ZSTD_ErrorCode e = d->sl.ZSTD_getErrorCode(r);
			if (e == ZSTD_error_memory_allocation)
				return VMSA_E_NOMEM;
			return fail(d, e == ZSTD_error_prefix_unknown && !d->frame_open ? W_TRAILING
				    : e == ZSTD_error_frameParameter_windowTooLarge ||
						    e == ZSTD_error_frameParameter_unsupported
					    ? W_UNSUPPORTED
					    : W_CORRUPT,
				    consumed(d));
		}
		d->frame_open = r != 0;
		return 0;
	}
	default:
		return fail(d, W_CORRUPT, 0);
	}
}

/* One read of the input behind what is kept of it; 0 or an error. */
static int refill(struct vmsa_decomp *d)
{
	size_t keep = d->in_len - d->in_pos;
	memmove(d->in, d->in + d->in_pos, keep);
	ssize_t n = read(d->fd, d->in + keep, IN_CAP - keep);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? VMSA_E_AGAIN : VMSA_E_IO;
	d->in_pos = 0;
	d->in_len = keep + (size_t)n;
	d->in_total += (uint64_t)n;
	d->in_eof = n == 0;
	return 0;
}

int vmsa_decomp_read(struct vmsa_decomp *d, void *buf, size_t cap, size_t *got)
{
	*got = 0;
	if (d->err)
		return d->err;
	bool did_read = false;
	while (!d->done && *got < cap) {
		/* all of it decoded, or a gzip magic cut in two: read (once a call) */
		if (!d->in_eof && (d->in_pos == d->in_len ||
				   (d->member_end && d->in_len - d->in_pos < 2))) {
			if (did_read || *got)
				return 0;
			int r = refill(d);
			if (r)
				return r;
			did_read = true;
		}
		size_t before_in = d->in_pos, before_out = *got;
		int r = step(d, buf, cap, got);
		if (r)
			return r;
		bool stuck = d->in_pos == before_in && *got == before_out;
		if (d->in_eof && d->in_pos == d->in_len) {
			/* the input ended: a finished stream is the end, else it was cut */
			if (d->kind == VMSA_COMPRESSION_GZIP && d->member_end)
				d->done = true;
			else if (d->kind == VMSA_COMPRESSION_ZSTD && !d->frame_open)
				d->done = true;
			else if (stuck && d->kind != VMSA_COMPRESSION_XZ)
				return fail(d, W_TRUNCATED, d->in_total);
		}
		if (stuck && !d->in_eof && d->in_pos < d->in_len && !d->member_end)
			return fail(d, W_CORRUPT, consumed(d)); /* input it cannot take */
	}
	return 0;
}

int vmsa_input_read(int fd, struct vmsa_decomp *d, void *buf, size_t cap, size_t *got)
{
	for (;;) {
		if (!d) {
			ssize_t r = read(fd, buf, cap);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return VMSA_E_IO;
			*got = (size_t)r;
			return 0;
		}
		int r = vmsa_decomp_read(d, buf, cap, got);
		if (r == VMSA_E_AGAIN)
			continue;
		if (r || *got || vmsa_decomp_done(d))
			return r;
	}
}
