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
 * A name neither reads goes to perf's OCaml demangler ("camlFoo__bar_12"
 * is "Foo.bar_12"), as in both versions.  Not done: perf's Java fallback
 * (names with a ')') and its Rust legacy-hash clean-up after __cxa_demangle.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "symbols-priv.h"

extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static int hexval(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

/* perf's ocaml_demangle_sym(): "caml" and a capital; "__" is ".", "$xx" a byte (the "_NNN" stamp stays). */
static char *ocaml(const char *name)
{
	size_t len = strlen(name), i = 4, j = 0;
	char *r;

	if (strncmp(name, "caml", 4) || !isupper((unsigned char)name[4]))
		return NULL;
	r = malloc(len + 1);
	if (!r)
		return NULL;
	while (i < len) {
		if (name[i] == '_' && name[i + 1] == '_') {
			r[j++] = '.';
			i += 2;
		} else if (name[i] == '$' && isxdigit((unsigned char)name[i + 1]) &&
			   isxdigit((unsigned char)name[i + 2])) {
			r[j++] = (char)((hexval(name[i + 1]) << 4) | hexval(name[i + 2]));
			i += 3;
		} else {
			r[j++] = name[i++];
		}
	}
	r[j] = '\0';
	return r;
}

char *hm_demangle(const char *name, enum hm_demangle style)
{
	char *r = NULL;
	int status = 0;

	if (!name || !*name || style == HM_DEMANGLE_NONE)
		return NULL;
	if (style == HM_DEMANGLE_NAMES)
		r = cplus_demangle(name, DMGL_NO_OPTS);
	else if (style == HM_DEMANGLE_FULL)
		r = __cxa_demangle(name, NULL, NULL, &status);
	return r ? r : ocaml(name);
}
