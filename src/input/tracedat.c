/* SPDX-License-Identifier: MIT */
/*
 * Binary trace.dat input through libtracecmd.  Records of the top buffer
 * and of every instance (trace-cmd record -B) are merged in timestamp order
 * and decoded by binary.c with the event formats stored in the file; task
 * names come from the file's saved cmdlines.  The library runs in a child
 * process that hands the analyzer what it decoded (see "The child" below).
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <string.h>

#include "../internal.h"
#include "input.h"

struct cursor {
	struct tracecmd_input *h;
	struct tep_handle *tep;
	int cpu;
	struct tep_record *rec;
};

/* The file as libtracecmd reads it: in the child, or in the analyzer when
 * no child can be made. */
struct reader {
	struct tracecmd_input *top;
	struct tracecmd_input **handles;	/* top, then instances */
	int nhandles;
	struct cursor *pending;		/* its record comes after a lost marker */
	struct cursor *cur;
	int ncur;
	struct tep_record *held;	/* returned last; freed on the next call */
};

/* The analyzer's end of the child: the messages it sent, not yet taken. */
struct child {
	pid_t pid;		/* 0: none (the analyzer reads the file itself) */
	int fd;			/* its messages */
	bool ended;		/* it said it finished (M_END) and was reaped */
	int err;		/* what ended it otherwise: returned again */
	double limit;		/* seconds without a message that make it stalled */
	struct timespec last;	/* when the analyzer began to wait, or got bytes last */
	char *in;		/* received: [at, len) not taken yet */
	size_t at, len, cap;
};

struct vmsa_tracedat {
	struct vmsa_dl_tracecmd tc;	/* libtracecmd (libtraceevent: dec.dl) */
	struct vmsa_bin_decoder dec;
	struct reader rd;
	struct child ch;
};

/*
 * Check the fixed part of the file header before libtracecmd reads it: the
 * library (3.1.6) frees twice or allocates without bound on some truncated
 * or corrupted headers (found by tests/e2e/tracedat_corrupt.py under ASan).
 * Layout (trace-cmd's trace-cmd.dat(5)): magic "\x17\x08\x44tracing",
 * version string, endianness byte, long size byte, 4-byte page size; v7
 * adds the compression name and version strings and the 8-byte offset of
 * the first options section; v6 goes on with "header_page" and its size.
 */
static int check_header(int fd)
{
	struct stat st;
	unsigned char b[512];
	if (fstat(fd, &st) || st.st_size < 24)
		return VMSA_E_CORRUPT;
	ssize_t n = pread(fd, b, sizeof(b), 0);
	if (n < 24)
		return VMSA_E_CORRUPT;
	size_t p = 10, end = (size_t)n;
	unsigned version = 0;
	while (p < end && b[p] >= '0' && b[p] <= '9' && p < 14)
		version = version * 10 + (unsigned)(b[p++] - '0');
	if (p >= end || b[p++] != 0 || (version != 6 && version != 7))
		return VMSA_E_CORRUPT;
	if (p + 6 > end)
		return VMSA_E_CORRUPT;
	bool big = b[p++] != 0;
	if (b[p - 1] > 1 || (b[p] != 4 && b[p] != 8))
		return VMSA_E_CORRUPT;
	p++;
#define GETN(v, len)                                                    \
	do {                                                            \
		v = 0;                                                  \
		for (size_t i_ = 0; i_ < (len); i_++)                   \
			v |= (uint64_t)b[p + (big ? (len) - 1 - i_ : i_)] << (8 * i_); \
		p += (len);                                             \
	} while (0)
	uint64_t page;
	GETN(page, 4);
	if (page < 4096 || page > (1u << 20) || (page & (page - 1)))
		return VMSA_E_CORRUPT;
	if (version == 7) {
		for (int str = 0; str < 2; str++) {
			size_t s0 = p;
			while (p < end && b[p] && p - s0 < 64)
				p++;
			if (p >= end || b[p])
				return VMSA_E_CORRUPT;
			p++;
		}
		if (p + 8 > end)
			return VMSA_E_CORRUPT;
		uint64_t opts;
		GETN(opts, 8);
		if (opts < p || opts + 16 > (uint64_t)st.st_size)
			return VMSA_E_CORRUPT;
	} else {
		if (p + 12 + 8 > end || memcmp(b + p, "header_page", 12) != 0)
			return VMSA_E_CORRUPT;
		p += 12;
		uint64_t size;
		GETN(size, 8);
		if (size > (uint64_t)st.st_size - p)
			return VMSA_E_CORRUPT;
	}
#undef GETN
	return 0;
}

