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
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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
	int buffer;	/* the buffer's index: 0 the top, 1.. the instances */
	struct tep_record *rec;
	/* the pages of the CPU's data its records were on (the file's offsets,
	 * or libtracecmd's of the data decompressed): each page of its size
	 * (the headers') gives a record, one after the other (account()) */
	int64_t size;		/* bytes, as the headers give them */
	int64_t page;		/* the page size */
	uint64_t mask;		/* ~(page - 1) */
	int64_t first_page, last_page;
	uint64_t pages;		/* pages with records, in order */
	bool gap;		/* a page without a record between two with, or one
				 * whose records end before its commit */
	int64_t end, commit;	/* the last page's: where its last record read
				 * ends, where its data ends (header + commit),
				 * as offsets of the CPU's data */
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
	/* the end of the file, as the reader tells the analyzer (M_TAIL) */
	uint64_t *stat_lost;		/* by CPU: overrun + dropped, the CPU stats' */
	bool *missed;			/* by CPU: a record said events were missed */
	int ncpu;			/* of those two */
	uint64_t short_cpus;		/* CPUs not read to the end of their data */
	bool nomem;			/* one of them ran out of memory */
	bool ended;			/* told (reader_tail()) */
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
	struct name {		/* the task names it gave, by pid (NAME_SLOTS) */
		int32_t pid;
		uint32_t len, cap;
		bool set;
		char *s;
	} *names;
};

/* What the reader tells at the end (M_TAIL; see struct reader). */
struct tail_msg {
	uint64_t stats_lost;	/* the CPU stats' lost events no record told of */
	uint64_t short_cpus;
	int32_t nomem;
	uint32_t pad;
};

struct vmsa_tracedat {
	struct vmsa_dl_tracecmd tc;	/* libtracecmd (libtraceevent: dec.dl) */
	struct vmsa_bin_decoder dec;
	struct reader rd;
	struct child ch;
	struct tail_msg tail;	/* the child's M_TAIL */
	bool have_tail;
	/* the buffers by index, as the reader or the child gave them: [0] the
	 * top (name NULL), then the instances (their names copied), each with
	 * its slot in traits.instance_events once it has one (-1: not yet) */
	struct buffer {
		char *name;
		size_t len;
		int slot;
	} *buffer;
	int nbuffers;
};

/* Buffer i's name: copied into td's list ("" for the top's); 0 or VMSA_E_NOMEM. */
static int set_buffer_name(struct vmsa_tracedat *td, int i, const char *name, size_t len)
{
	if (i < 0 || i > 4096)
		return VMSA_E_CORRUPT;
	if (i >= td->nbuffers) {
		struct buffer *b = realloc(td->buffer, (size_t)(i + 1) * sizeof(*b));
		if (!b)
			return VMSA_E_NOMEM;
		memset(b + td->nbuffers, 0, (size_t)(i + 1 - td->nbuffers) * sizeof(*b));
		td->buffer = b;
		td->nbuffers = i + 1;
	}
	struct buffer *b = &td->buffer[i];
	free(b->name);
	*b = (struct buffer){.slot = -1};
	if (i == 0)
		return 0;
	if (!(b->name = malloc(len + 1)))
		return VMSA_E_NOMEM;
	memcpy(b->name, name, len);
	b->name[len] = '\0';
	b->len = len;
	return 0;
}

/* ev (an event or a lost marker) is of buffer i: named, and counted by it */
static void of_buffer(struct vmsa_tracedat *td, int i, struct vmsa_event *ev)
{
	struct vmsa_traits *t = td->dec.traits;
	if (i <= 0 || i >= td->nbuffers) {
		ev->instance = NULL;
		ev->instance_len = 0;
		t->top_buffer_events++;
		return;
	}
	struct buffer *b = &td->buffer[i];
	ev->instance = b->name;
	ev->instance_len = b->len;
	/* the slot it was counted in first (a table's names stay where they
	 * were put, and the file's traits are not cleared while it is read) */
	if (b->slot >= 0) {
		t->instance_events[b->slot].count++;
		return;
	}
	b->slot = vmsa_instance_count_add(t->instance_events, b->name, b->len, 1);
}

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
/* CPU cpu's slots in rd's arrays (grown): 0, or VMSA_E_NOMEM. */
static int cpu_slot(struct reader *rd, int cpu)
{
	if (cpu < rd->ncpu)
		return 0;
	int n = cpu + 1 > 2 * rd->ncpu ? cpu + 1 : 2 * rd->ncpu;
	uint64_t *l = realloc(rd->stat_lost, (size_t)n * sizeof(*l));
	if (!l)
		return VMSA_E_NOMEM;
	rd->stat_lost = l;
	bool *m = realloc(rd->missed, (size_t)n * sizeof(*m));
	if (!m)
		return VMSA_E_NOMEM;
	rd->missed = m;
	memset(l + rd->ncpu, 0, (size_t)(n - rd->ncpu) * sizeof(*l));
	memset(m + rd->ncpu, 0, (size_t)(n - rd->ncpu) * sizeof(*m));
	rd->ncpu = n;
	return 0;
}

