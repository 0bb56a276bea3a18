// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bucket layouts: per-era model, BTF of the running kernel, and DWARF of test
 * ELFs compiled here (cc -g) with each era's struct futex_hash_bucket.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/futex.h>
#include "tap.h"

/* kernel-like types: spinlock_t, plist_head; CONFIG_DEBUG_SPINLOCK grows the lock */
static const char prologue[] =
	"typedef struct { int counter; } atomic_t;\n"
	"struct list_head { struct list_head *next, *prev; };\n"
	"struct plist_head { struct list_head node_list; };\n"
	"#ifdef DEBUG_SPINLOCK\n"
	"typedef struct { unsigned int val; unsigned int magic, owner_cpu; void *owner; } spinlock_t;\n"
	"#else\n"
	"typedef struct { unsigned int val; } spinlock_t;\n"
	"#endif\n"
	"struct futex_private_hash;\n";

static const struct era_case {
	const char *name, *body, *defs;
	int waiters, lock, chain, priv, size;
} cases[] = {
	{ "pre-6.16", "atomic_t waiters; spinlock_t lock; struct plist_head chain;", "", 0, 4, 8, -1, 64 },
	{ "6.16-6.18", "atomic_t waiters; spinlock_t lock; struct plist_head chain; struct futex_private_hash *priv;", "", 0, 4, 8, 24, 64 },
	{ "7.x", "atomic_t waiters; spinlock_t lock; struct plist_head chain;", "", 0, 4, 8, -1, 64 },
	{ "6.18 DEBUG_SPINLOCK", "atomic_t waiters; spinlock_t lock; struct plist_head chain; struct futex_private_hash *priv;",
	  "-DDEBUG_SPINLOCK", 0, 8, 32, 48, 64 },
	{ "6.18 LOCKDEP-sized (2 lines)", "atomic_t waiters; spinlock_t lock; char lockdep_map[48]; struct plist_head chain; struct futex_private_hash *priv;",
	  "-DDEBUG_SPINLOCK", 0, 8, 80, 96, 128 },
};

static int dwarf_case(const char *dir, int i, const struct era_case *c)
{
	char src[512], obj[512], cmd[2048], name[96];
	struct hm_futex_layout l;
	FILE *f;
	int err;

	snprintf(src, sizeof(src), "%s/b%d.c", dir, i);
	snprintf(obj, sizeof(obj), "%s/b%d.%s", dir, i, i % 2 ? "o" : "so");
	f = fopen(src, "w");
	if (!f)
		return -errno;
	fprintf(f, "%sstruct futex_hash_bucket { %s } __attribute__((aligned(64)));\n"
		   "struct futex_hash_bucket futex_queues[16];\n", prologue, c->body);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "${CC:-cc} -g %s %s -o %s %s", i % 2 ? "-c" : "-shared -fPIC", c->defs, obj, src);
	if (system(cmd)) {
		SKIP(c->name, "no C compiler to build the test ELF (%s)", cmd);
		return 0;
	}
	err = hm_futex_layout__from_dwarf(obj, &l);
	snprintf(name, sizeof(name), "dwarf %s: found", c->name);
	CHECK_EQ(name, err, 0);
	if (err)
		return 0;
	snprintf(name, sizeof(name), "dwarf %s: offsets", c->name);
	if (l.offset[HM_FUTEX_FIELD_WAITERS] == c->waiters && l.offset[HM_FUTEX_FIELD_LOCK] == c->lock &&
	    l.offset[HM_FUTEX_FIELD_CHAIN] == c->chain && l.offset[HM_FUTEX_FIELD_PRIV] == c->priv &&
	    l.bucket_size == (u32)c->size)
		PASS(name);
	else
		FAILF(name, "waiters %d lock %d chain %d priv %d size %u", l.offset[0], l.offset[1], l.offset[2],
		      l.offset[3], l.bucket_size);
	snprintf(name, sizeof(name), "dwarf %s: sizes", c->name);
	CHECK(name, l.size[HM_FUTEX_FIELD_WAITERS] == 4 && l.size[HM_FUTEX_FIELD_CHAIN] == 16 &&
	      l.size[HM_FUTEX_FIELD_LOCK] == (c->lock == 4 ? 4 : 24));
	snprintf(name, sizeof(name), "dwarf %s: field at lock+2", c->name);
	CHECK_EQ(name, hm_futex_layout__field(&l, c->lock + 2), HM_FUTEX_FIELD_LOCK);
	return 0;
}

