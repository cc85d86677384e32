/* SPDX-License-Identifier: MIT */
/*
 * vmscan-analyze: public API.
 *
 * Flow: a source turns input into normalized struct vmsa_event records;
 * struct vmsa_stats consumes them one at a time; a struct vmsa_summary is a
 * snapshot of the stats that reporters render.  Every public symbol carries
 * the vmsa_ prefix.  Functions return 0 or a negative enum vmsa_error value;
 * the library never prints to stdout, never exits and keeps no global
 * mutable state.  Destructors accept NULL.  Ownership: whatever comes back
 * through a `**out` parameter belongs to the caller, and on failure *out is
 * left NULL; a `const` pointer returned by a getter points into the object
 * it was read from and lives as long as that object.
 *
 * Threads: no object is safe to use from two threads at once; different
 * objects may be used from different threads concurrently.  Functions that
 * take only constant data (the name and message lookups) are safe anywhere.
 */
#ifndef VMSA_VMSA_H
#define VMSA_VMSA_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VMSA_VERSION "0.1.0"

/* The ABI's version: libvmsa.so.N and the symbol version VMSA_N
 * (docs/abi.md; CMakeLists.txt reads it from here). */
#define VMSA_ABI_VERSION 1

/* Version of the JSON summary schema (docs/json-schema.md). */
#define VMSA_SCHEMA_VERSION 1

/* One list of error codes; vmsa_strerror() gives the message. */
#define VMSA_ERRORS(X)                                                      \
	X(OK, 0, "success")                                                 \
	X(NOMEM, -1, "out of memory")                                       \
	X(IO, -2, "input/output error")                                     \
	X(INVAL, -3, "invalid argument")                                    \
	X(EOF, -4, "end of input")                                          \
	X(AGAIN, -5, "no input available yet (interrupted or timed out)")   \
	X(UNSUPPORTED, -6, "unsupported input format")                      \
	X(ISDIR, -7, "input is a directory")                                \
	X(CORRUPT, -8, "the file is truncated or corrupt")                  \
	X(STDIN_BINARY, -9, "a trace.dat from standard input or a pipe among text files: give it alone or by its file name") \
	X(PERM, -10, "permission denied: live tracing needs root")           \
	X(NOTRACEFS, -11, "tracefs is not mounted or not available")           \
	X(DECOMPRESS, -12, "the compressed input is truncated or corrupt")  \
	X(NOLIB, -13, "a library this input needs cannot be loaded "        \
		      "(libtracecmd, libtracefs, libtraceevent, zlib, liblzma or libzstd)") \
	X(OVERFLOW, -14, "a count added up past 2^64 - 1")

enum vmsa_error {
#define VMSA_ERR_ENUM(name, val, msg) VMSA_E_##name = (val),
	VMSA_ERRORS(VMSA_ERR_ENUM)
#undef VMSA_ERR_ENUM
};

/** vmsa_strerror() - static message for an enum vmsa_error value. */
const char *vmsa_strerror(int err);

/* ------------------------------------------------------------------ */
/* The normalized event                                                */
/* ------------------------------------------------------------------ */

enum vmsa_event_type {
	VMSA_EV_RECLAIM_BEGIN,	/* direct/memcg/softlimit/node begin; see ctx */
	VMSA_EV_RECLAIM_END,	/* matching end; nr_reclaimed set */
	VMSA_EV_KSWAPD_WAKE,	/* kswapd woke (emitted by kswapd itself) */
	VMSA_EV_KSWAPD_SLEEP,	/* kswapd goes to sleep */
	VMSA_EV_WAKEUP_KSWAPD,	/* a task asked kswapd to wake */
	VMSA_EV_LRU_ISOLATE,	/* pages isolated from an LRU list */
	VMSA_EV_WRITE,		/* writepage / write_folio from reclaim */
	VMSA_EV_SHRINK_INACTIVE,
	VMSA_EV_SHRINK_ACTIVE,
	VMSA_EV_THROTTLED,	/* reclaim_throttle() (5.16+) */
	VMSA_EV_SLAB_START,	/* mm_shrink_slab_start */
	VMSA_EV_SLAB_END,	/* mm_shrink_slab_end */
	VMSA_EV_FLUSHER_WAKE,	/* mm_vmscan_wakeup_flusher (kernel/ series) */
	VMSA_EV_WB_START,	/* writeback:writeback_start: a flusher's pass begins */
	VMSA_EV_WB_WRITTEN,	/* writeback:writeback_written: the pass ends */
	VMSA_EV_LOST,		/* the tracer dropped events (count in ->lost) */
	VMSA_EV_RECLAIM_PAGES,	/* mm_vmscan_reclaim_pages (after 6.12): reclaim_pages() */
	VMSA_EV__COUNT
};

/* Reclaim contexts; scans, reclaims and writes are charged to one. */
enum vmsa_ctx {
	VMSA_CTX_DIRECT,	/* between direct_reclaim_begin and _end */
	VMSA_CTX_MEMCG,		/* between memcg_reclaim_begin and _end */
	VMSA_CTX_SOFTLIMIT,	/* memcg_softlimit_reclaim_begin.._end */
	VMSA_CTX_NODE,		/* node_reclaim_begin.._end */
	VMSA_CTX_KSWAPD,	/* done by a kswapd thread */
	VMSA_CTX_NONE,		/* by another task outside any window */
	VMSA_CTX__COUNT
};

enum vmsa_lru {
	VMSA_LRU_UNKNOWN,	/* the trace does not name the list */
	VMSA_LRU_INACTIVE_ANON,
	VMSA_LRU_ACTIVE_ANON,
	VMSA_LRU_INACTIVE_FILE,
	VMSA_LRU_ACTIVE_FILE,
	VMSA_LRU_UNEVICTABLE,
	VMSA_LRU_OTHER,		/* a name this tool does not know (lru=odd_list):
				 * file says anon or file where the name does */
};

/*
 * Throttle reasons, bit numbers as in include/linux/mmzone.h (5.16+):
 * X(enum suffix, the kernel's name after VMSCAN_THROTTLE_, the summary's
 * name, meaning).
 */
#define VMSA_THROTTLE_REASONS(X)                                                     \
	X(WRITEBACK, "WRITEBACK", "writeback", "waiting for writeback to progress") \
	X(ISOLATED, "ISOLATED", "isolated", "too many pages isolated")             \
	X(NOPROGRESS, "NOPROGRESS", "noprogress", "no reclaim progress")           \
	X(CONGESTED, "CONGESTED", "congested", "congested writeback")

enum vmsa_throttle {
#define VMSA_THROTTLE_ENUM(e, kname, name, meaning) VMSA_THROTTLE_##e,
	VMSA_THROTTLE_REASONS(VMSA_THROTTLE_ENUM)
#undef VMSA_THROTTLE_ENUM
	VMSA_THROTTLE__COUNT
};

/*
 * Why reclaim woke the flushers (mm_vmscan_wakeup_flusher reason=):
 * X(enum suffix, name, meaning).
 */
#define VMSA_FLUSH_REASONS(X)                                                        \
	X(ALL_DIRTY, "all_dirty", "every folio of a batch was dirty (upstream)")     \
	X(FORWARD, "flush_forward", "vm.reclaim_flush_forward")

enum vmsa_flush_reason {
#define VMSA_FLUSH_ENUM(e, name, meaning) VMSA_FLUSH_##e,
	VMSA_FLUSH_REASONS(VMSA_FLUSH_ENUM)
#undef VMSA_FLUSH_ENUM
	VMSA_FLUSH__COUNT
};

/*
 * What mm_vmscan_reclaim_pages events add up to (struct vmsa_totals'
 * reclaim_pages).  The event (mainline kernels after 6.12) is
 * reclaim_folio_list()'s, once per node of each reclaim_pages() call: a list
 * of pages its caller chose, not an LRU scan (MADV_PAGEOUT and
 * process_madvise(), DAMON's pageout action).  It opens no reclaim window,
 * and pgscan_* / pgsteal_* of /proc/vmstat do not count its pages.
 */
enum vmsa_reclaim_pages_count {
	VMSA_RP_EVENTS,		/* events */
	VMSA_RP_SCANNED,	/* their nr_scanned */
	VMSA_RP_RECLAIMED,	/* their nr_reclaimed */
	VMSA_RP_DIRTY,		/* nr_dirty */
	VMSA_RP_WRITEBACK,	/* nr_writeback */
	VMSA_RP_CONGESTED,	/* nr_congested */
	VMSA_RP_IMMEDIATE,	/* nr_immediate */
	VMSA_RP__COUNT
};

/*
 * Why a flusher writes (writeback_start/_written reason=, enum wb_reason of
 * include/linux/backing-dev-defs.h; 3.x called reclaim's reason
 * try_to_free_pages, a name read as VMSA_WB_VMSCAN).
 */
