// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap record: open the events (PMU memory sampling or lock contention
 * tracepoints), run a command or the built-in futex workload, drain the
 * per-CPU ring buffers into a file-mode perf.data with full header features,
 * and attribute contended futex buckets to their table and index.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hitmap/futex.h>
#include "futex-tables.h"
#include <hitmap/log.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include <hitmap/topo.h>
#include "record/bpfpair.h"
#include "record/buildid.h"
#include "record/contention.h"
#include "record/evsel.h"
#include "record/mmap.h"
#include "record/aux-rec.h"
#include "record/record.h"

#ifndef HITMAP_VERSION
#define HITMAP_VERSION "0.1"
#endif

#define MAX_EV		(HM_PLAN_MAX + 4)
#define DEFAULT_PAGES	512

/* ------------------------------------------------------------ small hash sets */

struct lockent {
	u64	addr;		/* 0: empty */
	u64	count;		/* contention_begin events */
	u64	wl_count;	/* of those, from the workload process */
	u64	wait_ns;
	u64	sock[HM_REC_MAX_SOCK];	/* workload events per socket of the CPU */
};

struct pairent {
	u64	uaddr, hb;	/* uaddr 0: empty */
};

struct tident {
	u32	tid;		/* 0: empty */
	u64	begin_time;
	u64	uaddr;		/* last sys_enter_futex uaddr */
};

#define DEFINE_SET(name, type, keyexpr, hashexpr, eqexpr)					\
struct name { type *e; size_t cap, nr; };					\
static type *name##__find(struct name *s, type *key, bool add)			\
{										\
	size_t i;								\
	if (add && (s->nr + 1) * 2 > s->cap) {					\
		struct name n = { NULL, s->cap ? s->cap * 2 : 1024, 0 };	\
		n.e = calloc(n.cap, sizeof(type));				\
		if (!n.e)							\
			return NULL;						\
		for (i = 0; i < s->cap; i++) {					\
			type *a = &s->e[i], *b;					\
			if (!(a->keyexpr))					\
				continue;					\
			b = name##__find(&n, a, false);				\
			*b = *a;						\
			n.nr++;							\
		}								\
		free(s->e);							\
		*s = n;								\
	}									\
	if (!s->cap)								\
		return NULL;							\
	i = (size_t)(((u64)(hashexpr) * 0x9e3779b97f4a7c15ULL) >> 20) & (s->cap - 1); \
	for (;; i = (i + 1) & (s->cap - 1)) {					\
		type *a = &s->e[i];						\
		if (!(a->keyexpr)) {						\
			if (!add)						\
				return a;					\
			*a = *key;						\
			s->nr++;						\
			return a;						\
		}								\
		if (eqexpr)							\
			return a;						\
	}									\
}

DEFINE_SET(lockset, struct lockent, addr, key->addr, a->addr == key->addr)
DEFINE_SET(pairset, struct pairent, uaddr, key->uaddr ^ (key->hb << 7), a->uaddr == key->uaddr && a->hb == key->hb)
DEFINE_SET(tidset, struct tident, tid, key->tid, a->tid == key->tid)

/* ------------------------------------------------------------ session */

struct wl_shared {
	int	done;
	int	pid;
	long	slots;
	double	avg, rel_stddev, cpu_secs;
	u64	total_ops;
	int	nr_threads, futexes;
	u64	base[];		/* futex[0] of each thread */
};

struct session {
	const struct hm_record_opts *o;
	struct hm_record_result *res;
	struct hm_writer	*w;
	struct hm_pevsel	ev[MAX_EV];
	int			nr_ev;
	int			ev_begin, ev_end, ev_futex;	/* -1 when absent */
	int			*cpus, nr_cpus;
	struct hm_ring		*ring;
	struct hm_contention	ct;
	pid_t			child;
	int			go_fd;
	bool			child_done;
	struct wl_shared	*wl;
	size_t			wl_len;
	struct hm_futex_hash	*fh;
	struct lockset		locks;
	struct pairset		pairs;
	struct tidset		tids;
	u64			time_first, time_last;
	bool			wrote_since_round;
	int			*cpu_sock;	/* CPU -> socket, [8192] */
	struct hm_bpfpair	*bpf;
	struct hm_bpf_pair	*bpf_pairs;
	size_t			nr_bpf_pairs;
	char			**dsos;		/* mapped executable files, for BUILD_ID */
	int			nr_dsos, cap_dsos;
	struct hm_rec_futex	*ftab;		/* live futex table discovery (futex-tables.c) */
	struct hm_rec_aux	*aux;		/* Arm SPE AUX areas (aux-rec.c) */
};

#define MAX_DSOS 1024

static void add_dso(struct session *s, const char *name)
{
	int i;

	if (name[0] != '/' || s->nr_dsos >= MAX_DSOS)
		return;
	for (i = 0; i < s->nr_dsos; i++)
		if (!strcmp(s->dsos[i], name))
			return;
	if (s->nr_dsos == s->cap_dsos) {
		int cap = s->cap_dsos ? s->cap_dsos * 2 : 64;
		char **n = realloc(s->dsos, cap * sizeof(*n));

		if (!n)
			return;
		s->dsos = n;
		s->cap_dsos = cap;
	}
	s->dsos[s->nr_dsos] = strdup(name);
	if (s->dsos[s->nr_dsos])
		s->nr_dsos++;
}

static volatile sig_atomic_t child_stop;

static void child_on_signal(int sig)
{
	child_stop = 1;
}

const char *hm_rec_mode__name(enum hm_rec_mode m)
{
	static const char *const n[] = { "auto", "pebs", "ibs", "spe", "contention" };

	return m <= HM_MODE_CONTENTION ? n[m] : "?";
}

int hm_rec_mode__parse(const char *s, enum hm_rec_mode *m)
{
	int i;

	for (i = HM_MODE_AUTO; i <= HM_MODE_CONTENTION; i++)
		if (!strcmp(s, hm_rec_mode__name(i))) {
			*m = i;
			return 0;
		}
	return -EINVAL;
}

static int online_cpus(int **cpus)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int n = 0, max = 8192;

	*cpus = calloc(max, sizeof(int));
	if (!*cpus)
		return -ENOMEM;
	if (f && fgets(buf, sizeof(buf), f))
		n = hm_cpulist__parse(buf, *cpus, max);
	if (f)
		fclose(f);
	if (n <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		for (n = 0; n < c && n < max; n++)
			(*cpus)[n] = n;
	}
	return n;
}

/* ------------------------------------------------------------ record parsing */

/* Offsets of the fields of a sample for the sample_types this file uses. */
struct sample_view {
	u64	id;
	u32	pid, tid, cpu;
	u64	time;
	u32	raw_size;
	const u8 *raw;
	bool	ok;
};