/*
 * "CPU: N\n...overrun: X\n...dropped events: Y\n" per CPU and buffer, as
 * trace-cmd saved the kernel's per_cpu/cpuN/stats at the end of recording.
 */
static void add_cpustats(struct vmsa_traits *t, const char *stats)
{
	int cpu = -1;
	for (const char *l = stats; l && *l;) {
		const char *nl = strchr(l, '\n');
		unsigned long long v;
		int c;
		if (sscanf(l, "CPU: %d", &c) == 1)
			cpu = c;
		else if (cpu >= 0 && cpu < 64 &&
			 (sscanf(l, "overrun: %llu", &v) == 1 ||
			  sscanf(l, "dropped events: %llu", &v) == 1)) {
			t->cpu_lost[cpu] += v;
			if (cpu + 1 > t->cpu_stats)
				t->cpu_stats = cpu + 1;
		}
		l = nl ? nl + 1 : NULL;
	}
}


/* ---- the reader: libtracecmd's calls -------------------------------- */

/*
 * The cursor whose record comes next (the earliest; the first of equals),
 * or NULL at the end.
 */
static struct cursor *earliest(struct cursor *cur, int ncur)
{
	struct cursor *best = NULL;
	for (int i = 0; i < ncur; i++)
		if (cur[i].rec && (!best || cur[i].rec->ts < best->rec->ts))
			best = &cur[i];
	return best;
}

/* Opens path with every buffer and reads each CPU's first record; sets the
 * file's traits.  0, VMSA_E_CORRUPT or VMSA_E_NOMEM (then reader_close()). */
static int reader_open(struct vmsa_tracedat *td, const char *path)
{
	struct reader *rd = &td->rd;
	struct vmsa_traits *traits = td->dec.traits;
	td->tc.tracecmd_set_loglevel(TEP_LOG_NONE);
	rd->top = td->tc.tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!rd->top)
		return VMSA_E_CORRUPT;
	int ninst = td->tc.tracecmd_buffer_instances(rd->top);
	if (ninst < 0)
		ninst = 0;
	rd->handles = calloc((size_t)ninst + 1, sizeof(*rd->handles));
	if (!rd->handles)
		return VMSA_E_NOMEM;
	rd->handles[rd->nhandles++] = rd->top;
	for (int i = 0; i < ninst; i++) {
		struct tracecmd_input *h = td->tc.tracecmd_buffer_instance_handle(rd->top, i);
		if (h)
			rd->handles[rd->nhandles++] = h;
	}
	int total = 0;
	for (int i = 0; i < rd->nhandles; i++) {
		int c = td->tc.tracecmd_cpus(rd->handles[i]);
		if (c < 0 || c > 4096)
			return VMSA_E_CORRUPT;
		total += c;
	}
	rd->cur = calloc((size_t)total + 1, sizeof(*rd->cur));
	if (!rd->cur)
		return VMSA_E_NOMEM;
	for (int i = 0; i < rd->nhandles; i++)
		for (int c = 0; c < td->tc.tracecmd_cpus(rd->handles[i]); c++) {
			struct cursor *k = &rd->cur[rd->ncur++];
			k->h = rd->handles[i];
			k->tep = td->tc.tracecmd_get_tep(rd->handles[i]);
			k->cpu = c;
			k->rec = td->tc.tracecmd_read_data(k->h, c);
		}
	traits->tracedat_version = (uint32_t)td->tc.tracecmd_get_in_file_version(rd->top);
	const char *u = td->tc.tracecmd_get_uname(rd->top), *clk = td->tc.tracecmd_get_trace_clock(rd->top);
	snprintf(traits->uname, sizeof(traits->uname), "%s", u ? u : "");
	snprintf(traits->clock, sizeof(traits->clock), "%s", clk ? clk : "");
	traits->cpus = td->tc.tracecmd_cpus(rd->top);
	traits->instances = ninst;
	for (int i = 0; i < rd->nhandles; i++)
		add_cpustats(traits, td->tc.tracecmd_get_cpustats(rd->handles[i]));
	traits->timestamps_ns_precision = 1;
	traits->dialect = VMSA_DIALECT_UNKNOWN;
	return 0;
}

