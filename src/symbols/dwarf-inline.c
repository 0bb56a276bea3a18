// SPDX-License-Identifier: GPL-2.0-only
/*
 * The inline frames of an address as perf 7.3 adds them to a call chain:
 * it asks binutils' addr2line -f -i, whose first answer is the innermost
 * function at the address's line and each next one the function it is
 * inlined into, at the call site.  That reader takes the function whose
 * range holding the address is the smallest, the last one read among
 * equals (glibc's assembler units give one address four names), and
 * prefers a linkage name to DW_AT_name.  Here: the unit's top-level
 * DW_TAG_subprogram chosen that way (dwarf_getfuncs()), then, down from
 * it, the first DW_TAG_inlined_subroutine that holds the address, depth
 * first, again and again (perf's cu_walk_functions_at()).
 */
#include <dwarf.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <elfutils/libdw.h>
#include "symbols-priv.h"
#include "dwarf-priv.h"

struct func_find {
	Dwarf_Addr	addr;
	Dwarf_Addr	len;	/* of @die's range holding @addr */
	Dwarf_Die	die;
	bool		found;
};

/* The length of @die's address range holding @pc, 0 when none does. */
Dwarf_Addr hm_dwarf__range_len(Dwarf_Die *die, Dwarf_Addr pc)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (pc >= start && pc < end)
			return end - start;
	return 0;
}

static int func_cb(Dwarf_Die *fn, void *arg)
{
	struct func_find *f = arg;
	Dwarf_Addr len;

	if (dwarf_tag(fn) != DW_TAG_subprogram)
		return DWARF_CB_OK;
	len = hm_dwarf__range_len(fn, f->addr);
	if (len && (!f->found || len <= f->len)) {
		f->die = *fn;
		f->len = len;
		f->found = true;
	}
	return DWARF_CB_OK;
}

/* binutils' name of a function: the linkage name, else DW_AT_name */
static const char *func_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *n;

	n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	return n ? n : dwarf_diename(die);
}

/* perf's die_find_child() with __die_find_inline_cb(): depth first */
static bool find_inline(Dwarf_Die *parent, Dwarf_Addr addr, Dwarf_Die *out)
{
	Dwarf_Die d, child;

	if (dwarf_child(parent, &d) != 0)
		return false;
	do {
		if (dwarf_tag(&d) == DW_TAG_inlined_subroutine && dwarf_haspc(&d, addr) > 0) {
			*out = d;
			return true;
		}
		if (find_inline(&d, addr, &child)) {
			*out = child;
			return true;
		}
	} while (dwarf_siblingof(&d, &d) == 0);
	return false;
}

/* perf's die_get_call_file() */
static const char *call_file(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Die cu;
	Dwarf_Word w;
	size_t nfiles;

	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &w) != 0)
		return NULL;
	if (!dwarf_diecu(die, &cu, NULL, NULL) ||
	    dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 || w >= nfiles)
		return NULL;
	return dwarf_filesrc(files, w, NULL, NULL);
}

int hm_dwarf__inlines(struct hm_dwarf *d, u64 vaddr, struct hm_inline_frame *out, int max)
{
	Dwarf_Addr addr = vaddr + d->bias, cubias;
	struct hm_inline_frame tmp;
	struct func_find f = { 0 };
	Dwarf_Die *cudie, die;
	const char *file;
	Dwfl_Line *line;
	int lineno = 0, n = 0;

	if (max <= 0)
		return 0;
	line = dwfl_module_getsrc(d->mod, addr);
	if (!line)
		return 0;
	file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	cudie = dwfl_module_addrdie(d->mod, addr, &cubias);
	if (!cudie)
		return 0;
	f.addr = addr - cubias;
	dwarf_getfuncs(cudie, func_cb, &f, 0);
	if (!f.found)
		return 0;
	/* outermost first: each new frame gives the one before it its call site */
	die = f.die;
	do {
		const char *name = func_name(&die);

		if (n) {
			Dwarf_Attribute attr;
			Dwarf_Word w = 0;

			out[n - 1].file = call_file(&die);
			dwarf_formudata(dwarf_attr(&die, DW_AT_call_line, &attr), &w);
			out[n - 1].line = (int)w;
		}
		if (n == max)
			break;	/* deeper than @max: the innermost ones are left out */
		out[n].name = name ? name : "??";
		out[n].file = file ? file : "<unknown>";
		out[n].line = lineno;
		n++;
	} while (find_inline(&die, f.addr, &die));
	for (int i = 0; i < n / 2; i++) {
		tmp = out[i];
		out[i] = out[n - 1 - i];
		out[n - 1 - i] = tmp;
	}
	return n;
}
