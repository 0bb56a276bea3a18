// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm_symbols: address -> dso, symbol+offset, source:line, inline frame.
 * Everything is lazy: kallsyms is read at the first kernel address, an ELF
 * and its DWARF at the first address in that DSO; each distinct (dso,
 * address) is resolved once and kept in a hash table, so the cost grows
 * with distinct addresses, not with samples.  Strings are pooled and live
 * until hm_symbols__delete.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/mem.h>
#include "symbols-priv.h"

#define KERNEL_DSO "[kernel.kallsyms]"

struct dso {
	const char *filename;	/* pooled */
	u8 bid[20], bid_size;
	bool elf_tried, dw_tried;
	bool vdso;		/* perf script's [vdso] (opts.own_vdso rules) */
	struct hm_elf *elf;
	struct hm_dwarf *dw;
};

struct entry {
	const void *dso;	/* NULL: empty slot */
	u64 addr;		/* file offset (user) or address (kernel) */
	struct hm_symbol_info info;
};

struct hm_symbols {
	struct hm_symbols_opts opts;
	char *kallsyms_path, *symfs, *vmlinux_path;
	struct dso *vml;		/* opts.vmlinux, opened at the first kernel address */
	bool vml_tried;
	u64 vml_slide;			/* runtime - link address (KASLR) */
	void *ksyms_text;
	struct hm_ksyms *ksyms;
	bool ksyms_tried;
	struct hm_ksyms *run_ksyms;	/* opts.running_kallsyms_range */
	bool run_tried;
	const struct hm_maps *maps;	/* last seen: its kernel map's build-id picks kallsyms */
	struct dso **dsos;
	size_t nr_dsos, alloc_dsos;
	struct dso *last_dso;	/* one-entry front cache */
	const char *last_filename;	/* hm_maps' pooled pointer of last_dso */
	const u8 *last_bid_map;
	struct entry *tab;
	size_t nr, cap;
	struct hm_strpool *pool;
	struct hm_symbols_stats st;
	char kernel_tag;	/* address of this is the kernel's dso key */
	char kimage_tag;	/* hm_symbols__resolve_map's kernel image key */
	/*
	 * hm_symbols__share_kernel: the kernel's tables (kallsyms, the running
	 * kernel's, the vmlinux ELF) are kshare's, loaded once under its klock
	 */
	struct hm_symbols *kshare;
	pthread_mutex_t klock;
};

void hm_symbols_opts__set_perf(struct hm_symbols_opts *o, unsigned perf_compat)
{
	unsigned v = perf_compat ? perf_compat : HM_PERF_7_3;	/* HM_PERF_NEWEST */

	o->running_kallsyms_range = v > HM_PERF_6_12;
	o->modern_plt = v > HM_PERF_6_1;
	o->demangle = v < HM_PERF_6_12 ? HM_DEMANGLE_NAMES :
		      v < HM_PERF_7_3 ? HM_DEMANGLE_FULL : HM_DEMANGLE_FULL_RUST;
}

struct hm_symbols *hm_symbols__new(const struct hm_symbols_opts *opts)
{
	struct hm_symbols *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (opts)
		s->opts = *opts;
	pthread_mutex_init(&s->klock, NULL);
	s->pool = hm_strpool__new();
	s->cap = 1024;
	s->tab = calloc(s->cap, sizeof(*s->tab));
	if (!s->pool || !s->tab)
		goto nomem;
	if (opts && opts->kallsyms && !(s->kallsyms_path = strdup(opts->kallsyms)))
		goto nomem;
	if (opts && opts->symfs && !(s->symfs = strdup(opts->symfs)))
		goto nomem;
	if (opts && opts->vmlinux && !(s->vmlinux_path = strdup(opts->vmlinux)))
		goto nomem;
	if (opts && opts->ksyms_text && opts->ksyms_len) {
		s->ksyms_text = malloc(opts->ksyms_len);
		if (!s->ksyms_text)
			goto nomem;
		memcpy(s->ksyms_text, opts->ksyms_text, opts->ksyms_len);
	}
	s->opts.kallsyms = s->kallsyms_path;
	s->opts.symfs = s->symfs;
	s->opts.vmlinux = s->vmlinux_path;
	s->opts.ksyms_text = s->ksyms_text;
	return s;
nomem:
	hm_symbols__delete(s);
	errno = ENOMEM;
	return NULL;
}