static void reader_close(struct vmsa_tracedat *td)
{
	struct reader *rd = &td->rd;
	if (rd->held)
		td->tc.tracecmd_free_record(rd->held);
	for (int i = 0; i < rd->ncur; i++)
		if (rd->cur[i].rec)
			td->tc.tracecmd_free_record(rd->cur[i].rec);
	for (int i = rd->nhandles - 1; i >= 1; i--)
		td->tc.tracecmd_close(rd->handles[i]);
	if (rd->top)
		td->tc.tracecmd_close(rd->top);
	free(rd->handles);
	free(rd->cur);
	memset(rd, 0, sizeof(*rd));
}

/* vmsa_tracedat_next() of the reader: ev->comm lives until the next call. */
static int reader_next(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		       enum vmsa_reject_reason *reason)
{
	struct reader *rd = &td->rd;
	if (rd->held) {
		td->tc.tracecmd_free_record(rd->held);
		rd->held = NULL;
	}
	if (!td->dec.comms) /* the file's task names are all loaded */
		vmsa_bin_decoder_remember_comms(&td->dec);
	for (;;) {
		struct cursor *best = rd->pending;
		rd->pending = NULL;
		if (!best)
			best = earliest(rd->cur, rd->ncur);
		if (!best)
			return VMSA_E_EOF;
		struct tep_record *r = best->rec;
		if (r->missed_events) {
			/* dropped events before this record: a lost marker now,
			 * the record itself on the next call */
			vmsa_bin_lost(&td->dec, r, ev);
			rd->pending = best;
			return 0;
		}
		best->rec = td->tc.tracecmd_read_data(best->h, best->cpu);
		td->dec.counts->lines_read++;
		td->dec.counts->bytes_read += (uint64_t)(r->record_size > 0 ? r->record_size : 0);
		*record_no = td->dec.counts->lines_read;
		switch (vmsa_bin_decode(&td->dec, best->tep, r, ev, reason)) {
		case VMSA_BIN_EVENT:
			rd->held = r; /* ev->comm may point into tep; kept until next */
			return 0;
		case VMSA_BIN_REJECTED:
			td->tc.tracecmd_free_record(r);
			return VMSA_TRACEDAT_REJECTED;
		default:
			td->tc.tracecmd_free_record(r);
			continue;
		}
	}
}

/* ---- the child ------------------------------------------------------ */

/*
 * libtracecmd 3.1.6 can crash on corrupted files beyond the fixed header
 * (a NULL dereference in tracecmd_buffer_instance_handle()'s error path,
 * found by fuzz/fuzz_tracedat).  So the library runs in a child process:
 * it opens the file, reads and decodes every record (the reader above) and
 * sends the analyzer, through a pipe, each event, each rejected record and
 * the words of the counts and traits that changed since its last message.
 * The analyzer never calls libtracecmd while a child runs, so a crash or a
 * hang there ends only the child, and the file is corrupt: the child died,
 * stalled (no message for a time proportional to the file's size while the
 * analyzer waits for one), or ended without saying it finished.  The file
 * is opened and decoded once, beside the analysis.  When no child can be
 * made (pipe or fork fails), the analyzer reads the file itself.
 *
 * A message: struct msg, then the tallies (the counts, then the traits up
 * to uname, as 64-bit words) that changed since the last message, their
 * new values in the order of the set bits of msg.tallies, then by kind:
 *   M_OPENED, M_END  the whole traits and counts;
 *   M_EVENT          the event's words that are not 0 (the bits of a
 *                    64-bit mask, then the words), then its task name
 *                    (msg.arg bytes, padded to 8);
 *   M_REJECTED       nothing (msg.arg: the reason; its record number is
 *                    the lines_read of the counts);
 *   M_ERROR          nothing (msg.arg: the error, VMSA_E_CORRUPT or _NOMEM).
 * Parent and child are one program image, so the structures go as they are.
 */
