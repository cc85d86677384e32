/* SPDX-License-Identifier: MIT */
/*
 * The streaming source: text lines (or trace.dat records) in, events out.
 *
 * Text is read through one sliding buffer that also bounds the line length.
 * A regular file may be decoded by several threads: it is cut into ranges
 * of batch_bytes, handed out in file order; a decoder reads its range with
 * pread() (outside any lock, into a batch of its own, small enough to stay
 * in the cache while it is decoded) and decodes the lines that start in it,
 * the last one read on to its end, with its own line decoder; lines are
 * bounded as the serial reader's buffer bounds them.  vmsa_source_next()
 * hands the batches' events, rejects and counts on in file order, and
 * decodes a range itself while the batch it wants is not ready (so N
 * decoders are N - 1 threads and the caller's, and nobody waits while
 * there is work).  The caller
 * therefore sees exactly the sequence the serial reader produces
 * (tests/unit/test_source.c compares the two on every fixture).
 *
 * A compressed input (gzip, xz, zstd: by its magic bytes, never its name)
 * is read through decompress.c, serially: a regular file is recognised at
 * open, a pipe or standard input by its first bytes, which stay in the
 * buffer and go to the decompressor.  A compressed trace.dat file is
 * decompressed into an anonymous memory file that libtracecmd opens.
 */
#define _GNU_SOURCE /* memrchr */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../internal.h"
#include "decompress.h"
#include "input.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define BUF_CAP (1u << 20)	/* also the longest line kept: 1 MiB */
#define READ_CHUNK (128u << 10) /* read in pieces that stay in the L2 cache */
#define MAX_WORKERS 16
#define WAIT_MS 100		/* the longest vmsa_source_next() waits for a batch */
#define SWITCHED 1		/* internal: the input turned out to be a trace.dat */
#define NEED_READ 2		/* internal: no whole line left in the buffer */
#define AHEAD_MAX 16		/* the most events decoded ahead (vmsa_source_set_lookahead()) */
#define PAR_BATCH (256u << 10)	/* a worker's range: its text and events stay in L2 */
#define TAIL_READ (4u << 10)	/* read past a range with it, for its last line */
#define COPY_ALIGN 4096u	/* a range's text sits at its file offset's place in a page */
#define NO_LONG SIZE_MAX

/* A reject recorded by a worker, reported by the consumer in line order. */
struct reject_rec {
	uint64_t line;	 /* 0-based within the batch */
	size_t ev_index; /* reported before this event of the batch */
	enum vmsa_reject_reason reason;
	size_t off, len; /* the line, in the batch's text */
};

enum batch_state { B_FREE, B_FILLING, B_READY, B_CONSUMING };

/* An event in a batch, on cache lines of its own (put_event()), with room
 * for its task's name after it */
#define EV_SLOT 256
struct ev_slot {
	struct vmsa_event ev;
	char comm[EV_SLOT - sizeof(struct vmsa_event)];
};
_Static_assert(sizeof(struct ev_slot) == EV_SLOT, "whole cache lines");

struct batch {
	enum batch_state state;
	uint64_t seq;
	uint64_t at;	/* its range: the lines that start in [at, at + batch_bytes) */
	char *text;	/* the bytes read, from at - 1 (at 0: from 0) */
	size_t cap;
	char *text_slot; /* text_mapped: where its room in the mapping starts */
	bool text_mapped, ev_mapped; /* text, ev: in the pool's mapping (else allocated) */
	size_t off, len; /* the lines: text + off, len bytes */
	size_t long_at;	/* NO_LONG, or where its last line starts, too long to keep */
	struct ev_slot *ev;
	size_t nev, evcap, next_ev;
	struct reject_rec *rej;
	size_t nrej, rejcap, next_rej;
	uint64_t lines;
	struct vmsa_source_counts counts;
	struct vmsa_traits traits;
	struct vmsa_wrap_edges wrap; /* vmsa_text_wrap_end() */
	/* the record after a buffer instance's lost-events marker comes on the
	 * next line without the instance's name (trace-cmd report): the
	 * batch's first event is of its first line and names no instance; the
	 * instance of the marker that ended the batch (len 0: none) */
	bool first_line_top;
	uint8_t marker_inst_len;
	char marker_inst[64];
	bool last;	/* nothing follows */
	int err, err_errno; /* after this batch: an error to return */
};

struct pool {
	pthread_mutex_t lock;	/* batches' states, the ranges handed out, stop */
	pthread_cond_t freed;	/* a batch became free (workers wait) */
	pthread_cond_t ready;	/* the batch the consumer wants is ready */
	pthread_t thread[MAX_WORKERS];
	/* the workers' decoders, freed with the pool: an event may point into
	 * its decoder (a buffer instance's name) after the worker ended */
	struct vmsa_text_parser *wparser[MAX_WORKERS];
	int nthreads;
	int ndec, next_id;	/* decoders (the workers and the consumer, 0); ids given */
	bool stop;
	struct batch *b;
	int nb;
	char *map;	/* the batches' first text and events, on huge pages */
	size_t map_len;
	uint64_t next_seq, next_at; /* the next range to hand out */
	uint64_t want_seq;	/* the consumer's */
	bool after_head;	/* the consumer's: the last batch ended after an event or head */
	bool after_eq;		/* the consumer's: ... and in a field's '=' or a label */
	/* the consumer's: the instance of the marker the last batch ended with
	 * (len 0: none), and the name the event after it points to */
	uint8_t marker_inst_len;
	char marker_inst[64], event_inst[64];
	bool reader_done;	/* under lock: workers may stop */
	struct batch *cur;	/* being consumed */
	struct vmsa_text_parser *parser; /* the consumer's, for the batches it decodes */
};

struct vmsa_source {
	char *name;
	const char *format;
	int fd;
	bool own_fd;
	bool eof, discarding, first_chunk;
	bool unwrap; /* join events broken over several lines (serial only) */
	char sep;    /* what ends a line: '\n', or '\r' in a file whose lines end so */
	char *buf;
	size_t start, end;
	uint64_t line_no;
	int poll_ms;
	int threads;
	size_t batch_bytes;
	enum { MODE_UNDECIDED, MODE_SERIAL, MODE_PARALLEL, MODE_UNWRAP } mode;
	int final, final_errno;	/* text: what ended the input (EOF, an error) */
	struct pool *pool;
	int workers; /* threads the pool started */
	struct vmsa_text_parser *parser;
	struct vmsa_traits *traits; /* the parser's, or trace.dat's */
	struct vmsa_tracedat *td;   /* binary input, when not NULL */
	struct vmsa_decomp *dec;    /* compressed input, when not NULL */
	bool sniffed;		    /* its compression is known */
	bool may_spill;		    /* a trace.dat not opened as a file may go to a memory file */
	int memfd;		    /* that file, or -1 */
	uint64_t ts_gate, ts_max;   /* text: ts_order() */
	struct vmsa_source_counts counts;
	vmsa_reject_cb reject_cb;
	void *reject_payload;
	/* serial reading: the events of the lines already read, decoded ahead
	 * (ahead[next .. n), before any line after them); lookahead: how many
	 * a call decodes at most, 1 none ahead */
	unsigned lookahead, ahead_next, ahead_n;
	struct vmsa_event ahead[AHEAD_MAX - 1];
};