/* Records of CPU cpu told of missed events (a lost marker). */
static void cpu_missed(struct reader *rd, int cpu)
{
	if (cpu >= 0 && cpu < (1 << 20) && !cpu_slot(rd, cpu))
		rd->missed[cpu] = true;
}

/* As the analyzer's traits keep the first 64 CPUs' (the JSON's list), the
 * reader keeps every CPU's: their lost events count whatever the CPU. */
static int add_cpustats(struct vmsa_traits *t, struct reader *rd, const char *stats)
{
	int cpu = -1;
	for (const char *l = stats; l && *l;) {
		const char *nl = strchr(l, '\n');
		unsigned long long v;
		int c;
		if (sscanf(l, "CPU: %d", &c) == 1)
			cpu = c < (1 << 20) ? c : -1;
		else if (cpu >= 0 && (sscanf(l, "overrun: %llu", &v) == 1 ||
				      sscanf(l, "dropped events: %llu", &v) == 1)) {
			if (cpu_slot(rd, cpu))
				return VMSA_E_NOMEM;
			rd->stat_lost[cpu] += v;
			if (cpu < 64) {
				t->cpu_lost[cpu] += v;
				if (cpu + 1 > t->cpu_stats)
					t->cpu_stats = cpu + 1;
			}
		}
		l = nl ? nl + 1 : NULL;
	}
	return 0;
}

/*
 * Whether this process can still map what libtracecmd maps to read a CPU
 * (its page maps are of up to a CPU's data; 8 MiB here): a CPU that ended
 * early for want of memory does not always leave errno ENOMEM (under
 * ulimit -v the library's read ended with errno 0), and under a limit of
 * address space it is a map that fails.
 */
static bool room_to_map(void)
{
	size_t n = (size_t)8 << 20;
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return false;
	munmap(p, n);
	return true;
}

/*
 * k read its next record (k->rec; NULL: the CPU's end): the pages its
 * records were on.  At its end the CPU is short (rd->short_cpus) unless
 * every page of its data gave records, in order, up to its commit:
 * libtracecmd ends a CPU silently at a page it cannot read (a page header
 * whose commit is past the page, a block that does not decompress, memory
 * it cannot map), skips a page without records (a zeroed one), and ends a
 * page at a record whose length leads past the commit.  (trace-cmd writes
 * a CPU's data as the ring buffer's pages, each with events to its commit:
 * on every page of the real captures the last record ends at the commit.)
 * An end for want of memory is told apart by room_to_map().
 */
static __attribute__((noinline)) void account(struct vmsa_tracedat *td, struct cursor *k)
{
	struct reader *rd = &td->rd;
	struct tep_record *r = k->rec;
	if (r) {
		int64_t pg = (int64_t)(r->offset & k->mask);
		if (!k->pages++)
			k->first_page = pg;
		else if (pg != k->last_page + k->page || k->end != k->commit)
			k->gap = true;
		k->last_page = pg;
		/* (the CPU's kbuffer holds r's page: the next is loaded when
		 * a record is asked for past r's) */
		struct kbuffer *kb = td->tc.tracecmd_record_kbuf(k->h, r);
		k->commit = kb ? pg + td->dec.dl.kbuffer_start_of_data(kb) +
					 td->dec.dl.kbuffer_subbuffer_size(kb)
			       : -1;
		k->end = (int64_t)r->offset + r->record_size;
		return;
	}
	uint64_t want = k->size > 0 ? (uint64_t)((k->size + k->page - 1) / k->page) : 0;
	if (k->gap || k->pages != want || (k->pages && k->end != k->commit)) {
		rd->short_cpus++;
		rd->nomem |= !room_to_map();
	}
}

/* The next record of k's CPU into k->rec, accounted (a record on the page
 * of the one before: where it ends; else account()). */
static inline void advance(struct vmsa_tracedat *td, struct cursor *k)
{
	struct tep_record *r = k->rec = td->tc.tracecmd_read_data(k->h, k->cpu);
	if (__builtin_expect(r && (int64_t)(r->offset & k->mask) == k->last_page, 1)) {
		k->end = (int64_t)r->offset + r->record_size;
		return;
	}
	account(td, k);
}

/*
 * At the end: CPUs whose records were on pages of another CPU of the same
 * buffer (the headers' offset or size pointing into the data of another:
 * its records read twice) are short too.
 */
static void overlaps(struct reader *rd)
{
	for (int i = 0; i < rd->ncur; i++) {
		const struct cursor *a = &rd->cur[i];
		for (int j = i + 1; a->pages && j < rd->ncur; j++) {
			const struct cursor *b = &rd->cur[j];
			if (b->h == a->h && b->pages && a->first_page <= b->last_page &&
			    b->first_page <= a->last_page)
				rd->short_cpus++;
		}
	}
}

/* The events the CPU stats say were lost (overrun, dropped) on CPUs whose
 * records told of no missed events (no record told of them); where records
 * did, their counts stand, as trace-cmd report prints them. */
