/* SPDX-License-Identifier: MIT */
/*
 * --listen ADDR:PORT: the latest metrics over HTTP (GET /metrics), served by
 * libmicrohttpd's own thread.  The analysis hands over each new snapshot
 * (both text formats, rendered already) by swapping a pointer under a
 * mutex; a request takes a reference under the same mutex and serves it
 * without copying, so neither side ever waits for the other's work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Hands the server the metrics of @st (cumulative statistics). */
int cli_listen_publish_stats(const struct cli *c, const struct vmsa_stats *st)
{
	struct vmsa_summary *sum = NULL;
	struct vmsa_doc *doc = NULL;
	int err = vmsa_stats_summary(st, &sum);
	if (!err)
		err = vmsa_doc_from_summary_ref(&doc, sum);
	if (!err)
		err = cli_listen_publish(c->listener, doc, c->cgroups);
	vmsa_doc_free(doc);
	vmsa_summary_free(sum);
	if (err)
		cli_error("--listen", err, 0);
	return err;
}

/* --listen: the server, serving the metrics of no event until the first interval. */
int cli_listen_begin(struct cli *c)
{
	int status = cli_listen_start(c->listen, &c->listener);
	if (status)
		return status;
	struct vmsa_stats *st = NULL;
	int err = vmsa_stats_new(&st, NULL);
	if (err)
		cli_error("--listen", err, 0);
	else
		err = cli_listen_publish_stats(c, st);
	vmsa_stats_free(st);
	if (!err && !c->quiet) /* told once it serves something */
		fprintf(stderr, "vmscan-analyze: serving the metrics on %s\n",
			cli_listen_url(c->listener));
	return cli_status(err, CLI_OUTPUT);
}

#ifdef VMSA_HAVE_MICROHTTPD
#include <dlfcn.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <sys/socket.h>

/*
 * libmicrohttpd is loaded when --listen asks for it, not linked: linked, it
 * and GnuTLS under it cost every run of the tool its loading (4.6 million
 * instructions, more than 1 % of analysing a 6 MB capture).
 */
#define MHD_FUNCS(X)                                                               \
	X(MHD_start_daemon) X(MHD_stop_daemon) X(MHD_get_daemon_info)                  \
	X(MHD_create_response_from_buffer) X(MHD_create_response_from_buffer_with_free_callback_cls) \
	X(MHD_add_response_header) X(MHD_queue_response) X(MHD_destroy_response)      \
	X(MHD_lookup_connection_value)

static struct {
#define MHD_PTR(f) __typeof__(&f) f;
	MHD_FUNCS(MHD_PTR)
#undef MHD_PTR
} mhd;

/* An exit status: the library's functions in mhd, or why not (told). */
static int mhd_load(void)
{
	void *h = dlopen(VMSA_MICROHTTPD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "vmscan-analyze: --listen: cannot load libmicrohttpd: %s\n",
			dlerror());
		return EXIT_RUNTIME;
	}
