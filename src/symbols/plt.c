// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PLT entries perf synthesizes symbols for, read from the binary itself
 * (a debug file has .plt as NOBITS).  Two generations of perf's
 * dso__synthesize_plt_symbols():
 *
 * perf 6.1: one "NAME@plt" per .rela.plt (or .rel.plt) entry, in relocation
 * order, after a header of sh_entsize bytes, each sh_entsize long (x86: 16);
 * NAME is the entry's .dynsym name, "" for entries without a symbol
 * (IRELATIVE), hence "@plt".  No .plt.sec, no .plt.got, no header symbol;
 * ARM/AArch64/SPARC use fixed header/entry sizes.
 *
 * perf 6.3 and later (6.12 and 7.3 alike, tests/sh/symbols-plt.sh): a ".plt"
 * symbol for the header, or for all of .plt when .plt.sec holds the entries
 * (x86 IBT); x86 .plt.got entries named after the .rela.dyn symbol of the
 * GOT slot their jmp reads (x86-64), else "offset_OFF@plt"; x86 entries in
 * GOT-slot order (IRELATIVE relocations come last in .rela.plt but not in
 * .plt); a nameless IRELATIVE entry (x86-64) is named after its resolver by
 * the caller (hm_plt_ent.ifunc), else "offset_OFF@plt"; a .plt whose size is
 * entries x entry size has no header; a static executable's .rela.plt may
 * link to .symtab; x86 entry sizes of 8 or 16 (else from the alignment).
 *
 * OFF in perf's names is a file offset, as perf keeps PLT symbols; here
 * every start is an ELF virtual address like the rest of hm_elf's table.
 * A section whose bytes the file lacks or whose counts overrun its data
 * (a corrupt file) gives what the data holds, where perf reads past it.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols-priv.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif
#ifndef R_X86_64_IRELATIVE
#define R_X86_64_IRELATIVE 37
#endif

struct sec {
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t idx;
};

struct ctx {
	enum hm_demangle demangle;
	Elf *elf;
	GElf_Ehdr eh;
	size_t shstrndx;
	struct hm_strpool *pool;
	struct hm_plt *out;
	size_t cap;
};

/* perf's elf_section_by_name(): the first section called @name. */
static bool sec_by_name(struct ctx *c, const char *name, struct sec *s)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(c->elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &s->sh))
			continue;
		n = elf_strptr(c->elf, c->shstrndx, s->sh.sh_name);
		if (n && !strcmp(n, name)) {
			s->scn = scn;
			s->idx = elf_ndxscn(scn);
			return true;
		}
	}
	memset(s, 0, sizeof(*s));
	return false;
}

/* The bytes of a section, NULL for one without any in the file (NOBITS, unreadable). */
static Elf_Data *data_of(Elf_Scn *scn)
{
	GElf_Shdr sh;
	Elf_Data *d;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return NULL;
	d = elf_getdata(scn, NULL);
	return d && d->d_buf ? d : NULL;
}

static bool is_x86(const struct ctx *c)
{
	return c->eh.e_machine == EM_386 || c->eh.e_machine == EM_X86_64;
}

static int sizes(const struct ctx *c, const GElf_Shdr *sh, bool modern, u64 *hdr, u64 *ent)
{
	switch (c->eh.e_machine) {
	case EM_ARM:		*hdr = 20;  *ent = 12; return 0;
	case EM_AARCH64:	*hdr = 32;  *ent = 16; return 0;
	case EM_SPARC:		*hdr = 48;  *ent = 12; return 0;
	case EM_SPARCV9:	*hdr = 128; *ent = 32; return 0;
	case EM_LOONGARCH:
		if (modern) {
			*hdr = 32;
			*ent = 16;
			return 0;
		}
		break;
	case EM_386:
	case EM_X86_64:
		if (modern) {
			*ent = sh->sh_entsize;
			if (*ent != 8 && *ent != 16)
				*ent = sh->sh_addralign == 8 ? 8 : 16;
			*hdr = *ent;
			return 0;
		}
		break;
	default:
		break;
	}
	*hdr = sh->sh_entsize;
	*ent = sh->sh_entsize;
	return *ent ? 0 : -ENOENT;
}

