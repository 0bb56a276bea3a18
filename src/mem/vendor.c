// SPDX-License-Identifier: GPL-2.0-only
/* Which vendor filled data_src: from the file's CPUID, else its ARCH. */
#include <string.h>
#include <strings.h>
#include <hitmap/mem.h>

enum hm_vendor hm_vendor__from_header(const struct hm_header *h)
{
	const char *c = h ? h->cpuid : NULL;
	const char *a = h ? h->arch : NULL;

	if (c && *c) {
		if (!strncmp(c, "GenuineIntel", 12))
			return HM_VENDOR_INTEL;
		if (!strncmp(c, "AuthenticAMD", 12) || !strncmp(c, "HygonGenuine", 12))
			return HM_VENDOR_AMD;
		/* arm64 CPUID is a MIDR: "0x00000000410fd0c0" */
		if (!strncasecmp(c, "0x", 2) && a &&
		    (!strcmp(a, "aarch64") || !strncmp(a, "arm", 3)))
			return HM_VENDOR_ARM;
	}
	if (a && *a) {
		if (!strcmp(a, "aarch64") || !strcmp(a, "arm64") || !strncmp(a, "arm", 3))
			return HM_VENDOR_ARM;
		if (!strncmp(a, "ppc", 3) || !strncmp(a, "powerpc", 7))
			return HM_VENDOR_POWER;
	}
	return HM_VENDOR_UNKNOWN;
}

const char *hm_vendor__name(enum hm_vendor v)
{
	switch (v) {
	case HM_VENDOR_INTEL:	return "intel";
	case HM_VENDOR_AMD:	return "amd";
	case HM_VENDOR_ARM:	return "arm";
	case HM_VENDOR_POWER:	return "power";
	default:		return "unknown";
	}
}
