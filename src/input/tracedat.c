/* SPDX-License-Identifier: MIT */
/*
 * Binary trace.dat input through libtracecmd.  Records of the top buffer
 * and of every instance (trace-cmd record -B) are merged in timestamp order
 * and decoded by binary.c with the event formats stored in the file; task
 * names come from the file's saved cmdlines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <string.h>
#include <trace-cmd.h>

#include "../internal.h"
#include "input.h"

/*
 * Exported by libtracecmd 3.x and documented there, but declared only in
 * trace-cmd's private header.
 */
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

struct cursor {
	struct tracecmd_input *h;
	struct tep_handle *tep;
	int cpu;
	struct tep_record *rec;
};

struct vmsa_tracedat {
	struct tracecmd_input *top;
	struct tracecmd_input **handles;	/* top, then instances */
	int nhandles;
	struct cursor *pending;		/* its record comes after a lost marker */
	struct cursor *cur;
	int ncur;
	struct vmsa_bin_decoder dec;
	struct tep_record *held;	/* returned last; freed on the next call */
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
 * (a NULL dereference in tracecmd_buffer_instance_handle()'s error path,
 * found by fuzz/fuzz_tracedat).  So a child process reads the whole file
 * first -- every buffer, every record -- and the file is used only if the
 * child finished cleanly within a time proportional to its size.
 */
static void probe_crashed(int sig)
{
	_exit(128 + sig);
}

static int probe(const char *path, off_t size)
{
	pid_t pid = fork();
	if (pid < 0)
		return 0; /* cannot probe: read it as it comes */
	if (pid == 0) {
		/* a crash here is the answer, not an event: end quietly */
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = probe_crashed;
		int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction(sigs[i], &sa, NULL);
		struct tracecmd_input *top = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
		if (!top)
			_exit(2);
		int n = tracecmd_buffer_instances(top);
		for (int i = -1; i < n; i++) {
			struct tracecmd_input *h =
				i < 0 ? top : tracecmd_buffer_instance_handle(top, i);
			if (!h)
				_exit(3);
			for (int c = 0; c < tracecmd_cpus(h); c++) {
				struct tep_record *r;
				while ((r = tracecmd_read_data(h, c))) {
					tep_find_event_by_record(tracecmd_get_tep(h), r);
					tracecmd_free_record(r);
				}
			}
		}
		_exit(0); /* no cleanup: the library's leaks are not ours to report */
	}
	int status = 0;
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	double limit = 30.0 + (double)size / (4 << 20); /* >= 4 MB/s */
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9 >
		    limit) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return VMSA_E_CORRUPT;
		}
		nanosleep(&(struct timespec){0, 2 * 1000 * 1000}, NULL);
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : VMSA_E_CORRUPT;
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
	if (!bad)
		bad = probe(path, st.st_size);
	if (bad)
		return bad;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	struct vmsa_tracedat *td = calloc(1, sizeof(*td));
	if (!td)
		return VMSA_E_NOMEM;
	vmsa_bin_decoder_init(&td->dec, counts, traits);
	td->top = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!td->top) {
		free(td);
		return VMSA_E_CORRUPT;
	}
	int ninst = tracecmd_buffer_instances(td->top);
	if (ninst < 0)
		ninst = 0;
	struct tracecmd_input **hs = calloc((size_t)ninst + 1, sizeof(*hs));
	if (!hs)
		goto nomem;
	int nh = 0;
	hs[nh++] = td->top;
	for (int i = 0; i < ninst; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(td->top, i);
		if (h)
			hs[nh++] = h;
	}
	int total = 0;
	for (int i = 0; i < nh; i++) {
		int c = tracecmd_cpus(hs[i]);
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
		for (int c = 0; c < tracecmd_cpus(hs[i]); c++) {
			struct cursor *k = &td->cur[td->ncur++];
			k->h = hs[i];
			k->tep = tracecmd_get_tep(hs[i]);
			k->cpu = c;
			k->rec = tracecmd_read_data(hs[i], c);
		}
	td->handles = hs;
	td->nhandles = nh;
	traits->tracedat_version = (uint32_t)tracecmd_get_in_file_version(td->top);
	const char *u = tracecmd_get_uname(td->top), *clk = tracecmd_get_trace_clock(td->top);
	snprintf(traits->uname, sizeof(traits->uname), "%s", u ? u : "");
	snprintf(traits->clock, sizeof(traits->clock), "%s", clk ? clk : "");
	traits->cpus = tracecmd_cpus(td->top);
	traits->instances = ninst;
	for (int i = 0; i < nh; i++)
		add_cpustats(traits, tracecmd_get_cpustats(hs[i]));
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
		tracecmd_free_record(td->held);
	for (int i = 0; i < td->ncur; i++)
		if (td->cur[i].rec)
			tracecmd_free_record(td->cur[i].rec);
	for (int i = td->nhandles - 1; i >= 1; i--)
		tracecmd_close(td->handles[i]);
	if (td->top)
		tracecmd_close(td->top);
	free(td->handles);
	free(td->cur);
	vmsa_bin_decoder_release(&td->dec);
	free(td);
}

int vmsa_tracedat_next(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		       enum vmsa_reject_reason *reason)
{
	if (td->held) {
		tracecmd_free_record(td->held);
		td->held = NULL;
	}
	for (;;) {
		struct cursor *best = td->pending;
		td->pending = NULL;
		if (!best)
			for (int i = 0; i < td->ncur; i++)
				if (td->cur[i].rec &&
				    (!best || td->cur[i].rec->ts < best->rec->ts))
					best = &td->cur[i];
		if (!best)
			return VMSA_E_EOF;
		struct tep_record *r = best->rec;
		if (r->missed_events) {
			/* dropped events before this record: a lost marker now,
			 * the record itself on the next call */
			vmsa_bin_lost(&td->dec, r, ev);
			td->pending = best;
			return 0;
		}
		best->rec = tracecmd_read_data(best->h, best->cpu);
		td->dec.counts->lines_read++;
		td->dec.counts->bytes_read += (uint64_t)(r->record_size > 0 ? r->record_size : 0);
		*record_no = td->dec.counts->lines_read;
		switch (vmsa_bin_decode(&td->dec, best->tep, r, ev, reason)) {
		case VMSA_BIN_EVENT:
			td->held = r; /* ev->comm may point into tep; kept until next */
			return 0;
		case VMSA_BIN_REJECTED:
			tracecmd_free_record(r);
			return VMSA_TRACEDAT_REJECTED;
		default:
			tracecmd_free_record(r);
			continue;
		}
	}
}
