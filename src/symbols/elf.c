// SPDX-License-Identifier: GPL-2.0-only
/*
 * User ELF symbols with libelf: the file is found by build-id in perf's
 * cache (~/.debug/.build-id/xx/yyyy/elf), or by path (with --symfs); a
 * separate debug file (/usr/lib/debug/.build-id/xx/yyyy.debug) supplies
 * .symtab and DWARF when the binary is stripped.  Function and object
 * symbols (data too, for data addresses), sorted, binary search; a
 * zero-size symbol ends at the next one (perf's symbols__fixup_end).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "symbols-priv.h"

struct load {
	u64 vaddr, offset, filesz, memsz;
};

/* [start, end): perf's lookup meets syms[sym], or nothing (NO_SYM) */
struct over {
	u64 start, end;
	u32 sym;
};
#define NO_SYM UINT32_MAX

struct hm_elf {
	char *path;		/* file of the symbols */
	char *debug_path;	/* file with DWARF, or NULL */
	struct hm_elf_sym *syms;
	size_t nr_syms;
	u32 *uniq;		/* first symbol of each start address */
	size_t nr_uniq;
	struct load *loads;
	size_t nr_loads;
	struct hm_strpool *pool;
	struct over *over;	/* where symbols overlap: what perf's tree walk meets */
	size_t nr_over;
	enum hm_demangle demangle;
	u64 text_offset;	/* .text's sh_addr - sh_offset (perf's dso->text_offset) */
	bool have_text;
};

static bool elf_ready(void)
{
	static int ok = -1;

	if (ok < 0)
		ok = elf_version(EV_CURRENT) != EV_NONE;
	return ok;
}

static bool is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

static int note_build_id(Elf *elf, u8 *id, size_t size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + noff, "GNU", 4)) {
				size_t n = nh.n_descsz < size ? nh.n_descsz : size;

				memcpy(id, (char *)d->d_buf + doff, n);
				return (int)n;
			}
		}
	}
	return -ENOENT;
}

int hm_elf__read_build_id(const char *path, u8 *id, size_t size)
{
	int fd, n;
	Elf *elf;

	if (!elf_ready())
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return -EINVAL;
	}
	n = note_build_id(elf, id, size);
	elf_end(elf);
	close(fd);
	return n;
}

static bool build_id_matches(const char *path, const u8 *bid, u8 size)
{
	u8 id[20];
	int n;

	if (!bid || !size)
		return true;
	n = hm_elf__read_build_id(path, id, sizeof(id));
	if (n < 0)
		return true;	/* no note: cannot tell, take it */
	return n == size && !memcmp(id, bid, size);
}

static void bid_hex(const u8 *bid, u8 size, char *out)
{
	for (u8 i = 0; i < size; i++)
		sprintf(out + 2 * i, "%02x", bid[i]);
	out[2 * size] = '\0';
}