int main(void)
{
	struct hm_futex_layout l;
	struct hm_futex_fph_layout fl;
	struct hm_futex_mm_layout ml;
	char dir[] = "/tmp/hitmap-futex-dwarf.XXXXXX", cmd[2048];
	unsigned i;
	int err;

	/* model layouts */
	hm_futex_layout__for_era(HM_FUTEX_ERA_6_17, &l);
	CHECK("model 6.17: lock at 4", l.offset[HM_FUTEX_FIELD_LOCK] == 4 && l.bucket_size == 64);
	CHECK_EQ("model field +0", hm_futex_layout__field(&l, 0), HM_FUTEX_FIELD_WAITERS);
	CHECK_EQ("model field +23", hm_futex_layout__field(&l, 23), HM_FUTEX_FIELD_CHAIN);
	CHECK_EQ("model field +31", hm_futex_layout__field(&l, 31), HM_FUTEX_FIELD_PRIV);
	CHECK_EQ("model field +32", hm_futex_layout__field(&l, 32), HM_FUTEX_FIELD_PAD);
	hm_futex_layout__for_era(HM_FUTEX_ERA_7, &l);
	CHECK_EQ("model 7.x +24 is padding", hm_futex_layout__field(&l, 24), HM_FUTEX_FIELD_PAD);

	/* DWARF */
	if (!mkdtemp(dir)) {
		FAILF("mkdtemp", "%s", dir);
		TAP_DONE();
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		dwarf_case(dir, i, &cases[i]);
	{
		char p[600];
		FILE *f;

		snprintf(p, sizeof(p), "%s/none.c", dir);
		f = fopen(p, "w");
		if (f) {
			fputs("int x;\n", f);
			fclose(f);
		}
		snprintf(cmd, sizeof(cmd), "${CC:-cc} -g -shared -fPIC %s/none.c -o %s/none.so", dir, dir);
		snprintf(p, sizeof(p), "%s/none.so", dir);
		if (system(cmd))
			SKIP("dwarf: ELF without the struct", "no C compiler");
		else
			CHECK_EQ("dwarf: ELF without the struct", hm_futex_layout__from_dwarf(p, &l), -ENOENT);
	}
	CHECK("dwarf: missing file", hm_futex_layout__from_dwarf("/nonexistent/vmlinux", &l) < 0);

	/* BTF from a file: clang -target bpf -g emits .BTF; use the DEBUG_SPINLOCK variant */
	{
		char src[256], obj[256];

		snprintf(src, sizeof(src), "%s/b3.c", dir);
		snprintf(obj, sizeof(obj), "%s/btf.o", dir);
		snprintf(cmd, sizeof(cmd), "clang -g -O2 -target bpf -DDEBUG_SPINLOCK -c %s -o %s 2>/dev/null", src, obj);
		if (system(cmd)) {
			SKIP("btf file", "no clang with the bpf target");
		} else {
			err = hm_futex_layout__from_btf(obj, &l);
			CHECK("btf file: DEBUG_SPINLOCK offsets", !err && l.offset[HM_FUTEX_FIELD_LOCK] == 8 &&
			      l.offset[HM_FUTEX_FIELD_CHAIN] == 32 && l.offset[HM_FUTEX_FIELD_PRIV] == 48 &&
			      l.bucket_size == 64 && l.size[HM_FUTEX_FIELD_LOCK] == 24);
		}
		/* raw BTF (the vmlinux file itself, copied) */
		snprintf(obj, sizeof(obj), "%s/vmlinux.btf", dir);
		snprintf(cmd, sizeof(cmd), "cp /sys/kernel/btf/vmlinux %s 2>/dev/null", obj);
		if (system(cmd)) {
			SKIP("btf raw file", "no /sys/kernel/btf/vmlinux to copy");
		} else {
			struct hm_futex_layout l2;

			CHECK("btf raw file = live BTF", !hm_futex_layout__from_btf(obj, &l) &&
			      !hm_futex_layout__from_btf(NULL, &l2) && !memcmp(l.offset, l2.offset, sizeof(l.offset)) &&
			      l.bucket_size == l2.bucket_size);
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)!system(cmd);

	/* BTF of the running kernel */
	err = hm_futex_layout__from_btf(NULL, &l);
	if (err == -ENOENT && access("/sys/kernel/btf/vmlinux", R_OK)) {
		SKIP("btf vmlinux", "no /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF off)");
	} else if (err) {
		FAILF("btf vmlinux", "error %d", err);
	} else {
		/* 6.18.44 BTF (notes 2.2): waiters 0, lock 4, chain 8, priv 24, 64 bytes */
		CHECK("btf bucket", l.bucket_size == 64 && l.offset[HM_FUTEX_FIELD_WAITERS] == 0 &&
		      l.offset[HM_FUTEX_FIELD_LOCK] == 4 && l.offset[HM_FUTEX_FIELD_CHAIN] == 8 &&
		      l.size[HM_FUTEX_FIELD_CHAIN] == 16);
		/*
		 * priv sits at 24 on 6.16-6.18 kernels with the back-pointer;
		 * stable 6.18.y carries its removal (a734d9fca84e), so a
		 * running 6.18 may have no priv at all.
		 */
		CHECK("btf priv at 24 or absent", l.offset[HM_FUTEX_FIELD_PRIV] == 24 ||
		      l.offset[HM_FUTEX_FIELD_PRIV] == -1);
		CHECK_STR("btf source", l.source, "btf");
		CHECK("btf fph", !hm_futex_fph_layout__from_btf(NULL, &fl) && fl.queues == 64 &&
		      fl.hash_mask == 4 && fl.mm == 24 && fl.users == 0);
		CHECK("btf mm", !hm_futex_mm_layout__from_btf(NULL, &ml) && ml.task_mm > 0 &&
		      ml.offset[HM_FUTEX_MM_futex_phash] > 0 && ml.size[HM_FUTEX_MM_futex_phash] == 8 &&
		      ml.offset[HM_FUTEX_MM_futex_ref] > ml.offset[HM_FUTEX_MM_futex_phash]);
		/* the mm-reuse fix: futex_unique_id just before futex_hash_lock, or absent */
		CHECK("btf mm futex_unique_id before the hash lock or absent", ml.unique_id == -1 ||
		      (ml.unique_id > 0 && ml.unique_id + 8 <= ml.offset[HM_FUTEX_MM_futex_hash_lock]));
		{
			struct hm_futex_model m;

			CHECK("this machine: MMSHARED keys hash the id exactly when BTF has it",
			      !hm_futex_geometry__this_machine(&m) && m.mm_seq == (ml.unique_id > 0));
			hm_futex_model__release(&m);
		}
	}
	CHECK("btf: bad file", hm_futex_layout__from_btf("/nonexistent.btf", &l) < 0);
	TAP_DONE();
}
