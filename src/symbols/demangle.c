// SPDX-License-Identifier: GPL-2.0-only
/*
 * C++ (and what the same demanglers read: Rust) names as each perf shows
 * them.  perf demangles every ELF symbol it reads and every PLT name
 * before "@plt" (demangle_sym(), symbol_conf.demangle on; kernel symbols
 * are not demangled).  Debian's perf 6.1 has no libbfd and calls
 * libiberty's cplus_demangle() without DMGL_PARAMS: "ns::f", and a name
 * with an "@@VERSION" tail loses the tail.  perf 6.12 and 7.3 call
 * abi::__cxa_demangle() (demangle-cxx.cpp): "ns::f(int) const", and a name
 * it cannot read (a version tail, Rust's v0 scheme) stays as it is.
 * Not done: perf's OCaml and Java fallbacks and its Rust legacy-hash
 * clean-up after __cxa_demangle.
 */
#include <stdlib.h>
#include <libiberty/demangle.h>
#include "symbols-priv.h"

extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *hm_demangle(const char *name, enum hm_demangle style)
{
	int status = 0;

	if (!name || !*name)
		return NULL;
	switch (style) {
	case HM_DEMANGLE_NAMES:
		return cplus_demangle(name, DMGL_NO_OPTS);
	case HM_DEMANGLE_FULL:
		return __cxa_demangle(name, NULL, NULL, &status);
	default:
		return NULL;
	}
}
