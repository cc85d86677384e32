/* SPDX-License-Identifier: MIT */
/*
 * The source decoded by worker threads must hand on exactly what the serial
 * reader does: the same events in the same order, the same rejected lines
 * with the same line numbers, counts, traits and end status, for batches of
 * any size (down to one byte, so every line boundary is a batch boundary).
 * So must the serial reader decoding several lines at a time (its
 * lookahead, vmsa_source_set_lookahead()).
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <glob.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input/input.h"
#include "internal.h"
#include "vmsa/vmsa.h"
#include "asserts.h"

struct rec {
	struct vmsa_event *ev;
	char **comm;
	size_t nev, cap;
	char *rejects; /* "line reason text\n" each */
	size_t rlen;
	int rc, rc_again;
	struct vmsa_source_counts counts;
	struct vmsa_traits traits;
	char format[32];
};

static void on_reject(const char *name, uint64_t line_no, enum vmsa_reject_reason r,
		      const char *line, size_t len, void *payload)
{
	(void)name;
	struct rec *x = payload;
	char head[64];
	int n = snprintf(head, sizeof(head), "%llu %d ", (unsigned long long)line_no, (int)r);
	x->rejects = realloc(x->rejects, x->rlen + (size_t)n + len + 1);
	ck_assert_ptr_nonnull(x->rejects);
	memcpy(x->rejects + x->rlen, head, (size_t)n);
	memcpy(x->rejects + x->rlen + n, line, len);
	x->rlen += (size_t)n + len;
	x->rejects[x->rlen++] = '\n';
}

/* (ahead > 1: the serial reader's lookahead, its events taken in place) */
static void record_ahead(struct rec *x, const char *path, int threads, size_t batch,
			 unsigned ahead)
{
	memset(x, 0, sizeof(*x));
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	struct vmsa_source *s;
	ck_assert_int_eq(vmsa_source_open_text_fd(&s, fd, path), 0);
	vmsa_source_set_reject_cb(s, on_reject, x);
	vmsa_source_set_threads(s, threads);
	vmsa_source_set_batch_bytes(s, batch);
	vmsa_source_set_lookahead(s, ahead);
	struct vmsa_event own, ev;
	for (;;) {
		const struct vmsa_event *e = &ev;
		int r = ahead > 1 ? vmsa_source_next_ref(s, &own, &e) : vmsa_source_next(s, &ev);
		if (r == 0)
			ev = *e;
		if (r == VMSA_E_AGAIN)
			continue;
		if (r) {
			x->rc = r;
			/* asked again, the end stays the end */
			while ((r = vmsa_source_next(s, &ev)) == VMSA_E_AGAIN)
				;
			x->rc_again = r;
			break;
		}
		if (x->nev == x->cap) {
			x->cap = x->cap ? 2 * x->cap : 1024;
			x->ev = realloc(x->ev, x->cap * sizeof(*x->ev));
			x->comm = realloc(x->comm, x->cap * sizeof(*x->comm));
			ck_assert(x->ev && x->comm);
		}
		/* the task and the buffer instance, compared by content */
		ck_assert(asprintf(&x->comm[x->nev], "%.*s/%s%.*s", ev.comm ? (int)ev.comm_len : 0,
				   ev.comm ? ev.comm : "", ev.instance ? "instance " : "top",
				   (int)ev.instance_len, ev.instance ? ev.instance : "") >= 0);
		ev.comm = ev.instance = NULL;
		x->ev[x->nev++] = ev;
	}
	x->counts = *vmsa_source_counts(s);
	x->traits = *vmsa_source_traits(s);
	snprintf(x->format, sizeof(x->format), "%s", vmsa_source_format(s));
	vmsa_source_close(s);
	close(fd);
}

static void record(struct rec *x, const char *path, int threads, size_t batch)
{
	record_ahead(x, path, threads, batch, 1);
}

static void rec_free(struct rec *x)
{
	for (size_t i = 0; i < x->nev; i++)
		free(x->comm[i]);
	free(x->comm);
	free(x->ev);
	free(x->rejects);
}

static void same(const struct rec *a, const struct rec *b, const char *what)
{
	ck_assert_msg(a->rc == b->rc, "%s: status %d vs %d", what, a->rc, b->rc);
	ck_assert_msg(a->rc_again == a->rc && b->rc_again == b->rc, "%s: again %d, %d", what,
		      a->rc_again, b->rc_again);
	ck_assert_msg(a->nev == b->nev, "%s: %zu vs %zu events", what, a->nev, b->nev);
	for (size_t i = 0; i < a->nev; i++) {
		ck_assert_msg(memcmp(&a->ev[i], &b->ev[i], sizeof(a->ev[i])) == 0 &&
				      strcmp(a->comm[i], b->comm[i]) == 0,
			      "%s: event %zu differs", what, i);
	}
	ck_assert_msg(a->rlen == b->rlen && (!a->rlen || memcmp(a->rejects, b->rejects, a->rlen) == 0),
		      "%s: rejects differ:\n%.*s---\n%.*s", what, (int)(a->rlen > 2000 ? 2000 : a->rlen),
		      a->rejects ? a->rejects : "", (int)(b->rlen > 2000 ? 2000 : b->rlen),
		      b->rejects ? b->rejects : "");
	ck_assert_msg(memcmp(&a->counts, &b->counts, sizeof(a->counts)) == 0,
		      "%s: counts differ (bytes %llu vs %llu, lines %llu vs %llu)", what,
		      (unsigned long long)a->counts.bytes_read, (unsigned long long)b->counts.bytes_read,
		      (unsigned long long)a->counts.lines_read, (unsigned long long)b->counts.lines_read);
	ck_assert_msg(memcmp(&a->traits, &b->traits, sizeof(a->traits)) == 0, "%s: traits differ",
		      what);
	ck_assert_msg(strcmp(a->format, b->format) == 0, "%s: format %s vs %s", what, a->format,
		      b->format);
}

