/* SPDX-License-Identifier: MIT */
/*
 * Binary trace.dat input through libtracecmd.  Records of the top buffer
 * and of every instance (trace-cmd record -B) are merged in timestamp order
 * and decoded by binary.c with the event formats stored in the file; task
 * names come from the file's saved cmdlines.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

/*
 * The child that reads the file ahead of the analyzer (probe_start()): it
 * reports how many record reads it has done; the analyzer does no read
 * the child has not survived.
 */
struct probe {
	pid_t pid;		/* 0: none (could not fork: the file is read as it comes) */
	int fd;			/* its reports */
	uint64_t safe;		/* reads it has done */
	bool opened, done;
	double limit;		/* seconds without a report that make it stalled */
	struct timespec last;	/* of its last report */
};

struct vmsa_tracedat {
	struct vmsa_dl_tracecmd tc;	/* libtracecmd (libtraceevent: dec.dl) */
	struct tracecmd_input *top;
	struct tracecmd_input **handles;	/* top, then instances */
	int nhandles;
	struct cursor *pending;		/* its record comes after a lost marker */
	struct cursor *cur;
	int ncur;
	struct vmsa_bin_decoder dec;
	struct tep_record *held;	/* returned last; freed on the next call */
	struct probe pr;
	uint64_t reads;			/* td->tc.tracecmd_read_data() calls */
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

/*
 * libtracecmd 3.1.6 can crash on corrupted files beyond the fixed header
 * (a NULL dereference in td->tc.tracecmd_buffer_instance_handle()'s error path,
 * found by fuzz/fuzz_tracedat).  So a child process opens the file first
 * and reads every buffer and every record, in the order the analyzer will
 * (merge(): the same library calls), telling the analyzer through a pipe
 * how far it got: the analyzer opens the file only once the child has, and
 * does each record read only after the child has done it.  The two run at
 * the same time; the file is corrupt if the child dies, stalls (no report
 * for a time proportional to the file's size while the analyzer waits for
 * one), or ends without saying it finished.  The child never waits for the
 * analyzer to take a report (a full pipe drops it: the next one says more)
 * but for its last two.
 */
#define PROBE_OPENED UINT64_MAX - 1
#define PROBE_DONE UINT64_MAX
#define PROBE_EVERY 1024

static void probe_crashed(int sig)
{
	_exit(128 + sig);
}

static void say(int fd, uint64_t n)
{
	ssize_t w;
	do
		w = write(fd, &n, sizeof(n));
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)sizeof(n) && !(w < 0 && errno == EAGAIN))
		_exit(4);
}

static void set_blocking(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, on ? fl & ~O_NONBLOCK : fl | O_NONBLOCK);
}

/*
 * The cursor whose record comes next (the earliest; the first of equals),
 * or NULL at the end: the analyzer's order, which the probe follows too.
 */
static struct cursor *earliest(struct cursor *cur, int ncur)
{
	struct cursor *best = NULL;
	for (int i = 0; i < ncur; i++)
		if (cur[i].rec && (!best || cur[i].rec->ts < best->rec->ts))
			best = &cur[i];
	return best;
}

static void probe_child(const struct vmsa_tracedat *td, const char *path, int fd)
{
	/* a crash here is the answer, not an event: end quietly */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_crashed;
	int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	td->tc.tracecmd_set_loglevel(TEP_LOG_NONE);
	struct tracecmd_input *top = td->tc.tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!top)
		_exit(2);
	int n = td->tc.tracecmd_buffer_instances(top);
	if (n < 0)
		n = 0;
	struct tracecmd_input **hs = calloc((size_t)n + 1, sizeof(*hs));
	if (!hs)
		_exit(5);
	int nh = 0, total = 0;
	for (int i = -1; i < n; i++) {
		struct tracecmd_input *h = i < 0 ? top : td->tc.tracecmd_buffer_instance_handle(top, i);
		if (!h)
			continue; /* as the analyzer: that buffer is left out */
		hs[nh++] = h;
		int c = td->tc.tracecmd_cpus(h);
		if (c < 0 || c > 4096)
			_exit(3);
		total += c;
		td->tc.tracecmd_get_cpustats(h);
	}
	td->tc.tracecmd_get_uname(top);
	td->tc.tracecmd_get_trace_clock(top);
	struct cursor *cur = calloc((size_t)total + 1, sizeof(*cur));
	if (!cur)
		_exit(5);
	say(fd, PROBE_OPENED);
	uint64_t reads = 0;
	int ncur = 0;
	for (int i = 0; i < nh; i++)
		for (int c = 0; c < td->tc.tracecmd_cpus(hs[i]); c++) {
			struct cursor *k = &cur[ncur++];
			k->h = hs[i];
			k->tep = td->tc.tracecmd_get_tep(hs[i]);
			k->cpu = c;
			k->rec = td->tc.tracecmd_read_data(hs[i], c);
			reads++;
		}
	free(hs); /* (the handles stay open: the cursors use them) */
	say(fd, reads);
	set_blocking(fd, false);
	/* the analyzer's own reads of each record, by its decoder's copy */
	struct vmsa_bin_decoder dec = td->dec;
	struct cursor *best;
	while ((best = earliest(cur, ncur))) {
		vmsa_bin_read_type(&dec, best->tep, best->rec);
		td->tc.tracecmd_free_record(best->rec);
		best->rec = td->tc.tracecmd_read_data(best->h, best->cpu);
		if (++reads % PROBE_EVERY == 0)
			say(fd, reads);
	}
	set_blocking(fd, true);
	say(fd, reads);
	say(fd, PROBE_DONE);
	_exit(0); /* no cleanup: the library's leaks are not ours to report */
}

