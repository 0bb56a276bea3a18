// SPDX-License-Identifier: GPL-2.0-only
/* Names of cache lines and of the bytes in them (names.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <hitmap/futex_names.h>
#include "names.h"

void hm_name__futex_table(const struct hm_futex_model *fm, const struct hm_futex_table *t,
			  char *buf, size_t size)
{
	u32 i, ord = 0, nr_priv = 0;

	if (t->kind == 0) {
		snprintf(buf, size, "global.node%d", t->node);
		return;
	}
	/* private tables belong to a pid that differs from run to run: use the order */
	for (i = 0; fm && i < fm->nr_tables; i++) {
		if (fm->tables[i].kind != 1)
			continue;
		if (&fm->tables[i] == t)
			ord = nr_priv;
		nr_priv++;
	}
	if (nr_priv > 1)
		snprintf(buf, size, "private.%u", ord);
	else
		snprintf(buf, size, "private");
}

void hm_name__futex_object(const struct hm_futex_model *fm, const char *obj, s32 pid, u64 line,
			   char *buf, size_t size)
{
	char tn[32];
	u64 pfn;

	if (!strncmp(obj, "fph.", 4) || !strncmp(obj, "futex_private_hash(", 19)) {
		/* the header of pid's private hash: named like that table's buckets */
		for (u32 i = 0; fm && i < fm->nr_tables; i++)
			if (fm->tables[i].kind == 1 && fm->tables[i].pid == pid) {
				hm_name__futex_table(fm, &fm->tables[i], tn, sizeof(tn));
				snprintf(buf, size, "futex.%s.fph", tn);
				return;
			}
		snprintf(buf, size, "futex.private.fph");
	} else if (!strncmp(obj, "mm.", 3) || !strncmp(obj, "mm_struct(", 10)) {
		snprintf(buf, size, "futex.mm");
	} else if (!strncmp(obj, "page table ", 11)) {
		snprintf(buf, size, "futex.pagetable");
	} else if (sscanf(obj, "page pfn 0x%" SCNx64, &pfn) == 1) {
		snprintf(buf, size, "futex.page.0x%" PRIx64, pfn);
	} else if (!strncmp(obj, "page ", 5)) {
		snprintf(buf, size, "futex.page");
	} else if (!strcmp(obj, "pcpu futex_ref")) {
		snprintf(buf, size, "futex.pcpu.futex_ref");
	} else if (!strncmp(obj, "__futex_", 8)) {
		snprintf(buf, size, "futex.%s", obj);		/* __futex_data, __futex_queues */
	} else if (!strncmp(obj, "futex word ", 11)) {
		snprintf(buf, size, "futex.word");
	} else if (!strcmp(obj, "qspinlock qnode")) {
		snprintf(buf, size, "futex.qnode");
	} else {
		snprintf(buf, size, "addr:0x%" PRIx64, line);
	}
}

void hm_name__symbol(const struct hm_symbol_info *info, u64 off, bool with_src, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s+0x%" PRIx64, info->name, off);

	if (with_src && info->file && n > 0 && (size_t)n < size) {
		const char *base = strrchr(info->file, '/');

		snprintf(buf + n, size - n, " (%s:%d)", base ? base + 1 : info->file, info->line);
	}
}

enum hm_name_kind hm_name__line(const struct hm_namer *n, const struct hm_line_ref *l,
				char *buf, size_t size)
{
	struct hm_symbol_info info;
	struct hm_futex_site site;
	u8 dmode = (l->first_addr >> 63) ? 1 : 2;	/* PERF_RECORD_MISC_KERNEL : _USER */
	char s[256], tn[32];

	if (n->futex && hm_futex_model__locate(n->futex, l->first_addr, &site) == 1) {
		if (site.where == HM_FUTEX_WHERE_BUCKET && site.loc.table) {
			hm_name__futex_table(n->futex, site.loc.table, tn, sizeof(tn));
			snprintf(buf, size, "futex.%s.bucket.%" PRIu64, tn, site.loc.index);
			return HM_NAME_BUCKET;
		}
		if (site.where == HM_FUTEX_WHERE_FPH_HEADER && site.loc.table) {
			hm_name__futex_table(n->futex, site.loc.table, tn, sizeof(tn));
			snprintf(buf, size, "futex.%s.fph", tn);
			return HM_NAME_FUTEX_OBJECT;
		}
		if (site.where == HM_FUTEX_WHERE_MM) {
			snprintf(buf, size, "futex.mm");
			return HM_NAME_FUTEX_OBJECT;
		}
	}
	/* futex-path memory the file's metadata names: before symbols, which only come near */
	if (n->futex && hm_futex_model__region(n->futex, l->first_addr) &&
	    hm_futex__name_addr(n->futex, l->first_addr, NULL, s, sizeof(s)) == 1) {
		hm_name__futex_object(n->futex, s, l->pid, l->line, buf, size);
		return HM_NAME_FUTEX_OBJECT;
	}
	if (n->resolve && !n->resolve(n->priv, l->pid, dmode, l->first_addr, &info) && info.name) {
		hm_name__symbol(&info, info.offset - (l->first_addr - l->line), false, s, sizeof(s));
		snprintf(buf, size, "data:%s", s);
		return HM_NAME_DATA_SYMBOL;
	}
	if (l->has_code && n->resolve &&
	    !n->resolve(n->priv, l->code_pid, l->code_cpumode, l->code_ip, &info) && info.name) {
		/* struct page/folio, per-CPU counter, __futex_data, futex word: by the futex-path code on it */
		if (hm_futex__path_function(info.name) &&
		    hm_futex__name_addr(n->futex, l->first_addr, info.name, s, sizeof(s)) == 1) {
			hm_name__futex_object(n->futex, s, l->pid, l->line, buf, size);
			return HM_NAME_FUTEX_OBJECT;
		}
		hm_name__symbol(&info, info.offset, false, s, sizeof(s));
		snprintf(buf, size, "code:%s", s);
		return HM_NAME_CODE;
	}
	snprintf(buf, size, "addr:0x%" PRIx64, l->line);
	return HM_NAME_ADDRESS;
}

void hm_name__offset(const struct hm_namer *n, u64 addr, u32 pid, char *buf, size_t size)
{
	struct hm_symbol_info info;
	struct hm_futex_site site;

	buf[0] = 0;
	if (n->futex && hm_futex_model__locate(n->futex, addr, &site) == 1) {
		const char *nm = site.where == HM_FUTEX_WHERE_BUCKET ? hm_futex_loc__name(&site.loc) : site.name;

		if (nm) {
			snprintf(buf, size, "%s", nm);
			return;
		}
	}
	/* memory the metadata names: the name itself (futex word 0x..., page table pte, ...) */
	if (n->futex && hm_futex_model__region(n->futex, addr) &&
	    hm_futex__name_addr(n->futex, addr, NULL, buf, size) == 1)
		return;
	/* a struct page in vmemmap: its field (_refcount, flags, mapping, ...) */
	if (hm_futex__vmemmap_base(addr) && hm_futex__name_addr(n->futex, addr, NULL, buf, size) == 1) {
		const char *dot = strrchr(buf, '.');

		if (dot)
			memmove(buf, dot + 1, strlen(dot + 1) + 1);
		return;
	}
	if (n->resolve && !n->resolve(n->priv, pid, (addr >> 63) ? 1 : 2, addr, &info) && info.name)
		hm_name__symbol(&info, info.offset, false, buf, size);
}
