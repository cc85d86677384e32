/* SPDX-License-Identifier: MIT */
/*
 * The text decoder's parts (private to src/input/text*.c):
 *   text_scan.h, text_scan.c     the line scanner: bytes, spaces, numbers, timestamps
 *   text_header.c                the columns before the fields: task, pid, CPU,
 *                                timestamp, event name; ftrace and perf dialects;
 *                                lost-events markers
 *   text_task.h                  the task memo: the task and pid of a line that
 *                                begins like an earlier one
 *   text_fields.h, text_fields.c the field reader: the catalogue's keys, learned
 *                                layouts, the general reader, values and the
 *                                remembered values of a field text
 *   text.c                       the decoder: vmsa_text_parse_line(), counting
 * This header holds their types and the parser.
 */
#ifndef VMSA_TEXT_INTERNAL_H
#define VMSA_TEXT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../internal.h"
#include "events.h"
#include "input.h"
#include "text_scan.h"

#define MAX_COMM VMSA_COMM_MAX
/* "<...>", the task of a line without its task column (text_header.c) */
extern const char vmsa_unknown_comm[6];
#define MAX_FIELDS 32
#define MAX_KEY 64 /* bytes of a key */

#define NEVENTS 32 /* names of catalogue events, at most */
/* remembered values: lines of an event looked up, found; lines not looked up */
struct value_tally {
	uint32_t lines, found, pause;
	bool probed;  /* the first, short probe is over */
	bool partial; /* looked up by the text from the first field read on */
	uint8_t bits; /* the table's slots: 1 << bits (0: none yet) */
};

/* ---- the header: task, pid, cpu, timestamp, event name ----------- */

struct header_tpl; /* (the task memo's) */

struct header {
	const char *comm;
	size_t comm_len;
	int32_t pid;
	int32_t cpu;
	uint64_t ts;
	const char *name;	/* event name without a "system:" prefix */
	size_t name_len;
	const char *fields, *end;
	bool perf;
	/* 0: microseconds, 1: finer (more than 6 fraction digits),
	 * TS_INTEGER: an integer, taken as ns */
	uint8_t fine_ts;
	const char *cpu_col; /* parse_header(): the '[' of the CPU column */
	bool first_lb;	     /* parse_header(): it is the line's first '[' */
	/* parse_header()'s inputs, set by its caller: the template to read the
	 * columns from the '[' on by where they fit it (NULL: none), and the
	 * count of lines it read */
	const struct header_tpl *tpl;
	uint64_t *tpl_reads;
	const char *inst;    /* the buffer instance's name before the line ("dat: "), or NULL */
	size_t inst_len;
};


/* h->cpu_col: the '[' of the CPU column; h->first_lb: the line's first '[' */
bool vmsa_text_parse_header(const char *s, const char *first, const char *e, struct header *h);
/* The line begins like a trace line: a task and pid before a CPU column "[N]" (the
 * rest may be missing: a line broken when it was pasted). */
bool vmsa_text_line_start(const char *s, const char *first, const char *e);
/* first (a line's first byte that is no space) past a mail's quoting of
 * the line ("> ", ">> ", "> > "): a run of '>' and spaces */
const char *vmsa_text_unquote(const char *first, const char *e);
/* After the buffer instance's name that trace-cmd report prints before a
 * line ("dat: "): the text after it, or NULL when the line has none. */
const char *vmsa_text_after_instance(const char *s, const char *first, const char *e);
/* The columns from the CPU column's '[' at q on: CPU, flags, timestamp, event name. */
bool vmsa_text_cpu_to_name(const char *q, const char *e, struct header *h);
/* The same, and *t learned from them (emptied when they have no template's
 * shape); with SSE2 only, as templates are read */
bool vmsa_text_cpu_to_name_learn(const char *q, const char *e, struct header *h,
				 struct header_tpl *t);
/* The event name at r (where a line's header template says it begins), as
 * vmsa_text_cpu_to_name() reads it from there */
bool vmsa_text_name_at(const char *r, const char *e, struct header *h);
/* The fields [f, e) of an event that did not read cleanly: where another
 * line glued to them begins (a lost newline, a '\r' alone ending a line),
 * or NULL */