static int add(struct ctx *c, u64 start, u64 size, const char *name, u64 ifunc, bool header, bool got)
{
	struct hm_plt *p = c->out;
	struct hm_plt_ent *e;

	if (p->nr == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct hm_plt_ent *nv = realloc(p->ents, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		p->ents = nv;
		c->cap = cap;
	}
	e = &p->ents[p->nr];
	e->start = start;
	e->size = size;
	e->ifunc = ifunc;
	e->header = header;
	e->got = got;
	e->dropped = false;
	e->name = hm_strpool__intern(c->pool, name);
	if (!e->name)
		return -ENOMEM;
	p->nr++;
	return 0;
}

/* "NAME@plt" into @buf, NAME demangled as perf does before it adds "@plt"; whether NAME is not "". */
static bool plt_name(const struct ctx *c, const char *name, char *buf, size_t len)
{
	char *dm = hm_demangle(name, c->demangle);

	snprintf(buf, len, "%s@plt", dm ? dm : name);
	free(dm);
	return *name;
}

/* A string of @d at @off, "" when out of range (perf reads without a check). */
static const char *str_at(const Elf_Data *d, u64 off)
{
	if (!d || off >= d->d_size)
		return "";
	if (!memchr((const char *)d->d_buf + off, '\0', d->d_size - off))
		return "";
	return (const char *)d->d_buf + off;
}

struct slot {
	u64 off;
	u32 sym;
};

static int cmp_slot(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* The .rela.dyn slots with a symbol, by offset, and that table's strings (x86-64 .plt.got). */
struct rela_dyn {
	struct slot *slots;
	size_t nr;
	Elf_Data *syms, *strs;
};

static void rela_dyn_read(struct ctx *c, struct rela_dyn *rd)
{
	struct sec r;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;
	size_t n;

	memset(rd, 0, sizeof(*rd));
	if (!sec_by_name(c, ".rela.dyn", &r) || !r.sh.sh_link || !r.sh.sh_entsize)
		return;
	d = data_of(r.scn);
	scn = elf_getscn(c->elf, r.sh.sh_link);
	if (!d || !scn || !gelf_getshdr(scn, &sh) || !sh.sh_link)
		return;
	n = r.sh.sh_size / r.sh.sh_entsize;
	if (n > d->d_size / r.sh.sh_entsize)	/* a corrupt size: what the data holds */
		n = d->d_size / r.sh.sh_entsize;
	rd->syms = data_of(scn);
	rd->strs = data_of(elf_getscn(c->elf, sh.sh_link));
	if (!rd->syms || !rd->strs || !n)
		return;
	rd->slots = calloc(n, sizeof(*rd->slots));
	if (!rd->slots)
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela ra;

		if (gelf_getrela(d, (int)i, &ra) && GELF_R_SYM(ra.r_info)) {
			rd->slots[rd->nr].off = ra.r_offset;
			rd->slots[rd->nr].sym = (u32)GELF_R_SYM(ra.r_info);
			rd->nr++;
		}
	}
	qsort(rd->slots, rd->nr, sizeof(*rd->slots), cmp_slot);
}

/* perf's get_plt_got_name(): the symbol of the GOT slot the entry's jmp reads. */
static bool plt_got_name(const struct ctx *c, const struct rela_dyn *rd, const GElf_Shdr *sh,
			 const Elf_Data *code, u64 i, char *buf, size_t len)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	const u8 *p;
	struct slot key, *hit;
	GElf_Sym sym;
	const char *name;
	u32 n = 0, disp;
	u64 avail;

	if (!rd->slots || i >= code->d_size)
		return false;
	p = (const u8 *)code->d_buf + i;
	avail = code->d_size - i;
	if (avail >= sizeof(endbr64) && !memcmp(p, endbr64, sizeof(endbr64)))
		n += sizeof(endbr64);
	if (n < avail && p[n] == 0xf2)
		n += 1;
	if (n + 6 > avail || p[n] != 0xff || p[n + 1] != 0x25)
		return false;
	n += 2;
	memcpy(&disp, p + n, sizeof(disp));
	disp = n + 4 + le32toh(disp);	/* u32, as perf computes it */
	if (!disp)
		return false;
	key.off = sh->sh_offset + (u64)code->d_off + i + disp;
	hit = bsearch(&key, rd->slots, rd->nr, sizeof(*rd->slots), cmp_slot);
	if (!hit || !gelf_getsym(rd->syms, (int)hit->sym, &sym))
		return false;
	name = str_at(rd->strs, sym.st_name);
	return plt_name(c, name, buf, len);
}