/*
 * The serial reading of path, then threaded readings in batches of every
 * size (a batch is a range of the file, each read by a pread() of its own:
 * sizes that would make more than 100,000 of them are left out; the small
 * files have the smallest).
 */
static void check_file(const char *path, unsigned long min_events)
{
	static const size_t batches[] = {1, 7, 100, 4096, 65536, 1 << 20};
	static const int threads[] = {2, 3, 16};
	struct rec serial;
	record(&serial, path, 1, 1 << 20);
	ck_assert_uint_ge(serial.nev, min_events);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	for (size_t i = 0; i < sizeof(batches) / sizeof(batches[0]); i++)
		for (size_t j = 0; j < sizeof(threads) / sizeof(threads[0]); j++) {
			if ((size_t)st.st_size / batches[i] > 100000)
				continue;
			struct rec par;
			record(&par, path, threads[j], batches[i]);
			char what[256];
			snprintf(what, sizeof(what), "%s, %d threads, batches of %zu", path, threads[j],
				 batches[i]);
			same(&serial, &par, what);
			rec_free(&par);
		}
	static const unsigned aheads[] = {2, 5, 16};
	for (size_t i = 0; i < sizeof(aheads) / sizeof(aheads[0]); i++) {
		struct rec ahead;
		record_ahead(&ahead, path, 1, 1 << 20, aheads[i]);
		char what[256];
		snprintf(what, sizeof(what), "%s, one thread, %u lines ahead", path, aheads[i]);
		same(&serial, &ahead, what);
		rec_free(&ahead);
	}
	rec_free(&serial);
}

