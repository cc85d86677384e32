/* SPDX-License-Identifier: MIT */
/* Library-private interface between the source front end and its readers. */
#ifndef VMSA_INPUT_H
#define VMSA_INPUT_H

#include "vmsa/vmsa.h"

#include <event-parse.h>

#include "dynlib.h"

/* reclaim_flags of the writeback events, include/trace/events/vmscan.h 2.6.36 .. 6.x */
#define WB_ANON 0x1u
#define WB_FILE 0x2u
#define WB_SYNC 0x4u
#define WB_ASYNC 0x8u
#define WB_MIXED 0x10u

/* What the flags say of the pages: 1 file, 0 anon, -1 neither. */
static inline int8_t vmsa_wb_file(uint64_t flags)
{
	return (flags & WB_FILE) ? 1 : (flags & WB_ANON) ? 0 : -1;
}

/* ---- text (text.c) ---- */
struct vmsa_catalogue;
/* A line decoder that reads the events of *cat (which outlives it); 0,
 * VMSA_E_NOMEM, or VMSA_E_INVAL when the parser cannot hold the catalogue. */
int vmsa_text_parser_new_with(struct vmsa_text_parser **out, const struct vmsa_catalogue *cat);
/* The shortcuts on (the default) or off: learned field layouts, the
 * remembered task columns of a line's start and the remembered values of a
 * field text; tests compare the two. */
void vmsa_text_parser_use_layouts(struct vmsa_text_parser *p, bool on);
uint64_t vmsa_text_parser_layout_reads(const struct vmsa_text_parser *p);
uint64_t vmsa_text_parser_value_reads(const struct vmsa_text_parser *p);
uint64_t vmsa_text_parser_template_reads(const struct vmsa_text_parser *p);
/* Remembered values alone on (the default) or off. */
void vmsa_text_parser_remember_values(struct vmsa_text_parser *p, bool on);
struct vmsa_traits *vmsa_text_parser_traits_mut(struct vmsa_text_parser *p);
/*
 * The broken-event detector (traits.wrapped_events) over batches of lines
 * decoded apart: restart before a batch; after its `lines` lines, its edges:
 * whether its first line went on a broken event (not counted: the batch
 * cannot tell what came before it), read as after a line of no trailing '='
 * and as after one that ends in a field's '=' or a label (whose value a line
 * may hold alone); and whether a line after the batch would follow an event
 * or a head, and a line that ends in a field's '=' or a label.  The first line counts when
 * the batch before it ended after an event or a head, its goes-on the one
 * of how that batch's last line ended.
 */
struct vmsa_wrap_edges {
	bool first_goes_on, first_goes_on_after_eq;
	bool ends_after_head, ends_in_eq;
};
void vmsa_text_wrap_restart(struct vmsa_text_parser *p);
void vmsa_text_wrap_end(const struct vmsa_text_parser *p, uint64_t lines,
			struct vmsa_wrap_edges *edges);
/* The buffer instance of the lost-events marker that was the last line
 * decoded (its record is the next line, printed by trace-cmd report without
 * the name), or NULL; *len its length.  Valid while the decoder is. */
const char *vmsa_text_pending_instance(const struct vmsa_text_parser *p, size_t *len);
/* One line decoded and counted in *c (read, analyzed, ignored, rejected...):
 * its kind, with VMSA_LINE_SPLIT when another line was glued to it (a lost
 * newline, a '\r' alone ending a line): that line begins at
 * vmsa_text_take_split() in it and is to be decoded next, as a line of its own. */
#define VMSA_LINE_SPLIT 8
int vmsa_text_count_line(struct vmsa_text_parser *p, struct vmsa_source_counts *c,
			 const char *line, size_t len, struct vmsa_event *ev,
			 enum vmsa_reject_reason *reason);
/* The input's last line, without its newline, counted as the event ev:
 * when it ends in a digit its last number may be cut ("nr_reclaimed=3" of
 * 34: the text was copied or written in part), and the line is counted as
 * rejected instead (bad_number, *reason): true.  Tracers end every line
 * with a newline. */
bool vmsa_text_cut_event(struct vmsa_text_parser *p, struct vmsa_source_counts *c,
			 const char *line, size_t len, const struct vmsa_event *ev,
			 enum vmsa_reject_reason *reason);
/* Where the next line begins in the line counted last (VMSA_LINE_SPLIT); cleared. */
size_t vmsa_text_take_split(struct vmsa_text_parser *p);
/*
 * Unwrap: the line [b, b + len) of [b, b + n), an event broken over several
 * lines (a trace pasted into a mail), joined in place with the lines after it
 * that go on it when the joined line makes an event.  Returns where the lines
 * joined end (len: nothing joined; n at most), with *joined the lines joined
 * to the first, counted in *c as read and analyzed, and the line to decode
 * [b, b + *line_len) (at most what is returned); or SIZE_MAX when the line
 * after is not whole in [b, b + n) and more input (!eof) could tell.
 */