int vmsa_source_open_text_fd(struct vmsa_source **out, int fd, const char *name)
{
	*out = NULL;
	struct vmsa_source *s = calloc(1, sizeof(*s));
	if (!s)
		return VMSA_E_NOMEM;
	s->name = strdup(name ? name : "-");
	s->buf = malloc(BUF_CAP);
	s->lookahead = 1;
	if (!s->name || !s->buf || vmsa_text_parser_new(&s->parser)) {
		vmsa_source_close(s);
		return VMSA_E_NOMEM;
	}
	s->traits = vmsa_text_parser_traits_mut(s->parser);
	s->fd = fd;
	s->poll_ms = -1;
	s->threads = 1;
	s->batch_bytes = PAR_BATCH;
	s->first_chunk = true;
	s->sep = '\n';
	s->format = "text";
	s->memfd = -1;
	/* a regular file read from its start: its compression is known now */
	struct stat st;
	char head[VMSA_COMPRESSION_MAGIC_MAX];
	ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0
			    ? pread(fd, head, sizeof(head), 0)
			    : -1;
	if (n >= 0) {
		enum vmsa_compression comp = vmsa_compression_detect(head, (size_t)n);
		int r = comp ? vmsa_decomp_new(&s->dec, fd, comp, NULL, 0) : 0;
		if (r) {
			vmsa_source_close(s);
			return r;
		}
		s->traits->compression = comp;
		s->sniffed = true;
	}
	*out = s;
	return 0;
}

int vmsa_source_open_path(struct vmsa_source **out, const char *path)
{
	return vmsa_source_open_path_with(out, path, NULL);
}

int vmsa_source_open_path_with_sized(struct vmsa_source **out, const char *path,
				     const struct vmsa_open_options *o, size_t o_size)
{
	*out = NULL;
	struct vmsa_open_options oc;
	if (o && vmsa_abi_in(&oc, sizeof oc, o, o_size, VMSA_ABI_MIN_OPEN_OPTIONS))
		return VMSA_E_INVAL;
	if (o)
		o = &oc;
	if (strcmp(path, "-") == 0) {
		int r = vmsa_source_open_text_fd(out, STDIN_FILENO, "-");
		if (!r)
			(*out)->may_spill = true;
		return r;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == EISDIR ? VMSA_E_ISDIR : VMSA_E_IO;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return VMSA_E_ISDIR;
	}
	int r = vmsa_source_open_text_fd(out, fd, path);
	if (r) {
		close(fd);
		return r;
	}
	(*out)->own_fd = true;
	/* (a compressed trace.dat file, or one through a pipe: to memory) */
	(*out)->may_spill = true;
	/* trace.dat is recognised by content, not by name (detect.c) */
	char head[16];
	ssize_t n = S_ISREG(st.st_mode) ? pread(fd, head, sizeof(head), 0) : -1;
	if (n > 0 && vmsa_input_detect(head, (size_t)n) == VMSA_INPUT_TRACEDAT) {
		struct vmsa_source *s = *out;
		r = vmsa_tracedat_open(&s->td, path, o ? o->tracedat_reader : NULL, &s->counts,
				       s->traits);
		if (r) {
			vmsa_source_close(s);
			*out = NULL;
			return r;
		}
		s->format = "trace.dat";
	}
	return 0;
}

static void pool_free(struct vmsa_source *s);

void vmsa_source_close(struct vmsa_source *s)
{
	if (!s)
		return;
	pool_free(s);
	vmsa_tracedat_close(s->td);
	vmsa_decomp_free(s->dec);
	if (s->memfd >= 0)
		close(s->memfd);
	if (s->own_fd)
		close(s->fd);
	vmsa_text_parser_free(s->parser);
	free(s->name);
	free(s->buf);
	free(s);
}

void vmsa_source_set_reject_cb(struct vmsa_source *s, vmsa_reject_cb cb, void *payload)
{
	s->reject_cb = cb;
	s->reject_payload = payload;
}

void vmsa_source_set_poll_timeout(struct vmsa_source *s, int ms)
{
	s->poll_ms = ms;
}

void vmsa_source_set_threads(struct vmsa_source *s, int n)
{
	s->threads = n < 0 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : n;
}

/*
 * The workers for a regular file of @size bytes: the count asked for, or
 * with 0 (auto) the CPUs for a file of VMSA_AUTO_THREADS_BYTES or more and
 * none below.  The threads' fixed costs (starting them, each decoder
 * learning the layouts again) take most of what they gain on smaller
 * files: two threads ran at 0.99x of one at 5 MB, 1.1x at 20 to 60 MB,
 * 1.3x at 150 MB and 1.45x to 1.6x at 300 to 700 MB of the real capture
 * and the generated 6.1 text on the development machine (2 CPUs).
 */
static int workers_for(const struct vmsa_source *s, off_t size)
{
	if (s->threads)
		return s->threads;
	if (size < (off_t)VMSA_AUTO_THREADS_BYTES)
		return 1;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	return ncpu < 1 ? 1 : ncpu > MAX_WORKERS ? MAX_WORKERS : (int)ncpu;
}

int vmsa_source_workers(const struct vmsa_source *s)
{
	return s->workers;
}

void vmsa_source_no_spill(struct vmsa_source *s)
{
	s->may_spill = false;
}

void vmsa_source_set_unwrap(struct vmsa_source *s, int on)
{
	s->unwrap = on != 0;
	if (!s->td)
		s->traits->unwrap_on = s->unwrap;
}

void vmsa_source_set_batch_bytes(struct vmsa_source *s, size_t bytes)
{
	s->batch_bytes = bytes < 1 ? 1 : bytes > BUF_CAP ? BUF_CAP : bytes;
}

const struct vmsa_source_counts *vmsa_source_counts(const struct vmsa_source *s)
{
	return &s->counts;
}

const struct vmsa_traits *vmsa_source_traits(const struct vmsa_source *s)
{
	return s->traits;
}

const char *vmsa_source_name(const struct vmsa_source *s)
{
	return s->name;
}

const char *vmsa_source_stream_error(const struct vmsa_source *s, uint64_t *offset)
{
	*offset = 0;
	return s->dec ? vmsa_decomp_error(s->dec, offset) : NULL;
}

const char *vmsa_source_format(const struct vmsa_source *s)
{
	if (s->td)
		return "trace.dat";
	if (strcmp(s->format, "text") != 0)
		return s->format;
	switch (s->traits->dialect) {
	case VMSA_DIALECT_PERF:
		return "perf-script";
	case VMSA_DIALECT_FTRACE:
		return "ftrace-text";
	default:
		return "text";
	}
}