#define VMSA_WB_REASONS(X)                                          \
	X(BACKGROUND, "background")                                 \
	X(VMSCAN, "vmscan")                                         \
	X(SYNC, "sync")                                             \
	X(PERIODIC, "periodic")                                     \
	X(LAPTOP_TIMER, "laptop_timer")                             \
	X(FREE_MORE_MEM, "free_more_memory")                        \
	X(FS_FREE_SPACE, "fs_free_space")                           \
	X(FORKER_THREAD, "forker_thread")                           \
	X(FOREIGN_FLUSH, "foreign_flush")                           \
	X(OTHER, "other") /* a name or number this tool does not know */

enum vmsa_wb_reason {
#define VMSA_WB_ENUM(e, name) VMSA_WB_##e,
	VMSA_WB_REASONS(VMSA_WB_ENUM)
#undef VMSA_WB_ENUM
	VMSA_WB__COUNT
};

/* The reason's name ("vmscan"); static. */
const char *vmsa_wb_reason_name(enum vmsa_wb_reason r);

#define VMSA_MAX_ORDER 21 /* orders 0..20, as far as the Perl script looked */

/* a count an event does not say (the end of a reclaim printed without fields) */
#define VMSA_UNKNOWN_COUNT UINT64_MAX

struct vmsa_event {
	enum vmsa_event_type type;
	enum vmsa_ctx ctx;	/* RECLAIM_BEGIN/END only */
	uint64_t ts_ns;
	int32_t pid;
	int32_t cpu;
	const char *comm;	/* not NUL-terminated; valid until the next event */
	size_t comm_len;
	int32_t order;		/* -1 when the event has none or does not say */
	int32_t nid;		/* -1 when the event has none */
	uint64_t nr_scanned;	/* LRU_ISOLATE, SHRINK_INACTIVE, RECLAIM_PAGES */
	uint64_t nr_taken;	/* LRU_ISOLATE, SHRINK_ACTIVE */
	uint64_t nr_reclaimed;	/* SHRINK_INACTIVE, RECLAIM_PAGES, RECLAIM_END (END: VMSA_UNKNOWN_COUNT
				 * when the line printed no fields) */
	uint64_t nr_pages;	/* WRITE: pages in the folio, 0 if not said */
	/* SHRINK_INACTIVE, RECLAIM_PAGES (nr_dirty: FLUSHER_WAKE too) */
	uint64_t nr_dirty, nr_writeback, nr_congested, nr_immediate;
	uint64_t nr_deactivated; /* SHRINK_ACTIVE */
	int64_t slab_freed;	/* SLAB_END: shrinker return value */
	enum vmsa_lru lru;
	int8_t file;		/* 1 file, 0 anon, -1 unknown */
	int8_t sync;		/* 1 sync, 0 async, -1 not expressed */
	uint32_t throttle_reasons; /* bit mask of enum vmsa_throttle */
	int64_t usec_delayed, usec_timeout;
	uint64_t lost;		/* LOST: events dropped; 0 when not said */
	enum vmsa_flush_reason flush_reason; /* FLUSHER_WAKE; nr_dirty, nr_pages */
	uint64_t nr_requested;	/* LRU_ISOLATE: 0 if not said */
	uint64_t nr_skipped;	/* LRU_ISOLATE: 0 if not said */
	int32_t priority;	/* SHRINK_INACTIVE/ACTIVE, SLAB_START: -1 if not said */
	int64_t wb_nr_pages;	/* WB_START/WRITTEN: the work's pages still to write */
	enum vmsa_wb_reason wb_reason; /* WB_START/WRITTEN */
	/* the buffer instance it was recorded in (trace-cmd record -B NAME),
	 * not NUL-terminated, valid as comm is; NULL: the top buffer, or the
	 * input does not tell (trace_pipe, perf script, live) */
	const char *instance;
	size_t instance_len;
};

/* ------------------------------------------------------------------ */
/* Text input: trace_pipe, trace, trace-cmd report, perf script         */
/* ------------------------------------------------------------------ */

/* How a line was classified. */
enum vmsa_line_kind {
	VMSA_LINE_EVENT,	/* a vmscan event; *ev is filled */
	VMSA_LINE_IGNORED,	/* not a vmscan event (headers, other events) */
	VMSA_LINE_LOST,		/* a "lost events" marker; *ev is VMSA_EV_LOST */
	VMSA_LINE_REJECTED,	/* a vmscan line that could not be decoded */
};

/* Why a line was rejected; vmsa_reject_reason_name() names them. */
#define VMSA_REJECT_REASONS(X)                                   \
	X(BAD_HEADER, "bad_header", "cannot find task-pid [cpu] timestamp") \
	X(MISSING_FIELD, "missing_field", "a required field is missing") \
	X(BAD_NUMBER, "bad_number", "a field is not a valid number")  \
	X(OUT_OF_RANGE, "out_of_range", "a number is out of range")   \
	X(BAD_VALUE, "bad_value", "a symbolic value is unknown")      \
	X(LINE_TOO_LONG, "line_too_long", "the line exceeds the maximum length") \
	X(COMM_TOO_LONG, "comm_too_long", "the task name is too long")

enum vmsa_reject_reason {
#define VMSA_REJ_ENUM(name, key, msg) VMSA_REJECT_##name,
	VMSA_REJECT_REASONS(VMSA_REJ_ENUM)
#undef VMSA_REJ_ENUM
	VMSA_REJECT__COUNT
};

/* The reason's key as the JSON summary spells it ("bad_header"); static. */
const char *vmsa_reject_reason_name(enum vmsa_reject_reason r);
/* A sentence for messages ("cannot find task-pid [cpu] timestamp"); static. */
const char *vmsa_reject_reason_message(enum vmsa_reject_reason r);

/* Which text dialect lines were recognised as. */
enum vmsa_text_dialect {
	VMSA_DIALECT_UNKNOWN,
	VMSA_DIALECT_FTRACE,	/* trace, trace_pipe, trace-cmd report */
	VMSA_DIALECT_PERF,	/* perf script */
};

/*
 * A name and its counts; the last of VMSA_NAME_COUNTS slots takes every
 * name past the others, and those of other bytes than letters, digits and
 * '_', as "(other names)".  name[0] == 0: unused (the last slot may be used
 * while others are not).
 */
#define VMSA_NAME_COUNTS 16
struct vmsa_name_count {
	char name[64];
	uint64_t count;		/* lines (isolations, events) */
	uint64_t pages;		/* lru_other: their nr_scanned */
};

/*
 * What the trace tells about the kernel that wrote it, learnt from field
 * names as lines are decoded.  Nothing else in the library knows which
 * kernel produced a trace.
 */
/* How an input is compressed, by its magic bytes (never by its name). */
enum vmsa_compression {
	VMSA_COMPRESSION_NONE,
	VMSA_COMPRESSION_GZIP,	/* "\x1f\x8b", multi-member */
	VMSA_COMPRESSION_XZ,	/* "\xfd7zXZ\0", concatenated streams */
	VMSA_COMPRESSION_ZSTD,	/* "\x28\xb5\x2f\xfd", several frames */
};

/* "none", "gzip", "xz" or "zstd" (static). */
const char *vmsa_compression_name(enum vmsa_compression c);

