// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF_PROG_INFO and BPF_BTF read as perf reads them, and each jited
 * function named as perf names it: a file (and a pipe) written with both
 * sections, read back.  The programs cover each of perf's naming rules
 * (BTF func_info, no BTF for the id, a BTF libbpf refuses, the program's
 * own name, "F" for functions of a program without BTF), each of its
 * print conditions (counts that disagree, no function at all) and what
 * this reader adds (arrays outside the entry's data), a stream whose BTF
 * comes after its programs (perf names them without it), a repeated id (the
 * first entry kept, in programs and BTF) and ids out of order (in both).  In the
 * other byte order perf reads neither section: neither is read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <bpf/btf.h>

#include "tap.h"
#include "feat-file.h"
#include <hitmap/log.h>
#include <hitmap/perf_data.h>

static char dir[64];

struct buf {
	u8	*p;
	u32	n, cap;
};

static void put(struct buf *b, const void *v, u32 n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->n, v, n);
	b->n += n;
}

static void put32(struct buf *b, u32 v) { put(b, &v, 4); }
static void put64(struct buf *b, u64 v) { put(b, &v, 8); }

static struct buf progs, btfs;
static u32 nr_progs;

#define A_KSYMS		(1u << 3)
#define A_LENS		(1u << 4)
#define A_FINFO		(1u << 5)
#define A_TAGS		(1u << 8)
#define A_ALL		(A_KSYMS | A_LENS | A_FINFO | A_TAGS)

/*
 * One program: @nf functions at 0xffffffffc0000000 + id * 0x1000 + k,
 * size 100 + k, tag bytes id, k, 0xa0...; func_info type ids @types
 * (NULL: none saved); @nt tags (a count that may disagree); @arrays the
 * arrays flagged; @ks_off the jited_ksyms offset (past the data to test
 * the bound).
 */
static void prog(u32 id, u32 btf_id, const char *name, u32 nf, u32 nt, const u32 *types,
		 u64 arrays, u64 ks_off)
{
	struct bpf_prog_info info;
	u8 data[512];
	u32 off = 0;

	memset(&info, 0, sizeof(info));
	memset(data, 0, sizeof(data));
	info.id = id;
	info.btf_id = btf_id;
	if (name)
		strncpy(info.name, name, sizeof(info.name) - 1);
	info.nr_jited_ksyms = nf;
	info.jited_ksyms = ks_off ? ks_off : off;
	for (u32 k = 0; k < nf; k++) {
		u64 a = 0xffffffffc0000000ULL + id * 0x1000ULL + k;

		memcpy(data + off, &a, 8);
		off += 8;
	}
	info.nr_jited_func_lens = nf;
	info.jited_func_lens = off;
	for (u32 k = 0; k < nf; k++) {
		u32 l = 100 + k;

		memcpy(data + off, &l, 4);
		off += 4;
	}
	info.nr_prog_tags = nt;
	info.prog_tags = off;
	for (u32 k = 0; k < nt; k++) {
		u8 tag[8] = { (u8)id, (u8)k, 0xa0, 0xb1, 0xc2, 0xd3, 0xe4, 0xf5 };

		memcpy(data + off, tag, 8);
		off += 8;
	}
	if (types) {
		info.func_info_rec_size = 8;
		info.nr_func_info = nf;
		info.func_info = off;
		for (u32 k = 0; k < nf; k++) {
			u32 fi[2] = { k * 16, types[k] };

			memcpy(data + off, fi, 8);
			off += 8;
		}
	} else {
		arrays &= ~(u64)A_FINFO;
	}
	put32(&progs, sizeof(info));
	put32(&progs, off);
	put64(&progs, arrays);
	put(&progs, &info, sizeof(info));
	put(&progs, data, off);
	nr_progs++;
}

/* A BTF blob with two functions: type 2 "hm_main", type 3 "hm_sub". */
static void btf_blob(u32 id, const char *main_name)
{
	struct btf *b = btf__new_empty();
	const void *raw;
	u32 size;

	if (!b || btf__add_func_proto(b, 0) != 1 ||
	    btf__add_func(b, main_name, BTF_FUNC_GLOBAL, 1) != 2 ||
	    btf__add_func(b, "hm_sub", BTF_FUNC_STATIC, 1) != 3)
		abort();
	raw = btf__raw_data(b, &size);
	put32(&btfs, id);
	put32(&btfs, size);
	put(&btfs, raw, size);
	btf__free(b);
}

static struct buf prog_sec, btf_sec;
static u32 nr_btf;

