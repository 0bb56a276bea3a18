// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --threads over ranges of a file, the part the pass calls: the plan
 * (made in setup_header: whether the file is read in ranges, how many, and
 * the hm_range_scan that cuts it at FINISHED_ROUND records) and what a
 * part's pass reads and sets up (its reader over its range, the parent's
 * read-only setup with state of its own).  Finding the cuts, running the
 * parts and merging them is report-chunks.c's, above the pass.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/futex_infer.h>
#include <hitmap/log.h>
#include "chunks.h"
#include "lines.h"
#include "places.h"

/*
 * Bytes of the data section a range needs at least (HITMAP_RANGE_BYTES
 * overrides).  A part's own cost, measured (HITMAP_DEBUG, 2-CPU VM): about
 * 10 ms CPU (reader, maps replay, tables' first pages) on 1k-sample parts,
 * now that the kernel's symbols load once for all parts (each part loaded
 * a 122k-symbol kallsyms itself before: 0.10-0.19 s), plus its line
 * tables and merge, which grow with the distinct lines it sees.  32 MB
 * (~370k samples, ~0.1 s of work) keeps the former small; the futex bench
 * file (87 MB, 65k lines) is cut in two with --threads 2 (parts 0.24 s
 * CPU each, scan 0.03 s, merge 0.06 s, against 0.44 s in one pass on the
 * same loaded machine).  Where nearly every sample has a line of its own
 * (1M lines in 1M samples) the merge dominates: no faster than one
 * thread, nor is the sharded pass.
 * The same without --threads: the default needed 128 MB for a while (a
 * second part's fixed cost ate the gain on the 84 MB bench files then);
 * measured again since the cut scan's fast walk and the steps of the
 * first cut (medians of 7 interleaved runs, 2-CPU VM, one thread against
 * the default with 32 MB ranges): futex 0.29 / 0.25 s and 0.30 / 0.21 s,
 * 50k lines 0.38 / 0.30 s, contention mode (153 MB) 0.33 / 0.18 s; 1M
 * lines in 1M samples 0.55 / 0.57 s and 0.52 / 0.51 s (the first range's
 * verdict: not cut, it reads the file).
 */
#define RANGE_BYTES	(32ull << 20)
/* the most lines a sample a part may have to be cut (the first range's verdict, below) */
#define CUT_LINES	0.25

void hm_report__chunks_delete(struct hm_chunks *c)
{
	if (!c)
		return;
	hm_range_scan__delete(c->scan);
	hm_symbols__delete(c->syms);
	free(c);
}

/*
 * The views whose aggregates have merge functions (the others read in one
 * pass): the line table and perf's, and the futex views alone (--by) of a
 * file without lock contention events (a wait may span two ranges).
 */
static bool mergeable(const struct hm_report *r)
{
	const struct hm_report_opts *o = &r->opts;

	if (o->pareto || o->on_sample)
		return false;
	if (o->want_buckets && (!o->futex_views_only || hm_report__has_contention_events(r)))
		return false;
	/* the table's details from the second read, as with one thread */
	if (o->want_lines && !(o->defer_details && !r->header->pipe && strcmp(o->input, "-")))
		return false;
	return !r->header->pipe && strcmp(o->input, "-");
}

/*
 * HITMAP_CUT_LINES: another threshold (the tests: 0, never cut where lines
 * are); a number in [0, 1] with nothing after it, anything else is ignored.
 */
static double cut_lines(void)
{
	const char *e = getenv("HITMAP_CUT_LINES");
	char *end;
	double v;

	if (!e)
		return CUT_LINES;
	errno = 0;
	v = strtod(e, &end);
	if (end == e || *end || errno || !(v >= 0 && v <= 1)) {
		hm_warn("HITMAP_CUT_LINES='%s': not a number in [0, 1]; ignored (the threshold stays %g)",
			e, CUT_LINES);
		return CUT_LINES;
	}
	return v;
}