/* ---- the sliding buffer ------------------------------------------- */

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return VMSA_E_IO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * A trace.dat libtracecmd cannot open by name, compressed or coming through
 * a pipe or standard input (it seeks): what is in the buffer and the rest
 * of the stream go to an anonymous memory file (nothing is written to
 * disk; it takes the trace.dat's size in memory), which libtracecmd opens
 * by its /proc/self/fd name; SWITCHED or an error.
 */
static int spill_tracedat(struct vmsa_source *s)
{
	s->memfd = memfd_create("vmscan-analyze-trace.dat", MFD_CLOEXEC);
	if (s->memfd < 0)
		return VMSA_E_IO;
	int r = write_all(s->memfd, s->buf + s->start, s->end - s->start);
	s->start = s->end = 0;
	while (!r && (s->dec ? !vmsa_decomp_done(s->dec) : !s->eof)) {
		size_t got = 0;
		if (s->dec) {
			r = vmsa_decomp_read(s->dec, s->buf, BUF_CAP, &got);
		} else {
			ssize_t n = read(s->fd, s->buf, BUF_CAP);
			if (n < 0)
				r = errno == EINTR || errno == EAGAIN ? VMSA_E_AGAIN : VMSA_E_IO;
			else if (n == 0)
				s->eof = true;
			else
				got = (size_t)n;
		}
		if (r == VMSA_E_AGAIN)
			r = 0;
		else if (!r)
			r = write_all(s->memfd, s->buf, got);
	}
	if (s->dec)
		s->traits->compressed_bytes = vmsa_decomp_in_bytes(s->dec);
	if (r)
		return r;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", s->memfd);
	memset(&s->counts, 0, sizeof(s->counts)); /* records are counted, not bytes */
	/* (by a forked reader: a reader program could not open this process's
	 * /proc/self path, and vmsa_tracedat_open() would fork one anyway) */
	r = vmsa_tracedat_open(&s->td, path, NULL, &s->counts, s->traits);
	s->format = "trace.dat";
	return r ? r : SWITCHED;
}

/*
 * The first bytes of a pipe or stdin: binary inputs are refused (detect.c),
 * but for a compressed trace.dat file.
 */
static int check_magic(struct vmsa_source *s)
{
	switch (vmsa_input_detect(s->buf + s->start, s->end - s->start)) {
	case VMSA_INPUT_TRACEDAT:
		if (s->may_spill)
			return spill_tracedat(s);
		s->format = "trace.dat";
		/* (a source of a descriptor, or one merged with others) */
		return VMSA_E_STDIN_BINARY;
	case VMSA_INPUT_PERFDATA:
		s->format = "perf.data";
		return VMSA_E_UNSUPPORTED;
	default:
		return 0;
	}
}

/*
 * Text whose first line ends in a '\r' alone (an old Mac's line ends, or
 * a tool that turned each newline into one): its lines end so, and are
 * read so, else the whole input would be one line.
 */
static bool cr_lines(const char *h, size_t n)
{
	const char *cr = memchr(h, '\r', n);
	return cr && cr + 1 < h + n && cr[1] != '\n' && !memchr(h, '\n', (size_t)(cr - h));
}

/*
 * The first bytes read: a pipe's compression (the bytes read so far, kept
 * back while they could still begin a magic number, become the start of
 * the compressed stream), then the magic numbers of what it holds.
 */
static int first_bytes(struct vmsa_source *s, struct vmsa_source_counts *c)
{
	if (!s->sniffed) {
		const char *h = s->buf + s->start;
		size_t n = s->end - s->start;
		if (n < VMSA_COMPRESSION_MAGIC_MAX && vmsa_compression_maybe(h, n))
			return 0; /* more to read first (at the end: text) */
		s->sniffed = true;
		enum vmsa_compression comp = vmsa_compression_detect(h, n);
		if (comp) {
			int r = vmsa_decomp_new(&s->dec, s->fd, comp, h, n);
			if (r)
				return r;
			s->traits->compression = comp;
			s->traits->compressed_bytes = n;
			c->bytes_read -= n;
			s->end = s->start;
			return 0;
		}
	}
	s->first_chunk = false;
	int r = check_magic(s);
	if (!r && cr_lines(s->buf + s->start, s->end - s->start))
		s->sep = '\r';
	return r;
}

/*
 * Reads more into the buffer.  When the buffer is full without a newline,
 * the line is too long: nothing is read, *too_long is set the first time
 * (its first bytes stay at s->buf until the next call) and the rest of the
 * line is skipped (discarding).
 */
static int fill(struct vmsa_source *s, struct vmsa_source_counts *c, bool *too_long)
{
	*too_long = false;
	if (s->start > 0) {
		memmove(s->buf, s->buf + s->start, s->end - s->start);
		s->end -= s->start;
		s->start = 0;
	}
	if (s->end == BUF_CAP) {
		*too_long = !s->discarding;
		s->discarding = true;
		s->start = s->end; /* dropped by the next call */
		return 0;
	}
	if (s->poll_ms >= 0 && !(s->dec && vmsa_decomp_pending(s->dec))) {
		struct pollfd pfd = {.fd = s->fd, .events = POLLIN};
		int r = poll(&pfd, 1, s->poll_ms);
		if (r == 0 || (r < 0 && errno == EINTR))
			return VMSA_E_AGAIN;
	}
	size_t want = BUF_CAP - s->end < READ_CHUNK ? BUF_CAP - s->end : READ_CHUNK;
	ssize_t n;
	if (s->dec) {
		size_t got;
		int r = vmsa_decomp_read(s->dec, s->buf + s->end, want, &got);
		s->traits->compressed_bytes = vmsa_decomp_in_bytes(s->dec);
		if (r)
			return r;
		if (got == 0 && !vmsa_decomp_done(s->dec))
			return 0; /* nothing yet: the caller comes back */
		n = (ssize_t)got;
	} else {
		n = read(s->fd, s->buf + s->end, want);
	}
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return VMSA_E_AGAIN;
		return errno == EISDIR ? VMSA_E_ISDIR : VMSA_E_IO;
	}
	if (n == 0) {
		s->eof = true;
		return 0;
	}
	c->bytes_read += (uint64_t)n;
	s->end += (size_t)n;
	if (s->first_chunk)
		return first_bytes(s, c);
	return 0;
}

/* ---- serial ---------------------------------------------------------- */

static void report_reject(struct vmsa_source *s, uint64_t line_no, enum vmsa_reject_reason r,
			  const char *line, size_t len)
{
	if (s->reject_cb)
		s->reject_cb(s->name, line_no, r, line, len, s->reject_payload);
}

static void reject_too_long(struct vmsa_source_counts *c)
{
	c->lines_read++;
	c->lines_rejected++;
	c->rejected_by_reason[VMSA_REJECT_LINE_TOO_LONG]++;
}