struct vmsa_traits {
	uint64_t lines_with_lru_name;	/* lru_isolate carrying lru= (4.x+) */
	uint64_t lines_without_lru_name;/* lru_isolate without it (2.6.35..3.x) */
	uint64_t writes_with_sync_field;/* writepage sync_io= (2.6.35) */
	uint64_t writes_with_flags;	/* flags=RECLAIM_WB_* (2.6.36+) */
	uint64_t writes_flag_sync;	/* of those, RECLAIM_WB_SYNC set */
	uint64_t write_folio_events;	/* mm_vmscan_write_folio (5.19+) */
	uint64_t writes_with_nr_pages;	/* carry nr_pages= (kernel/ series) */
	uint64_t timestamps_ns_precision; /* > 6 fraction digits or integer */
	uint64_t wrapped_events;	/* broken over several lines (pasted in a mail) */
	uint64_t unwrapped_events;	/* of those, joined again (unwrap on) */
	uint64_t late_events;	/* live: records read after a later one was analyzed */
	uint64_t unwrapped_lines;	/* the lines they took after their first */
	enum vmsa_text_dialect dialect;
	/* what a trace.dat file records about itself (empty for text) */
	uint32_t tracedat_version;	/* 0: not a trace.dat */
	int32_t cpus, instances;
	char uname[192];		/* "Linux host 6.1.0 #1 SMP ..." */
	char clock[32];
	/* ring-buffer losses the file's CPU stats record (overrun + dropped) */
	int32_t cpu_stats;		/* CPUs with stats; 0: none recorded */
	uint64_t cpu_lost[64];
	/* names this tool does not know, each with how often it came */
	struct vmsa_name_count lru_other[VMSA_NAME_COUNTS];	/* lru= of lru_isolate */
	struct vmsa_name_count event_other[VMSA_NAME_COUNTS];	/* vmscan events */
	/* the input was decompressed (the counts are of what it held) */
	enum vmsa_compression compression;
	uint64_t compressed_bytes;	/* of the compressed input, read so far */
	/* (added last, as later members will be: programs built against an
	 * older header read the members before it as before) */
	uint64_t live_hold_ns;	/* live: the hold-back, when late records raised it */
	uint64_t live_released_early; /* live: handed out before their hold, the queue full */
	/* vmscan events and lost-event markers by the buffer they were
	 * recorded in: the top buffer's, and each instance's (trace-cmd
	 * record -B NAME: a trace.dat's instances, or "NAME: " before a line
	 * of trace-cmd report) by its name; names of other bytes than
	 * letters, digits, '_', '-' and '.' count as "(other names)" */
	uint64_t top_buffer_events;
	struct vmsa_name_count instance_events[VMSA_NAME_COUNTS];
	/* trace-cmd report of several trace.dat files (-i a.dat -i b.dat): the
	 * "FILE: cpus=N" lines it printed, one a file (one file's report says
	 * "cpus=N" without a name: 0) */
	uint64_t report_files;
	/* lines of a write event (writepage, write_folio) rejected: what they
	 * said, file or anon, sync or async, is not known, so neither are the
	 * write counts */
	uint64_t writes_rejected;
	/* lines whose timestamp is an integer (text): a trace clock that does
	 * not count in ns (counter, uptime, x86-tsc) prints its counts so, as
	 * trace-cmd report --raw-ts prints ns; they are taken as ns */
	uint64_t timestamps_integer;
	/* 1: the analysis was stopped (SIGINT twice, SIGTERM, the control
	 * callback) before the end of this regular file: its counts are of
	 * the part read */
	uint64_t stopped_before_end;
	/* trace.dat: the CPUs (of every buffer) whose records were not read to
	 * the end of their data as the file's headers give it (a damaged
	 * page, a block that does not decompress, data of another CPU, the
	 * reader out of memory): events are missing, how many is not known,
	 * and each such CPU counts as a lost-event marker without a count */
	uint64_t tracedat_short;
	/* events (text) whose timestamp is more than 1 s before one of an
	 * earlier line (VMSA_TS_BACK_NS): a timestamp that is damaged, or
	 * inputs out of order; the times and latencies across them are wrong */
	uint64_t timestamps_out_of_order;
	/* 1: the source was read with --unwrap (vmsa_source_set_unwrap()): its
	 * wrapped_events are events it could not join (not in the summary) */
	uint64_t unwrap_on;
};

/* How far a text event's timestamp may lie before an earlier line's
 * (per-CPU buffers merged, CPUs' clocks a little out of step) before it
 * counts in traits.timestamps_out_of_order */
#define VMSA_TS_BACK_NS 1000000000ull

/* The top buffer's name for --instance (an instance of that name cannot be
 * told from it). */
#define VMSA_TOP_BUFFER "top"

struct vmsa_text_parser;

/**
 * vmsa_text_parser_new() - a line decoder with its own traits (what the
 * lines decoded so far say about the kernel).  VMSA_E_NOMEM on failure.
 */
int vmsa_text_parser_new(struct vmsa_text_parser **out);
/* Frees the decoder (NULL is fine). */
void vmsa_text_parser_free(struct vmsa_text_parser *p);

/**
 * vmsa_text_parse_line() - decode one line (without its newline).
 * @line may contain NUL bytes.  Returns an enum vmsa_line_kind; for
 * VMSA_LINE_REJECTED *reason is set.  ev->comm points into @line.
 */
enum vmsa_line_kind vmsa_text_parse_line_sized(struct vmsa_text_parser *p,
					       const char *line, size_t len,
					       struct vmsa_event *ev, size_t ev_size,
					       enum vmsa_reject_reason *reason);
static inline enum vmsa_line_kind vmsa_text_parse_line(struct vmsa_text_parser *p,
							const char *line, size_t len,
							struct vmsa_event *ev,
							enum vmsa_reject_reason *reason)
{
	return vmsa_text_parse_line_sized(p, line, len, ev, sizeof *ev, reason);
}

/* The traits learnt from the lines decoded so far; owned by the decoder. */
const struct vmsa_traits *vmsa_text_parser_traits(const struct vmsa_text_parser *p);

/* ------------------------------------------------------------------ */
/* Sources                                                             */
/* ------------------------------------------------------------------ */

/* Counts every source keeps; every line lands in exactly one bucket. */
struct vmsa_source_counts {
	uint64_t bytes_read;
	uint64_t lines_read;
	uint64_t lines_analyzed;	/* vmscan events (kept by the filter) */
	uint64_t lines_filtered;	/* vmscan events a filter left out */
	uint64_t lines_ignored;		/* not vmscan */
	uint64_t lines_lost_markers;	/* "[LOST N EVENTS]" lines */
	uint64_t lines_rejected;
	uint64_t rejected_by_reason[VMSA_REJECT__COUNT];
	uint64_t events_lost;		/* sum of N in lost markers */
	uint64_t lost_markers_without_count;
	uint64_t unknown_vmscan_events;	/* mm_vmscan_* names not known here */
};

/* Called for each rejected line: where it was and why. */
typedef void (*vmsa_reject_cb)(const char *source_name, uint64_t line_no,
			       enum vmsa_reject_reason reason,
			       const char *line, size_t len, void *payload);

struct vmsa_source;

/**
 * vmsa_source_open_text_fd() - stream text lines from @fd (not closed by
 * the source).  @name is used in messages ("-" for stdin).
 */
int vmsa_source_open_text_fd(struct vmsa_source **out, int fd,
			     const char *name);

/**
 * vmsa_source_open_path() - open a file ("-" means stdin): text, or a
 * binary trace.dat recognised by its content and read through libtracecmd.
 * A gzip, xz or zstd input (by its magic bytes, file or pipe) is
 * decompressed as it is read; a compressed trace.dat file, and a trace.dat
 * on standard input or a pipe (libtracecmd seeks), are copied whole into
 * an anonymous memory file first, when the first vmsa_source_next() finds
 * them (they take their size in memory).
 * Returns VMSA_E_IO (errno kept) when it cannot be opened, VMSA_E_ISDIR for
 * a directory, VMSA_E_CORRUPT for a truncated or corrupt trace.dat and
 * VMSA_E_UNSUPPORTED for perf.data; what comes out of a compressed input,
 * a pipe or standard input is told by vmsa_source_next() (VMSA_E_DECOMPRESS
 * for a corrupt or cut stream, VMSA_E_CORRUPT, VMSA_E_UNSUPPORTED, and
 * VMSA_E_STDIN_BINARY for a trace.dat in a source opened from a descriptor
 * or merged with text files by vmsa_analyze_files()).
 */
int vmsa_source_open_path(struct vmsa_source **out, const char *path);

/*
 * How a trace.dat is read.  libtracecmd runs in a process of its own (it
 * can crash on a corrupt file, and the crash must end only that process):
 * by default a forked child.  tracedat_reader: NULL, or the path of an
 * executable (your own program: "/proc/self/exe") that calls
 * vmsa_tracedat_reader_main() first thing in main(); the library then runs
 * it as the reader instead of forking, a fresh process that shares no
 * memory with the caller (a forked child's first write to each page it
 * shares is a page fault: on a small trace.dat the fork costs more than
 * the reading).  It must be linked with this same libvmsa.  If it cannot
 * be started, a child is forked.
 */
struct vmsa_open_options {
	const char *tracedat_reader;
};

/* vmsa_source_open_path() with @o (NULL: the defaults); @o may go after. */
int vmsa_source_open_path_with_sized(struct vmsa_source **out, const char *path,
				     const struct vmsa_open_options *o, size_t o_size);
static inline int vmsa_source_open_path_with(struct vmsa_source **out, const char *path,
					     const struct vmsa_open_options *o)
{
	return vmsa_source_open_path_with_sized(out, path, o, sizeof *o);
}

/* The argument that starts a program as the trace.dat reader. */
#define VMSA_TRACEDAT_READER_ARG "--vmsa-tracedat-reader"

/*
 * vmsa_tracedat_reader_main() - call it first in main() of a program named
 * as vmsa_open_options.tracedat_reader: when @argv[1] is
 * VMSA_TRACEDAT_READER_ARG the process is the reader (it reads the file
 * @argv[2], talks to the library on its stdin and stdout, and ends without
 * returning); otherwise it returns 0 at once.
 */
int vmsa_tracedat_reader_main(int argc, char **argv);

/* Closes the source and frees it (NULL is fine); the fd of
 * vmsa_source_open_text_fd() stays open. */
void vmsa_source_close(struct vmsa_source *src);

/* Reject callback (may be NULL). */
void vmsa_source_set_reject_cb(struct vmsa_source *src, vmsa_reject_cb cb,
			       void *payload);

/*
 * Wait at most @ms milliseconds for input before vmsa_source_next()
 * returns VMSA_E_AGAIN; -1 (default) waits for ever.  A signal that
 * interrupts the wait also gives VMSA_E_AGAIN.
 */
