// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap script: ip, sym, symoff, dso (and srcline) as perf script prints
 * them (script-sym.h).  Each address is looked up the way perf script's
 * own path looks it up, in the same order, because perf's kernel map
 * takes its kallsyms range at its first hit (hm_maps does the same) and
 * that moves what later lookups find.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <hitmap/symbols.h>
#include "script-sym.h"
#include "script-inline.h"
#include "script-srcline.h"

/* A module map's DSO name, worked out once per map filename. */
struct modname {
	const char	*filename;	/* hm_maps' pooled pointer */
	char		*name;
};

struct hm_script_sym {
	struct hm_maps		*maps;
	struct hm_symbols	*syms;		/* NULL: maps only (or before the first sample) */
	struct hm_script_sym_opts opts;
	u32			nr_bids;	/* header build-ids given to the maps */
	struct hm_script_srcline *src;		/* NULL: no srcline */
	struct hm_script_inline	*inl;		/* NULL: no inlined frames */
	const struct hm_header	*h;
	enum hm_perf_compat	compat;
	struct modname		*mods;
	size_t			nr_mods;
	/* the sample's own location, found by hm_script_sym__sample() */
	const struct hm_map	*cur_map;
	struct hm_symbol_info	cur;
	char			tmp[256];	/* "/tmp/perf-PID.map", a module's "[name]" */
};

struct hm_script_sym *hm_script_sym__new(const struct hm_header *h,
					 const struct hm_script_sym_opts *o)
{
	struct hm_script_sym *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->h = h;
	s->opts = *o;
	s->compat = o->compat;
	s->maps = hm_maps__new();
	if (!s->maps)
		goto nomem;
	if (h && hm_maps__set_build_ids(s->maps, h) == -ENOMEM)
		goto nomem;
	s->nr_bids = h ? h->nr_build_ids : 0;
	/* perf 6.12 and later forget a thread at its EXIT, and its maps with a leader */
	hm_maps__set_exit_removes(s->maps, o->compat != HM_PERF_6_1);
	return s;
nomem:
	hm_script_sym__delete(s);
	errno = ENOMEM;
	return NULL;
}

/*
 * The symbols, made at the first sample: a pipe-mode file's build-ids
 * (HEADER_BUILD_ID records) are known by then, as they are to perf when
 * its first sample loads the kernel map and its [vdso] map is made.
 */
static int make_syms(struct hm_script_sym *s)
{
	const struct hm_script_sym_opts *o = &s->opts;
	struct hm_symbols_opts so = {
		.kallsyms = o->kallsyms,
		.symfs = o->symfs,
		.vmlinux = o->vmlinux,
		.no_source = !o->srcline,
		.own_vdso = true,
	};

	/* perf's [vdso] dso comes from the header's build-id list when it names one */
	for (u32 i = 0; s->h && i < s->h->nr_build_ids; i++)
		if (s->h->build_ids[i].filename && !strcmp(s->h->build_ids[i].filename, "[vdso]"))
			so.own_vdso = false;
	hm_symbols_opts__set_perf(&so, o->compat);
	s->syms = hm_symbols__new(&so);
	if (!s->syms)
		return -ENOMEM;
	/* perf's kernel map takes kallsyms' range at its first hit */
	hm_symbols__attach_maps(s->syms, s->maps);
	if (o->srcline) {
		s->src = hm_script_srcline__new(o->compat);
		if (!s->src)
			return -ENOMEM;
	}
	if (o->inlines) {
		s->inl = hm_script_inline__new();
		if (!s->inl)
			return -ENOMEM;
	}
	return 0;
}

void hm_script_sym__delete(struct hm_script_sym *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_mods; i++)
		free(s->mods[i].name);
	free(s->mods);
	hm_script_srcline__delete(s->src);
	hm_script_inline__delete(s->inl);
	hm_symbols__delete(s->syms);
	hm_maps__delete(s->maps);
	free(s);
}

int hm_script_sym__event(struct hm_script_sym *s, const struct hm_event *ev)
{
	if (ev->type == HM_RECORD_HEADER_BUILD_ID && s->h && s->h->nr_build_ids > s->nr_bids) {
		/* pipe mode: perf_event__process_build_id() as the records come */
		struct hm_header late = *s->h;

		late.build_ids += s->nr_bids;
		late.nr_build_ids -= s->nr_bids;
		s->nr_bids = s->h->nr_build_ids;
		return hm_maps__set_build_ids(s->maps, &late) == -ENOMEM ? -ENOMEM : 0;
	}
	if (ev->type == PERF_RECORD_SAMPLE || ev->type >= HM_RECORD_HEADER_ATTR)
		return 0;
	return hm_maps__process(s->maps, ev) == -ENOMEM ? -ENOMEM : 0;
}