void hm_symbols__delete(struct hm_symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_dsos; i++) {
		hm_elf__delete(s->dsos[i]->elf);
		hm_dwarf__delete(s->dsos[i]->dw);
		free(s->dsos[i]);
	}
	free(s->dsos);
	if (s->vml) {
		hm_elf__delete(s->vml->elf);
		hm_dwarf__delete(s->vml->dw);
		free(s->vml);
	}
	free(s->vmlinux_path);
	free(s->tab);
	hm_ksyms__delete(s->ksyms);
	hm_ksyms__delete(s->run_ksyms);
	hm_strpool__delete(s->pool);
	free(s->kallsyms_path);
	free(s->symfs);
	free(s->ksyms_text);
	pthread_mutex_destroy(&s->klock);
	free(s);
}

void hm_symbols__stats(const struct hm_symbols *s, struct hm_symbols_stats *st)
{
	*st = s->st;
	st->nr_dsos = s->nr_dsos;
	st->resolved = s->nr;
}

/* ------------------------------------------------------------ cache */

static u64 hash_key(const void *dso, u64 addr)
{
	u64 h = (u64)(uintptr_t)dso * 0x9e3779b97f4a7c15ULL ^ addr;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static struct entry *cache_get(struct hm_symbols *s, const void *dso, u64 addr)
{
	for (size_t j = hash_key(dso, addr) & (s->cap - 1);; j = (j + 1) & (s->cap - 1)) {
		struct entry *e = &s->tab[j];

		if (!e->dso)
			return NULL;
		if (e->dso == dso && e->addr == addr)
			return e;
	}
}

static struct entry *cache_put(struct hm_symbols *s, const void *dso, u64 addr)
{
	size_t j;

	if ((s->nr + 1) * 4 > s->cap * 3) {
		size_t ncap = s->cap * 2;
		struct entry *nt = calloc(ncap, sizeof(*nt));

		if (!nt)
			return NULL;
		for (size_t i = 0; i < s->cap; i++) {
			struct entry *e = &s->tab[i];

			if (!e->dso)
				continue;
			for (j = hash_key(e->dso, e->addr) & (ncap - 1); nt[j].dso; j = (j + 1) & (ncap - 1))
				;
			nt[j] = *e;
		}
		free(s->tab);
		s->tab = nt;
		s->cap = ncap;
	}
	for (j = hash_key(dso, addr) & (s->cap - 1); s->tab[j].dso; j = (j + 1) & (s->cap - 1))
		;
	s->tab[j].dso = dso;
	s->tab[j].addr = addr;
	memset(&s->tab[j].info, 0, sizeof(s->tab[j].info));
	s->nr++;
	return &s->tab[j];
}

/* ---------------------------------------------------------- kernel */

/* The running kernel's build-id from /sys/kernel/notes; its size or <0. */
static int running_build_id(u8 *id)
{
	u8 buf[4096];
	FILE *f = fopen("/sys/kernel/notes", "r");
	size_t n, off = 0;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		u32 namesz, descsz, type;
		size_t name_off = off + 12, desc_off;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = name_off + ((namesz + 3) & ~3U);
		if (desc_off + descsz > n)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_off, "GNU", 4) && descsz <= 20) {
			memcpy(id, buf + desc_off, descsz);
			return (int)descsz;
		}
		off = desc_off + ((descsz + 3) & ~3U);
	}
	return -ENOENT;
}

static struct dso *vmlinux(struct hm_symbols *s);

/* perf's choice (dso__find_kallsyms): the running kernel's when it is the file's. */
static struct hm_ksyms *load_default(struct hm_symbols *s)
{
	const struct hm_map *k = hm_maps__kernel_map(s->maps);
	char path[4200], hex[41];
	const char *home = getenv("HOME");
	u8 id[20];
	int n;