enum msg_kind { M_OPENED = 1, M_EVENT, M_REJECTED, M_END, M_ERROR };

struct msg {
	uint32_t kind;
	int32_t arg;
	uint64_t tallies;
};

#define COUNT_WORDS (sizeof(struct vmsa_source_counts) / sizeof(uint64_t))
#define TRAIT_WORDS (offsetof(struct vmsa_traits, uname) / sizeof(uint64_t))
#define TALLY_WORDS (COUNT_WORDS + TRAIT_WORDS)
#define EVENT_WORDS (sizeof(struct vmsa_event) / sizeof(uint64_t))
_Static_assert(sizeof(struct vmsa_source_counts) % sizeof(uint64_t) == 0, "whole words");
_Static_assert(offsetof(struct vmsa_traits, uname) % sizeof(uint64_t) == 0, "whole words");
_Static_assert(sizeof(struct vmsa_event) % 8 == 0 && sizeof(struct vmsa_traits) % 8 == 0,
	       "whole words");
_Static_assert(TALLY_WORDS <= 64 && EVENT_WORDS <= 64, "a mask of 64 bits");

#define COMM_MAX 1016		/* (task names are at most 16 bytes in a kernel) */
#define SEND_AT (64u << 10)	/* the child writes when it has this much */
#define MSG_MAX (sizeof(struct msg) + 8 * TALLY_WORDS + 8 + sizeof(struct vmsa_event) + \
		 COMM_MAX + sizeof(struct vmsa_traits) + sizeof(struct vmsa_source_counts))
#define OUT_CAP (SEND_AT + MSG_MAX)
#define IN_CAP ((256u << 10) + MSG_MAX)

struct out {
	int fd;
	char *b;
	size_t len;
	uint64_t last[TALLY_WORDS];	/* the tallies as last sent */
};

static void tallies(const struct vmsa_tracedat *td, uint64_t *w)
{
	memcpy(w, td->dec.counts, COUNT_WORDS * sizeof(uint64_t));
	memcpy(w + COUNT_WORDS, td->dec.traits, TRAIT_WORDS * sizeof(uint64_t));
}

