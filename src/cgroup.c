/* SPDX-License-Identifier: MIT */
/*
 * Tasks' cgroups for the per-cgroup metrics of live mode: each task (pid,
 * name) is looked up in /proc/PID/cgroup once, when vmsa_cgroups_note()
 * first sees it; the path of the cgroup v2 line ("0::/a/b") is interned.
 * A task that cannot be read (gone, no cgroup v2 line) is unknown for good.
 * The metrics writer reads the map (vmsa_cgroups_index) and keeps in it
 * which cgroups have series of their own.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "internal.h"

/* One name a pid was noted under, and its cgroup (-1: unknown). */
struct cg_comm {
	struct cg_comm *next;
	long cgroup;
	size_t len;
	char comm[];
};

struct cg_task {
	int32_t pid;
	struct cg_comm *comms;	/* the first noted name last */
	UT_hash_handle hh;
};

struct cg_name {
	char *path;
	long index;
	UT_hash_handle hh;
};

struct vmsa_cgroups {
	char *proc_root;
	size_t max_tasks, ntasks;
	struct cg_task *tasks;
	struct cg_name *by_path;
	char **names;		/* by index */
	bool *own;		/* has series of its own */
	size_t nnames, cap, max_series, nown;
};

int vmsa_cgroups_new_at(struct vmsa_cgroups **out, const char *proc_root, size_t max_tasks,
			size_t max_series)
{
	*out = NULL;
	struct vmsa_cgroups *cg = calloc(1, sizeof(*cg));
	if (!cg || !(cg->proc_root = strdup(proc_root))) {
		free(cg);
		return VMSA_E_NOMEM;
	}
	cg->max_tasks = max_tasks ? max_tasks : VMSA_DEFAULT_MAX_TASKS;
	cg->max_series = max_series;
	*out = cg;
	return 0;
}

int vmsa_cgroups_new(struct vmsa_cgroups **out, size_t max_tasks, size_t max_series)
{
	return vmsa_cgroups_new_at(out, "/proc", max_tasks, max_series);
}

void vmsa_cgroups_free(struct vmsa_cgroups *cg)
{
	if (!cg)
		return;
	struct cg_task *t, *tt;
	HASH_ITER(hh, cg->tasks, t, tt)
	{
		HASH_DEL(cg->tasks, t);
		for (struct cg_comm *c = t->comms, *next; c; c = next) {
			next = c->next;
			free(c);
		}
		free(t);
	}
	struct cg_name *n, *nn;
	HASH_ITER(hh, cg->by_path, n, nn)
	{
		HASH_DEL(cg->by_path, n);
		free(n);
	}
	for (size_t i = 0; i < cg->nnames; i++)
		free(cg->names[i]);
	free(cg->names);
	free(cg->own);
	free(cg->proc_root);
	free(cg);
}

/*
 * Bytes that are not UTF-8 become U+FFFD, so that every label value is
 * valid text (two paths that differ only there share a series).
 */