const char *vmsa_text_joined_line(const struct vmsa_catalogue *c, const char *f, const char *e);
/* "CPU:N [LOST M EVENTS]" (trace_pipe), "CPU:N [M EVENTS DROPPED]" (trace-cmd):
 * *n, whether it is known (a marker that says none, or a damaged count: not),
 * *end where the marker ends in [p, e) */
bool vmsa_text_parse_lost(const char *p, const char *e, uint64_t *n, bool *known,
			  const char **end);

/* ---- the task memo (text_task.h) ------------------------------------ */

/*
 * Lines of one task begin alike: "<spaces><comm>-<pid> [".  A line that
 * begins with the same bytes, up to and including the first '[', as a
 * line whose header was read has the same task and pid (they depend on
 * nothing after that '['), and its CPU column is at the same place, as
 * parse_header() finds the CPU column at the first '[' that leads to a
 * valid header.  So only the columns after it are read.  (No such start
 * is one of a "CPU:N [" lost-events marker, whose '[' follows no pid, nor
 * of a '#' comment: those lines are told apart before any header.)
 */
#define TASK_MEMO 256 /* sets of two: a line's start is looked for in both */
#define TASK_PREFIX 48

/*
 * The shape of the columns from the CPU column's '[' to the event name, as
 * a task's last line had them: "[001] d..1.     1.000031: ".  Lines of a
 * task differ there in the digits of the CPU and the timestamp and in the
 * irq/preempt flags, seldom in anything else.  A line whose bytes there
 * are the template's, but for digits where it had digits (the CPU's, the
 * timestamp's) and other flags of the same width, reads the same way as
 * the template's line did (vmsa_text_cpu_to_name()): its CPU and timestamp
 * are read from those digits in place, its event name from where the
 * template's began.  TPL_BYTES at most (two 16-byte compares).
 */
#define TPL_BYTES 32
#define TPL_READ (TPL_BYTES + 8) /* bytes a line has from its '[' on to be read by one */
struct header_tpl {
	uint8_t len;	       /* bytes from the '[' to the event name; 0: none learned */
	uint8_t cpu_n;	       /* the CPU's digits, after the '[' */
	uint8_t sec_off, sec_n; /* the timestamp's seconds */
	uint8_t frac_n;	       /* its fraction's digits, after the '.' */
	uint32_t exact;	       /* bit i: byte i is text[i] */
	uint32_t digit;	       /* bit i: byte i is a digit */
	uint32_t flag;	       /* bit i: byte i is no space (a flag after the first) */
	uint32_t flag0;	       /* bit i: byte i is neither a space nor a digit (the first flag) */
	char text[TPL_BYTES];
};

struct task_memo {
	uint8_t plen;	/* 0: empty; bytes of prefix, the '[' last */
	bool perf;
	uint16_t comm_off, comm_len;
	uint8_t inst_off, inst_len; /* the instance's name in the prefix; len 0: none */
	int32_t pid;
	char prefix[TASK_PREFIX];
	struct header_tpl tpl;
};
struct task_memo_set {
	struct task_memo way[2];
	uint8_t recent; /* the way last found or stored; the other is replaced */
};


/* ---- fields (text_fields.h) ------------------------------------------ */

/*
 * The field names any event reads (the catalogue's fields and their
 * aliases), each once: a line's "k=v" tokens are looked up once into
 * struct fields, indexed by these; decoders never search by name.
 */
#define K_NONE 0xff /* a field no event reads */

struct text_keys {
	uint8_t n;
	uint8_t len[VMSA_MAX_TEXT_KEYS];
	const char *name[VMSA_MAX_TEXT_KEYS];
	uint32_t of_field[VF__COUNT]; /* bit k: key k names the field, by precedence */
};

struct span {
	const char *p;
	uint32_t len;
};

struct fields {
	uint32_t present; /* bit k: v[k] is set */
	struct span v[VMSA_MAX_TEXT_KEYS];
};


/*
 * Layouts.  A kernel prints an event's fields in a fixed order, so after
 * one line of an event has been read by name, the next ones are read in
 * place: each key is compared where the layout says it is, and values not
 * needed are stepped over.  A line that differs in any way (another key,
 * spacing, one token more or less) is read by the general reader, which
 * relearns the layout from it.  Both readers give the same fields for every
 * line the fast one accepts (tests/unit/test_layouts.c compares them).
 */
