// SPDX-License-Identifier: GPL-2.0-only
/*
 * The columns of hitmap's own views (counts.h): hitmap's precise categories
 * by default, perf's c2c counters on request, and the one line that says
 * where the two countings differ on a file and why.
 */
#include <inttypes.h>
#include <string.h>
#include "counts.h"
#include "rowfmt.h"
#include "../mem/data_src.h"

const char *const hm_counts__col_names[HM_COUNTS_NR_COLS] = {
	"samples", "loads", "hitm_local", "hitm_xdie", "hitm_remote", "dram_local", "dram_remote", "stores",
};

u32 hm_counts__col(const struct hm_counts *c, int col)
{
	switch (col) {
	case 0: return c->samples;
	case 1: return c->loads;
	case 2: return c->cat[HM_CAT_HITM_LOCAL];
	case 3: return c->cat[HM_CAT_HITM_XDIE];
	case 4: return c->cat[HM_CAT_HITM_REMOTE];
	case 5: return c->cat[HM_CAT_DRAM_LOCAL];
	case 6: return c->cat[HM_CAT_DRAM_REMOTE];
	case 7: return c->stores;
	}
	return 0;
}

const char *const hm_counts__perf_col_names[HM_COUNTS_NR_PERF_COLS] = {
	"load", "lcl_hitm", "rmt_hitm", "lcl_dram", "rmt_dram", "store",
};

u32 hm_counts__perf_col(const struct hm_counts *c, int col)
{
	switch (col) {
	case 0: return c->perf.load;
	case 1: return c->perf.lcl_hitm;
	case 2: return c->perf.rmt_hitm;
	case 3: return c->perf.lcl_dram;
	case 4: return c->perf.rmt_dram;
	case 5: return c->perf.store;
	}
	return 0;
}

static void upper(char *d, const char *s, size_t size)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < size; i++)
		d[i] = (s[i] >= 'a' && s[i] <= 'z') ? s[i] - 32 : s[i];
	d[i] = 0;
}

void hm_counts__text_header(FILE *f, bool perf, bool samples)
{
	char b[32];

	for (int i = samples ? 0 : 1; i < HM_COUNTS_NR_COLS; i++) {
		upper(b, hm_counts__col_names[i], sizeof(b));
		fprintf(f, " %11s", b);
	}
	if (!perf)
		return;
	fprintf(f, " |");
	for (int i = 0; i < HM_COUNTS_NR_PERF_COLS; i++) {
		char p[40];

		upper(b, hm_counts__perf_col_names[i], sizeof(b));
		snprintf(p, sizeof(p), "PERF_%s", b);
		fprintf(f, " %13s", p);
	}
}

char *hm_counts__text_row(char *p, const struct hm_counts *c, bool perf, bool samples)
{
	for (int i = samples ? 0 : 1; i < HM_COUNTS_NR_COLS; i++) {
		*p++ = ' ';
		p = hm_row__u(p, hm_counts__col(c, i), 11);
	}
	if (!perf)
		return p;
	*p++ = ' ';
	*p++ = '|';
	for (int i = 0; i < HM_COUNTS_NR_PERF_COLS; i++) {
		*p++ = ' ';
		p = hm_row__u(p, hm_counts__perf_col(c, i), 13);
	}
	return p;
}

void hm_counts__text(FILE *f, const struct hm_counts *c, bool perf, bool samples)
{
	char b[HM_COUNTS_TEXT_MAX + HM_ROW_SLACK];

	fwrite(b, 1, (size_t)(hm_counts__text_row(b, c, perf, samples) - b), f);
}

void hm_counts__csv_header(FILE *f, bool perf)
{
	for (int i = 0; i < HM_COUNTS_NR_COLS; i++)
		fprintf(f, ",%s", hm_counts__col_names[i]);
	if (perf)
		for (int i = 0; i < HM_COUNTS_NR_PERF_COLS; i++)
			fprintf(f, ",perf_%s", hm_counts__perf_col_names[i]);
}

void hm_counts__csv(FILE *f, const struct hm_counts *c, bool perf)
{
	for (int i = 0; i < HM_COUNTS_NR_COLS; i++)
		fprintf(f, ",%u", hm_counts__col(c, i));
	if (perf)
		for (int i = 0; i < HM_COUNTS_NR_PERF_COLS; i++)
			fprintf(f, ",%u", hm_counts__perf_col(c, i));
}

void hm_counts__json(struct hm_json *j, const struct hm_counts *c, bool perf)
{
	hm_json__obj_begin(j, "counts");
	for (int i = 0; i < HM_COUNTS_NR_COLS; i++)
		hm_json__u64(j, hm_counts__col_names[i], hm_counts__col(c, i));
	hm_json__u64(j, "locked", c->locked);
	hm_json__obj_end(j);
	hm_json__obj_begin(j, "hitmap");
	for (int k = 0; k < HM_CAT__MAX; k++)
		if (c->cat[k])
			hm_json__u64(j, hm_mem_cat__name(k), c->cat[k]);
	hm_json__obj_end(j);
	if (!perf)
		return;
	hm_json__obj_begin(j, "perf_c2c");
#define HM_C2C_JSON(n) hm_json__u64(j, #n, c->perf.n);
	HM_C2C_COUNTERS(HM_C2C_JSON)
#undef HM_C2C_JSON
	hm_json__obj_end(j);
}

