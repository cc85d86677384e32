/* SPDX-License-Identifier: MIT */
/*
 * Record filters (--pid, --comm, --cpu, --since, --until, --instance): which events the
 * analysis folds into the statistics.  A filter selects records, as
 * ftrace's and perf's do: criteria of different kinds must all hold, the
 * values of one kind are alternatives.  The analysis loop (analyze.c)
 * applies it once, before vmsa_stats_add(), for every kind of input.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_CPUS (1 << 20)

struct vmsa_filter {
	int32_t *pids;		/* sorted, each once */
	size_t npids, pids_cap;
	char **globs;
	size_t nglobs;
	char **instances;	/* names; VMSA_TOP_BUFFER: the top buffer */
	size_t ninstances;
	uint64_t *cpus;		/* a bit per CPU; NULL: any CPU */
	size_t cpu_words;
	bool since_set, until_set;
	uint64_t since_ns, until_ns;
};

int vmsa_filter_new(struct vmsa_filter **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : VMSA_E_NOMEM;
}

void vmsa_filter_free(struct vmsa_filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nglobs; i++)
		free(f->globs[i]);
	free(f->globs);
	for (size_t i = 0; i < f->ninstances; i++)
		free(f->instances[i]);
	free(f->instances);
	free(f->pids);
	free(f->cpus);
	free(f);
}

/* A decimal count from *s up to a non-digit, at most max: 0 and *v, or -1. */
static int number(const char **s, uint64_t max, uint64_t *v)
{
	const char *p = *s;
	uint64_t n = 0;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (uint64_t)(*p - '0');
		if (n > max)
			return -1;
	}
	*s = p;
	*v = n;
	return 0;
}

