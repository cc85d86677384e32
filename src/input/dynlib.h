/* SPDX-License-Identifier: MIT */
/*
 * The libraries only some inputs need, opened when such an input is opened
 * (dlopen), so that a text trace starts without loading them: trace.dat
 * (libtracecmd and libtraceevent), live (libtracefs and libtraceevent) and
 * compressed input (zlib, liblzma, libzstd).  Each reader keeps the table
 * of the functions it calls; the loader counts references, so several
 * readers opening one library share it.  The function types are those of
 * the libraries' own headers (__typeof__), so a call through a table is
 * checked as a direct call would be.
 *
 * The sanitizer and fuzz builds link the libraries (VMSA_DL_LINKED): their
 * runtimes do not follow a dlopen()ed library's thread-local storage well,
 * and dlopen() then finds the library already loaded.
 */
#ifndef VMSA_DYNLIB_H
#define VMSA_DYNLIB_H

#include <event-parse.h>
#include <kbuffer.h>
#include <lzma.h>
#include <trace-cmd.h>
#include <tracefs.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

/*
 * Exported by libtracecmd 3.x and documented there, but declared only in
 * trace-cmd's private header.
 */
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
off_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
struct kbuffer *tracecmd_record_kbuf(struct tracecmd_input *handle, struct tep_record *record);

#define VMSA_DL_TEP(X)                                                                   \
	X(tep_data_comm_from_pid) X(tep_data_pid) X(tep_data_type) X(tep_find_common_field) \
	X(tep_find_event) X(tep_find_event_by_record) X(tep_find_field) X(tep_free)         \
	X(tep_is_file_bigendian) X(tep_is_local_bigendian)                                 \
	X(kbuffer_start_of_data) X(kbuffer_subbuffer_size)

#define VMSA_DL_TRACECMD(X)                                                              \
	X(tracecmd_buffer_instance_handle) X(tracecmd_buffer_instance_name)                  \
	X(tracecmd_buffer_instances) X(tracecmd_close)                                       \
	X(tracecmd_cpus) X(tracecmd_free_record) X(tracecmd_get_cpu_file_size)               \
	X(tracecmd_get_cpustats) X(tracecmd_get_in_file_version) X(tracecmd_get_tep)         \
	X(tracecmd_get_trace_clock) X(tracecmd_page_size) X(tracecmd_record_kbuf)            \
	X(tracecmd_get_uname) X(tracecmd_open) X(tracecmd_read_data) X(tracecmd_set_loglevel)

#define VMSA_DL_TRACEFS(X)                                                               \
	X(tracefs_event_disable) X(tracefs_event_enable) X(tracefs_get_clock)                \
	X(tracefs_instance_create) X(tracefs_instance_destroy) X(tracefs_instance_free)      \
	X(tracefs_instance_set_buffer_size) X(tracefs_iterate_raw_events)                    \
	X(tracefs_load_cmdlines) X(tracefs_local_events_system) X(tracefs_trace_on)         \
	X(tracefs_tracing_dir)

#define VMSA_DL_ZLIB(X) X(inflateInit2_) X(inflate) X(inflateEnd) X(inflateReset)
#define VMSA_DL_LZMA(X) X(lzma_code) X(lzma_end) X(lzma_stream_decoder)
#define VMSA_DL_ZSTD(X)                                                                  \
	X(ZSTD_createDStream) X(ZSTD_decompressStream) X(ZSTD_freeDStream)                   \
	X(ZSTD_getErrorCode) X(ZSTD_initDStream) X(ZSTD_isError)

#define VMSA_DL_MEMBER(name) __typeof__(name) *name;

/* One table per library: its handle (NULL: not open), then its functions. */
struct vmsa_dl_tep {
	void *handle;
	VMSA_DL_TEP(VMSA_DL_MEMBER)
};
struct vmsa_dl_tracecmd {
	void *handle;
	VMSA_DL_TRACECMD(VMSA_DL_MEMBER)
};
struct vmsa_dl_tracefs {
	void *handle;
	VMSA_DL_TRACEFS(VMSA_DL_MEMBER)
};
struct vmsa_dl_zlib {
	void *handle;
	VMSA_DL_ZLIB(VMSA_DL_MEMBER)
};
struct vmsa_dl_lzma {
	void *handle;
	VMSA_DL_LZMA(VMSA_DL_MEMBER)
};
struct vmsa_dl_zstd {
	void *handle;
	VMSA_DL_ZSTD(VMSA_DL_MEMBER)
};

/*
 * Fill a table: 0, or VMSA_E_NOLIB (the table left closed) when the
 * library cannot be loaded or lacks a function.  Closing a closed table
 * does nothing.
 */
int vmsa_dl_open_tep(struct vmsa_dl_tep *t);
int vmsa_dl_open_tracecmd(struct vmsa_dl_tracecmd *t);
int vmsa_dl_open_tracefs(struct vmsa_dl_tracefs *t);
int vmsa_dl_open_zlib(struct vmsa_dl_zlib *t);
int vmsa_dl_open_lzma(struct vmsa_dl_lzma *t);
int vmsa_dl_open_zstd(struct vmsa_dl_zstd *t);
/* dlclose() of a table's handle, the table cleared. */
void vmsa_dl_close(void *table, size_t size);
#define VMSA_DL_CLOSE(t) vmsa_dl_close((t), sizeof(*(t)))

#endif
