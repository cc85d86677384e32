/* SPDX-License-Identifier: MIT */
/*
 * A self-contained SVG picture of one summary: pages scanned per second by
 * direct reclaim and by kswapd over time, with the longest direct stalls
 * marked under it, and the direct stall latency distribution (log2).  No
 * scripts, fonts or other resources are referenced.  data-* attributes
 * carry the plotted totals so tests can check what is drawn.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "../internal.h"

#define W 1000
#define X0 80
#define X1 970
#define TY0 50	/* timeline panel */
#define TY1 300
#define SY0 312 /* stall strip */
#define SY1 332
#define HY0 430 /* histogram panel */
#define HY1 590
#define H 640

static void human_ns(char *b, size_t n, double ns)
{
	if (ns >= 1e9)
		snprintf(b, n, "%.3gs", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(b, n, "%.3gms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(b, n, "%.3gus", ns / 1e3);
	else
		snprintf(b, n, "%.0fns", ns);
}

static double nice_step(double range, int ticks)
{
	double raw = range / ticks, p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void timeline(FILE *f, const struct vmsa_summary *sum)
{
	const struct vmsa_timeline *t = &sum->timeline;
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">Pages scanned per second</text>\n", X0,
		TY0 - 18);
	if (sum->no_timeline) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" id=\"no-timeline\">not drawn: a JSON summary "
			   "holds no timeline and no stall marks; draw them from the trace</text>\n",
			X0 + 10, (TY0 + TY1) / 2);
		return;
	}
	if (!t->n) {
		fprintf(f, "<text x=\"%d\" y=\"%d\">no pages scanned in this trace</text>\n", X0 + 10,
			(TY0 + TY1) / 2);
		return;
	}
	size_t group = (t->n + 499) / 500, pts = (t->n + group - 1) / group;
	double bin_s = (double)t->bin_ns * (double)group / 1e9, ymax = 1;
	uint64_t total_d = 0, total_k = 0;
	for (size_t i = 0; i < t->n; i++) {
		total_d += t->direct[i];
		total_k += t->kswapd[i];
	}
	for (size_t p = 0; p < pts; p++) {
		uint64_t d = 0, k = 0;
		for (size_t j = p * group; j < (p + 1) * group && j < t->n; j++) {
			d += t->direct[j];
			k += t->kswapd[j];
		}
		ymax = fmax(ymax, fmax((double)d, (double)k) / bin_s);
	}
	double t0 = (double)t->base * (double)t->bin_ns, span = (double)t->n * (double)t->bin_ns;
	double ystep = nice_step(ymax, 5);
	ymax = ceil(ymax / ystep) * ystep;
	for (double y = 0; y <= ymax + ystep / 2; y += ystep) {
		double py = TY1 - (TY1 - TY0) * y / ymax;
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"g\"/>"
			   "<text x=\"%d\" y=\"%.1f\" class=\"yl\">%.0f</text>\n",
			X0, X1, py, py, X0 - 6, py + 4, y);
	}
	/* ticks at round values of trace time (the timestamps of the trace) */
	double xstep = nice_step(span / 1e9, 8), first = ceil(t0 / 1e9 / xstep) * xstep;
	fprintf(f, "<g id=\"time-axis\" data-start-s=\"%.6f\" data-end-s=\"%.6f\">\n", t0 / 1e9,
		(t0 + span) / 1e9);
	for (double x = first; x <= (t0 + span) / 1e9 + 1e-9; x += xstep) {
		double px = X0 + (X1 - X0) * (x * 1e9 - t0) / span;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" class=\"g\"/>"
			   "<text x=\"%.1f\" y=\"%d\" class=\"xl\">%.10g</text>\n",
			px, px, TY0, TY1, px, SY1 + 16, x);
	}
	fputs("</g>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"xt\">trace time (s)</text>\n", (X0 + X1) / 2,
		SY1 + 30);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"yt\" transform=\"rotate(-90 %d %d)\">"
		   "pages/s</text>\n",
		16, (TY0 + TY1) / 2, 16, (TY0 + TY1) / 2);
	static const struct {
		const char *id, *cls, *label;
	} series[] = {{"direct-scanned", "d", "direct reclaim"},
		      {"kswapd-scanned", "k", "kswapd"}};
	for (int s = 0; s < 2; s++) {
		fprintf(f, "<polyline id=\"%s\" class=\"%s\" data-total-pages=\"%" PRIu64 "\" points=\"",
			series[s].id, series[s].cls, s ? total_k : total_d);
		for (size_t p = 0; p < pts; p++) {
			uint64_t v = 0;
			for (size_t j = p * group; j < (p + 1) * group && j < t->n; j++)
				v += s ? t->kswapd[j] : t->direct[j];
			double y = TY1 - (TY1 - TY0) * ((double)v / bin_s) / ymax;
			if (pts == 1) {
				/* one bin: a level line across it, not a lone point */
				fprintf(f, "%d,%.1f %d,%.1f ", X0, y, X1, y);
				continue;
			}
			double x = X0 + (X1 - X0) * ((double)p + 0.5) / (double)pts;
			fprintf(f, "%.1f,%.1f ", x, y);
		}
		fputs("\"/>\n", f);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" class=\"%sf\"/>"
			   "<text x=\"%d\" y=\"%d\">%s</text>\n",
			X1 - 250 + s * 130, TY0 - 22, series[s].cls, X1 - 232 + s * 130, TY0 - 16,
			series[s].label);
	}
	/* the longest direct stalls, as spans under the time axis */
	fprintf(f, "<g id=\"stalls\" data-count=\"%zu\">\n", t->ntop);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"yl\">stalls</text>\n", X0 - 6, SY1 - 6);
	for (size_t i = 0; i < t->ntop; i++) {
		double b = ((double)t->top[i].begin_ns - t0) / span, w = (double)t->top[i].dur_ns / span;
		char dur[32];
		human_ns(dur, sizeof(dur), (double)t->top[i].dur_ns);
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" class=\"s\">"
			   "<title>direct stall %s</title></rect>\n",
			X0 + (X1 - X0) * fmax(0, b), SY0, fmax(1.0, (X1 - X0) * w), SY1 - SY0, dur);
	}
	fputs("</g>\n", f);
	if (t->ntop == 0)
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"note\">bins of %gs; no completed direct "
			   "reclaim stall to mark</text>\n",
			X0, SY1 + 46, bin_s);
	else if (t->ntop == 1)
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"note\">bins of %gs; under the axis: the "
			   "one direct reclaim stall</text>\n",
			X0, SY1 + 46, bin_s);
	else
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"note\">bins of %gs; under the axis: the "
			   "%zu longest direct reclaim stalls</text>\n",
			X0, SY1 + 46, bin_s, t->ntop);
}