void vmsa_source_set_poll_timeout(struct vmsa_source *src, int ms);

/* the size from which vmsa_source_set_threads(src, 0) uses the CPUs */
#define VMSA_AUTO_THREADS_BYTES (64ull << 20)

/**
 * vmsa_source_set_threads() - decode a regular text file with @n threads
 * (1, the default: in the caller's thread; at most 16; 0: auto, the
 * online CPUs for a file of VMSA_AUTO_THREADS_BYTES or more, else one).
 * Events, rejects and counts come out in input order, as with one
 * thread.  Ignored for
 * pipes, trace.dat, files under 256 KiB or that report no size (tracefs,
 * /proc) and when a poll timeout is set.  While the workers are
 * behind, vmsa_source_next() returns VMSA_E_AGAIN every 100 ms (so that a
 * caller can look at its signals); call it again.
 */
void vmsa_source_set_threads(struct vmsa_source *src, int n);

/*
 * vmsa_source_set_unwrap() - join events broken over several lines (a
 * trace pasted into a mail): a line that does not begin like a trace line
 * goes on the one before when the joined line makes an event.  Each line
 * is still counted; the lines of a joined event as analyzed.  Text only;
 * decodes in the caller's thread (threads are not used).
 */
void vmsa_source_set_unwrap(struct vmsa_source *src, int on);

/**
 * vmsa_source_next() - the next event.  0 with *ev filled, VMSA_E_EOF at
 * the end, VMSA_E_AGAIN (see above) or another negative error.
 */
int vmsa_source_next_sized(struct vmsa_source *src, struct vmsa_event *ev, size_t ev_size);
static inline int vmsa_source_next(struct vmsa_source *src, struct vmsa_event *ev)
{
	return vmsa_source_next_sized(src, ev, sizeof *ev);
}

/* After VMSA_E_DECOMPRESS: why (static text) and the byte offset in the
 * compressed input; NULL when the source had no such error. */
const char *vmsa_source_stream_error(const struct vmsa_source *src, uint64_t *offset);

/* What the source has read so far: every line or record in one bucket. */
const struct vmsa_source_counts *vmsa_source_counts(const struct vmsa_source *src);
/* What the input has told about its kernel so far (and a trace.dat's header). */
const struct vmsa_traits *vmsa_source_traits(const struct vmsa_source *src);
/* The name given at open ("-" for standard input). */
const char *vmsa_source_name(const struct vmsa_source *src);
/* "ftrace-text", "perf-script", "text" (dialect not known yet) or "trace.dat". */
const char *vmsa_source_format(const struct vmsa_source *src);

/* ------------------------------------------------------------------ */
/* Live tracing (libtracefs)                                           */
/* ------------------------------------------------------------------ */

/*
 * A tracefs instance of our own ("vmscan-analyze-<pid>") with the vmscan
 * events enabled, so other tracing users are not disturbed.  Records are
 * read raw, decoded like trace.dat records, and handed to a callback.
 * vmsa_live_close() removes the instance; call it on every exit path.
 */
struct vmsa_live;

struct vmsa_live_options {
	size_t buffer_kb;	/* per-CPU ring buffer size; 0 keeps the default */
};

/* VMSA_E_NOTRACEFS, VMSA_E_PERM, VMSA_E_NOMEM or VMSA_E_IO on failure. */
int vmsa_live_open_sized(struct vmsa_live **out, const struct vmsa_live_options *opts,
			 size_t opts_size);
static inline int vmsa_live_open(struct vmsa_live **out, const struct vmsa_live_options *opts)
{
	return vmsa_live_open_sized(out, opts, sizeof *opts);
}

/* Called for each event (and lost marker); non-zero stops the drain. */
typedef int (*vmsa_event_cb)(const struct vmsa_event *ev, void *payload);

/**
 * vmsa_live_drain() - read what the buffers hold now and hand out, in
 * timestamp order, the events older than 1 s of trace time (a record read
 * later than that doubles the hold, up to 16 s: traits' late_events and
 * live_hold_ns; all of them after vmsa_live_stop()); returns 0, or the
 * callback's non-zero value.
 * Task names are refreshed from saved_cmdlines first.
 */
int vmsa_live_drain(struct vmsa_live *lv, vmsa_event_cb cb, void *payload);

/* Disable the events (drain once more afterwards to read the rest). */
int vmsa_live_stop(struct vmsa_live *lv);
/* Removes the tracefs instance and frees everything (NULL is fine); call it
 * on every exit path, or the instance stays behind in tracefs. */
void vmsa_live_close(struct vmsa_live *lv);
/* The instance's name ("vmscan-analyze-PID"), for messages. */
const char *vmsa_live_name(const struct vmsa_live *lv);
/* Records read so far, as a source counts lines (rejected, lost markers). */
const struct vmsa_source_counts *vmsa_live_counts(const struct vmsa_live *lv);
/* What the records' formats tell about the running kernel. */
const struct vmsa_traits *vmsa_live_traits(const struct vmsa_live *lv);

/* ------------------------------------------------------------------ */
/* Aggregation                                                         */
/* ------------------------------------------------------------------ */

#define VMSA_DEFAULT_MAX_TASKS 100000

/* One completed reclaim window or kswapd awake period (trace time, ns). */
struct vmsa_latency_record {
	uint64_t end_ns;	/* the end event's timestamp */
	uint64_t duration_ns;	/* it began at end_ns - duration_ns */
	int32_t pid;
	int32_t cpu;		/* the CPU the end event was recorded on; -1 unknown */
	const char *comm;	/* not NUL-terminated; valid during the call */
	size_t comm_len;
	const char *kind;	/* "direct", "memcg", "softlimit", "node", "kswapd" */
	int order;
};

struct vmsa_stats_options {
	int ignore_pid;		/* aggregate tasks by name */
	/* task rows kept (0: VMSA_DEFAULT_MAX_TASKS); later tasks are counted in
	 * one "(other tasks)" row, their reclaim windows still tracked per pid */
	size_t max_tasks;
	int keep_latency_list;	/* keep every latency (classic list) */
	/* Each completed direct/memcg/node reclaim and kswapd awake period. */
	void (*latency_cb)(uint64_t end_ts_ns, int32_t pid, const char *comm,
			   size_t comm_len, const char *kind, int order,
			   uint64_t latency_ns, void *payload);
	void *latency_payload;
	/* The same periods with the CPU (may be set with or instead of
	 * latency_cb; both get latency_payload). */
	void (*latency_record_cb)(const struct vmsa_latency_record *l, void *payload);
};

struct vmsa_stats;

/* Empty statistics; @opts may be NULL (defaults).  VMSA_E_NOMEM on failure. */
int vmsa_stats_new_sized(struct vmsa_stats **out, const struct vmsa_stats_options *opts,
			 size_t opts_size);
static inline int vmsa_stats_new(struct vmsa_stats **out, const struct vmsa_stats_options *opts)
{
	return vmsa_stats_new_sized(out, opts, sizeof *opts);
}
/* Frees the statistics (NULL is fine); summaries taken from them stay valid. */
void vmsa_stats_free(struct vmsa_stats *st);
/*
 * vmsa_stats_add() - fold one event in (events in timestamp order; a lost
 * marker counts its events).  The event is not kept: its comm may point
 * into a line the caller reuses.  VMSA_E_INVAL for an event of no known
 * type, order or context: nothing of it is counted.  VMSA_E_NOMEM when
 * memory runs out: the statistics are still consistent (a summary can be
 * taken and reports are whole), but the event may be counted in part (as
 * an event of its type and in the trace's span, not in its task's row).
 */
int vmsa_stats_add_sized(struct vmsa_stats *st, const struct vmsa_event *ev, size_t ev_size);
static inline int vmsa_stats_add(struct vmsa_stats *st, const struct vmsa_event *ev)
{
	return vmsa_stats_add_sized(st, ev, sizeof *ev);
}

/* Record what a source read (for the input block of reports). */
int vmsa_stats_add_source_sized(struct vmsa_stats *st, const char *name, const char *format,
				const struct vmsa_source_counts *counts, size_t counts_size,
				const struct vmsa_traits *traits, size_t traits_size);
static inline int vmsa_stats_add_source(struct vmsa_stats *st, const char *name,
					const char *format,
					const struct vmsa_source_counts *counts,
					const struct vmsa_traits *traits)
{
	return vmsa_stats_add_source_sized(st, name, format, counts, sizeof *counts, traits,
					   sizeof *traits);
}

/* ------------------------------------------------------------------ */
/* Recognising an input                                                */
/* ------------------------------------------------------------------ */

/* What an input is, by its content (never by its name). */
enum vmsa_input_kind {
	VMSA_INPUT_TEXT,	/* anything else: read as text lines */
	VMSA_INPUT_SUMMARY,	/* JSON: the first byte not white space is '{' */
	VMSA_INPUT_TRACEDAT,	/* trace-cmd's binary trace.dat ("\x17\x08\x44tracing") */
	VMSA_INPUT_PERFDATA,	/* perf's perf.data ("PERFILE2"); not read */
};