/*
 * Another line glued to the one at line (len bytes, read up to s->start): it
 * begins at rest in it, and is read next, as the same line of the input.
 * (Unwrapped lines leave bytes of theirs between the joined line's end and
 * the newline: the rest goes there, before the newline.)
 */
static __attribute__((noinline, cold)) void split_line(struct vmsa_source *s, const char *line,
						       size_t len, size_t rest)
{
	char *e = s->buf + s->start;
	if (e > s->buf && e[-1] == s->sep && e - 1 >= line + len)
		e--;
	size_t n = len - rest;
	memmove(e - n, line + rest, n);
	s->start = (size_t)(e - n - s->buf);
	s->line_no--;
}

/*
 * An event's timestamp against the latest of the events before it
 * (traits.timestamps_out_of_order); lost-events markers have none.  While
 * the events go forward, ts_gate is the one before's: the latest before is
 * it or ts_max, the latest before the last step back, and only a step back
 * looks further.  Behind by more than VMSA_TS_BACK_NS (a timestamp damaged
 * ahead), every event is looked at (ts_gate UINT64_MAX) until one is back
 * within it.
 */
static __attribute__((noinline)) void ts_back(struct vmsa_source *s, const struct vmsa_event *ev)
{
	if (ev->type == VMSA_EV_LOST)
		return;
	uint64_t t = ev->ts_ns;
	if (s->ts_gate != UINT64_MAX && s->ts_gate > s->ts_max)
		s->ts_max = s->ts_gate;
	if (t > s->ts_max)
		s->ts_max = t;
	if (t + VMSA_TS_BACK_NS < s->ts_max) {
		s->traits->timestamps_out_of_order++;
		s->ts_gate = UINT64_MAX;
	} else {
		s->ts_gate = t;
	}
}

static inline __attribute__((always_inline)) void ts_order(struct vmsa_source *s,
							   const struct vmsa_event *ev)
{
	if (ev->ts_ns < s->ts_gate) /* (CPUs' events a little out of step: often) */
		ts_back(s, ev);
	else
		s->ts_gate = ev->ts_ns;
}

/* 1: an event for the caller; 0: line consumed.  (last: the input's last
 * line, without its newline) */
static inline __attribute__((always_inline)) int
handle_line_(struct vmsa_source *s, const char *line, size_t len, struct vmsa_event *ev, bool last)
{
	enum vmsa_reject_reason reason;
	s->line_no++;
	int k = vmsa_text_count_line(s->parser, &s->counts, line, len, ev, &reason);
	if (last && k == VMSA_LINE_EVENT &&
	    vmsa_text_cut_event(s->parser, &s->counts, line, len, ev, &reason))
		k = VMSA_LINE_REJECTED;
	switch (k) {
	case VMSA_LINE_EVENT:
		ts_order(s, ev);
		return 1;
	case VMSA_LINE_LOST:
		return 1;
	case VMSA_LINE_REJECTED:
		report_reject(s, s->line_no, reason, line, len);
		return 0;
	case VMSA_LINE_IGNORED:
		return 0;
	default:
		if (k == (VMSA_LINE_EVENT | VMSA_LINE_SPLIT))
			ts_order(s, ev);
		split_line(s, line, len, vmsa_text_take_split(s->parser));
		if (k == (VMSA_LINE_REJECTED | VMSA_LINE_SPLIT))
			report_reject(s, s->line_no + 1, reason, line, len);
		return k != (VMSA_LINE_REJECTED | VMSA_LINE_SPLIT);
	}
}

static inline __attribute__((always_inline)) int
handle_line(struct vmsa_source *s, const char *line, size_t len, struct vmsa_event *ev)
{
	return handle_line_(s, line, len, ev, false);
}

static __attribute__((noinline)) int handle_last_line(struct vmsa_source *s, const char *line,
						      size_t len, struct vmsa_event *ev)
{
	return handle_line_(s, line, len, ev, true);
}

static int next_binary(struct vmsa_source *s, struct vmsa_event *ev)
{
	for (;;) {
		uint64_t rec = 0;
		enum vmsa_reject_reason why = VMSA_REJECT_BAD_HEADER;
		int r = vmsa_tracedat_next(s->td, ev, &rec, &why);
		if (r != VMSA_TRACEDAT_REJECTED)
			return r;
		if (s->reject_cb)
			s->reject_cb(s->name, rec, why, "", 0, s->reject_payload);
	}
}

/*
 * --unwrap: the line [b, b + *len) of [b, b + n) joined with the lines that go
 * on it (vmsa_text_unwrap()); what to step over to the next line, or 0 when
 * the line after is not whole yet (read more first).
 */
static __attribute__((noinline)) size_t unwrap_line(struct vmsa_source *s, char *b, size_t *len,
						    size_t n)
{
	if (s->discarding || s->sep != '\n')
		return *len + 1;
	unsigned joined;
	size_t line;
	size_t j = vmsa_text_unwrap(s->parser, &s->counts, b, *len, n, s->eof, &joined, &line);
	if (j == SIZE_MAX)
		return 0;
	s->line_no += joined;
	*len = line;
	return j < n ? j + 1 : n; /* (the last line may end without a newline) */
}

/* (unwrap, buffered: constants, so that the usual reading does not look at
 * them; buffered: NEED_READ where the buffer has no whole line left, instead
 * of reading) */
static inline __attribute__((always_inline)) int
next_serial_(struct vmsa_source *s, struct vmsa_event *ev, bool unwrap, bool buffered)
{
	for (;;) {
		char *b = s->buf + s->start;
		size_t n = s->end - s->start;
		char *nl = n ? memchr(b, s->sep, n) : NULL;
		if (nl) {
			size_t len = (size_t)(nl - b), next = len + 1;
			if (unwrap && !(next = unwrap_line(s, b, &len, n)))
				goto more;
			s->start += next;
			if (s->discarding) {
				s->discarding = false;
				continue;
			}
			if (handle_line(s, b, len, ev))
				return 0;
			continue;
		}
		if (s->eof) {
			if (n == 0 || s->discarding) {
				s->start = s->end;
				return VMSA_E_EOF;
			}
			s->start = s->end;
			if (handle_last_line(s, b, n, ev))
				return 0;
			continue;
		}
	more:;
		if (buffered)
			return NEED_READ;
		bool too_long;
		int r = fill(s, &s->counts, &too_long);
		if (too_long) {
			s->line_no++;
			reject_too_long(&s->counts);
			report_reject(s, s->line_no, VMSA_REJECT_LINE_TOO_LONG, s->buf, 256);
		}
		if (r)
			return r;
	}
}

/* events decoded ahead are still to be handed out */
static inline bool ahead_pending(const struct vmsa_source *s)
{
	return s->ahead_next < s->ahead_n;
}

