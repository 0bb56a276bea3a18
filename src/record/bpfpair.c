// SPDX-License-Identifier: GPL-2.0-only
/* Loader for pair.bpf.c: futex address -> contended bucket lock, counted in the kernel. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <hitmap/log.h>
#include "record/bpfpair.h"
#include "util/bpf-log.h"

struct hm_bpfpair {
	struct bpf_object	*obj;
	struct bpf_link		*link;
	int			pairs_fd, stats_fd;
};

struct pkey {
	u64 uaddr, lock;
	u32 tgid, nr;
};

const char *hm_bpfpair__default_path(char *buf, size_t size)
{
	const char *e = getenv("HITMAP_RECORD_BPF");
	char exe[PATH_MAX];
	ssize_t n;

	if (e && *e)
		return e;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return "record-pair.bpf.o";
	exe[n] = 0;
	snprintf(buf, size, "%s/record-pair.bpf.o", dirname(exe));
	return buf;
}

struct hm_bpfpair *hm_bpfpair__new(const char *path, pid_t tgid)
{
	struct hm_bpfpair *p = calloc(1, sizeof(*p));
	struct bpf_program *prog;
	int cfg_fd, err;
	u32 zero = 0, cfg[2] = { (u32)tgid, 0 };

	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	hm_bpf_log__install();
	if (access(path, R_OK)) {
		err = -errno;
		hm_err("%s: no BPF object for --futex-bpf; fix: clang -O2 -g -target bpf -I/usr/include/$(uname -m)-linux-gnu -c src/record/pair.bpf.c -o %s (or set HITMAP_RECORD_BPF)",
		       path, path);
		goto fail;
	}
	p->obj = bpf_object__open_file(path, NULL);
	if (!p->obj) {
		err = -errno;
		hm_err("%s: not a BPF object (%s); fix: rebuild it from src/record/pair.bpf.c", path, strerror(-err));
		goto fail;
	}
	err = bpf_object__load(p->obj);
	if (err) {
		hm_err("%s: the kernel refused the BPF program (%s); fix: run as root on a kernel with BPF, BTF and bpf_task_pt_regs (5.15+), or use --futex-syscalls",
		       path, strerror(-err));
		goto fail;
	}
	cfg_fd = bpf_object__find_map_fd_by_name(p->obj, "cfg");
	p->pairs_fd = bpf_object__find_map_fd_by_name(p->obj, "pairs");
	p->stats_fd = bpf_object__find_map_fd_by_name(p->obj, "stats");
	prog = bpf_object__find_program_by_name(p->obj, "hm_on_contention_begin");
	if (cfg_fd < 0 || p->pairs_fd < 0 || p->stats_fd < 0 || !prog) {
		err = -ENOENT;
		hm_err("%s: maps or program missing; fix: rebuild it from src/record/pair.bpf.c", path);
		goto fail;
	}
	if (bpf_map_update_elem(cfg_fd, &zero, cfg, BPF_ANY)) {
		err = -errno;
		goto fail;
	}
	p->link = bpf_program__attach_tracepoint(prog, "lock", "contention_begin");
	if (!p->link) {
		err = -errno;
		hm_err("attaching BPF to lock:contention_begin: %s; fix: run as root", strerror(-err));
		goto fail;
	}
	return p;
fail:
	hm_bpfpair__delete(p);
	errno = -err;
	return NULL;
}

int hm_bpfpair__collect(struct hm_bpfpair *p, struct hm_bpf_pair **out, size_t *nr,
			u64 *seen, u64 *in_futex)
{
	struct pkey key, next, *prev = NULL;
	struct hm_bpf_pair *v = NULL;
	size_t n = 0, cap = 0;
	u32 i;

	*out = NULL;
	*nr = 0;
	for (i = 0; i < 2; i++) {
		u64 c = 0;

		bpf_map_lookup_elem(p->stats_fd, &i, &c);
		if (i == 0)
			*seen = c;
		else
			*in_futex = c;
	}
	while (!bpf_map_get_next_key(p->pairs_fd, prev, &next)) {
		u64 count = 0;

		if (!bpf_map_lookup_elem(p->pairs_fd, &next, &count)) {
			if (n == cap) {
				struct hm_bpf_pair *nv;

				cap = cap ? cap * 2 : 1024;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
			}
			v[n].uaddr = next.uaddr;
			v[n].lock = next.lock;
			v[n].tgid = next.tgid;
			v[n].nr = next.nr;
			v[n].count = count;
			n++;
		}
		key = next;
		prev = &key;
	}
	*out = v;
	*nr = n;
	return 0;
}

void hm_bpfpair__delete(struct hm_bpfpair *p)
{
	if (!p)
		return;
	bpf_link__destroy(p->link);
	bpf_object__close(p->obj);
	free(p);
}