/* perf's thread__find_map() and map__find_symbol() for @ip */
static const struct hm_map *locate(struct hm_script_sym *s, const struct hm_sample *sm, u8 cpumode,
				   u64 ip, struct hm_symbol_info *info)
{
	const struct hm_map *map = hm_maps__find_thread(s->maps, sm->pid, sm->tid, cpumode, ip);

	memset(info, 0, sizeof(*info));
	if (map && s->syms)
		hm_symbols__resolve_map(s->syms, s->maps, map, ip, info);
	return map;
}

int hm_script_sym__sample(struct hm_script_sym *s, const struct hm_sample *sm)
{
	if (!s || !s->opts.symbols)
		return 0;
	if (!s->syms && make_syms(s) < 0)
		return -ENOMEM;
	s->cur_map = locate(s, sm, sm->misc & PERF_RECORD_MISC_CPUMODE_MASK, sm->ip, &s->cur);
	return 0;
}

/* perf's map__new(): anonymous memory and memory without a DSO map addresses as they are */
static bool map__is_anon(const struct hm_map *m)
{
	const char *f = m->filename ? m->filename : "";

	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || (m->flags & MAP_HUGETLB);
}

static bool map__is_nodso(const struct hm_map *m)
{
	const char *f = m->filename ? m->filename : "";

	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

/*
 * perf's kmod_path__parse_name(): the "[name]" of a kernel module path
 * (".ko", compressed or not; '-' read as '_') in @out; false when @path
 * names no module.
 */
static bool kmod_name(const char *path, char *out, size_t size)
{
	const char *name = strrchr(path, '/'), *ext = strrchr(path, '.');
	bool kmod = false;
	int n;

	name = name ? name + 1 : path;
	if (name[0] == '[') {
		static const char *const notmod[] = {
			"[kernel.kallsyms]", "[guest.kernel.kallsyms", "[vdso]", "[vdso32]",
			"[vdsox32]", "[vsyscall]",
		};

		kmod = true;
		for (size_t i = 0; i < sizeof(notmod) / sizeof(notmod[0]); i++)
			if (!strncmp(name, notmod[i], strlen(notmod[i])))
				kmod = false;
		n = snprintf(out, size, "%s", name);
	} else {
		if (ext && (!strcmp(ext, ".gz") || !strcmp(ext, ".xz")))
			ext -= 3;
		if (ext && ext > name)
			kmod = !strncmp(ext, ".ko", 3);
		n = kmod ? snprintf(out, size, "[%.*s]", (int)(ext - name), name) :
			   snprintf(out, size, "%s", name);
	}
	(void)n;
	for (char *p = out; *p; p++)
		if (*p == '-')
			*p = '_';
	return kmod;
}

/*
 * A module map's DSO: perf names the module's dso after the header's
 * build-id entry with the same module name when there is one (the dso was
 * made from that entry, its path), else "[name]".
 */
static const char *module_dso(struct hm_script_sym *s, const struct hm_map *m)
{
	char want[256], have[256];
	const char *name = NULL;
	struct modname *v;

	for (size_t i = 0; i < s->nr_mods; i++)
		if (s->mods[i].filename == m->filename)
			return s->mods[i].name;
	kmod_name(m->filename, want, sizeof(want));
	for (u32 i = 0; s->h && i < s->h->nr_build_ids && !name; i++) {
		const struct hm_build_id *b = &s->h->build_ids[i];
		u8 mode = b->misc & PERF_RECORD_MISC_CPUMODE_MASK;

		if (!b->filename || (mode != PERF_RECORD_MISC_KERNEL &&
				     mode != PERF_RECORD_MISC_GUEST_KERNEL))
			continue;
		if (kmod_name(b->filename, have, sizeof(have)) && !strcmp(have, want))
			name = b->filename;
	}
	v = realloc(s->mods, (s->nr_mods + 1) * sizeof(*v));
	if (!v)
		return m->filename;
	s->mods = v;
	v[s->nr_mods].filename = m->filename;
	v[s->nr_mods].name = strdup(name ? name : want);
	if (!v[s->nr_mods].name)
		return m->filename;
	return v[s->nr_mods++].name;
}

/* map__fprintf_dsoname(): the name of @m's dso, "[unknown]" without a map */
static const char *dso_name(struct hm_script_sym *s, const struct hm_map *m,
			    const struct hm_symbol_info *info)
{
	if (!m)
		return "[unknown]";
	if (!m->kernel) {
		/* map__new(): executable memory without a file is a JIT's /tmp/perf-PID.map */
		if ((map__is_anon(m) || map__is_nodso(m)) && m->pid && (s32)m->pid != -1 &&
		    (m->prot & PROT_EXEC)) {
			snprintf(s->tmp, sizeof(s->tmp), "/tmp/perf-%d.map", (int)m->pid);
			return s->tmp;
		}
		return m->filename;
	}
	if (m->type == HM_MAP_VMLINUX)
		return "[kernel.kallsyms]";
	if (m->type == HM_MAP_MODULE)
		return module_dso(s, m);
	return info->dso ? info->dso : m->filename;
}

/* perf's dso__short_name(): a module's "[name]", else the base name of its dso */
static const char *dso_short(struct hm_script_sym *s, const struct hm_map *m,
			     const struct hm_symbol_info *info)
{
	const char *d = dso_name(s, m, info), *b;

	if (m && m->type == HM_MAP_MODULE) {
		kmod_name(m->filename, s->tmp, sizeof(s->tmp));
		return s->tmp;
	}
	b = strrchr(d, '/');
	return b ? b + 1 : d;
}

/* " sym", " sym+0xoff" or " [unknown]" */
static void put_sym(struct obuf *o, const struct hm_symbol_info *info, unsigned opts)
{
	ob_ch(o, ' ');
	if (!info->name) {
		ob_str(o, "[unknown]", 9);
		return;
	}
	ob_cstr(o, info->name);
	if (opts & HM_SIP_SYMOFF) {
		ob_str(o, "+0x", 3);
		ob_hex(o, info->offset, 0);
	}
}

static void put_dso(struct hm_script_sym *s, struct obuf *o, const struct hm_map *m,
		    const struct hm_symbol_info *info)
{
	ob_str(o, " (", 2);
	ob_cstr(o, dso_name(s, m, info));
	ob_ch(o, ')');
}

void hm_script_sym__name(struct hm_script_sym *s, const struct hm_sample *sm, u8 cpumode,
			 u64 ip, const char **sym, u64 *off, const char **dso)
{
	struct hm_symbol_info info;
	const struct hm_map *m;

	if (!s || !s->syms) {
		*sym = NULL;
		*off = 0;
		*dso = "[unknown]";
		return;
	}
	if (sm->ip == ip && cpumode == (sm->misc & PERF_RECORD_MISC_CPUMODE_MASK)) {
		m = s->cur_map;
		info = s->cur;
	} else {
		m = locate(s, sm, cpumode, ip, &info);
	}
	*sym = info.name;
	*off = info.offset;
	*dso = dso_name(s, m, &info);
}

void hm_script_sym__print_ip(struct hm_script_sym *s, struct obuf *o,
			     const struct hm_sample *sm, unsigned opts)
{
	if (opts & HM_SIP_IP)
		ob_hex(o, sm->ip, 16);
	if (!s || !s->syms)
		return;
	if (opts & HM_SIP_SYM)
		put_sym(o, &s->cur, opts);
	if (opts & HM_SIP_DSO)
		put_dso(s, o, s->cur_map, &s->cur);
	if ((opts & HM_SIP_SRCLINE) && s->src)
		hm_script_srcline__print(s->src, o, s->cur_map, sm->ip, &s->cur,
					 dso_short(s, s->cur_map, &s->cur));
}

void hm_script_sym__print_addr(struct hm_script_sym *s, struct obuf *o,
			       const struct hm_sample *sm, unsigned opts)
{
	struct hm_symbol_info info;
	const struct hm_map *m;
	u8 cpumode;

	if (!s || !s->syms || !(opts & (HM_SIP_SYM | HM_SIP_DSO)))
		return;
	/*
	 * thread__resolve() (thread__find_map_fb()): the data address in the
	 * sample's cpumode, else in the space it is in (perf's single address
	 * space: at or above 2^63 the kernel's, as on x86_64)
	 */
	cpumode = sm->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	m = locate(s, sm, cpumode, sm->addr, &info);
	if (!m && (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_USER)) {
		u8 acm = sm->addr >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

		if (acm != cpumode)
			m = locate(s, sm, acm, sm->addr, &info);
	}
	if (opts & HM_SIP_SYM)
		put_sym(o, &info, opts);
	if (opts & HM_SIP_DSO)
		put_dso(s, o, m, &info);
}

/*
 * The frames perf script prints of @sm's call chain, as its
 * thread__resolve_callchain_sample() takes them (callee first): context
 * markers (kernel, user, hypervisor) are skipped, at most 127 frames
 * (PERF_MAX_STACK_DEPTH) are kept, and an unknown marker (guest contexts
 * among them) discards the whole chain.  Returns how many of the entries
 * to walk, or 0 for none.
 */
u64 hm_script_sym__chain_end(const struct hm_sample *sm)
{
	u64 i, frames = 0;

	if (!sm->callchain)
		return 0;
	for (i = 0; i < sm->callchain_nr && frames < 127; i++) {
		u64 ip = sm->callchain[i];

		if (ip < (u64)PERF_CONTEXT_MAX)
			frames++;
		else if (ip != (u64)PERF_CONTEXT_HV && ip != (u64)PERF_CONTEXT_KERNEL &&
			 ip != (u64)PERF_CONTEXT_USER)
			return 0;
	}
	return i;
}

/* perf's identity__map_ip() maps: anonymous memory, [heap], [stack*], /SYSV* */
static bool map__is_identity(const struct hm_map *m)
{
	return map__is_anon(m) || map__is_nodso(m);
}

/*
 * perf 7.3's inlined frames of a chain's frame (append_inlines()), in
 * the frame's place, innermost first, all at its address: a function
 * whose name is not the frame's symbol's is a symbol of its own, at the
 * same start (so the same offset), "(inlined)" where the DSO would be,
 * after its srcline; the frame's srcline is where it calls the function
 * inlined into it.
 */
static void put_inlines(struct hm_script_sym *s, struct obuf *o, const struct hm_map *m,
			const struct hm_symbol_info *info, u64 ip,
			const struct hm_inline_frame *fr, int n, unsigned opts)
{
	for (int i = 0; i < n; i++) {
		bool inlined = strcmp(fr[i].name, info->name);

		ob_ch(o, '\t');
		if (opts & HM_SIP_IP)
			ob_hex(o, ip, 16);
		if (opts & HM_SIP_SYM) {
			ob_ch(o, ' ');
			ob_cstr(o, fr[i].name);
			if (opts & HM_SIP_SYMOFF) {
				ob_str(o, "+0x", 3);
				ob_hex(o, info->offset, 0);
			}
		}
		if ((opts & HM_SIP_DSO) && !inlined)
			put_dso(s, o, m, info);
		if ((opts & HM_SIP_SRCLINE) && s->src && fr[i].file) {
			const char *b = strrchr(fr[i].file, '/');

			ob_str(o, "\n  ", 3);
			ob_cstr(o, b ? b + 1 : fr[i].file);
			ob_ch(o, ':');
			ob_u64(o, fr[i].line > 0 ? (u64)fr[i].line : 0, 0, false);
		}
		if (inlined)
			ob_str(o, " (inlined)", 10);
		ob_ch(o, '\n');
	}
}

/*
 * sample__fprintf_callchain(): "\t%16lx sym+0xoff (dso)\n" a frame.  perf
 * 6.1 prints a frame found in a user map relative to the file (ip - start
 * + pgoff, as map__map_ip() gives it), every other one as it is; later
 * perfs print them all as they are.
 */
void hm_script_sym__print_chain(struct hm_script_sym *s, struct obuf *o,
				const struct hm_sample *sm, unsigned opts)
{
	u64 end = hm_script_sym__chain_end(sm);
	/* thread__resolve_callchain_sample() starts in user mode */
	u8 cpumode = PERF_RECORD_MISC_USER;
	bool names = s && s->syms && (opts & (HM_SIP_SYM | HM_SIP_DSO | HM_SIP_SRCLINE));
	bool inl = s && s->syms && s->inl;
	bool rel = s && s->compat == HM_PERF_6_1 && (opts & HM_SIP_IP);

	for (u64 i = 0; i < end; i++) {
		u64 ip = sm->callchain[i], pip = ip;
		const struct hm_map *m = NULL;
		struct hm_symbol_info info;

		if (ip >= (u64)PERF_CONTEXT_MAX) {
			cpumode = ip == (u64)PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL :
				  ip == (u64)PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER :
				  PERF_RECORD_MISC_HYPERVISOR;
			continue;
		}
		if (names || inl)
			m = locate(s, sm, cpumode, ip, &info);
		else if (rel && cpumode == PERF_RECORD_MISC_USER)
			m = hm_maps__find_thread(s->maps, sm->pid, sm->tid, cpumode, ip);
		if (rel && m && !m->kernel && m->type == HM_MAP_USER && !map__is_identity(m))
			pip = ip - m->start + m->pgoff;
		if (inl && m && !m->kernel && info.name) {
			const struct hm_inline_frame *fr;
			int n = hm_script_inline__frames(s->inl, s->syms, m, ip, &fr);

			if (n > 0) {
				put_inlines(s, o, m, &info, pip, fr, n, opts);
				continue;
			}
		}
		ob_ch(o, '\t');
		if (opts & HM_SIP_IP)
			ob_hex(o, pip, 16);
		if (names && (opts & HM_SIP_SYM))
			put_sym(o, &info, opts);
		if (names && (opts & HM_SIP_DSO))
			put_dso(s, o, m, &info);
		if (names && (opts & HM_SIP_SRCLINE) && s->src)
			hm_script_srcline__print(s->src, o, m, ip, &info, dso_short(s, m, &info));
		ob_ch(o, '\n');
	}
}
