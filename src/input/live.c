/* SPDX-License-Identifier: MIT */
/* Live input from tracefs through libtracefs, decoded by binary.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "../internal.h"
#include "input.h"

struct vmsa_live {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	char name[64];
	struct vmsa_bin_decoder dec;
	struct vmsa_source_counts counts;
	struct vmsa_traits traits;
	bool enabled;
	/* during a drain */
	vmsa_event_cb cb;
	void *payload;
	int stop;
};

int vmsa_live_open(struct vmsa_live **out, const struct vmsa_live_options *opts)
{
	*out = NULL;
	/* libtracefs mounts tracefs when it can (as root); a user cannot */
	if (!tracefs_tracing_dir())
		return geteuid() ? VMSA_E_PERM : VMSA_E_NOTRACEFS;
	struct vmsa_live *lv = calloc(1, sizeof(*lv));
	if (!lv)
		return VMSA_E_NOMEM;
	vmsa_bin_decoder_init(&lv->dec, &lv->counts, &lv->traits);
	snprintf(lv->name, sizeof(lv->name), "vmscan-analyze-%d", (int)getpid());
	errno = 0;
	lv->inst = tracefs_instance_create(lv->name);
	if (!lv->inst) {
		int e = errno;
		free(lv);
		return e == EACCES || e == EPERM || e == EROFS ? VMSA_E_PERM : VMSA_E_IO;
	}
	int err = VMSA_E_IO;
	if (opts && opts->buffer_kb &&
	    tracefs_instance_set_buffer_size(lv->inst, opts->buffer_kb, -1) < 0)
		goto fail;
	const char *const systems[] = {"vmscan", NULL};
	lv->tep = tracefs_local_events_system(NULL, systems);
	if (!lv->tep)
		goto fail;
	if (tracefs_event_enable(lv->inst, "vmscan", NULL) < 0) {
		err = errno == EACCES || errno == EPERM ? VMSA_E_PERM : VMSA_E_IO;
		goto fail;
	}
	lv->enabled = true;
	tracefs_trace_on(lv->inst);
	lv->traits.timestamps_ns_precision = 1;
	char *clock = tracefs_get_clock(lv->inst);
	if (clock) {
		snprintf(lv->traits.clock, sizeof(lv->traits.clock), "%s", clock);
		free(clock);
	}
	*out = lv;
	return 0;
fail:
	vmsa_live_close(lv);
	return err;
}

static int on_record(struct tep_event *e, struct tep_record *r, int cpu, void *ctx)
{
	(void)e;
	(void)cpu;
	struct vmsa_live *lv = ctx;
	struct vmsa_event ev;
	enum vmsa_reject_reason why;
	if (lv->stop)
		return 1;
	if (r->missed_events) {
		vmsa_bin_lost(&lv->dec, r, &ev);
		if ((lv->stop = lv->cb(&ev, lv->payload)))
			return 1;
	}
	lv->counts.lines_read++;
	lv->counts.bytes_read += (uint64_t)(r->record_size > 0 ? r->record_size : 0);
	if (vmsa_bin_decode(&lv->dec, lv->tep, r, &ev, &why) == VMSA_BIN_EVENT)
		lv->stop = lv->cb(&ev, lv->payload);
	return lv->stop;
}

int vmsa_live_drain(struct vmsa_live *lv, vmsa_event_cb cb, void *payload)
{
	tracefs_load_cmdlines(NULL, lv->tep);
	lv->cb = cb;
	lv->payload = payload;
	lv->stop = 0;
	if (tracefs_iterate_raw_events(lv->tep, lv->inst, NULL, 0, on_record, lv) < 0 &&
	    !lv->stop)
		return VMSA_E_IO;
	return lv->stop;
}

int vmsa_live_stop(struct vmsa_live *lv)
{
	if (!lv->enabled)
		return 0;
	lv->enabled = false;
	return tracefs_event_disable(lv->inst, "vmscan", NULL) < 0 ? VMSA_E_IO : 0;
}

void vmsa_live_close(struct vmsa_live *lv)
{
	if (!lv)
		return;
	if (lv->inst) {
		vmsa_live_stop(lv);
		tracefs_instance_destroy(lv->inst);
		tracefs_instance_free(lv->inst);
	}
	if (lv->tep)
		tep_free(lv->tep);
	vmsa_bin_decoder_release(&lv->dec);
	free(lv);
}

const char *vmsa_live_name(const struct vmsa_live *lv)
{
	return lv->name;
}

const struct vmsa_source_counts *vmsa_live_counts(const struct vmsa_live *lv)
{
	return &lv->counts;
}

const struct vmsa_traits *vmsa_live_traits(const struct vmsa_live *lv)
{
	return &lv->traits;
}
