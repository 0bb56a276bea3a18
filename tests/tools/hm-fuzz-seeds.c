// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-fuzz-seeds: cut a recording into seeds for the fuzz targets that do
 * not read whole perf.data files (tests/fuzz/make-seeds.sh runs it):
 *
 *   OUTDIR/spe/NAME-aux     the AUX data of its AUXTRACE records (SPE packets)
 *   OUTDIR/spe/NAME-info    its AUXTRACE_INFO record (SPE metadata)
 *   OUTDIR/symbols/NAME     its non-sample records, then some samples, as
 *                           fuzz-symbols.c reads them: {u16 type, u16 misc,
 *                           u16 body size} + the record without its header
 *   OUTDIR/meta/NAME        hitmap's metadata section (HM_FEAT_HITMAP)
 *
 * Each seed is at most 64 KiB; a seed with nothing in it is not written.
 *
 *   hm-fuzz-seeds FILE OUTDIR NAME
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>
#include <hitmap/perf_data.h>

#define SEED_MAX	65536

struct seed {
	unsigned char	buf[SEED_MAX];
	size_t		len;
};

static void seed__add(struct seed *s, const void *p, size_t n)
{
	if (n > SEED_MAX - s->len)
		n = SEED_MAX - s->len;
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

static int seed__write(const struct seed *s, const char *dir, const char *sub,
		       const char *name, const char *suffix)
{
	char path[4096];
	FILE *f;

	if (!s->len)
		return 0;
	snprintf(path, sizeof(path), "%s/%s/%s%s", dir, sub, name, suffix);
	f = fopen(path, "wb");
	if (!f || fwrite(s->buf, 1, s->len, f) != s->len || fclose(f)) {
		fprintf(stderr, "hm-fuzz-seeds: cannot write %s (does %s/%s exist?)\n", path, dir, sub);
		return -1;
	}
	return 0;
}

static struct seed aux, info, syms, meta;

int main(int argc, char **argv)
{
	struct hm_reader_opts o = { .all_records = true, .aux_payload = true };
	const struct hm_header *h;
	struct hm_reader *r;
	struct hm_event ev;
	int nr_samples = 0, err = 0, ret;

	if (argc != 4) {
		fprintf(stderr, "usage: hm-fuzz-seeds FILE OUTDIR NAME\n");
		return 2;
	}
	r = hm_reader__new(argv[1], &o);
	if (!r) {
		fprintf(stderr, "hm-fuzz-seeds: %s\n", hm_log__last_error());
		return 1;
	}
	while ((ret = hm_reader__next(r, &ev)) > 0) {
		u16 hdr[3];

		if (ev.type == HM_RECORD_AUXTRACE_INFO && !info.len)
			seed__add(&info, ev.data, ev.size);
		if (ev.type == HM_RECORD_AUXTRACE && ev.aux)
			seed__add(&aux, ev.aux, ev.aux_size);
		if (ev.size < 8 || ev.size - 8 > 0xffff || ev.type >= 64)
			continue;
		/* every map/thread record, and the first samples (lookups) */
		if (ev.type == PERF_RECORD_SAMPLE && nr_samples++ >= 64)
			continue;
		hdr[0] = (u16)ev.type;
		hdr[1] = ev.misc;
		hdr[2] = (u16)(ev.size - 8);
		if (syms.len + 6 + hdr[2] <= SEED_MAX) {
			seed__add(&syms, hdr, sizeof(hdr));
			seed__add(&syms, (const char *)ev.data + 8, hdr[2]);
		}
	}
	if (ret < 0)
		fprintf(stderr, "hm-fuzz-seeds: %s (seeds from what came before)\n",
			hm_log__last_error());
	h = hm_reader__header(r);
	if (h->hitmap_meta)
		seed__add(&meta, h->hitmap_meta, h->hitmap_meta_size);
	if (seed__write(&aux, argv[2], "spe", argv[3], "-aux") ||
	    seed__write(&info, argv[2], "spe", argv[3], "-info") ||
	    seed__write(&syms, argv[2], "symbols", argv[3], "") ||
	    seed__write(&meta, argv[2], "meta", argv[3], ""))
		err = 1;
	hm_reader__delete(r);
	return err;
}