static char *temp_from(const char *cmd)
{
	char *path = strdup("/tmp/vmsa-test-source-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	char *sh;
	ck_assert_int_gt(asprintf(&sh, "%s > %s", cmd, path), 0);
	ck_assert_int_eq(system(sh), 0);
	free(sh);
	return path;
}

/* check_file() on what cmd prints, in a file of its own */
static void check_output_of(const char *cmd, unsigned long min_events)
{
	char *p = temp_from(cmd);
	check_file(p, min_events);
	unlink(p);
	free(p);
}

START_TEST(test_fixtures_serial_vs_threads)
{
	check_output_of("cat " FIXTURES_DIR "/handmade/*.txt " FIXTURES_DIR "/synthetic/*.txt", 100);
	/* small enough for a batch at every byte: every line its own batch */
	check_output_of("cat " FIXTURES_DIR "/handmade/*.txt " FIXTURES_DIR "/synthetic/*.txt | "
			"head -c 90000",
			100);
	check_output_of("xz -dc " FIXTURES_DIR "/6.1/dirty-swap/upstream/trace.txt.xz | head -c 3000000",
			10000);
}
END_TEST

/* Long lines around the 1 MiB limit, NUL bytes, CRs, rejects, lost markers,
 * no newline at the end. */
START_TEST(test_hostile_serial_vs_threads)
{
	char *path = strdup("/tmp/vmsa-test-source-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	static const char ev[] = "  a-1 [000] 1.000001: mm_vmscan_kswapd_sleep: nid=0\n";
	static const char bad[] = "  a-1 [000] 1.000002: mm_vmscan_kswapd_wake: nid=0 order=99\n";
	static const char lost[] = "CPU:1 [LOST 7 EVENTS]\n";
	static const char nul[] = "  a\0b-2 [000] 2.0: mm_vmscan_kswapd_sleep: nid=0\r\n";
	/* task names of 24 bytes (the most a worker's event slot holds) and 25 */
	static const char names[] =
		"  name-of-exactly-24-bytes-3 [001] 2.5: mm_vmscan_kswapd_sleep: nid=0\n"
		"  name-of-exactly-25-bytes_-4 [001] 2.5: mm_vmscan_kswapd_sleep: nid=0\n";
	static const size_t longs[] = {(1 << 20) - 2, (1 << 20) - 1, 1 << 20, (1 << 20) + 1,
				       3 << 20};
	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
		fputs(ev, f);
		fputs(bad, f);
		for (size_t k = 0; k < longs[i]; k++)
			fputc(k % 97 ? 'x' : ' ', f);
		fputc('\n', f);
		fputs(lost, f);
		fwrite(nul, 1, sizeof(nul) - 1, f);
		fputs(names, f);
	}
	fputs("  a-1 [000] 3.0: mm_vmscan_kswapd_sleep: nid=0", f); /* no newline */
	fclose(f);
	check_file(path, 10);
	/* and the same with a long line last, unterminated */
	f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	fputc('\n', f);
	for (size_t k = 0; k < (3u << 20); k++)
		fputc('y', f);
	fclose(f);
	check_file(path, 10);
	unlink(path);
	free(path);
}
END_TEST

/* A trace broken as by a mail (fixtures/handmade/wrapped-mail.txt), its
 * events cut at every place by where the batches end: the count of broken
 * events is the serial reader's, whichever worker decodes which batch. */
START_TEST(test_wrapped_serial_vs_threads)
{
	FILE *in = fopen(FIXTURES_DIR "/handmade/wrapped-mail.txt", "r");
	ck_assert_ptr_nonnull(in);
	char body[8192];
	size_t blen = fread(body, 1, sizeof(body), in);
	fclose(in);
	ck_assert(blen > 0 && blen < sizeof(body));
	for (int pad = 0; pad < 4; pad++) {
		char *path = strdup("/tmp/vmsa-test-source-XXXXXX");
		int fd = mkstemp(path);
		ck_assert_int_ge(fd, 0);
		FILE *f = fdopen(fd, "w");
		/* the batch ends (near each READ_CHUNK) fall elsewhere in each file */
		for (int k = 0; k < pad; k++)
			fprintf(f, "  a-1 [000] 0.%06d: mm_vmscan_kswapd_sleep: nid=0\n", k);
		for (size_t done = 0; done < (300u << 10); done += blen)
			fwrite(body, 1, blen, f);
		/* a head, then its next line unterminated: a batch of its own */
		fputs("  a-1 [000] 9.000001: mm_vmscan_kswapd_wake:\nnid=0 order=0", f);
		fclose(f);
		struct rec serial;
		record(&serial, path, 1, 1 << 20);
		ck_assert_uint_gt(serial.traits.wrapped_events, 50);
		rec_free(&serial);
		check_file(path, 100);
		unlink(path);
		free(path);
	}
}
END_TEST

/* A line ending in a field's '=' at a batch's end, the value alone on the
 * next batch's first line (tests/regress: fuzz_text_stream counted one broken
 * event fewer with threads): read at every batch size, every line boundary a
 * batch boundary included. */
START_TEST(test_value_after_eq_serial_vs_threads)
{
	check_file(FIXTURES_DIR "/../tests/regress/text-wrapped-after-eq-batch-boundary.txt", 1);
}
END_TEST

/* Events printed with labels (mm_shrink_slab_*) broken as by a mail, a value
 * alone after its label ("nid:", then "0"): the count of broken events is
 * the serial reader's at every batch size, every line a batch's first. */
START_TEST(test_wrapped_labelled_serial_vs_threads)
{
	static const char body[] =
		"  a-1 [000] ..... 1.000000: mm_shrink_slab_start: s+0x0/0x1a0 ffff8800: nid: 0\n"
		"objects to shrink 0 gfp_flags GFP_KERNEL cache items 120 delta 3 total_scan 3\n"
		"priority\n"
		"12\n"
		"  a-1 [000] ..... 1.000010: mm_shrink_slab_end:\n"
		"super_cache_scan+0x0/0x1a0 ffff88003c45e4c0: nid: 0 unused scan\n"
		"count 0 new scan count 3 total_scan 0 last shrinker return val\n"
		"7\n"
		"  a-1 [000] ..... 1.000020: mm_shrink_slab_end: s+0x0/0x1a0 ffff8800: nid:\n"
		"0\n"
		"unused scan count 0 new scan count 3 total_scan 0 last shrinker return val 7\n";
	char *path = strdup("/tmp/vmsa-test-source-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	for (int k = 0; k < 100; k++)
		fputs(body, f);
	fclose(f);
	struct rec serial;
	record(&serial, path, 1, 1 << 20);
	ck_assert_uint_eq(serial.traits.wrapped_events, 300);
	rec_free(&serial);
	check_file(path, 100);
	unlink(path);
	free(path);
}
END_TEST

/* A temporary file of the n bytes at text */
static char *temp_with(const char *text, size_t n)
{
	char *path = strdup("/tmp/vmsa-test-source-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
	return path;
}

/*
 * Damaged text (issue 43): lines joined by a lost newline (an event, then a
 * whole second line: split where its header begins, so both events are
 * read), lost-events markers glued to an event line before and after it,
 * markers whose count is damaged (unknown, not ignored), a timestamp 100 s
 * ahead (the lines after it go backwards), and a last line cut inside its
 * number: the counts the serial reader gives, and the threads' the same at
 * every batch size.
 */
START_TEST(test_damaged_serial_vs_threads)
{
	static const char a[] = "           dd-100     [001] .....    %d.%06d: "
				"mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL";
	static const char b[] = "           dd-100     [001] .....    %d.%06d: "
				"mm_vmscan_direct_reclaim_end: nr_reclaimed=34";
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	for (int k = 0; k < 200; k++) {
		int t = 20 + (k == 50 ? 100 : 0), us = k * 10;
		fprintf(f, a, t, us);
		switch (k % 5) {
		case 0: /* the newline lost: the end glued to the begin */
			fprintf(f, b, t, us + 1);
			break;
		case 1: /* a marker glued after, then one before the end */
			fputs(" CPU:0 [LOST 7 EVENTS]\nCPU:1 [LOST 2 EVENTS]", f);
			fprintf(f, b, t, us + 1);
			break;
		case 2: /* damaged markers: their counts are unknown */
			fputs("\nCPU:0 [LOST 5 EVENTS\nCPU:0 [LOST -5 EVENTS]\nCPU:0 [LOST 5x EVENTS]\n"
			      "CPU:0 [LOST 99999999999999999999 EVENTS]\n",
			      f);
			fprintf(f, b, t, us + 1);
			break;
		default:
			fputc('\n', f);
			fprintf(f, b, t, us + 1);
			break;
		}
		fputc('\n', f);
	}
	fprintf(f, a, 21, 0);
	fputs("\n", f);
	fprintf(f, b, 21, 1);
	fclose(f);
	len -= 1; /* "nr_reclaimed=3", the file cut */
	char *path = temp_with(text, len);
	struct rec serial;
	record(&serial, path, 1, 1 << 20);
	const struct vmsa_source_counts *c = &serial.counts;
	ck_assert_uint_eq(serial.nev, 401 + 40 * 2 + 40 * 4); /* events, markers */
	ck_assert_uint_eq(c->lines_analyzed, 401);
	ck_assert_uint_eq(c->lines_rejected, 1);
	ck_assert_uint_eq(c->rejected_by_reason[VMSA_REJECT_BAD_NUMBER], 1);
	ck_assert_uint_eq(c->lines_lost_markers, 40 * 2 + 40 * 4);
	ck_assert_uint_eq(c->events_lost, 40 * 9);
	ck_assert_uint_eq(c->lost_markers_without_count, 40 * 4);
	/* (the lines after the one 100 s ahead, all but those of its own second) */
	ck_assert_uint_eq(serial.traits.timestamps_out_of_order, 2 * 149 + 1);
	static const char cut[] = "nr_reclaimed=3\n";
	ck_assert(serial.rlen >= sizeof(cut) - 1 &&
		  memcmp(serial.rejects + serial.rlen - (sizeof(cut) - 1), cut, sizeof(cut) - 1) == 0);
	rec_free(&serial);
	check_file(path, 400);
	unlink(path);
	free(path);
	free(text);
}
END_TEST

/* Lines that end in '\r' alone: read as lines, serially (threads ask for
 * newlines); 3,000 lines are 3,000 lines, not one */
START_TEST(test_cr_lines)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	fputs("# tracer: nop\r#\r", f);
	for (int k = 0; k < 1500; k++)
		fprintf(f,
			"           dd-100     [001] .....    20.%06d: mm_vmscan_direct_reclaim_begin: "
			"order=0 gfp_flags=GFP_KERNEL\r"
			"           dd-100     [001] .....    20.%06d: mm_vmscan_direct_reclaim_end: "
			"nr_reclaimed=34\r",
			2 * k, 2 * k + 1);
	fclose(f);
	char *path = temp_with(text, len);
	struct rec serial;
	record(&serial, path, 1, 1 << 20);
	ck_assert_uint_eq(serial.counts.lines_read, 3002);
	ck_assert_uint_eq(serial.counts.lines_analyzed, 3000);
	ck_assert_uint_eq(serial.nev, 3000);
	ck_assert_uint_eq(serial.ev[2999].nr_reclaimed, 34);
	rec_free(&serial);
	check_file(path, 3000);
	unlink(path);
	free(path);
	free(text);
}
END_TEST

START_TEST(test_not_text_serial_vs_threads)
{
	check_output_of("printf 'PERFILE2 and more'", 0);
	check_output_of("cat " FIXTURES_DIR "/6.1/highalloc/upstream/trace.dat", 0);
	check_output_of("true", 0);
}
END_TEST

/* The workers a source starts for a text file of @size bytes (a real
 * capture's first MiB, then a hole up to @size) with @threads asked for. */
static int workers_for(int threads, off_t size)
{
	char *path = temp_from("xz -dc " FIXTURES_DIR "/6.1/dirty-swap/upstream/trace.txt.xz | "
			       "head -c 1048576");
	ck_assert_int_eq(truncate(path, size), 0);
	struct vmsa_source *s = NULL;
	ck_assert_int_eq(vmsa_source_open_path(&s, path), 0);
	vmsa_source_set_threads(s, threads);
	struct vmsa_event ev;
	int r;
	while ((r = vmsa_source_next(s, &ev)) == VMSA_E_AGAIN) /* workers behind */
		;
	ck_assert_int_eq(r, 0);
	int n = vmsa_source_workers(s);
	vmsa_source_close(s);
	unlink(path);
	free(path);
	return n;
}

START_TEST(test_threads_by_size)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int all = ncpu > 16 ? 16 : ncpu < 2 ? 0 : (int)ncpu;
	/* auto: one thread below VMSA_AUTO_THREADS_BYTES, the CPUs from there */
	ck_assert_int_eq(workers_for(0, 3 << 20), 0);
	ck_assert_int_eq(workers_for(0, (off_t)VMSA_AUTO_THREADS_BYTES - 1), 0);
	ck_assert_int_eq(workers_for(0, (off_t)VMSA_AUTO_THREADS_BYTES), all);
	/* asked for: as asked, whatever the size (a file of several batches) */
	ck_assert_int_eq(workers_for(2, 3 << 20), 2);
	ck_assert_int_eq(workers_for(1, (off_t)VMSA_AUTO_THREADS_BYTES), 0);
}
END_TEST

/* ---- live's hold-back --------------------------------------------------- */

struct handed {
	uint64_t ts[8];
	char comm[8][8];
	int n;
};

static int take(const struct vmsa_event *ev, void *payload)
{
	struct handed *h = payload;
	ck_assert_int_lt(h->n, 8);
	h->ts[h->n] = ev->ts_ns;
	snprintf(h->comm[h->n], sizeof(h->comm[0]), "%.*s", (int)ev->comm_len, ev->comm);
	h->n++;
	return 0;
}

static void push(struct vmsa_live_queue *q, double s, const char *comm)
{
	char buf[16];
	snprintf(buf, sizeof(buf), "%s", comm);
	struct vmsa_event ev = {.ts_ns = (uint64_t)(s * 1e9), .comm = buf, .comm_len = strlen(buf)};
	ck_assert_int_eq(vmsa_live_queue_push(q, &ev), 0);
	memset(buf, 'x', sizeof(buf)); /* the queue keeps its own copy */
}

START_TEST(test_live_hold_back)
{
	struct vmsa_live_queue q = {0};
	struct vmsa_traits t = {0};
	struct handed h = {0};
	push(&q, 0.5, "b");
	push(&q, 0.0, "a");
	push(&q, 2.0, "c");
	/* held 1 s of trace time behind the newest (2.0): 0.0 and 0.5, in order */
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 2);
	ck_assert_uint_eq(h.ts[0], 0);
	ck_assert_uint_eq(h.ts[1], 500000000);
	ck_assert_str_eq(h.comm[0], "a");
	/* a record older than one handed out comes later than the hold: late */
	push(&q, 0.3, "d");
	push(&q, 3.5, "e");
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 4);
	ck_assert_uint_eq(h.ts[2], 300000000);
	ck_assert_uint_eq(h.ts[3], 2000000000);
	ck_assert_uint_eq(t.late_events, 1);
	/* at the end, everything */
	ck_assert_int_eq(vmsa_live_queue_release(&q, true, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 5);
	ck_assert_str_eq(h.comm[4], "e");
	ck_assert_uint_eq(t.late_events, 1);
	vmsa_live_queue_free(&q);
}
END_TEST