int hm_report__chunks_plan(struct hm_report *r)
{
	struct hm_chunks *c;
	u64 start, end;
	int n = r->nr_threads, ret = 0;

	if (n < 2 || r->chunk || getenv("HITMAP_NO_RANGES") || !mergeable(r))
		return 0;
	if (n > MAX_PARTS)
		n = MAX_PARTS;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->scan = hm_range_scan__new(r->opts.input);
	if (!c->scan) {
		ret = errno == ENOMEM ? -ENOMEM : 0;
		goto out;
	}
	hm_range_scan__data(c->scan, &start, &end);
	{
		const char *e = getenv("HITMAP_RANGE_BYTES");
		u64 min = e ? strtoull(e, NULL, 0) : RANGE_BYTES;

		if (min && (u64)n > (end - start) / min)
			n = (int)((end - start) / min);
	}
	/* the cuts are found as the first range runs (report-chunks.c) */
	c->nr = n;
	c->start = start;
	c->share = n ? (end - start) / n : 0;
	/* --threads N cuts; by default the first range says whether it pays */
	c->verdict = r->opts.threads > 0 ? HM_CUT : HM_CUT_UNKNOWN;
	c->cut_lines = cut_lines();
	ret = n >= 2;
out:
	if (ret == 1) {
		r->chunks = c;
		return 1;
	}
	hm_report__chunks_delete(c);
	return ret;
}

/* ------------------------------------------------------------ one part */

static int no_fill(void *priv, struct hm_lines *l)
{
	(void)priv;
	(void)l;
	return 0;
}

/* What setup_header gives the report, for a part: the parent's read-only setup, its own state. */
int hm_report__chunk_setup(struct hm_report *r)
{
	const struct hm_report *p = r->chunk->parent;
	struct hm_symbols_opts so;

	r->vendor = p->vendor;
	r->topo = p->topo;
	r->meta = p->meta;
	r->futex = p->futex;		/* tables shared, never released by a part */
	r->cpu_node_idx = p->cpu_node_idx;
	r->nr_threads = 1;
	r->places = hm_places__new(r->topo);
	if (!r->places)
		return -ENOMEM;
	hm_maps__set_build_ids(r->maps, r->header);
	hm_report__symbols_opts(r, &so);	/* the kernel's part is the parent's, shared below */
	r->syms = hm_symbols__new(&so);
	if (!r->syms)
		return -ENOMEM;
	/*
	 * The kernel's symbols (HM_META_KSYMS, kallsyms, vmlinux) are the
	 * report's, loaded once with their warnings by the first part that
	 * needs them, as one reader would at its first kernel lookup.
	 */
	hm_symbols__share_kernel(r->syms, p->syms);
	hm_symbols__attach_maps(r->syms, r->maps);
	if (p->infer) {
		r->infer = hm_futex_observer__new(r->header, r->opts.kernel_release, r->syms, r->topo,
						  &r->futex);
		if (!r->infer)
			return -ENOMEM;
	}
	if (p->lines) {
		r->lines = hm_lines__new(r->opts.cacheline_size, hm_topo__nr_cpus(r->topo),
					 hm_topo__nr_nodes(r->topo));
		if (!r->lines)
			return -ENOMEM;
		hm_lines__defer_details(r->lines, no_fill, NULL);	/* totals only */
		/* served only where the verdict may be not to cut (--threads not given) */
		if (r->chunk->open && __atomic_load_n(&r->chunk->open->verdict, __ATOMIC_RELAXED) == HM_CUT_UNKNOWN)
			hm_lines__set_prefault(r->lines, &r->chunk->open->pf);
	}
	if (p->buckets) {
		r->buckets = hm_buckets__new(r);
		if (!r->buckets)
			return errno ? -errno : -ENOMEM;
		hm_buckets__name_all_funcs(r->buckets);	/* the merge names a field's first ones */
	}
	return 0;
}

