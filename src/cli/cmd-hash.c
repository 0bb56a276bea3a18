// SPDX-License-Identifier: GPL-2.0-only
/* hitmap hash: which futex hash table, node and bucket a futex address uses. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <hitmap/futex.h>
#include <hitmap/json.h>
#include <hitmap/log.h>
#include "cli.h"
#include "output.h"
#include "util/num.h"

static const char usage_text[] =
"usage: hitmap hash [--kernel VER | --this-machine] [--cpus N] [--nodes N]\n"
"                   [--global-slots N] [--slots N] [--private | --shared]\n"
"                   [--mm PTR | --mm-seq SEQ] [--inode-seq SEQ --pgoff N] [--json] ADDR...\n"
"       hitmap hash --verify [--slots N] [--count N] [--private | --shared] [--by-contention]\n"
"                   [--bpf-obj FILE] [--json]\n"
"       hitmap hash --probe SECONDS [--pid PID] [--bpf-obj FILE] [--json]\n"
"\n"
"Print the futex hash table, node and bucket index the kernel uses for each\n"
"futex user address ADDR (hex).  --verify checks the model against the\n"
"running kernel by observation (root, BPF) and prints the agreement rate.\n"
"\n"
"  --kernel VER       kernel release whose hash to model (6.12, 6.16, 6.18.44, 7.3)\n"
"  --this-machine     the running kernel: release, CPUs, nodes, boot log, BTF\n"
"  --cpus N           possible CPUs (global table size), default 1\n"
"  --nodes N          possible NUMA nodes (6.16+: tables), default 1\n"
"  --global-slots N   global table size per node instead of the formula\n"
"  --slots N          private hash slots (prctl PR_FUTEX_HASH), default 16; 0: global hash\n"
"  --private          FUTEX_PRIVATE_FLAG futexes (default)\n"
"  --shared           shared futexes on anonymous memory (key: mm or mm sequence)\n"
"  --mm PTR           the process's mm_struct pointer (hex) for global-table keys\n"
"  --mm-seq SEQ       the mm sequence number (7.x, 6.12.115+)\n"
"  --inode-seq SEQ    shared futex in a file/shmem page: inode sequence number\n"
"  --pgoff N          ... and its page index in the file\n"
"  --verify           live check on this kernel\n"
"  --count N          --verify: futex addresses to try (1000)\n"
"  --by-contention    --verify: observe lock:contention_begin of a hammered\n"
"                     bucket instead of a parked waiter\n"
"  --bpf-obj FILE     --verify/--probe: compiled src/futex/verify.bpf.c\n"
"  --probe SECONDS    watch futex calls (BPF) and print the tables found, as\n"
"                     --futex-table specs for hitmap report\n"
"  --pid PID          --probe: only this process (default: all)\n"
"  --json             JSON output\n";

enum { O_KERNEL = 256, O_THIS, O_CPUS, O_NODES, O_GSLOTS, O_SLOTS, O_PRIVATE, O_SHARED,
       O_MM, O_MMSEQ, O_ISEQ, O_PGOFF, O_VERIFY, O_COUNT, O_BPF, O_JSON, O_PROBE, O_PID, O_BYCONT };

static const struct option longopts[] = {
	{ "kernel", required_argument, NULL, O_KERNEL },
	{ "this-machine", no_argument, NULL, O_THIS },
	{ "cpus", required_argument, NULL, O_CPUS },
	{ "nodes", required_argument, NULL, O_NODES },
	{ "global-slots", required_argument, NULL, O_GSLOTS },
	{ "slots", required_argument, NULL, O_SLOTS },
	{ "private", no_argument, NULL, O_PRIVATE },
	{ "shared", no_argument, NULL, O_SHARED },
	{ "mm", required_argument, NULL, O_MM },
	{ "mm-seq", required_argument, NULL, O_MMSEQ },
	{ "inode-seq", required_argument, NULL, O_ISEQ },
	{ "pgoff", required_argument, NULL, O_PGOFF },
	{ "verify", no_argument, NULL, O_VERIFY },
	{ "count", required_argument, NULL, O_COUNT },
	{ "bpf-obj", required_argument, NULL, O_BPF },
	{ "json", no_argument, NULL, O_JSON },
	{ "probe", required_argument, NULL, O_PROBE },
	{ "pid", required_argument, NULL, O_PID },
	{ "by-contention", no_argument, NULL, O_BYCONT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int num(const char *opt, const char *s, int base, u64 *v)
{
	if (!s || !*s || *s == '-')
		return hm_cli__error("%s '%s': expected a non-negative number", opt, s ? s : "");
	if (hm_num__parse_u64(s, base, UINT64_MAX, v))
		return hm_cli__error("%s '%s': expected a%s number", opt, s, base == 16 ? " hex" : "");
	return 0;
}

static int pow2(const char *opt, u64 v, bool zero_ok)
{
	if ((v == 0 && !zero_ok) || (v & (v - 1)))
		return hm_cli__error("%s %" PRIu64 ": must be a power of two", opt, v);
	return 0;
}

static void print_result(const char *name, const struct hm_futex_verify_result *r, int err,
			 struct hm_json *j)
{
	double rate = r->tried ? 100.0 * r->agreed / r->tried : 0;

	if (j) {
		hm_json__obj_begin(j, name);
		hm_json__bool(j, "ran", !err);
		hm_json__u64(j, "tried", r->tried);
		hm_json__u64(j, "observed", r->observed);
		hm_json__u64(j, "agreed", r->agreed);
		hm_json__double(j, "agreement", r->tried ? rate / 100 : 0);
		hm_json__u64(j, "slots", r->slots);
		hm_json__hex(j, "table_base", r->table_base);
		hm_json__str(j, "how", r->how);
		if (err)
			hm_json__str(j, "error", hm_log__last_error());
		hm_json__obj_end(j);
		return;
	}
	if (err) {
		printf("%-8s not checked: %s\n", name, hm_log__last_error() ? hm_log__last_error() : strerror(-err));
		return;
	}
	printf("%-8s %u addresses, %u observed, %u agree: %.2f%% (%" PRIu64 " slots, table 0x%" PRIx64 "; %s)\n",
	       name, r->tried, r->observed, r->agreed, rate, r->slots, r->table_base, r->how);
}

static int do_verify(struct hm_futex_verify_opts *vo, bool json)
{
	struct hm_futex_verify_result pr, sr, rr;
	struct hm_json *j = NULL;
	int err, errp = 0, errs = 0, errr = 0;

	/* first, before any thread exists here: the slot rules, in a child */
	if (vo->do_private)
		errr = hm_futex__verify_prctl(&rr);

	/* run the two checks separately so one failing does not hide the other */
	if (vo->do_private) {
		struct hm_futex_verify_opts o = *vo;

		o.do_shared = false;
		errp = hm_futex__verify(&o, &pr, NULL);
		if (errp && !json)
			print_result("private", &pr, errp, NULL), fflush(stdout);
	}
	if (vo->do_shared) {
		struct hm_futex_verify_opts o = *vo;

		o.do_private = false;
		errs = hm_futex__verify(&o, NULL, &sr);
	}
	if (json) {
		j = hm_json__new(stdout, true);
		hm_json__obj_begin(j, NULL);
		if (vo->do_private)
			print_result("private", &pr, errp, j);
		if (vo->do_shared)
			print_result("shared", &sr, errs, j);
		if (vo->do_private)
			print_result("prctl", &rr, errr, j);
		hm_json__obj_end(j);
		hm_json__delete(j);
	} else {
		if (vo->do_private && !errp)
			print_result("private", &pr, 0, NULL);
		if (vo->do_shared)
			print_result("shared", &sr, errs, NULL);
		if (vo->do_private) {
			if (errr)
				print_result("prctl", &rr, errr, NULL);
			else
				printf("prctl    %u steps, %u agree with the slot rules (%s)\n", rr.tried, rr.agreed, rr.how);
		}
	}
	err = (vo->do_private && errp) || (vo->do_shared && errs && errs != -ENOSYS);
	if (vo->do_private && !errr && rr.agreed != rr.tried)
		err = 1;
	if ((vo->do_private && !errp && pr.tried && pr.agreed * 100 < pr.tried * 99) ||
	    (vo->do_shared && !errs && sr.tried && sr.agreed * 100 < sr.tried * 99))
		err = 1;
	return err ? 1 : 0;
}