static void parse_sample(u64 st, const struct perf_event_header *h, struct sample_view *v)
{
	const u64 *p = (const u64 *)(h + 1), *end = (const u64 *)((const u8 *)h + h->size);

	memset(v, 0, sizeof(*v));
#define NEXT() (p < end ? *p++ : 0)
	if (st & PERF_SAMPLE_IDENTIFIER)
		v->id = NEXT();
	if (st & PERF_SAMPLE_IP)
		(void)NEXT();
	if (st & PERF_SAMPLE_TID) {
		u64 x = NEXT();

		v->pid = (u32)x;
		v->tid = (u32)(x >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		v->time = NEXT();
	if (st & PERF_SAMPLE_ADDR)
		(void)NEXT();
	if (st & PERF_SAMPLE_ID)
		v->id = NEXT();
	if (st & PERF_SAMPLE_STREAM_ID)
		(void)NEXT();
	if (st & PERF_SAMPLE_CPU)
		v->cpu = (u32)NEXT();
	if (st & PERF_SAMPLE_PERIOD)
		(void)NEXT();
	if (st & PERF_SAMPLE_CALLCHAIN) {
		u64 nr = NEXT();

		p = nr <= (u64)(end - p) ? p + nr : end + 1;
	}
	if (st & PERF_SAMPLE_RAW) {
		if ((const u8 *)p + 4 <= (const u8 *)end) {
			v->raw_size = *(const u32 *)p;
			v->raw = (const u8 *)p + 4;
			if (v->raw + v->raw_size > (const u8 *)end)
				v->raw_size = 0;
		}
	}
#undef NEXT
	v->ok = p <= end;
}

static int evsel_of_id(const struct session *s, u64 id)
{
	int i, c;

	for (i = 0; i < s->nr_ev; i++)
		for (c = 0; c < s->ev[i].nr_cpus; c++)
			if (s->ev[i].id[c] == id)
				return i;
	return -1;
}

static u64 raw_field(const struct sample_view *v, const struct hm_tp_field *f)
{
	u64 x = 0;

	if (f->offset < 0 || !v->raw || f->offset + f->size > (int)v->raw_size)
		return 0;
	if (f->size == 8)
		memcpy(&x, v->raw + f->offset, 8);
	else if (f->size == 4) {
		u32 y;

		memcpy(&y, v->raw + f->offset, 4);
		x = y;
	}
	return x;
}

static void account(struct session *s, const struct perf_event_header *h)
{
	struct sample_view v;
	struct tident tk = { 0 }, *t;
	int idx;

	if (h->type != PERF_RECORD_SAMPLE)
		return;
	s->res->nr_samples++;
	/* every evsel of a contention session has IDENTIFIER first */
	parse_sample(s->ev[0].attr.sample_type, h, &v);
	if (!v.ok)
		return;
	if (v.time) {
		if (!s->time_first || v.time < s->time_first)
			s->time_first = v.time;
		if (v.time > s->time_last)
			s->time_last = v.time;
	}
	if (s->ev_begin < 0)
		return;
	idx = evsel_of_id(s, v.id);
	if (idx < 0)
		return;
	/* contention_begin alone carries a call chain: its own layout */
	if (s->ev[idx].attr.sample_type != s->ev[0].attr.sample_type) {
		parse_sample(s->ev[idx].attr.sample_type, h, &v);
		if (!v.ok)
			return;
	}
	tk.tid = v.tid ? v.tid : 0xffffffff;
	if (idx == s->ev_begin) {
		struct lockent lk = { 0 }, *l;

		s->res->nr_begin++;
		lk.addr = raw_field(&v, &s->ct.tp[HM_TP_BEGIN].f1);
		if (!lk.addr)
			return;
		l = lockset__find(&s->locks, &lk, true);
		if (!l)
			return;
		l->count++;
		if (s->child > 0 && (pid_t)v.pid == s->child) {
			int sock = v.cpu < 8192 && s->cpu_sock ? s->cpu_sock[v.cpu] : 0;

			l->wl_count++;
			if (sock < 0)
				sock = 0;
			l->sock[sock < HM_REC_MAX_SOCK ? sock : HM_REC_MAX_SOCK - 1]++;
		}
		t = tidset__find(&s->tids, &tk, true);
		if (t) {
			t->begin_time = v.time;
			if (t->uaddr) {
				struct pairent pk = { t->uaddr, lk.addr };

				pairset__find(&s->pairs, &pk, true);
				t->uaddr = 0;
			}
		}
	} else if (idx == s->ev_end) {
		struct lockent lk = { 0 }, *l;

		s->res->nr_end++;
		t = tidset__find(&s->tids, &tk, false);
		if (!t || !t->tid || !t->begin_time)
			return;
		lk.addr = raw_field(&v, &s->ct.tp[HM_TP_END].f1);
		l = lockset__find(&s->locks, &lk, false);
		if (l && l->addr && v.time > t->begin_time)
			l->wait_ns += v.time - t->begin_time;
		t->begin_time = 0;
	} else if (idx == s->ev_futex) {
		s->res->nr_futex_sys++;
		t = tidset__find(&s->tids, &tk, true);
		if (t)
			t->uaddr = raw_field(&v, &s->ct.tp[HM_TP_FUTEX].f1);
	}
}

static int on_record(void *ctx, const struct perf_event_header *h, size_t size)
{
	struct session *s = ctx;

	if (h->type == PERF_RECORD_MMAP2 && size > 72 &&
	    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER &&
	    !(h->misc & PERF_RECORD_MISC_MMAP_DATA)) {
		char name[4096];
		size_t n = size - 72 < sizeof(name) - 1 ? size - 72 : sizeof(name) - 1;

		memcpy(name, (const char *)h + 72, n);
		name[n] = 0;
		add_dso(s, name);
	}
	account(s, h);
	hm_rec_aux__record(s->aux, h, size);
	s->wrote_since_round = true;
	return hm_writer__write(s->w, h, size);
}

static int drain_all(struct session *s)
{
	int i;

	for (i = 0; i < s->nr_cpus; i++) {
		long n;

		if (!s->ring[i].base)
			continue;
		n = hm_ring__drain(&s->ring[i], on_record, s);

		if (n < 0)
			return (int)n;
	}
	if (s->aux) {
		/* after the data rings, as perf: their AUX records announce it */
		long n = hm_rec_aux__drain(s->aux, s->w);

		if (n < 0)
			return (int)n;
		if (n)
			s->wrote_since_round = true;
	}
	if (s->wrote_since_round) {
		int err;

		s->wrote_since_round = false;
		err = hm_writer__write_finished_round(s->w);
		/* the header now covers this round: readable if we die from here */
		return err ? err : hm_writer__sync(s->w);
	}
	return 0;
}

/* ------------------------------------------------------------ synthesis from /proc */

static int synth_maps(struct session *s, pid_t pid, bool data_maps)
{
	char path[64], line[4096];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;	/* gone */
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;
		char perms[8], dev[16], name[4096] = "";
		unsigned long ino;
		u32 prot = 0, flags;
		u16 misc = PERF_RECORD_MISC_USER;
		int n = sscanf(line, "%llx-%llx %7s %llx %15s %lu %4095[^\n]",
			       &start, &end, perms, &pgoff, dev, &ino, name);
		char *nm = name;

		if (n < 6)
			continue;
		while (*nm == ' ')
			nm++;
		if (perms[2] != 'x') {
			if (!data_maps)
				continue;
			misc |= PERF_RECORD_MISC_MMAP_DATA;
		} else {
			add_dso(s, nm);
		}
		if (!*nm)
			nm = "//anon";
		if (perms[0] == 'r')
			prot |= PROT_READ;
		if (perms[1] == 'w')
			prot |= PROT_WRITE;
		if (perms[2] == 'x')
			prot |= PROT_EXEC;
		flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		if (hm_writer__write_mmap2(s->w, pid, pid, start, end - start, pgoff, prot,
					   flags, nm, misc) < 0)
			break;
	}
	fclose(f);
	return 0;
}

/* The kernel map perf synthesizes: [kernel.kallsyms]_text from _text to the end. */
static void synth_kernel(struct session *s)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	unsigned long long start = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 && !strcmp(name, "_text")) {
			start = a;
			break;
		}
	}
	fclose(f);
	if (start)
		hm_writer__write_mmap2(s->w, (u32)-1, 0, start, ~0ULL - start, start,
				       PROT_READ | PROT_EXEC, MAP_PRIVATE, "[kernel.kallsyms]_text",
				       PERF_RECORD_MISC_KERNEL);
}