#define MHD_SYM(f)                                                                       \
	if (!(*(void **)&mhd.f = dlsym(h, #f))) {                                        \
		fprintf(stderr, "vmscan-analyze: --listen: %s lacks %s\n", VMSA_MICROHTTPD_SONAME, \
			#f);                                                             \
		return EXIT_RUNTIME;                                                     \
	}
	MHD_FUNCS(MHD_SYM)
#undef MHD_SYM
	return EXIT_OK;
}

/* One rendering of the metrics, shared by the requests serving it. */
struct snapshot {
	int refs;		/* under the listener's lock */
	char *prom, *om;	/* Prometheus 0.0.4, OpenMetrics 1.0 */
	size_t prom_len, om_len;
};

struct cli_listener {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock;
	struct snapshot *cur;	/* NULL until the first */
	char url[320];
};

/* A response's reference, dropped when libmicrohttpd is done with the body. */
struct hold {
	struct cli_listener *l;
	struct snapshot *s;
};

static void unref(struct cli_listener *l, struct snapshot *s)
{
	pthread_mutex_lock(&l->lock);
	bool last = s && --s->refs == 0;
	pthread_mutex_unlock(&l->lock);
	if (last) {
		free(s->prom);
		free(s->om);
		free(s);
	}
}

static void release(void *cls)
{
	struct hold *h = cls;
	unref(h->l, h->s);
	free(h);
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned code, const char *type,
			     const char *text)
{
	struct MHD_Response *r =
		mhd.MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	mhd.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	enum MHD_Result ret = mhd.MHD_queue_response(conn, code, r);
	mhd.MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **state)
{
	(void)version, (void)upload, (void)upload_size, (void)state;
	struct cli_listener *l = cls;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "GET /metrics\n");
	if (!strcmp(url, "/"))
		return reply(conn, MHD_HTTP_OK, "text/plain", "vmscan-analyze: GET /metrics\n");
	if (strcmp(url, "/metrics"))
		return reply(conn, MHD_HTTP_NOT_FOUND, "text/plain", "not found: GET /metrics\n");
	struct hold *h = malloc(sizeof(*h));
	if (!h)
		return MHD_NO;
	pthread_mutex_lock(&l->lock);
	struct snapshot *s = l->cur;
	if (s)
		s->refs++;
	pthread_mutex_unlock(&l->lock);
	if (!s) {
		free(h);
		return reply(conn, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain", "no metrics yet\n");
	}
	*h = (struct hold){l, s};
	const char *accept = mhd.MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Accept");
	bool om = accept && strstr(accept, "application/openmetrics-text");
	struct MHD_Response *r = mhd.MHD_create_response_from_buffer_with_free_callback_cls(
		om ? s->om_len : s->prom_len, om ? s->om : s->prom, release, h);
	if (!r) {
		release(h);
		return MHD_NO;
	}
	mhd.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				om ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
				   : "text/plain; version=0.0.4; charset=utf-8");
	enum MHD_Result ret = mhd.MHD_queue_response(conn, MHD_HTTP_OK, r);
	mhd.MHD_destroy_response(r);
	return ret;
}

int cli_listen_start(const char *addr, struct cli_listener **out)
{
	*out = NULL;
	/* HOST:PORT, [V6]:PORT or :PORT (every address) */
	const char *colon = strrchr(addr, ':');
	char host[256];
	size_t hl = colon ? (size_t)(colon - addr) : 0;
	if (hl >= 2 && addr[0] == '[' && addr[hl - 1] == ']')
		addr++, hl -= 2;
	if (!colon || !colon[1] || hl >= sizeof(host)) {
		fprintf(stderr, "vmscan-analyze: --listen wants ADDR:PORT (127.0.0.1:9101, :9101, "
				"[::1]:9101), not '%s'\n", addr);
		return EXIT_USAGE;
	}
	memcpy(host, addr, hl);
	host[hl] = '\0';
	int status = mhd_load();
	if (status)
		return status;
	struct addrinfo hints = {.ai_flags = AI_PASSIVE, .ai_socktype = SOCK_STREAM}, *ai;
	int gai = getaddrinfo(hl ? host : NULL, colon + 1, &hints, &ai);
	if (gai) {
		fprintf(stderr, "vmscan-analyze: --listen %s: %s\n", addr, gai_strerror(gai));
		return EXIT_USAGE;
	}
	struct cli_listener *l = calloc(1, sizeof(*l));
	if (!l) {
		freeaddrinfo(ai);
		cli_error(NULL, VMSA_E_NOMEM, 0);
		return EXIT_RUNTIME;
	}
	pthread_mutex_init(&l->lock, NULL);
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	l->daemon = mhd.MHD_start_daemon(flags, 0, NULL, NULL, on_request, l, MHD_OPTION_SOCK_ADDR,
				     ai->ai_addr, MHD_OPTION_CONNECTION_LIMIT, 32u,
				     MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
	freeaddrinfo(ai);
	if (!l->daemon) {
		fprintf(stderr, "vmscan-analyze: --listen %s: cannot listen there (in use, or not "
				"an address of this host)\n", addr);
		pthread_mutex_destroy(&l->lock);
		free(l);
		return EXIT_RUNTIME;
	}
	const union MHD_DaemonInfo *info = mhd.MHD_get_daemon_info(l->daemon, MHD_DAEMON_INFO_BIND_PORT);
	snprintf(l->url, sizeof(l->url), "http://%s%s%s:%u/metrics", strchr(host, ':') ? "[" : "",
		 hl ? host : "0.0.0.0", strchr(host, ':') ? "]" : "", info ? info->port : 0);
	*out = l;
	return EXIT_OK;
}

int cli_listen_publish(struct cli_listener *l, const struct vmsa_doc *doc,
		       struct vmsa_cgroups *cgroups)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	if (!s)
		return VMSA_E_NOMEM;
	s->refs = 1;
	FILE *f = open_memstream(&s->prom, &s->prom_len);
	int err = f ? vmsa_report_openmetrics_cgroups(f, doc, VMSA_METRICS_PROMETHEUS, cgroups)
		    : VMSA_E_NOMEM;
	if (f && fclose(f) && !err)
		err = VMSA_E_NOMEM;
	f = err ? NULL : open_memstream(&s->om, &s->om_len);
	if (!err && !f)
		err = VMSA_E_NOMEM;
	if (!err)
		err = vmsa_report_openmetrics_cgroups(f, doc, VMSA_METRICS_OPENMETRICS, cgroups);
	if (f && fclose(f) && !err)
		err = VMSA_E_NOMEM;
	if (err) {
		unref(l, s);
		return err;
	}
	pthread_mutex_lock(&l->lock);
	struct snapshot *old = l->cur;
	l->cur = s;
	pthread_mutex_unlock(&l->lock);
	unref(l, old);
	return 0;
}

const char *cli_listen_url(const struct cli_listener *l)
{
	return l->url;
}

void cli_listen_stop(struct cli_listener *l)
{
	if (!l)
		return;
	mhd.MHD_stop_daemon(l->daemon);
	unref(l, l->cur);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

#else /* built without libmicrohttpd: cli_validate() refuses --listen */

int cli_listen_start(const char *addr, struct cli_listener **out)
{
	(void)addr;
	*out = NULL;
	return EXIT_USAGE;
}

int cli_listen_publish(struct cli_listener *l, const struct vmsa_doc *doc,
		       struct vmsa_cgroups *cgroups)
{
	(void)l, (void)doc, (void)cgroups;
	return 0;
}

const char *cli_listen_url(const struct cli_listener *l)
{
	(void)l;
	return "";
}

void cli_listen_stop(struct cli_listener *l)
{
	(void)l;
}

#endif