static uint64_t stats_lost(const struct reader *rd)
{
	uint64_t n = 0;
	for (int cpu = 0; cpu < rd->ncpu; cpu++)
		if (!rd->missed[cpu])
			n += rd->stat_lost[cpu];
	return n;
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
	if (!rd->top) /* (as at a CPU's end: memory, or the file) */
		return !room_to_map() ? VMSA_E_NOMEM : VMSA_E_CORRUPT;
	int ninst = td->tc.tracecmd_buffer_instances(rd->top);
	if (ninst < 0)
		ninst = 0;
	rd->handles = calloc((size_t)ninst + 1, sizeof(*rd->handles));
	if (!rd->handles)
		return VMSA_E_NOMEM;
	rd->handles[rd->nhandles++] = rd->top;
	if (set_buffer_name(td, 0, NULL, 0))
		return VMSA_E_NOMEM;
	for (int i = 0; i < ninst; i++) {
		struct tracecmd_input *h = td->tc.tracecmd_buffer_instance_handle(rd->top, i);
		const char *name = td->tc.tracecmd_buffer_instance_name(rd->top, i);
		if (!h)
			continue;
		if (set_buffer_name(td, rd->nhandles, name ? name : "", name ? strlen(name) : 0))
			return VMSA_E_NOMEM;
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
			k->buffer = i;
			k->size = (int64_t)td->tc.tracecmd_get_cpu_file_size(k->h, c);
			k->page = td->tc.tracecmd_page_size(k->h);
			if (k->page <= 0 || (k->page & (k->page - 1)))
				return VMSA_E_CORRUPT;
			k->mask = ~(uint64_t)(k->page - 1);
			k->last_page = -1;
			advance(td, k);
		}
	traits->tracedat_version = (uint32_t)td->tc.tracecmd_get_in_file_version(rd->top);
	const char *u = td->tc.tracecmd_get_uname(rd->top), *clk = td->tc.tracecmd_get_trace_clock(rd->top);
	snprintf(traits->uname, sizeof(traits->uname), "%s", u ? u : "");
	snprintf(traits->clock, sizeof(traits->clock), "%s", clk ? clk : "");
	traits->cpus = td->tc.tracecmd_cpus(rd->top);
	traits->instances = ninst;
	for (int i = 0; i < rd->nhandles; i++)
		if (add_cpustats(traits, rd, td->tc.tracecmd_get_cpustats(rd->handles[i])))
			return VMSA_E_NOMEM;
	traits->timestamps_ns_precision = 1;
	traits->dialect = VMSA_DIALECT_UNKNOWN;
	vmsa_bin_decoder_remember_comms(&td->dec); /* the file's task names are all loaded */
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
	free(rd->stat_lost);
	free(rd->missed);
	memset(rd, 0, sizeof(*rd));
}

/*
 * The reader's next record in timestamp order (k: its cursor), or NULL at
 * the end.  A record after dropped events (missed_events) stays its
 * cursor's: the caller makes the lost marker and clears missed_events, and
 * the record comes again next.
 */
static struct tep_record *reader_take(struct vmsa_tracedat *td, struct cursor **k)
{
	struct reader *rd = &td->rd;
	struct cursor *best = rd->pending;
	rd->pending = NULL;
	if (!best)
		best = earliest(rd->cur, rd->ncur);
	if (!best)
		return NULL;
	*k = best;
	struct tep_record *r = best->rec;
	if (r->missed_events) {
		rd->pending = best;
		cpu_missed(rd, r->cpu);
	} else {
		advance(td, best);
	}
	return r;
}

