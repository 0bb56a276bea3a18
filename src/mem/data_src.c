// SPDX-License-Identifier: GPL-2.0-only
/*
 * union perf_mem_data_src: decode, encode, and perf script's text.
 *
 * The text follows perf 6.1's perf_script__meminfo_scnprintf() (util/mem-events.c),
 * the oracle this project checks against: "|OP LOAD|LVL L3 or L3 hit|SNP HitM|..."
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <hitmap/mem.h>
#include "data_src.h"

void hm_data_src__decode(u64 v, struct hm_data_src *d)
{
	d->op      = (v >> HM_DS_OP_SHIFT) & 0x1f;
	d->lvl     = (v >> HM_DS_LVL_SHIFT) & 0x3fff;
	d->snoop   = (v >> HM_DS_SNOOP_SHIFT) & 0x1f;
	d->lock    = (v >> HM_DS_LOCK_SHIFT) & 0x3;
	d->dtlb    = (v >> HM_DS_TLB_SHIFT) & 0x7f;
	d->lvl_num = (v >> HM_DS_LVLNUM_SHIFT) & 0xf;
	d->remote  = (v >> HM_DS_REMOTE_SHIFT) & 0x1;
	d->snoopx  = (v >> HM_DS_SNOOPX_SHIFT) & 0x3;
	d->blk     = (v >> HM_DS_BLK_SHIFT) & 0x7;
	d->hops    = (v >> HM_DS_HOPS_SHIFT) & 0x7;
	d->region  = (v >> HM_DS_REGION_SHIFT) & 0x1f;
}

u64 hm_data_src__encode(const struct hm_data_src *d)
{
	return ((u64)(d->op & 0x1f) << HM_DS_OP_SHIFT) |
	       ((u64)(d->lvl & 0x3fff) << HM_DS_LVL_SHIFT) |
	       ((u64)(d->snoop & 0x1f) << HM_DS_SNOOP_SHIFT) |
	       ((u64)(d->lock & 0x3) << HM_DS_LOCK_SHIFT) |
	       ((u64)(d->dtlb & 0x7f) << HM_DS_TLB_SHIFT) |
	       ((u64)(d->lvl_num & 0xf) << HM_DS_LVLNUM_SHIFT) |
	       ((u64)(d->remote & 0x1) << HM_DS_REMOTE_SHIFT) |
	       ((u64)(d->snoopx & 0x3) << HM_DS_SNOOPX_SHIFT) |
	       ((u64)(d->blk & 0x7) << HM_DS_BLK_SHIFT) |
	       ((u64)(d->hops & 0x7) << HM_DS_HOPS_SHIFT) |
	       ((u64)(d->region & 0x1f) << HM_DS_REGION_SHIFT);
}

/* A bounded appender: like the kernel's scnprintf, never writes past @size. */
struct sbuf {
	char	*buf;
	size_t	size, len;
};

static void sb_puts(struct sbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (!b->size)
		return;
	if (b->len + n >= b->size)
		n = b->size - 1 - b->len;
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	sb_puts(b, tmp);
}

static const char *const tlb_access[] = {
	"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault",
};

static const char *const mem_lvl[] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
	"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
	"Remote Cache (2 hops)", "I/O", "Uncached",
};

/* perf 6.1's table: values without a name print as "L%d". */
static const char *const mem_lvlnum[16] = {
	[HM_LVLNUM_CXL]       = "CXL",
	[HM_LVLNUM_IO]        = "I/O",
	[HM_LVLNUM_ANY_CACHE] = "Any cache",
	[HM_LVLNUM_LFB]       = "LFB/MAB",
	[HM_LVLNUM_RAM]       = "RAM",
	[HM_LVLNUM_PMEM]      = "PMEM",
	[HM_LVLNUM_NA]        = "N/A",
};

static const char *const mem_hops[8] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};

/* perf 6.12 and 7.3's table (L0, 0x7, has no name there: "Unknown level 7"). */
static const char *const mem_lvlnum_new[16] = {
	[HM_LVLNUM_L1]        = "L1",
	[HM_LVLNUM_L2]        = "L2",
	[HM_LVLNUM_L3]        = "L3",
	[HM_LVLNUM_L4]        = "L4",
	[0x5]                 = "L2 MHB",
	[0x6]                 = "Memory-side Cache",
	[0x8]                 = "Uncached",
	[HM_LVLNUM_CXL]       = "CXL",
	[HM_LVLNUM_IO]        = "I/O",
	[HM_LVLNUM_ANY_CACHE] = "Any cache",
	[HM_LVLNUM_LFB]       = "LFB/MAB",
	[HM_LVLNUM_RAM]       = "RAM",
	[HM_LVLNUM_PMEM]      = "PMEM",
	[HM_LVLNUM_NA]        = "N/A",
};

static const char *const snoop_access[] = { "N/A", "None", "Hit", "Miss", "HitM" };
static const char *const snoopx_access[] = { "Fwd", "Peer" };

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/*
 * perf's bit lists: the name of each set bit of @m (bit i: @names[i], the
 * first @n), joined by " or " after the @printed names already there.
 * Returns the names printed in all.
 */
static int bits_text(struct sbuf *b, u32 m, const char *const *names, u32 n, int printed)
{
	for (u32 i = 0; m && i < n; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			sb_puts(b, " or ");
		sb_puts(b, names[i]);
	}
	return printed;
}

static void op_text(struct sbuf *b, const struct hm_data_src *d)
{
	u32 op = d->op;

	if (op & HM_OP_NA)
		sb_puts(b, "N/A");
	else if (op & HM_OP_LOAD)
		sb_puts(b, "LOAD");
	else if (op & HM_OP_STORE)
		sb_puts(b, "STORE");
	else if (op & HM_OP_PFETCH)
		sb_puts(b, "PFETCH");
	else if (op & HM_OP_EXEC)
		sb_puts(b, "EXEC");
	else
		sb_puts(b, "No");
}