size_t vmsa_text_unwrap(struct vmsa_text_parser *p, struct vmsa_source_counts *c, char *b,
			size_t len, size_t n, bool eof, unsigned *joined, size_t *line_len);
/* Adds the text counters of src to dst; the first known dialect stays. */
void vmsa_traits_add_text(struct vmsa_traits *dst, const struct vmsa_traits *src);

/* ---- the streaming source (source.c) ---- */
/* Decode in ranges of this many bytes, a batch each (tests make them small;
 * at most 1 MiB; default 256 KiB). */
void vmsa_source_set_batch_bytes(struct vmsa_source *s, size_t bytes);
/* The threads that decode: those the source started and the caller's (0:
 * the caller's alone, reading serially). */
int vmsa_source_workers(const struct vmsa_source *s);

/* ---- live's hold-back (live.c) ---- */
/* Records are handed out once they are this much older (trace time) than
 * the newest record read: tracefs raw reads are not ordered across CPUs. */
#define VMSA_LIVE_HOLD_NS 1000000000ull
/* a late record doubles it until it covers twice its lateness, up to this */
#define VMSA_LIVE_HOLD_MAX_NS (16 * VMSA_LIVE_HOLD_NS)
/* records held at most (224 bytes each): past it the oldest go out early */
#define VMSA_LIVE_MAX_HELD ((size_t)1 << 20)
struct pending;
struct vmsa_comms;
struct vmsa_live_queue {
	struct pending *pend;
	size_t npend, cap;
	size_t sorted;		/* pend[0, sorted) is in order; the rest came since */
	uint64_t seq, max_ts;
	uint64_t out_ts;	/* the latest timestamp handed out */
	uint64_t hold_ns;	/* 0: VMSA_LIVE_HOLD_NS; raised by late records */
	struct vmsa_comms *names; /* the records' task names (made when needed) */
	size_t max_held;	/* 0: VMSA_LIVE_MAX_HELD */
};
/* A decoded record in (its comm copied); VMSA_E_NOMEM. */
int vmsa_live_queue_push(struct vmsa_live_queue *q, const struct vmsa_event *ev);
/* Hands out, in timestamp order, the records held long enough (all of them
 * with @all); one older than a record already handed out is counted in
 * traits->late_events, and the hold-back is doubled until it covers twice
 * how late it came (VMSA_LIVE_HOLD_MAX_NS at most; traits->live_hold_ns).
 * Past max_held records held, the oldest go out before their time
 * (traits->live_released_early), so memory stays bounded at any rate.
 * Stops at and returns cb's first non-zero return.  (Only the records pushed
 * since the last call are sorted, then merged with those held.) */
int vmsa_live_queue_release(struct vmsa_live_queue *q, bool all, struct vmsa_traits *traits,
			    vmsa_event_cb cb, void *payload);
void vmsa_live_queue_free(struct vmsa_live_queue *q);

/* ---- binary records, trace.dat or live (binary.c) ---- */
struct evdesc;
struct vmsa_bin_comm;
struct vmsa_bin_decoder {
	struct vmsa_dl_tep dl;	/* libtraceevent, opened by the decoder */
	const struct vmsa_catalogue *cat;
	struct evdesc *desc;	/* by event id */
	int ndesc;
	struct vmsa_source_counts *counts;
	struct vmsa_traits *traits;
	/* the record header's type and pid, read in place (binary.c) */
	struct tep_handle *tep;
	int type_off, type_size, pid_off, pid_size;
	bool native;		/* the records' byte order is the host's */
	/* task names by pid, remembered when the tep's names cannot change */
	struct vmsa_bin_comm *comms;
	bool remember_comms;
};

enum vmsa_bin_result { VMSA_BIN_EVENT, VMSA_BIN_IGNORED, VMSA_BIN_REJECTED };

/* 0, or VMSA_E_NOLIB: libtraceevent cannot be loaded (release it anyway). */
int vmsa_bin_decoder_init(struct vmsa_bin_decoder *d, struct vmsa_source_counts *counts,
			  struct vmsa_traits *traits);
/* Without libtraceevent: for a decoder given descriptions by another one
 * (vmsa_bin_set_desc(), vmsa_bin_decode_as() only). */
void vmsa_bin_decoder_init_bare(struct vmsa_bin_decoder *d, struct vmsa_source_counts *counts,
				struct vmsa_traits *traits);
