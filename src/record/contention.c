// SPDX-License-Identifier: GPL-2.0-only
/* Contention mode: tracepoint ids, field offsets and perf's TRACING_DATA blob. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <event-parse.h>
#include <tracefs.h>
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include "contention.h"

static const struct { const char *sys, *name, *f1, *f2; } tp_defs[HM_TP__MAX] = {
	[HM_TP_BEGIN] = { "lock", "contention_begin", "lock_addr", "flags" },
	[HM_TP_END]   = { "lock", "contention_end",   "lock_addr", "ret" },
	[HM_TP_FUTEX] = { "syscalls", "sys_enter_futex", "uaddr", "op" },
};

static void field_of(struct tep_event *ev, const char *name, struct hm_tp_field *f)
{
	struct tep_format_field *fld = tep_find_field(ev, name);

	f->offset = fld ? fld->offset : -1;
	f->size = fld ? fld->size : -1;
}

static char *slurp(const char *path, size_t *len);

static bool has_events(const char *dir)
{
	char path[300];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events/lock", dir);
	if (!stat(path, &st))
		return true;
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	return !stat(path, &st);
}

int hm_contention__init(struct hm_contention *c, bool futex_syscalls)
{
	static const char *const cands[2] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	const char *dir = NULL;
	struct tep_handle *tep;
	int i;

	memset(c, 0, sizeof(*c));
	/* tracefs_tracing_dir() caches a string LeakSanitizer reports; look ourselves */
	for (i = 0; i < 2 && !dir; i++)
		if (has_events(cands[i]))
			dir = cands[i];
	if (!dir && geteuid() == 0 &&
	    !mount("nodev", cands[0], "tracefs", 0, NULL) && has_events(cands[0]))
		dir = cands[0];
	if (!dir) {
		char path[300];
		struct stat st;

		snprintf(path, sizeof(path), "%s/events", cands[0]);
		if (stat(path, &st) && errno == EACCES) {
			hm_err("%s: permission denied: the lock tracepoints need root (or CAP_PERFMON with tracefs readable: 'chmod -R o+rX /sys/kernel/tracing' and kernel.perf_event_paranoid=-1); fix: run as root",
			       cands[0]);
			return -EACCES;
		}
		hm_err("tracefs is not mounted; fix: mount -t tracefs nodev /sys/kernel/tracing");
		return -ENOENT;
	}
	snprintf(c->tracing_dir, sizeof(c->tracing_dir), "%s", dir);
	/* parse just our formats: tracefs_local_events_system() also loads kallsyms (slow) */
	tep = tep_alloc();
	if (!tep)
		return -ENOMEM;
	c->nr_tps = futex_syscalls ? 3 : 2;
	for (i = 0; i < c->nr_tps; i++) {
		struct tep_event *ev = NULL;
		char path[512];
		size_t len;
		char *fmt;

		snprintf(path, sizeof(path), "%s/events/%s/%s/format", c->tracing_dir, tp_defs[i].sys,
			 tp_defs[i].name);
		fmt = slurp(path, &len);
		if (!fmt && errno == EACCES) {
			hm_err("%s: permission denied; fix: run as root (or 'chmod -R o+rX %s')", path,
			       c->tracing_dir);
			tep_free(tep);
			return -EACCES;
		}
		if (fmt && tep_parse_event(tep, fmt, len, tp_defs[i].sys) == TEP_ERRNO__SUCCESS)
			ev = tep_find_event_by_name(tep, tp_defs[i].sys, tp_defs[i].name);
		free(fmt);
		if (!ev) {
			hm_err("%s/events/%s/%s: no such tracepoint; fix: a kernel with %s (lock tracepoints exist since 5.19)",
			       c->tracing_dir, tp_defs[i].sys, tp_defs[i].name,
			       i == HM_TP_FUTEX ? "CONFIG_FTRACE_SYSCALLS" : "CONFIG_TRACEPOINTS");
			tep_free(tep);
			return -ENOENT;
		}
		c->tp[i].sys = tp_defs[i].sys;
		c->tp[i].name = tp_defs[i].name;
		c->tp[i].id = ev->id;
		field_of(ev, tp_defs[i].f1, &c->tp[i].f1);
		field_of(ev, tp_defs[i].f2, &c->tp[i].f2);
		if (c->tp[i].f1.offset < 0) {
			hm_err("%s:%s: no field '%s' in its format; fix: report the kernel version",
			       tp_defs[i].sys, tp_defs[i].name, tp_defs[i].f1);
			tep_free(tep);
			return -EINVAL;
		}
	}
	tep_free(tep);
	return 0;
}

/* ------------------------------------------------------------ blob */

struct blob {
	char	*buf;
	size_t	len, cap;
	int	err;
};

static void put(struct blob *b, const void *p, size_t n)
{
	if (b->err)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 65536;
		char *nb;

		while (cap < b->len + n)
			cap *= 2;
		nb = realloc(b->buf, cap);
		if (!nb) {
			b->err = -ENOMEM;
			return;
		}
		b->buf = nb;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

/* Whole tracefs file (stat size is 0 there); NULL with *len 0 when absent. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	*len = 0;
	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	*len = n;
	return buf;
}

/* record_file(): size in @hdr bytes (4 or 8), then the contents */
static void put_file(struct blob *b, const char *path, int hdr)
{
	size_t len;
	char *data = slurp(path, &len);
	u64 l8 = len;
	u32 l4 = (u32)len;

	if (hdr == 8)
		put(b, &l8, 8);
	else
		put(b, &l4, 4);
	if (data)
		put(b, data, len);
	free(data);
}

int hm_contention__tracing_data(const struct hm_contention *c, void **out, size_t *size)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct blob b = { 0 };
	char path[512];
	const char *systems[HM_TP__MAX];
	int nr_sys = 0, i, j;
	u32 u;
	u8 byte;

	put(&b, magic, sizeof(magic));
	put(&b, "0.6", 4);
	byte = 0;			/* little endian */
	put(&b, &byte, 1);
	byte = sizeof(long);
	put(&b, &byte, 1);
	u = (u32)sysconf(_SC_PAGESIZE);
	put(&b, &u, 4);
	put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", c->tracing_dir);
	put_file(&b, path, 8);
	put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", c->tracing_dir);
	put_file(&b, path, 8);
	u = 0;				/* no ftrace formats */
	put(&b, &u, 4);

	for (i = 0; i < c->nr_tps; i++) {
		for (j = 0; j < nr_sys; j++)
			if (!strcmp(systems[j], c->tp[i].sys))
				break;
		if (j == nr_sys)
			systems[nr_sys++] = c->tp[i].sys;
	}
	u = nr_sys;
	put(&b, &u, 4);
	for (j = 0; j < nr_sys; j++) {
		u32 count = 0;

		put(&b, systems[j], strlen(systems[j]) + 1);
		for (i = 0; i < c->nr_tps; i++)
			count += !strcmp(c->tp[i].sys, systems[j]);
		put(&b, &count, 4);
		for (i = 0; i < c->nr_tps; i++) {
			if (strcmp(c->tp[i].sys, systems[j]))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", c->tracing_dir,
				 c->tp[i].sys, c->tp[i].name);
			put_file(&b, path, 8);
		}
	}
	u = 0;				/* kallsyms: none (large; perf script does not need it here) */
	put(&b, &u, 4);
	snprintf(path, sizeof(path), "%s/printk_formats", c->tracing_dir);
	put_file(&b, path, 4);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", c->tracing_dir);
	put_file(&b, path, 8);
	if (b.err) {
		free(b.buf);
		return b.err;
	}
	*out = b.buf;
	*size = b.len;
	return 0;
}