static void read_comm(const char *path, char *comm, size_t n)
{
	FILE *f = fopen(path, "r");

	comm[0] = 0;
	if (f) {
		if (fgets(comm, n, f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	if (!comm[0])
		snprintf(comm, n, ":unknown");
}

static void synth_task(struct session *s, pid_t pid, bool data_maps)
{
	char path[96], comm[64];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int tid = atoi(de->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
		read_comm(path, comm, sizeof(comm));
		hm_writer__write_comm(s->w, pid, tid, comm);
	}
	closedir(d);
	synth_maps(s, pid, data_maps);
}

static void synth_all(struct session *s, bool data_maps)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		int pid = atoi(de->d_name);

		if (pid > 0 && isdigit((unsigned char)de->d_name[0]))
			synth_task(s, pid, data_maps);
	}
	closedir(d);
}

/* ------------------------------------------------------------ header */

static char *cpuinfo_field(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	size_t kl = strlen(key);
	char *res = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *c;

		if (strncmp(line, key, kl) || !(c = strchr(line, ':')))
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		c[strcspn(c, "\n")] = 0;
		res = strdup(c);
		break;
	}
	fclose(f);
	return res;
}

/* PMU_MAPPINGS: every /sys/bus/event_source/devices/NAME/type */
static void fill_pmu_mappings(struct hm_header *h)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	int cap = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[512];
		FILE *f;
		unsigned int type;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%u", &type) == 1) {
			if ((int)h->nr_pmu_mappings == cap) {
				u32 *t;
				char **n;

				cap = cap ? cap * 2 : 16;
				t = realloc(h->pmu_types, cap * sizeof(*t));
				if (t)
					h->pmu_types = t;
				n = realloc(h->pmu_names, cap * sizeof(*n));
				if (n)
					h->pmu_names = n;
				if (!t || !n) {
					fclose(f);
					break;
				}
			}
			h->pmu_types[h->nr_pmu_mappings] = type;
			h->pmu_names[h->nr_pmu_mappings] = strdup(de->d_name);
			if (h->pmu_names[h->nr_pmu_mappings])
				h->nr_pmu_mappings++;
		}
		fclose(f);
	}
	closedir(d);
}

static char *read_line(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return strdup(buf);
}

/* CACHE: each distinct {level, type, shared_cpu_list} over the CPUs, as perf */
static void fill_caches(struct hm_header *h, int nr_cpus)
{
	int cpu, idx;

	for (cpu = 0; cpu < nr_cpus && cpu < 8192; cpu++) {
		for (idx = 0; idx < 16; idx++) {
			char base[160], path[224];
			struct hm_cache_level c, *nc;
			char *lv, *ls, *sets, *ways;
			u32 i;
			bool dup = false;

			snprintf(base, sizeof(base), "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu, idx);
			snprintf(path, sizeof(path), "%s/level", base);
			lv = read_line(path);
			if (!lv)
				break;
			memset(&c, 0, sizeof(c));
			c.level = atoi(lv);
			free(lv);
			snprintf(path, sizeof(path), "%s/coherency_line_size", base);
			ls = read_line(path);
			snprintf(path, sizeof(path), "%s/number_of_sets", base);
			sets = read_line(path);
			snprintf(path, sizeof(path), "%s/ways_of_associativity", base);
			ways = read_line(path);
			c.line_size = ls ? atoi(ls) : 0;
			c.sets = sets ? atoi(sets) : 0;
			c.ways = ways ? atoi(ways) : 0;
			free(ls);
			free(sets);
			free(ways);
			snprintf(path, sizeof(path), "%s/type", base);
			c.type = read_line(path);
			snprintf(path, sizeof(path), "%s/size", base);
			c.size = read_line(path);
			snprintf(path, sizeof(path), "%s/shared_cpu_list", base);
			c.map = read_line(path);
			if (!c.type || !c.size || !c.map)
				dup = true;
			for (i = 0; !dup && i < h->nr_caches; i++)
				dup = h->caches[i].level == c.level && !strcmp(h->caches[i].type, c.type) &&
				      !strcmp(h->caches[i].map, c.map);
			nc = dup ? NULL : realloc(h->caches, (h->nr_caches + 1) * sizeof(*nc));
			if (!nc) {
				free(c.type);
				free(c.size);
				free(c.map);
				continue;
			}
			h->caches = nc;
			h->caches[h->nr_caches++] = c;
		}
	}
}

static void fill_build_ids(struct session *s, struct hm_header *h)
{
	struct hm_build_id *b = calloc(s->nr_dsos + 1, sizeof(*b));
	int i;

	if (!b)
		return;
	h->build_ids = b;
	if (!hm_buildid__read_kernel(b->id, &b->size)) {
		b->pid = -1;
		b->misc = PERF_RECORD_MISC_KERNEL;
		b->filename = strdup("[kernel.kallsyms]");
		if (b->filename) {
			h->nr_build_ids++;
			b++;
		}
	}
	for (i = 0; i < s->nr_dsos; i++) {
		if (hm_buildid__read_file(s->dsos[i], b->id, &b->size))
			continue;
		b->pid = -1;
		b->misc = PERF_RECORD_MISC_USER;
		b->filename = strdup(s->dsos[i]);
		if (b->filename) {
			h->nr_build_ids++;
			b++;
		}
	}
}

static void fill_header(struct session *s, struct hm_header *h, struct hm_meta *meta)
{
	struct utsname u;
	struct sysinfo si;
	struct hm_topo *t = hm_topo__new_live(NULL);
	char *vendor = cpuinfo_field("vendor_id"), *fam = cpuinfo_field("cpu family"),
	     *model = cpuinfo_field("model\t"), *step = cpuinfo_field("stepping");
	char buf[256];
	void *mbuf = NULL;
	u64 msize = 0;

	if (t) {
		if (hm_topo__fill_header(t, h) < 0)
			hm_warn("topology features incomplete: %s", hm_log__last_error());
		hm_topo__delete(t);
	}
	if (!h->nr_cpus_avail) {
		h->nr_cpus_avail = get_nprocs_conf();
		h->nr_cpus_online = get_nprocs();
	}
	if (!uname(&u)) {
		h->hostname = strdup(u.nodename);
		h->osrelease = strdup(u.release);
		h->arch = strdup(u.machine);
	}
	h->version = strdup("hitmap-" HITMAP_VERSION);
	h->cpudesc = cpuinfo_field("model name");
	if (vendor && fam && model && step) {
		snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor, fam, model, step);
		h->cpuid = strdup(buf);
	}
	free(vendor);
	free(fam);
	free(model);
	free(step);
	if (!sysinfo(&si))
		h->total_mem_kb = (u64)si.totalram * si.mem_unit / 1024;
	if (s->o->argc_cmdline > 0) {
		int i;

		h->cmdline_argc = s->o->argc_cmdline;
		h->cmdline_argv = calloc(h->cmdline_argc, sizeof(char *));
		for (i = 0; h->cmdline_argv && i < s->o->argc_cmdline; i++)
			h->cmdline_argv[i] = strdup(s->o->argv_cmdline[i]);
		if (!h->cmdline_argv)
			h->cmdline_argc = 0;
	}
	fill_pmu_mappings(h);
	fill_caches(h, h->nr_cpus_avail);
	fill_build_ids(s, h);
	h->sample_time_first = s->time_first;
	h->sample_time_last = s->time_last;
	if (meta && !hm_meta__serialize(meta, &mbuf, &msize)) {
		h->hitmap_meta = mbuf;
		h->hitmap_meta_size = msize;
	}
}

