// SPDX-License-Identifier: GPL-2.0-only
/* The one hash table (src/util/htab.h): against a plain reference, with key 0, deletes, growth. */
#include "tap.h"
#include "util/htab.h"

#define N 20000

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

int main(void)
{
	static uint64_t keys[N], ref[N];
	static bool live[N];
	struct hm_htab t = HM_HTAB_INIT;
	uint64_t k, v, *p;
	uint32_t it, n, bad;
	bool added;
	int i;

	CHECK("empty find", !hm_htab__find(&t, 7) && !hm_htab__find(&t, 0));
	it = 0;
	CHECK("empty iterate", !hm_htab__next(&t, &it, &k, &v));
	CHECK("empty del", !hm_htab__del(&t, 7));

	/* keys: 0, small, clustered (same low bits), random */
	for (i = 0; i < N; i++)
		keys[i] = i == 0 ? 0 : i < 100 ? (uint64_t)i : i < 5000 ? (uint64_t)i << 32 : rnd() | 1;
	bad = 0;
	for (i = 0; i < N; i++) {
		p = hm_htab__insert(&t, keys[i], &added);
		if (!p || !added || *p)
			bad++;
		else
			*p = ref[i] = keys[i] * 3 + 1;
		live[i] = true;
	}
	CHECK_EQ("insert fresh", bad, 0);
	CHECK_EQ("nr", hm_htab__nr(&t), N);
	CHECK("half full at most", (uint64_t)hm_htab__nr(&t) * 2 <= (uint64_t)t.mask + 1);
	p = hm_htab__insert(&t, keys[5], &added);
	CHECK("insert existing", p && !added && *p == ref[5]);
	CHECK("key 0 value", (p = hm_htab__find(&t, 0)) && *p == 1);

	/* delete every third key, then check every key */
	for (i = 0; i < N; i += 3) {
		if (!hm_htab__del(&t, keys[i]))
			bad++;
		live[i] = false;
	}
	CHECK_EQ("del present", bad, 0);
	CHECK("del absent", !hm_htab__del(&t, keys[0]) && !hm_htab__del(&t, keys[3]));
	for (i = 0, bad = 0; i < N; i++) {
		p = hm_htab__find(&t, keys[i]);
		if (live[i] ? !p || *p != ref[i] : p != NULL)
			bad++;
	}
	CHECK_EQ("find after del", bad, 0);
	CHECK_EQ("nr after del", hm_htab__nr(&t), N - (N + 2) / 3);

	/* iteration visits each live key once */
	for (it = 0, n = 0, bad = 0; hm_htab__next(&t, &it, &k, &v); n++)
		if (v != k * 3 + 1)
			bad++;
	CHECK_EQ("iterate count", n, hm_htab__nr(&t));
	CHECK_EQ("iterate values", bad, 0);

	/* re-adding after delete, key 0 included */
	CHECK("put 0", hm_htab__put(&t, 0, 42) == 0 && *hm_htab__find(&t, 0) == 42);
	CHECK("put ptr", hm_htab__put_ptr(&t, 99999, &t) == 0 && hm_htab__find_ptr(&t, 99999) == &t);

	hm_htab__clear(&t);
	CHECK("clear", hm_htab__nr(&t) == 0 && !hm_htab__find(&t, keys[1]) && !hm_htab__find(&t, 0));
	hm_htab__fini(&t);
	CHECK("reserve", hm_htab__reserve(&t, 1000) == 0 && t.mask + 1 >= 2002);
	n = t.mask;
	for (i = 1; i <= 1000; i++)
		hm_htab__put(&t, (uint64_t)i, (uint64_t)i);
	CHECK("reserve holds", t.mask == n && hm_htab__nr(&t) == 1000);
	hm_htab__fini(&t);
	hm_htab__fini(NULL);
	TAP_DONE();
}