	if (k && k->build_id_size) {
		n = running_build_id(id);
		if (n < 0 || n != k->build_id_size || memcmp(id, k->build_id, n)) {
			for (u8 i = 0; i < k->build_id_size; i++)
				sprintf(hex + 2 * i, "%02x", k->build_id[i]);
			snprintf(path, sizeof(path), "%s/.debug/[kernel.kallsyms]/%s/kallsyms",
				 home && *home ? home : "/root", hex);
			if (access(path, R_OK)) {
				if (vmlinux(s)) {	/* modules only: the image has its ELF */
					hm_debug("kernel build-id %s: no kallsyms for modules", hex);
					errno = ENOENT;
					return NULL;
				}
				hm_warn("kernel build-id %s is not the running kernel's and %s is missing: kernel symbols [unknown] (pass --kallsyms FILE)",
					hex, path);
				return NULL;
			}
			return hm_ksyms__load(path);
		}
	}
	return hm_ksyms__load("/proc/kallsyms");
}

/*
 * One of the kernel's tables, loaded once on @s: returns the kallsyms table
 * it gives (to index when shared), NULL when none or not one.
 */
typedef const struct hm_ksyms *kload_fn(struct hm_symbols *s);

/*
 * @load on the owner of @s's kernel tables (@s unless shared): when shared,
 * under the owner's lock and looking at @s's maps while it loads (the kernel
 * map's build-id and pgoff pick and place the tables).
 */
static const struct hm_ksyms *kload(struct hm_symbols *s, kload_fn *load)
{
	struct hm_symbols *o = s->kshare;
	const struct hm_maps *saved;
	const struct hm_ksyms *k;

	if (!o)
		return load(s);
	pthread_mutex_lock(&o->klock);
	saved = o->maps;
	o->maps = s->maps;
	k = load(o);
	o->maps = saved;
	pthread_mutex_unlock(&o->klock);
	return k;
}

static const struct hm_ksyms *ksyms_own(struct hm_symbols *s)
{
	if (s->ksyms_tried)
		return s->ksyms;
	s->ksyms_tried = true;
	if (s->opts.kallsyms) {
		if (!*s->opts.kallsyms)
			return NULL;	/* "": none */
		s->ksyms = hm_ksyms__load(s->opts.kallsyms);
	} else if (s->opts.ksyms_text) {
		s->ksyms = hm_ksyms__parse(s->opts.ksyms_text, s->opts.ksyms_len);
	} else {
		s->ksyms = load_default(s);
		if (s->ksyms && hm_ksyms__all_zero(s->ksyms))
			hm_warn("/proc/kallsyms: all addresses are 0 (kptr_restrict); kernel symbols need root or --kallsyms FILE");
	}
	if (!s->ksyms && errno != ENOENT)
		hm_warn("kallsyms: %s; kernel addresses stay [unknown] (pass --kallsyms FILE)",
			hm_log__last_error());
	return s->ksyms;
}

/* kallsyms (the owner's, when shared). */
static const struct hm_ksyms *ksyms(struct hm_symbols *s)
{
	return kload(s, ksyms_own);
}

const struct hm_ksyms *hm_symbols__ksyms(struct hm_symbols *s)
{
	return s ? ksyms(s) : NULL;
}

/*
 * The table that sets the kernel map's range.  perf 7.x's
 * dso__find_kallsyms() ends in the running kernel's /proc/kallsyms even
 * when the file's kernel build-id is another kernel's (6.1 and 6.12 load
 * nothing then and keep the map as recorded): with
 * opts.running_kallsyms_range the map takes that range, which moves "No Page
 * Map Rejects"; the symbols themselves stay [unknown], as they are not that
 * kernel's.
 */
static const struct hm_ksyms *maps_loader_own(struct hm_symbols *s)
{
	const struct hm_ksyms *k = ksyms_own(s);

	if (k || !s->opts.running_kallsyms_range || s->opts.kallsyms || s->opts.ksyms_text)
		return k;
	if (!s->run_tried) {
		s->run_tried = true;
		s->run_ksyms = hm_ksyms__load("/proc/kallsyms");
	}
	return s->run_ksyms;
}

