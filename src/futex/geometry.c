// SPDX-License-Identifier: GPL-2.0-only
/*
 * Table geometry: --futex-table specs, table bases inferred from one
 * observed bucket address, the boot log line, and this machine's formula
 * (notes 2.1, 2.6, 5.1-5.4).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/utsname.h>
#include <hitmap/futex.h>
#include <hitmap/log.h>
#include <hitmap/topo.h>
#include "util/num.h"

static int parse_u64(const char *s, const char *end, int base, u64 *v)
{
	char buf[40];
	size_t n = end - s;

	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = 0;
	return hm_num__parse_u64(buf, base, UINT64_MAX, v) ? -EINVAL : 0;
}

int hm_futex_table__parse(const char *spec, struct hm_futex_table *t)
{
	const char *p[4], *s = spec;
	u64 who, addr, slots;
	int i;

	if (!spec || !t)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	p[0] = s;
	for (i = 1; i < 4; i++) {
		s = strchr(s, ':');
		if (!s)
			goto bad;
		p[i] = ++s;
	}
	if (strchr(s, ':'))
		goto bad;
	if (!strncmp(p[0], "global:", 7))
		t->kind = 0;
	else if (!strncmp(p[0], "private:", 8))
		t->kind = 1;
	else
		goto bad;
	if (parse_u64(p[1], p[2] - 1, 10, &who) || who > INT32_MAX ||
	    parse_u64(p[2], p[3] - 1, 16, &addr) ||
	    parse_u64(p[3], p[3] + strlen(p[3]), 0, &slots))
		goto bad;
	if (!slots || (slots & (slots - 1))) {
		hm_err("--futex-table %s: SLOTS %" PRIu64 " is not a power of two; give the table's bucket count", spec, slots);
		return -EINVAL;
	}
	if (!addr || (addr & 63)) {
		hm_err("--futex-table %s: ADDR must be the 64-byte aligned address of bucket 0", spec);
		return -EINVAL;
	}
	t->node = t->kind ? -1 : (s32)who;
	t->pid = t->kind ? (s32)who : -1;
	t->base = addr;
	t->slots = slots;
	snprintf(t->provenance, sizeof(t->provenance), "user");
	return 0;
bad:
	hm_err("--futex-table %s: expected global:NODE:ADDR:SLOTS or private:PID:ADDR:SLOTS (ADDR hex)", spec);
	return -EINVAL;
}

int hm_futex_table__format(const struct hm_futex_table *t, char *buf, size_t size)
{
	return snprintf(buf, size, "%s:%d:0x%" PRIx64 ":%" PRIu64, t->kind ? "private" : "global",
			t->kind ? t->pid : t->node, t->base, t->slots);
}

static u64 roundup_pow2(u64 v)
{
	u64 r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

int hm_futex_geometry__global_base(u64 bucket_addr, u64 slots, u32 bucket_size, u64 *base)
{
	u64 bytes;

	if (!slots || (slots & (slots - 1)) || !bucket_size)
		return -EINVAL;
	/* alloc_pages_exact_nid(order) keeps the order-aligned start of the block */
	bytes = roundup_pow2(slots * bucket_size);
	if (bytes < 4096)
		bytes = 4096;
	*base = bucket_addr & ~(bytes - 1);
	return 0;
}

int hm_futex_geometry__private_base(u64 bucket_addr, u64 slots, u32 bucket_size,
				    u32 queues_off, u64 *base)
{
	u64 bytes, fph;

	if (!slots || (slots & (slots - 1)) || !bucket_size)
		return -EINVAL;
	/*
	 * kvzalloc(struct_size(fph, queues, slots)): a kmalloc size class
	 * (power of two, aligned to its size) up to 8 KiB, then the page
	 * allocator (order aligned).  vmalloc fallbacks are only page aligned.
	 */
	bytes = roundup_pow2(queues_off + slots * bucket_size);
	fph = bucket_addr & ~(bytes - 1);
	if (bucket_addr < fph + queues_off)
		return -EINVAL;
	*base = fph + queues_off;
	return 0;
}

int hm_futex_geometry__parse_bootlog(const char *line, u64 *slots, u32 *nodes, bool *linear)
{
	const char *p = line ? strstr(line, "futex hash table entries: ") : NULL;
	unsigned long long n, bytes;
	unsigned int k;

	if (!p)
		return -ENOENT;
	p += strlen("futex hash table entries: ");
	if (sscanf(p, "%llu (%llu bytes on %u NUMA node", &n, &bytes, &k) == 3) {
		*nodes = k;			/* 6.16+: entries are per node */
	} else if (sscanf(p, "%llu (order", &n) == 1) {
		*nodes = 1;			/* alloc_large_system_hash: one table */
	} else {
		return -ENOENT;
	}
	if (!n || (n & (n - 1)))
		return -ENOENT;
	*slots = n;
	if (linear)
		*linear = strstr(p, "linear") && !strstr(p, "vmalloc");
	return 0;
}

/* Possible nodes as a mask (nodes < 64); 0 when unreadable */
static u64 node_mask(const char *path)
{
	char buf[4096], *s, *e;
	FILE *f = fopen(path, "r");
	u64 mask = 0;

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return 0;
	}
	fclose(f);
	for (s = buf; *s && *s != '\n'; s = *e == ',' ? e + 1 : e) {
		long a = strtol(s, &e, 10), b = a;

		if (e == s)
			break;
		if (*e == '-')
			b = strtol(e + 1, &e, 10);
		for (; a <= b && a < 64; a++)
			if (a >= 0)
				mask |= 1ull << a;
	}
	return mask;
}

int hm_futex_geometry__this_machine(struct hm_futex_model *m)
{
	struct hm_futex_layout l;
	struct hm_futex_fph_layout fl;
	struct hm_futex_mm_layout ml;
	struct hm_futex_kernel k;
	struct utsname u;
	int cpus, err, len;
	u64 nmask;
	char *log = NULL;

	if (uname(&u))
		return -errno;
	if (hm_futex_kernel__parse(u.release, &k)) {
		hm_err("uname: release '%s' is not a kernel version; pass --kernel VER", u.release);
		return -EINVAL;
	}
	err = hm_futex_model__init(m, k.era);
	if (err)
		return err;
	m->mm_seq = k.mm_seq;
	m->word_first = k.word_first;
	cpus = hm_cpulist__read("/sys/devices/system/cpu/possible", NULL, 0);
	nmask = node_mask("/sys/devices/system/node/possible");
	if (cpus <= 0)
		cpus = 1;
	hm_futex_model__set_machine_nodes(m, cpus, nmask ? nmask : 1);
	/* the boot log, when still in the ring buffer, wins over the formula */
	len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (len > 0 && (log = malloc(len + 1))) {
		int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, len);

		if (n > 0) {
			u64 slots;
			u32 bn;

			log[n] = 0;
			/* the boot line counts possible nodes; nr_nodes stays nr_node_ids */
			if (!hm_futex_geometry__parse_bootlog(log, &slots, &bn, NULL) &&
			    (!k.per_node || bn == (u32)__builtin_popcountll(nmask ? nmask : 1)))
				m->global_slots = slots;
		}
		free(log);
	}
	if (!hm_futex_layout__from_btf(NULL, &l))
		m->layout = l;
	if (!hm_futex_fph_layout__from_btf(NULL, &fl))
		m->fph = fl;
	if (!hm_futex_mm_layout__from_btf(NULL, &ml)) {
		m->mm = ml;
		/* the release does not tell: 6.18.44 builds exist with and without the mm-reuse fix */
		if (ml.unique_id >= 0)
			m->mm_seq = true;
	}
	return 0;
}