/* What the reader tells at its end (every cursor ended). */
static struct tail_msg reader_tail(struct reader *rd)
{
	overlaps(rd);
	return (struct tail_msg){.stats_lost = stats_lost(rd), .short_cpus = rd->short_cpus,
				 .nomem = rd->nomem};
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
	for (;;) {
		struct cursor *k;
		struct tep_record *r = reader_take(td, &k);
		if (!r) {
			if (!rd->ended) {
				td->tail = reader_tail(rd);
				td->have_tail = rd->ended = true;
			}
			return VMSA_E_EOF;
		}
		if (r->missed_events) {
			vmsa_bin_lost(&td->dec, r, ev);
			of_buffer(td, k->buffer, ev);
			return 0;
		}
		td->dec.counts->lines_read++;
		td->dec.counts->bytes_read += (uint64_t)(r->record_size > 0 ? r->record_size : 0);
		*record_no = td->dec.counts->lines_read;
		switch (vmsa_bin_decode(&td->dec, k->tep, r, ev, reason)) {
		case VMSA_BIN_EVENT:
			rd->held = r; /* ev->comm may point into tep; kept until next */
			of_buffer(td, k->buffer, ev);
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
 * it opens the file and reads the records of every buffer in timestamp
 * order (the reader's order), and sends the analyzer through a pipe what
 * the analyzer's decoder needs of each: the record's event id, task, CPU,
 * timestamp and the bytes the decoding reads; the description of each
 * event id (vmsa_bin_describe()) and each task's name once.  The analyzer
 * decodes and counts them as vmsa_bin_decode() would.  It never calls
 * libtracecmd while a child runs, so a crash or a hang there ends only the
 * child, and the file is corrupt: the child died, stalled (no message for
 * a time proportional to the file's size while the analyzer waits for one),
 * or ended without saying it finished.  The file is opened once and read
 * beside the analysis.  When no child can be made (pipe or fork fails), the
 * analyzer reads the file itself.
 *
 * A message is a struct msg and len bytes (a multiple of 8):
 *   M_READY   struct hello: the child runs (first, before it opens the
 *             file), and which build it is: a reader program that does not
 *             say it, or says another build (whose structures may be laid
 *             out otherwise), is not one, and a child is forked instead;
 *   M_OPENED  the traits and counts after opening (the file's uname, CPUs...);
 *   M_DESC    int32 id, 4 bytes, the description (vmsa_bin_desc_size bytes);
 *   M_COMM    struct comm_msg, the name: the task name of the records of
 *             pid from now on;
 *   M_RECORD  struct rec_msg, then the bytes of the record decoding reads;
 *   M_LOST    struct lost_msg: events lost before the next record;
 *   M_BUFFER  int32 index, uint32 length, the name: a buffer instance's
 *             (index 1.., as rec_msg.buffer and lost_msg.buffer say it);
 *   M_TAIL    struct tail_msg: what the end of the file says (before M_END);
 *   M_END     nothing: every record was sent;
 *   M_ERROR   int32: VMSA_E_CORRUPT or VMSA_E_NOMEM.
 * Parent and child are one build of the library (a forked child is the
 * same image; a reader program says it is in M_READY), so the structures go
 * as they are.
 */
enum msg_kind {
	M_OPENED = 1, M_DESC, M_COMM, M_RECORD, M_LOST, M_END, M_ERROR, M_READY, M_BUFFER, M_TAIL
};

struct msg {
	uint32_t kind;
	uint32_t len;
};

struct comm_msg {
	int32_t pid;
	uint32_t len;
};

struct rec_msg {
	int32_t id;		/* -1: its type could not be read */
	int32_t pid;
	int32_t cpu;
	int32_t size;		/* the record's data size */
	uint64_t ts;
	int32_t record_size;	/* its size in the file (bytes_read) */
	uint32_t n;		/* the bytes that follow */
	int32_t buffer;		/* 0: the top buffer; 1..: an instance (M_BUFFER) */
	uint32_t pad;
};

struct lost_msg {
	uint64_t ts;
	int64_t missed;
	int32_t cpu;
	int32_t buffer;
};

/* M_READY's body: what the analyzer's end must find the same in the
 * reader's, or the reader is of another build */
struct hello {
	char magic[8];		/* "vmsa-rd" */
	uint32_t protocol;	/* HELLO_PROTOCOL: the messages' kinds and bodies */
	uint32_t abi;		/* VMSA_ABI_VERSION (docs/abi.md) */
	/* the sizes of what goes as it is */
	uint32_t traits, counts, rec, lost, comm, tail;
	char version[16];	/* VMSA_VERSION */
};
#define HELLO_PROTOCOL 2	/* (1: M_READY had no body) */

static struct hello hello_of_this_build(void)
{
	struct hello h = {.magic = "vmsa-rd", .protocol = HELLO_PROTOCOL, .abi = VMSA_ABI_VERSION,
			  .traits = sizeof(struct vmsa_traits),
			  .counts = sizeof(struct vmsa_source_counts),
			  .rec = sizeof(struct rec_msg), .lost = sizeof(struct lost_msg),
			  .comm = sizeof(struct comm_msg), .tail = sizeof(struct tail_msg)};
	snprintf(h.version, sizeof(h.version), "%s", VMSA_VERSION);
	return h;
}

#define COMM_MAX 4096		/* (sent cut there: past VMSA_COMM_MAX the records are rejected anyway) */
#define DATA_MAX (1u << 16)	/* bytes of a record decoding reads, at most (need) */
#define SEND_AT (256u << 10)	/* the child writes when it has this much */
#define MSG_MAX (sizeof(struct msg) + sizeof(struct vmsa_traits) + \
		 sizeof(struct vmsa_source_counts) + sizeof(struct rec_msg) + DATA_MAX + COMM_MAX)
#define OUT_CAP (SEND_AT + MSG_MAX)
#define IN_CAP ((512u << 10) + MSG_MAX)
/* the task names the analyzer has, by pid: as the child's, one slot a pid */
#define NAME_SLOTS 1024

static size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The bytes of a record (size) a message carries: those decoding reads (need). */
static uint32_t record_bytes(unsigned need, int size)
{
	uint32_t n = size > 0 ? (uint32_t)size : 0;
	return need < n ? need : n;
}

struct out {
	int fd;
	char *b;
	size_t len;
	uint8_t *told;		/* the event ids whose description was sent */
	size_t ntold;
	struct {
		int32_t pid;
		const char *comm; /* (the decoder's, which keeps it) */
	} names[NAME_SLOTS];
};

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

/* A message of kind with room for len bytes (zeroed up to a multiple of 8). */
static char *put(struct out *o, uint32_t kind, size_t len)
{
	if (o->len + sizeof(struct msg) + pad8(len) > OUT_CAP)
		flush(o);
	struct msg m = {.kind = kind, .len = (uint32_t)pad8(len)};
	memcpy(o->b + o->len, &m, sizeof(m));
	char *p = o->b + o->len + sizeof(m);
	memset(p + (len & ~(size_t)7), 0, pad8(len) - (len & ~(size_t)7));
	o->len += sizeof(m) + pad8(len);
	return p;
}

/* The traits and counts as they travel (M_OPENED, and the reader program's
 * stdin): the traits, then the counts. */
#define WHOLE_SIZE (sizeof(struct vmsa_traits) + sizeof(struct vmsa_source_counts))
static void whole_to(char *b, const struct vmsa_traits *t, const struct vmsa_source_counts *c)
{
	memcpy(b, t, sizeof(*t));
	memcpy(b + sizeof(*t), c, sizeof(*c));
}

static void whole_from(const char *b, struct vmsa_traits *t, struct vmsa_source_counts *c)
{
	memcpy(t, b, sizeof(*t));
	memcpy(c, b + sizeof(*t), sizeof(*c));
}

static void put_whole(struct out *o, const struct vmsa_tracedat *td)
{
	whole_to(put(o, M_OPENED, WHOLE_SIZE), td->dec.traits, td->dec.counts);
}

static void put_error(struct out *o, int err)
{
	int32_t e = err;
	memcpy(put(o, M_ERROR, sizeof(e)), &e, sizeof(e));
}

/* The record r of cursor k, described, and what the analyzer does not have yet. */
static void put_record(struct out *o, struct vmsa_tracedat *td, struct cursor *k,
		       struct tep_record *r)
{
	int id, pid = 0;
	const char *comm = NULL;
	size_t clen = 0;
	unsigned need;
	const struct evdesc *d = vmsa_bin_describe(&td->dec, k->tep, r, &id, &pid, &comm, &clen, &need);
	if (!d) {
		id = -1;
	} else if ((size_t)id >= o->ntold || !o->told[id]) {
		if ((size_t)id >= o->ntold) {
			size_t n = (size_t)id + 64;
			uint8_t *t = realloc(o->told, n);
			if (!t)
				_exit(5);
			memset(t + o->ntold, 0, n - o->ntold);
			o->told = t;
			o->ntold = n;
		}
		o->told[id] = 1;
		char *p = put(o, M_DESC, 8 + vmsa_bin_desc_size);
		int32_t i = id;
		memcpy(p, &i, sizeof(i));
		vmsa_bin_desc_wire(&td->dec, d, p + 8);
	}
	if (comm) {
		unsigned s = (unsigned)pid % NAME_SLOTS;
		if (clen > COMM_MAX)
			clen = COMM_MAX;
		if (o->names[s].comm != comm || o->names[s].pid != pid) {
			struct comm_msg c = {.pid = pid, .len = (uint32_t)clen};
			char *p = put(o, M_COMM, sizeof(c) + clen);
			memcpy(p, &c, sizeof(c));
			memcpy(p + sizeof(c), comm, clen);
			o->names[s].pid = pid;
			o->names[s].comm = comm;
		}
	}
	uint32_t n = record_bytes(need, r->size);
	struct rec_msg m = {.id = id, .pid = pid, .cpu = r->cpu, .size = r->size, .ts = r->ts,
			    .record_size = r->record_size, .n = n, .buffer = k->buffer};
	char *p = put(o, M_RECORD, sizeof(m) + n);
	memcpy(p, &m, sizeof(m));
	memcpy(p + sizeof(m), r->data, n);
}

static void child_crashed(int sig)
{
	_exit(128 + sig);
}

static __attribute__((noreturn)) void child_main(struct vmsa_tracedat *td, const char *path, int fd)
{
	prctl(PR_SET_NAME, "vmsa-tracedat"); /* (what ps and perf call it) */
	/* a crash here is the answer, not an event: end quietly */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = child_crashed;
	int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	struct out *o = calloc(1, sizeof(*o));
	if (!o || !(o->b = malloc(OUT_CAP)))
		_exit(5);
	o->fd = fd;
	struct hello h = hello_of_this_build();
	memcpy(put(o, M_READY, sizeof(h)), &h, sizeof(h));
	flush(o);
	int err = reader_open(td, path);
	if (err) {
		put_error(o, err);
		flush(o);
		_exit(0); /* no cleanup: the library's leaks are not ours to report */
	}
	put_whole(o, td);
	for (int i = 1; i < td->nbuffers; i++) {
		const struct buffer *b = &td->buffer[i];
		char *p = put(o, M_BUFFER, 8 + b->len);
		int32_t idx = i;
		uint32_t n = (uint32_t)b->len;
		memcpy(p, &idx, sizeof(idx));
		memcpy(p + 4, &n, sizeof(n));
		memcpy(p + 8, b->name, b->len);
	}
	flush(o);
	struct cursor *k;
	struct tep_record *r;
	while ((r = reader_take(td, &k))) {
		if (r->missed_events) {
			struct lost_msg l = {.ts = r->ts, .cpu = r->cpu, .missed = r->missed_events,
					     .buffer = k->buffer};
			memcpy(put(o, M_LOST, sizeof(l)), &l, sizeof(l));
			r->missed_events = 0;
			continue;
		}
		put_record(o, td, k, r);
		td->tc.tracecmd_free_record(r);
		if (o->len >= SEND_AT)
			flush(o);
	}
	struct tail_msg t = reader_tail(&td->rd);
	memcpy(put(o, M_TAIL, sizeof(t)), &t, sizeof(t));
	put(o, M_END, 0);
	flush(o);
	_exit(0);
}

int vmsa_tracedat_reader_main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], VMSA_TRACEDAT_READER_ARG) != 0)
		return 0;
	/* the signals a terminal or a kill of the process group sends are the
	 * analyzer's to act on (a ^C asks it for a report, and it reads on):
	 * the reader ends when the analyzer closes the pipe or kills it */
	int ignore[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};
	for (size_t i = 0; i < sizeof(ignore) / sizeof(ignore[0]); i++)
		signal(ignore[i], SIG_IGN);
	/* the messages go to what stdout was; stdout is /dev/null, so that
	 * nothing a library prints there comes between them */
	int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (argc != 3 || fd < 0 || nul < 0 || dup2(nul, STDOUT_FILENO) < 0)
		_exit(2);
	close(nul);
	struct vmsa_tracedat *td = calloc(1, sizeof(*td));
	struct vmsa_traits *traits = calloc(1, sizeof(*traits));
	struct vmsa_source_counts *counts = calloc(1, sizeof(*counts));
	if (!td || !traits || !counts)
		_exit(5);
	/* the analyzer's traits and counts so far, on stdin: all of them, and
	 * the end of the pipe after them */
	char b[WHOLE_SIZE + 1];
	size_t got = 0;
	for (;;) {
		ssize_t n = read(STDIN_FILENO, b + got, sizeof(b) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (got += (size_t)n) >= sizeof(b))
			break;
	}
	if (got != sizeof(b) - 1) {
		fprintf(stderr, "%s: %s is for the library's own use (vmsa_tracedat_reader_main())\n",
			argv[0], VMSA_TRACEDAT_READER_ARG);
		_exit(2);
	}
	whole_from(b, traits, counts);
	td->ch.fd = -1;
	int err = vmsa_bin_decoder_init(&td->dec, counts, traits);
	if (!err)
		err = vmsa_dl_open_tracecmd(&td->tc);
	if (err) {
		struct out o = {.fd = fd, .b = malloc(OUT_CAP)};
		if (!o.b)
			_exit(5);
		put_error(&o, err);
		flush(&o);
		_exit(0);
	}
	child_main(td, argv[2], fd);
}

/* ---- the analyzer's end --------------------------------------------- */

/*
 * The reader as a program of its own: reader (an executable that calls
 * vmsa_tracedat_reader_main() first) run with VMSA_TRACEDAT_READER_ARG and
 * path, its stdout the pipe w, its stdin a pipe that hands it the traits and
 * counts so far (a forked child has them in its copy).  A fresh process, so
 * no page the analyzer has is shared copy-on-write: a forked child's first
 * writes to each page it had from the analyzer are page faults (the 6.12
 * fixture: 29 ms forked, 19 ms read in the analyzer's process).  -1 when it
 * cannot be started (then a child is forked).
 */
static pid_t spawn_reader(const char *reader, const char *path, int w,
			  const struct vmsa_traits *traits, const struct vmsa_source_counts *counts)
{
	int in[2];
	if (pipe2(in, O_CLOEXEC))
		return -1;
	/* the traits and counts wait in the pipe (they fit: the write does not
	 * wait, and no SIGPIPE when the program ends without reading them) */
	char b[WHOLE_SIZE];
	whole_to(b, traits, counts);
	bool ok = write(in[1], b, sizeof(b)) == (ssize_t)sizeof(b);
	close(in[1]);
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	bool fa_ok = ok && !posix_spawn_file_actions_init(&fa);
	bool at_ok = fa_ok && !posix_spawnattr_init(&at);
	/* signals as a program starts with them: none blocked, SIGPIPE ends it */
	sigset_t none, dfl;
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	char *argv[] = {"vmsa-tracedat", VMSA_TRACEDAT_READER_ARG, (char *)path, NULL};
	extern char **environ;
	pid_t pid = -1;
	if (at_ok && (posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO) ||
		      posix_spawn_file_actions_adddup2(&fa, w, STDOUT_FILENO) ||
		      posix_spawnattr_setsigmask(&at, &none) ||
		      posix_spawnattr_setsigdefault(&at, &dfl) ||
		      posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) ||
		      posix_spawn(&pid, reader, &fa, &at, argv, environ)))
		pid = -1;
	if (at_ok)
		posix_spawnattr_destroy(&at);
	if (fa_ok)
		posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	return pid;
}