struct layout_slot {
	char key16[16];	/* the key and '=', zero-padded (compared 16 at once) */
	uint32_t kmask;	/* bit i: byte i of key16 is part of it */
	uint16_t koff;	/* the key and its '=' in layout.keys */
	uint8_t klen;	/* including the '=' */
	uint8_t key;	/* enum key, K_NONE for values skipped */
	uint8_t count;	/* the field when key is a count of one name (plan.plain), else NO_COUNT */
};
#define NO_COUNT 0xff

struct layout {
	bool learned;
	uint8_t n;
	uint8_t lead; /* leading slots that name no field the event reads */
	struct layout_slot slot[MAX_FIELDS];
	char keys[512];
};

/* Flag strings repeat line after line: the ones read are remembered. */
#define FLAG_BITS 5
#define FLAG_MEMO (1u << FLAG_BITS)
struct flag_memo {
	uint8_t type; /* enum vmsa_field_type; 0 (VT_COUNT): empty */
	uint32_t len, bits;
	char text[64];
};

/*
 * How the fields of an event are read: the keys (struct text_keys) that name
 * a field its build reads, with that field and its type; or, for events
 * without "k=v", the labels of those fields.
 */
struct plan_item {
	uint8_t field, type; /* enum vmsa_ev_field, enum vmsa_field_type */
	uint8_t label_len;
	const char *label;
};
struct plan {
	uint32_t keys;
	uint32_t plain; /* of keys: the one name of a VT_COUNT field */
	uint8_t field_of_key[VMSA_MAX_TEXT_KEYS], type_of_key[VMSA_MAX_TEXT_KEYS];
	uint8_t n;
	struct plan_item item[VF__COUNT];
};

/* A name of a catalogue event */
struct text_event {
	const char *name;
	uint8_t len;
	const struct vmsa_event_desc *desc;
	const struct vmsa_event_name *nm;
};

enum { OTHER_NONE, OTHER_VMSCAN, OTHER_SYSTEM };

struct vmsa_text_parser {
	struct vmsa_traits traits;
	uint8_t last_instance; /* traits.instance_events' slot counted last */
	/* the instance of the lost-events marker the line before was, if it
	 * was one: trace-cmd report prints the record after the marker on the
	 * next line without the instance's name.  Names are kept in inst_name
	 * (never overwritten: events point to them). */
	const char *pending_inst;
	size_t pending_len;
	char inst_name[8][64];
	uint8_t ninst_names;
	/* the last line was an event outside the catalogue: the vmscan
	 * system's (OTHER_VMSCAN: mm_vmscan_*, counted by name) or another
	 * system's (OTHER_SYSTEM); else OTHER_NONE */
	uint8_t last_other;
	/* where in the line decoded last the next line begins, glued to it (a
	 * lost newline: vmsa_text_count_line() says VMSA_LINE_SPLIT); 0: no
	 * such line */
	size_t split;
	/* broken lines (vmsa_text_count_line()): the last line that was not an
	 * event, by its number in the counts, whether it began like a trace line
	 * short enough to be broken (a head), whether it ended in a field's '='
	 * or a label (the next may hold its value alone); whether the first line went on a
	 * broken event (vmsa_text_wrap_restart()) */
	uint64_t wrap_last;
	const char *other_line; /* the last line that was not an event */
	size_t other_len;
	bool wrap_last_head, wrap_last_eq, wrap_first_goes_on, wrap_first_goes_on_eq;
	size_t unwrap_width; /* --unwrap: the width of a hard wrap, once seen */
	bool general_only;	  /* shortcuts off (tests compare both readers) */
	bool no_value_memo;	  /* remembered values off (tests read layouts) */
	uint64_t layout_reads;	  /* lines whose fields were read in place */
	uint64_t value_reads;	  /* lines whose values were remembered */
	uint64_t template_reads;  /* lines whose header was read by a template */
	const struct vmsa_catalogue *cat;
	size_t prefix_len; /* of the catalogue's first prefix */
	size_t prefix2_len; /* of its second (0: none) */
	struct flag_memo flag_memo[FLAG_MEMO]; /* by a hash of the text */
	int8_t event_slot[64];	  /* names[] by name hash */
	uint8_t nnames;
	uint64_t first_bytes[4];	  /* the first bytes of names[], a bit each */
	/* the bytes of the catalogue's labels (events printed with labels), a
	 * bit each: a word of another byte is no label (label_word()) */
	uint64_t label_bytes[4];
	struct text_event names[NEVENTS];
	struct text_keys keys;
	struct plan plan[NEVENTS];
	struct task_memo_set task_memo[TASK_MEMO]; /* by a hash of a line's start */
	/* the template learned last: a task new to the memo starts with it
	 * (its columns from the '[' on are every task's), not with none */
	struct header_tpl last_tpl;
	struct value_memo *value_memo[NEVENTS]; /* made when first needed */
	struct value_tally value_tally[NEVENTS];
	struct layout layout[NEVENTS];
};