static int cmp_sym(const void *a, const void *b)
{
	const struct hm_elf_sym *x = a, *y = b;
	int rx, ry;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* perf's choose_best_symbol(): sized, non-weak, global, fewer '_', longer name */
	if (!x->size != !y->size)
		return !x->size - !y->size;
	if ((x->bind == STB_WEAK) != (y->bind == STB_WEAK))
		return x->bind == STB_WEAK ? 1 : -1;
	if ((x->bind == STB_GLOBAL) != (y->bind == STB_GLOBAL))
		return x->bind == STB_GLOBAL ? -1 : 1;
	rx = strspn(x->name, "_");
	ry = strspn(y->name, "_");
	if (rx != ry)
		return rx - ry;
	if (strlen(x->name) != strlen(y->name))
		return strlen(x->name) > strlen(y->name) ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* perf's elf_sec__filter(): labels only in text and data sections. */
static bool text_or_data(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *n = elf_strptr(elf, shstrndx, sh->sh_name);

	return n && (strstr(n, "text") || strstr(n, ".data"));
}

static int read_syms(struct hm_elf *e, Elf *elf, Elf64_Word want)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx = 0;

	elf_getshdrstrndx(elf, &shstrndx);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != want || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		struct hm_elf_sym *nv = realloc(e->syms, (e->nr_syms + n + 1) * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		e->syms = nv;
		/*
		 * binutils' elf_find_function() (addr2line without a line): the
		 * last STT_FILE before a symbol names its file, for a local
		 * symbol, or for any before the second group of FILE symbols.
		 */
		const char *file = NULL;
		int state = 0;	/* 0 nothing seen, 1 a symbol seen, 2 a FILE after a symbol */

		for (size_t i = 0; i < n; i++) {
			GElf_Sym sym;
			GElf_Shdr ssh;
			Elf_Scn *sscn;
			const char *name;
			int type;
			bool label;

			if (!gelf_getsym(d, i, &sym))
				continue;
			type = GELF_ST_TYPE(sym.st_info);
			if (want == SHT_SYMTAB && i > 0) {
				if (type == STT_FILE) {
					const char *fn = elf_strptr(elf, sh.sh_link, sym.st_name);

					file = fn && *fn ? hm_strpool__intern(e->pool, fn) : NULL;
					if (state == 1)
						state = 2;
					continue;
				}
				if (state == 0)
					state = 1;
			}
			/* perf's dso__load_sym(): functions, objects, and default-visibility labels */
			label = type == STT_NOTYPE && GELF_ST_VISIBILITY(sym.st_other) == STV_DEFAULT;
			if (type != STT_FUNC && type != STT_OBJECT && type != STT_GNU_IFUNC && !label)
				continue;
			if (!sym.st_name || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
			    !sym.st_value)
				continue;
			sscn = elf_getscn(elf, sym.st_shndx);
			if (!sscn || !gelf_getshdr(sscn, &ssh) || !(ssh.sh_flags & SHF_ALLOC))
				continue;
			if (label && !text_or_data(elf, shstrndx, &ssh))
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			struct hm_elf_sym *s = &e->syms[e->nr_syms];
			char *dm = hm_demangle(name, e->demangle);	/* perf ranks and shows the demangled name */

			s->start = sym.st_value;
			s->size = sym.st_size;
			s->type = type;
			s->bind = GELF_ST_BIND(sym.st_info);
			s->idx = (u32)e->nr_syms;
			s->file = s->bind == STB_LOCAL || state != 2 ? file : NULL;
			s->name = hm_strpool__intern(e->pool, dm ? dm : name);
			free(dm);
			if (!s->name)
				return -ENOMEM;
			e->nr_syms++;
		}
		return 1;
	}
	return 0;
}

static int read_loads(struct hm_elf *e, Elf *elf)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) < 0 || !n)
		return 0;
	e->loads = calloc(n, sizeof(*e->loads));
	if (!e->loads)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		e->loads[e->nr_loads++] = (struct load){ ph.p_vaddr, ph.p_offset, ph.p_filesz, ph.p_memsz };
	}
	return 0;
}

/* Read phdrs (when none yet) and the symbol table of kind @want from @path. */
static int scan(struct hm_elf *e, const char *path, Elf64_Word want, bool phdrs)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -EINVAL;
	}
	if (phdrs && !e->nr_loads)
		ret = read_loads(e, elf);
	if (phdrs && !e->have_text) {
		size_t shstrndx = 0;
		Elf_Scn *scn = NULL;

		elf_getshdrstrndx(elf, &shstrndx);
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *n;

			if (!gelf_getshdr(scn, &sh) || !(n = elf_strptr(elf, shstrndx, sh.sh_name)) ||
			    strcmp(n, ".text"))
				continue;
			e->text_offset = sh.sh_addr - sh.sh_offset;
			e->have_text = true;
			break;
		}
	}
	if (!ret && want)
		ret = read_syms(e, elf, want);
	elf_end(elf);
	close(fd);
	return ret;
}

static int build_uniq(struct hm_elf *e)
{
	size_t n = 0;
	u32 *nu;

	qsort(e->syms, e->nr_syms, sizeof(*e->syms), cmp_sym);
	nu = realloc(e->uniq, e->nr_syms * sizeof(*e->uniq));
	if (!nu)
		return -ENOMEM;
	e->uniq = nu;
	for (size_t i = 0; i < e->nr_syms; i++)
		if (!n || e->syms[e->uniq[n - 1]].start != e->syms[i].start)
			e->uniq[n++] = i;
	e->nr_uniq = n;
	return 0;
}

/* @s (the first at its start) or one of its aliases is an IFUNC: perf's ifunc_alias. */
static bool ifunc_at(const struct hm_elf *e, const struct hm_elf_sym *s)
{
	for (size_t i = (size_t)(s - e->syms); i < e->nr_syms && e->syms[i].start == s->start; i++)
		if (e->syms[i].type == STT_GNU_IFUNC)
			return true;
	return false;
}