static const struct hm_ksyms *maps_loader(void *ctx)
{
	return kload(ctx, maps_loader_own);
}

void hm_symbols__share_kernel(struct hm_symbols *s, struct hm_symbols *from)
{
	if (s && from != s)
		s->kshare = from && from->kshare ? from->kshare : from;
}

void hm_symbols__attach_maps(struct hm_symbols *s, struct hm_maps *m)
{
	if (!s || !m)
		return;
	s->maps = m;
	hm_maps__set_kernel_loader(m, maps_loader, s);
}

static void symbols_free(void *ctx)
{
	hm_symbols__delete(ctx);
}

int hm_maps__set_kallsyms(struct hm_maps *m, const struct hm_symbols_opts *opts)
{
	struct hm_symbols *s = hm_symbols__new(opts);

	if (!s)
		return -ENOMEM;
	s->maps = m;
	hm_maps__own_kernel_loader(m, maps_loader, s, symbols_free);
	return 0;
}

/* "[xfs]" from "/lib/modules/.../xfs.ko.zst" (perf's short module name). */
static const char *module_dso(struct hm_symbols *s, const char *filename)
{
	const char *b = strrchr(filename, '/');
	char buf[256];
	size_t n;

	if (filename[0] == '[')
		return hm_strpool__intern(s->pool, filename);
	b = b ? b + 1 : filename;
	n = strcspn(b, ".");
	if (n > sizeof(buf) - 3)
		n = sizeof(buf) - 3;
	buf[0] = '[';
	for (size_t i = 0; i < n; i++)
		buf[i + 1] = b[i] == '-' ? '_' : b[i];
	buf[n + 1] = ']';
	buf[n + 2] = '\0';
	return hm_strpool__intern(s->pool, buf);
}

static void fill_vaddr(struct hm_symbols *s, struct dso *d, u64 vaddr, struct hm_symbol_info *info);