static int plt_got(struct ctx *c, char *buf, size_t len)
{
	struct rela_dyn rd = { 0 };
	struct sec s;
	Elf_Data *code;
	int ret = 0;

	if (!sec_by_name(c, ".plt.got", &s) || !s.sh.sh_entsize)
		return 0;
	code = data_of(s.scn);
	if (!code)	/* no code in the file: nothing perf could read either */
		return 0;
	if (c->eh.e_machine == EM_X86_64)
		rela_dyn_read(c, &rd);
	for (u64 i = 0; i < s.sh.sh_size && i < code->d_size && !ret; i += s.sh.sh_entsize) {
		if (!plt_got_name(c, &rd, &s.sh, code, i, buf, len))
			snprintf(buf, len, "offset_%#" PRIx64 "@plt", s.sh.sh_offset + i);
		ret = add(c, s.sh.sh_addr + i, s.sh.sh_entsize, buf, 0, false, true);
	}
	free(rd.slots);
	return ret;
}

struct rel {
	Elf_Data *d;
	bool rela;
};

static bool rel_get(const struct rel *r, size_t i, GElf_Rela *ra)
{
	GElf_Rel rl;

	memset(ra, 0, sizeof(*ra));
	if (r->rela)
		return gelf_getrela(r->d, (int)i, ra) != NULL;
	if (!gelf_getrel(r->d, (int)i, &rl))
		return false;
	ra->r_offset = rl.r_offset;
	ra->r_info = rl.r_info;
	return true;
}

/* perf's sort_rel(): x86 relocations by GOT slot (struct slot: offset, index). */
static struct slot *rel_order(const struct rel *r, u64 n)
{
	struct slot *o = malloc(n * sizeof(*o));

	if (!o)
		return NULL;
	for (u64 i = 0; i < n; i++) {
		GElf_Rela ra;

		rel_get(r, i, &ra);
		o[i].off = ra.r_offset;
		o[i].sym = (u32)i;
	}
	qsort(o, n, sizeof(*o), cmp_slot);
	return o;
}

/* Entries of the modern kind; ret 0 with whatever was added when perf gives up. */
static int modern(struct ctx *c, char *buf, size_t len)
{
	struct sec plt, sec, rs, dyn, tab, sy;
	u64 hdr, ent, at, off, nrel;
	size_t hdr_i;
	struct rel r = { 0 };
	struct slot *order = NULL;
	Elf_Data *syms, *strs;
	GElf_Sym sym;
	bool lazy;
	int ret;

	if (!sec_by_name(c, ".plt", &plt))
		return 0;
	c->out->clip = plt.sh.sh_addr;
	c->out->has_clip = true;
	if (sizes(c, &plt.sh, true, &hdr, &ent))
		return 0;
	hdr_i = c->out->nr;
	ret = add(c, plt.sh.sh_addr, hdr, ".plt", 0, true, false);
	if (!ret && is_x86(c))
		ret = plt_got(c, buf, len);
	if (ret)
		return ret;
	if (is_x86(c) && sec_by_name(c, ".plt.sec", &sec)) {
		if (sizes(c, &sec.sh, true, &hdr, &ent))
			return 0;
		c->out->ents[hdr_i].size = plt.sh.sh_size;
		at = sec.sh.sh_addr;
		off = sec.sh.sh_offset;
		lazy = false;
	} else {
		at = plt.sh.sh_addr;
		off = plt.sh.sh_offset;
		lazy = true;
	}
	if (!sec_by_name(c, ".rela.plt", &rs) && !sec_by_name(c, ".rel.plt", &rs))
		return 0;
	if ((rs.sh.sh_type != SHT_RELA && rs.sh.sh_type != SHT_REL) || !rs.sh.sh_link)
		return 0;
	sec_by_name(c, ".dynsym", &dyn);
	sec_by_name(c, ".symtab", &tab);
	if (dyn.idx && rs.sh.sh_link == dyn.idx)
		sy = dyn.sh.sh_type == SHT_DYNSYM ? dyn : (struct sec){ 0 };
	else if (tab.idx && rs.sh.sh_link == tab.idx)	/* a static executable's IFUNCs */
		sy = tab.sh.sh_type == SHT_SYMTAB ? tab : (struct sec){ 0 };
	else
		return 0;
	if (!sy.scn || !rs.sh.sh_entsize)
		return 0;
	r.d = data_of(rs.scn);
	syms = data_of(sy.scn);
	strs = data_of(elf_getscn(c->elf, sy.sh.sh_link));
	if (!r.d || !syms || !strs || !strs->d_size)
		return 0;
	nrel = rs.sh.sh_size / rs.sh.sh_entsize;
	if (nrel > r.d->d_size / rs.sh.sh_entsize)	/* a corrupt size: what the data holds */
		nrel = r.d->d_size / rs.sh.sh_entsize;
	r.rela = rs.sh.sh_type == SHT_RELA;
	if (lazy) {
		if (nrel * ent == plt.sh.sh_size)	/* not lazy: no header */
			c->out->ents[hdr_i].dropped = true;
		else {
			at += hdr;
			off += hdr;
		}
	}
	if (is_x86(c) && nrel && !(order = rel_order(&r, nrel)))
		return -ENOMEM;
	memset(&sym, 0, sizeof(sym));
	for (u64 i = 0; i < nrel && !ret; i++, at += ent, off += ent) {
		GElf_Rela ra;
		const char *name;
		u64 ifunc = 0;

		rel_get(&r, order ? order[i].sym : i, &ra);
		gelf_getsym(syms, (int)GELF_R_SYM(ra.r_info), &sym);	/* perf keeps the last on failure */
		name = str_at(strs, sym.st_name);
		if (!plt_name(c, name, buf, len)) {
			if (c->eh.e_machine == EM_X86_64 && r.rela &&
			    GELF_R_TYPE(ra.r_info) == R_X86_64_IRELATIVE && ra.r_addend)
				ifunc = (u64)ra.r_addend;
			snprintf(buf, len, "offset_%#" PRIx64 "@plt", off);
		}
		ret = add(c, at, ent, buf, ifunc, false, false);
	}
	free(order);
	return ret;
}

