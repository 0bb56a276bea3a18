/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_SYMBOLS_DWARF_PRIV_H
#define HITMAP_SYMBOLS_DWARF_PRIV_H

/* The DWARF handle of one DSO, shared by dwarf.c and dwarf-inline.c. */
#include <stdbool.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

struct hm_dwarf {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;		/* Dwfl address = ELF vaddr + bias */
};

/* The length of @die's address range holding @pc (DWARF's addresses), 0 when none does. */
Dwarf_Addr hm_dwarf__range_len(Dwarf_Die *die, Dwarf_Addr pc);
static inline bool hm_dwarf__unit_holds(Dwarf_Die *cu, Dwarf_Addr pc)
{
	return hm_dwarf__range_len(cu, pc) > 0;
}

#endif