/**
 * vmsa_input_detect() - what an input beginning with the @len bytes at
 * @head is.  Leading white space (space, tab, CR, LF) before a '{' still
 * makes a summary; a head of white space only is text.  Pure: no state,
 * safe from any thread.
 */
enum vmsa_input_kind vmsa_input_detect(const void *head, size_t len);

/**
 * vmsa_input_detect_path() - what the file at @path is, by its first bytes
 * (white space is skipped as far as it goes).  Only regular files are
 * read; FIFOs and devices are not touched (a read would consume what the
 * analysis needs) and are VMSA_INPUT_TEXT: the source recognises a
 * trace.dat or perf.data on them itself.  Standard input ("-") is
 * VMSA_INPUT_SUMMARY when its first byte after white space is '{', found
 * without taking a byte of it (a regular file by pread(), a pipe by
 * tee(2), waiting for its first bytes), else VMSA_INPUT_TEXT.  A file (or
 * a regular file on standard input) compressed with gzip, xz or zstd is
 * what it holds decompressed (a compressed pipe: VMSA_INPUT_TEXT).  Returns
 * 0 with *kind set, or VMSA_E_IO (errno kept) when the file cannot be
 * opened or read, VMSA_E_ISDIR for a directory; *kind is then
 * VMSA_INPUT_TEXT.  Thread-safe (it opens its own descriptor).
 */
int vmsa_input_detect_path(const char *path, enum vmsa_input_kind *kind);

/**
 * vmsa_input_detect_fd() - vmsa_input_detect_path("-") of the descriptor
 * @fd: VMSA_INPUT_SUMMARY when what @fd reads (a regular file from where it
 * stands, a pipe without taking a byte of it) is a JSON summary, else
 * VMSA_INPUT_TEXT.  For a pipe given by a path (/dev/fd/N, /dev/stdin: the
 * caller opens it and keeps it open while the path is read again).
 * Returns 0.
 */
int vmsa_input_detect_fd(int fd, enum vmsa_input_kind *kind);

/**
 * vmsa_input_head() - the first bytes of what the regular file at @path
 * holds: up to @cap of them into @buf, decompressed when the file is
 * compressed with gzip, xz or zstd; their number in *@n.  Returns 0,
 * VMSA_E_IO (errno kept) when it cannot be opened or read, VMSA_E_ISDIR,
 * VMSA_E_INVAL when it is not a regular file, or VMSA_E_DECOMPRESS when its
 * compressed stream is broken before @cap bytes (*@n then counts those
 * decompressed).  Thread-safe.
 */
int vmsa_input_head(const char *path, void *buf, size_t cap, size_t *n);

/* ------------------------------------------------------------------ */
/* Record filters                                                      */
/* ------------------------------------------------------------------ */

/*
 * Which events an analysis folds in (struct vmsa_analyze_options.filter),
 * as ftrace and perf filters select records: every kind given must hold,
 * the values of one kind are alternatives.  A lost-events marker is kept
 * unless it is of a buffer instance the filter leaves out.  The analysis counts the events left out as lines_filtered instead
 * of lines_analyzed.
 */
enum vmsa_filter_kind {
	VMSA_FILTER_PID,	/* "PID[,PID...]": the event's pid */
	VMSA_FILTER_COMM,	/* a fnmatch(3) pattern (no flags) on the task name */
	VMSA_FILTER_CPU,	/* "N[-M][,...]": the CPU that recorded it */
	VMSA_FILTER_SINCE,	/* "SEC[.FRACTION]": trace time at or after */
	VMSA_FILTER_UNTIL,	/* "SEC[.FRACTION]": trace time at or before */
	VMSA_FILTER_INSTANCE,	/* a buffer instance's name (ev->instance);
				 * VMSA_TOP_BUFFER: the top buffer's events
				 * (ev->instance NULL); lost markers too */
};

struct vmsa_filter;

/* A filter that keeps everything; VMSA_E_NOMEM on failure. */
int vmsa_filter_new(struct vmsa_filter **out);
/* Frees the filter (NULL is fine). */
void vmsa_filter_free(struct vmsa_filter *f);
/*
 * vmsa_filter_add() - one criterion, as the command line gives it.  Pids,
 * CPUs and patterns add to those given before; SINCE and UNTIL replace.
 * VMSA_E_INVAL (the filter unchanged) for a malformed @arg, a time finer
 * than nanoseconds, or SINCE after UNTIL; VMSA_E_NOMEM.
 */
int vmsa_filter_add(struct vmsa_filter *f, enum vmsa_filter_kind kind, const char *arg);
/* 1 when @ev passes every criterion of @f, else 0.  Thread-safe (reads only). */
int vmsa_filter_keeps_sized(const struct vmsa_filter *f, const struct vmsa_event *ev,
			    size_t ev_size);
static inline int vmsa_filter_keeps(const struct vmsa_filter *f, const struct vmsa_event *ev)
{
	return vmsa_filter_keeps_sized(f, ev, sizeof *ev);
}

/* ------------------------------------------------------------------ */
/* Tasks' cgroups, for per-cgroup metrics in live mode                 */
/* ------------------------------------------------------------------ */

/*
 * Which cgroup (v2) each traced task is in, as /proc/PID/cgroup's "0::PATH"
 * line says when the task is first noted: best effort, a task that has
 * exited by then (or a kernel without cgroup v2) is unknown, and a task
 * keeps the cgroup it was first seen in.  Tasks are (pid, name) as the
 * summary's rows; a pid under a new name is read again.
 */
struct vmsa_cgroups;

/**
 * vmsa_cgroups_new() - an empty map.  At most @max_tasks tasks are read
 * (0: VMSA_DEFAULT_MAX_TASKS), later ones are unknown; the metrics give at
 * most @max_series cgroups series of their own (vmsa_report_openmetrics_cgroups).
 * VMSA_E_NOMEM on failure.
 */
int vmsa_cgroups_new(struct vmsa_cgroups **out, size_t max_tasks, size_t max_series);
/* Frees the map (NULL is fine). */
void vmsa_cgroups_free(struct vmsa_cgroups *cg);
/**
 * vmsa_cgroups_note() - the first time the task (@pid, @comm of @comm_len
 * bytes) is noted, read its cgroup from /proc/PID/cgroup; afterwards a
 * lookup only.  0, or VMSA_E_NOMEM (the task stays unknown).
 */
int vmsa_cgroups_note(struct vmsa_cgroups *cg, int32_t pid, const char *comm, size_t comm_len);
/* The cgroup noted for the task ("/system.slice/x.service"), NULL when
 * unknown or never noted; reads nothing.  A name the task was never noted
 * under gives the cgroup of the pid's first noted name. */
const char *vmsa_cgroups_find(const struct vmsa_cgroups *cg, int32_t pid, const char *comm);

/* ------------------------------------------------------------------ */
/* Analysis: inputs read into the stats                                */
/* ------------------------------------------------------------------ */

/* What the control callback asks the analysis to do next. */
enum vmsa_analyze_request {
	VMSA_ANALYZE_GO_ON,	/* keep reading */
	VMSA_ANALYZE_REPORT,	/* call the report callback now, then keep reading */
	VMSA_ANALYZE_STOP,	/* stop: the inputs end here (not an error) */
};

/* Where an analysis ended with an error. */
enum vmsa_analyze_stage {
	VMSA_ANALYZE_OPEN,	/* opening input number `input` (or live tracing) */
	VMSA_ANALYZE_READ,	/* reading it (live: draining the buffers) */
	VMSA_ANALYZE_ADD,	/* the stats could not take an event or the input's counts */
	VMSA_ANALYZE_REPORTING,	/* the report callback returned its error */
};

/* How far an input is, for a progress line. */
struct vmsa_analyze_progress {
	const char *path;		/* the input, as given */
	uint64_t size;			/* its size in bytes (a regular file) */
	uint64_t events;		/* events given to the stats from it so far */
	double elapsed_s;		/* since it was opened */
	const struct vmsa_source_counts *counts; /* bytes_read; lines_read (records) */
	const struct vmsa_traits *traits; /* tracedat_version != 0: a trace.dat */
	int done;			/* 1: the last call for this input, read or not */
};

/* One interval of an analysis with interval reports (interval_report). */
struct vmsa_interval {
	uint64_t index;		/* 1 for the first interval, then 2, 3, ... */
	int final;		/* 1: the last one, cut short by the end of the input */
	double wall_start_s;	/* wall clock (CLOCK_REALTIME), seconds since the epoch */
	double wall_end_s;
};

/*
 * What vmsa_analyze_files() and vmsa_analyze_live() do besides reading.
 * Every member may be zero (no callback, the default); all callbacks run
 * in the caller's thread and get @payload (the reject callback gets
 * reject_payload).
 */