static bool in_load(const struct hm_elf *e, u64 vaddr)
{
	for (size_t i = 0; i < e->nr_loads; i++) {
		const struct load *l = &e->loads[i];
		u64 sz = l->memsz > l->filesz ? l->memsz : l->filesz;

		if (sz && vaddr >= l->vaddr && vaddr < l->vaddr + sz)
			return true;
	}
	return false;
}

/*
 * perf 6.3+'s get_ifunc_name(): a nameless IRELATIVE entry takes the name
 * of the symbol starting at its resolver when that is an IFUNC or an alias
 * of one.  Looked up before the PLT symbols join the table (a resolver
 * lies in .text, where none of them is).  NULL: keep perf's offset name.
 */
static const char *ifunc_name(struct hm_elf *e, u64 vaddr, char *buf, size_t len)
{
	const struct hm_elf_sym *s;

	if (!in_load(e, vaddr))
		return NULL;
	s = hm_elf__find(e, vaddr);
	if (!s || s->start != vaddr || !ifunc_at(e, s))
		return NULL;
	snprintf(buf, len, "%s@plt", s->name);
	return hm_strpool__intern(e->pool, buf);
}

static void add_sym(struct hm_elf *e, const struct hm_plt_ent *p)
{
	struct hm_elf_sym *s = &e->syms[e->nr_syms];

	s->start = p->start;
	s->size = p->size;
	s->type = STT_FUNC;
	s->bind = STB_GLOBAL;
	s->idx = (u32)e->nr_syms;
	s->file = NULL;
	s->name = p->name;
	e->nr_syms++;
}

/*
 * Add the PLT symbols perf synthesizes after its table is read and its ends
 * fixed up (plt.c reads the entries); perf 6.3+ first cuts the symbol that
 * reaches over .plt from before (_init in .init) at its start.  perf 6.1
 * does not, and which of that symbol and an entry inside it a lookup meets
 * is the tree's to say (replay() below).
 */