/* "RAM|REM|HITM": the bits of an encoding that made perf count it twice. */
static void encoding_text(u64 data_src, char *buf, size_t size)
{
	static const struct { u32 bit; const char *name; } lvl[] = {
		{ HM_LVL_L3, "L3" }, { HM_LVL_LOC_RAM, "LOC_RAM" }, { HM_LVL_REM_RAM1, "REM_RAM1" },
		{ HM_LVL_REM_RAM2, "REM_RAM2" }, { HM_LVL_REM_CCE1, "REM_CCE1" }, { HM_LVL_REM_CCE2, "REM_CCE2" },
	};
	struct hm_data_src d;
	size_t n = 0;

	hm_data_src__decode(data_src, &d);
	buf[0] = 0;
#define ADD(s) do { if (n < size) n += snprintf(buf + n, size - n, "%s%s", n ? "|" : "", s); } while (0)
	if (d.lvl_num == HM_LVLNUM_RAM)
		ADD("RAM");
	else if (d.lvl_num == HM_LVLNUM_L3)
		ADD("L3");
	else if (d.lvl_num == HM_LVLNUM_ANY_CACHE)
		ADD("ANY_CACHE");
	for (size_t i = 0; i < sizeof(lvl) / sizeof(lvl[0]); i++)
		if (d.lvl & lvl[i].bit)
			ADD(lvl[i].name);
	if (d.remote)
		ADD("REM");
	if (d.snoop & HM_SNOOP_HITM)
		ADD("HITM");
	if (d.snoopx & HM_SNOOPX_FWD)
		ADD("FWD");
	if (d.snoopx & HM_SNOOPX_PEER)
		ADD("PEER");
#undef ADD
}

static const char *cat_phrase(enum hm_mem_cat c)
{
	switch (c) {
	case HM_CAT_HITM_LOCAL:		return "local HITMs";
	case HM_CAT_HITM_XDIE:		return "cross-die HITMs";
	case HM_CAT_HITM_REMOTE:	return "remote HITMs";
	case HM_CAT_HIT_REMOTE:		return "remote cache hits";
	case HM_CAT_PEER_LOCAL:		return "local peer-cache hits";
	case HM_CAT_PEER_REMOTE:	return "remote peer-cache hits";
	case HM_CAT_DRAM_LOCAL:		return "local DRAM loads";
	case HM_CAT_DRAM_REMOTE:	return "remote DRAM loads";
	default:			return hm_mem_cat__name(c);
	}
}

int hm_report__counting_note(const struct hm_report *r, char *buf, size_t size)
{
	const struct hm_count_diff *d = hm_report__count_diff(r);
	u64 best = 0, total = 0;
	int kind = -1, cat = 0;
	char enc[64];

	buf[0] = 0;
	for (int k = 0; k < HM_CDIFF__MAX; k++)
		for (int c = 0; c < HM_CAT__MAX; c++) {
			total += d->n[k][c];
			if (d->n[k][c] > best) {
				best = d->n[k][c];
				kind = k;
				cat = c;
			}
		}
	if (kind < 0)
		return 0;
	encoding_text(d->data_src[kind][cat], enc, sizeof(enc));
	switch (kind) {
	case HM_CDIFF_ALSO_DRAM:
		snprintf(buf, size, "perf counts %" PRIu64 " %s again as %s DRAM: this CPU encodes them as %s",
			 best, cat_phrase(cat), d->remote[kind][cat] ? "remote" : "local", enc);
		break;
	case HM_CDIFF_AS_DRAM:
		snprintf(buf, size, "perf counts %" PRIu64 " %s as %s DRAM: this CPU encodes them as %s",
			 best, cat_phrase(cat), d->remote[kind][cat] ? "remote" : "local", enc);
		break;
	case HM_CDIFF_AS_HITM:
		snprintf(buf, size, "perf counts %" PRIu64 " %s as HITMs: this CPU encodes them as %s",
			 best, cat_phrase(cat), enc);
		break;
	case HM_CDIFF_NO_HITM:
		snprintf(buf, size, "perf does not count %" PRIu64 " %s as HITMs: this CPU encodes them as %s",
			 best, cat_phrase(cat), enc);
		break;
	}
	if (total > best) {
		size_t n = strlen(buf);

		snprintf(buf + n, size - n, " (%" PRIu64 " samples differ in all)", total);
	}
	return (int)strlen(buf);
}

void hm_counts__text_counting(FILE *f, const struct hm_report *r, bool perf)
{
	char note[256];

	fprintf(f, "counting: hitmap's precise categories (each sample once; *_REMOTE: another socket)%s\n",
		perf ? "; PERF_*: perf c2c's counters of the same samples" :
		"; perf c2c's counters: --perf-counters");
	if (hm_report__counting_note(r, note, sizeof(note)) > 0)
		fprintf(f, "note: %s\n", note);
}

void hm_counts__json_counting(struct hm_json *j, const struct hm_report *r, bool perf)
{
	char note[256];

	hm_json__obj_begin(j, "counting");
	hm_json__str(j, "shown", perf ? "hitmap+perf_c2c" : "hitmap");
	hm_json__str(j, "note", hm_report__counting_note(r, note, sizeof(note)) > 0 ? note : NULL);
	hm_json__obj_end(j);
}