static int do_probe(const char *bpf, u64 secs, u64 pid, bool json)
{
	struct hm_futex_model m;
	struct hm_futex_probe *p;
	struct hm_json *j = NULL;
	char spec[96];
	u32 i;
	int n, err;

	err = hm_futex_geometry__this_machine(&m);
	if (err)
		return hm_cli__lib_error(err, "--probe");
	p = hm_futex_probe__new(bpf, (s32)pid);
	if (!p) {
		hm_futex_model__release(&m);
		return hm_cli__lib_error(-errno, "--probe");
	}
	sleep(secs);
	n = hm_futex_probe__collect(p, &m);
	hm_futex_probe__delete(p);
	if (json) {
		j = hm_json__new(stdout, true);
		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "era", hm_futex_era__name(m.era));
		hm_json__u64(j, "global_slots", m.global_slots);
		hm_json__u64(j, "nodes", m.nr_nodes);
		hm_json__arr_begin(j, "tables");
	} else {
		printf("# %d futex table%s seen in %" PRIu64 " s (global: %" PRIu64 " buckets x %u node%s)\n", n, n == 1 ? "" : "s",
		       secs, m.global_slots, m.nr_nodes, m.nr_nodes == 1 ? "" : "s");
	}
	for (i = 0; i < m.nr_tables; i++) {
		const struct hm_futex_table *t = &m.tables[i];

		hm_futex_table__format(t, spec, sizeof(spec));
		if (j) {
			hm_json__obj_begin(j, NULL);
			hm_json__str(j, "spec", spec);
			hm_json__str(j, "kind", t->kind ? "private" : "global");
			hm_json__s64(j, t->kind ? "pid" : "node", t->kind ? t->pid : t->node);
			hm_json__hex(j, "base", t->base);
			hm_json__u64(j, "slots", t->slots);
			hm_json__str(j, "provenance", t->provenance);
			hm_json__obj_end(j);
		} else {
			printf("--futex-table %-44s # %s\n", spec, t->provenance);
		}
	}
	if (j) {
		hm_json__arr_end(j);
		hm_json__arr_begin(j, "mms");
		for (i = 0; i < m.nr_mms; i++) {
			hm_json__obj_begin(j, NULL);
			hm_json__s64(j, "pid", m.mms[i].pid);
			hm_json__hex(j, "mm", m.mms[i].addr);
			hm_json__obj_end(j);
		}
		hm_json__arr_end(j);
		hm_json__obj_end(j);
		hm_json__delete(j);
	}
	hm_futex_model__release(&m);
	return n < 0 ? 1 : 0;
}