static void flush(struct out *o)
{
	for (size_t done = 0; done < o->len;) {
		ssize_t w = write(o->fd, o->b + done, o->len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(4); /* the analyzer is gone */
		done += (size_t)w;
	}
	o->len = 0;
}

static void put(struct out *o, const void *p, size_t n)
{
	memcpy(o->b + o->len, p, n);
	o->len += n;
}

/* The words of w[0..n) that are not the same as in was (0 when NULL): a mask,
 * then those words; was is updated. */
static uint64_t put_words(struct out *o, const uint64_t *w, uint64_t *was, size_t n)
{
	uint64_t mask = 0;
	for (size_t i = 0; i < n; i++)
		if (w[i] != (was ? was[i] : 0)) {
			mask |= 1ull << i;
			put(o, &w[i], sizeof(w[i]));
			if (was)
				was[i] = w[i];
		}
	return mask;
}

/* A message's head and the tallies that changed. */
static void put_head(struct out *o, const struct vmsa_tracedat *td, uint32_t kind, int32_t arg)
{
	uint64_t now[TALLY_WORDS];
	tallies(td, now);
	struct msg m = {.kind = kind, .arg = arg};
	size_t head = o->len;
	o->len += sizeof(m);
	m.tallies = put_words(o, now, o->last, TALLY_WORDS);
	memcpy(o->b + head, &m, sizeof(m));
}

static void put_whole(struct out *o, const struct vmsa_tracedat *td, uint32_t kind)
{
	put_head(o, td, kind, 0);
	put(o, td->dec.traits, sizeof(*td->dec.traits));
	put(o, td->dec.counts, sizeof(*td->dec.counts));
}

static void put_event(struct out *o, const struct vmsa_tracedat *td, const struct vmsa_event *ev)
{
	int32_t n = ev->comm_len <= COMM_MAX ? (int32_t)ev->comm_len : COMM_MAX;
	put_head(o, td, M_EVENT, n);
	uint64_t w[EVENT_WORDS];
	struct vmsa_event e = *ev;
	e.comm = NULL; /* (the name follows) */
	memcpy(w, &e, sizeof(w));
	size_t at = o->len;
	o->len += sizeof(uint64_t);
	uint64_t mask = put_words(o, w, NULL, EVENT_WORDS);
	memcpy(o->b + at, &mask, sizeof(mask));
	put(o, ev->comm, (size_t)n);
	static const char pad[8];
	put(o, pad, (8 - (size_t)n % 8) % 8);
}

static void child_crashed(int sig)
{
	_exit(128 + sig);
}

static __attribute__((noreturn)) void child_main(struct vmsa_tracedat *td, const char *path, int fd)
{
	/* a crash here is the answer, not an event: end quietly */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = child_crashed;
	int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	struct out o = {.fd = fd, .b = malloc(OUT_CAP)};
	if (!o.b)
		_exit(5);
	int err = reader_open(td, path);
	if (err) {
		put_head(&o, td, M_ERROR, err);
		flush(&o);
		_exit(0); /* no cleanup: the library's leaks are not ours to report */
	}
	tallies(td, o.last);
	put_whole(&o, td, M_OPENED);
	flush(&o);
	for (;;) {
		struct vmsa_event ev;
		uint64_t rec = 0;
		enum vmsa_reject_reason why = VMSA_REJECT_BAD_HEADER;
		int r = reader_next(td, &ev, &rec, &why);
		if (r == 0) {
			put_event(&o, td, &ev);
		} else if (r == VMSA_TRACEDAT_REJECTED) {
			put_head(&o, td, M_REJECTED, (int32_t)why);
		} else {
			if (r == VMSA_E_EOF)
				put_whole(&o, td, M_END);
			else
				put_head(&o, td, M_ERROR, r);
			flush(&o);
			_exit(0);
		}
		if (o.len >= SEND_AT)
			flush(&o);
	}
}

/* ---- the analyzer's end --------------------------------------------- */

static int child_start(struct child *ch, struct vmsa_tracedat *td, const char *path, off_t size)
{
	int p[2];
	if (pipe(p))
		return 0; /* no child: the file is read as it comes */
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20); /* (a smaller pipe works too) */
	ch->in = malloc(IN_CAP);
	pid_t pid = ch->in ? fork() : -1;
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		free(ch->in);
		ch->in = NULL;
		return 0;
	}
	if (pid == 0) {
		close(p[0]);
		child_main(td, path, p[1]);
	}
	close(p[1]);
	ch->pid = pid;
	ch->fd = p[0];
	ch->cap = IN_CAP;
	ch->limit = 30.0 + (double)size / (4 << 20); /* >= 4 MB/s */
	return 0;
}

/* Ends the child if it still runs and reaps it. */
static void child_end(struct child *ch)
{
	if (ch->pid) {
		int status;
		if (!ch->ended)
			kill(ch->pid, SIGKILL);
		while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR)
			;
		ch->pid = 0;
	}
	if (ch->fd >= 0)
		close(ch->fd);
	ch->fd = -1;
}

/* At least n bytes received and not taken (n <= MSG_MAX): 0, or
 * VMSA_E_CORRUPT when the child ended or stalled first (it is ended). */