/*
 * Field texts repeat too: "isolate_mode=0 classzone=2 order=0 nr_requested=32
 * nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file" comes back line
 * after line.  A "k=v" event's decoder reads nothing but its fields (and the
 * parser's flag memo, a cache), so what it made of a text is remembered,
 * by event and a hash of the text, and given again for the same text: the
 * values, and what it counted in the traits.  Rejected lines are decoded
 * every time.
 */
/* per event, by a hash of the text: 32 texts (~18 KB) at first, 512 (~280 KB)
 * once a probe finds fewer than 7 in 8 (the generated text's shrink_inactive
 * lines come back among 232 texts, which 32 slots found 22% of), so that an
 * input of a few lines, or one of thousands of per-CPU files, keeps little */
#define VALUE_MEMO_FIRST_BITS 5
#define VALUE_MEMO_BITS 9
#define VALUE_TEXT 256 /* longer field texts are decoded every time */

/* the traits a decoder counts */
#define DECODER_TRAITS(X)                                                           \
	X(lines_with_lru_name) X(lines_without_lru_name) X(writes_with_sync_field) \
	X(writes_with_flags) X(writes_flag_sync) X(write_folio_events)             \
	X(writes_with_nr_pages)

struct decoder_traits {
#define DT_FIELD(n) uint64_t n;
	DECODER_TRAITS(DT_FIELD)
#undef DT_FIELD
};

struct value_memo {
	uint16_t len;	 /* of text; 0: empty */
	uint8_t skipped; /* tokens before the text (they count toward MAX_FIELDS) */
	struct decoder_traits counted;
	struct vmsa_event ev; /* decoded; the header's values are each line's own */
	char text[VALUE_TEXT];
};

/* ---- the field reader (text_fields.c) -------------------------------- */

/* The catalogue's events and field names, indexed: 0 or VMSA_E_INVAL. */
int vmsa_text_index_catalogue(struct vmsa_text_parser *p);
/* The catalogue event named [name, name + len): its index in p->names, or -1. */
int vmsa_text_find_event(const struct vmsa_text_parser *p, const char *name, size_t len);
/* The fields [s, e) of event by the general reader; relearns its layout. */
void vmsa_text_read_fields_general(struct vmsa_text_parser *p, int event, const char *s,
				   const char *e, struct fields *f);
/* A symbolic value [s, s + n) of type t, remembered when it is a flag string. */
int vmsa_text_read_symbol(struct flag_memo *memo, enum vmsa_field_type t, const char *s, size_t n,
			  uint64_t *out);
/* The values of an event without "k=v" (mm_shrink_slab_*): "label<number>".
 * True when its last label's value was the line's last word, as the kernel
 * prints them (else text may follow the event: vmsa_text_joined_line()).
 * Two such events and a header between them hold more than LABELLED_ONE
 * bytes (mm_shrink_slab_start's fields are some 100 to 180: a function's
 * name, a pointer, the gfp flags; two and a header 220 or more): fields
 * longer than that are looked through too. */
#define LABELLED_ONE 200
bool vmsa_text_values_labelled(struct vmsa_text_parser *p, int event, const char *s,
			       const char *e, struct vmsa_values *v);

#endif