/* ------------------------------------------------------------ futex attribution */

static int bucket_cmp(const void *a, const void *b)
{
	const struct hm_record_bucket *x = a, *y = b;

	if (x->events != y->events)
		return x->events < y->events ? 1 : -1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void hm_record_result__release(struct hm_record_result *r)
{
	if (r) {
		free(r->buckets);
		r->buckets = NULL;
		r->nr_rows = 0;
	}
}

static void attribute(struct session *s, struct hm_meta *meta)
{
	struct hm_record_result *r = s->res;
	struct hm_futex_model m;
	struct hm_futex_table tab;
	bool have_model = hm_futex_geometry__this_machine(&m) == 0;
	struct hm_record_bucket *rows;
	u64 slots, best_base = 0, best_events = 0, *bases = NULL;
	u8 *predicted = NULL;
	int lock_off, i, t;
	bool private_tab;
	size_t k;

	r->table_kind = -1;
	if (!have_model)
		return;
	if (!s->wl) {
		/* a command: its futex addresses are unknown; keep the observed pairs only */
		lock_off = m.layout.offset[HM_FUTEX_FIELD_LOCK] >= 0 ? m.layout.offset[HM_FUTEX_FIELD_LOCK] : 4;
		goto out;
	}
	lock_off = m.layout.offset[HM_FUTEX_FIELD_LOCK] >= 0 ? m.layout.offset[HM_FUTEX_FIELD_LOCK] : 4;
	private_tab = s->wl && s->wl->slots > 0 && !s->o->wl.shared;
	slots = private_tab ? (u64)s->wl->slots : m.global_slots;
	if (!slots || !s->locks.cap)
		goto out;

	/* the workload's futexes, hashed: which private indices can appear */
	if (private_tab) {
		predicted = calloc(slots, 1);
		if (!predicted)
			goto out;
		for (t = 0; t < s->wl->nr_threads; t++)
			for (i = 0; i < s->wl->futexes; i++) {
				struct hm_futex_key key;

				hm_futex_key__private(&key, 0, s->wl->base[t] + 4 * (u64)i);
				predicted[hm_futex__hash_private(&key, slots)] = 1;
			}
	}
	/* candidate table base of every lock the workload contended; majority by events */
	bases = calloc(s->locks.cap, sizeof(*bases));
	if (!bases)
		goto out;
	for (k = 0; k < s->locks.cap; k++) {
		struct lockent *l = &s->locks.e[k];
		u64 base = 0, ev = 0;
		size_t j;

		if (!l->addr || !l->wl_count)
			continue;
		r->nr_locks++;
		/* buckets are cache-line aligned: &hb->lock sits at lock_off in its line */
		if ((l->addr - lock_off) % m.layout.bucket_size)
			continue;
		if (private_tab)
			hm_futex_geometry__private_base(l->addr - lock_off, slots, m.layout.bucket_size,
							m.fph.queues ? m.fph.queues : 64, &base);
		else
			hm_futex_geometry__global_base(l->addr - lock_off, slots, m.layout.bucket_size,
						       &base);
		bases[k] = base;
		for (j = 0; j < s->locks.cap; j++)
			if (bases[j] == base && s->locks.e[j].addr)
				ev += s->locks.e[j].wl_count;
		if (base && ev > best_events) {
			best_events = ev;
			best_base = base;
		}
	}
	if (!best_base)
		goto out;
	/* every lock in the table: index from the base; private: checked against the hash */
	for (k = 0; k < s->locks.cap; k++) {
		struct lockent *l = &s->locks.e[k];
		u64 hb, idx;

		if (!l->addr || !l->wl_count || bases[k] != best_base)
			continue;
		hb = l->addr - lock_off;
		if ((hb - best_base) % m.layout.bucket_size)
			continue;
		idx = (hb - best_base) / m.layout.bucket_size;
		if (idx >= slots)
			continue;
		r->nr_buckets++;
		r->bucket_events += l->wl_count;
		if (!predicted || predicted[idx])
			r->nr_buckets_attributed++;
		rows = realloc(r->buckets, (r->nr_rows + 1) * sizeof(*rows));
		if (rows) {
			struct hm_record_bucket *b = &rows[r->nr_rows++];

			r->buckets = rows;
			memset(b, 0, sizeof(*b));
			b->index = idx;
			b->addr = hb;
			b->events = l->wl_count;
			b->wait_ns = l->wait_ns;
			b->predicted = !predicted || predicted[idx];
			memcpy(b->sock, l->sock, sizeof(b->sock));
		}
	}
	if (r->nr_rows)
		qsort(r->buckets, r->nr_rows, sizeof(*r->buckets), bucket_cmp);
	memset(&tab, 0, sizeof(tab));
	tab.kind = private_tab ? 1 : 0;
	tab.node = private_tab ? -1 : 0;
	tab.pid = private_tab ? s->wl->pid : -1;
	tab.base = best_base;
	tab.slots = slots;
	snprintf(tab.provenance, sizeof(tab.provenance), "contention+model");
	if (!hm_futex_model__add_table(&m, &tab) && meta)
		hm_futex_model__to_meta(&m, meta);
	r->table_kind = tab.kind;
	r->table_base = best_base;
	r->table_slots = slots;
	r->table_pid = tab.pid;
	/* --futex-bpf: the kernel's own pairing, checked against the model */
	if (private_tab && s->nr_bpf_pairs) {
		size_t q;

		for (q = 0; q < s->nr_bpf_pairs; q++) {
			const struct hm_bpf_pair *bp = &s->bpf_pairs[q];
			struct hm_futex_key key;
			u64 want;

			if ((pid_t)bp->tgid != s->wl->pid)
				continue;
			/* only bucket locks of this table: other locks taken in a futex call are not */
			if ((bp->lock - lock_off) % m.layout.bucket_size || bp->lock - lock_off < best_base ||
			    bp->lock - lock_off >= best_base + slots * m.layout.bucket_size) {
				r->bpf_not_bucket++;
				continue;
			}
			hm_futex_key__private(&key, 0, bp->uaddr);
			want = best_base + m.layout.bucket_size * hm_futex__hash_private(&key, slots);
			r->bpf_checked++;
			r->bpf_agree += bp->lock - lock_off == want;
		}
	}
	/* uaddr -> bucket pairs: observed in BPF, else computed for the private hash of the workload */
	if (private_tab && meta && !s->nr_bpf_pairs) {
		u64 n = (u64)s->wl->nr_threads * s->wl->futexes, j = 0;
		u64 *pairs = calloc(n * 2, sizeof(u64));

		for (t = 0; pairs && t < s->wl->nr_threads; t++)
			for (i = 0; i < s->wl->futexes; i++) {
				struct hm_futex_key key;
				u64 ua = s->wl->base[t] + 4 * (u64)i;

				hm_futex_key__private(&key, 0, ua);
				pairs[j++] = ua;
				pairs[j++] = best_base + m.layout.bucket_size *
					     hm_futex__hash_private(&key, slots);
			}
		if (pairs && n * 16 < 0xffffffffULL) {
			hm_meta__add(meta, HM_META_FUTEX_ADDRS, pairs, (u32)(n * 16));
			r->nr_pairs = n;
		}
		free(pairs);
	}
out:
	if (meta && s->nr_bpf_pairs && !r->nr_pairs) {
		u64 *pairs = calloc(s->nr_bpf_pairs * 2, sizeof(u64)), j = 0;

		for (k = 0; pairs && k < s->nr_bpf_pairs; k++) {
			pairs[j++] = s->bpf_pairs[k].uaddr;
			pairs[j++] = s->bpf_pairs[k].lock - lock_off;
		}
		if (pairs && j * 8 < 0xffffffffULL) {
			hm_meta__add(meta, HM_META_FUTEX_ADDRS, pairs, (u32)(j * 8));
			r->nr_pairs = j / 2;
		}
		free(pairs);
	}
	/* observed pairs from --futex-syscalls */
	if (meta && s->pairs.nr && !r->nr_pairs) {
		u64 *pairs = calloc(s->pairs.nr * 2, sizeof(u64)), j = 0;

		for (k = 0; pairs && k < s->pairs.cap; k++)
			if (s->pairs.e[k].uaddr) {
				pairs[j++] = s->pairs.e[k].uaddr;
				pairs[j++] = s->pairs.e[k].hb - lock_off;
			}
		if (pairs) {
			hm_meta__add(meta, HM_META_FUTEX_ADDRS, pairs, (u32)(j * 8));
			r->nr_pairs = j / 2;
		}
		free(pairs);
	}
	free(bases);
	free(predicted);
	hm_futex_model__release(&m);
}

/* ------------------------------------------------------------ events */

static void add_contention_events(struct session *s, bool system_wide, bool per_task_exec)
{
	u64 st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	int i;

	s->ev_begin = s->ev_end = s->ev_futex = -1;
	for (i = 0; i < s->ct.nr_tps; i++) {
		struct hm_pevsel *e = &s->ev[s->nr_ev];
		char name[96];

		snprintf(name, sizeof(name), "%s:%s", s->ct.tp[i].sys, s->ct.tp[i].name);
		hm_pevsel__init(e, PERF_TYPE_TRACEPOINT, s->ct.tp[i].id, name);
		e->attr.sample_period = 1;
		e->attr.sample_type = st;
		if (i == HM_TP_BEGIN) {
			/* the kernel call chain names who waits: futex_q_lock <- futex_wait_setup ... */
			e->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
			e->attr.exclude_callchain_user = 1;
			e->attr.sample_max_stack = 16;
		}
		e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		e->attr.inherit = !system_wide;
		e->attr.disabled = system_wide || per_task_exec;
		e->attr.enable_on_exec = per_task_exec;
		e->attr.exclude_guest = 1;
		if (i == HM_TP_BEGIN)
			s->ev_begin = s->nr_ev;
		else if (i == HM_TP_END)
			s->ev_end = s->nr_ev;
		else
			s->ev_futex = s->nr_ev;
		s->nr_ev++;
	}
	/* the tracking dummy, as perf record adds one */
	{
		struct hm_pevsel *e = &s->ev[s->nr_ev++];

		hm_pevsel__init(e, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, "dummy:HG");
		e->attr.sample_period = 1;
		e->attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				      PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
		e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		e->attr.inherit = !system_wide;
		e->attr.mmap = e->attr.comm = e->attr.task = e->attr.mmap2 = 1;
		e->attr.comm_exec = e->attr.ksymbol = e->attr.bpf_event = 1;
		e->attr.disabled = per_task_exec;
		e->attr.enable_on_exec = per_task_exec;
	}
}

static void add_plan_events(struct session *s, const struct hm_pmu_plan *p, bool no_exec)
{
	int i;

	for (i = 0; i < p->nr && s->nr_ev < MAX_EV; i++) {
		struct hm_pevsel *e = &s->ev[s->nr_ev++];

		hm_pevsel__init(e, p->ev[i].attr.type, p->ev[i].attr.config, p->ev[i].name);
		e->attr = p->ev[i].attr;
		e->attr.size = 128;
		e->leader = p->ev[i].leader;
		snprintf(e->pmu_cpus, sizeof(e->pmu_cpus), "%s", p->ev[i].cpus);
		if (no_exec && e->attr.enable_on_exec) {
			/* the built-in workload does not exec: start enabled */
			e->attr.enable_on_exec = 0;
			e->attr.disabled = 0;
		}
	}
	s->ev_begin = s->ev_end = s->ev_futex = -1;
}

static int open_events(struct session *s, pid_t pid, bool precise_fallback)
{
	int i, err;

	for (i = 0; i < s->nr_ev; i++) {
		struct hm_pevsel *e = &s->ev[i];
		const struct hm_pevsel *leader = e->leader >= 0 ? &s->ev[e->leader] : NULL;

		for (;;) {
			err = hm_pevsel__open(e, s->cpus, s->nr_cpus, pid, leader);
			if (!err)
				break;
			if (precise_fallback && e->attr.precise_ip &&
			    (err == -EINVAL || err == -EOPNOTSUPP)) {
				e->attr.precise_ip--;
				hm_debug("%s: retrying with precise_ip=%u", e->name, e->attr.precise_ip);
				continue;
			}
			return err;
		}
	}
	return 0;
}

static int setup_rings(struct session *s)
{
	/* users are held to kernel.perf_event_mlock_kb (516 KiB per CPU): perf's 128 pages */
	int pages = s->o->mmap_pages > 0 ? s->o->mmap_pages : geteuid() ? 128 : DEFAULT_PAGES;
	long psz = sysconf(_SC_PAGESIZE);
	int c, i, err;

	s->ring = calloc(s->nr_cpus, sizeof(*s->ring));
	if (!s->ring)
		return -ENOMEM;
	for (c = 0; c < s->nr_cpus; c++)
		s->ring[c].fd = -1;
	(void)psz;
	for (c = 0; c < s->nr_cpus; c++) {
		int owner = -1;

		/* the ring belongs to the first event open on this CPU (hybrids skip some) */
		for (i = 0; i < s->nr_ev && owner < 0; i++)
			if (s->ev[i].fd[c] >= 0)
				owner = i;
		if (owner < 0)
			continue;
		err = hm_ring__mmap(&s->ring[c], s->ev[owner].fd[c], s->cpus[c], pages);
		if (err)
			return err;
		for (i = owner + 1; i < s->nr_ev; i++) {
			if (s->ev[i].fd[c] < 0)
				continue;
			err = hm_ring__set_output(&s->ring[c], s->ev[i].fd[c]);
			if (err) {
				hm_err("ioctl(PERF_EVENT_IOC_SET_OUTPUT) for %s on CPU %d: %s",
				       s->ev[i].name, s->cpus[c], strerror(-err));
				return err;
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------------ target */

static int start_child(struct session *s)
{
	int go[2];
	pid_t pid;

	sigset_t block, old;
	pid_t parent = getpid();

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (s->o->workload) {
		struct hm_futex_hash_opts wo = s->o->wl;

		wo.stop = &child_stop;
		s->fh = hm_futex_hash__new(&wo);
		if (!s->fh) {
			close(go[0]);
			close(go[1]);
			return -errno;
		}
		s->wl_len = sizeof(*s->wl) + s->fh->nr_threads * sizeof(u64);
		s->wl = mmap(NULL, s->wl_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (s->wl == MAP_FAILED) {
			s->wl = NULL;
			close(go[0]);
			close(go[1]);
			return -ENOMEM;
		}
	}
	fflush(NULL);
	/*
	 * The child must not run the recorder's handlers (its flag would be
	 * set in the child's copy and lost): signals wait until it has its own.
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		sigprocmask(SIG_SETMASK, &old, NULL);
		close(go[0]);
		close(go[1]);
		return err;
	}
	if (pid == 0) {
		char c;
		struct sigaction sa;

		close(go[1]);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = child_on_signal;
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
		/* the recorder died (even by SIGKILL): so does its command */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(126);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (read(go[0], &c, 1) != 1)
			_exit(126);	/* the recorder gave up */
		close(go[0]);
		if (s->o->workload) {
			struct hm_futex_hash *fh = s->fh;
			int t;

			fh->pid = getpid();
			if (hm_futex_hash__run(fh)) {
				fprintf(stderr, "hitmap: %s\n", hm_log__last_error());
				_exit(1);
			}
			s->wl->pid = fh->pid;
			s->wl->slots = fh->slots;
			s->wl->avg = fh->avg;
			s->wl->rel_stddev = fh->rel_stddev;
			s->wl->cpu_secs = fh->cpu_secs;
			s->wl->total_ops = fh->total_ops;
			s->wl->nr_threads = fh->nr_threads;
			s->wl->futexes = fh->opts.futexes;
			for (t = 0; t < fh->nr_threads; t++)
				s->wl->base[t] = (u64)(uintptr_t)fh->thr[t].futex;
			__atomic_store_n(&s->wl->done, 1, __ATOMIC_RELEASE);
			if (s->o->workload_done)
				s->o->workload_done(fh, s->o->ctx);
			fflush(NULL);
			_exit(0);
		}
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		execvp(s->o->argv[0], s->o->argv);
		fprintf(stderr, "hitmap: %s: cannot run: %s; fix: check the command and PATH\n",
			s->o->argv[0], strerror(errno));
		_exit(127);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(go[0]);
	s->child = pid;
	s->go_fd = go[1];
	return 0;
}

static void release_child(struct session *s)
{
	if (s->go_fd >= 0) {
		if (write(s->go_fd, "g", 1) != 1)
			hm_warn("could not start the command");
		close(s->go_fd);
		s->go_fd = -1;
	}
}

static void reap(struct session *s, bool block)
{
	int status;
	pid_t p;

	if (s->child <= 0 || s->child_done)
		return;
	p = waitpid(s->child, &status, block ? 0 : WNOHANG);
	if (p == s->child) {
		s->child_done = true;
		s->res->child_status = status;
	}
}

/* ------------------------------------------------------------ main */

static int choose_mode(const struct hm_record_opts *o, struct hm_record_result *res,
		       struct hm_pmu_plan *plan)
{
	struct hm_pmu_plan_opts po = {
		.sysfs_root = o->sysfs_root, .mode = o->mode, .ldlat = o->ldlat,
		.period = o->period, .system_wide = o->all_cpus || o->cpus,
		.user_only = o->user_only, .kernel_only = o->kernel_only,
	};
	int err;

	memset(plan, 0, sizeof(*plan));
	if (o->mode == HM_MODE_CONTENTION) {
		res->mode = HM_MODE_CONTENTION;
		snprintf(res->mode_why, sizeof(res->mode_why), "requested");
		return 0;
	}
	if (getenv("HITMAP_RECORD_TEST_SWEVENT")) {
		/*
		 * Tests only: the PMU path (plan, open, ids, enable_on_exec,
		 * synthesis, header) with software events standing in for
		 * mem-loads and mem-stores, where no PMU is available.
		 */
		int i;

		for (i = 0; i < 2; i++) {
			struct hm_plan_event *e = &plan->ev[plan->nr++];

			memset(e, 0, sizeof(*e));
			e->leader = -1;
			e->attr.size = 128;
			e->attr.type = PERF_TYPE_SOFTWARE;
			e->attr.config = i ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
			e->attr.sample_period = o->period ? o->period : 100000;
			e->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					      PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
					      PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
					      PERF_SAMPLE_WEIGHT_STRUCT;
			e->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
			e->attr.inherit = 1;
			e->attr.sample_id_all = 1;
			e->attr.disabled = 1;
			e->attr.enable_on_exec = !(o->all_cpus || o->cpus);
			e->attr.exclude_kernel = o->user_only;
			e->attr.exclude_user = o->kernel_only;
			if (!i) {
				e->attr.mmap = e->attr.comm = e->attr.task = e->attr.mmap_data = 1;
				e->attr.mmap2 = e->attr.comm_exec = 1;
			}
			snprintf(e->name, sizeof(e->name), i ? "task-clock" : "cpu-clock");
		}
		plan->mode = HM_MODE_PEBS;
		res->mode = HM_MODE_PEBS;
		snprintf(plan->desc, sizeof(plan->desc), "test: software clocks in place of PEBS");
		snprintf(res->mode_why, sizeof(res->mode_why), "%s", plan->desc);
		return 0;
	}
	err = hm_pmu__plan(&po, plan);
	if (err)
		return err;
	if (plan->nr) {
		res->mode = plan->mode;
		snprintf(res->mode_why, sizeof(res->mode_why), "%s", plan->desc);
		return 0;
	}
	if (o->mode != HM_MODE_AUTO) {
		hm_err("--mode %s: %s; remaining mode here: contention (--mode contention)",
		       hm_rec_mode__name(o->mode), plan->why);
		return -ENODEV;
	}
	res->mode = HM_MODE_CONTENTION;
	snprintf(res->mode_why, sizeof(res->mode_why),
		 "no PMU memory sampling here (%.150s); falling back to contention mode (lock:contention_begin/end)",
		 plan->why);
	return 0;
}

static double self_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int hm_record__run(const struct hm_record_opts *o, struct hm_record_result *res)
{
	struct session s;
	struct hm_pmu_plan plan;
	struct hm_header h;
	struct hm_meta *meta = NULL;
	bool system_wide = o->all_cpus || o->cpus;
	bool contention;
	pid_t pid;
	int err, i, c;
	struct pollfd *pfd = NULL;
	void *td = NULL;
	size_t td_size = 0;
	double cpu0;
	int lock_fd = -1;

	memset(&s, 0, sizeof(s));
	memset(res, 0, sizeof(*res));
	memset(&h, 0, sizeof(h));
	s.o = o;
	s.res = res;
	s.go_fd = -1;
	res->table_kind = -1;
	if (!o->workload && (!o->argv || !o->argv[0]) && !system_wide) {
		hm_err("record: nothing to record; fix: give a command after --, --workload futex-hash, or -a");
		return -EINVAL;
	}
	err = choose_mode(o, res, &plan);
	if (err)
		return err;
	contention = res->mode == HM_MODE_CONTENTION;
	if (contention && o->user_only) {
		hm_err("-u: contention mode records kernel tracepoints, so user-only leaves nothing; fix: drop -u");
		return -EINVAL;
	}
	if (contention && (o->ldlat >= 0 || o->period))
		hm_warn("-l/-c apply to PMU sampling; contention mode records every contention event");
	if (!contention && (o->futex_syscalls))
		hm_warn("--futex-syscalls applies to contention mode; ignored in %s mode", hm_rec_mode__name(res->mode));
	if (contention) {
		err = hm_contention__init(&s.ct, o->futex_syscalls);
		if (err)
			return err;
	}

	if (o->cpus) {
		s.cpus = calloc(8192, sizeof(int));
		s.nr_cpus = s.cpus ? hm_cpulist__parse(o->cpus, s.cpus, 8192) : -ENOMEM;
		if (s.nr_cpus <= 0) {
			hm_err("-C '%s': not a CPU list; fix: e.g. -C 0-3", o->cpus);
			err = -EINVAL;
			goto out;
		}
	} else {
		s.nr_cpus = online_cpus(&s.cpus);
		if (s.nr_cpus <= 0) {
			err = s.nr_cpus ? s.nr_cpus : -ENODEV;
			goto out;
		}
	}
	res->nr_cpus = s.nr_cpus;
	{
		struct hm_topo *t = hm_topo__new_live(NULL);

		s.cpu_sock = calloc(8192, sizeof(int));
		res->nr_sockets = 1;
		if (t && s.cpu_sock) {
			for (c = 0; c < 8192 && c < hm_topo__nr_cpus(t); c++)
				s.cpu_sock[c] = hm_topo__cpu_socket(t, c);
			res->nr_sockets = hm_topo__nr_sockets(t) > 0 ? hm_topo__nr_sockets(t) : 1;
		}
		hm_topo__delete(t);
	}

	/*
	 * One recorder per output: the lock is taken on the file before it
	 * is truncated, so a second recorder cannot clobber a running one.
	 */
	lock_fd = open(o->output, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (lock_fd < 0) {
		err = -errno;
		hm_err("%s: cannot create: %s", o->output, strerror(errno));
		goto out;
	}
	if (flock(lock_fd, LOCK_EX | LOCK_NB)) {
		err = errno == EWOULDBLOCK ? -EBUSY : -errno;
		hm_err("%s: another recording is writing this file; fix: give another -o, or "
		       "wait for it to finish", o->output);
		goto out;
	}
	if (o->workload || (o->argv && o->argv[0])) {
		err = start_child(&s);
		if (err) {
			hm_err("record: cannot start the %s: %s", o->workload ? "workload" : "command",
			       strerror(-err));
			goto out;
		}
	}
	pid = system_wide ? -1 : s.child;
	if (o->futex_bpf) {
		char buf[4096];
		const char *obj = o->bpf_obj ? o->bpf_obj : hm_bpfpair__default_path(buf, sizeof(buf));

		s.bpf = hm_bpfpair__new(obj, system_wide ? 0 : s.child);
		if (!s.bpf) {
			err = -errno;
			goto out;
		}
	}
	/* the futex tables of the recorded processes, live (futex-tables.c) */
	s.ftab = hm_rec_futex__start(NULL, system_wide ? 0 : s.child, res->futex_tables_sum,
				     sizeof(res->futex_tables_sum));
	if (contention)
		add_contention_events(&s, system_wide, !system_wide && !o->workload);
	else
		add_plan_events(&s, &plan, o->workload);
	err = open_events(&s, pid, !contention);
	if (err)
		goto out;
	err = setup_rings(&s);
	if (err)
		goto out;
	if (res->mode == HM_MODE_SPE) {
		/* the AUX areas beside the rings the SPE event (the plan's first) owns */
		s.aux = hm_rec_aux__setup(&plan, s.cpus, s.nr_cpus, s.ring, s.ev[0].fd,
					  system_wide ? (u32)-1 : (u32)s.child);
		if (!s.aux) {
			err = -errno;
			goto out;
		}
	}

	s.w = hm_writer__new(o->output);
	if (!s.w) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < s.nr_ev; i++) {
		u64 ids[8192];
		u32 n = 0;

		for (c = 0; c < s.ev[i].nr_cpus && n < 8192; c++)
			if (s.ev[i].fd[c] >= 0 && s.ev[i].id[c])
				ids[n++] = s.ev[i].id[c];
		err = hm_writer__add_evsel(s.w, &s.ev[i].attr, s.ev[i].name, n ? ids : NULL, n);
		if (err < 0)
			goto out;
	}
	if (s.aux) {
		/* TIME_CONV and AUXTRACE_INFO before any AUX data */
		err = hm_rec_aux__start(s.aux, s.w);
		if (err)
			goto out;
	}
	/* the kernel, and threads that already exist */
	synth_kernel(&s);
	if (system_wide)
		synth_all(&s, !contention);
	else if (o->workload && s.child > 0)
		synth_task(&s, s.child, !contention);
	if (system_wide)
		for (i = 0; i < s.nr_ev; i++)
			hm_pevsel__enable(&s.ev[i]);
	cpu0 = self_cpu();
	/* a valid header from the start: a killed recorder leaves a readable file */
	err = hm_writer__sync(s.w);
	if (err)
		goto out;
	if (o->stop && *o->stop && s.go_fd >= 0) {
		/* stopped before the command ran: it never starts (exits 126) */
		close(s.go_fd);
		s.go_fd = -1;
	} else {
		release_child(&s);
	}

	pfd = calloc(s.nr_cpus, sizeof(*pfd));
	if (!pfd) {
		err = -ENOMEM;
		goto out;
	}
	for (c = 0; c < s.nr_cpus; c++) {
		pfd[c].fd = s.ring[c].fd;
		pfd[c].events = POLLIN;
	}
	for (;;) {
		if (o->stop && *o->stop) {
			res->interrupted = true;
			if (s.child > 0 && !s.child_done)
				kill(s.child, SIGTERM);
			break;
		}
		reap(&s, false);
		if (s.child > 0 && s.child_done)
			break;
		poll(pfd, s.nr_cpus, 100);
		err = drain_all(&s);
		if (err)
			goto out;
	}
	reap(&s, true);
	for (i = 0; i < s.nr_ev; i++)
		hm_pevsel__disable(&s.ev[i]);
	res->rec_cpu_secs = self_cpu() - cpu0;
	err = drain_all(&s);
	if (err)
		goto out;
	if (s.bpf) {
		size_t q;

		if (!hm_bpfpair__collect(s.bpf, &s.bpf_pairs, &s.nr_bpf_pairs, &res->bpf_seen,
					 &res->bpf_in_futex)) {
			res->bpf_pairs = s.nr_bpf_pairs;
			for (q = 0; q < s.nr_bpf_pairs; q++)
				res->bpf_events += s.bpf_pairs[q].count;
		}
		hm_bpfpair__delete(s.bpf);
		s.bpf = NULL;
	}
	hm_rec_aux__finish(s.aux, &res->aux_records, &res->aux_bytes, &res->aux_lost);
	for (c = 0; c < s.nr_cpus; c++) {
		res->lost += s.ring[c].nr_lost;
		res->lost_samples += s.ring[c].nr_lost_samples;
		res->bytes += s.ring[c].bytes;
		res->nr_records += s.ring[c].nr_records;
	}

	meta = hm_meta__new();
	if (meta) {
		const char *mode = hm_rec_mode__name(res->mode);
		struct utsname u;

		hm_meta__add(meta, HM_META_RECORD_MODE, mode, strlen(mode));
		if (!uname(&u))
			hm_meta__add(meta, HM_META_KERNEL, u.release, strlen(u.release));
		if (s.wl && s.wl->done && s.fh) {
			char *js;

			/* the parent's copy lacks the child's results: take them from the shared page */
			s.fh->pid = s.wl->pid;
			s.fh->slots = s.wl->slots;
			s.fh->avg = s.wl->avg;
			s.fh->rel_stddev = s.wl->rel_stddev;
			js = hm_futex_hash__json_string(s.fh);
			if (js) {
				hm_meta__add(meta, HM_META_WORKLOAD, js, strlen(js));
				free(js);
			}
			res->wl_avg = s.wl->avg;
			res->wl_rel_stddev = s.wl->rel_stddev;
			res->wl_threads = s.wl->nr_threads;
			res->wl_cpu_secs = s.wl->cpu_secs;
			res->wl_total_ops = s.wl->total_ops;
			s.fh->cpu_secs = s.wl->cpu_secs;
			s.fh->total_ops = s.wl->total_ops;
		}
		if (contention && (s.wl ? s.wl->done : true))
			attribute(&s, meta);
		if (s.ftab)
			res->futex_tables = hm_rec_futex__finish(s.ftab, meta, res->futex_tables_sum,
								 sizeof(res->futex_tables_sum));
	}
	hm_rec_futex__delete(s.ftab);
	s.ftab = NULL;
	fill_header(&s, &h, meta);
	if (contention) {
		/* the tracepoint formats, so perf script decodes the events */
		err = hm_contention__tracing_data(&s.ct, &td, &td_size);
		if (err)
			goto out;
		h.tracing_data = td;		/* h owns it now */
		h.tracing_data_size = td_size;
		td = NULL;
	}
	err = hm_writer__set_header(s.w, &h);
	if (err)
		goto out;
	err = hm_writer__close(s.w);
	if (err)
		goto out;
out:
	if (s.child > 0 && !s.child_done) {
		if (s.go_fd >= 0) {
			close(s.go_fd);		/* the child exits 126 */
			s.go_fd = -1;
		} else {
			kill(s.child, SIGTERM);
		}
		reap(&s, true);
	}
	if (s.go_fd >= 0)
		close(s.go_fd);
	if (err && s.w)
		hm_writer__close(s.w);	/* leave a readable file behind even so */
	hm_writer__delete(s.w);
	hm_rec_aux__delete(s.aux);	/* before the rings it is mapped beside */
	for (c = 0; s.ring && c < s.nr_cpus; c++)
		hm_ring__munmap(&s.ring[c]);
	free(s.ring);
	for (i = 0; i < s.nr_ev; i++)
		hm_pevsel__close(&s.ev[i]);
	free(s.cpus);
	free(s.cpu_sock);
	hm_bpfpair__delete(s.bpf);
	hm_rec_futex__delete(s.ftab);
	free(s.bpf_pairs);
	for (i = 0; i < s.nr_dsos; i++)
		free(s.dsos[i]);
	free(s.dsos);
	free(pfd);
	free(td);
	hm_header__release(&h);
	hm_meta__delete(meta);
	if (s.wl)
		munmap(s.wl, s.wl_len);
	hm_futex_hash__delete(s.fh);
	free(s.locks.e);
	free(s.pairs.e);
	free(s.tids.e);
	if (lock_fd >= 0)
		close(lock_fd);
	return err;
}