/*
 * perf 6.1's perf_mem__lvl_scnprintf(): "Remote ", then the hops text or the
 * legacy mem_lvl names joined by " or ", then " or " and the mem_lvl_num
 * name, then " hit"/" miss".  (Newer perf prints lvl_num alone.)
 */
static void lvl_text(struct sbuf *b, const struct hm_data_src *d)
{
	size_t start = b->len;
	u32 m = d->lvl;
	bool hit = m & HM_LVL_HIT, miss = m & HM_LVL_MISS;
	int printed = 0;

	m &= ~(HM_LVL_HIT | HM_LVL_MISS);
	if (d->remote)
		sb_puts(b, "Remote ");
	if (d->hops)
		sb_printf(b, "%s ", mem_hops[d->hops] ? mem_hops[d->hops] : "(null)");
	else
		printed = bits_text(b, m, mem_lvl, NR(mem_lvl), 0);
	if (d->lvl_num) {
		if (printed++)
			sb_puts(b, " or ");
		if (mem_lvlnum[d->lvl_num])
			sb_puts(b, mem_lvlnum[d->lvl_num]);
		else
			sb_printf(b, "L%u", d->lvl_num);
	}
	if (b->len == start)
		sb_puts(b, "N/A");
	if (hit)
		sb_puts(b, " hit");
	if (miss)
		sb_puts(b, " miss");
}

/*
 * perf 6.12 and 7.3's perf_mem__lvl_scnprintf(): a mem_lvl_num other than 0
 * and N/A wins ("Remote ", the hops text, its name, " ", hit or miss, so a
 * trailing blank without either); otherwise the legacy mem_lvl names joined
 * by " or ", " ", hit or miss; "N/A" when neither says anything.
 */
static void lvl_text_new(struct sbuf *b, const struct hm_data_src *d)
{
	const char *hm = d->lvl & HM_LVL_HIT ? "hit" : d->lvl & HM_LVL_MISS ? "miss" : "";

	if (d->lvl_num && d->lvl_num != HM_LVLNUM_NA) {
		if (d->remote)
			sb_puts(b, "Remote ");
		if (d->hops)
			sb_printf(b, "%s ", mem_hops[d->hops] ? mem_hops[d->hops] : "(null)");
		if (mem_lvlnum_new[d->lvl_num])
			sb_puts(b, mem_lvlnum_new[d->lvl_num]);
		else
			sb_printf(b, "Unknown level %u", d->lvl_num);
		sb_printf(b, " %s", hm);
		return;
	}
	if (bits_text(b, d->lvl & ~(HM_LVL_NA | HM_LVL_HIT | HM_LVL_MISS), mem_lvl, NR(mem_lvl), 0))
		sb_printf(b, " %s", hm);
	else
		sb_puts(b, "N/A");
}

static void snp_text(struct sbuf *b, const struct hm_data_src *d)
{
	size_t start = b->len;

	bits_text(b, d->snoopx, snoopx_access, NR(snoopx_access),
		  bits_text(b, d->snoop, snoop_access, NR(snoop_access), 0));
	if (b->len == start)
		sb_puts(b, "N/A");
}

static void tlb_text(struct sbuf *b, const struct hm_data_src *d)
{
	size_t start = b->len;
	u32 m = d->dtlb;
	bool hit = m & HM_TLB_HIT, miss = m & HM_TLB_MISS;

	bits_text(b, m & ~(HM_TLB_HIT | HM_TLB_MISS), tlb_access, NR(tlb_access), 0);
	if (b->len == start)
		sb_puts(b, "N/A");
	if (hit)
		sb_puts(b, " hit");
	if (miss)
		sb_puts(b, " miss");
}

static void lck_text(struct sbuf *b, const struct hm_data_src *d)
{
	if (d->lock & HM_LOCK_NA)
		sb_puts(b, "N/A");
	else if (d->lock & HM_LOCK_LOCKED)
		sb_puts(b, "Yes");
	else
		sb_puts(b, "No");
}

static void blk_text(struct sbuf *b, const struct hm_data_src *d)
{
	if (!d->blk || (d->blk & HM_BLK_NA)) {
		sb_puts(b, " N/A");
		return;
	}
	if (d->blk & HM_BLK_DATA)
		sb_puts(b, " Data");
	if (d->blk & HM_BLK_ADDR)
		sb_puts(b, " Addr");
}

int hm_data_src__scnprintf(u64 v, char *buf, size_t size)
{
	return hm_data_src__scnprintf_v(v, HM_PERF_6_1, buf, size);
}

int hm_data_src__scnprintf_v(u64 v, enum hm_perf_compat compat, char *buf, size_t size)
{
	struct sbuf b = { .buf = buf, .size = size, .len = 0 };
	struct hm_data_src d;

	if (!size)
		return 0;
	buf[0] = '\0';
	hm_data_src__decode(v, &d);
	sb_puts(&b, "|OP ");
	op_text(&b, &d);
	sb_puts(&b, "|LVL ");
	if (compat == HM_PERF_6_1)
		lvl_text(&b, &d);
	else
		lvl_text_new(&b, &d);
	sb_puts(&b, "|SNP ");
	snp_text(&b, &d);
	sb_puts(&b, "|TLB ");
	tlb_text(&b, &d);
	sb_puts(&b, "|LCK ");
	lck_text(&b, &d);
	sb_puts(&b, "|BLK ");
	blk_text(&b, &d);
	return (int)b.len;
}