static int add_plt(struct hm_elf *e, const char *path, bool modern, struct hm_plt *p)
{
	char buf[1100];
	int ret;

	ret = hm_plt__read(path, modern, e->demangle, e->pool, p);
	if (ret < 0 || (!p->nr && !p->has_clip))
		return ret;
	if (p->has_clip) {
		const struct hm_elf_sym *c = hm_elf__find(e, p->clip);

		if (c && c->start < p->clip && c->start + c->size > p->clip)
			e->syms[c - e->syms].size = p->clip - c->start;
	}
	struct hm_elf_sym *nv = realloc(e->syms, (e->nr_syms + p->nr + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	e->syms = nv;
	for (size_t i = 0; i < p->nr; i++)	/* names first: the lookups see no PLT symbol */
		if (p->ents[i].ifunc) {
			const char *n = ifunc_name(e, p->ents[i].ifunc, buf, sizeof(buf));

			if (n)
				p->ents[i].name = n;
		}
	for (size_t i = 0; i < p->nr; i++)
		if (!p->ents[i].dropped)
			add_sym(e, &p->ents[i]);
	return 0;
}

struct live {
	u64 start, end;
	u32 idx;
};

static int cmp_live(const void *a, const void *b)
{
	const struct live *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * perf's tree, replayed: the table's symbols inserted in file order, the
 * losers among equal starts erased in perf's order (symbols__fixup_duplicate
 * keeps the current one unless the next is better, as cmp_sym ranks them),
 * then the PLT symbols in perf's order, a .plt header that is not one
 * (dropped) erased after the .plt.got ones.  Ids are idx; @pos maps idx to
 * the table's slot.
 */
static struct hm_symtree *replay(const struct hm_elf *e, size_t n_read, const struct hm_plt *p,
				 const u32 *pos)
{
	struct hm_symtree *t = hm_symtree__new();
	int *node = malloc((n_read + 1) * sizeof(*node)), hdr = -1;
	u32 *g = malloc((n_read + 1) * sizeof(*g)), id = (u32)n_read;
	bool hdr_dropped = false;

	if (!t || !node || !g)
		goto fail;
	for (size_t i = 0; i < n_read; i++) {	/* idx order: the file's */
		const struct hm_elf_sym *s = &e->syms[pos[i]];

		node[i] = hm_symtree__insert(t, s->start, s->start + s->size, (u32)i);
		if (node[i] < 0)
			goto fail;
	}
	for (size_t i = 0, j; i < e->nr_syms; i = j) {	/* groups of equal starts */
		size_t ng = 0;
		u32 cur;

		for (j = i; j < e->nr_syms && e->syms[j].start == e->syms[i].start; j++)
			if (e->syms[j].idx < n_read)
				g[ng++] = e->syms[j].idx;
		if (ng < 2)
			continue;
		qsort(g, ng, sizeof(*g), cmp_u32);
		cur = g[0];
		for (size_t k = 1; k < ng; k++) {
			if (cmp_sym(&e->syms[pos[cur]], &e->syms[pos[g[k]]]) < 0) {
				hm_symtree__erase(t, node[g[k]]);
			} else {
				hm_symtree__erase(t, node[cur]);
				cur = g[k];
			}
		}
	}
	for (size_t i = 0; p && i < p->nr; i++) {
		const struct hm_plt_ent *pe = &p->ents[i];
		int nd;

		if (hdr_dropped && hdr >= 0 && !pe->got && !pe->header) {
			hm_symtree__erase(t, hdr);
			hdr = -1;
		}
		nd = hm_symtree__insert(t, pe->start, pe->start + pe->size, pe->dropped ? UINT32_MAX : id);
		if (nd < 0)
			goto fail;
		if (pe->header) {
			hdr = nd;
			hdr_dropped = pe->dropped;
		}
		if (!pe->dropped)
			id++;
	}
	if (hdr_dropped && hdr >= 0)
		hm_symtree__erase(t, hdr);
	free(node);
	free(g);
	return t;
fail:
	free(node);
	free(g);
	hm_symtree__delete(t);
	return NULL;
}

/*
 * Where symbols overlap (one starts inside another, or two start together),
 * the answer is whichever node perf's walk meets first, or none: record
 * it for every piece between their edges.  Elsewhere the table's own
 * search says the same.  0, or -ENOMEM (no records: the table's answers).
 */
static int overlaps(struct hm_elf *e, size_t n_read, const struct hm_plt *p)
{
	struct live *l = malloc((e->nr_syms + 1) * sizeof(*l));
	u32 *pos = malloc((e->nr_syms + 1) * sizeof(*pos));
	u64 *edge = NULL;
	struct hm_symtree *t = NULL;
	size_t nl = 0, cap = 0;
	int ret = -ENOMEM;

	if (!l || !pos)
		goto out;
	for (size_t i = 0; i < e->nr_syms; i++)
		pos[e->syms[i].idx] = (u32)i;
	/* what perf's tree holds: the best of each start among the file's, every PLT symbol */
	for (size_t i = 0; i < e->nr_syms; i++) {
		const struct hm_elf_sym *s = &e->syms[i];
		bool keep = s->idx >= n_read;

		if (!keep) {	/* the first of the file's at this start (PLT ones may sort before) */
			size_t k = i;

			while (k > 0 && e->syms[k - 1].start == s->start && e->syms[k - 1].idx >= n_read)
				k--;
			keep = !k || e->syms[k - 1].start != s->start;
		}
		if (keep)
			l[nl++] = (struct live){ s->start, s->start + s->size, s->idx };
	}
	qsort(l, nl, sizeof(*l), cmp_live);
	for (size_t i = 0, j; i < nl; i = j) {
		u64 end = l[i].end;
		size_t ne = 0;

		for (j = i + 1; j < nl && (l[j].start < end || l[j].start == l[j - 1].start); j++)
			if (l[j].end > end)
				end = l[j].end;
		if (j - i < 2)
			continue;
		if (!t && !(t = replay(e, n_read, p, pos)))
			goto out;
		if (cap < 2 * (j - i)) {
			cap = 2 * (j - i);
			free(edge);
			if (!(edge = malloc(cap * sizeof(*edge))))
				goto out;
		}
		for (size_t k = i; k < j; k++) {	/* a zero-size symbol holds its start alone */
			edge[ne++] = l[k].start;
			edge[ne++] = l[k].end > l[k].start ? l[k].end : l[k].start + 1;
		}
		qsort(edge, ne, sizeof(*edge), cmp_u64);
		for (size_t k = 0; k + 1 < ne; k++) {
			int64_t id;
			struct over *nv;

			if (edge[k] == edge[k + 1])
				continue;
			id = hm_symtree__find(t, edge[k]);
			nv = realloc(e->over, (e->nr_over + 1) * sizeof(*nv));
			if (!nv)
				goto out;
			e->over = nv;
			e->over[e->nr_over++] = (struct over){ edge[k], edge[k + 1],
				id < 0 || (u64)id >= e->nr_syms ? NO_SYM : pos[id] };
		}
	}
	ret = 0;
out:
	if (ret < 0) {
		free(e->over);
		e->over = NULL;
		e->nr_over = 0;
	}
	hm_symtree__delete(t);
	free(edge);
	free(pos);
	free(l);
	return ret;
}

/* Sort, fix up zero sizes (perf's symbols__fixup_end), add the PLT symbols, replay perf's tree where they overlap. */
static void finish(struct hm_elf *e, const char *plt_path, bool modern)
{
	struct hm_plt p = { 0 };
	size_t n;

	if (!e->nr_syms)
		return;
	if (build_uniq(e)) {
		e->nr_syms = e->nr_uniq = 0;
		return;
	}
	n = e->nr_uniq;
	for (size_t u = 0; u < n; u++) {	/* zero size: up to the next symbol */
		struct hm_elf_sym *s = &e->syms[e->uniq[u]];

		if (!s->size && u + 1 < n)
			s->size = e->syms[e->uniq[u + 1]].start - s->start;
	}
	n = e->nr_syms;
	if (plt_path && add_plt(e, plt_path, modern, &p) < 0)
		e->nr_syms = n;	/* out of memory: keep the table without PLT names */
	if (e->nr_syms != n && build_uniq(e)) {
		e->nr_syms = e->nr_uniq = 0;
		goto out;
	}
	overlaps(e, n, e->nr_syms != n ? &p : NULL);
out:
	hm_plt__release(&p);
}

struct hm_elf *hm_elf__open(const char *filename, const u8 *bid, u8 bid_size, const char *symfs,
			    bool modern_plt, enum hm_demangle demangle)
{
	struct hm_elf *e;
	char path[4096], dbg[4096], hex[41];
	u8 own[20];
	const char *home = getenv("HOME");
	bool have = false, have_dbg = false;
	int err;

	if (!elf_ready() || !filename) {
		errno = EINVAL;
		return NULL;
	}
	if (bid_size > 20)
		bid_size = 20;
	/* perf's dso__load(): no build-id recorded, the file's own finds its debug file */
	if ((!bid || !bid_size) && filename[0] == '/') {
		int n;

		snprintf(path, sizeof(path), "%s%s", symfs ? symfs : "", filename);
		n = is_file(path) ? hm_elf__read_build_id(path, own, sizeof(own)) : -ENOENT;
		if (n > 0) {
			bid = own;
			bid_size = (u8)n;
		}
	}
	if (bid && bid_size) {
		bid_hex(bid, bid_size, hex);
		/* perf's order: the build-id cache's debug file, then the system's */
		if (home && *home) {
			snprintf(dbg, sizeof(dbg), "%s/.debug/.build-id/%.2s/%s/debug", home, hex, hex + 2);
			have_dbg = is_file(dbg);
		}
		if (!have_dbg) {
			snprintf(dbg, sizeof(dbg), "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
				 symfs ? symfs : "", hex, hex + 2);
			have_dbg = is_file(dbg);
		}
		if (home && *home) {
			snprintf(path, sizeof(path), "%s/.debug/.build-id/%.2s/%s/elf", home, hex, hex + 2);
			have = is_file(path);
			if (!have) {	/* older perf: the link is the file */
				snprintf(path, sizeof(path), "%s/.debug/.build-id/%.2s/%s", home, hex, hex + 2);
				have = is_file(path);
			}
		}
	}
	if (!have && filename[0] == '/') {
		snprintf(path, sizeof(path), "%s%s", symfs ? symfs : "", filename);
		have = is_file(path) && build_id_matches(path, bid, bid_size);
	}
	if (!have && !have_dbg) {
		errno = ENOENT;
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		goto nomem;
	e->demangle = demangle;
	e->pool = hm_strpool__new();
	e->path = strdup(have ? path : dbg);
	if (have_dbg)
		e->debug_path = strdup(dbg);
	else if (have)
		e->debug_path = strdup(path);
	if (!e->pool || !e->path || !e->debug_path)
		goto nomem;
	/* phdrs from the binary; .symtab from it, else from the debug file, else .dynsym */
	err = scan(e, e->path, SHT_SYMTAB, true);
	if (err == 0 && have_dbg && have)
		err = scan(e, dbg, SHT_SYMTAB, true);
	if (err == 0)
		err = scan(e, e->path, SHT_DYNSYM, false);
	if (err < 0 && err != -EINVAL && err != -ENOENT) {
		hm_elf__delete(e);
		errno = -err;
		return NULL;
	}
	if (!e->nr_loads && have_dbg)
		scan(e, dbg, 0, true);
	finish(e, have ? e->path : NULL, modern_plt);
	return e;
nomem:
	hm_elf__delete(e);
	errno = ENOMEM;
	return NULL;
}

void hm_elf__delete(struct hm_elf *e)
{
	if (!e)
		return;
	free(e->path);
	free(e->debug_path);
	free(e->syms);
	free(e->uniq);
	free(e->loads);
	free(e->over);
	hm_strpool__delete(e->pool);
	free(e);
}

const char *hm_elf__path(const struct hm_elf *e)
{
	return e ? e->path : NULL;
}

const char *hm_elf__debug_path(const struct hm_elf *e)
{
	return e ? e->debug_path : NULL;
}

size_t hm_elf__nr_syms(const struct hm_elf *e)
{
	return e ? e->nr_syms : 0;
}

const struct hm_elf_sym *hm_elf__by_name(const struct hm_elf *e, const char *name)
{
	for (size_t i = 0; e && i < e->nr_syms; i++)
		if (!strcmp(e->syms[i].name, name))
			return &e->syms[i];
	return NULL;
}

int hm_elf__off_to_vaddr(const struct hm_elf *e, u64 off, u64 *vaddr)
{
	for (size_t i = 0; i < e->nr_loads; i++) {
		const struct load *l = &e->loads[i];

		if (off >= l->offset && off < l->offset + (l->memsz > l->filesz ? l->memsz : l->filesz)) {
			*vaddr = off - l->offset + l->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

const struct hm_elf_sym *hm_elf__find(const struct hm_elf *e, u64 vaddr)
{
	size_t lo = 0, hi = e->nr_over;

	while (lo < hi) {	/* where symbols overlap: perf's tree walk's answer */
		size_t mid = lo + (hi - lo) / 2;

		if (e->over[mid].start > vaddr)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo && vaddr < e->over[lo - 1].end)
		return e->over[lo - 1].sym == NO_SYM ? NULL : &e->syms[e->over[lo - 1].sym];
	lo = 0;
	hi = e->nr_uniq;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->syms[e->uniq[mid]].start > vaddr)
			hi = mid;
		else
			lo = mid + 1;
	}
	/* the closest start may be a small symbol inside a bigger one: look back a little */
	for (size_t u = lo, steps = 0; u > 0 && steps < 4; u--, steps++) {
		const struct hm_elf_sym *s = &e->syms[e->uniq[u - 1]];

		if (vaddr < s->start + s->size)
			return s;
	}
	return NULL;
}

/*
 * Why @path gives no ELF symbols ("not an ELF file (no ELF magic)", "a
 * directory, not an ELF file", "no symbol table (.symtab or .dynsym): a
 * stripped file", ...), written to @buf; NULL when it has a symbol table.
 */
const char *hm_elf__unusable(const char *path, char *buf, size_t size)
{
	const char *bad = NULL;
	unsigned char magic[SELFMAG];
	struct stat st;
	Elf_Scn *scn = NULL;
	Elf *e = NULL;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(buf, size, "cannot open: %s", strerror(errno));
		return buf;
	}
	if (fstat(fd, &st)) {
		snprintf(buf, size, "cannot stat: %s", strerror(errno));
		bad = buf;
	} else if (S_ISDIR(st.st_mode)) {
		bad = "a directory, not an ELF file";
	} else if (pread(fd, magic, SELFMAG, 0) != SELFMAG) {
		bad = st.st_size ? "not an ELF file (shorter than an ELF header)" :
				   "an empty file, not an ELF file";
	} else if (memcmp(magic, ELFMAG, SELFMAG)) {
		bad = "not an ELF file (no ELF magic)";
	} else if (elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		snprintf(buf, size, "not a readable ELF file: %s", elf_errmsg(-1));
		bad = buf;
	} else {
		bad = "no symbol table (.symtab or .dynsym): a stripped file";
		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;

			if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) &&
			    sh.sh_entsize && sh.sh_size / sh.sh_entsize > 1) {
				bad = NULL;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	if (bad && bad != buf)
		snprintf(buf, size, "%s", bad);
	return bad ? buf : NULL;
}

int hm_elf__text_offset(const struct hm_elf *e, u64 *off)
{
	if (!e || !e->have_text)
		return -ENOENT;
	*off = e->text_offset;
	return 0;
}