/* A record later than the hold-back doubles it until it covers twice its
 * lateness, up to VMSA_LIVE_HOLD_MAX_NS (traits.live_hold_ns) */
START_TEST(test_live_hold_back_grows)
{
	struct vmsa_live_queue q = {0};
	struct vmsa_traits t = {0};
	struct handed h = {0};
	push(&q, 0.0, "a");
	push(&q, 5.0, "b");
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	push(&q, 10.0, "c");
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 2); /* a, b */
	ck_assert_uint_eq(t.live_hold_ns, 0);
	/* 1.5 s later than b: the hold goes 1 -> 2 -> 4 s (>= 3 s) */
	push(&q, 3.5, "d");
	push(&q, 10.5, "e");
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 3);
	ck_assert_str_eq(h.comm[2], "d");
	ck_assert_uint_eq(t.late_events, 1);
	ck_assert_uint_eq(t.live_hold_ns, 4000000000ull);
	/* c (10.0) is now held 4 s: not out at 13.9 (1 s would have let it go) */
	push(&q, 13.9, "f");
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 3);
	push(&q, 14.6, "g");
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 5); /* c, e */
	ck_assert_str_eq(h.comm[4], "e");
	/* 10.4 s late: 4 -> 8 -> 16 s, held there */
	push(&q, 0.1, "z");
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 6);
	ck_assert_uint_eq(t.late_events, 2);
	ck_assert_uint_eq(t.live_hold_ns, VMSA_LIVE_HOLD_MAX_NS);
	ck_assert_int_eq(vmsa_live_queue_release(&q, true, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 8);
	vmsa_live_queue_free(&q);
}
END_TEST

