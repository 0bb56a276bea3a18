// SPDX-License-Identifier: GPL-2.0-only
/*
 * hm-kern-gen -o FILE --text ADDR --ip ADDR[,ADDR...] --data ADDR [--build-id HEX] [-n N]
 *             [--far ADDR --pre N --post N] [--round N]:
 * a perf.data of kernel-mode memory samples (perf c2c record on a Xeon Gold
 * 6148) for kernel symbol tests: the kernel MMAP "[kernel.kallsyms]_text"
 * at @text (pgoff @text, so no KASLR slide, 16 MB), its build-id in the
 * header when given, and N rounds of a local-HITM load and a store by each
 * code address, on two CPUs, to the cache line of @data.
 *
 * --far: --pre rounds before those and --post rounds after them whose code
 * and data are at @far (past the MMAP's 16 MB, in kallsyms' range): perf
 * finds no map for them before the first lookup in the kernel map widens it
 * to kallsyms' range, and the kernel map after.  --round: a FINISHED_ROUND
 * every N rounds (else one at the end), so that the file can be cut.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen-common.h"

#define TOOL "hm-kern-gen"
#define P(a, b) PERF_MEM_S(a, b)

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "text", required_argument, NULL, 't' },
		{ "ip", required_argument, NULL, 'p' },
		{ "data", required_argument, NULL, 'd' },
		{ "build-id", required_argument, NULL, 'b' },
		{ "far", required_argument, NULL, 'f' },
		{ "pre", required_argument, NULL, 'P' },
		{ "post", required_argument, NULL, 'Q' },
		{ "round", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	u64 text = 0, data = 0, ips[16], time = 1000000000ull;
	u64 ids0[4] = { 101, 102, 103, 104 }, ids1[4] = { 201, 202, 203, 204 };
	struct perf_event_attr a0 = gen_mem_attr(0x1cd, 30, true), a1 = gen_mem_attr(0x82d0, 0, false);
	struct hm_build_id bid;
	struct gen_host host;
	struct hm_header h;
	struct hm_writer *w;
	int c, nips = 0, n = 50, err = 0, pre = 0, post = 0, round = 0, nr = 0;
	u64 far = 0;
	char *s, *save = NULL;

	memset(&bid, 0, sizeof(bid));
	while ((c = getopt_long(argc, argv, "o:n:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'n': n = atoi(optarg); break;
		case 't': text = strtoull(optarg, NULL, 0); break;
		case 'd': data = strtoull(optarg, NULL, 0); break;
		case 'f': far = strtoull(optarg, NULL, 0); break;
		case 'P': pre = atoi(optarg); break;
		case 'Q': post = atoi(optarg); break;
		case 'R': round = atoi(optarg); break;
		case 'p':
			for (s = strtok_r(optarg, ",", &save); s && nips < 16; s = strtok_r(NULL, ",", &save))
				ips[nips++] = strtoull(s, NULL, 0);
			break;
		case 'b':
			for (s = optarg; s[0] && s[1] && bid.size < 20; s += 2) {
				char hx[3] = { s[0], s[1], 0 };

				bid.id[bid.size++] = (u8)strtoul(hx, NULL, 16);
			}
			break;
		default: return 2;
		}
	}
	if (!out || !text || !data || !nips || ((pre || post) && !far)) {
		fprintf(stderr, "usage: " TOOL " -o FILE --text ADDR --ip ADDR[,ADDR...] --data ADDR [--build-id HEX] [-n N]\n"
			"                   [--far ADDR --pre N --post N] [--round N]\n");
		return 2;
	}
	gen_host__header(&host, &h, TOOL, "6.1.0-" TOOL, true);
	if (bid.size) {
		bid.pid = -1;
		bid.misc = PERF_RECORD_MISC_KERNEL;
		bid.filename = "[kernel.kallsyms]";
		h.nr_build_ids = 1;
		h.build_ids = &bid;
	}
	w = gen_writer__open(TOOL, out, &h, &a0, "cpu/mem-loads,ldlat=30/P", ids0,
			     &a1, "cpu/mem-stores/P", ids1, 4242, "kworker");
	if (!w)
		return 1;
	err = hm_writer__write_mmap2(w, (u32)-1, 0, text, 0x1000000, text, 5, 0,
				     "[kernel.kallsyms]_text", PERF_RECORD_MISC_KERNEL);
	for (int r = 0; r < pre + n + post && !err; r++) {
		bool at_far = r < pre || r >= pre + n;

		if (round && r && r % round == 0)
			err = hm_writer__write_finished_round(w);
		for (int i = 0; i < (at_far ? 1 : nips) && !err; i++)
			for (int st = 0; st < 2 && !err; st++) {
				struct hm_sample smp;

				memset(&smp, 0, sizeof(smp));
				smp.misc = PERF_RECORD_MISC_KERNEL;
				smp.cpu = (u32)((r + i + st) % 2);
				smp.pid = 4242;
				smp.tid = 4242 + smp.cpu;
				smp.time = time += 1000;
				smp.period = 1;
				smp.ip = at_far ? far : ips[i];
				smp.addr = at_far ? far + 64 * (u64)(nr++ % 64) : data + 8 * i;
				smp.id = st ? ids1[smp.cpu] : ids0[smp.cpu];
				if (st) {
					smp.data_src = P(OP, STORE) | P(LVL, HIT) | P(LVL, L1) | P(SNOOP, NA) |
						       P(TLB, NA) | P(LOCK, NA);
				} else {
					smp.weight = 150;
					smp.data_src = P(OP, LOAD) | P(LVL, HIT) | P(LVL, L3) | P(SNOOP, HITM) |
						       P(TLB, L1) | P(TLB, HIT) | P(LOCK, NA);
				}
				err = hm_writer__write_sample(w, st, &smp);
			}
	}
	return gen_writer__finish(w, err, true, TOOL, out);
}
