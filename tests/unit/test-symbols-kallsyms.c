// SPDX-License-Identifier: GPL-2.0-only
/*
 * kallsyms: a written table (aliases, filtered types, modules, gaps) looked
 * up at symbol starts, inside and between symbols; bad input; then the
 * running system's /proc/kallsyms (skipped when all addresses are 0), and
 * hm_symbols resolving kernel addresses from a file and from HM_META_KSYMS text.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hitmap/log.h>
#include <hitmap/symbols.h>
#include "tap.h"

static const char *text =
	"ffffffff81000000 t __pfx_x\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T foo\n"
	"ffffffff81000180 t bar\n"
	"ffffffff81000200 A abs_sym\n"
	"ffffffff81000210 U undef_sym\n"
	"ffffffff81000300 D data_var\n"
	"ffffffff81000400 b bss_var\n"
	"ffffffffc0001000 t mod_init\t[mymod]\n"
	"ffffffffc0001040 T mod_func\t[mymod]\n"
	"ffffffffc0003000 T other_func\t[other]\n";

#define A(x) (0xffffffff00000000ULL | (x))

static const char *nm(const struct hm_ksym *k)
{
	return k ? k->name : "(none)";
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void)
{
	struct hm_ksyms *k = hm_ksyms__parse(text, strlen(text));
	const struct hm_ksym *s;

	CHECK("kallsyms parse", k != NULL);
	if (!k)
		TAP_DONE();
	CHECK_EQ("kallsyms: A and U dropped, aliases kept", hm_ksyms__nr(k), 10);
	CHECK("kallsyms: not all zero", !hm_ksyms__all_zero(k));
	CHECK_STR("kallsyms start: of 3 aliases the last (perf 6.1)", nm(hm_ksyms__find(k, A(0x81000000))), "_stext");
	s = hm_ksyms__find(k, A(0x81000050));
	CHECK("kallsyms inside: _stext+0x50", s && !strcmp(s->name, "_stext") && A(0x81000050) - s->start == 0x50);
	CHECK_STR("kallsyms start: foo", nm(hm_ksyms__find(k, A(0x81000100))), "foo");
	CHECK_STR("kallsyms inside: last byte of foo", nm(hm_ksyms__find(k, A(0x8100017f))), "foo");
	CHECK_STR("kallsyms start: bar", nm(hm_ksyms__find(k, A(0x81000180))), "bar");
	CHECK_STR("kallsyms: filtered A symbol belongs to bar", nm(hm_ksyms__find(k, A(0x81000250))), "bar");
	CHECK_STR("kallsyms: data symbol", nm(hm_ksyms__find(k, A(0x81000310))), "data_var");
	s = hm_ksyms__find(k, A(0x81000400));
	CHECK("kallsyms: last kernel symbol ends at page + 4096",
	      s && !strcmp(s->name, "bss_var") && s->end == A(0x81002000));
	CHECK("kallsyms between: after the kernel's last symbol", hm_ksyms__find(k, A(0x81002000)) == NULL);
	CHECK("kallsyms between: gap before modules", hm_ksyms__find(k, A(0xbfffffff)) == NULL);
	CHECK("kallsyms before the first symbol", hm_ksyms__find(k, A(0x80ffffff)) == NULL);
	s = hm_ksyms__find(k, A(0xc0001000));
	CHECK("kallsyms module: symbol and module name", s && !strcmp(s->name, "mod_init") && s->module && !strcmp(s->module, "mymod"));
	CHECK_STR("kallsyms module: inside, up to the next module", nm(hm_ksyms__find(k, A(0xc0002fff))), "mod_func");
	CHECK_STR("kallsyms module: next module", nm(hm_ksyms__find(k, A(0xc0003000))), "other_func");
	CHECK("kallsyms: last symbol ends", hm_ksyms__find(k, A(0xc0004000)) == NULL &&
	      hm_ksyms__find(k, A(0xc0003fff)) != NULL);
	s = hm_ksyms__by_name(k, "_text");
	CHECK("kallsyms by name: an alias", s && s->start == A(0x81000000));
	s = hm_ksyms__by_name(k, "mod_func");
	CHECK("kallsyms by name: module symbol", s && s->start == A(0xc0001040) && !strcmp(s->module, "mymod"));
	CHECK("kallsyms by name: absent", hm_ksyms__by_name(k, "nope") == NULL);
	hm_ksyms__delete(k);

	/*
	 * Out of address order (the qsort path, not the in-order one): the
	 * same table as in order, aliases the last in the text; a name twice
	 * (two static functions) gives the lower address, the first in the
	 * table, as the binary search over sorted names did.
	 */
	{
		static const char *shuffled =
			"ffffffff81000180 t bar\n"
			"ffffffff81000000 T _text\n"
			"ffffffff81000300 t dup\n"
			"ffffffff81000100 T foo\n"
			"ffffffff81000000 T _stext\n"
			"ffffffff81000200 t dup\n";
		static const char *ordered =
			"ffffffff81000000 T _text\n"
			"ffffffff81000000 T _stext\n"
			"ffffffff81000100 T foo\n"
			"ffffffff81000180 t bar\n"
			"ffffffff81000200 t dup\n"
			"ffffffff81000300 t dup\n";
		struct hm_ksyms *a = hm_ksyms__parse(shuffled, strlen(shuffled));
		struct hm_ksyms *b = hm_ksyms__parse(ordered, strlen(ordered));
		bool same = a && b;

		for (u64 at = A(0x80ffff00); same && at < A(0x81002100); at += 0x40) {
			const struct hm_ksym *x = hm_ksyms__find(a, at), *y = hm_ksyms__find(b, at);

			same = (!x && !y) || (x && y && !strcmp(x->name, y->name) && x->start == y->start &&
					      x->end == y->end);
		}
		CHECK("kallsyms unsorted: every lookup as in order", same);
		CHECK_STR("kallsyms unsorted: of 2 aliases the last in the text", nm(hm_ksyms__find(a, A(0x81000000))),
			  "_stext");
		s = hm_ksyms__by_name(a, "dup");
		CHECK("kallsyms by name: a name twice gives the lower address (out of order)",
		      s && s->start == A(0x81000200));
		s = hm_ksyms__by_name(b, "dup");
		CHECK("kallsyms by name: a name twice gives the lower address (in order)",
		      s && s->start == A(0x81000200));
		CHECK("kallsyms by name: each of many names found", hm_ksyms__by_name(b, "foo") &&
		      hm_ksyms__by_name(b, "bar") && hm_ksyms__by_name(b, "_stext") && !hm_ksyms__by_name(b, "du"));
		hm_ksyms__delete(a);
		hm_ksyms__delete(b);
	}
	/*
	 * In order but for a short tail (a running kernel's kallsyms: its BPF
	 * programs last, below the modules): the tail sorted alone and merged,
	 * lookups as from the same table in order; an alias in the tail of a
	 * symbol in order is the last in the text, so it wins there as here.
	 */
	{
		char tailed[8192], ordered[8192];
		size_t lt = 0, lo = 0;
		struct hm_ksyms *a, *b;
		bool same;

		for (int i = 0; i < 60; i++) {
			if (i == 0)
				lo += snprintf(ordered + lo, sizeof(ordered) - lo, "ffffffff80fff000 T low\n");
			lt += snprintf(tailed + lt, sizeof(tailed) - lt, "%016llx T f%d\n",
				       (unsigned long long)A(0x81000000 + i * 0x100), i);
			lo += snprintf(ordered + lo, sizeof(ordered) - lo, "%016llx T f%d\n",
				       (unsigned long long)A(0x81000000 + i * 0x100), i);
			if (i == 5)
				lo += snprintf(ordered + lo, sizeof(ordered) - lo, "ffffffff81000500 T alias5\n");
			if (i == 8)
				lo += snprintf(ordered + lo, sizeof(ordered) - lo, "ffffffff81000880 t mid\n");
		}
		lt += snprintf(tailed + lt, sizeof(tailed) - lt,
			       "ffffffff81000880 t mid\nffffffff80fff000 T low\nffffffff81000500 T alias5\n");
		a = hm_ksyms__parse(tailed, lt);
		b = hm_ksyms__parse(ordered, lo);
		same = a && b && hm_ksyms__nr(a) == 63 && hm_ksyms__nr(b) == 63;
		for (u64 at = A(0x80ffef00); same && at < A(0x81005100); at += 0x40) {
			const struct hm_ksym *x = hm_ksyms__find(a, at), *y = hm_ksyms__find(b, at);

			same = (!x && !y) || (x && y && !strcmp(x->name, y->name) && x->start == y->start &&
					      x->end == y->end);
		}
		CHECK("kallsyms with a short unsorted tail: every lookup as in order", same);
		CHECK_STR("kallsyms tail: the alias last in the text wins", nm(hm_ksyms__find(a, A(0x81000500))), "alias5");
		CHECK_STR("kallsyms tail: below the first in order", nm(hm_ksyms__find(a, A(0x80fff010))), "low");
		CHECK_STR("kallsyms tail: between two in order", nm(hm_ksyms__find(a, A(0x81000890))), "mid");
		CHECK_STR("kallsyms tail: the one before it ends there", nm(hm_ksyms__find(a, A(0x8100087f))), "f8");
		hm_ksyms__delete(a);
		hm_ksyms__delete(b);
	}
	/*
	 * The 16-digit step, every byte at every place: a line parses as it
	 * does with a leading zero, which always takes the digit-by-digit
	 * parse (17 characters before the blank); the symbol is there for
	 * the 22 hex digits alone.
	 */
	{
		char line[40], zline[41];
		int bad = 0, fast = 0;

		hm_log__quiet(1);
		for (int i = 0; i < 16 && bad < 5; i++)
			for (int c = 0; c < 256 && bad < 5; c++) {
				struct hm_ksyms *x, *y;
				const struct hm_ksym *sx, *sy;
				bool ok;

				if (!i && (!c || c == ' ' || c == '\t' || c == '\n'))
					continue;	/* a blank first: the line's start moves */
				memcpy(line, "ffffffff81234567 T s\n", 21);
				line[i] = (char)c;
				zline[0] = '0';
				memcpy(zline + 1, line, 21);
				x = hm_ksyms__parse(line, 21);
				y = hm_ksyms__parse(zline, 22);
				sx = x ? hm_ksyms__by_name(x, "s") : NULL;
				sy = y ? hm_ksyms__by_name(y, "s") : NULL;
				ok = !x == !y && (!x || hm_ksyms__nr(x) == hm_ksyms__nr(y)) && !sx == !sy &&
				     (!sx || sx->start == sy->start);
				fast += sx && c < 128 && isxdigit(c);
				if (!ok && ++bad)
					FAILF("kallsyms 16-digit step", "byte 0x%02x at %d: %s / %s", c, i,
					      sx ? "parsed" : "not parsed", sy ? "parsed" : "not parsed");
				hm_ksyms__delete(x);
				hm_ksyms__delete(y);
			}
		hm_log__quiet(0);
		CHECK("kallsyms 16-digit step: every byte at every place as digit by digit", !bad);
		CHECK_EQ("kallsyms 16-digit step: the 22 hex digits at each of 16 places", fast, 16 * 22);
	}
	/* names of every length to 40, a control character anywhere in them, each separator after them */
	{
		static const char *const seps[] = { "\n", "\t[m]\n", " \n", "\r\n", "" };
		char line[128], name[48];
		int bad = 0;

		for (int len = 1; len <= 40 && bad < 3; len++)
			for (int ctl = -1; ctl < len && bad < 3; ctl++)
				for (int j = 0; j < 5 && bad < 3; j++) {
					struct hm_ksyms *x;
					const struct hm_ksym *sx;
					int n;

					memset(name, 'a' + len % 26, len);
					name[len] = '\0';
					if (ctl >= 0)
						name[ctl] = '\x01';
					n = snprintf(line, sizeof(line), "ffffffff81000000 T %s%s", name, seps[j]);
					x = hm_ksyms__parse(line, n);
					sx = x ? hm_ksyms__by_name(x, name) : NULL;
					if (!sx || sx->start != A(0x81000000) || (j == 1) != (sx->module != NULL) ||
					    (sx->module && strcmp(sx->module, "m"))) {
						bad++;
						FAILF("kallsyms names", "length %d, control at %d, separator %d: %s", len, ctl,
						      j, sx ? "wrong" : "not found");
					}
					hm_ksyms__delete(x);
				}
		CHECK("kallsyms names: every length, a control character anywhere, every separator", !bad);
	}
	/* more than 16 hex digits saturate (as strtoull did); leading zeros do not */
	k = hm_ksyms__parse("00000ffffffff81000000 T z\n1ffffffff81000000 T big\n", 50);
	CHECK("kallsyms: leading zeros", k && hm_ksyms__by_name(k, "z") &&
	      hm_ksyms__by_name(k, "z")->start == A(0x81000000));
	CHECK("kallsyms: 17 significant digits saturate", k && hm_ksyms__by_name(k, "big") &&
	      hm_ksyms__by_name(k, "big")->start == ~0ULL);
	hm_ksyms__delete(k);
	/*
	 * The 16-digit step's edges: a tab after the digits, upper case, a
	 * name ended by CR; 16 characters with a non-digit among them, or 16
	 * digits not followed by a blank, take the digit-by-digit parse and
	 * its verdict.
	 */
	k = hm_ksyms__parse("FFFFFFFF81000000\tT up\r\nffffffff81000100 T x\n", 45);
	CHECK("kallsyms: 16 upper-case digits and a tab",
	      k && hm_ksyms__by_name(k, "up") && hm_ksyms__by_name(k, "up")->start == A(0x81000000) &&
	      hm_ksyms__by_name(k, "x") && hm_ksyms__by_name(k, "x")->start == A(0x81000100));
	hm_ksyms__delete(k);
	k = hm_ksyms__parse("ffffffff8100000g T bad\n", 23);
	CHECK("kallsyms: a non-digit in 16 characters rejected", !k && errno == EINVAL);
	k = hm_ksyms__parse("ffffffff81000000T bad\n", 22);
	CHECK("kallsyms: 16 digits without a blank rejected", !k && errno == EINVAL);
	k = hm_ksyms__parse("ffffffff81000000", 16);
	CHECK("kallsyms: 16 digits and nothing else rejected", !k && errno == EINVAL);

	/* bad and degenerate input */
	k = hm_ksyms__parse("ffffffff81000000 T ok\nzzzz T foo\n", 33);
	CHECK("kallsyms bad: rejected with EINVAL", !k && errno == EINVAL);
	CHECK("kallsyms bad: message names the line", strstr(hm_log__last_error(), "line 2") != NULL);
	k = hm_ksyms__parse("ffffffff81000000 T\n", 19);
	CHECK("kallsyms bad: missing name rejected", !k && errno == EINVAL);
	k = hm_ksyms__parse("0000000000000000 T a\n0000000000000000 T b\n", 42);
	CHECK("kallsyms zero: all_zero and no lookups", k && hm_ksyms__all_zero(k) && !hm_ksyms__find(k, 0));
	hm_ksyms__delete(k);
	k = hm_ksyms__parse("", 0);
	CHECK("kallsyms empty text", k && hm_ksyms__nr(k) == 0 && !hm_ksyms__find(k, A(0x81000000)));
	hm_ksyms__delete(k);
	CHECK("kallsyms missing file", !hm_ksyms__load("/nonexistent/kallsyms") && errno == ENOENT);

	/* hm_symbols from a file and from embedded text */
	{
		char path[] = "/tmp/hitmap-ksyms.XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "w");
		struct hm_symbols *sy;
		struct hm_symbol_info info;

		fputs(text, f);
		fclose(f);
		sy = hm_symbols__new(&(struct hm_symbols_opts){ .kallsyms = path });
		CHECK("symbols kallsyms file: kernel address without maps",
		      !hm_symbols__resolve(sy, NULL, 0, PERF_RECORD_MISC_KERNEL, A(0x81000110), &info) &&
		      info.name && !strcmp(info.name, "foo") && info.offset == 0x10 &&
		      !strcmp(info.dso, "[kernel.kallsyms]") && !info.map);
		CHECK("symbols kallsyms file: module symbol dso",
		      !hm_symbols__resolve(sy, NULL, 0, PERF_RECORD_MISC_KERNEL, A(0xc0001044), &info) &&
		      !strcmp(info.name, "mod_func") && !strcmp(info.dso, "[mymod]"));
		CHECK("symbols kallsyms file: between symbols: dso, no name",
		      !hm_symbols__resolve(sy, NULL, 0, PERF_RECORD_MISC_KERNEL, A(0x81003000), &info) && !info.name);
		CHECK_EQ("symbols: user address without maps is -ENOENT",
			 hm_symbols__resolve(sy, NULL, 0, PERF_RECORD_MISC_USER, 0x400000, &info), -ENOENT);
		hm_symbols__delete(sy);
		unlink(path);
		sy = hm_symbols__new(&(struct hm_symbols_opts){ .ksyms_text = text, .ksyms_len = strlen(text) });
		CHECK("symbols HM_META_KSYMS text",
		      !hm_symbols__resolve(sy, NULL, 0, PERF_RECORD_MISC_KERNEL, A(0x81000181), &info) &&
		      info.name && !strcmp(info.name, "bar") && info.offset == 1);
		hm_symbols__delete(sy);
	}

	/*
	 * A stream with no size (a FIFO, as /proc/kallsyms) longer than the
	 * first 8 MiB buffer: read whole as it grows, every symbol kept.
	 */
	{
		char dir[] = "/tmp/hitmap-ksyms-fifo.XXXXXX", path[64];
		const size_t nr = 400000;	/* 27 bytes a line: 10.8 MB */
		pid_t pid = -1;

		if (mkdtemp(dir)) {
			snprintf(path, sizeof(path), "%s/kallsyms", dir);
			if (!mkfifo(path, 0600))
				pid = fork();
		}
		if (pid == 0) {
			FILE *f = fopen(path, "w");

			for (size_t i = 0; f && i < nr; i++)
				fprintf(f, "ffffffff8%07zx T f%07zu\n", i * 16, i);
			_exit(f && !fclose(f) ? 0 : 1);
		}
		if (pid > 0) {
			struct hm_ksyms *g = hm_ksyms__load(path);
			int st = 1;

			if (!g)
				kill(pid, SIGKILL);	/* a writer the load never opened blocks for ever */
			waitpid(pid, &st, 0);
			CHECK("kallsyms FIFO past the first buffer: every symbol", g && hm_ksyms__nr(g) == nr &&
			      WIFEXITED(st) && !WEXITSTATUS(st));
			s = g ? hm_ksyms__by_name(g, "f0399999") : NULL;
			CHECK("kallsyms FIFO: the last symbol by name and address",
			      s && s->start == A(0x80000000) + 16 * (nr - 1) &&
			      hm_ksyms__find(g, s->start + 4) == s);
			hm_ksyms__delete(g);
			unlink(path);
		} else {
			CHECK("kallsyms FIFO: made (mkdtemp, mkfifo, fork)", false);
		}
		rmdir(dir);
	}

	/* the running system: read once (bpf programs come and go), parse, check against the same text */
	{
		FILE *f = fopen("/proc/kallsyms", "r");
		size_t len = 0, cap = 1 << 20, checked = 0, bad = 0, n;
		char *buf = malloc(cap), *line, *save = NULL;
		double t0, t1;

		while (f && buf) {
			size_t r = fread(buf + len, 1, cap - len - 1, f);

			len += r;
			if (len + 1 < cap) {
				if (!r)
					break;
				continue;
			}
			cap *= 2;
			buf = realloc(buf, cap);
		}
		if (f)
			fclose(f);
		if (!f || !buf) {
			SKIP("kallsyms /proc", "cannot read /proc/kallsyms: %s", strerror(errno));
			free(buf);
			TAP_DONE();
		}
		buf[len] = '\0';
		t0 = now_ms();
		k = hm_ksyms__parse(buf, len);
		t1 = now_ms();
		if (!k) {
			FAILF("kallsyms /proc", "parse failed: %s", hm_log__last_error());
		} else if (hm_ksyms__all_zero(k)) {
			SKIP("kallsyms /proc", "all addresses are 0 (kptr_restrict, not root)");
		} else {
			n = hm_ksyms__nr(k);
			printf("# /proc/kallsyms: %zu symbols parsed in %.1f ms (%zu bytes)\n", n, t1 - t0, len);
			CHECK("kallsyms /proc: many symbols", n > 1000);
			CHECK("kallsyms /proc: _text found", hm_ksyms__by_name(k, "_text") != NULL);
			/* every kept symbol's start resolves to a symbol at that start */
			for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
				unsigned long long a;
				char t, name[256];

				if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3 || !strchr("TtDdBbWw", t))
					continue;
				s = hm_ksyms__find(k, a);
				checked++;
				if (!s || s->start != a)
					bad++;
			}
			CHECK("kallsyms /proc: every start finds its address", checked > 1000 && bad == 0);
			s = hm_ksyms__by_name(k, "schedule");
			if (s)
				CHECK("kallsyms /proc: inside schedule", hm_ksyms__find(k, s->start + 1) == hm_ksyms__find(k, s->start));
		}
		hm_ksyms__delete(k);
		free(buf);
	}
	TAP_DONE();
}