struct vmsa_analyze_options {
	/* text decoding threads for a regular file (vmsa_source_set_threads;
	 * 0: auto); the files of a merged group share them */
	int threads;
	/* join events broken over several lines (vmsa_source_set_unwrap) */
	int unwrap;
	/* the program that reads a trace.dat (vmsa_open_options); NULL: fork */
	const char *tracedat_reader;
	/* NULL: every event; else only those it keeps (the others are counted
	 * in each input's lines_filtered); the caller keeps it */
	const struct vmsa_filter *filter;
	/* > 0: call @report every interval_s seconds (input waits at most
	 * 100 ms, so a quiet pipe still gets its reports) */
	double interval_s;
	/* rejected lines (vmsa_source_set_reject_cb) */
	vmsa_reject_cb reject_cb;
	void *reject_payload;
	/*
	 * A counter a signal handler bumps (may be NULL).  While events flow,
	 * @control is called when *attention has changed or after 4096
	 * events; it is also called whenever the input has nothing yet and,
	 * live, every 100 ms.  Returns an enum vmsa_analyze_request.
	 */
	const volatile sig_atomic_t *attention;
	int (*control)(void *payload);
	/* An interim report of the stats (the input's counts are recorded
	 * first); a non-zero return (an enum vmsa_error) ends the analysis
	 * with stage VMSA_ANALYZE_REPORTING. */
	int (*report)(const struct vmsa_stats *st, void *payload);
	/* Regular files over progress_min_bytes: @progress every
	 * progress_every_s seconds, when control is looked at, and once with
	 * done = 1 when the file is finished with. */
	void (*progress)(const struct vmsa_analyze_progress *p, void *payload);
	uint64_t progress_min_bytes;
	double progress_every_s;
	/* Each input read to its end, after its counts went into the stats. */
	void (*input_end)(const char *path, const struct vmsa_source_counts *counts,
			  const struct vmsa_traits *traits, void *payload);
	void *payload;
	/*
	 * With interval_s > 0: called every interval_s seconds instead of
	 * @report, and once more (final = 1) when the inputs end without an
	 * error, with the statistics of that interval alone (@delta: its
	 * events, input counts, counters, histograms; a window still open at
	 * the boundary is counted as begun in the interval it began in and
	 * completed in the one it ends in) and the cumulative @st since the
	 * start.  The counters of the deltas add up to @st's.  A non-zero
	 * return ends the analysis as @report's does.  A @report request
	 * (control) still reports @st.
	 */
	int (*interval_report)(const struct vmsa_stats *delta, const struct vmsa_stats *st,
			       const struct vmsa_interval *iv, void *payload);
	/* Live only: each event's task is noted in @cgroups (its cgroup read
	 * once, when the task first appears); NULL: none. */
	struct vmsa_cgroups *cgroups;
};

/* How an analysis ended. */
struct vmsa_analyze_result {
	int err;		/* 0, or the enum vmsa_error that ended it */
	enum vmsa_analyze_stage stage;	/* where, when err != 0 */
	int input;		/* the input it ended on (index into paths); -1 live */
	int sys_errno;		/* errno for VMSA_E_IO */
	const char *format;	/* that input's format (vmsa_source_format; static
				 * storage), NULL if it did not open */
	int stopped;		/* control asked to stop (err is 0) */
	/* VMSA_E_DECOMPRESS: where the compressed input failed (its byte
	 * offset) and why ("truncated xz stream"; static storage) */
	uint64_t offset;
	const char *why;
};

/**
 * vmsa_analyze_files() - open each of @paths[0..@n) in turn ("-" is
 * standard input, streamed), give every event to @st, record each input's
 * counts with vmsa_stats_add_source(), and close it.  Stops at the first
 * error or when @opts->control asks to; what was read stays in @st.
 * @opts may be NULL.  Returns 0 (also when stopped) or the error, which
 * *@res (may be NULL) places.  The caller keeps @st, @paths and @opts;
 * nothing is left open.  Not thread-safe on one @st; it may start decoder
 * threads of its own, which are joined before it returns.
 */
int vmsa_analyze_files_sized(struct vmsa_stats *st, const char *const *paths, int n,
			     const struct vmsa_analyze_options *opts, size_t opts_size,
			     struct vmsa_analyze_result *res, size_t res_size);
static inline int vmsa_analyze_files(struct vmsa_stats *st, const char *const *paths, int n,
				     const struct vmsa_analyze_options *opts,
				     struct vmsa_analyze_result *res)
{
	return vmsa_analyze_files_sized(st, paths, n, opts, sizeof *opts, res, sizeof *res);
}

/**
 * vmsa_analyze_live() - trace the running kernel (vmsa_live_open() with
 * @lopts) into @st until @duration_s seconds have passed (0: no limit) or
 * @opts->control asks to stop, then stop the events, drain the rest and
 * remove the instance (on every path).  The buffers are drained every
 * 100 ms; @opts->control is asked each time.  Errors as
 * vmsa_analyze_files(): opening is stage VMSA_ANALYZE_OPEN (VMSA_E_PERM,
 * VMSA_E_NOTRACEFS, ...), a failed drain VMSA_ANALYZE_READ.  The caller
 * should ignore SIGPIPE so that a closed output does not skip the cleanup.
 */
int vmsa_analyze_live_sized(struct vmsa_stats *st, const struct vmsa_live_options *lopts,
			    size_t lopts_size, double duration_s,
			    const struct vmsa_analyze_options *opts, size_t opts_size,
			    struct vmsa_analyze_result *res, size_t res_size);
static inline int vmsa_analyze_live(struct vmsa_stats *st, const struct vmsa_live_options *lopts,
				    double duration_s, const struct vmsa_analyze_options *opts,
				    struct vmsa_analyze_result *res)
{
	return vmsa_analyze_live_sized(st, lopts, sizeof *lopts, duration_s, opts, sizeof *opts,
				       res, sizeof *res);
}

/* ------------------------------------------------------------------ */
/* Summary and reports                                                 */
/* ------------------------------------------------------------------ */

struct vmsa_summary;

/**
 * vmsa_stats_summary() - a snapshot: reclaims still open are reported as
 * in progress; the stats go on unchanged.  @st is const as far as what it
 * counted goes, but not as memory: the summary shares its rows, which this
 * marks copy-on-write (the stats copy a shared row before they change it),
 * so two threads must not take summaries of one @st at once.
 */
int vmsa_stats_summary(const struct vmsa_stats *st, struct vmsa_summary **out);
/* Frees a summary (NULL is fine). */
void vmsa_summary_free(struct vmsa_summary *sum);

struct vmsa_report_options {
	int ignore_pid;
	int latency_list;	/* classic: print the per-task latency list */
	int pretty;		/* JSON: indent */
	int histogram;		/* classic: log2 latency histograms */
	/* classic: the process and kswapd tables by this field, largest first
	 * (vmsa_sort_field() names them; NULL: by name, then pid) */
	const char *sort;
	/* classic: > 0, at most top rows a table, the rest added up in one
	 * "(N others)" row (by sort, else by latency_ns) */
	size_t top;
};

/*
 * vmsa_sort_field() - the i-th field the classic tables can be sorted by
 * (struct vmsa_report_options.sort), NULL past the last: the per-task
 * field names of the summary ("pages_scanned", "latency_ns", ...), each
 * read in a table's own context (direct reclaim for the process table,
 * kswapd for the kswapd table).  Static strings.
 */
const char *vmsa_sort_field(size_t i);

/*
 * vmsa_report_classic() - the text report to @f: the 6.1 script's layout,
 * then what that layout has no room for.  @opts may be NULL.  VMSA_E_IO if
 * @f reports a write error (the caller still owns and closes @f),
 * VMSA_E_INVAL for an unknown @opts->sort, VMSA_E_NOMEM.
 */
int vmsa_report_classic_sized(FILE *f, const struct vmsa_summary *sum,
			      const struct vmsa_report_options *opts, size_t opts_size);
static inline int vmsa_report_classic(FILE *f, const struct vmsa_summary *sum,
				      const struct vmsa_report_options *opts)
{
	return vmsa_report_classic_sized(f, sum, opts, sizeof *opts);
}
/* The JSON summary (docs/json-schema.md) to @f; as vmsa_report_classic(). */
int vmsa_report_json_sized(FILE *f, const struct vmsa_summary *sum,
			   const struct vmsa_report_options *opts, size_t opts_size);
static inline int vmsa_report_json(FILE *f, const struct vmsa_summary *sum,
				   const struct vmsa_report_options *opts)
{
	return vmsa_report_json_sized(f, sum, opts, sizeof *opts);
}
/* A self-contained SVG: pages scanned over time (direct, kswapd) with the
 * longest stalls marked, and the direct stall distribution. */
int vmsa_report_svg(FILE *f, const struct vmsa_summary *sum, const char *title);

