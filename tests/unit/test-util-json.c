// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON emitter (src/util/json.c): doubles that read back exactly and
 * integers that stay integers; strings that are valid UTF-8 whatever the
 * bytes given (each byte that starts no valid sequence becomes U+FFFD).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/json.h>
#include "tap.h"

static char out[4096];

/* the text of one value written with @fn into a top-level array, brackets off */
static const char *one_double(double v)
{
	FILE *f = fmemopen(out, sizeof(out), "w");
	struct hm_json *j;
	size_t n;

	if (!f)
		return "";
	j = hm_json__new(f, false);
	hm_json__arr_begin(j, NULL);
	hm_json__double(j, NULL, v);
	hm_json__arr_end(j);
	hm_json__delete(j);
	fclose(f);
	/* "[...]\n" */
	n = strlen(out);
	if (n >= 3 && out[0] == '[' && out[n - 2] == ']') {
		memmove(out, out + 1, n - 3);
		out[n - 3] = '\0';
	}
	return out;
}

static const char *one_string(const char *s)
{
	FILE *f = fmemopen(out, sizeof(out), "w");

	if (!f)
		return "";
	hm_json__write_string(f, s);
	fclose(f);
	return out;
}

/* every byte of @s is in a well-formed UTF-8 sequence */
static bool valid_utf8(const unsigned char *s)
{
	while (*s) {
		int n = *s < 0x80 ? 1 : (*s & 0xe0) == 0xc0 ? 2 : (*s & 0xf0) == 0xe0 ? 3 :
			(*s & 0xf8) == 0xf0 ? 4 : 0;
		uint32_t cp;

		if (!n)
			return false;
		cp = n == 1 ? *s : *s & (0x7f >> n);
		for (int i = 1; i < n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		s += n;
	}
	return true;
}

int main(void)
{
	static const double rt[] = {
		0.1, 1.0 / 3, 2.0 / 3, 1e-7, 123456.789, 1327109.25, 5e-324, 1.7976931348623157e308,
		-2.5, 0.30000000000000004, 9007199254740993.0, 1e300, 4.35, 100.0 / 7,
	};
	char name[96];

	/* integral values within 2^53: integers, no exponent, no point */
	CHECK_STR("double 1327109", one_double(1327109), "1327109");
	CHECK_STR("double 0", one_double(0), "0");
	CHECK_STR("double -0", one_double(-0.0), "0");
	CHECK_STR("double -42", one_double(-42), "-42");
	CHECK_STR("double 2^53", one_double(9007199254740992.0), "9007199254740992");
	CHECK_STR("double 1e15", one_double(1e15), "1000000000000000");
	/* fractions: %.15g where it reads back, else %.17g */
	CHECK_STR("double 0.1", one_double(0.1), "0.1");
	CHECK_STR("double 1.5", one_double(1.5), "1.5");
	CHECK_STR("double 1327109.25", one_double(1327109.25), "1327109.25");
	CHECK_STR("double 1/3", one_double(1.0 / 3), "0.33333333333333331");
	CHECK_STR("double 0.1+0.2", one_double(0.1 + 0.2), "0.30000000000000004");
	/* non-finite values: JSON has none, null */
	CHECK_STR("double NaN", one_double(NAN), "null");
	CHECK_STR("double +inf", one_double(INFINITY), "null");
	CHECK_STR("double -inf", one_double(-INFINITY), "null");
	for (size_t i = 0; i < sizeof(rt) / sizeof(rt[0]); i++) {
		const char *t = one_double(rt[i]);

		snprintf(name, sizeof(name), "double %.17g reads back (%s)", rt[i], t);
		CHECK(name, strtod(t, NULL) == rt[i] && !strchr(t, ','));
	}

	/* strings: escapes, valid multi-byte sequences kept, invalid bytes replaced */
	CHECK_STR("string escapes", one_string("a\"b\\c\n\t\r\x01"), "\"a\\\"b\\\\c\\n\\t\\r\\u0001\"");
	CHECK_STR("string UTF-8 kept", one_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	CHECK_STR("string 0xff", one_string("/tmp/x\xff.data"), "\"/tmp/x\\ufffd.data\"");
	CHECK_STR("string lone continuation", one_string("a\x80z"), "\"a\\ufffdz\"");
	CHECK_STR("string truncated 3-byte", one_string("a\xe2\x82"), "\"a\\ufffd\\ufffd\"");
	CHECK_STR("string truncated at the end", one_string("\xf0\x9f\x98"), "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR("string overlong C0 80", one_string("\xc0\x80"), "\"\\ufffd\\ufffd\"");
	CHECK_STR("string overlong E0 80 80", one_string("\xe0\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR("string surrogate ED A0 80", one_string("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR("string past U+10FFFF", one_string("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR("string U+10FFFF kept", one_string("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");
	CHECK_STR("string F5", one_string("\xf5"), "\"\\ufffd\"");

	/* every byte value, alone and after a lead byte: the output is always valid UTF-8 */
	{
		bool ok = true;
		char in[4] = { 0 };

		for (int a = 1; a < 256 && ok; a++)
			for (int b = 0; b < 256 && ok; b++) {
				in[0] = (char)a;
				in[1] = (char)b;
				in[2] = (char)0x80;
				ok = valid_utf8((const unsigned char *)one_string(in));
			}
		CHECK("every two-byte prefix gives valid UTF-8", ok);
	}
	TAP_DONE();
}