struct handed_many {
	uint64_t ts[4096];
	uint32_t seq[4096];
	int n;
};

static int take_many(const struct vmsa_event *ev, void *payload)
{
	struct handed_many *h = payload;
	ck_assert_int_lt(h->n, 4096);
	h->ts[h->n] = ev->ts_ns;
	h->seq[h->n] = (uint32_t)ev->pid; /* (the push order, in pid) */
	h->n++;
	return 0;
}

static int by_ts_seq(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Records pushed in overlapping batches of random times, released after
 * each: handed out in timestamp order (push order for equal times), as one
 * sort of them all, none late; the held ones merged with each batch */
START_TEST(test_live_hold_back_merges)
{
	struct vmsa_live_queue q = {0};
	struct vmsa_traits t = {0};
	static struct handed_many h;
	static uint64_t want[4000][2];
	memset(&h, 0, sizeof(h));
	unsigned seed = 12345;
	int n = 0;
	for (int batch = 0; batch < 40; batch++) {
		for (int k = 0; k < 100; k++, n++) {
			seed = seed * 1103515245u + 12345u;
			/* within [0.3 * batch, 0.3 * batch + 0.5) s, in 1 ms steps: ties too */
			uint64_t ts = (uint64_t)batch * 300000000ull + (seed >> 8) % 500 * 1000000ull;
			struct vmsa_event ev = {.ts_ns = ts, .pid = n, .comm = "x", .comm_len = 1};
			ck_assert_int_eq(vmsa_live_queue_push(&q, &ev), 0);
			want[n][0] = ts;
			want[n][1] = (uint64_t)n;
		}
		ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take_many, &h), 0);
	}
	ck_assert_int_gt(h.n, 0);
	ck_assert_int_lt(h.n, n); /* (some held at the end) */
	ck_assert_int_eq(vmsa_live_queue_release(&q, true, &t, take_many, &h), 0);
	ck_assert_int_eq(h.n, n);
	qsort(want, (size_t)n, sizeof(want[0]), by_ts_seq);
	for (int i = 0; i < n; i++) {
		ck_assert_uint_eq(h.ts[i], want[i][0]);
		ck_assert_uint_eq(h.seq[i], want[i][1]);
	}
	ck_assert_uint_eq(t.late_events, 0);
	vmsa_live_queue_free(&q);
}
END_TEST

/* Past max_held records held, the oldest go out before their hold */
START_TEST(test_live_hold_back_bounded)
{
	struct vmsa_live_queue q = {.max_held = 3};
	struct vmsa_traits t = {0};
	struct handed h = {0};
	push(&q, 1.0, "a");
	push(&q, 1.1, "b");
	push(&q, 1.2, "c");
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 0); /* three held: none out (all within 1 s) */
	push(&q, 1.3, "d");
	push(&q, 1.4, "e");
	ck_assert_int_eq(vmsa_live_queue_release(&q, false, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 2); /* five: the two oldest out early, in order */
	ck_assert_str_eq(h.comm[0], "a");
	ck_assert_str_eq(h.comm[1], "b");
	ck_assert_uint_eq(t.live_released_early, 2);
	ck_assert_uint_eq(t.late_events, 0);
	ck_assert_int_eq(vmsa_live_queue_release(&q, true, &t, take, &h), 0);
	ck_assert_int_eq(h.n, 5);
	ck_assert_uint_eq(t.live_released_early, 2); /* (the end is no early release) */
	vmsa_live_queue_free(&q);
}
END_TEST

