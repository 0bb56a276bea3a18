// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap script: the srcline field (script-srcline.h), as perf's
 * map__fprintf_srcline() prints it: "\n  FILE:LINE" (the file's base
 * name) where the debug information has the address, else "\n  DSO[ADDR]"
 * (the dso's base name and the address in the file, perf's
 * map__rip_2objdump()); nothing without a map.  perf 6.1 prints nothing
 * either where its addr2line answers "??:?" (a symbol without a line).
 */
#include <stdlib.h>
#include <string.h>
#include "script-srcline.h"

struct hm_script_srcline {
	enum hm_perf_compat compat;
};

struct hm_script_srcline *hm_script_srcline__new(enum hm_perf_compat compat)
{
	struct hm_script_srcline *s = calloc(1, sizeof(*s));

	if (s)
		s->compat = compat;
	return s;
}

void hm_script_srcline__delete(struct hm_script_srcline *s)
{
	free(s);
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* perf's identity__map_ip() maps (anonymous memory, [heap], [stack*], /SYSV*) */
static bool identity(const struct hm_map *m)
{
	const char *f = m->filename ? m->filename : "";

	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || !strncmp(f, "[stack", 6) ||
	       !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

void hm_script_srcline__print(struct hm_script_srcline *s, struct obuf *o, const struct hm_map *map,
			      u64 ip, const struct hm_symbol_info *info, const char *dso)
{
	u64 addr;

	if (!map)
		return;
	/* binutils' addr2line (perf 6.1) names a symbol's STT_FILE; perf 6.12's and libdw do not */
	if (info->file && (!info->file_from_sym || s->compat == HM_PERF_6_1)) {
		/* a unit's address without a line row: addr2line and libdw name no file */
		ob_str(o, "\n  ", 3);
		if (!info->file_no_row)
			ob_cstr(o, base_name(info->file));
		ob_ch(o, ':');
		ob_u64(o, info->line > 0 ? (u64)info->line : 0, 0, false);
		return;
	}
	/* no unit holds the address: perf 6.12's and 7.3's addr2line answer "??:0" */
	if (info->file_no_unit && s->compat != HM_PERF_6_1) {
		ob_str(o, "\n  ??:0", 7);
		return;
	}
	/*
	 * perf 6.1 takes addr2line's "??:?" (a symbol, no line) for a line
	 * and prints nothing for its "??:0"; it asks addr2line only of a file
	 * (not of "[vdso]" and other bracketed names)
	 */
	if (s->compat == HM_PERF_6_1 && info->have_obj && info->name && !map->kernel &&
	    dso[0] != '[')
		return;
	if (info->have_obj)
		addr = info->obj_addr;
	else if (map->type == HM_MAP_VMLINUX || (!map->kernel && identity(map)))
		addr = ip;	/* the kernel image, kallsyms' addresses; identity maps */
	else
		addr = ip - map->start + map->pgoff;
	ob_str(o, "\n  ", 3);
	ob_cstr(o, dso);
	ob_ch(o, '[');
	ob_hex(o, addr, 0);
	ob_ch(o, ']');
}