static int probe_start(struct probe *pr, const struct vmsa_tracedat *td, const char *path,
		       off_t size)
{
	memset(pr, 0, sizeof(*pr));
	pr->fd = -1;
	int p[2];
	if (pipe(p))
		return 0; /* cannot probe: read it as it comes */
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return 0;
	}
	if (pid == 0) {
		close(p[0]);
		probe_child(td, path, p[1]);
	}
	close(p[1]);
	pr->pid = pid;
	pr->fd = p[0];
	clock_gettime(CLOCK_MONOTONIC, &pr->last);
	pr->limit = 30.0 + (double)size / (4 << 20); /* >= 4 MB/s */
	return 0;
}

/* Ends the child if it still runs; 0 if it finished cleanly, else corrupt. */
static int probe_end(struct probe *pr)
{
	if (!pr->pid)
		return 0;
	int status = 0;
	if (!pr->done)
		kill(pr->pid, SIGKILL);
	while (waitpid(pr->pid, &status, 0) < 0 && errno == EINTR)
		;
	pr->pid = 0;
	if (pr->fd >= 0)
		close(pr->fd);
	pr->fd = -1;
	return pr->done && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : VMSA_E_CORRUPT;
}

/* Waits until the child has opened the file (need == PROBE_OPENED) or done
 * need reads: 0, or VMSA_E_CORRUPT (the child is then ended). */
static int probe_wait(struct probe *pr, uint64_t need)
{
	if (!pr->pid)
		return 0;
	while (!pr->done && (need == PROBE_OPENED ? !pr->opened : pr->safe < need)) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double left = pr->limit - (double)(now.tv_sec - pr->last.tv_sec) -
			      (double)(now.tv_nsec - pr->last.tv_nsec) / 1e9;
		if (left <= 0)
			return probe_end(pr); /* stalled */
		struct pollfd q = {.fd = pr->fd, .events = POLLIN};
		int r = poll(&q, 1, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		uint64_t msg[64];
		ssize_t n = read(pr->fd, msg, sizeof(msg));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || n % (ssize_t)sizeof(msg[0]))
			return probe_end(pr); /* it ended without finishing */
		clock_gettime(CLOCK_MONOTONIC, &pr->last);
		for (ssize_t i = 0; i < n / (ssize_t)sizeof(msg[0]); i++) {
			if (msg[i] == PROBE_DONE)
				pr->done = true;
			else if (msg[i] == PROBE_OPENED)
				pr->opened = true;
			else if (msg[i] > pr->safe)
				pr->safe = msg[i];
		}
	}
	return 0;
}

/* The next record read of the analyzer (the n-th) once the child did it. */
static struct tep_record *read_after_probe(struct vmsa_tracedat *td, struct cursor *k, int *err)
{
	uint64_t n = ++td->reads;
	*err = td->pr.safe >= n || td->pr.done ? 0 : probe_wait(&td->pr, n);
	return *err ? NULL : td->tc.tracecmd_read_data(k->h, k->cpu);
}