/* Seconds "S[.FFFFFFFFF]" of trace time, exactly, in ns. */
static int seconds_ns(const char *s, uint64_t *ns)
{
	uint64_t sec, frac = 0;
	if (number(&s, UINT64_MAX / 1000000000ull - 1, &sec))
		return -1;
	if (*s == '.') {
		s++;
		int digits = 0;
		for (; *s >= '0' && *s <= '9'; s++, digits++) {
			if (digits == 9)
				return -1; /* finer than the trace's nanoseconds */
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (*s)
		return -1;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* "PID[,PID...]" added to the pids; nothing added unless all are valid. */
static int add_pids(struct vmsa_filter *f, const char *arg)
{
	size_t n = f->npids;
	for (const char *s = arg;; s++) {
		uint64_t pid;
		if (number(&s, INT32_MAX, &pid) || (*s && *s != ','))
			goto bad;
		if (vmsa_grow((void **)&f->pids, &f->pids_cap, n + 1, sizeof(*f->pids), 8))
			return VMSA_E_NOMEM;
		f->pids[n++] = (int32_t)pid;
		if (!*s)
			break;
	}
	qsort(f->pids, n, sizeof(*f->pids), cmp_pid);
	size_t out = 0;
	for (size_t i = 0; i < n; i++)
		if (!out || f->pids[out - 1] != f->pids[i])
			f->pids[out++] = f->pids[i];
	f->npids = out;
	return 0;
bad:
	return VMSA_E_INVAL;
}

/* One "N[-M]" at *s, followed by ',' or the end: 0 with *lo <= *hi, or -1. */
static int cpu_range(const char **s, uint64_t *lo, uint64_t *hi)
{
	if (number(s, MAX_CPUS - 1, lo))
		return -1;
	*hi = *lo;
	if (**s == '-') {
		(*s)++;
		if (number(s, MAX_CPUS - 1, hi) || *hi < *lo)
			return -1;
	}
	return **s && **s != ',' ? -1 : 0;
}

/* "N[-M][,N[-M]...]" added to the CPUs; nothing added unless all are valid. */
static int add_cpus(struct vmsa_filter *f, const char *arg)
{
	uint64_t lo = 0, hi = 0, top = 0;
	for (const char *s = arg;; s++) { /* first: check all, find the highest */
		if (cpu_range(&s, &lo, &hi))
			return VMSA_E_INVAL;
		top = hi > top ? hi : top;
		if (!*s)
			break;
	}
	size_t words = (size_t)(top / 64 + 1);
	if (words > f->cpu_words) {
		uint64_t *c = realloc(f->cpus, words * sizeof(*c));
		if (!c)
			return VMSA_E_NOMEM;
		memset(c + f->cpu_words, 0, (words - f->cpu_words) * sizeof(*c));
		f->cpus = c;
		f->cpu_words = words;
	}
	for (const char *s = arg;; s++) {
		cpu_range(&s, &lo, &hi);
		for (uint64_t c = lo; c <= hi; c++)
			f->cpus[c / 64] |= 1ull << (c % 64);
		if (!*s)
			break;
	}
	return 0;
}

/* arg appended to the n strings of *list */
static int add_string(char ***list, size_t *n, const char *arg)
{
	char **g = realloc(*list, (*n + 1) * sizeof(*g));
	if (!g)
		return VMSA_E_NOMEM;
	*list = g;
	if (!(g[*n] = strdup(arg)))
		return VMSA_E_NOMEM;
	(*n)++;
	return 0;
}

int vmsa_filter_add(struct vmsa_filter *f, enum vmsa_filter_kind kind, const char *arg)
{
	uint64_t ns;
	switch (kind) {
	case VMSA_FILTER_PID:
		return add_pids(f, arg);
	case VMSA_FILTER_COMM:
		return add_string(&f->globs, &f->nglobs, arg);
	case VMSA_FILTER_INSTANCE:
		/* (a tracefs instance is a directory: a name, no '/') */
		if (!*arg || strchr(arg, '/'))
			return VMSA_E_INVAL;
		return add_string(&f->instances, &f->ninstances, arg);
	case VMSA_FILTER_CPU:
		return add_cpus(f, arg);
	case VMSA_FILTER_SINCE:
	case VMSA_FILTER_UNTIL:
		if (seconds_ns(arg, &ns))
			return VMSA_E_INVAL;
		if (kind == VMSA_FILTER_SINCE ? f->until_set && ns > f->until_ns
					      : f->since_set && ns < f->since_ns)
			return VMSA_E_INVAL;
		if (kind == VMSA_FILTER_SINCE) {
			f->since_set = true;
			f->since_ns = ns;
		} else {
			f->until_set = true;
			f->until_ns = ns;
		}
		return 0;
	}
	return VMSA_E_INVAL;
}

static bool comm_matches(const struct vmsa_filter *f, const char *comm, size_t len)
{
	char stack[256], *name = stack; /* text names are at most 255 bytes */
	if (len >= sizeof(stack) && !(name = malloc(len + 1)))
		return false;
	memcpy(name, comm, len);
	name[len] = '\0';
	bool match = false;
	for (size_t i = 0; i < f->nglobs && !match; i++)
		match = fnmatch(f->globs[i], name, 0) == 0;
	if (name != stack)
		free(name);
	return match;
}

bool vmsa_filter_keeps_buffer(const struct vmsa_filter *f, const char *name, size_t len)
{
	if (!f || !f->ninstances)
		return true;
	if (!name) {
		name = VMSA_TOP_BUFFER;
		len = strlen(name);
	}
	for (size_t i = 0; i < f->ninstances; i++)
		if (strlen(f->instances[i]) == len && memcmp(f->instances[i], name, len) == 0)
			return true;
	return false;
}

bool vmsa_filter_selects_buffers(const struct vmsa_filter *f)
{
	return f && f->ninstances;
}

/* a caller's struct vmsa_event of another size (src/abi.h) */
static __attribute__((noinline)) int keeps_resized(const struct vmsa_filter *f,
						   const struct vmsa_event *ev, size_t ev_size)
{
	struct vmsa_event whole;
	if (vmsa_abi_in(&whole, sizeof whole, ev, ev_size, VMSA_ABI_MIN_EVENT))
		return 0;
	return vmsa_filter_keeps(f, &whole);
}

int vmsa_filter_keeps_sized(const struct vmsa_filter *f, const struct vmsa_event *ev,
			    size_t ev_size)
{
	if (__builtin_expect(ev_size != sizeof *ev, 0))
		return keeps_resized(f, ev, ev_size);
	if (f->ninstances && !vmsa_filter_keeps_buffer(f, ev->instance, ev->instance_len))
		return 0;
	if (ev->type == VMSA_EV_LOST)
		return 1; /* the tracer's losses are no task's, at no one time */
	if (f->since_set && ev->ts_ns < f->since_ns)
		return 0;
	if (f->until_set && ev->ts_ns > f->until_ns)
		return 0;
	if (f->cpus && (ev->cpu < 0 || (uint64_t)ev->cpu / 64 >= f->cpu_words ||
			!(f->cpus[ev->cpu / 64] >> (ev->cpu % 64) & 1)))
		return 0;
	if (f->npids && !bsearch(&ev->pid, f->pids, f->npids, sizeof(*f->pids), cmp_pid))
		return 0;
	if (f->nglobs && !comm_matches(f, ev->comm, ev->comm_len))
		return 0;
	return 1;
}