/* A few totals, for tests and for callers that want numbers, not text. */
struct vmsa_ctx_totals {
	uint64_t reclaims;		/* windows begun (direct/memcg/node) */
	uint64_t reclaims_completed;
	uint64_t in_progress;
	uint64_t pages_scanned, pages_scanned_file, pages_scanned_anon;
	uint64_t pages_reclaimed, pages_reclaimed_file, pages_reclaimed_anon;
	uint64_t write_file_async, write_anon_async;
	uint64_t write_file_sync, write_anon_sync;
	uint64_t write_pages;		/* pages, where events say */
	uint64_t latency_ns;		/* stall (direct) or awake (kswapd) */
	uint64_t end_nr_reclaimed;	/* sum of *_reclaim_end nr_reclaimed */
	uint64_t retries;		/* the priority went back up inside a window */
};

struct vmsa_totals {
	struct vmsa_ctx_totals ctx[VMSA_CTX__COUNT];
	uint64_t wakeup_kswapd;
	uint64_t kswapd_wakeups, kswapd_rewakeups;
	uint64_t throttled[VMSA_THROTTLE__COUNT];
	uint64_t throttled_usec[VMSA_THROTTLE__COUNT];
	uint64_t unmatched_ends, unmatched_begins;
	uint64_t flusher_wakeups[VMSA_FLUSH__COUNT];
	uint64_t flusher_dirty_pages[VMSA_FLUSH__COUNT];	/* dirty folios met */
	uint64_t flusher_requested_pages[VMSA_FLUSH__COUNT];	/* 0 = "all" requests */
	/* the flushers' passes (writeback_start to _written of one worker), by
	 * reason; known only when the trace has writeback events */
	int writeback_known;		/* 0: the trace has no writeback events */
	uint64_t writeback_passes[VMSA_WB__COUNT];
	uint64_t writeback_pages[VMSA_WB__COUNT];	/* pages the passes wrote */
	uint64_t writeback_unpaired;	/* a _written without its _start, or the reverse */
	/* mm_vmscan_reclaim_pages, by enum vmsa_reclaim_pages_count */
	uint64_t reclaim_pages[VMSA_RP__COUNT];
	uint64_t events_lost;		/* what the lost-event markers say */
	uint64_t tasks;
	uint64_t tasks_folded;		/* beyond max_tasks */
	int sync_applicable;		/* 0: modern trace, sync counts are n/a */
	int scans_missing;		/* begin/end seen, no lru_isolate */
	/* lost-event markers that said no number (trace-cmd's "[EVENTS
	 * DROPPED]", a LOST event of lost 0): how many events were lost is not
	 * known, events_lost is only the part the others said */
	uint64_t lost_markers_without_count;
};

/* Fills *out with the summary's totals: 0, or VMSA_E_INVAL for a size
 * below the first version's. */
int vmsa_summary_totals_sized(const struct vmsa_summary *sum, struct vmsa_totals *out,
			      size_t out_size);
static inline int vmsa_summary_totals(const struct vmsa_summary *sum, struct vmsa_totals *out)
{
	return vmsa_summary_totals_sized(sum, out, sizeof *out);
}

/* Per-task row lookup for tests: NULL when no such task. */
const struct vmsa_task_row *vmsa_summary_find_task(const struct vmsa_summary *sum,
						   const char *comm, int32_t pid);

/* ------------------------------------------------------------------ */
/* JSON summary documents: merge, query, check                         */
/* ------------------------------------------------------------------ */

struct vmsa_doc;

/* The summary as a JSON document (what vmsa_report_json() prints); the
 * document does not refer to the summary afterwards.  VMSA_E_NOMEM. */
int vmsa_doc_from_summary(struct vmsa_doc **out, const struct vmsa_summary *sum);
/* The same document, reading its task rows from @sum when they are needed
 * (vmsa_report_openmetrics_cgroups() makes one at a time; a write, a merge
 * or vmsa_summary_from_doc() add them all first), so @sum must outlive it:
 * for reports that read few rows or none, where a hundred thousand tasks
 * made as one tree took seconds.  VMSA_E_NOMEM. */
int vmsa_doc_from_summary_ref(struct vmsa_doc **out, const struct vmsa_summary *sum);
/* As vmsa_doc_from_summary_ref(), the document taking @sum: it is freed with
 * the document (and here, when the document cannot be made). */
int vmsa_doc_from_summary_take(struct vmsa_doc **out, struct vmsa_summary *sum);
/* VMSA_E_IO (cannot read), VMSA_E_CORRUPT (not JSON, vmsa_json_bad_number()
 * included), VMSA_E_UNSUPPORTED (not a vmscan-analyze summary of this schema
 * version: schema_version must be the integer 1).  @path "-" reads standard
 * input to its end. */
int vmsa_doc_parse_file(struct vmsa_doc **out, const char *path);
/*
 * vmsa_json_bad_number() - the first number in the JSON text @t (@n bytes,
 * NUL-terminated) that is not a JSON number a summary can hold, or NULL:
 * NaN and Infinity (json-c's reader takes them, JSON has no such literal),
 * a number whose value overflows a double (1e400), an integer outside
 * [-2^63, 2^64 - 1] (json-c would keep 2^64 - 1 for 2^64 + 5) and an integer
 * with a leading zero (01).  What it is goes to *@why (static text).
 */
const char *vmsa_json_bad_number(const char *t, size_t n, const char **why);
/* The same, its task rows ("processes", "kswapd") left out as they are read:
 * for numbers, checks and comparisons (a summary of 65,000 tasks is 250 MB
 * of rows).  A write, a merge or vmsa_summary_from_doc() of it fails with
 * VMSA_E_INVAL. */
int vmsa_doc_parse_file_no_rows(struct vmsa_doc **out, const char *path);
/*
 * vmsa_summary_from_doc() - a summary of the document @d (a JSON summary
 * read back, or a merge), for vmsa_report_classic() and vmsa_report_svg():
 * its rows, totals, input counts, notes and histograms.  What a summary
 * document does not hold stays out: the latency list, the SVG's timeline
 * and stall marks, and how often timestamps went backwards.  Returns
 * VMSA_E_CORRUPT when @d lacks a summary's objects, VMSA_E_NOMEM.
 */
int vmsa_summary_from_doc(struct vmsa_summary **out, const struct vmsa_doc *d);
/* Adds src into dst (docs/json-schema.md, "Merging").  VMSA_E_OVERFLOW
 * (dst then half merged: free it) when a sum of counts passes 2^64 - 1;
 * VMSA_E_INVAL for documents of another layout, VMSA_E_NOMEM. */
int vmsa_doc_merge(struct vmsa_doc *dst, struct vmsa_doc *src);
/* The document as JSON to @f (indented if @pretty); VMSA_E_IO on a write error. */
int vmsa_doc_write(FILE *f, const struct vmsa_doc *d, int pretty);
/* A dotted path ("totals.direct.pages_scanned"): 0 and *v, 1 if null,
 * VMSA_E_INVAL if absent or not a number. */
int vmsa_doc_number(const struct vmsa_doc *d, const char *path, double *v);
/* 1 when the document's notes have one of @key ("key: text"), else 0. */
int vmsa_doc_has_note(const struct vmsa_doc *d, const char *key);

/**
 * vmsa_doc_validate() - whether @d (a summary read from a file) holds what
 * the schema says (docs/summary.schema.json): every required field, each
 * of its type (counts, pages, ns and ids integers from 0 to 2^64 - 1;
 * flags true or false; text strings; objects and lists of their members),
 * null only where a field may be.  Task rows read apart (or left out) are
 * not looked at again.  Returns 0, or VMSA_E_CORRUPT with "path: what is
 * wrong" in @why (@n bytes; "totals.direct.writes.pages: null, ..."),
 * VMSA_E_INVAL without a document.
 */
int vmsa_doc_validate(const struct vmsa_doc *d, char *why, size_t n);
/* Frees a document (NULL is fine). */
void vmsa_doc_free(struct vmsa_doc *d);

/* What a summary field counts (docs/json-schema.md). */
enum vmsa_unit {
	VMSA_UNIT_COUNT,	/* events, calls, tasks */
	VMSA_UNIT_PAGES,
	VMSA_UNIT_NS,		/* nanoseconds */
	VMSA_UNIT_ID,		/* pid, node id */
	VMSA_UNIT_FLAG,		/* true or false */
	VMSA_UNIT_TEXT,
	VMSA_UNIT_OBJECT,
	VMSA_UNIT_LIST
};
/* 0 and *unit (if unit is not NULL) when path ("totals.direct.pages_scanned",
 * as check takes it) is a field of the summary schema, else VMSA_E_INVAL. */
int vmsa_summary_field(const char *path, enum vmsa_unit *unit);
/* "count", "pages", "ns", ... */
const char *vmsa_unit_name(enum vmsa_unit u);

