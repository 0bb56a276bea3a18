// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-cont-gen: writes a contention-mode perf.data (hitmap's writer) as
 * hitmap record --mode contention does: lock:contention_begin/end
 * tracepoint samples (RAW payload with lock_addr) of many threads on the
 * bucket locks of a known global futex table (in the hitmap metadata),
 * plus begins on other locks; and the expected per-bucket contentions and
 * wait times.
 *
 *   hm-cont-gen -o FILE -e EXPECTED.json [-n BEGINS] [--seed S] [--no-rounds]
 *               [--callchain KALLSYMS]
 *
 * --no-rounds leaves out the FINISHED_ROUND records, so that an ordered
 * reader holds far more than one round and flushes half its queue at a time.
 * --callchain gives contention_begin a kernel call chain as record --mode
 * contention does (the spin-lock slow path, then the waiting code: two
 * callers in a 2:1 ratio) and writes the symbols to KALLSYMS for report
 * --kallsyms; EXPECTED.json then holds the callers' contentions on buckets.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <hitmap/futex.h>
#include <hitmap/meta.h>
#include <hitmap/perf_data.h>
#include "gen-common.h"

#define G0	 0xffff888100998000ull
#define SLOTS	 512
#define LOCK_OFF 4		/* bucket lock: spinlock after the waiters count */
#define NTID	 96
#define ID_BEGIN 408
#define ID_END	 407

static const char fmt_begin[] =
	"name: contention_begin\nID: 408\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%p (flags=%x)\", REC->lock_addr, REC->flags\n";
static const char fmt_end[] =
	"name: contention_end\nID: 407\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int ret;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%p (ret=%d)\", REC->lock_addr, REC->ret\n";
static const char hdr_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char hdr_event[] =
	"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";

struct blob { u8 *p; size_t n; };

static void put(struct blob *b, const void *d, size_t n)
{
	memcpy(b->p + b->n, d, n);
	b->n += n;
}

static void put_file(struct blob *b, const char *s, int hdr)
{
	u64 l8 = strlen(s);
	u32 l4 = (u32)l8;

	put(b, hdr == 8 ? (void *)&l8 : (void *)&l4, hdr);
	put(b, s, strlen(s));
}

/* perf's TRACING_DATA (version 0.6) with the two lock formats */
static struct blob tracing_data(void)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct blob b = { calloc(1, 8192), 0 };
	u32 u;
	u8 byte;

	put(&b, magic, sizeof(magic));
	put(&b, "0.6", 4);
	byte = 0;
	put(&b, &byte, 1);
	byte = 8;
	put(&b, &byte, 1);
	u = 4096;
	put(&b, &u, 4);
	put(&b, "header_page", 12);
	put_file(&b, hdr_page, 8);
	put(&b, "header_event", 13);
	put_file(&b, hdr_event, 8);
	u = 0;				/* ftrace formats */
	put(&b, &u, 4);
	u = 1;				/* systems */
	put(&b, &u, 4);
	put(&b, "lock", 5);
	u = 2;
	put(&b, &u, 4);
	put_file(&b, fmt_begin, 8);
	put_file(&b, fmt_end, 8);
	u = 0;				/* kallsyms */
	put(&b, &u, 4);
	put_file(&b, "", 4);		/* printk formats */
	put_file(&b, "", 8);		/* saved cmdlines */
	return b;
}

static struct perf_event_attr attr(u64 id, bool first)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof(a);
	a.config = id;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	a.read_format = PERF_FORMAT_ID;
	a.sample_id_all = 1;
	if (first)
		a.mmap = a.comm = a.mmap2 = 1;
	return a;
}

static u64 exp_n[SLOTS], exp_wait[SLOTS];

/* --callchain: the kernel text the chains point into */
#define KT 0xffffffff81200000ull
static const char *const ksyms[] = {
	"native_queued_spin_lock_slowpath", "_raw_spin_lock", "futex_q_lock", "futex_wait_setup",
	"futex_wake", "do_futex", "__x64_sys_futex",
};
enum { K_SLOW, K_RAW, K_QLOCK, K_WSETUP, K_WAKE, K_DOFUTEX, K_SYS, K__MAX };
static const char *const exp_caller[2] = { "futex_q_lock <- futex_wait_setup", "futex_wake <- do_futex" };
static u64 exp_caller_n[2], exp_caller_wait[2];