static int want(struct child *ch, size_t n)
{
	if (ch->len - ch->at >= n)
		return 0;
	/* (what is left is shorter than a message) */
	memmove(ch->in, ch->in + ch->at, ch->len - ch->at);
	ch->len -= ch->at;
	ch->at = 0;
	clock_gettime(CLOCK_MONOTONIC, &ch->last); /* (the time waited counts, not the time since) */
	while (ch->len - ch->at < n) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double left = ch->limit - (double)(now.tv_sec - ch->last.tv_sec) -
			      (double)(now.tv_nsec - ch->last.tv_nsec) / 1e9;
		if (left <= 0)
			goto gone; /* stalled */
		struct pollfd q = {.fd = ch->fd, .events = POLLIN};
		int r = poll(&q, 1, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
		if (r <= 0)
			continue; /* (EINTR, or the time is looked at again) */
		ssize_t got = read(ch->fd, ch->in + ch->len, ch->cap - ch->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			goto gone; /* it ended without finishing */
		ch->len += (size_t)got;
		clock_gettime(CLOCK_MONOTONIC, &ch->last);
	}
	return 0;
gone:
	child_end(ch);
	return VMSA_E_CORRUPT;
}

/* The words of a mask (put_words()) at p into w[0..n), n <= 64. */
static const char *take_words(const char *p, uint64_t mask, void *w)
{
	for (; mask; mask &= mask - 1, p += sizeof(uint64_t))
		memcpy((char *)w + 8 * (size_t)__builtin_ctzll(mask), p, sizeof(uint64_t));
	return p;
}

/*
 * The child's next message, its tallies applied: 0 with *m and *body (what
 * follows the tallies) set, or VMSA_E_CORRUPT.  *body lives until the next
 * call.
 */
static int next_msg(struct vmsa_tracedat *td, struct msg *m, const char **body)
{
	struct child *ch = &td->ch;
	int err = want(ch, sizeof(*m));
	if (err)
		return err;
	memcpy(m, ch->in + ch->at, sizeof(*m));
	if (m->kind < M_OPENED || m->kind > M_ERROR || (TALLY_WORDS < 64 && m->tallies >> TALLY_WORDS))
		goto bad;
	size_t size = sizeof(*m) + 8 * (size_t)__builtin_popcountll(m->tallies);
	switch (m->kind) {
	case M_OPENED:
	case M_END:
		size += sizeof(struct vmsa_traits) + sizeof(struct vmsa_source_counts);
		break;
	case M_EVENT: {
		if (m->arg < 0 || m->arg > COMM_MAX || (err = want(ch, size + 8)))
			goto bad_or_err;
		uint64_t ev;
		memcpy(&ev, ch->in + ch->at + size, sizeof(ev));
		if (EVENT_WORDS < 64 && ev >> EVENT_WORDS)
			goto bad;
		size += 8 + 8 * (size_t)__builtin_popcountll(ev) + ((size_t)m->arg + 7) / 8 * 8;
		break;
	}
	default:
		break;
	}
	if ((err = want(ch, size)))
		return err;
	const char *p = ch->in + ch->at + sizeof(*m);
	uint64_t t[TALLY_WORDS];
	tallies(td, t);
	p = take_words(p, m->tallies, t);
	memcpy(td->dec.counts, t, COUNT_WORDS * sizeof(uint64_t));
	memcpy(td->dec.traits, t + COUNT_WORDS, TRAIT_WORDS * sizeof(uint64_t));
	*body = p;
	ch->at += size;
	return 0;
bad:
	err = 0;
bad_or_err:
	if (err)
		return err;
	child_end(ch);
	return VMSA_E_CORRUPT;
}

/* A message's whole traits and counts, taken as they are. */
static void take_whole(struct vmsa_tracedat *td, const char *body)
{
	memcpy(td->dec.traits, body, sizeof(*td->dec.traits));
	memcpy(td->dec.counts, body + sizeof(*td->dec.traits), sizeof(*td->dec.counts));
}

/* The child's error (M_ERROR): one of those it may send, else corrupt. */
static int child_error(struct vmsa_tracedat *td, const struct msg *m)
{
	child_end(&td->ch);
	return m->arg == VMSA_E_NOMEM ? VMSA_E_NOMEM : VMSA_E_CORRUPT;
}

static int open_(struct vmsa_tracedat **out, const char *path, struct vmsa_source_counts *counts,
		 struct vmsa_traits *traits, bool child)
{
	*out = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return VMSA_E_IO;
	struct stat st;
	int bad = fstat(fd, &st) ? VMSA_E_IO : check_header(fd);
	close(fd);
	if (bad)
		return bad;
	struct vmsa_tracedat *td = calloc(1, sizeof(*td));
	if (!td)
		return VMSA_E_NOMEM;
	td->ch.fd = -1;
	/* the libraries first (a file is corrupt only if they can read it) */
	int err = vmsa_bin_decoder_init(&td->dec, counts, traits);
	if (!err)
		err = vmsa_dl_open_tracecmd(&td->tc);
	if (!err && child)
		err = child_start(&td->ch, td, path, st.st_size);
	if (!err && td->ch.pid) {
		struct msg m;
		const char *body;
		err = next_msg(td, &m, &body);
		if (!err && m.kind == M_OPENED)
			take_whole(td, body);
		else if (!err)
			err = m.kind == M_ERROR ? child_error(td, &m) : VMSA_E_CORRUPT;
	} else if (!err) {
		err = reader_open(td, path);
	}
	if (err) {
		vmsa_tracedat_close(td);
		return err;
	}
	*out = td;
	return 0;
}

int vmsa_tracedat_open(struct vmsa_tracedat **out, const char *path,
		       struct vmsa_source_counts *counts, struct vmsa_traits *traits)
{
	return open_(out, path, counts, traits, true);
}

int vmsa_tracedat_open_here(struct vmsa_tracedat **out, const char *path,
			    struct vmsa_source_counts *counts, struct vmsa_traits *traits)
{
	return open_(out, path, counts, traits, false);
}

void vmsa_tracedat_close(struct vmsa_tracedat *td)
{
	if (!td)
		return;
	child_end(&td->ch);
	free(td->ch.in);
	reader_close(td);
	vmsa_bin_decoder_release(&td->dec);
	VMSA_DL_CLOSE(&td->tc);
	free(td);
}

/* The next of the child's messages as vmsa_tracedat_next() returns it. */
static int from_child(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		      enum vmsa_reject_reason *reason)
{
	struct msg m;
	const char *body;
	int err = next_msg(td, &m, &body);
	if (err)
		return err;
	switch (m.kind) {
	case M_EVENT: {
		uint64_t mask;
		memcpy(&mask, body, sizeof(mask));
		memset(ev, 0, sizeof(*ev));
		ev->comm = take_words(body + sizeof(mask), mask, ev);
		ev->comm_len = (size_t)m.arg;
		return 0;
	}
	case M_REJECTED:
		if (m.arg < 0 || m.arg >= VMSA_REJECT__COUNT)
			break;
		*reason = (enum vmsa_reject_reason)m.arg;
		*record_no = td->dec.counts->lines_read;
		return VMSA_TRACEDAT_REJECTED;
	case M_END:
		take_whole(td, body);
		td->ch.ended = true;
		child_end(&td->ch);
		return VMSA_E_EOF;
	case M_ERROR:
		return child_error(td, &m);
	default:
		break;
	}
	child_end(&td->ch);
	return VMSA_E_CORRUPT;
}

int vmsa_tracedat_next(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		       enum vmsa_reject_reason *reason)
{
	if (td->ch.err)
		return td->ch.err;
	if (!td->ch.pid)
		return td->ch.ended ? VMSA_E_EOF : reader_next(td, ev, record_no, reason);
	int r = from_child(td, ev, record_no, reason);
	if (r < 0 && r != VMSA_E_EOF)
		td->ch.err = r;
	return r;
}