/*
 * The next event into ev, then, with a lookahead, the events of the lines
 * already in the buffer into s->ahead, up to lookahead in all.  Their
 * lines' counts and rejects are counted and told as they are decoded, so
 * events ahead are events analyzed: vmsa_source_pending() says whether
 * some are still to be handed out.  So a reject may be told before the
 * events of up to 15 lines before it are handed out, and the lines that
 * are no events after the last one decoded ahead are counted by then: a
 * stop or report counts up to a buffer's lines more as read (each as
 * ignored or rejected), as the threads' batches do.  (A trace of thousands
 * of tasks in turn misses the caches at each event's task; the statistics
 * taking events one right after the other overlap those misses, which the
 * decoding of a line between two of them kept apart.)
 */
static int next_serial(struct vmsa_source *s, struct vmsa_event *ev)
{
	int r = next_serial_(s, ev, false, false);
	if (r || s->lookahead < 2)
		return r;
	unsigned n = 0;
	while (n < s->lookahead - 1 && next_serial_(s, &s->ahead[n], false, true) == 0)
		n++;
	s->ahead_next = 0;
	s->ahead_n = n;
	return 0;
}

static int next_unwrap(struct vmsa_source *s, struct vmsa_event *ev)
{
	return next_serial_(s, ev, true, false);
}

void vmsa_source_set_lookahead(struct vmsa_source *s, unsigned n)
{
	s->lookahead = n < 1 ? 1 : n > AHEAD_MAX ? AHEAD_MAX : n;
}

bool vmsa_source_pending(const struct vmsa_source *s)
{
	return ahead_pending(s);
}

/* ---- parallel: batches of whole lines -------------------------------- */

static void batch_reset(struct batch *b)
{
	b->off = b->len = b->nev = b->nrej = b->next_ev = b->next_rej = 0;
	b->lines = 0;
	b->long_at = NO_LONG;
	memset(&b->counts, 0, sizeof(b->counts));
	memset(&b->traits, 0, sizeof(b->traits));
	memset(&b->wrap, 0, sizeof(b->wrap));
	b->first_line_top = false;
	b->marker_inst_len = 0;
	b->last = false;
	b->err = b->err_errno = 0;
}

static int add_reject(struct batch *b, uint64_t line, enum vmsa_reject_reason r, size_t off,
		      size_t len)
{
	if (vmsa_grow((void **)&b->rej, &b->rejcap, b->nrej + 1, sizeof(*b->rej), 64))
		return VMSA_E_NOMEM;
	b->rej[b->nrej++] =
		(struct reject_rec){.line = line, .ev_index = b->nev, .reason = r, .off = off, .len = len};
	return 0;
}

