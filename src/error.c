/* SPDX-License-Identifier: MIT */
#include "internal.h"

const char *vmsa_strerror(int err)
{
	switch (err) {
#define VMSA_ERR_CASE(name, val, msg) \
	case (val):                   \
		return msg;
		VMSA_ERRORS(VMSA_ERR_CASE)
#undef VMSA_ERR_CASE
	}
	return "unknown error";
}

const char *vmsa_reject_reason_name(enum vmsa_reject_reason r)
{
	static const char *const names[] = {
#define VMSA_REJ_NAME(name, key, msg) key,
		VMSA_REJECT_REASONS(VMSA_REJ_NAME)
#undef VMSA_REJ_NAME
	};
	return (unsigned)r < VMSA_REJECT__COUNT ? names[r] : "unknown";
}

const char *vmsa_reject_reason_message(enum vmsa_reject_reason r)
{
	static const char *const msgs[] = {
#define VMSA_REJ_MSG(name, key, msg) msg,
		VMSA_REJECT_REASONS(VMSA_REJ_MSG)
#undef VMSA_REJ_MSG
	};
	return (unsigned)r < VMSA_REJECT__COUNT ? msgs[r] : "unknown";
}

const char *vmsa_ctx_name(enum vmsa_ctx c)
{
	static const char *const names[] = {"direct", "memcg", "memcg_softlimit",
					    "node", "kswapd", "outside_reclaim"};
	return (unsigned)c < VMSA_CTX__COUNT ? names[c] : "unknown";
}

const char *vmsa_throttle_name(enum vmsa_throttle t)
{
	static const char *const names[] = {
#define VMSA_THROTTLE_NAME(e, kname, name, meaning) name,
		VMSA_THROTTLE_REASONS(VMSA_THROTTLE_NAME)
#undef VMSA_THROTTLE_NAME
	};
	return (unsigned)t < VMSA_THROTTLE__COUNT ? names[t] : "unknown";
}

const char *vmsa_wb_reason_name(enum vmsa_wb_reason r)
{
	static const char *const names[] = {
#define VMSA_WB_NAME(e, name) name,
		VMSA_WB_REASONS(VMSA_WB_NAME)
#undef VMSA_WB_NAME
	};
	return (unsigned)r < VMSA_WB__COUNT ? names[r] : "unknown";
}

const char *vmsa_flush_reason_name(enum vmsa_flush_reason r)
{
	static const char *const names[] = {
#define VMSA_FLUSH_NAME(e, name, meaning) name,
		VMSA_FLUSH_REASONS(VMSA_FLUSH_NAME)
#undef VMSA_FLUSH_NAME
	};
	return (unsigned)r < VMSA_FLUSH__COUNT ? names[r] : "unknown";
}
