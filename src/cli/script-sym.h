/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_SCRIPT_SYM_H
#define HITMAP_CLI_SCRIPT_SYM_H

/*
 * hitmap script's ip, sym, symoff, dso and srcline fields and call chains,
 * printed as perf script's sample__fprintf_sym() and
 * sample__fprintf_callchain() print them: maps from the file's MMAP,
 * MMAP2, COMM, FORK and EXIT records (hm_maps), symbols from the symbols
 * library, looked up as perf script's thread__find_map() and
 * map__find_symbol() do (the sample's cpumode, no fallback to other maps;
 * a frame's cpumode from the chain's context markers), and the DSO named
 * as perf names it (map__new()'s "/tmp/perf-PID.map" for executable
 * anonymous memory, a module under the file's build-id name when the
 * header lists one).
 */
#include <stdbool.h>
#include <hitmap/mem.h>
#include <hitmap/perf_data.h>
#include "script-out.h"

/* What the ip field prints (perf's EVSEL__PRINT_*). */
enum {
	HM_SIP_IP	= 1 << 0,
	HM_SIP_SYM	= 1 << 1,
	HM_SIP_SYMOFF	= 1 << 2,
	HM_SIP_DSO	= 1 << 3,
	HM_SIP_SRCLINE	= 1 << 4,
};

struct hm_script_sym_opts {
	const char	*kallsyms, *symfs, *vmlinux;	/* as perf's --kallsyms, --symfs, -k */
	enum hm_perf_compat compat;
	bool		symbols;	/* names wanted (else maps only: perf 6.1's frame addresses) */
	bool		srcline;	/* source lines wanted (DWARF) */
	bool		inlines;	/* call chains add inlined frames (perf 7.3's default) */
};

struct hm_script_sym;

/* NULL with errno (ENOMEM). */
struct hm_script_sym *hm_script_sym__new(const struct hm_header *h,
					 const struct hm_script_sym_opts *o);
void hm_script_sym__delete(struct hm_script_sym *s);
/* Every record but samples, in the reader's order; 0 or -ENOMEM. */
int hm_script_sym__event(struct hm_script_sym *s, const struct hm_event *ev);
/*
 * Every sample before it prints: perf's machine__resolve() looks the
 * sample's ip up (loading the kernel map at its first hit) whatever
 * is printed.  0 or -ENOMEM.
 */
int hm_script_sym__sample(struct hm_script_sym *s, const struct hm_sample *sm);
/* The ip field of a sample without a call chain: "%16lx sym+0xoff (dso)". */
void hm_script_sym__print_ip(struct hm_script_sym *s, struct obuf *o,
			     const struct hm_sample *sm, unsigned opts);
/*
 * A call chain, a frame a line ("\t%16lx sym+0xoff (dso)\n"); @s may be
 * NULL (addresses alone, as they are in the samples).
 */
void hm_script_sym__print_chain(struct hm_script_sym *s, struct obuf *o,
				const struct hm_sample *sm, unsigned opts);
/* The symbol and DSO of a sample's data address (page faults): " sym+0xoff (dso)". */
void hm_script_sym__print_addr(struct hm_script_sym *s, struct obuf *o,
			       const struct hm_sample *sm, unsigned opts);
/*
 * The entries of @sm's call chain that perf script walks (context
 * markers among them), or 0 when it prints none.
 */
u64 hm_script_sym__chain_end(const struct hm_sample *sm);
/*
 * The symbol and DSO perf script names for @ip in @sm's thread with
 * @cpumode: *@sym NULL for "[unknown]", *@dso "[unknown]" without a map.
 */
void hm_script_sym__name(struct hm_script_sym *s, const struct hm_sample *sm, u8 cpumode,
			 u64 ip, const char **sym, u64 *off, const char **dso);

#endif