void vmsa_bin_decoder_release(struct vmsa_bin_decoder *d);
/* Task names found once are kept by pid: only for a tep whose saved task
 * names are all loaded before the first record (trace.dat). */
void vmsa_bin_decoder_remember_comms(struct vmsa_bin_decoder *d);
/* Decodes and counts (analyzed, ignored or rejected); ev->comm points into tep. */
enum vmsa_bin_result vmsa_bin_decode(struct vmsa_bin_decoder *d, struct tep_handle *tep,
				     struct tep_record *r, struct vmsa_event *ev,
				     enum vmsa_reject_reason *reason);
/* A lost-events marker for r->missed_events (counted; cleared on r). */
void vmsa_bin_lost(struct vmsa_bin_decoder *d, struct tep_record *r, struct vmsa_event *ev);
/* The same for missed events before a record at ts on cpu. */
void vmsa_bin_lost_at(struct vmsa_bin_decoder *d, uint64_t ts, int cpu, int64_t missed,
		      struct vmsa_event *ev);

/* The longest task name an event may carry: a longer one (a crafted or
 * corrupt input: the kernel's are 16 bytes) rejects the line or record
 * (VMSA_REJECT_COMM_TOO_LONG), in text and in trace.dat alike. */
#define VMSA_COMM_MAX 255

/*
 * vmsa_bin_decode() in two halves, for a decoder (the trace.dat child) that
 * hands what it read to another one without the records or the tep (the
 * analyzer): the first says, with the tep, what the record is: its event id
 * and description (NULL: its type cannot be read), and for a known event its
 * task, and how many of its first bytes decoding reads (*need: 0 when none);
 * the descriptions go to the other decoder once each, in the form
 * vmsa_bin_desc_wire() writes (vmsa_bin_desc_size bytes, no pointers: between
 * copies of one program, forked or exec'd), for vmsa_bin_set_desc(); that
 * decoder then decodes and counts the record from those bytes alone.
 */
const struct evdesc *vmsa_bin_describe(struct vmsa_bin_decoder *d, struct tep_handle *tep,
				       struct tep_record *r, int *id, int *pid, const char **comm,
				       size_t *comm_len, unsigned *need);
extern const size_t vmsa_bin_desc_size;
void vmsa_bin_desc_wire(const struct vmsa_bin_decoder *d, const void *desc, void *out);
/* 0, VMSA_E_NOMEM, or VMSA_E_CORRUPT for a bad id or description. */
int vmsa_bin_set_desc(struct vmsa_bin_decoder *d, int id, const void *wire);
bool vmsa_bin_has_desc(const struct vmsa_bin_decoder *d, int id);
/* The *need vmsa_bin_describe() gave for records of event id (0: none). */
unsigned vmsa_bin_need(const struct vmsa_bin_decoder *d, int id);
/* id < 0: the record's type could not be read (rejected, as vmsa_bin_decode()). */
enum vmsa_bin_result vmsa_bin_decode_as(struct vmsa_bin_decoder *d, int id, const void *data,
					int size, uint64_t ts, int cpu, int pid, const char *comm,
					size_t comm_len, struct vmsa_event *ev,
					enum vmsa_reject_reason *reason);

/* ---- binary trace.dat (tracedat.c) ---- */
struct vmsa_tracedat;

/* The reader updates *counts and *traits as it goes; both outlive it.
 * reader: NULL, or the program that reads the file for it in a process of
 * its own (vmsa_open_options.tracedat_reader); else the child is forked. */
int vmsa_tracedat_open(struct vmsa_tracedat **out, const char *path, const char *reader,
		       struct vmsa_source_counts *counts, struct vmsa_traits *traits);
/* The same, with libtracecmd in this process: what vmsa_tracedat_open()
 * does when it cannot make its child (tests compare the two). */
int vmsa_tracedat_open_here(struct vmsa_tracedat **out, const char *path,
			    struct vmsa_source_counts *counts, struct vmsa_traits *traits);
void vmsa_tracedat_close(struct vmsa_tracedat *td);
/* The child reading the file (0: none, the file is read here): for tests. */
pid_t vmsa_tracedat_child_pid(const struct vmsa_tracedat *td);

#define VMSA_TRACEDAT_REJECTED 1
/*
 * 0 with *ev filled (an event or a VMSA_EV_LOST marker), VMSA_E_EOF, or
 * VMSA_TRACEDAT_REJECTED with *reason and *record_no set.
 */
int vmsa_tracedat_next(struct vmsa_tracedat *td, struct vmsa_event *ev, uint64_t *record_no,
		       enum vmsa_reject_reason *reason);

#endif