static void make_sections(void)
{
	static const u32 t23[] = { 2, 3 }, t233[] = { 2, 3, 3 }, t2[] = { 2 }, t9[] = { 9 };

	prog(9, 40, "hm_nine", 1, 1, t2, A_ALL, 0);		/* BTF: "hm_main" */
	prog(5, 40, "hm_five", 2, 2, t23, A_ALL, 0);		/* BTF: hm_main, hm_sub */
	prog(7, 77, "hm_seven", 2, 2, t23, A_ALL, 0);		/* no BTF 77: F, F */
	prog(3, 0, "plain", 1, 1, NULL, A_ALL, 0);		/* its own name */
	prog(4, 0, "", 1, 1, NULL, A_ALL, 0);			/* no name: the tag alone */
	prog(9, 40, "hm_nine_again", 3, 3, t233, A_ALL, 0);	/* repeated id: dropped */
	prog(11, 40, "hm_eleven", 2, 1, t23, A_ALL, 0);		/* counts disagree */
	prog(12, 40, "hm_twelve", 1, 1, t2, A_ALL, 4096);	/* ksyms past the data */
	prog(14, 40, "hm_fourteen", 1, 1, t2, A_ALL & ~A_TAGS, 0); /* tags not saved */
	prog(13, 0, "hm_none", 0, 0, NULL, A_ALL, 0);		/* no function */
	prog(15, 41, "hm_fifteen", 1, 1, t2, A_ALL, 0);		/* a BTF libbpf refuses */
	prog(16, 40, "hm_sixteen", 1, 1, t9, A_ALL, 0);		/* a type the BTF lacks */
	put32(&prog_sec, nr_progs);
	put(&prog_sec, progs.p, progs.n);

	btf_blob(40, "hm_main");
	btf_blob(40, "hm_other");	/* repeated id: the first kept */
	put32(&btfs, 41);
	put32(&btfs, 8);
	put(&btfs, "\x9f\xeb\x01\x00\x18\x00\x00\x00", 8);	/* cut short */
	btf_blob(6, "hm_six");		/* out of order: sorted first */
	nr_btf = 4;
	put32(&btf_sec, nr_btf);
	put(&btf_sec, btfs.p, btfs.n);
}

static int write_file(const char *path, bool pipe, bool swap)
{
	struct hm_feat_raw raw[HM_FEAT_BITS];

	memset(raw, 0, sizeof(raw));
	raw[HM_FEAT_BPF_PROG_INFO] = (struct hm_feat_raw){ prog_sec.p, prog_sec.n, true };
	raw[HM_FEAT_BPF_BTF] = (struct hm_feat_raw){ btf_sec.p, btf_sec.n, true };
	return feat_file__write(path, raw, "bpf-host", 1, pipe, swap);
}

static const struct hm_bpf_prog *find(const struct hm_header *h, u32 id)
{
	for (u32 i = 0; i < h->nr_bpf_progs; i++)
		if (h->bpf_progs[i].id == id)
			return &h->bpf_progs[i];
	return NULL;
}

/* function @k of program @id is named "bpf_prog_<tag>" + @suffix */
static void check_name(const char *form, const struct hm_header *h, u32 id, u32 k, const char *suffix)
{
	const struct hm_bpf_prog *p = find(h, id);
	char want[128], got[128] = "", t[200];
	int n = -1;

	snprintf(want, sizeof(want), "bpf_prog_%02x%02xa0b1c2d3e4f5%s", id, k, suffix);
	if (p)
		n = hm_header__bpf_func_name(h, p, k, got, sizeof(got));
	snprintf(t, sizeof(t), "%s: program %u function %u named %s (got %s)", form, id, k, want, got);
	CHECK(t, n == (int)strlen(want) && !strcmp(got, want));
}