/*
 * Whether cutting pays, said by the first range from its own samples when
 * --threads was not given.  Each part builds a table of every distinct
 * line it sees and the merge goes over a part's lines again, so a part
 * costs about its samples' work plus its lines' (the line tables, perf's
 * entries built from them, the merge); measured on two CPUs, 1M samples
 * (lines a sample in a half, against one thread): 0.10 (50k lines) 1.2x,
 * 0.29 (200k) 1.05x, 0.41 (400k) 1.1x, 0.58 (1M) 0.87x, 0.01 (20M
 * samples over 200k lines) 1.7x.  The lines a part will have are at most
 * the lines seen so far plus the rate of new ones since the last check
 * times the samples still to come (the rate falls as lines repeat); below
 * CUT_LINES a sample of that bound, the file is cut; at a quarter of its
 * share with the bound still above, the first range reads the whole file
 * alone.  The others start as soon as their cuts are found, before the
 * verdict, when each has a CPU of its own (spec_next, below): not cut,
 * they are dropped, their work done for nothing on CPUs that had none,
 * their tables bounded until the verdict.  The bound is high early, so
 * the threshold sits below the break-even (about 0.45).
 */
#define CHECK_EVERY	16384	/* sample records between two checks */

/*
 * The bound above falls slowly: a file whose samples keep finding new
 * lines (1M samples over 1M lines) had its verdict only at a quarter of
 * the first range's share, 131k samples in, while the second range read
 * on the other CPU for nothing and slowed the first (the default 0.36 s
 * against 0.30 s for one thread).  So a second estimate, from the second
 * check on: were the lines drawn uniformly from L, a new one would come
 * at the rate e^(-m/L) at the interval's middle m, and a part of P samples
 * would have L (1 - e^(-P/L)) of them.  Mixed draws (a few hot lines and
 * many cold ones) tend to have more than that, so it errs low: it ends
 * the wait only where even uniform draws would give a part many lines, at
 * NOT_CUT_MODEL a sample or more (the first range then reads the whole
 * file at once); below, the rule above decides as before.  Its value at
 * checks 2 to 8 on hm-gen's 1M-sample files (HITMAP_CUT_LINES=0, so that
 * the bound does not end the checks first): 1M lines 0.46-0.52 (a part has
 * 0.58: cutting loses, 0.87x), 400k 0.25-0.32 (0.41: cutting wins, 1.1x),
 * 200k 0.14-0.23, 50k 0.05-0.12.
 */
#define NOT_CUT_MODEL	0.4

/* The lines of @part samples, uniform draws whose new ones came at @rho at sample @m. */
static double uniform_lines(double rho, double m, double part)
{
	double L;

	if (rho >= 1)
		return part;
	if (rho <= 0 || m <= 0)
		return 0;
	L = -m / log(rho);
	return L * -expm1(-part / L);
}

static void open_check(struct hm_report *r, const struct hm_event *ev, bool last)
{
	struct hm_chunk *k = r->chunk;
	struct hm_chunks *c = k->open;
	/* what a part's tables grow with: lines, or the futex views' buckets and objects */
	u64 s = r->nr_samples, d = r->lines ? hm_lines__count(r->lines) : hm_buckets__count(r->buckets);
	u64 read = ev->file_offset > c->start ? ev->file_offset - c->start : 0;
	double part, rho, bound, model;
	int verdict;

	if (!last && k->nr_read < k->next_check)
		return;
	k->next_check = k->nr_read + CHECK_EVERY;
	if (!read || s <= k->s_prev) {
		/* nothing added yet (the ordering holds a round) */
		if (last)
			hm_chunks__say(c, HM_CUT);
		return;
	}
	/* the samples the part will add: its share of the bytes at the rate so far */
	part = (double)s * c->share / read;
	rho = (double)(d - k->d_prev) / (double)(s - k->s_prev);
	bound = d + rho * (part > s ? part - s : 0);
	/* from the second check on, the rate is the interval's: the uniform model's estimate */
	model = k->s_prev ? uniform_lines(rho, (double)(k->s_prev + s) / 2, part) : 0;
	k->s_prev = s;
	k->d_prev = d;
	if (bound <= c->cut_lines * part)
		verdict = HM_CUT;
	else if (last || read >= c->share / 4 || model >= NOT_CUT_MODEL * part)
		verdict = HM_CUT_WHOLE;
	else
		return;
	hm_debug("report: the first range, %llu samples in: at most %.2f (uniform draws: %.2f) "
		 "lines a sample in a part: %s", (unsigned long long)s, bound / part, model / part,
		 verdict == HM_CUT ? "cut" : "not cut, it reads the whole file");
	hm_chunks__say(c, verdict);
}