/* ---- several inputs as one trace; compressed input ---------------------- */

static struct vmsa_source *text_source(const char *text, int *fd)
{
	*fd = memfd_create("vmsa-test", MFD_CLOEXEC);
	ck_assert_int_ge(*fd, 0);
	ck_assert_int_eq(write(*fd, text, strlen(text)), (ssize_t)strlen(text));
	lseek(*fd, 0, SEEK_SET);
	struct vmsa_source *s;
	ck_assert_int_eq(vmsa_source_open_text_fd(&s, *fd, "t"), 0);
	return s;
}

/* Equal times in input order, each input's own order kept (backwards too),
 * lost markers after the event before them, every line counted. */
START_TEST(test_interleave_order)
{
	static const char a[] = "# tracer: nop\n"
				"  a-1 [000] 1.000000: mm_vmscan_kswapd_sleep: nid=0\n"
				"  a-1 [000] 2.000000: mm_vmscan_kswapd_sleep: nid=0\n"
				"  a-1 [000] 1.500000: mm_vmscan_kswapd_sleep: nid=0\n";
	static const char b[] = "CPU 1 is empty\n"
				"  b-2 [001] 1.000000: mm_vmscan_kswapd_sleep: nid=0\n"
				"CPU:1 [LOST 5 EVENTS]\n"
				"  b-2 [001] 1.500000: mm_vmscan_kswapd_sleep: nid=0\n"
				"  b-2 [001] 2.000000: mm_vmscan_kswapd_sleep: nid=0\n";
	static const struct {
		int src, pid;
		uint64_t ts;
		bool lost;
	} want[] = {{0, 1, 1000000000}, {1, 2, 1000000000}, {1, 0, 0, true}, {1, 2, 1500000000},
		    {0, 1, 2000000000},	{0, 1, 1500000000}, {1, 2, 2000000000}};
	int fds[2];
	struct vmsa_source *src[2] = {text_source(a, &fds[0]), text_source(b, &fds[1])};
	struct vmsa_interleave *m;
	ck_assert_int_eq(vmsa_interleave_new(&m, src, 2), 0);
	const struct vmsa_event *e;
	int which, n = 0, r;
	while ((r = vmsa_interleave_next(m, &e, &which)) == 0) {
		struct vmsa_event ev = *e;
		ck_assert_int_lt(n, (int)(sizeof(want) / sizeof(want[0])));
		ck_assert_int_eq(which, want[n].src);
		ck_assert_int_eq(ev.type == VMSA_EV_LOST, want[n].lost);
		if (!want[n].lost) {
			ck_assert_int_eq(ev.pid, want[n].pid);
			ck_assert_uint_eq(ev.ts_ns, want[n].ts);
		}
		n++;
	}
	ck_assert_int_eq(r, VMSA_E_EOF);
	ck_assert_int_eq(n, (int)(sizeof(want) / sizeof(want[0])));
	const struct vmsa_source_counts *ca = vmsa_source_counts(src[0]),
					*cb = vmsa_source_counts(src[1]);
	ck_assert_uint_eq(ca->lines_read, 4);
	ck_assert_uint_eq(ca->lines_ignored, 1);
	ck_assert_uint_eq(cb->lines_read, 5);
	ck_assert_uint_eq(cb->lines_ignored, 1);
	ck_assert_uint_eq(cb->lines_lost_markers, 1);
	ck_assert_uint_eq(cb->events_lost, 5);
	vmsa_interleave_free(m);
	for (int i = 0; i < 2; i++) {
		vmsa_source_close(src[i]);
		close(fds[i]);
	}
}
END_TEST

/* A pipe that gives two gzip members a byte at a time at first: its first
 * bytes are kept for the decompressor, and both members are read. */
START_TEST(test_compressed_pipe)
{
	char *gz = temp_from("(printf '# a\\n  a-1 [000] 1.000000: mm_vmscan_kswapd_sleep: nid=0\\n' "
			     "| gzip -c; printf '  a-1 [000] 2.000000: mm_vmscan_kswapd_sleep: "
			     "nid=0\\n' | gzip -c)");
	FILE *f = fopen(gz, "rb");
	ck_assert_ptr_nonnull(f);
	char data[4096];
	size_t len = fread(data, 1, sizeof(data), f);
	fclose(f);
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		for (size_t i = 0; i < len; i++) {
			if (write(p[1], data + i, 1) != 1)
				_exit(1);
			if (i < 8)
				usleep(20000);
		}
		_exit(0);
	}
	close(p[1]);
	struct vmsa_source *s;
	ck_assert_int_eq(vmsa_source_open_text_fd(&s, p[0], "-"), 0);
	struct vmsa_event ev;
	int n = 0, r;
	while ((r = vmsa_source_next(s, &ev)) == 0)
		ck_assert_uint_eq(ev.ts_ns, (uint64_t)++n * 1000000000u);
	ck_assert_int_eq(r, VMSA_E_EOF);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(vmsa_source_counts(s)->lines_read, 3);
	ck_assert_int_eq(vmsa_source_traits(s)->compression, VMSA_COMPRESSION_GZIP);
	ck_assert_uint_eq(vmsa_source_traits(s)->compressed_bytes, len);
	vmsa_source_close(s);
	close(p[0]);
	waitpid(pid, NULL, 0);
	unlink(gz);
	free(gz);
}
END_TEST