static void check_form(const char *name, bool pipe, bool swap)
{
	char path[128], t[160];
	struct hm_reader *r;
	const struct hm_header *h;
	const struct hm_bpf_prog *p;
	char small[12];
	int ret;
	u32 i;

	snprintf(path, sizeof(path), "%s/%s.data", dir, name);
	snprintf(t, sizeof(t), "%s: written", name);
	CHECK_EQ(t, write_file(path, pipe, swap), 0);
	r = feat_file__read(path, &ret);
	snprintf(t, sizeof(t), "%s: read", name);
	CHECK(t, r != NULL);
	if (!r)
		return;
	h = hm_reader__header(r);
	snprintf(t, sizeof(t), "%s: read to the end", name);
	CHECK(t, ret == 0 && h->needs_swap == swap);
	if (swap) {
		snprintf(t, sizeof(t), "%s: other byte order: no program and no BTF, as perf", name);
		CHECK(t, h->nr_bpf_progs == 0 && h->nr_btf == 0 &&
		      hm_header__has_feat(h, HM_FEAT_BPF_PROG_INFO) && hm_header__has_feat(h, HM_FEAT_BPF_BTF));
		goto out;
	}
	snprintf(t, sizeof(t), "%s: 11 programs in id order, the repeated id once (%u)", name, h->nr_bpf_progs);
	ret = h->nr_bpf_progs == 11;
	for (i = 1; ret && i < h->nr_bpf_progs; i++)
		ret = h->bpf_progs[i - 1].id < h->bpf_progs[i].id;
	CHECK(t, ret);
	p = find(h, 9);
	snprintf(t, sizeof(t), "%s: program 9 is the entry read first", name);
	CHECK(t, p && p->nr_funcs == 1 && !strcmp(p->name, "hm_nine") && p->printable && p->func_info);
	snprintf(t, sizeof(t), "%s: BTF 6, 40 and 41 in id order, 40's first blob kept", name);
	CHECK(t, h->nr_btf == 3 && h->btf[0].id == 6 && h->btf[1].id == 40 && h->btf[2].id == 41 &&
	      h->btf[2].size == 8 && memmem(h->btf[1].data, h->btf[1].size, "hm_main", 7) &&
	      !memmem(h->btf[1].data, h->btf[1].size, "hm_other", 8) &&
	      memmem(h->btf[0].data, h->btf[0].size, "hm_six", 6));
	p = find(h, 5);
	snprintf(t, sizeof(t), "%s: program 5's two functions, addresses and sizes", name);
	CHECK(t, p && p->printable && p->nr_funcs == 2 && p->funcs[0].addr == 0xffffffffc0005000ULL &&
	      p->funcs[1].addr == 0xffffffffc0005001ULL && p->funcs[0].size == 100 && p->funcs[1].size == 101 &&
	      p->funcs[1].btf_type == 3);
	/* a stream's BTF comes after the programs: perf names them without it */
	snprintf(t, sizeof(t), "%s: BTF after the programs: %s", name, pipe ? "late" : "not late (a file)");
	CHECK(t, h->bpf_btf_late == pipe);
	check_name(name, h, 9, 0, pipe ? "_hm_nine" : "_hm_main");
	check_name(name, h, 5, 0, pipe ? "_F" : "_hm_main");
	check_name(name, h, 5, 1, pipe ? "_F" : "_hm_sub");
	check_name(name, h, 7, 0, "_F");
	check_name(name, h, 7, 1, "_F");
	check_name(name, h, 3, 0, "_plain");
	check_name(name, h, 4, 0, "");
	check_name(name, h, 15, 0, "_hm_fifteen");	/* BTF refused: as without BTF */
	check_name(name, h, 16, 0, pipe ? "_hm_sixteen" : "");	/* type 9 not in the BTF */
	p = find(h, 11);
	snprintf(t, sizeof(t), "%s: counts that disagree: kept, not printed", name);
	CHECK(t, p && !p->printable && !p->nr_funcs);
	p = find(h, 12);
	snprintf(t, sizeof(t), "%s: an array past the entry's data: not printed", name);
	CHECK(t, p && !p->printable && !p->nr_funcs);
	p = find(h, 14);
	snprintf(t, sizeof(t), "%s: an array not saved: not printed", name);
	CHECK(t, p && !p->printable);
	p = find(h, 13);
	snprintf(t, sizeof(t), "%s: no function: printed (perf prints its id alone)", name);
	CHECK(t, p && p->printable && p->nr_funcs == 0);
	p = find(h, 5);
	snprintf(t, sizeof(t), "%s: a name cut to the buffer, its length returned", name);
	CHECK(t, p && hm_header__bpf_func_name(h, p, 1, small, sizeof(small)) == (pipe ? 27 : 32) &&
	      !strcmp(small, "bpf_prog_05"));
	snprintf(t, sizeof(t), "%s: a function past the program's: -EINVAL", name);
	CHECK(t, p && hm_header__bpf_func_name(h, p, 2, small, sizeof(small)) == -EINVAL);
out:
	hm_reader__delete(r);
	unlink(path);
}

int main(void)
{
	hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);
	snprintf(dir, sizeof(dir), "/tmp/hm-featbpf.XXXXXX");
	if (!mkdtemp(dir)) {
		FAILF("temp dir", "%s", strerror(errno));
		TAP_DONE();
	}
	make_sections();
	check_form("file", false, false);
	check_form("pipe", true, false);
	check_form("file-swapped", false, true);
	rmdir(dir);
	free(progs.p);
	free(btfs.p);
	free(prog_sec.p);
	free(btf_sec.p);
	TAP_DONE();
}