/* What a threshold says of a summary (vmsa_threshold_check()). */
enum vmsa_verdict {
	VMSA_VERDICT_HOLDS,
	VMSA_VERDICT_VIOLATED,
	VMSA_VERDICT_VACUOUS,		/* a statistic of nothing (nothing it counts happened): passes */
	VMSA_VERDICT_NOT_MEASURED,	/* a value the trace cannot tell (null or absent) */
};

/* A threshold, parsed and (with a document) evaluated. */
struct vmsa_threshold {
	enum vmsa_verdict verdict;
	const char *verdict_name;	/* "holds", "violated", "vacuous", "not measured"; static */
	int pass;
	char field[256];		/* the path it reads (the left one when both are paths) */
	char op[4];			/* "<", "<=", "==", "!=", ">=", ">" */
	double measured, bound;		/* the field's side and the other, factors applied */
	int measured_null, bound_null;	/* that side has no value (vacuous, not measured) */
	/* "measured X = 12, bound 0: violated", or why it does not parse */
	char message[1536];
};

/**
 * vmsa_threshold_check() - the threshold @expr, "A OP B" (OP one of < <= ==
 * != >= >; A and B a number, a field path of the summary schema as
 * vmsa_summary_field() takes it, or NUMBER * path; at least one a path),
 * evaluated on @d into *@t.  A field the trace cannot tell (null, or absent
 * from @d) is VMSA_VERDICT_NOT_MEASURED, which passes only with
 * @missing_pass; a statistic of a histogram that counted nothing is
 * VMSA_VERDICT_VACUOUS and passes when nothing it counts happened, else (one
 * began and never ended; lines rejected, events lost)
 * it is not measured.  A finite NUMBER * path past a double's range is not
 * measured and fails even with @missing_pass.  @d NULL: only parsed
 * (t->field and t->op set).  Returns 0, or VMSA_E_INVAL for an expression
 * that does not parse, names no field, a path not in the schema or not a
 * number, a number that is not finite, with the reason in t->message.
 */
int vmsa_threshold_check_sized(const struct vmsa_doc *d, const char *expr, int missing_pass,
			       struct vmsa_threshold *t, size_t t_size);
static inline int vmsa_threshold_check(const struct vmsa_doc *d, const char *expr,
				       int missing_pass, struct vmsa_threshold *t)
{
	return vmsa_threshold_check_sized(d, expr, missing_pass, t, sizeof *t);
}

/*
 * vmsa_report_compare() - the summaries side by side, one column each, in
 * the rows of the 2010 cover letter, then 6.1's and derived rows.  json:
 * {"columns": [...], "rows": [{"row": label, "values": [...]}]}; relative:
 * each cell also shows its change against the first column.
 */
int vmsa_report_compare(FILE *f, const struct vmsa_doc *const *docs, const char *const *names,
			int n, int json, int relative);

/* A column of vmsa_report_compare_groups(): the summaries of repeated runs
 * of one setting (one run is a column of one). */
struct vmsa_compare_column {
	const char *name;
	const struct vmsa_doc *const *runs;
	int nruns;		/* at least 1 */
};

/*
 * vmsa_report_compare_groups() - the rows of vmsa_report_compare(), each
 * column the runs of one setting: per row and column the mean and sample
 * standard deviation (n - 1) of the runs that have a value (a null is left
 * out, never counted as 0, and the cell says how many had one), and
 * Welch's t-test (two-sided, Welch-Satterthwaite degrees of freedom) of
 * its mean against the first column's, significant below p = 0.05; a
 * column with one value is not tested.  json: {"test": {...}, "columns":
 * [{"name", "runs"}], "rows": [{"row", "columns": [{"n", "mean", "sd",
 * "min", "max", "values", "t", "df", "p", "significant"}]}]}
 * (README, "Repeated runs").  relative: also each mean's change against
 * the first column's.  0, VMSA_E_INVAL (no column, a column of no runs),
 * VMSA_E_NOMEM or VMSA_E_IO.
 */
int vmsa_report_compare_groups_sized(FILE *f, const struct vmsa_compare_column *cols,
				     size_t col_size, int n, int json, int relative);
static inline int vmsa_report_compare_groups(FILE *f, const struct vmsa_compare_column *cols,
					     int n, int json, int relative)
{
	return vmsa_report_compare_groups_sized(f, cols, sizeof *cols, n, json, relative);
}

/*
 * vmsa_report_compare_svg() - the columns of vmsa_report_compare_groups()
 * as a self-contained SVG dot plot: a strip per row that has a value, each
 * run a dot in its column's lane and colour, each column's mean a bar, '*'
 * where the test marks it; data-* attributes carry the values drawn.  0,
 * VMSA_E_INVAL, VMSA_E_NOMEM or VMSA_E_IO.
 */
int vmsa_report_compare_svg_sized(FILE *f, const struct vmsa_compare_column *cols,
				  size_t col_size, int n);
static inline int vmsa_report_compare_svg(FILE *f, const struct vmsa_compare_column *cols, int n)
{
	return vmsa_report_compare_svg_sized(f, cols, sizeof *cols, n);
}

/* ------------------------------------------------------------------ */
/* Metrics: OpenMetrics and Prometheus text exposition                 */
/* ------------------------------------------------------------------ */

/* The two text exposition formats vmsa_report_openmetrics() writes. */
enum vmsa_metrics_format {
	/* OpenMetrics 1.0 (application/openmetrics-text; version=1.0.0):
	 * counter families named without _total, # UNIT lines, # EOF last */
	VMSA_METRICS_OPENMETRICS,
	/* Prometheus text format 0.0.4, what node_exporter's textfile
	 * collector reads: counter families named with _total, no # UNIT,
	 * no # EOF; the same samples otherwise */
	VMSA_METRICS_PROMETHEUS,
};

/**
 * vmsa_report_openmetrics() - the summary document @d as metrics named
 * vmscan_* (README, "Fleet"): counters by reclaim context, page type, write
 * mode and throttle or flusher reason, and the latency histograms in
 * seconds with fixed power-of-two bucket bounds.  A value that is null or
 * absent in @d (not known from the trace) is left out, never written as 0;
 * a family with no known value is left out whole.  Works on any document:
 * from vmsa_doc_from_summary() (or _ref(), _take()), a parsed summary file
 * or a merge.  @d is
 * only read.  Returns 0, VMSA_E_NOMEM, VMSA_E_CORRUPT (@d is not a
 * summary) or VMSA_E_IO (writing @f failed).  Safe to call from several
 * threads at once on different FILEs.
 */
int vmsa_report_openmetrics(FILE *f, const struct vmsa_doc *d, enum vmsa_metrics_format fmt);

/**
 * vmsa_report_openmetrics_cgroups() - as vmsa_report_openmetrics(), plus
 * per-cgroup families vmscan_cgroup_* (README, "Fleet") with a cgroup label,
 * from @d's task rows and the cgroups @cg noted for them (NULL: none, the
 * same output as vmsa_report_openmetrics()).  Cardinality is bounded: the
 * first max_series cgroups with reclaim activity, by direct stall time, get
 * series of their own and keep them for the life of @cg (so every series
 * only grows), the rest are summed as cgroup="other" and tasks whose cgroup
 * is unknown as cgroup="unknown".  @cg records which cgroups have series:
 * not thread-safe on one @cg.
 */
int vmsa_report_openmetrics_cgroups(FILE *f, const struct vmsa_doc *d,
				    enum vmsa_metrics_format fmt, struct vmsa_cgroups *cg);

/* Writes a file's whole content into @f; 0 or a negative enum vmsa_error. */
typedef int (*vmsa_write_cb)(FILE *f, void *payload);

/**
 * vmsa_write_file_atomic() - replace @path with what @cb writes, so that a
 * reader sees the old file or the new one, never a part: @cb writes into a
 * temporary file in the same directory (".NAME.XXXXXX"), which is flushed,
 * fsync()ed and renamed over @path, and the directory is fsync()ed.  The new
 * file has mode 0644.  On any failure the temporary file is removed and
 * @path is left as it was; the return value is @cb's error, or VMSA_E_IO
 * (errno kept) when the file cannot be created, written, synced or renamed,
 * or VMSA_E_NOMEM.  Thread-safe; concurrent writers of one @path each
 * replace it whole, the last rename wins.  A symlink is followed: the file
 * it leads to is replaced (its temporary file beside it), the link stays.
 * A @path that is not a regular file (a device, a FIFO: /dev/stdout) is
 * written as it is, without a temporary file or rename, so that the node
 * stays; a directory is VMSA_E_IO (EISDIR).
 */
int vmsa_write_file_atomic(const char *path, vmsa_write_cb cb, void *payload);
/**
 * vmsa_write_file_target() - the file vmsa_write_file_atomic(@path) writes:
 * @path after its symlinks (their target when it exists, else the last name
 * the chain of links gives), @path itself when it is no link; malloc'd,
 * NULL when out of memory.  (Where a caller looks for room for the
 * temporary file, or for the file an output would replace.)
 */
char *vmsa_write_file_target(const char *path);

#ifdef __cplusplus
}
#endif
#endif /* VMSA_VMSA_H */