/*
 * The child: the program reader run (reader not NULL), else forked (td's
 * libraries loaded).  No child when neither can be made: ch->pid stays 0
 * and the analyzer reads the file itself.
 */
static void child_start(struct child *ch, struct vmsa_tracedat *td, const char *path,
			const char *reader, off_t size, const struct vmsa_traits *traits,
			const struct vmsa_source_counts *counts)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC))
		return;
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20); /* (a smaller pipe works too) */
	if (!ch->in)
		ch->in = malloc(IN_CAP);
	if (!ch->names)
		ch->names = calloc(NAME_SLOTS, sizeof(*ch->names));
	pid_t pid = -1;
	if (ch->in && ch->names)
		pid = reader ? spawn_reader(reader, path, p[1], traits, counts) : fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		close(p[0]);
		child_main(td, path, p[1]);
	}
	close(p[1]);
	ch->pid = pid;
	ch->fd = p[0];
	ch->cap = IN_CAP;
	ch->at = ch->len = 0;
	ch->limit = 30.0 + (double)size / (4 << 20); /* >= 4 MB/s */
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

/*
 * The child's next message: 0 with *m and *body (m->len bytes) set, or
 * VMSA_E_CORRUPT.  *body lives until the next call.
 */
static int next_msg(struct child *ch, struct msg *m, const char **body)
{
	int err = want(ch, sizeof(*m));
	if (err)
		return err;
	memcpy(m, ch->in + ch->at, sizeof(*m));
	if (m->len > MSG_MAX - sizeof(*m) || m->len % 8) {
		child_end(ch);
		return VMSA_E_CORRUPT;
	}
	if ((err = want(ch, sizeof(*m) + m->len)))
		return err;
	*body = ch->in + ch->at + sizeof(*m);
	ch->at += sizeof(*m) + m->len;
	return 0;
}

