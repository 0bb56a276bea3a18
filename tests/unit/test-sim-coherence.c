// SPDX-License-Identifier: GPL-2.0-only
/* The coherence model: sources of loads, protocol transitions, serialization. */
#include <stdint.h>
#include "tap.h"
#include "sim/coherence.h"

static struct hm_machine m;
static struct hm_coh *c;

static int setup(const char *preset, u32 sockets, u32 cores, u32 smt)
{
	hm_machine__release(&m);
	hm_coh__delete(c);
	c = NULL;
	if (hm_machine__preset(&m, preset) || hm_machine__finish(&m, sockets, cores, smt))
		return -1;
	c = hm_coh__new(&m, 16);
	return c ? 0 : -1;
}

static u8 acc(u32 cpu, u32 line, enum hm_acc a)
{
	struct hm_coh_result r;

	hm_coh__access(c, cpu, line, a, 0, &r);
	return r.src;
}

int main(void)
{
	struct hm_coh_result r;
	u32 l, l2, i, s1cpu, dram_l;

	/* MESIF, 2 sockets x 4 cores: CPUs 0-3 socket 0, 4-7 socket 1 */
	if (setup("srf", 2, 4, 1)) {
		FAILF("setup", "srf 2x4");
		TAP_DONE();
	}
	s1cpu = 4;
	CHECK_EQ("machine cpus", m.nr_cpus, 8);
	CHECK_EQ("cpu 5 socket", m.cpu_socket[5], 1);
	l = hm_coh__line(c, 0xffff888100000000ULL, 0);
	CHECK_EQ("line id stable", hm_coh__line(c, 0xffff888100000020ULL, 0), l);
	CHECK_EQ("find", hm_coh__find(c, 0xffff888100000004ULL), l);
	CHECK_EQ("find absent", hm_coh__find(c, 0xffff888100000040ULL), UINT32_MAX);
	CHECK_EQ("first touch local: dram_local", acc(0, l, HM_ACC_LOAD), HM_SRC_DRAM_LOCAL);
	CHECK_EQ("again: l1", acc(0, l, HM_ACC_LOAD), HM_SRC_L1);
	CHECK_EQ("store on E: owned, l1", acc(0, l, HM_ACC_RMW), HM_SRC_L1);
	CHECK_EQ("other socket reads a modified line: hitm_remote", acc(s1cpu, l, HM_ACC_LOAD),
		 HM_SRC_HITM_REMOTE);
	CHECK_EQ("writer keeps a shared copy: l1", acc(0, l, HM_ACC_LOAD), HM_SRC_L1);
	CHECK_EQ("same socket as the reader: llc", acc(5, l, HM_ACC_LOAD), HM_SRC_LLC);
	CHECK_EQ("socket 1 writes (upgrade of its copy): l1", acc(5, l, HM_ACC_RMW), HM_SRC_L1);
	CHECK_EQ("socket 0 reads again: hitm_remote", acc(1, l, HM_ACC_LOAD), HM_SRC_HITM_REMOTE);
	CHECK_EQ("cpu 2 on socket 0: llc", acc(2, l, HM_ACC_LOAD), HM_SRC_LLC);
	acc(2, l, HM_ACC_STORE);
	CHECK_EQ("same socket modified: hitm_local", acc(3, l, HM_ACC_LOAD), HM_SRC_HITM_LOCAL);
	/* F forwarding: socket 0 has it (F at cpu 3); socket 1 reads clean from remote */
	CHECK_EQ("clean copy on the other socket: hit_remote", acc(6, l, HM_ACC_LOAD), HM_SRC_HIT_REMOTE);
	dram_l = hm_coh__line(c, 0xffff889100000000ULL, 1);
	CHECK_EQ("home on node 1, read from socket 0: dram_remote", acc(0, dram_l, HM_ACC_LOAD),
		 HM_SRC_DRAM_REMOTE);

	/* serialization: two transfers of one line at the same cycle queue */
	l2 = hm_coh__line(c, 0xffff888100001000ULL, 0);
	hm_coh__access(c, 0, l2, HM_ACC_RMW, 1000, &r);
	hm_coh__access(c, 4, l2, HM_ACC_RMW, 5000, &r);
	CHECK_EQ("transfer costs hitm_remote", r.cost, m.lat[HM_SRC_HITM_REMOTE]);
	hm_coh__access(c, 1, l2, HM_ACC_RMW, 5000, &r);
	CHECK_EQ("second transfer at the same cycle waits for the line to be free",
		 r.cost, m.lat[HM_SRC_HITM_REMOTE] + m.lat[HM_SRC_HITM_REMOTE] * m.lat[HM_LAT_OCCUPANCY] / 100);
	printf("# serialized cost %u cycles (hitm_remote %u, occupancy %u%%)\n", r.cost,
	       m.lat[HM_SRC_HITM_REMOTE], m.lat[HM_LAT_OCCUPANCY]);
	m.lat[HM_LAT_OCCUPANCY] = 100;
	hm_coh__access(c, 2, l2, HM_ACC_RMW, 10000, &r);
	hm_coh__access(c, 5, l2, HM_ACC_RMW, 10000, &r);
	CHECK_EQ("occupancy 100%: the next transfer waits for the whole previous one", r.cost,
		 m.lat[HM_SRC_HITM_LOCAL] + m.lat[HM_SRC_HITM_REMOTE]);

	/*
	 * L1 and L2 share a slot (sim.h): a line of the same L1 set but another
	 * L2 set takes L1 alone, and the line it displaced stays in L2.
	 */
	{
		u32 a = hm_coh__line(c, 0xffff888300000000ULL, 0), b = UINT32_MAX, sa = hm_coh__set(a);

		for (i = 1; i < 100000 && b == UINT32_MAX; i++) {
			u32 x = hm_coh__line(c, 0xffff888300000000ULL + 64ULL * i, 0), sx = hm_coh__set(x);

			if ((sx & (m.l1_lines - 1)) == (sa & (m.l1_lines - 1)) &&
			    (sx & (m.l2_lines - 1)) != (sa & (m.l2_lines - 1)))
				b = x;
		}
		acc(0, a, HM_ACC_LOAD);
		acc(0, b, HM_ACC_LOAD);
		CHECK_EQ("same L1 set, other L2 set: l2", acc(0, a, HM_ACC_LOAD), HM_SRC_L2);
		CHECK_EQ("and now in L1", acc(0, a, HM_ACC_LOAD), HM_SRC_L1);
		CHECK_EQ("the other left L1: l2", acc(0, b, HM_ACC_LOAD), HM_SRC_L2);
		CHECK_EQ("store to the L2 copy of an E line: l2", acc(0, a, HM_ACC_STORE) , HM_SRC_L2);
		CHECK_EQ("then in L1, modified", acc(0, a, HM_ACC_RMW), HM_SRC_L1);
	}

	/*
	 * Epochs are kept mod 2^15 in the slots: 32768 ownership changes later a
	 * stale copy must not match again.
	 */
	{
		u32 w = hm_coh__line(c, 0xffff888400000000ULL, 0), e0;

		acc(0, w, HM_ACC_LOAD);
		e0 = c->lines[w].epoch;
		for (i = 0; i < (1u << HM_COH_EP_BITS); i++)
			acc(1 + (i & 1), w, HM_ACC_RMW);
		CHECK_EQ("2^15 ownership changes", c->lines[w].epoch - e0, 1u << HM_COH_EP_BITS);
		CHECK_EQ("a copy 2^15 epochs old is stale: hitm_local", acc(0, w, HM_ACC_LOAD),
			 HM_SRC_HITM_LOCAL);
	}

	/* MOESI: a read of a modified line leaves it Owned, which forwards */
	if (setup("zen4", 2, 16, 1)) {
		FAILF("setup", "zen4 2x16");
		TAP_DONE();
	}
	CHECK_EQ("zen4: 2 CCX per socket of 16 cores", m.llcs, 2);
	CHECK_EQ("zen4: core 9 in CCX 1", m.core_llc[9], 1);
	l = hm_coh__line(c, 0xffff888100000000ULL, 0);
	acc(0, l, HM_ACC_STORE);
	CHECK_EQ("same CCX: hitm_local", acc(1, l, HM_ACC_LOAD), HM_SRC_HITM_LOCAL);
	CHECK_EQ("owner keeps O, other CCX reads: hit_xdie", acc(9, l, HM_ACC_LOAD), HM_SRC_HIT_XDIE);
	acc(9, l, HM_ACC_RMW);
	CHECK_EQ("other CCX modified: hitm_xdie", acc(0, l, HM_ACC_LOAD), HM_SRC_HITM_XDIE);
	CHECK_EQ("other socket: hitm? no, O forwards: hit_remote", acc(16, l, HM_ACC_LOAD), HM_SRC_HIT_REMOTE);

	/* MESI (Arm): a read of a modified line writes it back, clean copies are forwarded */
	if (setup("altra", 2, 4, 1)) {
		FAILF("setup", "altra");
		TAP_DONE();
	}
	l = hm_coh__line(c, 0xffff888100000000ULL, 0);
	acc(0, l, HM_ACC_STORE);
	CHECK_EQ("arm: other socket reads modified: hitm_remote", acc(4, l, HM_ACC_LOAD), HM_SRC_HITM_REMOTE);
	CHECK_EQ("arm: socket 0 core 1: llc", acc(1, l, HM_ACC_LOAD), HM_SRC_LLC);

	/* private capacity: a line evicted from L1 and L2 comes from the LLC */
	l = hm_coh__line(c, 0xffff888200000000ULL, 0);
	acc(0, l, HM_ACC_LOAD);
	for (i = 1; i < 3 * m.l2_lines; i++)
		acc(0, hm_coh__line(c, 0xffff888200000000ULL + 64ULL * i, 0), HM_ACC_LOAD);
	CHECK_EQ("after streaming 3x the L2: llc", acc(0, l, HM_ACC_LOAD), HM_SRC_LLC);
	CHECK("accesses counted", c->nr_accesses > 3 * m.l2_lines);

	hm_coh__delete(c);
	hm_machine__release(&m);
	TAP_DONE();
}