static char *utf8_clean(const char *s, size_t n)
{
	char *out = malloc(n * 3 + 1), *o = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
		bool ok = len && i + len <= n && c != 0;
		for (size_t k = 1; ok && k < len; k++)
			ok = ((unsigned char)s[i + k] >> 6) == 2;
		/* overlong forms, surrogates and code points past U+10FFFF */
		if (ok && len == 2)
			ok = c >= 0xc2;
		if (ok && len == 3) {
			unsigned char d = (unsigned char)s[i + 1];
			ok = !(c == 0xe0 && d < 0xa0) && !(c == 0xed && d >= 0xa0);
		}
		if (ok && len == 4) {
			unsigned char d = (unsigned char)s[i + 1];
			ok = c <= 0xf4 && !(c == 0xf0 && d < 0x90) && !(c == 0xf4 && d >= 0x90);
		}
		if (ok) {
			memcpy(o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	*o = '\0';
	return out;
}

/* The index of path (interned on first sight), or VMSA_E_NOMEM. */
static long intern(struct vmsa_cgroups *cg, const char *raw, size_t n)
{
	char *path = utf8_clean(raw, n);
	if (!path)
		return VMSA_E_NOMEM;
	struct cg_name *e;
	HASH_FIND_STR(cg->by_path, path, e);
	if (e) {
		free(path);
		return e->index;
	}
	if (cg->nnames == cg->cap) {
		size_t cap = cg->cap ? 2 * cg->cap : 16;
		char **names = realloc(cg->names, cap * sizeof(*names));
		if (names)
			cg->names = names;
		bool *own = names ? realloc(cg->own, cap * sizeof(*own)) : NULL;
		if (!own) {
			free(path);
			return VMSA_E_NOMEM;
		}
		cg->own = own;
		cg->cap = cap;
	}
	if (!(e = malloc(sizeof(*e)))) {
		free(path);
		return VMSA_E_NOMEM;
	}
	e->path = path;
	e->index = (long)cg->nnames;
	cg->names[cg->nnames] = path;
	cg->own[cg->nnames] = false;
	cg->nnames++;
	HASH_ADD_KEYPTR(hh, cg->by_path, e->path, strlen(e->path), e);
	return e->index;
}

/* The cgroup of pid from PROC/PID/cgroup: its index, -1 unknown, or VMSA_E_NOMEM. */
static long read_cgroup(struct vmsa_cgroups *cg, int32_t pid)
{
	if (pid <= 0)
		return -1;
	char path[4096], buf[4096];
	snprintf(path, sizeof(path), "%s/%" PRId32 "/cgroup", cg->proc_root, pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n == sizeof(buf) - 1)
			break;
	}
	close(fd);
	buf[n] = '\0';
	/* the cgroup v2 line, "0::PATH" (v1 lines name their controllers) */
	for (char *line = buf; line < buf + n;) {
		char *end = memchr(line, '\n', (size_t)(buf + n - line));
		if (!end)
			end = buf + n;
		if (end - line >= 4 && !memcmp(line, "0::/", 4))
			return intern(cg, line + 3, (size_t)(end - line - 3));
		line = end + 1;
	}
	return -1;
}

static struct cg_comm *find_comm(const struct cg_task *t, const char *comm, size_t len)
{
	for (struct cg_comm *c = t->comms; c; c = c->next)
		if (c->len == len && !memcmp(c->comm, comm, len))
			return c;
	return NULL;
}

int vmsa_cgroups_note(struct vmsa_cgroups *cg, int32_t pid, const char *comm, size_t comm_len)
{
	struct cg_task *t;
	HASH_FIND(hh, cg->tasks, &pid, sizeof(pid), t);
	if (t && find_comm(t, comm, comm_len))
		return 0;
	if (!t && cg->ntasks >= cg->max_tasks)
		return 0; /* beyond the cap: unknown */
	if (!t) {
		if (!(t = calloc(1, sizeof(*t))))
			return VMSA_E_NOMEM;
		t->pid = pid;
		HASH_ADD(hh, cg->tasks, pid, sizeof(t->pid), t);
		cg->ntasks++;
	}
	struct cg_comm *c = malloc(sizeof(*c) + comm_len + 1);
	if (!c)
		return VMSA_E_NOMEM;
	long idx = read_cgroup(cg, pid);
	if (idx < -1) {
		free(c);
		return (int)idx;
	}
	c->cgroup = idx;
	c->len = comm_len;
	memcpy(c->comm, comm, comm_len);
	c->comm[comm_len] = '\0';
	c->next = t->comms;
	t->comms = c;
	return 0;
}

long vmsa_cgroups_index(const struct vmsa_cgroups *cg, int32_t pid, const char *comm)
{
	struct cg_task *t;
	HASH_FIND(hh, cg->tasks, &pid, sizeof(pid), t);
	if (!t || !t->comms) /* never noted, or out of memory when it was */
		return -1;
	const struct cg_comm *c = find_comm(t, comm, strlen(comm));
	if (!c) /* the first name the pid was noted under */
		for (c = t->comms; c->next; c = c->next)
			;
	return c->cgroup;
}

const char *vmsa_cgroups_find(const struct vmsa_cgroups *cg, int32_t pid, const char *comm)
{
	long i = vmsa_cgroups_index(cg, pid, comm);
	return i < 0 ? NULL : cg->names[i];
}

size_t vmsa_cgroups_count(const struct vmsa_cgroups *cg)
{
	return cg->nnames;
}

const char *vmsa_cgroups_name(const struct vmsa_cgroups *cg, size_t i)
{
	return cg->names[i];
}

bool vmsa_cgroups_has_series(const struct vmsa_cgroups *cg, size_t i)
{
	return cg->own[i];
}

bool vmsa_cgroups_give_series(struct vmsa_cgroups *cg, size_t i)
{
	if (cg->own[i])
		return true;
	if (cg->nown >= cg->max_series)
		return false;
	cg->own[i] = true;
	cg->nown++;
	return true;
}

bool vmsa_cgroups_series_full(const struct vmsa_cgroups *cg)
{
	return cg->nown >= cg->max_series;
}