/* Whether the child's first message says it runs (M_READY), as a reader
 * of this very build. */
static bool child_ready(struct child *ch)
{
	struct msg m;
	const char *body;
	struct hello h = hello_of_this_build();
	return !next_msg(ch, &m, &body) && m.kind == M_READY && m.len == pad8(sizeof(h)) &&
	       memcmp(body, &h, sizeof(h)) == 0;
}

/* What a message that is not the one expected says of the child: the error
 * an M_ERROR carries (VMSA_E_NOMEM, or corrupt), else corrupt. */
static int child_error(const struct msg *m, const char *body)
{
	int32_t e = 0;
	if (m->kind == M_ERROR && m->len >= sizeof(e))
		memcpy(&e, body, sizeof(e));
	return e == VMSA_E_NOMEM ? VMSA_E_NOMEM : VMSA_E_CORRUPT;
}

/* The task name the child gave for pid last (M_COMM): into the slot of pid. */
static int take_name(struct child *ch, const struct msg *m, const char *body)
{
	struct comm_msg c;
	if (m->len < sizeof(c))
		return VMSA_E_CORRUPT;
	memcpy(&c, body, sizeof(c));
	if (c.len > COMM_MAX || sizeof(c) + c.len > m->len)
		return VMSA_E_CORRUPT;
	struct name *s = &ch->names[(unsigned)c.pid % NAME_SLOTS];
	if (c.len > s->cap) {
		char *n = realloc(s->s, c.len);
		if (!n)
			return VMSA_E_NOMEM;
		s->s = n;
		s->cap = c.len;
	}
	memcpy(s->s, body + sizeof(c), c.len);
	s->pid = c.pid;
	s->len = c.len;
	s->set = true;
	return 0;
}

