// SPDX-License-Identifier: GPL-2.0-only
/*
 * C++ (and what the same demanglers read: Rust) names as each perf shows
 * them.  perf demangles every ELF symbol it reads and every PLT name
 * before "@plt" (demangle_sym(), symbol_conf.demangle on; kernel symbols
 * are not demangled).  Debian's perf 6.1 has no libbfd and calls
 * libiberty's cplus_demangle() without DMGL_PARAMS: "ns::f", and a name
 * with an "@@VERSION" tail loses the tail, and Rust's names (both schemes)
 * are read, a legacy hash that looks like one dropped.  perf 6.12 calls
 * abi::__cxa_demangle() (demangle-cxx.cpp): "ns::f(int) const", and a name
 * it cannot read (a version tail, Rust's v0 scheme) stays as it is; a Rust
 * legacy name keeps its hash ("core::fmt::write::h0123456789abcdef").
 * perf 7.3 reads Rust's names first, both schemes, and drops any legacy
 * hash of 16 hex digits (rustc-demangle's rule), then does as 6.12.
 * A name neither reads goes to perf's OCaml demangler ("camlFoo__bar_12"
 * is "Foo.bar_12"), then to its Java one, without the return type
 * ("Ljava/lang/String;equals(Ljava/lang/Object;)Z" is
 * "java.lang.String.equals(java.lang.Object)"), as in all three.
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

/* perf's Java output buffer: scnprintf's bound, 3 bytes a byte of input and one */
struct jbuf {
	char	*s;
	size_t	len, max;
};

static void jput(struct jbuf *b, const char *t)
{
	while (*t && b->len + 1 < b->max)
		b->s[b->len++] = *t++;
}

enum { J_PREFIX, J_CLASS, J_FUNC, J_TYPE, J_CTYPE };

static const char *java_base(char c)
{
	switch (c) {
	case 'B': return "byte";
	case 'C': return "char";
	case 'D': return "double";
	case 'F': return "float";
	case 'I': return "int";
	case 'J': return "long";
	case 'S': return "short";
	default:  return "boolean";	/* 'Z' */
	}
}

/*
 * perf's java_demangle_sym(JAVA_DEMANGLE_NORET): the name up to its last
 * ')' read as "Lpkg/Class;method(ARGS)": '/' and the ';' before the
 * method are '.', argument types spelled out; NULL where the form breaks.
 */
static char *java(const char *name)
{
	const char *end = strrchr(name, ')');
	struct jbuf b;
	int mode = J_PREFIX, narg = 0, array = 0;

	if (!end)
		return NULL;
	b.max = strlen(name) * 3 + 1;
	b.len = 0;
	b.s = malloc(b.max);
	if (!b.s)
		return NULL;
	for (const char *q = name; q <= end; q++) {
		if (b.len == b.max - 1)
			break;
		switch (*q) {
		case 'L':
			if (mode == J_PREFIX || mode == J_TYPE) {
				if (mode == J_TYPE && narg++)
					jput(&b, ", ");
				mode = mode == J_PREFIX ? J_CLASS : J_CTYPE;
				continue;
			}
			break;
		case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z':
			if (mode == J_TYPE) {
				if (narg++)
					jput(&b, ", ");
				jput(&b, java_base(*q));
				for (; array > 0; array--)
					jput(&b, "[]");
				continue;
			}
			break;
		case 'V':
			if (mode == J_TYPE) {
				jput(&b, "void");
				for (; array > 0; array--)
					jput(&b, "[]");
				continue;
			}
			break;
		case '[':
			if (mode != J_TYPE)
				goto bad;
			array++;
			continue;
		case '(':
			if (mode != J_FUNC)
				goto bad;
			mode = J_TYPE;
			break;
		case ')':
			if (mode != J_TYPE)
				goto bad;
			narg = 0;
			break;
		case ';':
			if (mode != J_CLASS && mode != J_CTYPE)
				goto bad;
			if (isalpha((unsigned char)q[1]) && mode == J_CLASS)
				jput(&b, ".");
			mode = mode == J_CLASS ? J_FUNC : J_TYPE;
			continue;
		case '/':
			if (mode != J_CLASS && mode != J_CTYPE)
				goto bad;
			jput(&b, ".");
			continue;
		default:
			break;
		}
		b.s[b.len++] = *q;	/* the character itself */
	}
	b.s[b.len] = '\0';
	return b.s;
bad:
	free(b.s);
	return NULL;
}

/*
 * Rust as perf 7.3 reads it (libiberty's reader, which is rustc-demangle's
 * but for the legacy hash: libiberty wants 5 distinct digits in it, rustc
 * any 16 hex digits, so such a hash is swapped for one it takes).
 */
static char *rust(const char *name)
{
	char *r = rust_demangle(name, DMGL_NO_OPTS), *copy;
	const char *h;

	if (r || strncmp(name, "_ZN", 3))
		return r;
	h = strstr(name, "17h");
	while (h && strstr(h + 1, "17h"))	/* the last one */
		h = strstr(h + 1, "17h");
	if (!h || strspn(h + 3, "0123456789abcdef") != 16 || h[19] != 'E')
		return NULL;
	copy = strdup(name);
	if (!copy)
		return NULL;
	memcpy(copy + (h - name) + 3, "0123456789abcdef", 16);
	r = rust_demangle(copy, DMGL_NO_OPTS);
	free(copy);
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
	if (style == HM_DEMANGLE_FULL_RUST)
		r = rust(name);
	if (!r && (style == HM_DEMANGLE_FULL || style == HM_DEMANGLE_FULL_RUST))
		r = __cxa_demangle(name, NULL, NULL, &status);
	if (!r)
		r = ocaml(name);
	return r ? r : java(name);
}