/*
 * A range started before the first range's verdict (report-chunks.c:
 * the others start as soon as their cuts are found, not after the
 * verdict, which the futex bench file had after 11% of its samples, 0.04-
 * 0.09 s in): on with the verdict to cut, -ECANCELED with the verdict not
 * to (its part dropped, the first range reads on).  Its tables grow with
 * what it reads before the verdict, which comes at the latest when the
 * first range has read a quarter of its share: a range as far into its
 * own, or whose line table has grown past SPEC_BYTES, waits for it (1M
 * samples over 1M lines, not cut: peak RSS 162 MB, as with the others
 * after the verdict; 199 MB without the table's bound, 175 MB with the
 * part freed after the pass, not when dropped).  Looked at every 1024
 * records (the word the first range writes a record is beside it).
 */
#define SPEC_BYTES	(16u << 20)	/* a line table's bytes a range starts with before the verdict */

static int spec_next(const struct hm_report *r, struct hm_chunk *k, const struct hm_event *ev)
{
	struct hm_chunks *c = k->parent->chunks;
	int v;

	k->at = ev->file_offset;
	if (k->nr_rec++ & 1023)
		return 1;
	v = __atomic_load_n(&c->verdict, __ATOMIC_RELAXED);
	/* (the side-band records replayed before the range lie before it) */
	if (v == HM_CUT_UNKNOWN &&
	    ((ev->file_offset > k->from && ev->file_offset - k->from >= c->share / 4) ||
	     (r->lines && hm_lines__bytes(r->lines) > SPEC_BYTES)))
		v = hm_chunks__verdict_wait(c);
	if (v == HM_CUT_WHOLE)
		return -ECANCELED;
	if (v == HM_CUT)
		k->spec = false;
	return 1;
}

int hm_report__chunk_next(struct hm_report *r, struct hm_event *ev)
{
	struct hm_chunk *k = r->chunk;
	int ret;

	if (k->ended)
		return 0;
	hm_rotor__step(&k->rot);
	/* the kernel map as the ranges before left it, at its place in the replay */
	if (hm_range__kernel_due(k->range))
		hm_maps__load_kernel(r->maps);
	ret = hm_range__next(k->range, ev);
	if (ret > 0 && k->spec)
		ret = spec_next(r, k, ev);
	if (ret <= 0 || !k->open)
		return ret;
	if (__atomic_load_n(&k->open->verdict, __ATOMIC_RELAXED) == HM_CUT_UNKNOWN) {
		k->nr_read += ev->type == PERF_RECORD_SAMPLE;
		/* said at the latest where the first range would wait for its end */
		open_check(r, ev, ev->type == HM_RECORD_FINISHED_ROUND &&
				  ev->file_offset >= k->open->min_end);
	}
	return hm_chunk__open_next(k, ev);
}

/*
 * Part @i started from its cut's kload (the scan's guess, hitmap/reader_range.h);
 * the right state is where part i - 1 left its kernel map.  When they are
 * not the same (rare: the guess comes from the first kernel sample), the
 * cut takes the right one for the part's second run.
 */
bool hm_report__chunk_stale(struct hm_report *r, int i)
{
	struct hm_chunks *c = r->chunks;
	struct hm_range_cut *cut = &c->cut[i - 1];
	u64 want = hm_maps__kernel_loaded(c->part[i - 1]->maps, NULL), had;
	bool given;

	had = hm_maps__kernel_loaded(c->part[i]->maps, &given);
	if (!given)
		had = HM_RANGE_KNONE;
	if (hm_range_scan__kernel_same(c->scan, had, want, cut->nr_sb))
		return false;
	hm_debug("report: range %d again: it started with the kernel map %s, not %s", i,
		 had == HM_RANGE_KNONE ? "as recorded" : "loaded",
		 had == HM_RANGE_KNONE ? "loaded" : "as recorded (or loaded elsewhere)");
	cut->kload = want;
	return true;
}

struct hm_reader *hm_report__chunk_reader(struct hm_report *r)
{
	return hm_range__reader(r->chunk->range);
}
