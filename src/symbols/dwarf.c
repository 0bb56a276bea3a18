// SPDX-License-Identifier: GPL-2.0-only
/*
 * Source lines and inline frames with libdw/libdwfl: one Dwfl per DSO (the
 * caller caches it), the file reported offline; the line table gives
 * file:line, dwarf_getscopes() the innermost DW_TAG_inlined_subroutine, its
 * call site and the function it was inlined into (what addr2line -f -i
 * prints).  Strings belong to the Dwfl: they live until hm_dwarf__delete.
 */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include "symbols-priv.h"
#include "dwarf-priv.h"


static char *debuginfo_path;

/* The standard search, but never debuginfod (no network during a report). */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	if (urls && *urls)
		return -1;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

struct hm_dwarf *hm_dwarf__open(const char *path)
{
	struct hm_dwarf *d = calloc(1, sizeof(*d));
	int fd;

	if (!d)
		return NULL;
	d->dwfl = dwfl_begin(&offline_callbacks);
	if (!d->dwfl)
		goto fail;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	dwfl_report_begin(d->dwfl);
	d->mod = dwfl_report_offline(d->dwfl, "", path, fd);	/* takes fd on success */
	if (!d->mod) {
		close(fd);
		goto fail;
	}
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (!dwfl_module_getelf(d->mod, &d->bias))
		goto fail;
	return d;
fail:
	hm_dwarf__delete(d);
	errno = ENOENT;
	return NULL;
}

void hm_dwarf__delete(struct hm_dwarf *d)
{
	if (!d)
		return;
	if (d->dwfl)
		dwfl_end(d->dwfl);
	free(d);
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *n;

	n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	return n;
}

int hm_dwarf__srcline(struct hm_dwarf *d, u64 vaddr, struct hm_srcline *out)
{
	Dwarf_Addr addr = vaddr + d->bias, cubias;
	Dwfl_Line *line;
	Dwarf_Die *cudie, *scopes = NULL;
	int nscopes, lineno = 0;

	memset(out, 0, sizeof(*out));
	line = dwfl_module_getsrc(d->mod, addr);
	if (line) {
		const char *f = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);

		out->file = f;
		out->line = lineno;
	}
	cudie = dwfl_module_addrdie(d->mod, addr, &cubias);
	if (!cudie)
		return out->file ? 0 : -ENOENT;
	if (!out->file && !hm_dwarf__unit_holds(cudie, addr - cubias)) {
		/* libdwfl hands out the unit before a gap (crt1's _start) */
		out->no_unit = true;
		return -ENOENT;
	}
	if (!out->file) {	/* a CU without lines (crtstuff.c): its name, line 0, as addr2line */
		out->file = dwarf_diename(cudie);
		out->line = 0;
		out->no_row = true;
	}
	nscopes = dwarf_getscopes(cudie, addr - cubias, &scopes);
	for (int i = 0; i < nscopes; i++) {
		Dwarf_Attribute attr;
		Dwarf_Word w;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		out->inline_func = die_name(&scopes[i]);
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &w) == 0)
			out->call_line = (int)w;
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &w) == 0) {
			Dwarf_Files *files;
			size_t nfiles;

			if (dwarf_getsrcfiles(cudie, &files, &nfiles) == 0 && w < nfiles)
				out->call_file = dwarf_filesrc(files, w, NULL, NULL);
		}
		for (int j = i + 1; j < nscopes; j++) {
			int tag = dwarf_tag(&scopes[j]);

			if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
				out->caller = die_name(&scopes[j]);
				break;
			}
		}
		break;
	}
	free(scopes);
	return out->file || out->inline_func ? 0 : -ENOENT;
}
