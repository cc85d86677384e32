/* SPDX-License-Identifier: MIT */
/*
 * Streaming decompression of gzip, xz and zstd inputs (library-private):
 * one reader for the three formats, told apart by their magic bytes.
 */
#ifndef VMSA_DECOMPRESS_H
#define VMSA_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "vmsa/vmsa.h"

/* The longest magic number looked for (xz's). */
#define VMSA_COMPRESSION_MAGIC_MAX 6

/* What the first @len bytes at @head say; NONE also when too few to tell. */
enum vmsa_compression vmsa_compression_detect(const void *head, size_t len);
/* Whether @len bytes (fewer than the magic) could still begin a compressed stream. */
int vmsa_compression_maybe(const void *head, size_t len);

struct vmsa_decomp;

/*
 * A reader of the compressed stream on @fd (not closed by it), which
 * begins with the @npre bytes at @pre already read from @fd (copied).
 * Concatenated streams (gzip members, xz streams, zstd frames) are read
 * one after another.  0 or VMSA_E_NOMEM.
 */
int vmsa_decomp_new(struct vmsa_decomp **out, int fd, enum vmsa_compression kind,
		    const void *pre, size_t npre);
void vmsa_decomp_free(struct vmsa_decomp *d);

/*
 * Decompresses into @buf (at most @cap bytes, cap > 0), reading @fd at most
 * once: 0 with *got bytes (0 and vmsa_decomp_done(): the end; 0 otherwise:
 * call again), VMSA_E_AGAIN (the read was interrupted or would block),
 * VMSA_E_IO (errno kept) or VMSA_E_DECOMPRESS (vmsa_decomp_error() says
 * where and why; every later call returns it again).
 */
int vmsa_decomp_read(struct vmsa_decomp *d, void *buf, size_t cap, size_t *got);
/* The end of the last stream was read. */
int vmsa_decomp_done(const struct vmsa_decomp *d);
/* Compressed bytes are buffered: the next read needs no wait on the fd. */
int vmsa_decomp_pending(const struct vmsa_decomp *d);
/* Compressed bytes read from the input so far. */
uint64_t vmsa_decomp_in_bytes(const struct vmsa_decomp *d);
/* After VMSA_E_DECOMPRESS: the byte offset in the compressed input and a static reason. */
const char *vmsa_decomp_error(const struct vmsa_decomp *d, uint64_t *offset);

/*
 * The next bytes of the input on @fd, through @d when it is compressed (@d
 * NULL: @fd's own bytes), into @buf (@cap > 0), blocking as @fd does and
 * reading again after EINTR: 0 with *@got bytes (0: the end), VMSA_E_IO
 * (errno kept) or VMSA_E_DECOMPRESS.
 */
int vmsa_input_read(int fd, struct vmsa_decomp *d, void *buf, size_t cap, size_t *got);

#endif