static void histogram(FILE *f, const struct vmsa_summary *sum)
{
	const struct vmsa_hist *h = &sum->stall_hist;
	uint64_t b[65], max = 0;
	vmsa_hist_log2(h, b);
	int first = 65, last = -1;
	for (int i = 0; i < 65; i++)
		if (b[i]) {
			first = i < first ? i : first;
			last = i;
			max = b[i] > max ? b[i] : max;
		}
	char p50[32] = "-", p99[32] = "-", mx[32] = "-";
	if (h->count) {
		human_ns(p50, sizeof(p50), (double)vmsa_hist_quantile(h, 0.5));
		human_ns(p99, sizeof(p99), (double)vmsa_hist_quantile(h, 0.99));
		human_ns(mx, sizeof(mx), (double)h->max);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"h\">Direct reclaim stall distribution "
		   "(%" PRIu64 " stalls; p50 &#8804; %s, p99 &#8804; %s, max %s)</text>\n",
		X0, HY0 - 22, h->count, p50, p99, mx);
	fprintf(f, "<g id=\"stall-histogram\" data-count=\"%" PRIu64 "\">\n", h->count);
	if (last >= 0) {
		int nb = last - first + 1;
		double bw = (double)(X1 - X0) / nb;
		for (int i = first; i <= last; i++) {
			double x = X0 + bw * (i - first), hgt = (HY1 - HY0) * (double)b[i] / (double)max;
			char lo[32];
			human_ns(lo, sizeof(lo), i ? (double)(1ull << (i - 1)) : 0);
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"hb\" "
				   "data-count=\"%" PRIu64 "\"><title>%s+: %" PRIu64 "</title></rect>\n",
				x + 1, HY1 - hgt, bw - 2, hgt, b[i], lo, b[i]);
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"xl\">%s</text>\n", x + bw / 2, HY1 + 14,
				lo);
			if (b[i])
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xl\">%" PRIu64 "</text>\n",
					x + bw / 2, HY1 - hgt - 3, b[i]);
		}
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"xt\">stall duration (log2 buckets, "
			   "each labelled by its lower bound)</text>\n",
			(X0 + X1) / 2, HY1 + 30);
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"yt\" transform=\"rotate(-90 %d %d)\">"
			   "stalls</text>\n",
			X0 - 20, (HY0 + HY1) / 2, X0 - 20, (HY0 + HY1) / 2);
	} else {
		fprintf(f, "<text x=\"%d\" y=\"%d\">no completed direct reclaim</text>\n", X0 + 10,
			(HY0 + HY1) / 2);
	}
	fputs("</g>\n", f);
}

int vmsa_report_svg(FILE *f, const struct vmsa_summary *sum, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		   "<style>.g{stroke:#ddd;stroke-width:1}.d{fill:none;stroke:#d62728;stroke-width:1.5}"
		   ".k{fill:none;stroke:#1f77b4;stroke-width:1.5}.df{fill:#d62728}.kf{fill:#1f77b4}"
		   ".s{fill:#d62728;fill-opacity:0.35}.hb{fill:#d62728;fill-opacity:0.7}"
		   ".h{font-size:14px;font-weight:bold}.yl{text-anchor:end}.xl{text-anchor:middle;"
		   "font-size:10px}.note{fill:#666;font-size:10px}.xt{text-anchor:middle}"
		   ".yt{text-anchor:middle}</style>\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, H, W, H);
	fputs("<title>", f);
	for (const char *p = title ? title : "vmscan-analyze"; *p; p++) {
		if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '&')
			fputs("&amp;", f);
		else if ((unsigned char)*p >= 0x20)
			fputc(*p, f);
	}
	fputs("</title>\n", f);
	timeline(f, sum);
	histogram(f, sum);
	fputs("</svg>\n", f);
	return ferror(f) ? VMSA_E_IO : 0;
}
