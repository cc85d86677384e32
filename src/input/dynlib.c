/* SPDX-License-Identifier: MIT */
/*
 * The on-demand libraries (dynlib.h).  The sonames are the ones the build
 * found (CMakeLists.txt reads each library's SONAME).
 */
#include <dlfcn.h>
#include <string.h>

#include "../internal.h"
#include "dynlib.h"

#define LOAD(name)                                                   \
	do {                                                         \
		void *sym = dlsym(t->handle, #name);                 \
		if (!sym)                                            \
			goto missing;                                \
		memcpy(&t->name, &sym, sizeof(t->name));             \
	} while (0);

#define OPENER(lib, LIST, soname)                                    \
	int vmsa_dl_open_##lib(struct vmsa_dl_##lib *t)              \
	{                                                            \
		memset(t, 0, sizeof(*t));                            \
		t->handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);   \
		if (!t->handle)                                      \
			return VMSA_E_NOLIB;                         \
		LIST(LOAD)                                           \
		return 0;                                            \
	missing:                                                     \
		VMSA_DL_CLOSE(t);                                    \
		return VMSA_E_NOLIB;                                 \
	}

OPENER(tep, VMSA_DL_TEP, VMSA_SONAME_TRACEEVENT)
OPENER(tracecmd, VMSA_DL_TRACECMD, VMSA_SONAME_TRACECMD)
OPENER(tracefs, VMSA_DL_TRACEFS, VMSA_SONAME_TRACEFS)
OPENER(zlib, VMSA_DL_ZLIB, VMSA_SONAME_ZLIB)
OPENER(lzma, VMSA_DL_LZMA, VMSA_SONAME_LZMA)
OPENER(zstd, VMSA_DL_ZSTD, VMSA_SONAME_ZSTD)

void vmsa_dl_close(void *table, size_t size)
{
	void **handle = table; /* every table starts with its handle */
	if (*handle)
		dlclose(*handle);
	memset(table, 0, size);
}