/* n bytes at offset at into p, or fewer at the end of the file; -1: error */
static ssize_t pread_full(int fd, char *p, size_t n, uint64_t at)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(fd, p + got, n - got, (off_t)(at + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* vmsa_grow() of an array that may be in the pool's mapping: grown, it
 * moves out of it to allocated memory */
static int batch_grow(void **p, size_t *cap, bool *mapped, size_t need, size_t size)
{
	if (need <= *cap || !*mapped)
		return vmsa_grow(p, cap, need, size, 64);
	void *in_map = *p;
	size_t had = *cap;
	*p = NULL;
	*cap = 0;
	if (vmsa_grow(p, cap, need, size, had ? had : 64)) {
		*p = in_map;
		*cap = had;
		return VMSA_E_NOMEM;
	}
	memcpy(*p, in_map, had * size);
	*mapped = false;
	return 0;
}

/* more bytes of the file after the got read into b->text; *eof at its end */
static int read_more(struct vmsa_source *s, struct batch *b, uint64_t from, size_t *got,
		     size_t want, bool *eof)
{
	if (batch_grow((void **)&b->text, &b->cap, &b->text_mapped, *got + want, 1))
		return VMSA_E_NOMEM;
	ssize_t n = pread_full(s->fd, b->text + *got, want, from + *got);
	if (n < 0)
		return VMSA_E_IO;
	*got += (size_t)n;
	*eof = (size_t)n < want;
	return 0;
}

/*
 * Outside any lock: the lines that start in b's range, the last read on to
 * its newline (to the end of the file without one), as the serial reader
 * takes them: a line of BUF_CAP bytes or more without its newline is too
 * long (b->long_at; the lines before it are the batch's).
 */
static void read_range(struct vmsa_source *s, struct batch *b)
{
	uint64_t from = b->at ? b->at - 1 : 0; /* (the byte before: does a line start at at?) */
	size_t lead = (size_t)(b->at - from), got = 0;
	/*
	 * The kernel copies the file's pages to the text.  Where the text's
	 * place in a page runs 1 to ~31 bytes past the file's, the copy is
	 * slow: 128 KiB reads from a page's start ran at 1.8-2.9 GB/s one
	 * byte past, 5-7 GB/s 16 past, 9-10 GB/s in step or 32 bytes or more
	 * apart (this project's 2-CPU machine; likely the CPU's false
	 * store-to-load dependences).  The consumer's first batch started a
	 * page and read from a page's last byte: one byte past.  Its preads
	 * ran at 1.9 GB/s against the worker's 6.1 GB/s, and two threads took
	 * 1.17x the time they take with the text in step (684 MB of 6.1 text,
	 * alternated 10 times).
	 */
	if (b->text_mapped)
		b->text = b->text_slot + (from & (COPY_ALIGN - 1));
	bool eof;
	/* (tiny ranges, as in tests, read their last line's end only if one starts) */
	int err = read_more(s, b, from, &got,
			    lead + s->batch_bytes + (s->batch_bytes >= TAIL_READ ? TAIL_READ : 0), &eof);
	if (err)
		goto fail;
	size_t range_end = lead + s->batch_bytes < got ? lead + s->batch_bytes : got;
	b->counts.bytes_read = range_end > lead ? range_end - lead : 0;
	size_t first = lead;
	if (lead) {
		const char *nl = range_end ? memchr(b->text, '\n', range_end) : NULL;
		first = nl ? (size_t)(nl + 1 - b->text) : range_end;
	}
	if (first >= range_end) {
		/* no line starts in the range (inside a long line, or after the end) */
		b->last = eof && got <= lead + s->batch_bytes;
		return;
	}
	/* the end of the last line that starts in the range (at ls) */
	const char *lp = memrchr(b->text + first, '\n', range_end - 1 - first);
	size_t ls = lp ? (size_t)(lp + 1 - b->text) : first, scan = range_end - 1, end;
	for (;;) {
		size_t lim = got - ls < BUF_CAP ? got : ls + BUF_CAP;
		const char *nl = memchr(b->text + scan, '\n', lim - scan);
		if (nl) {
			end = (size_t)(nl + 1 - b->text);
			break;
		}
		if (lim - ls >= BUF_CAP) {
			b->long_at = end = ls;
			break;
		}
		if (eof) {
			end = got;
			break;
		}
		size_t want = got - ls < BUF_CAP - (got - ls) ? got - ls : BUF_CAP - (got - ls);
		scan = got;
		err = read_more(s, b, from, &got, want > TAIL_READ ? want : TAIL_READ, &eof);
		if (err)
			goto fail;
	}
	b->off = first;
	b->len = end - first;
	b->last = eof && end == got && b->long_at == NO_LONG; /* (else a later range ends it) */
	if (b->last) /* the ranges after it are not read: their bytes are its */
		b->counts.bytes_read = got - lead;
	return;
fail:
	b->err = err;
	b->err_errno = errno;
	b->last = true;
}

/*
 * An event a worker decoded into its batch, past the caches: the consumer
 * reads it on another core, where the line it lands in was read last (a
 * plain store first takes the line back from that core: the two-thread
 * reading took about 9% longer so).  The consumer's own batches are stored
 * as usual: it reads them next.
 *
 * Its task's name goes with it, into the slot (a longer one, rare, stays
 * in the text): the consumer then reads nothing of a worker's text, whose
 * lines the worker's next pread() into them would otherwise find in the
 * consumer's cache too.  The kernel's copy into lines another core has
 * read ran at a fifth of its speed here (2.5 against 13 GB/s, 256 KiB
 * reads, the other core reading a byte every 192), and the worker's reads
 * took 4 times the consumer's.
 */
static inline void put_event(struct ev_slot *dst, const struct vmsa_event *src)
{
	struct ev_slot w;
	memcpy(&w.ev, src, sizeof(*src));
	if (src->comm_len && src->comm_len <= sizeof(w.comm)) {
		memcpy(w.comm, src->comm, src->comm_len);
		w.ev.comm = dst->comm;
	}
#if defined(__SSE2__) && defined(__x86_64__)
	/* 16 bytes a store, from the slot's start (64-byte aligned) */
	for (size_t i = 0; i < sizeof(w) / 16; i++)
		_mm_stream_si128((__m128i *)(void *)dst + i,
				 _mm_loadu_si128((const __m128i *)(const void *)&w + i));
#else
	*dst = w;
#endif
}

/* Outside any lock: the lines of b through the worker's own decoder. */
static void decode_batch(struct vmsa_text_parser *p, struct batch *b, bool past_caches)
{
	struct vmsa_traits *t = vmsa_text_parser_traits_mut(p);
	memset(t, 0, sizeof(*t));
	vmsa_text_wrap_restart(p);
	const char *s = b->text + b->off, *e = s + b->len;
	while (s < e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		size_t len = (size_t)((nl ? nl : e) - s);
		if (b->nev == b->evcap &&
		    batch_grow((void **)&b->ev, &b->evcap, &b->ev_mapped, b->nev + 1024,
			       sizeof(*b->ev))) {
			b->err = VMSA_E_NOMEM;
			b->last = true;
			break;
		}
		enum vmsa_reject_reason why;
		struct vmsa_event ev;
		int k = vmsa_text_count_line(p, &b->counts, s, len, &ev, &why);
		if (!nl && k == VMSA_LINE_EVENT && vmsa_text_cut_event(p, &b->counts, s, len, &ev, &why))
			k = VMSA_LINE_REJECTED; /* (the input's last line, without its newline) */
		size_t rest = 0;
		if (__builtin_expect(k >= VMSA_LINE_SPLIT, 0)) {
			/* another line glued to it: next, as the same line */
			rest = vmsa_text_take_split(p);
			k &= ~VMSA_LINE_SPLIT;
		}
		switch (k) {
		case VMSA_LINE_EVENT:
			b->first_line_top |= b->lines == 0 && !ev.instance;
			/* fall through */
		case VMSA_LINE_LOST:
			if (past_caches)
				put_event(&b->ev[b->nev++], &ev);
			else
				b->ev[b->nev++].ev = ev;
			break;
		case VMSA_LINE_REJECTED:
			if (add_reject(b, b->lines, why, (size_t)(s - b->text), len)) {
				b->err = VMSA_E_NOMEM;
				b->last = true;
				return;
			}
			break;
		default:
			break;
		}
		if (rest) {
			s += rest;
			continue;
		}
		b->lines++;
		s += len + 1;
	}
	b->traits = *t;
	size_t ml;
	const char *mi = vmsa_text_pending_instance(p, &ml);
	if (mi && ml < sizeof(b->marker_inst)) {
		memcpy(b->marker_inst, mi, ml);
		b->marker_inst_len = (uint8_t)ml;
	}
#ifdef __SSE2__
	_mm_sfence(); /* (put_event()'s stores, before the batch is handed over) */
#endif
	vmsa_text_wrap_end(p, b->counts.lines_read, &b->wrap);
	if (b->long_at != NO_LONG) {
		/* the line too long, after the others: rejected with its first
		 * bytes; the decoder never saw it (as the serial reader's) */
		if (add_reject(b, b->lines, VMSA_REJECT_LINE_TOO_LONG, b->long_at, 256)) {
			b->err = VMSA_E_NOMEM;
			b->last = true;
			return;
		}
		b->lines++;
		reject_too_long(&b->counts);
	}
}

/*
 * Under the lock: a free batch of decoder id's, given the next range, or
 * NULL.  Each decoder has batches of its own (i % ndec == id): their text
 * and events are written by one thread only and read by the consumer, so
 * their cache lines go between two cores, not among all of them.
 */
static struct batch *claim(struct vmsa_source *s, struct pool *pl, int id)
{
	if (pl->stop || pl->reader_done)
		return NULL;
	for (int i = id; i < pl->nb; i += pl->ndec) {
		struct batch *b = &pl->b[i];
		if (b->state == B_FREE) {
			b->state = B_FILLING;
			batch_reset(b);
			b->seq = pl->next_seq++;
			b->at = pl->next_at;
			pl->next_at += s->batch_bytes;
			return b;
		}
	}
	return NULL;
}

/* Outside the lock: b's range read and decoded; then ready, under it */
static void fill_batch(struct vmsa_source *s, struct pool *pl, struct batch *b,
		       struct vmsa_text_parser *parser)
{
	read_range(s, b);
	if (!b->err)
		decode_batch(parser, b, parser != pl->parser); /* (a worker's) */
	pthread_mutex_lock(&pl->lock);
	b->state = B_READY;
	if (b->last) {
		pl->reader_done = true;
		pthread_cond_broadcast(&pl->freed); /* (the workers stop) */
	}
	/* a wake-up only for what is waited for: each costs a system call */
	if (b->last || b->seq == pl->want_seq)
		pthread_cond_signal(&pl->ready);
}

static void *worker(void *arg)
{
	struct vmsa_source *s = arg;
	struct pool *pl = s->pool;
	struct vmsa_text_parser *parser = NULL;
	if (vmsa_text_parser_new(&parser))
		return NULL; /* (the consumer and any other worker do its share) */
	pthread_mutex_lock(&pl->lock);
	int id = ++pl->next_id;
	if (id - 1 < MAX_WORKERS)
		pl->wparser[id - 1] = parser;
	for (;;) {
		struct batch *b;
		while (!(b = claim(s, pl, id)) && !pl->stop && !pl->reader_done)
			pthread_cond_wait(&pl->freed, &pl->lock);
		if (!b)
			break;
		pthread_mutex_unlock(&pl->lock);
		fill_batch(s, pl, b, parser); /* (returns under the lock) */
	}
	if (id - 1 >= MAX_WORKERS)
		vmsa_text_parser_free(parser); /* (else pool_free() frees it) */
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

static void pool_free(struct vmsa_source *s)
{
	struct pool *pl = s->pool;
	if (!pl)
		return;
	pthread_mutex_lock(&pl->lock);
	pl->stop = true;
	pthread_cond_broadcast(&pl->freed);
	pthread_mutex_unlock(&pl->lock);
	for (int i = 0; i < pl->nthreads; i++)
		pthread_join(pl->thread[i], NULL);
	for (int i = 0; i < MAX_WORKERS; i++)
		vmsa_text_parser_free(pl->wparser[i]);
	for (int i = 0; i < pl->nb; i++) {
		if (!pl->b[i].text_mapped)
			free(pl->b[i].text);
		if (!pl->b[i].ev_mapped)
			free(pl->b[i].ev);
		free(pl->b[i].rej);
	}
	free(pl->b);
	vmsa_unmap_huge(pl->map, pl->map_len);
	pthread_mutex_destroy(&pl->lock);
	vmsa_text_parser_free(pl->parser);
	pthread_cond_destroy(&pl->freed);
	pthread_cond_destroy(&pl->ready);
	free(pl);
	s->pool = NULL;
}

/*
 * Workers for a regular file of at least a batch; false: read serially.
 * Files that say they are empty (tracefs' trace_pipe, /proc) may block and
 * deliver little at a time: they are read serially, event by event.
 */
static bool pool_start(struct vmsa_source *s)
{
	struct stat st;
	if (s->threads == 1 || s->poll_ms >= 0 || !s->sniffed || s->dec || fstat(s->fd, &st) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_size < (off_t)s->batch_bytes)
		return false;
	int nworkers = workers_for(s, st.st_size);
	if (nworkers < 2)
		return false;
	/* what the serial reader's first read would refuse, it refuses; and
	 * lines that end in '\r' alone are read by it */
	char head[4096];
	ssize_t n = pread(s->fd, head, sizeof(head), 0);
	enum vmsa_input_kind kind = n < 0 ? VMSA_INPUT_TEXT : vmsa_input_detect(head, (size_t)n);
	if (n < 0 || kind == VMSA_INPUT_TRACEDAT || kind == VMSA_INPUT_PERFDATA ||
	    cr_lines(head, (size_t)n))
		return false;
	struct pool *pl = calloc(1, sizeof(*pl));
	if (!pl)
		return false;
	pl->ndec = nworkers;
	pl->nb = 3 * nworkers;
	pl->b = calloc((size_t)pl->nb, sizeof(*pl->b));
	if (!pl->b || vmsa_text_parser_new(&pl->parser)) {
		free(pl->b);
		free(pl);
		return false;
	}
	/* each batch's text and events (lines of 128 bytes on average) in one
	 * mapping on huge pages: the batches cost a few page faults, not
	 * hundreds each */
	size_t text_cap = s->batch_bytes + 1 + TAIL_READ;
	/* (the events 64-byte aligned; the text placed in its first page) */
	size_t text_room = (text_cap + COPY_ALIGN + 63) / 64 * 64;
	size_t evs = s->batch_bytes / 128 + 64;
	/* (each batch's room starts a page: its text's place in a page is
	 * then from's own) */
	size_t slot = (text_room + evs * sizeof(struct ev_slot) + COPY_ALIGN - 1) / COPY_ALIGN *
		      COPY_ALIGN;
	size_t len = ((size_t)pl->nb * slot + VMSA_HUGE_PAGE - 1) / VMSA_HUGE_PAGE * VMSA_HUGE_PAGE;
	if ((pl->map = vmsa_map_huge(len))) {
		pl->map_len = len;
		for (int i = 0; i < pl->nb; i++) {
			struct batch *b = &pl->b[i];
			b->text = b->text_slot = pl->map + (size_t)i * slot;
			b->cap = text_cap;
			b->ev = (struct ev_slot *)(void *)(b->text + text_room);
			b->evcap = evs;
			b->text_mapped = b->ev_mapped = true;
		}
	}
	pthread_mutex_init(&pl->lock, NULL);
	pthread_cond_init(&pl->freed, NULL);
	pthread_cond_init(&pl->ready, NULL);
	s->pool = pl;
	/* the consumer decodes too while its next batch is not ready: one
	 * thread fewer than the decoders asked for */
	for (int i = 0; i < nworkers - 1; i++) {
		if (pthread_create(&pl->thread[pl->nthreads], NULL, worker, s) != 0)
			break;
		pl->nthreads++;
	}
	if (pl->nthreads == 0) {
		pool_free(s);
		return false;
	}
	s->workers = pl->nthreads + 1;
	return true;
}

void vmsa_counts_add(struct vmsa_source_counts *d, const struct vmsa_source_counts *c)
{
	d->bytes_read += c->bytes_read;
	d->lines_read += c->lines_read;
	d->lines_analyzed += c->lines_analyzed;
	d->lines_filtered += c->lines_filtered;
	d->lines_ignored += c->lines_ignored;
	d->lines_lost_markers += c->lines_lost_markers;
	d->lines_rejected += c->lines_rejected;
	for (int i = 0; i < VMSA_REJECT__COUNT; i++)
		d->rejected_by_reason[i] += c->rejected_by_reason[i];
	d->events_lost += c->events_lost;
	d->lost_markers_without_count += c->lost_markers_without_count;
	d->unknown_vmscan_events += c->unknown_vmscan_events;
}

/* The rejects of the current batch that come before event i. */
static void report_rejects(struct vmsa_source *s, struct batch *b, size_t i)
{
	for (; b->next_rej < b->nrej && b->rej[b->next_rej].ev_index <= i; b->next_rej++) {
		const struct reject_rec *r = &b->rej[b->next_rej];
		report_reject(s, s->line_no + r->line + 1, r->reason, b->text + r->off, r->len);
	}
}

/* The next event of the batches, in place: valid until the next call */
static int next_parallel_ref(struct vmsa_source *s, const struct vmsa_event **ev)
{
	struct pool *pl = s->pool;
	for (;;) {
		struct batch *b = pl->cur;
		if (b) {
			if (b->next_ev == 0 && b->first_line_top && pl->marker_inst_len) {
				/* the record after the marker the batch before ended with */
				struct vmsa_event *e = &b->ev[0].ev;
				memcpy(pl->event_inst, pl->marker_inst, pl->marker_inst_len);
				e->instance = pl->event_inst;
				e->instance_len = pl->marker_inst_len;
				b->traits.top_buffer_events--;
				vmsa_instance_count_add(b->traits.instance_events, e->instance,
							e->instance_len, 1);
				pl->marker_inst_len = 0;
			}
			if (b->next_ev < b->nev) {
				/* written by another core: ask for the next ones early */
				if (b->next_ev + 8 < b->nev) {
					__builtin_prefetch(&b->ev[b->next_ev + 8]);
					__builtin_prefetch(b->ev[b->next_ev + 4].ev.comm);
				}
				report_rejects(s, b, b->next_ev);
				*ev = &b->ev[b->next_ev++].ev;
				ts_order(s, *ev);
				return 0;
			}
			report_rejects(s, b, SIZE_MAX);
			/* the batch is done: its counts join the source's */
			vmsa_counts_add(&s->counts, &b->counts);
			vmsa_traits_add_text(s->traits, &b->traits);
			/* (lines the decoder saw: not a too-long line) */
			if (b->lines - (b->long_at != NO_LONG)) {
				/* a broken event whose first line ended the batch before */
				if (pl->after_head && (pl->after_eq ? b->wrap.first_goes_on_after_eq
								    : b->wrap.first_goes_on))
					s->traits->wrapped_events++;
				pl->after_head = b->wrap.ends_after_head;
				pl->after_eq = b->wrap.ends_in_eq;
				pl->marker_inst_len = b->marker_inst_len;
				memcpy(pl->marker_inst, b->marker_inst, b->marker_inst_len);
			}
			s->line_no += b->lines;
			int err = b->err, err_errno = b->err_errno;
			bool last = b->last;
			pthread_mutex_lock(&pl->lock);
			b->state = B_FREE;
			pl->cur = NULL;
			pl->want_seq++;
			/* (all waiting workers: the batch is one decoder's, and a
			 * signal could wake another, whose batches are all busy,
			 * and leave its owner asleep) */
			pthread_cond_broadcast(&pl->freed);
			pthread_mutex_unlock(&pl->lock);
			if (err) {
				errno = err_errno;
				return err;
			}
			if (last)
				return VMSA_E_EOF;
			continue;
		}
		/* the next batch in file order, waited for at most WAIT_MS */
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += WAIT_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&pl->lock);
		for (;;) {
			for (int i = 0; i < pl->nb && !pl->cur; i++)
				if (pl->b[i].state == B_READY && pl->b[i].seq == pl->want_seq)
					pl->cur = &pl->b[i];
			if (pl->cur)
				break;
			/* not ready: a range of its own meanwhile, if one is free */
			struct batch *mine = claim(s, pl, 0);
			if (mine) {
				pthread_mutex_unlock(&pl->lock);
				fill_batch(s, pl, mine, pl->parser); /* (back under the lock) */
				continue;
			}
			if (pthread_cond_timedwait(&pl->ready, &pl->lock, &until))
				break;
		}
		if (pl->cur)
			pl->cur->state = B_CONSUMING;
		pthread_mutex_unlock(&pl->lock);
		if (!pl->cur)
			return VMSA_E_AGAIN;
	}
}

static int next_parallel(struct vmsa_source *s, struct vmsa_event *ev)
{
	const struct vmsa_event *e;
	int r = next_parallel_ref(s, &e);
	if (!r)
		*ev = *e;
	return r;
}

/* The end (EOF or an error) stays the end */
static int ended(struct vmsa_source *s, int r)
{
	if (r && r != VMSA_E_AGAIN) {
		s->final = r;
		s->final_errno = errno;
	}
	return r;
}

int32_t vmsa_source_peek_pid(const struct vmsa_source *s)
{
	if (s->mode != MODE_SERIAL)
		return -1;
	if (ahead_pending(s)) /* (the next event is decoded already) */
		return s->ahead[s->ahead_next].pid;
	/* the digits before the first "[" + digit that follows spaces (a task
	 * name may hold '['): the header's rules (text_header.c) in brief, on
	 * purpose: a hint may be wrong, and the header's own pass (through
	 * vmsa_text_line_start()'s loop) took half of what the hint saves on a
	 * million short-lived pids (user 770 against 732 ms, none 808) */
	const char *b = s->buf + s->start, *e = s->buf + s->end;
	if (e - b > 96)
		e = b + 96;
	for (const char *q = b; (q = memchr(q, '[', (size_t)(e - q))); q++) {
		if (q + 1 == e || q[1] < '0' || q[1] > '9' || q == b || q[-1] != ' ')
			continue;
		const char *d = q;
		while (d > b && d[-1] == ' ')
			d--;
		int32_t pid = 0, unit = 1;
		const char *end = d;
		for (; d > b && d[-1] >= '0' && d[-1] <= '9' && end - d < 9; d--, unit *= 10)
			pid += (d[-1] - '0') * unit;
		if (d < end)
			return pid;
	}
	return -1;
}

static int next_event(struct vmsa_source *s, struct vmsa_event *ev);

int vmsa_source_next_ref(struct vmsa_source *s, struct vmsa_event *own,
			 const struct vmsa_event **ev)
{
	if (s->mode == MODE_PARALLEL && !s->final)
		return ended(s, next_parallel_ref(s, ev));
	if (ahead_pending(s)) {
		*ev = &s->ahead[s->ahead_next++];
		return 0;
	}
	*ev = own;
	return next_event(s, own);
}

/* a caller's struct vmsa_event of another size (src/abi.h) */
static __attribute__((noinline)) int next_resized(struct vmsa_source *s, struct vmsa_event *ev,
						  size_t ev_size)
{
	struct vmsa_event whole;
	if (ev_size < VMSA_ABI_MIN_EVENT)
		return VMSA_E_INVAL;
	int err = vmsa_source_next(s, &whole);
	if (!err)
		vmsa_abi_out(ev, ev_size, &whole, sizeof whole, VMSA_ABI_MIN_EVENT);
	return err;
}

int vmsa_source_next_sized(struct vmsa_source *s, struct vmsa_event *ev, size_t ev_size)
{
	if (__builtin_expect(ev_size != sizeof *ev, 0))
		return next_resized(s, ev, ev_size);
	if (ahead_pending(s)) {
		*ev = s->ahead[s->ahead_next++];
		return 0;
	}
	return next_event(s, ev);
}

/* vmsa_source_next() but for the events decoded ahead (none are) */
static int next_event(struct vmsa_source *s, struct vmsa_event *ev)
{
	if (s->td)
		return next_binary(s, ev);
	if (s->mode == MODE_UNDECIDED)
		s->mode = s->unwrap ? MODE_UNWRAP : pool_start(s) ? MODE_PARALLEL : MODE_SERIAL;
	if (s->final) {
		errno = s->final_errno;
		return s->final;
	}
	int r = s->mode == MODE_PARALLEL ? next_parallel(s, ev)
		: s->mode == MODE_SERIAL ? next_serial(s, ev)
					 : next_unwrap(s, ev);
	if (r == SWITCHED)
		return next_binary(s, ev);
	return ended(s, r);
}