static void bid_hex(const u8 *id, int n, char *hex)
{
	hex[0] = '\0';
	for (int i = 0; i < n && i < 20; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
}

/* opts.vmlinux, opened once: its ELF, the build-id check and the KASLR slide. */
static struct dso *vmlinux_own(struct hm_symbols *s)
{
	const struct hm_map *k;
	const struct hm_elf_sym *ref;
	char path[PATH_MAX], want[41], have[41];
	struct dso *d;
	u8 id[20];
	int n;

	if (s->vml_tried)
		return s->vml;
	s->vml_tried = true;
	if (!s->opts.vmlinux || !*s->opts.vmlinux)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->elf_tried = true;
	if (realpath(s->opts.vmlinux, path))
		d->elf = hm_elf__open(path, NULL, 0, NULL, false, HM_DEMANGLE_NONE);	/* perf: no kernel demangling */
	if (d->elf && !hm_elf__nr_syms(d->elf))
		errno = ENOEXEC;
	d->filename = hm_elf__nr_syms(d->elf) ? hm_strpool__intern(s->pool, path) : NULL;
	if (!d->filename) {
		char why[160];

		if (!hm_elf__unusable(s->opts.vmlinux, why, sizeof(why)))
			snprintf(why, sizeof(why), "no ELF symbols");
		hm_warn("%s: %s; kernel symbols come from kallsyms", s->opts.vmlinux, why);
		hm_elf__delete(d->elf);
		free(d);
		return NULL;
	}
	k = hm_maps__kernel_map(s->maps);
	if (k && k->build_id_size) {
		n = hm_elf__read_build_id(path, id, sizeof(id));
		if (n != k->build_id_size || memcmp(id, k->build_id, n)) {
			bid_hex(k->build_id, k->build_id_size, want);
			bid_hex(id, n, have);
			hm_warn("%s: build-id %s is not the recorded kernel's (%s); its symbols may not be the samples' code",
				s->opts.vmlinux, n > 0 ? have : "(none)", want);
		}
	}
	/* KASLR: the kernel MMAP's pgoff is where _text ran (perf's ref_reloc_sym) */
	if (k && k->pgoff && ((ref = hm_elf__by_name(d->elf, "_text")) ||
			      (ref = hm_elf__by_name(d->elf, "_stext"))))
		s->vml_slide = k->pgoff - ref->start;
	s->vml = d;
	return d;
}

/* kload()'s form of vmlinux_own(): not a kallsyms table. */
static const struct hm_ksyms *vmlinux_load(struct hm_symbols *s)
{
	vmlinux_own(s);
	return NULL;
}

/* opts.vmlinux (the owner's, when shared). */
static struct dso *vmlinux(struct hm_symbols *s)
{
	kload(s, vmlinux_load);
	return (s->kshare ? s->kshare : s)->vml;
}

static int resolve_kernel(struct hm_symbols *s, const struct hm_map *map, u64 addr,
			  struct hm_symbol_info *info)
{
	struct entry *e = cache_get(s, &s->kernel_tag, addr);
	const struct hm_ksym *k;

	if (e) {
		s->st.cache_hits++;
		*info = e->info;
	} else {
		/* the kernel image: the vmlinux ELF first, then kallsyms */
		struct dso *v = !map || map->type == HM_MAP_VMLINUX ? vmlinux(s) : NULL;

		e = cache_put(s, &s->kernel_tag, addr);
		if (!e)
			return -ENOMEM;
		if (v) {
			/* a shared ELF opens its DWARF at the first line asked */
			struct hm_symbols *o = s->kshare ? s->kshare : s;

			if (s->kshare)
				pthread_mutex_lock(&o->klock);
			fill_vaddr(s, v, addr - o->vml_slide, &e->info);
			e->info.obj_addr = addr - o->vml_slide;
			e->info.have_obj = true;
			if (s->kshare)
				pthread_mutex_unlock(&o->klock);
		}
		e->info.dso = KERNEL_DSO;
		k = e->info.name ? NULL : hm_ksyms__find(ksyms(s), addr);
		if (k) {
			e->info.name = hm_strpool__intern(s->pool, k->name);
			e->info.offset = addr - k->start;
			if (k->module)
				e->info.dso = module_dso(s, k->module);
		}
		*info = e->info;
	}
	/* the map decides the dso when there is one */
	if (map && map->type == HM_MAP_MODULE)
		info->dso = module_dso(s, map->filename);
	info->map = map;
	return 0;
}

/* ------------------------------------------------------------ user */

static bool no_file(const char *f)
{
	return f[0] != '/' || !strncmp(f, "//anon", 6) || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/SYSV", 5) || !strncmp(f, "/anon_hugepage", 14) ||
	       !strncmp(f, "/memfd:", 7) || strstr(f, " (deleted)");
}

static struct dso *dso_get(struct hm_symbols *s, const struct hm_map *map)
{
	const char *fn;
	struct dso *d;

	if (s->last_dso && s->last_filename == map->filename &&
	    s->last_dso->bid_size == map->build_id_size &&
	    !memcmp(s->last_dso->bid, map->build_id, map->build_id_size))
		return s->last_dso;
	fn = hm_strpool__intern(s->pool, map->filename);
	if (!fn)
		return NULL;
	for (size_t i = 0; i < s->nr_dsos; i++) {
		d = s->dsos[i];
		if (d->filename == fn && d->bid_size == map->build_id_size &&
		    !memcmp(d->bid, map->build_id, map->build_id_size))
			goto found;
	}
	if (s->nr_dsos == s->alloc_dsos) {
		size_t na = s->alloc_dsos ? s->alloc_dsos * 2 : 16;
		struct dso **nv = realloc(s->dsos, na * sizeof(*nv));

		if (!nv)
			return NULL;
		s->dsos = nv;
		s->alloc_dsos = na;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->filename = fn;
	d->bid_size = map->build_id_size > 20 ? 20 : map->build_id_size;
	memcpy(d->bid, map->build_id, d->bid_size);
	s->dsos[s->nr_dsos++] = d;
found:
	s->last_dso = d;
	s->last_filename = map->filename;
	return d;
}

/* Symbol, source line and inline frame of ELF address @vaddr of @d (its ELF open). */
static void fill_vaddr(struct hm_symbols *s, struct dso *d, u64 vaddr, struct hm_symbol_info *info)
{
	const struct hm_elf_sym *sym;
	struct hm_srcline sl;

	sym = hm_elf__find(d->elf, vaddr);
	if (sym) {
		info->name = hm_strpool__intern(s->pool, sym->name);
		info->offset = vaddr - sym->start;
	}
	if (s->opts.no_source)
		return;
	if (!d->dw_tried) {
		d->dw_tried = true;
		if (hm_elf__debug_path(d->elf))
			d->dw = hm_dwarf__open(hm_elf__debug_path(d->elf));
	}
	if (!d->dw || hm_dwarf__srcline(d->dw, vaddr, &sl) < 0) {
		info->file_no_unit = d->dw && sl.no_unit;
		/* no line: addr2line (so perf 6.1) names the symbol's STT_FILE, line 0 */
		if (sym && sym->file) {
			info->file = hm_strpool__intern(s->pool, sym->file);
			info->line = 0;
			info->file_from_sym = true;
		}
		return;
	}
	info->file = sl.file ? hm_strpool__intern(s->pool, sl.file) : NULL;
	info->line = sl.line;
	info->file_no_row = sl.no_row;
	if (sl.inline_func) {
		info->inline_func = hm_strpool__intern(s->pool, sl.inline_func);
		info->inlined_by = sl.caller ? hm_strpool__intern(s->pool, sl.caller) : info->name;
		info->call_file = sl.call_file ? hm_strpool__intern(s->pool, sl.call_file) : NULL;
		info->call_line = sl.call_line;
	}
}

/*
 * perf's vdso__dso_findnew(): this process's own vdso image, copied from
 * its mapping to a temporary file (unlinked once read), refused when its
 * build-id is not @bid.  NULL when there is none.
 */
static struct hm_elf *own_vdso(struct hm_symbols *s, const u8 *bid, u8 bid_size)
{
	const char *dir = getenv("TMPDIR");
	unsigned long long start = 0, end = 0;
	char line[512], path[PATH_MAX];
	struct hm_elf *e = NULL;
	FILE *f = fopen("/proc/self/maps", "r");
	size_t done = 0;
	int fd;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, " [vdso]") && sscanf(line, "%llx-%llx", &start, &end) == 2)
			break;
		start = end = 0;
	}
	fclose(f);
	if (end <= start)
		return NULL;
	snprintf(path, sizeof(path), "%s/hitmap-vdso.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	while (done < end - start) {
		ssize_t n = write(fd, (const char *)(uintptr_t)start + done, end - start - done);

		if (n <= 0)
			break;
		done += n;
	}
	close(fd);
	if (done == end - start)
		e = hm_elf__open(path, bid, bid_size, NULL, s->opts.modern_plt,
				 (enum hm_demangle)s->opts.demangle);
	unlink(path);
	return e;
}

