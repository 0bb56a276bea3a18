// SPDX-License-Identifier: GPL-2.0-only
/*
 * Feature sections passed on as they are (hm_header.feat_raw): a header
 * with sections hitmap does not parse (BPF_PROG_INFO with its arrays,
 * BPF_BTF, CPU_DOMAIN_INFO, E_MACHINE, CLN_SIZE), ones it parses
 * (GROUP_DESC, CLOCK_DATA, CPU_PMU_CAPS, PMU_CAPS) and empty ones
 * (BRANCH_STACK, STAT, and CPUDESC as perf 3.14 left it) is written in
 * file and pipe mode, in both byte orders, and read back: every section
 * the same, native again, its bit set; the parsed ones parse to the same
 * values; the empty CPUDESC and DIR_FORMAT (the output is one file) are
 * left out.  In the other byte order the numbers are swapped on disk.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <byteswap.h>
#include <linux/bpf.h>

#include "tap.h"
#include "feat-file.h"
#include <hitmap/log.h>
#include <hitmap/perf_data.h>

static char dir[64];

struct buf {
	u8	p[4096];
	u32	n;
};

static void put(struct buf *b, const void *v, u32 n)
{
	memcpy(b->p + b->n, v, n);
	b->n += n;
}

static void put32(struct buf *b, u32 v) { put(b, &v, 4); }
static void put64(struct buf *b, u64 v) { put(b, &v, 8); }

/* perf_header_string: u32 len (padded to 64 with the NUL), bytes */
static void putstr(struct buf *b, const char *s)
{
	u32 n = (u32)strlen(s) + 1, len = (n + 63) / 64 * 64;

	put32(b, len);
	memset(b->p + b->n, 0, len);
	memcpy(b->p + b->n, s, n);
	b->n += len;
}

static struct buf sec[HM_FEAT_BITS];

/* One BPF program as perf saves it (struct perf_bpil), with some arrays. */
static void bpf_prog(struct buf *b)
{
	struct bpf_prog_info info;
	u8 data[64];
	u64 ksyms[2] = { 0xffffffffc0248588ULL, 0xffffffffc0259000ULL };
	u32 lens[2] = { 72, 0x1234 };
	u32 finfo[4] = { 0, 7, 12, 9 };	/* two bpf_func_info */

	memset(&info, 0, sizeof(info));
	memset(data, 0, sizeof(data));
	info.type = 26;
	info.id = 5;
	memcpy(info.tag, "\x53\x0f\x69\x19\x0e\x63\xcf\xa0", 8);
	info.jited_prog_len = 200;	/* not saved: its count stays the kernel's */
	info.nr_jited_ksyms = 2;
	info.jited_ksyms = 0;		/* offsets into data */
	memcpy(data, ksyms, 16);
	info.nr_jited_func_lens = 2;
	info.jited_func_lens = 16;
	memcpy(data + 16, lens, 8);
	info.func_info_rec_size = 8;
	info.nr_func_info = 2;
	info.func_info = 24;
	memcpy(data + 24, finfo, 16);
	info.btf_id = 2;
	info.gpl_compatible = 1;
	memcpy(info.name, "fentry_blk", 11);
	put32(b, 1);
	put32(b, sizeof(info));
	put32(b, sizeof(data));
	put64(b, 1 << 3 | 1 << 4 | 1 << 5);	/* JITED_KSYMS, JITED_FUNC_LENS, FUNC_INFO */
	put(b, &info, sizeof(info));
	put(b, data, sizeof(data));
}

static void make_sections(void)
{
	struct buf *b;

	bpf_prog(&sec[HM_FEAT_BPF_PROG_INFO]);
	b = &sec[HM_FEAT_BPF_BTF];
	put32(b, 2);
	put32(b, 2);
	put32(b, 8);
	put(b, "\x9f\xeb\x01\x00\x18\x00\x00\x00", 8);	/* a BTF blob's first bytes */
	put32(b, 7);
	put32(b, 0);
	b = &sec[HM_FEAT_CPU_DOMAIN_INFO];
	put32(b, 17);		/* schedstat version */
	put32(b, 2);		/* max sched domains */
	for (u32 cpu = 0; cpu < 2; cpu++) {
		put32(b, cpu);
		put32(b, 1);
		put32(b, 0);
		putstr(b, "SMT");
		putstr(b, "00000003");
		putstr(b, "0-1");
	}
	put32(&sec[HM_FEAT_E_MACHINE], 62);
	put32(&sec[HM_FEAT_E_MACHINE], 0x12345678);
	put32(&sec[HM_FEAT_CLN_SIZE], 64);
	b = &sec[HM_FEAT_GROUP_DESC];
	put32(b, 1);
	putstr(b, "{anon_group}");
	put32(b, 0);
	put32(b, 2);
	b = &sec[HM_FEAT_CLOCK_DATA];
	put32(b, 1);
	put32(b, 1);
	put64(b, 1762878703344339000ULL);
	put64(b, 1642884550397ULL);
	b = &sec[HM_FEAT_CPU_PMU_CAPS];
	put32(b, 1);
	putstr(b, "branches");
	putstr(b, "32");
	b = &sec[HM_FEAT_PMU_CAPS];
	put32(b, 1);
	put32(b, 1);
	putstr(b, "max_precise");
	putstr(b, "3");
	putstr(b, "cpu_core");
	put64(&sec[HM_FEAT_DIR_FORMAT], 1);
}

