// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF_PROG_INFO and BPF_BTF (perf's process_bpf_prog_info and
 * process_bpf_btf): the BPF programs loaded while perf recorded, each with
 * its jited functions, and the BTF saved for them.  Read as perf reads them:
 * nothing from the other byte order, a repeated id keeps its first entry.
 * A function is named as perf's synthesize_bpf_prog_name names it, with
 * the BTF perf has read when it prints the programs: all of it in a file,
 * in a stream only what came before the programs' record.
 *
 * A program entry is perf's struct perf_bpil as written: u32 info_len,
 * u32 data_len, u64 arrays (a bit per array saved, perf's PERF_BPIL_*),
 * info_len bytes of the kernel's struct bpf_prog_info (fields past
 * info_len read as 0), data_len bytes of the arrays, the info's pointers
 * being offsets into them.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/btf.h>
#include "reader-int.h"
#include "util/bpf-log.h"

/* perf's enum perf_bpil_array_types: the arrays named here */
#define BPIL_JITED_KSYMS	3
#define BPIL_JITED_FUNC_LENS	4
#define BPIL_FUNC_INFO		5
#define BPIL_PROG_TAGS		8

/* the entry's info, as read: @len bytes of a struct bpf_prog_info */
struct info {
	const u8	*p;
	u32		len;
};

#define INFO_U32(in, f) info_u32(in, offsetof(struct bpf_prog_info, f))
#define INFO_U64(in, f) info_u64(in, offsetof(struct bpf_prog_info, f))

static u32 info_u32(const struct info *in, size_t off)
{
	return off + 4 <= in->len ? hm_ld32(in->p + off) : 0;
}

static u64 info_u64(const struct info *in, size_t off)
{
	return off + 8 <= in->len ? hm_ld64(in->p + off) : 0;
}

/* Array @bit of @n elements of @sz bytes at offset @off: where in @data, or NULL. */
static const u8 *array_at(u64 arrays, int bit, u64 off, u64 n, u64 sz, const u8 *data, u32 data_len)
{
	if (!((arrays >> bit) & 1) || off > data_len || n > (data_len - off) / (sz ? sz : 1))
		return NULL;
	return data + off;
}

static void prog_free(struct hm_bpf_prog *p)
{
	free(p->funcs);
	p->funcs = NULL;
}

void hm_feat__bpf_progs_free(struct hm_header *h)
{
	for (u32 i = 0; i < h->nr_bpf_progs; i++)
		prog_free(&h->bpf_progs[i]);
	free(h->bpf_progs);
	h->bpf_progs = NULL;
	h->nr_bpf_progs = 0;
}

void hm_feat__btf_free(struct hm_header *h)
{
	for (u32 i = 0; i < h->nr_btf; i++)
		free(h->btf[i].data);
	free(h->btf);
	h->btf = NULL;
	h->nr_btf = 0;
}