static int write_kallsyms(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "%016llx T _stext\n", (unsigned long long)(KT - 0x1000));
	for (int i = 0; i < K__MAX; i++)
		fprintf(f, "%016llx T %s\n", (unsigned long long)(KT + 0x100 * i), ksyms[i]);
	fprintf(f, "%016llx T _etext\n", (unsigned long long)(KT + 0x100 * K__MAX));
	return fclose(f);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' }, { "no-rounds", no_argument, NULL, 'R' },
		{ "callchain", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *expf = NULL, *ksymf = NULL;
	int who[NTID];
	unsigned long n = 120000, begins = 0, other = 0, recs = 0;
	bool rounds = true;
	struct hm_header h;
	struct gen_host host;
	struct perf_event_attr a0 = attr(ID_BEGIN, true), a1 = attr(ID_END, false);
	u64 ids0[4] = { 101, 102, 103, 104 }, ids1[4] = { 201, 202, 203, 204 };
	/* nest: 1 while an interrupt's contention on another lock runs inside the wait, 2 after */
	struct { u64 lock, t0; int bucket; bool open; int nest; } th[NTID];
	struct hm_futex_model m;
	struct hm_futex_table t;
	struct hm_meta *meta;
	struct blob td;
	void *raw = NULL;
	u64 time = 1000000000ull;
	struct hm_writer *w;
	FILE *f;
	int c, err = 0, first = 1;
	unsigned k;

	while ((c = getopt_long(argc, argv, "o:e:n:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'e': expf = optarg; break;
		case 'n': n = strtoul(optarg, NULL, 10); break;
		case 's': gen_rng = strtoull(optarg, NULL, 0) | 1; break;
		case 'R': rounds = false; break;
		case 'C': ksymf = optarg; break;
		default: return 2;
		}
	}
	if (!out || !expf) {
		fprintf(stderr, "usage: hm-cont-gen -o FILE -e EXPECTED.json [-n BEGINS] [--seed S] [--no-rounds]\n");
		return 2;
	}
	memset(th, 0, sizeof(th));
	if (ksymf) {
		if (write_kallsyms(ksymf)) {
			fprintf(stderr, "hm-cont-gen: %s: %s\n", ksymf, strerror(errno));
			return 1;
		}
		a0.sample_type |= PERF_SAMPLE_CALLCHAIN;
	}
	gen_host__header(&host, &h, "hm-cont-gen", "6.17.0-hm-cont-gen", false);
	td = tracing_data();
	h.tracing_data = td.p;
	h.tracing_data_size = td.n;

	hm_futex_model__init(&m, HM_FUTEX_ERA_6_17);
	hm_futex_model__set_machine(&m, 4, 2);
	hm_futex_table__parse("global:0:ffff888100998000:512", &t);
	snprintf(t.provenance, sizeof(t.provenance), "hm-cont-gen");
	hm_futex_model__add_table(&m, &t);
	meta = hm_meta__new();
	if (!meta)
		return 1;
	err = hm_futex_model__to_meta(&m, meta);
	if (!err)
		err = hm_meta__add(meta, HM_META_KERNEL, "6.17.0", 6);
	if (!err)
		err = hm_meta__add(meta, HM_META_RECORD_MODE, "contention", 10);
	if (err) {
		fprintf(stderr, "hm-cont-gen: metadata: %s\n", strerror(-err));
		return 1;
	}
	if (gen_meta__attach(meta, &h, &raw, "hm-cont-gen"))
		return 1;
	w = gen_writer__open("hm-cont-gen", out, &h, &a0, "lock:contention_begin", ids0,
			     &a1, "lock:contention_end", ids1, 4242, "futex-hash");
	if (!w)
		return 1;
	/* each thread alternates begin -> end; bucket b drawn with weight ~ 1/(b%37+1) */
	while ((begins < n || first) && !err) {
		struct hm_sample s;
		u64 chain[6];
		u8 payload[20];
		u16 type;
		u32 fl = 0;
		unsigned tid = gen_rnd(NTID);
		u64 lock;

		first = 0;
		memset(&s, 0, sizeof(s));
		memset(payload, 0, sizeof(payload));
		s.misc = PERF_RECORD_MISC_KERNEL;
		s.cpu = tid % 4;
		s.pid = 4242;
		s.tid = 4242 + tid;
		s.time = time += 100 + gen_rnd(900);
		s.period = 1;
		s.raw = payload;
		s.raw_size = sizeof(payload);
		memcpy(payload + 4, &s.tid, 4);
		lock = th[tid].lock;
		if (th[tid].open && th[tid].bucket >= 0 && th[tid].nest < 2 &&
		    (th[tid].nest == 1 || gen_rnd(16) == 0)) {
			/*
			 * An interrupt contends another lock while the thread
			 * waits on its bucket: its begin and end (another
			 * lock's) are not the bucket wait's end.
			 */
			lock = 0xffff888400000000ull + 64 * (tid + 1);
			if (th[tid].nest == 0) {
				begins++;
				other++;
				s.ip = 0xffffffff81100000ull;
				s.id = ids0[s.cpu];
				type = ID_BEGIN;
				fl = 1;
				if (ksymf) {
					chain[0] = PERF_CONTEXT_KERNEL;
					chain[1] = KT + 0x100 * K_SLOW + 0x2a;
					chain[2] = KT + 0x100 * K_RAW + 0x11;
					s.callchain = chain;
					s.callchain_nr = 3;
					s.ip = chain[1];
				}
			} else {
				s.ip = 0xffffffff81100100ull;
				s.id = ids1[s.cpu];
				type = ID_END;
			}
			th[tid].nest++;
		} else if (!th[tid].open) {
			if (gen_rnd(8) == 0) {
				th[tid].lock = 0xffff888300000000ull + 64 * gen_rnd(4096);	/* not a bucket */
				th[tid].bucket = -1;
				other++;
			} else {
				k = gen_rnd(SLOTS);
				if (gen_rnd(4))
					k = (k % 37) * 13;			/* hot buckets */
				th[tid].lock = G0 + 64ull * k + LOCK_OFF;
				th[tid].bucket = (int)k;
				exp_n[k]++;
			}
			th[tid].open = true;
			th[tid].nest = 0;
			lock = th[tid].lock;
			th[tid].t0 = s.time;
			begins++;
			s.ip = 0xffffffff81100000ull;
			if (ksymf) {	/* the slow path, the lock, then who waits */
				int c2 = gen_rnd(3) == 0;

				who[tid] = c2;
				chain[0] = PERF_CONTEXT_KERNEL;
				chain[1] = KT + 0x100 * K_SLOW + 0x2a;
				chain[2] = KT + 0x100 * K_RAW + 0x11;
				chain[3] = KT + 0x100 * (c2 ? K_WAKE : K_QLOCK) + 0x33;
				chain[4] = KT + 0x100 * (c2 ? K_DOFUTEX : K_WSETUP) + 0x44;
				chain[5] = KT + 0x100 * K_SYS + 0x55;
				s.callchain = chain;
				s.callchain_nr = 6;
				s.ip = chain[1];
				if (th[tid].bucket >= 0)
					exp_caller_n[c2]++;
			}
			s.id = ids0[s.cpu];
			type = ID_BEGIN;
			fl = 1;
		} else {
			if (th[tid].bucket >= 0)
				exp_wait[th[tid].bucket] += s.time - th[tid].t0;
			if (ksymf && th[tid].bucket >= 0)
				exp_caller_wait[who[tid]] += s.time - th[tid].t0;
			th[tid].open = false;
			s.ip = 0xffffffff81100100ull;
			s.id = ids1[s.cpu];
			type = ID_END;
		}
		memcpy(payload, &type, 2);
		memcpy(payload + 8, &lock, 8);
		memcpy(payload + 16, &fl, 4);
		err = hm_writer__write_sample(w, type == ID_END, &s);
		if (!err && rounds && ++recs % 2048 == 0)
			err = hm_writer__write_finished_round(w);
	}
	if (gen_writer__finish(w, err, rounds, "hm-cont-gen", out))
		return 1;
	f = fopen(expf, "w");
	if (!f)
		return 1;
	fprintf(f, "{\n  \"begins\": %lu,\n  \"other_locks\": %lu,\n  \"buckets\": [\n", begins, other);
	first = 1;
	for (k = 0; k < SLOTS; k++) {
		if (!exp_n[k])
			continue;
		fprintf(f, "%s    {\"index\": %u, \"contended\": %" PRIu64 ", \"wait_ns\": %" PRIu64 "}",
			first ? "" : ",\n", k, exp_n[k], exp_wait[k]);
		first = 0;
	}
	fprintf(f, "\n  ]");
	if (ksymf)
		for (k = 0; k < 2; k++)
			fprintf(f, "%s    {\"caller\": \"%s\", \"contended\": %" PRIu64 ", \"wait_ns\": %" PRIu64 "}",
				k ? ",\n" : ",\n  \"callers\": [\n", exp_caller[k], exp_caller_n[k], exp_caller_wait[k]);
	fprintf(f, "%s\n}\n", ksymf ? "\n  ]" : "");
	fclose(f);
	hm_meta__delete(meta);
	hm_futex_model__release(&m);
	free(raw);
	free(td.p);
	return 0;
}