int vmsa_tracedat_open(struct vmsa_tracedat **out, const char *path,
		       struct vmsa_source_counts *counts, struct vmsa_traits *traits)
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
	td->pr.fd = -1;
	/* the libraries first (a file is corrupt only if they can read it) */
	int err = vmsa_bin_decoder_init(&td->dec, counts, traits);
	if (!err)
		err = vmsa_dl_open_tracecmd(&td->tc);
	if (!err)
		err = probe_start(&td->pr, td, path, st.st_size);
	if (!err)
		err = probe_wait(&td->pr, PROBE_OPENED);
	if (err) {
		vmsa_tracedat_close(td);
		return err;
	}
	td->tc.tracecmd_set_loglevel(TEP_LOG_NONE);
	td->top = td->tc.tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!td->top)
		goto corrupt;
	int ninst = td->tc.tracecmd_buffer_instances(td->top);
	if (ninst < 0)
		ninst = 0;
	struct tracecmd_input **hs = calloc((size_t)ninst + 1, sizeof(*hs));
	if (!hs)
		goto nomem;
	int nh = 0;
	hs[nh++] = td->top;
	for (int i = 0; i < ninst; i++) {
		struct tracecmd_input *h = td->tc.tracecmd_buffer_instance_handle(td->top, i);
		if (h)
			hs[nh++] = h;
	}
	int total = 0;
	for (int i = 0; i < nh; i++) {
		int c = td->tc.tracecmd_cpus(hs[i]);
		if (c < 0 || c > 4096) {
			td->handles = hs;
			td->nhandles = nh;
			goto corrupt;
		}
		total += c;
	}
	td->cur = calloc((size_t)total + 1, sizeof(*td->cur));
	if (!td->cur) {
		td->handles = hs;
		td->nhandles = nh;
		goto nomem;
	}
	for (int i = 0; i < nh; i++)
		for (int c = 0; c < td->tc.tracecmd_cpus(hs[i]); c++) {
			struct cursor *k = &td->cur[td->ncur++];
			k->h = hs[i];
			k->tep = td->tc.tracecmd_get_tep(hs[i]);
			k->cpu = c;
			k->rec = read_after_probe(td, k, &err);
			if (err) {
				td->handles = hs;
				td->nhandles = nh;
				goto corrupt;
			}
		}
	td->handles = hs;
	td->nhandles = nh;
	traits->tracedat_version = (uint32_t)td->tc.tracecmd_get_in_file_version(td->top);
	const char *u = td->tc.tracecmd_get_uname(td->top), *clk = td->tc.tracecmd_get_trace_clock(td->top);
	snprintf(traits->uname, sizeof(traits->uname), "%s", u ? u : "");
	snprintf(traits->clock, sizeof(traits->clock), "%s", clk ? clk : "");
	traits->cpus = td->tc.tracecmd_cpus(td->top);
	traits->instances = ninst;
	for (int i = 0; i < nh; i++)
		add_cpustats(traits, td->tc.tracecmd_get_cpustats(hs[i]));
	traits->timestamps_ns_precision = 1;
	traits->dialect = VMSA_DIALECT_UNKNOWN;
	*out = td;
	return 0;
nomem:
	vmsa_tracedat_close(td);
	return VMSA_E_NOMEM;
corrupt:
	vmsa_tracedat_close(td);
	return VMSA_E_CORRUPT;
}

void vmsa_tracedat_close(struct vmsa_tracedat *td)
{
	if (!td)
		return;
	if (td->held)
		td->tc.tracecmd_free_record(td->held);
	for (int i = 0; i < td->ncur; i++)
		if (td->cur[i].rec)
			td->tc.tracecmd_free_record(td->cur[i].rec);
	for (int i = td->nhandles - 1; i >= 1; i--)
		td->tc.tracecmd_close(td->handles[i]);
	if (td->top)
		td->tc.tracecmd_close(td->top);
	free(td->handles);
	free(td->cur);
	vmsa_bin_decoder_release(&td->dec);
	probe_end(&td->pr);
	VMSA_DL_CLOSE(&td->tc);
	free(td);
}

int vmsa_tracedat_next(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		       enum vmsa_reject_reason *reason)
{
	if (td->held) {
		td->tc.tracecmd_free_record(td->held);
		td->held = NULL;
	}
	if (!td->dec.comms) /* the file's task names are all loaded */
		vmsa_bin_decoder_remember_comms(&td->dec);
	for (;;) {
		struct cursor *best = td->pending;
		td->pending = NULL;
		if (!best)
			best = earliest(td->cur, td->ncur);
		if (!best) {
			/* the child's end: it finished cleanly, or the file is corrupt */
			int err = probe_wait(&td->pr, PROBE_DONE);
			return err ? err : (err = probe_end(&td->pr)) ? err : VMSA_E_EOF;
		}
		struct tep_record *r = best->rec;
		if (r->missed_events) {
			/* dropped events before this record: a lost marker now,
			 * the record itself on the next call */
			vmsa_bin_lost(&td->dec, r, ev);
			td->pending = best;
			return 0;
		}
		int err;
		best->rec = read_after_probe(td, best, &err);
		if (err) {
			td->tc.tracecmd_free_record(r);
			return err;
		}
		td->dec.counts->lines_read++;
		td->dec.counts->bytes_read += (uint64_t)(r->record_size > 0 ? r->record_size : 0);
		*record_no = td->dec.counts->lines_read;
		switch (vmsa_bin_decode(&td->dec, best->tep, r, ev, reason)) {
		case VMSA_BIN_EVENT:
			td->held = r; /* ev->comm may point into tep; kept until next */
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