/* One entry's info and arrays into @p (its funcs allocated). */
static int prog_fill(struct hm_bpf_prog *p, const struct info *in, u64 arrays,
		     const u8 *data, u32 data_len)
{
	u32 nk = INFO_U32(in, nr_jited_ksyms), nl = INFO_U32(in, nr_jited_func_lens);
	u32 nt = INFO_U32(in, nr_prog_tags), nf = INFO_U32(in, nr_func_info);
	u32 rec = INFO_U32(in, func_info_rec_size);
	const u8 *ks, *ls, *ts, *fs;

	memset(p, 0, sizeof(*p));
	p->id = INFO_U32(in, id);
	p->btf_id = INFO_U32(in, btf_id);
	if (offsetof(struct bpf_prog_info, name) + 16 <= in->len)
		memcpy(p->name, in->p + offsetof(struct bpf_prog_info, name), 16);
	if (nk != nl || nk != nt)
		return 0;	/* perf prints nothing of it */
	ks = array_at(arrays, BPIL_JITED_KSYMS, INFO_U64(in, jited_ksyms), nk, 8, data, data_len);
	ls = array_at(arrays, BPIL_JITED_FUNC_LENS, INFO_U64(in, jited_func_lens), nk, 4, data, data_len);
	ts = array_at(arrays, BPIL_PROG_TAGS, INFO_U64(in, prog_tags), nk, 8, data, data_len);
	if (nk && (!ks || !ls || !ts))
		return 0;	/* perf would read past the entry */
	fs = rec >= 8 && nf >= nk ?
	     array_at(arrays, BPIL_FUNC_INFO, INFO_U64(in, func_info), nf, rec, data, data_len) : NULL;
	if (nk) {
		p->funcs = calloc(nk, sizeof(*p->funcs));
		if (!p->funcs)
			return -ENOMEM;
	}
	for (u32 i = 0; i < nk; i++) {
		struct hm_bpf_func *f = &p->funcs[i];

		f->addr = hm_ld64(ks + 8 * (size_t)i);
		f->size = hm_ld32(ls + 4 * (size_t)i);
		memcpy(f->tag, ts + 8 * (size_t)i, 8);
		/* struct bpf_func_info: u32 insn_off, u32 type_id */
		f->btf_type = fs ? hm_ld32(fs + (size_t)rec * i + 4) : 0;
	}
	p->nr_funcs = nk;
	p->func_info = fs != NULL;
	p->printable = true;
	return 0;
}