static int cmd_hash(int argc, char **argv)
{
	struct hm_futex_verify_opts vo = { .nr_addrs = 1000, .slots = 16, .do_private = true };
	struct hm_futex_model m;
	const char *kernel = NULL;
	bool this_machine = false, shared = false, json = false, verify = false, slots_set = false;
	bool have_mm = false, have_seq = false, have_iseq = false, have_pgoff = false, priv_set = false;
	bool shared_set = false;
	u64 cpus = 1, nodes = 1, gslots = 0, slots = 16, mm = 0, mmseq = 0, iseq = 0, pgoff = 0, v;
	struct hm_json *j = NULL;
	u64 probe = 0, pid = 0;
	int c, i, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			hm_cli__usage(usage_text);
			return 0;
		case O_KERNEL: kernel = optarg; break;
		case O_THIS: this_machine = true; break;
		case O_CPUS:
			if (num("--cpus", optarg, 10, &cpus)) return 2;
			if (!cpus || cpus > 65536) return hm_cli__usage_error("--cpus %s: give 1..65536", optarg);
			break;
		case O_NODES:
			if (num("--nodes", optarg, 10, &nodes)) return 2;
			if (!nodes || nodes > 4096) return hm_cli__usage_error("--nodes %s: give 1..4096", optarg);
			break;
		case O_GSLOTS:
			if (num("--global-slots", optarg, 0, &gslots) || pow2("--global-slots", gslots, false)) return 2;
			break;
		case O_SLOTS:
			if (num("--slots", optarg, 0, &slots) || pow2("--slots", slots, true)) return 2;
			if (slots == 1) return hm_cli__usage_error("--slots 1: the kernel refuses 1 (EINVAL); give 0 or 2, 4, 8...");
			slots_set = true;
			break;
		case O_PRIVATE:
			if (shared_set)
				return hm_out__conflict("--shared", "--private");
			if (have_iseq)
				return hm_out__conflict("--inode-seq", "--private");
			shared = false;
			priv_set = true;
			break;
		case O_SHARED:
			if (priv_set)
				return hm_out__conflict("--private", "--shared");
			shared = true;
			shared_set = true;
			break;
		case O_MM: if (num("--mm", optarg, 16, &mm)) return 2; have_mm = true; break;
		case O_MMSEQ: if (num("--mm-seq", optarg, 0, &mmseq)) return 2; have_seq = true; break;
		case O_ISEQ:
			if (num("--inode-seq", optarg, 0, &iseq)) return 2;
			if (priv_set)	/* a file futex is a shared one */
				return hm_out__conflict("--private", "--inode-seq");
			have_iseq = true;
			shared = true;
			break;
		case O_PGOFF: if (num("--pgoff", optarg, 0, &pgoff)) return 2; have_pgoff = true; break;
		case O_VERIFY: verify = true; break;
		case O_COUNT:
			if (num("--count", optarg, 10, &v)) return 2;
			if (!v || v > 100000) return hm_cli__usage_error("--count %s: give 1..100000", optarg);
			vo.nr_addrs = v;
			break;
		case O_BPF: vo.bpf_obj = optarg; break;
		case O_BYCONT: vo.by_contention = true; break;
		case O_JSON: json = true; break;
		case O_PROBE:
			if (num("--probe", optarg, 10, &probe)) return 2;
			if (!probe || probe > 3600) return hm_cli__usage_error("--probe %s: give 1..3600 seconds", optarg);
			break;
		case O_PID:
			if (num("--pid", optarg, 10, &pid)) return 2;
			if (!pid || pid > INT32_MAX) return hm_cli__usage_error("--pid %s: not a process id", optarg);
			break;
		default:
			return hm_cli__bad_option("hash", longopts, argv, c);
		}
	}
	if (probe) {
		if (optind < argc || verify)
			return hm_cli__usage_error("--probe takes no addresses and no --verify");
		return do_probe(vo.bpf_obj, probe, pid, json);
	}
	if (verify) {
		if (optind < argc)
			return hm_cli__usage_error("--verify picks its own addresses; drop '%s'", argv[optind]);
		vo.slots = slots_set ? slots : 16;
		vo.do_private = !shared || priv_set;
		vo.do_shared = shared || !priv_set;
		if (shared && !priv_set)
			vo.do_private = false;
		return do_verify(&vo, json);
	}
	if (optind >= argc && !this_machine)
		return hm_cli__usage_error("no futex address given; e.g. 'hitmap hash --kernel 6.18 0x7f0000001000'");
	if (kernel && this_machine)
		return hm_cli__usage_error("--kernel and --this-machine exclude each other; give one");
	if (have_iseq != have_pgoff)
		return hm_cli__usage_error("--inode-seq and --pgoff go together: a file futex's key is (inode seq, page index)");
	for (i = optind; i < argc; i++) {	/* all addresses valid before any output */
		u64 a;

		if (num("ADDR", argv[i], 16, &a))
			return 2;
		if (a & 3)
			return hm_cli__usage_error("ADDR %s: a futex is 4-byte aligned (the kernel returns EINVAL)", argv[i]);
	}
	struct hm_futex_kernel kr;
	struct utsname un;

	if (this_machine) {
		rc = hm_futex_geometry__this_machine(&m);
		if (rc)
			return hm_cli__lib_error(rc, "--this-machine");
		if (uname(&un) || hm_futex_kernel__parse(un.release, &kr))
			kr.private_hash = true;
	} else {
		if (hm_futex_kernel__parse(kernel ? kernel : "6.18", &kr))
			return hm_cli__usage_error("--kernel '%s': expected a release like 6.12.117, 6.16 or 7.3", kernel);
		hm_futex_model__init(&m, kr.era);
		m.mm_seq = kr.mm_seq;
		m.word_first = kr.word_first;
		hm_futex_model__set_machine(&m, cpus, nodes);
	}
	if (gslots)
		m.global_slots = gslots;
	if (!kr.private_hash && !shared) {
		/* before 6.16, and 6.16 final (FUTEX_PRIVATE_HASH depends on BROKEN) */
		if (slots_set && slots) {
			hm_futex_model__release(&m);
			return hm_cli__error("--slots %" PRIu64 ": kernel %s has no private futex hash; private futexes use the global table",
					     slots, kernel ? kernel : "of this machine");
		}
		slots = 0;
	}
	if (json) {
		j = hm_json__new(stdout, true);
		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "era", hm_futex_era__name(m.era));
		hm_json__u64(j, "global_slots", m.global_slots);
		hm_json__u64(j, "nodes", m.nr_nodes);
		hm_json__obj_begin(j, "layout");
		hm_json__str(j, "source", m.layout.source);
		hm_json__u64(j, "bucket_size", m.layout.bucket_size);
		for (int f = 0; f < HM_FUTEX_FIELD_PAD; f++)
			if (m.layout.offset[f] >= 0)
				hm_json__u64(j, hm_futex_field__name(f), m.layout.offset[f]);
		hm_json__obj_end(j);
		hm_json__arr_begin(j, "futexes");
	} else {
		printf("# era %s, global table %" PRIu64 " buckets x %u node%s, %s futexes%s\n",
		       hm_futex_era__name(m.era), m.global_slots, m.nr_nodes, m.nr_nodes == 1 ? "" : "s",
		       shared ? (have_iseq ? "shared file" : "shared anonymous") : "private",
		       !shared && slots ? "" : "");
		printf("# bucket layout (%s, %u bytes):", m.layout.source, m.layout.bucket_size);
		for (int f = 0; f < HM_FUTEX_FIELD_PAD; f++)
			if (m.layout.offset[f] >= 0)
				printf(" %s+%d", hm_futex_field__name(f), m.layout.offset[f]);
		printf("\n");
		if (optind < argc)
			printf("%-18s %-8s %-5s %-8s %-10s %s\n", "ADDR", "TABLE", "NODE", "INDEX", "HASH", "NOTE");
	}
	for (i = optind; i < argc; i++) {
		struct hm_futex_key k;
		const char *table, *note = "";
		char nodebuf[16] = "-", idxbuf[24] = "?", hashbuf[16] = "?";
		bool known = true;
		u64 addr, idx = 0;
		u32 node = 0, h = 0;

		addr = strtoull(argv[i], NULL, 16);
		if (!shared && slots) {
			hm_futex_key__private(&k, mm, addr);
			h = hm_futex_key__hash_private(&k);
			idx = h & (slots - 1);
			table = "private";
			note = "node: that of the thread that allocated the hash";
		} else {
			table = "global";
			if (have_iseq)
				hm_futex_key__shared_file(&k, iseq, pgoff, addr);
			else if (shared)
				hm_futex_key__shared_anon(&k, m.mm_seq ? mmseq : mm, addr);
			else
				hm_futex_key__private(&k, mm, addr);
			if (!have_iseq && !(m.mm_seq && shared ? have_seq : have_mm)) {
				known = false;
				note = m.mm_seq && shared ? "index unknown: the key holds the mm sequence number; give --mm-seq"
							  : "index unknown: the key holds the mm pointer; give --mm";
			} else {
				h = m.word_first ? hm_futex_key__hash_word_first(&k) : hm_futex_key__hash(&k);
				hm_futex__hash_global(&m, &k, &node, &idx);
			}
		}
		if (known) {
			snprintf(idxbuf, sizeof(idxbuf), "%" PRIu64, idx);
			snprintf(hashbuf, sizeof(hashbuf), "0x%08x", h);
			if (!strcmp(table, "global"))
				snprintf(nodebuf, sizeof(nodebuf), "%u", node);
		}
		if (j) {
			hm_json__obj_begin(j, NULL);
			hm_json__hex(j, "addr", addr);
			hm_json__str(j, "table", table);
			if (known && !strcmp(table, "global"))
				hm_json__u64(j, "node", node);
			else
				hm_json__str(j, "node", NULL);
			if (known) {
				hm_json__u64(j, "index", idx);
				hm_json__hex(j, "hash", h);
			} else {
				hm_json__str(j, "index", NULL);
				hm_json__str(j, "hash", NULL);
			}
			hm_json__u64(j, "slots", !strcmp(table, "private") ? slots : m.global_slots);
			hm_json__u64(j, "offset", k.offset);
			if (*note)
				hm_json__str(j, "note", note);
			hm_json__obj_end(j);
		} else {
			printf("0x%-16" PRIx64 " %-8s %-5s %-8s %-10s %s\n", addr, table, nodebuf, idxbuf, hashbuf, note);
		}
	}
	if (j) {
		hm_json__arr_end(j);
		hm_json__obj_end(j);
		hm_json__delete(j);
	}
	hm_futex_model__release(&m);
	return rc;
}

HM_COMMAND("hash", "futex hash table, node and bucket of futex addresses; --verify live", cmd_hash)