/* The next of the child's messages as vmsa_tracedat_next() returns it. */
static int from_child(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		      enum vmsa_reject_reason *reason)
{
	struct child *ch = &td->ch;
	for (;;) {
		struct msg m;
		const char *body;
		int err = next_msg(ch, &m, &body);
		if (err)
			return err;
		switch (m.kind) {
		case M_DESC: {
			int32_t id;
			if (m.len != pad8(8 + vmsa_bin_desc_size))
				return VMSA_E_CORRUPT;
			memcpy(&id, body, sizeof(id));
			if ((err = vmsa_bin_set_desc(&td->dec, id, body + 8)))
				return err;
			continue;
		}
		case M_COMM:
			if ((err = take_name(ch, &m, body)))
				return err;
			continue;
		case M_RECORD: {
			struct rec_msg r;
			if (m.len < sizeof(r))
				return VMSA_E_CORRUPT;
			memcpy(&r, body, sizeof(r));
			const struct name *s = &ch->names[(unsigned)r.pid % NAME_SLOTS];
			bool known = r.id >= 0;
			/* (the bytes decoding reads, no more, no fewer) */
			unsigned need = known ? vmsa_bin_need(&td->dec, r.id) : 0;
			if (r.n > m.len - sizeof(r) || (known && !vmsa_bin_has_desc(&td->dec, r.id)) ||
			    r.n != record_bytes(need, r.size))
				return VMSA_E_CORRUPT;
			td->dec.counts->lines_read++;
			td->dec.counts->bytes_read += (uint64_t)(r.record_size > 0 ? r.record_size : 0);
			*record_no = td->dec.counts->lines_read;
			/* (a name only for events: the child gives one for each of them) */
			switch (vmsa_bin_decode_as(&td->dec, r.id, body + sizeof(r), r.size, r.ts, r.cpu,
						   r.pid, s->s ? s->s : "", s->len, ev, reason)) {
			case VMSA_BIN_EVENT:
				if (!s->set || s->pid != r.pid)
					return VMSA_E_CORRUPT;
				of_buffer(td, r.buffer, ev);
				return 0;
			case VMSA_BIN_REJECTED:
				return VMSA_TRACEDAT_REJECTED;
			default:
				continue;
			}
		}
		case M_LOST: {
			struct lost_msg l;
			if (m.len != sizeof(l))
				return VMSA_E_CORRUPT;
			memcpy(&l, body, sizeof(l));
			vmsa_bin_lost_at(&td->dec, l.ts, l.cpu, l.missed, ev);
			of_buffer(td, l.buffer, ev);
			return 0;
		}
		case M_BUFFER: {
			int32_t idx;
			uint32_t n;
			if (m.len < 8)
				return VMSA_E_CORRUPT;
			memcpy(&idx, body, sizeof(idx));
			memcpy(&n, body + 4, sizeof(n));
			if (idx < 1 || n > m.len - 8)
				return VMSA_E_CORRUPT;
			if ((err = set_buffer_name(td, idx, body + 8, n)))
				return err;
			continue;
		}
		case M_TAIL:
			if (m.len != sizeof(td->tail))
				return VMSA_E_CORRUPT;
			memcpy(&td->tail, body, sizeof(td->tail));
			td->have_tail = true;
			continue;
		case M_END:
			ch->ended = true;
			child_end(ch);
			return td->have_tail ? VMSA_E_EOF : VMSA_E_CORRUPT;
		case M_ERROR:
			child_end(ch);
			return child_error(&m, body);
		default:
			return VMSA_E_CORRUPT;
		}
	}
}