/*
 * A trace.dat read through the child process (vmsa_tracedat_open(): forked,
 * or this test program run as the reader when reader is set) gives the
 * events, rejects, counts and traits of the same file read in this process
 * (vmsa_tracedat_open_here()), one by one: every field, the task names, the
 * record numbers, and the counts after every event.
 */
static void tracedat_both_ways(const char *path, const char *reader)
{
	struct vmsa_source_counts c1 = {0}, c2 = {0};
	struct vmsa_traits t1, t2;
	memset(&t1, 0, sizeof(t1));
	memset(&t2, 0, sizeof(t2));
	struct vmsa_tracedat *a = NULL, *b = NULL;
	ck_assert_int_eq(vmsa_tracedat_open(&a, path, reader, &c1, &t1), 0);
	ck_assert_int_eq(vmsa_tracedat_open_here(&b, path, &c2, &t2), 0);
	ck_assert_msg(memcmp(&t1, &t2, sizeof(t1)) == 0, "%s: traits after opening", path);
	/* (plain tests in the loop: each ck_assert writes to Check's log) */
	uint64_t n = 0;
	const char *differ = NULL;
	for (;; n++) {
		struct vmsa_event e1, e2;
		uint64_t r1 = 0, r2 = 0;
		enum vmsa_reject_reason w1 = VMSA_REJECT_BAD_HEADER, w2 = VMSA_REJECT_BAD_HEADER;
		int x1 = vmsa_tracedat_next(a, &e1, &r1, &w1);
		int x2 = vmsa_tracedat_next(b, &e2, &r2, &w2);
		if (x1 != x2)
			differ = "what next returns";
		else if (memcmp(&c1, &c2, sizeof(c1)) != 0)
			differ = "counts";
		else if (x1 == VMSA_TRACEDAT_REJECTED && (r1 != r2 || w1 != w2))
			differ = "a reject";
		if (differ || (x1 && x1 != VMSA_TRACEDAT_REJECTED))
			break;
		if (x1)
			continue;
		/* (a lost-events marker has no task: comm NULL, length 0) */
		if (e1.comm_len != e2.comm_len ||
		    (e1.comm_len && memcmp(e1.comm, e2.comm, e1.comm_len) != 0))
			differ = "the task name";
		if (!differ && (e1.instance_len != e2.instance_len || !e1.instance != !e2.instance ||
				(e1.instance_len &&
				 memcmp(e1.instance, e2.instance, e1.instance_len) != 0)))
			differ = "the buffer instance";
		e1.comm = e2.comm = e1.instance = e2.instance = NULL;
		if (!differ && memcmp(&e1, &e2, sizeof(e1)) != 0)
			differ = "the event";
		if (differ)
			break;
	}
	if (differ)
		ck_abort_msg("%s: not the same %s at record %llu", path, differ, (unsigned long long)n);
	ck_assert_msg(memcmp(&t1, &t2, sizeof(t1)) == 0, "%s: traits at the end", path);
	ck_assert_uint_gt(n, 1000);
	vmsa_tracedat_close(a);
	vmsa_tracedat_close(b);
}

