// SPDX-License-Identifier: GPL-2.0-only
/* Kernel release -> futex hash era (shared/docs/notes/futex.md sections 1-2). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/futex.h>
#include "util/num.h"

static const char *const era_names[HM_FUTEX_ERA__MAX] = {
	[HM_FUTEX_ERA_PRE_6_16] = "pre-6.16",
	[HM_FUTEX_ERA_6_16]	= "6.16",
	[HM_FUTEX_ERA_6_17]	= "6.17",
	[HM_FUTEX_ERA_7]	= "7",
};

const char *hm_futex_era__name(enum hm_futex_era e)
{
	return (unsigned)e < HM_FUTEX_ERA__MAX ? era_names[e] : "unknown";
}

static int parse_num(const char **p, u32 *v)
{
	u64 n;

	if (hm_num__parse_prefix(p, 10, 100000, &n))
		return -EINVAL;
	*v = (u32)n;
	return 0;
}

int hm_futex_kernel__parse(const char *release, struct hm_futex_kernel *k)
{
	const char *p = release;
	bool rc = false;

	if (!release || !k)
		return -EINVAL;
	memset(k, 0, sizeof(*k));
	/* era names are accepted too: "pre-6.16" */
	if (!strcmp(release, "pre-6.16")) {
		k->major = 6; k->minor = 15;
		goto classify;
	}
	if (parse_num(&p, &k->major) || *p++ != '.' || parse_num(&p, &k->minor))
		return -EINVAL;
	if (*p == '.') {
		p++;
		if (parse_num(&p, &k->patch))
			return -EINVAL;
	}
	if (!strncmp(p, "-rc", 3))
		rc = true;
	else if (*p && *p != '-' && *p != '+' && *p != '.' && *p != '_' && *p != '~')
		return -EINVAL;
classify:
	if (k->major < 6 || (k->major == 6 && k->minor < 16)) {
		k->era = HM_FUTEX_ERA_PRE_6_16;
		/* "futex: Fix mm reuse handling for FUT_OFF_MMSHARED" in 6.12.115+ */
		k->mm_seq = k->major == 6 && k->minor == 12 && k->patch >= 115;
		/* key order before 8019ad13ef7f + 8d67743653dc (v5.6; stable spring 2020) */
		if (k->major == 5 && k->minor <= 3)
			k->word_first = true;
		else if (k->major == 4 && k->minor == 20)
			k->word_first = true;
		else if (k->major == 5 && k->minor == 4)
			k->word_first = k->patch < 28;
		else if (k->major == 5 && k->minor == 5)
			k->word_first = k->patch < 13;
		else if (k->major == 4 && k->minor == 14)
			k->word_first = k->patch < 175;
	} else if (k->major == 6 && k->minor == 16) {
		k->era = HM_FUTEX_ERA_6_16;
		k->per_node = true;
		/* 9a57c3773152 (v6.16-rc5) compiled the private hash out for 6.16 final */
		k->private_hash = rc;
	} else if (k->major == 6 || (k->major == 7 && k->minor < 2)) {
		/* 7.0, 7.1: the 6.17 hash; a734d9fca84e (no hb->priv) came in 7.2 */
		k->era = HM_FUTEX_ERA_6_17;
		k->per_node = true;
		k->private_hash = true;
	} else {
		k->era = HM_FUTEX_ERA_7;
		k->per_node = true;
		k->private_hash = true;
		k->mm_seq = true;
	}
	return 0;
}

enum hm_futex_era hm_futex_era__from_release(const char *release)
{
	struct hm_futex_kernel k;

	if (hm_futex_kernel__parse(release, &k))
		return HM_FUTEX_ERA__MAX;
	return k.era;
}