/* an entry's id and its place in the section: sorted by id, then place */
struct order {
	u32	id, pos;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * The places of @n entries (@id(@v, i) each one's id) to keep, in id
 * order, a repeated id keeping the entry read first (perf's rbtree
 * inserts, perf_env__insert_bpf_prog_info and perf_env__insert_btf):
 * *@nr of them, the array to free; NULL when out of memory.  A sort, so
 * that ids in any order take n log n.
 */
static struct order *keep_first(const void *v, u32 n, u32 (*id)(const void *, u32), u32 *nr)
{
	struct order *o = calloc(n ? n : 1, sizeof(*o));
	u32 k = 0;

	if (!o)
		return NULL;
	for (u32 i = 0; i < n; i++)
		o[i] = (struct order){ id(v, i), i };
	qsort(o, n, sizeof(*o), cmp_order);
	for (u32 i = 0; i < n; i++)
		if (!k || o[k - 1].id != o[i].id)
			o[k++] = o[i];
	*nr = k;
	return o;
}

static u32 prog_id(const void *v, u32 i) { return ((const struct hm_bpf_prog *)v)[i].id; }
static u32 btf_id(const void *v, u32 i) { return ((const struct hm_btf *)v)[i].id; }

/* u32 count; {u32 info_len, u32 data_len, u64 arrays, info, data}[count] */
int hm_feat__bpf_prog_info(struct hm_header *h, struct hm_cur *c)
{
	u32 n = hm_cur__u32(c), k = 0;
	struct hm_bpf_prog *v = NULL;
	int err = -EINVAL;

	hm_feat__bpf_progs_free(h);
	h->bpf_btf_late = false;	/* named with the BTF read so far */
	if (c->err || n > hm_cur__left(c) / 16)
		return -EINVAL;
	if (n && !c->sw) {	/* perf skips the other byte order */
		v = calloc(n, sizeof(*v));
		if (!v)
			return -ENOMEM;
	}
	for (u32 i = 0; i < n; i++) {
		u32 info_len = hm_cur__u32(c), data_len = hm_cur__u32(c);
		u64 arrays = hm_cur__u64(c);
		struct info in = { hm_cur__bytes(c, info_len), info_len };
		const u8 *data = hm_cur__bytes(c, data_len);

		if (c->err)
			goto fail;
		if (!v)
			continue;
		err = prog_fill(&v[k], &in, arrays, data, data_len);
		if (err < 0)
			goto fail;
		k++;
	}
	if (v) {
		struct hm_bpf_prog *w = calloc(k ? k : 1, sizeof(*w));
		struct order *o = w ? keep_first(v, k, prog_id, &n) : NULL;

		if (!o) {
			free(w);
			err = -ENOMEM;
			goto fail;
		}
		for (u32 i = 0; i < n; i++) {
			w[i] = v[o[i].pos];
			v[o[i].pos].funcs = NULL;	/* moved: the rest are freed below */
		}
		for (u32 i = 0; i < k; i++)
			prog_free(&v[i]);
		free(v);
		free(o);
		h->bpf_progs = w;
		h->nr_bpf_progs = n;
	}
	return 0;
fail:
	for (u32 i = 0; i < k; i++)
		prog_free(&v[i]);
	free(v);
	return err;
}

/* u32 count; {u32 id, u32 size, data[size]}[count] */
int hm_feat__bpf_btf(struct hm_header *h, struct hm_cur *c)
{
	u32 n = hm_cur__u32(c), k = 0;
	struct hm_btf *v = NULL, *w;
	struct order *o;
	const u8 **at;

	hm_feat__btf_free(h);
	/* a stream's programs came first: perf named them without this BTF */
	h->bpf_btf_late = h->pipe && hm_header__has_feat(h, HM_FEAT_BPF_PROG_INFO);
	if (c->err || n > hm_cur__left(c) / 8)
		return -EINVAL;
	if (c->sw || !n)
		return 0;	/* perf skips the other byte order */
	v = calloc(n, sizeof(*v));
	at = calloc(n, sizeof(*at));
	if (!v || !at)
		goto nomem;
	for (u32 i = 0; i < n; i++) {
		v[i].id = hm_cur__u32(c);
		v[i].size = hm_cur__u32(c);
		at[i] = hm_cur__bytes(c, v[i].size);
		if (c->err) {
			free(v);
			free(at);
			return -EINVAL;
		}
	}
	o = keep_first(v, n, btf_id, &k);
	w = o ? calloc(k ? k : 1, sizeof(*w)) : NULL;
	if (!w) {
		free(o);
		goto nomem;
	}
	h->btf = w;
	for (u32 i = 0; i < k; i++) {
		const struct hm_btf *b = &v[o[i].pos];

		w[i] = (struct hm_btf){ .id = b->id, .size = b->size, .data = malloc(b->size ? b->size : 1) };
		h->nr_btf = i + 1;
		if (!w[i].data) {
			hm_feat__btf_free(h);
			free(o);
			goto nomem;
		}
		memcpy(w[i].data, at[o[i].pos], b->size);
	}
	free(o);
	free(v);
	free(at);
	return 0;
nomem:
	free(v);
	free(at);
	return -ENOMEM;
}

static const struct hm_btf *find_btf(const struct hm_header *h, u32 id)
{
	u32 lo = 0, hi = h->nr_btf;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (h->btf[mid].id == id)
			return &h->btf[mid];
		if (h->btf[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int hm_header__bpf_func_name(const struct hm_header *h, const struct hm_bpf_prog *p, u32 i,
			     char *buf, size_t size)
{
	const struct hm_bpf_func *f;
	const struct hm_btf *b;
	const char *short_name = NULL;
	struct btf *btf = NULL;
	char tag[17];
	int n;

	if (!p || i >= p->nr_funcs)
		return -EINVAL;
	f = &p->funcs[i];
	for (int k = 0; k < 8; k++)
		snprintf(tag + 2 * k, 3, "%02x", f->tag[k]);
	b = p->btf_id && !h->bpf_btf_late ? find_btf(h, p->btf_id) : NULL;
	if (b && p->func_info) {
		hm_bpf_log__install();
		btf = btf__new(b->data, b->size);	/* libbpf 1.x: NULL on error */
	}
	if (btf) {
		const struct btf_type *t = btf__type_by_id(btf, f->btf_type);

		/* a type the BTF lacks: perf reads past it; no name here */
		short_name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	} else if (i == 0 && p->nr_funcs == 1) {
		/* no BTF (none saved, none for its id, or one libbpf refuses) */
		short_name = p->name[0] ? p->name : NULL;
	} else {
		short_name = "F";
	}
	n = snprintf(buf, size, "bpf_prog_%s%s%s", tag, short_name ? "_" : "", short_name ? short_name : "");
	btf__free(btf);
	return n;
}