/* perf 6.1's entries. */
static int old(struct ctx *c, char *buf, size_t len)
{
	struct sec rs, dyn, plt;
	struct rel r;
	Elf_Data *dd, *sd;
	u64 hdr, ent, at, nrel;
	int ret = 0;

	if (!sec_by_name(c, ".dynsym", &dyn) || dyn.sh.sh_type != SHT_DYNSYM)
		return 0;
	if (!sec_by_name(c, ".rela.plt", &rs) && !sec_by_name(c, ".rel.plt", &rs))
		return 0;
	if (rs.sh.sh_link != dyn.idx || !rs.sh.sh_entsize)
		return 0;
	if (!sec_by_name(c, ".plt", &plt) || plt.sh.sh_type == SHT_NOBITS)
		return 0;
	if (rs.sh.sh_type != SHT_RELA && rs.sh.sh_type != SHT_REL)
		return 0;
	r.d = data_of(rs.scn);
	r.rela = rs.sh.sh_type == SHT_RELA;
	dd = data_of(dyn.scn);
	sd = data_of(elf_getscn(c->elf, dyn.sh.sh_link));
	if (!r.d || !dd || !sd || !sd->d_size || sizes(c, &plt.sh, false, &hdr, &ent))
		return 0;
	nrel = rs.sh.sh_size / rs.sh.sh_entsize;
	if (nrel > r.d->d_size / rs.sh.sh_entsize)
		nrel = r.d->d_size / rs.sh.sh_entsize;
	at = plt.sh.sh_addr + hdr;
	for (u64 i = 0; i < nrel && !ret; i++, at += ent) {
		GElf_Rela ra;
		GElf_Sym sym;
		const char *name = "";

		rel_get(&r, i, &ra);
		if (gelf_getsym(dd, (int)GELF_R_SYM(ra.r_info), &sym))
			name = str_at(sd, sym.st_name);
		plt_name(c, name, buf, len);
		ret = add(c, at, ent, buf, 0, false, false);
	}
	return ret;
}

int hm_plt__read(const char *path, bool modern_rules, enum hm_demangle demangle,
		 struct hm_strpool *pool, struct hm_plt *out)
{
	struct ctx c = { .demangle = demangle, .pool = pool, .out = out };
	char buf[1024];
	int fd, ret = 0;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	c.elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (c.elf && elf_kind(c.elf) == ELF_K_ELF && gelf_getehdr(c.elf, &c.eh) &&
	    !elf_getshdrstrndx(c.elf, &c.shstrndx))
		ret = modern_rules ? modern(&c, buf, sizeof(buf)) : old(&c, buf, sizeof(buf));
	if (c.elf)
		elf_end(c.elf);
	close(fd);
	if (ret < 0)
		hm_plt__release(out);
	return ret;
}

void hm_plt__release(struct hm_plt *p)
{
	if (!p)
		return;
	free(p->ents);
	memset(p, 0, sizeof(*p));
}