/* [vdso]'s ELF as perf script finds it: the build-id cache, else perhaps its own vdso */
static struct hm_elf *vdso_open(struct hm_symbols *s, struct dso *d)
{
	const char *home = getenv("HOME");
	struct hm_elf *e = NULL;
	char path[PATH_MAX], hex[41];

	if (d->bid_size && home && *home) {
		/* the build-id cache keeps a vdso as .build-id/xx/yyyy/vdso */
		bid_hex(d->bid, d->bid_size, hex);
		snprintf(path, sizeof(path), "%s/.debug/.build-id/%.2s/%s/vdso", home, hex, hex + 2);
		if (!access(path, R_OK))
			e = hm_elf__open(path, d->bid, d->bid_size, NULL, s->opts.modern_plt,
					 (enum hm_demangle)s->opts.demangle);
	}
	if (!e && d->bid_size)
		e = hm_elf__open(d->filename, d->bid, d->bid_size, s->opts.symfs,
				 s->opts.modern_plt, (enum hm_demangle)s->opts.demangle);
	if (!e && s->opts.own_vdso)
		e = own_vdso(s, d->bid, d->bid_size);
	return e;
}

static void fill_user(struct hm_symbols *s, struct dso *d, u64 off, struct hm_symbol_info *info)
{
	u64 vaddr;

	info->dso = d->filename;
	if (!d->elf_tried) {
		d->elf_tried = true;
		d->elf = d->vdso ? vdso_open(s, d) :
			 hm_elf__open(d->filename, d->bid, d->bid_size, s->opts.symfs,
				      s->opts.modern_plt, (enum hm_demangle)s->opts.demangle);
		if (!d->elf)
			hm_debug("%s: no ELF found (build-id cache, path, --symfs): symbols [unknown]",
				 d->filename);
	}
	if (!d->elf || hm_elf__off_to_vaddr(d->elf, off, &vaddr) < 0)
		return;
	/* perf's map__rip_2objdump(): the file offset moved by .text's (objdump's address there) */
	if (hm_elf__text_offset(d->elf, &info->obj_addr) == 0)
		info->obj_addr += off;
	else
		info->obj_addr = vaddr;
	info->have_obj = true;
	fill_vaddr(s, d, vaddr, info);
}

