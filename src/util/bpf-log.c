// SPDX-License-Identifier: GPL-2.0-only
/* libbpf's print callback, once for every BPF user (see bpf-log.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <hitmap/log.h>
#include "util/bpf-log.h"

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[512];

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	buf[strcspn(buf, "\n")] = 0;
	hm_debug("libbpf: %s", buf);
	return 0;
}

void hm_bpf_log__install(void)
{
	libbpf_set_print(libbpf_log);
}