static int open_(struct vmsa_tracedat **out, const char *path, const char *reader,
		 struct vmsa_source_counts *counts, struct vmsa_traits *traits, bool child)
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
	/* a reader program (a path of this process's own fds means nothing to
	 * another program); while it runs, this process loads no library: it
	 * decodes by the descriptions the reader sends */
	bool running = false;
	if (child && reader && strncmp(path, "/proc/self/", 11) != 0) {
		child_start(&td->ch, td, path, reader, st.st_size, traits, counts);
		if (td->ch.pid && !(running = child_ready(&td->ch)))
			child_end(&td->ch); /* not a reader program after all */
	}
	int err = 0;
	if (running) {
		vmsa_bin_decoder_init_bare(&td->dec, counts, traits);
	} else {
		/* the libraries (a file is corrupt only if they can read it),
		 * then a forked child */
		err = vmsa_bin_decoder_init(&td->dec, counts, traits);
		if (!err)
			err = vmsa_dl_open_tracecmd(&td->tc);
		if (!err && child) {
			child_start(&td->ch, td, path, NULL, st.st_size, traits, counts);
			if (td->ch.pid && !child_ready(&td->ch))
				err = VMSA_E_CORRUPT;
		}
	}
	if (!err && td->ch.pid) {
		struct msg m;
		const char *body;
		err = next_msg(&td->ch, &m, &body);
		if (!err && m.kind == M_OPENED && m.len == pad8(WHOLE_SIZE)) {
			whole_from(body, td->dec.traits, td->dec.counts);
		} else if (!err) {
			err = child_error(&m, body);
		}
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

int vmsa_tracedat_open(struct vmsa_tracedat **out, const char *path, const char *reader,
		       struct vmsa_source_counts *counts, struct vmsa_traits *traits)
{
	return open_(out, path, reader, counts, traits, true);
}

int vmsa_tracedat_open_here(struct vmsa_tracedat **out, const char *path,
			    struct vmsa_source_counts *counts, struct vmsa_traits *traits)
{
	return open_(out, path, NULL, counts, traits, false);
}

pid_t vmsa_tracedat_child_pid(const struct vmsa_tracedat *td)
{
	return td->ch.pid;
}

void vmsa_tracedat_close(struct vmsa_tracedat *td)
{
	if (!td)
		return;
	child_end(&td->ch);
	free(td->ch.in);
	for (int i = 0; td->ch.names && i < NAME_SLOTS; i++)
		free(td->ch.names[i].s);
	free(td->ch.names);
	reader_close(td);
	for (int i = 0; i < td->nbuffers; i++)
		free(td->buffer[i].name);
	free(td->buffer);
	vmsa_bin_decoder_release(&td->dec);
	VMSA_DL_CLOSE(&td->tc);
	free(td);
}

/*
 * At the end, what the reader told of it (once): the events the CPU stats
 * say were lost where no record told of them are lost events; each CPU not
 * read to the end of its data is a lost-event marker without a count (how
 * many events it held past its end is not known: events_lost is unknown),
 * and a reader out of memory is an error (VMSA_E_NOMEM), not the file's.
 */
static int tail(struct vmsa_tracedat *td)
{
	if (!td->have_tail)
		return VMSA_E_EOF;
	td->have_tail = false;
	td->dec.counts->events_lost += td->tail.stats_lost;
	td->dec.counts->lost_markers_without_count += td->tail.short_cpus;
	td->dec.traits->tracedat_short += td->tail.short_cpus;
	return td->tail.nomem ? VMSA_E_NOMEM : VMSA_E_EOF;
}

int vmsa_tracedat_next(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		       enum vmsa_reject_reason *reason)
{
	if (td->ch.err)
		return td->ch.err;
	int r;
	if (!td->ch.pid) {
		r = td->ch.ended ? VMSA_E_EOF : reader_next(td, ev, record_no, reason);
	} else {
		r = from_child(td, ev, record_no, reason);
		if (r < 0 && r != VMSA_E_EOF)
			td->ch.err = r;
	}
	if (r == VMSA_E_EOF && (r = tail(td)) != VMSA_E_EOF)
		td->ch.err = r;
	return r;
}