static bool kernel_addr(u64 addr)
{
	return addr >= 0xffff800000000000ULL;	/* x86_64/arm64 upper half */
}

/* @addr in the user map @map (its file's symbols, cached per file offset). */
static int resolve_user(struct hm_symbols *s, const struct hm_map *map, u64 addr,
			struct hm_symbol_info *info, bool script)
{
	bool vdso = script && !strcmp(map->filename, "[vdso]");
	struct dso *d;
	struct entry *e;
	u64 off;

	if (no_file(map->filename) && !vdso) {
		info->dso = map->filename;
		info->map = map;
		return 0;
	}
	d = dso_get(s, map);
	if (!d)
		return -ENOMEM;
	d->vdso = vdso;
	/* perf's map__new(): a vdso map's pgoff is 0 */
	off = addr - map->start + (vdso ? 0 : map->pgoff);
	e = cache_get(s, d, off);
	if (e) {
		s->st.cache_hits++;
	} else {
		e = cache_put(s, d, off);
		if (!e)
			return -ENOMEM;
		fill_user(s, d, off, &e->info);
	}
	*info = e->info;
	info->map = map;
	return 0;
}

/*
 * perf's split of kallsyms (maps__split_kallsyms): the kernel image's
 * symbols moved by kallsyms' reference symbol less the recorded one
 * (kallsyms__delta; nothing loads without that symbol), a module's
 * symbols into the map of that name only.
 */
static int resolve_kernel_split(struct hm_symbols *s, const struct hm_map *map, u64 addr,
				struct hm_symbol_info *info)
{
	const char *mod = map->type == HM_MAP_MODULE ? module_dso(s, map->filename) : NULL;
	const void *tag = mod ? (const void *)mod : &s->kimage_tag;
	const struct hm_ksyms *k;
	const struct hm_ksym *ks = NULL;
	struct entry *e = cache_get(s, tag, addr);
	u64 a = addr;

	if (map->type == HM_MAP_MODULE && !mod)
		return -ENOMEM;
	if (e) {
		s->st.cache_hits++;
		*info = e->info;
		info->map = map;
		return 0;
	}
	e = cache_put(s, tag, addr);
	if (!e)
		return -ENOMEM;
	e->info.dso = mod ? mod : KERNEL_DSO;
	k = ksyms(s);
	if (k && !mod) {
		const char *ref = hm_maps__kernel_ref(s->maps);
		const struct hm_ksym *r = *ref ? hm_ksyms__by_name(k, ref) : NULL;

		if (*ref && !r)
			k = NULL;
		else if (r)
			a = addr + (r->start - map->pgoff);
	}
	if (k)
		ks = hm_ksyms__find(k, a);
	if (ks && mod) {
		size_t n = strlen(mod) - 2;	/* "[name]" */

		if (!ks->module || strlen(ks->module) != n || memcmp(ks->module, mod + 1, n))
			ks = NULL;
	} else if (ks && ks->module) {
		ks = NULL;
	}
	if (ks) {
		e->info.name = hm_strpool__intern(s->pool, ks->name);
		e->info.offset = a - ks->start;
	}
	*info = e->info;
	info->map = map;
	return 0;
}