START_TEST(test_tracedat_child_vs_here)
{
	glob_t g;
	ck_assert_int_eq(glob(FIXTURES_DIR "/*/*/*/trace.dat", 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 2);
	for (size_t i = 0; i < g.gl_pathc; i++)
		tracedat_both_ways(g.gl_pathv[i], NULL);
	globfree(&g);
}
END_TEST

/* The same through the reader program (this one: main.c); main.c's reader
 * writes each path it reads to $VMSA_TEST_READER_MARK, so the test knows
 * the reader ran and not a forked child. */
START_TEST(test_tracedat_reader_vs_here)
{
	char mark[] = "/tmp/vmsa-reader-XXXXXX";
	int fd = mkstemp(mark);
	ck_assert_int_ge(fd, 0);
	close(fd);
	setenv("VMSA_TEST_READER_MARK", mark, 1);
	glob_t g;
	ck_assert_int_eq(glob(FIXTURES_DIR "/*/*/*/trace.dat", 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 2);
	for (size_t i = 0; i < g.gl_pathc; i++)
		tracedat_both_ways(g.gl_pathv[i], "/proc/self/exe");
	unsetenv("VMSA_TEST_READER_MARK");
	FILE *f = fopen(mark, "r");
	ck_assert_ptr_nonnull(f);
	char line[4096];
	size_t n = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		ck_assert_msg(n < g.gl_pathc && strcmp(line, g.gl_pathv[n]) == 0,
			      "the reader read %s", line);
		n++;
	}
	fclose(f);
	unlink(mark);
	ck_assert_uint_eq(n, g.gl_pathc);
	globfree(&g);
}
END_TEST

/* The signals of a terminal (^C) or of a kill of the process group reach
 * the reader too: they are the analyzer's to act on, and the reader reads
 * on (had it died, the file would be "corrupt").  Sent once the file is
 * open, while the reader waits for room in the pipe. */
START_TEST(test_tracedat_reader_keeps_reading)
{
	const char *path = FIXTURES_DIR "/6.1/dirty-swap/upstream/trace.dat";
	struct vmsa_source_counts c = {0};
	struct vmsa_traits t;
	memset(&t, 0, sizeof(t));
	struct vmsa_tracedat *a = NULL;
	ck_assert_int_eq(vmsa_tracedat_open(&a, path, "/proc/self/exe", &c, &t), 0);
	pid_t pid = vmsa_tracedat_child_pid(a);
	ck_assert_int_gt(pid, 0);
	int sigs[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		ck_assert_int_eq(kill(pid, sigs[i]), 0);
	int x;
	uint64_t n = 0;
	struct vmsa_event e;
	uint64_t rec;
	enum vmsa_reject_reason why;
	while ((x = vmsa_tracedat_next(a, &e, &rec, &why)) == 0 || x == VMSA_TRACEDAT_REJECTED)
		n++;
	ck_assert_int_eq(x, VMSA_E_EOF);
	ck_assert_uint_eq(c.lines_read, n);
	ck_assert_uint_gt(n, 1000);
	vmsa_tracedat_close(a);
}
END_TEST

/* A reader program that cannot be run: the child is forked, same results. */
START_TEST(test_tracedat_reader_missing)
{
	tracedat_both_ways(FIXTURES_DIR "/6.12/dirty-swap/upstream/trace.dat",
			   "/nonexistent/vmsa-reader");
}
END_TEST

/* A reader program of another build (here: one that speaks the protocol of
 * before the handshake, M_READY without a body, then says the file is
 * corrupt) is not trusted: a child is forked, and the file reads as it
 * does here.  Without the handshake the file was "corrupt". */
START_TEST(test_tracedat_reader_of_another_build)
{
	char dir[] = "/tmp/vmsa-reader-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char prog[sizeof(dir) + 16], mark[sizeof(dir) + 16];
	snprintf(prog, sizeof(prog), "%s/reader", dir);
	snprintf(mark, sizeof(mark), "%s/ran", dir);
	FILE *f = fopen(prog, "w");
	ck_assert_ptr_nonnull(f);
	/* M_READY (8), len 0; M_ERROR (7), len 8, VMSA_E_CORRUPT (-8) */
	fprintf(f, "#!/bin/sh\n: > %s\n"
		   "printf '\\010\\000\\000\\000\\000\\000\\000\\000"
		   "\\007\\000\\000\\000\\010\\000\\000\\000\\370\\377\\377\\377\\000\\000\\000\\000'\n"
		   "cat > /dev/null\n", mark);
	fclose(f);
	ck_assert_int_eq(chmod(prog, 0755), 0);
	tracedat_both_ways(FIXTURES_DIR "/6.12/dirty-swap/upstream/trace.dat", prog);
	ck_assert_msg(access(mark, F_OK) == 0, "the reader program was not run");
	unlink(mark);
	unlink(prog);
	rmdir(dir);
}
END_TEST

/* The pid of the line after an event, read ahead (a hint for the task table). */
START_TEST(test_peek_next_pid)
{
	char path[] = "/tmp/vmsa-test-peek-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	static const char text[] =
		"  kworker/u4:1-12345 [001] .....   10.000001: mm_vmscan_direct_reclaim_begin: order=0\n"
		"   my task [x]-678   [000] d..1.   10.000002: mm_vmscan_direct_reclaim_end: nr_reclaimed=1\n"
		"# a comment line\n";
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	struct vmsa_source *s;
	ck_assert_int_eq(vmsa_source_open_text_fd(&s, fd, path), 0);
	vmsa_source_set_threads(s, 1);
	struct vmsa_event ev;
	ck_assert_int_eq(vmsa_source_next(s, &ev), 0);
	ck_assert_int_eq(ev.pid, 12345);
	ck_assert_int_eq(vmsa_source_peek_pid(s), 678);
	ck_assert_int_eq(vmsa_source_next(s, &ev), 0);
	ck_assert_int_eq(ev.pid, 678);
	ck_assert_int_eq(vmsa_source_peek_pid(s), -1); /* a line of no task */
	vmsa_source_close(s);
	close(fd);
	unlink(path);
}
END_TEST

Suite *source_suite(void);
Suite *source_suite(void)
{
	Suite *s = suite_create("source");
	TCase *tc = tcase_create("serial vs threads");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_fixtures_serial_vs_threads);
	tcase_add_test(tc, test_hostile_serial_vs_threads);
	tcase_add_test(tc, test_value_after_eq_serial_vs_threads);
	tcase_add_test(tc, test_not_text_serial_vs_threads);
	tcase_add_test(tc, test_damaged_serial_vs_threads);
	tcase_add_test(tc, test_cr_lines);
	tcase_add_test(tc, test_wrapped_serial_vs_threads);
	tcase_add_test(tc, test_wrapped_labelled_serial_vs_threads);
	tcase_add_test(tc, test_threads_by_size);
	tcase_add_test(tc, test_live_hold_back);
	tcase_add_test(tc, test_live_hold_back_grows);
	tcase_add_test(tc, test_live_hold_back_merges);
	tcase_add_test(tc, test_live_hold_back_bounded);
	suite_add_tcase(s, tc);
	tc = tcase_create("inputs");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_interleave_order);
	tcase_add_test(tc, test_compressed_pipe);
	tcase_add_test(tc, test_tracedat_child_vs_here);
	tcase_add_test(tc, test_tracedat_reader_vs_here);
	tcase_add_test(tc, test_tracedat_reader_missing);
	tcase_add_test(tc, test_tracedat_reader_of_another_build);
	tcase_add_test(tc, test_tracedat_reader_keeps_reading);
	tcase_add_test(tc, test_peek_next_pid);
	suite_add_tcase(s, tc);
	return s;
}