static const int kept[] = {
	HM_FEAT_BPF_PROG_INFO, HM_FEAT_BPF_BTF, HM_FEAT_CPU_DOMAIN_INFO, HM_FEAT_E_MACHINE,
	HM_FEAT_CLN_SIZE, HM_FEAT_GROUP_DESC, HM_FEAT_CLOCK_DATA, HM_FEAT_CPU_PMU_CAPS,
	HM_FEAT_PMU_CAPS, HM_FEAT_BRANCH_STACK, HM_FEAT_STAT,
};

static int write_file(const char *path, bool pipe, bool swap)
{
	struct hm_feat_raw raw[HM_FEAT_BITS];

	memset(raw, 0, sizeof(raw));
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		raw[kept[i]].data = sec[kept[i]].n ? sec[kept[i]].p : NULL;
		raw[kept[i]].size = sec[kept[i]].n;
		raw[kept[i]].present = true;
	}
	raw[HM_FEAT_DIR_FORMAT].data = sec[HM_FEAT_DIR_FORMAT].p;
	raw[HM_FEAT_DIR_FORMAT].size = sec[HM_FEAT_DIR_FORMAT].n;
	raw[HM_FEAT_DIR_FORMAT].present = true;
	raw[HM_FEAT_CPUDESC].present = true;	/* empty */
	return feat_file__write(path, raw, "raw-host", 2, pipe, swap);
}

/* @path holds @needle (a swapped E_MACHINE: the numbers were swapped on disk) */
static bool file_has(const char *path, const void *needle, size_t n)
{
	FILE *f = fopen(path, "rb");
	static u8 d[1 << 16];
	size_t len;

	if (!f)
		return false;
	len = fread(d, 1, sizeof(d), f);
	fclose(f);
	return len >= n && memmem(d, len, needle, n) != NULL;
}

static void check_form(const char *name, bool pipe, bool swap)
{
	char path[128], t[160];
	struct hm_reader *r;
	const struct hm_header *h;
	int ret;

	snprintf(path, sizeof(path), "%s/%s.data", dir, name);
	snprintf(t, sizeof(t), "%s: written", name);
	CHECK_EQ(t, write_file(path, pipe, swap), 0);
	r = feat_file__read(path, &ret);
	snprintf(t, sizeof(t), "%s: read", name);
	CHECK(t, r != NULL);
	if (!r)
		return;
	h = hm_reader__header(r);
	snprintf(t, sizeof(t), "%s: read to the end, byte order %s", name, swap ? "swapped" : "native");
	CHECK(t, ret == 0 && h->needs_swap == swap && h->pipe == pipe);
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		int f = kept[i];
		const struct hm_feat_raw *k = h->feat_raw ? &h->feat_raw[f] : NULL;

		/* pipe mode ends at perf 6.1's last feature (6.1 refuses higher ids) */
		if (pipe && f > HM_FEAT_PMU_CAPS)
			continue;
		/* perf synthesizes neither in pipe mode */
		if (pipe && (f == HM_FEAT_BRANCH_STACK || f == HM_FEAT_STAT))
			continue;
		snprintf(t, sizeof(t), "%s: %s kept as written", name, hm_feature__name(f));
		CHECK(t, hm_header__has_feat(h, f) && k && k->present && k->size == sec[f].n &&
		      (!k->size || !memcmp(k->data, sec[f].p, k->size)));
	}
	snprintf(t, sizeof(t), "%s: the empty CPUDESC and DIR_FORMAT left out", name);
	CHECK(t, !hm_header__has_feat(h, HM_FEAT_CPUDESC) && !hm_header__has_feat(h, HM_FEAT_DIR_FORMAT));
	snprintf(t, sizeof(t), "%s: parsed sections parse", name);
	CHECK(t, h->nr_groups == 1 && h->group_members[0] == 2 && h->clock_id == 1 &&
	      h->clock_ref_ns == 1642884550397ULL && h->nr_pmu_caps == 2 &&
	      h->pmu_caps[1].pmu_name && !strcmp(h->pmu_caps[1].pmu_name, "cpu_core"));
	if (!pipe) {
		u32 em[2] = { 62, 0x12345678 };

		if (swap) {
			em[0] = bswap_32(em[0]);
			em[1] = bswap_32(em[1]);
		}
		snprintf(t, sizeof(t), "%s: E_MACHINE on disk in the file's byte order", name);
		CHECK(t, file_has(path, em, sizeof(em)));
	}
	hm_reader__delete(r);
	unlink(path);
}

int main(void)
{
	hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);
	snprintf(dir, sizeof(dir), "/tmp/hm-featraw.XXXXXX");
	if (!mkdtemp(dir)) {
		FAILF("temp dir", "%s", strerror(errno));
		TAP_DONE();
	}
	make_sections();
	check_form("file", false, false);
	check_form("file-swapped", false, true);
	check_form("pipe", true, false);
	check_form("pipe-swapped", true, true);
	rmdir(dir);
	TAP_DONE();
}