/* A KSYMBOL map (BPF programs, trampolines): its name, the offset into it. */
static int ksymbol_info(const struct hm_map *map, u64 addr, struct hm_symbol_info *info)
{
	info->dso = map->filename;
	info->name = map->filename;
	info->offset = addr - map->start;
	info->map = map;
	return 0;
}

int hm_symbols__resolve_map(struct hm_symbols *s, const struct hm_maps *maps,
			    const struct hm_map *map, u64 addr, struct hm_symbol_info *info)
{
	if (!s || !info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	if (!map)
		return -ENOENT;
	s->st.lookups++;
	if (maps)
		s->maps = maps;
	if (!map->kernel)
		return resolve_user(s, map, addr, info, true);
	if (map->type == HM_MAP_KSYMBOL)
		return ksymbol_info(map, addr, info);
	if ((map->type == HM_MAP_VMLINUX && vmlinux(s)) ||
	    (map->type != HM_MAP_VMLINUX && map->type != HM_MAP_MODULE))
		return resolve_kernel(s, map, addr, info);	/* the vmlinux ELF's symbols */
	return resolve_kernel_split(s, map, addr, info);
}

int hm_symbols__inlines(struct hm_symbols *s, const struct hm_map *map, u64 addr,
			struct hm_inline_frame *out, int max)
{
	struct dso *d;
	u64 vaddr;
	int n;

	if (!s || !map || map->kernel || no_file(map->filename) || !strcmp(map->filename, "[vdso]"))
		return 0;
	d = dso_get(s, map);
	if (!d)
		return -ENOMEM;
	if (!d->elf || hm_elf__off_to_vaddr(d->elf, addr - map->start + map->pgoff, &vaddr) < 0)
		return 0;
	if (!d->dw_tried) {
		d->dw_tried = true;
		if (hm_elf__debug_path(d->elf))
			d->dw = hm_dwarf__open(hm_elf__debug_path(d->elf));
	}
	if (!d->dw)
		return 0;
	n = hm_dwarf__inlines(d->dw, vaddr, out, max);
	for (int i = 0; i < n; i++) {
		const char *f = out[i].file;

		out[i].name = hm_strpool__intern(s->pool, out[i].name);
		out[i].file = f ? hm_strpool__intern(s->pool, f) : NULL;
		if (!out[i].name || (f && !out[i].file))
			return -ENOMEM;
	}
	return n;
}

int hm_symbols__resolve(struct hm_symbols *s, const struct hm_maps *maps, u32 pid,
			u8 cpumode, u64 addr, struct hm_symbol_info *info)
{
	const struct hm_map *map;

	if (!s || !info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	s->st.lookups++;
	if (maps)
		s->maps = maps;
	cpumode &= PERF_RECORD_MISC_CPUMODE_MASK;
	/* peek: resolving never changes what perf's lookups would load */
	map = hm_maps__peek(maps, pid, cpumode, addr);
	if (!map && cpumode == PERF_RECORD_MISC_USER)
		map = hm_maps__peek(maps, pid, PERF_RECORD_MISC_KERNEL, addr);
	if (!map) {
		if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
		    kernel_addr(addr)) {
			if (!vmlinux(s) && !ksyms(s))
				return -ENOENT;
			return resolve_kernel(s, NULL, addr, info);
		}
		return -ENOENT;
	}
	if (map->kernel) {
		if (map->type == HM_MAP_KSYMBOL)
			return ksymbol_info(map, addr, info);
		return resolve_kernel(s, map, addr, info);
	}
	return resolve_user(s, map, addr, info, false);
}
