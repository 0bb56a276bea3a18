// SPDX-License-Identifier: GPL-2.0-only
/* Machine presets, reshaping, CPU numbering and latency overrides. */
#include <string.h>
#include "tap.h"
#include "sim/sim.h"

int main(void)
{
	struct hm_machine m;
	int i;

	memset(&m, 0, sizeof(m));
	CHECK_EQ("srf preset", hm_machine__preset(&m, "srf"), 0);
	CHECK_EQ("srf finish", hm_machine__finish(&m, 0, 0, 0), 0);
	CHECK_EQ("srf: 192 CPUs", m.nr_cpus, 192);
	CHECK_EQ("srf: 2 sockets", m.sockets, 2);
	CHECK_EQ("srf: CPU 95 on socket 0", m.cpu_socket[95], 0);
	CHECK_EQ("srf: CPU 96 on socket 1", m.cpu_socket[96], 1);
	CHECK_EQ("srf: MESIF", m.proto, HM_PROTO_MESIF);
	CHECK_EQ("srf: Crestmont PEBS", m.pmu, HM_PMU_INTEL_CMT);
	CHECK_EQ("override hitm_remote", hm_machine__set_latency(&m, "hitm_remote=999"), 0);
	CHECK_EQ("override applied", m.lat[HM_SRC_HITM_REMOTE], 999);
	CHECK_STR("override source", m.lat_source[HM_SRC_HITM_REMOTE], "--latency");
	CHECK("override bad name", hm_machine__set_latency(&m, "nope=3") < 0);
	CHECK("override no value", hm_machine__set_latency(&m, "l1") < 0);
	CHECK("override zero", hm_machine__set_latency(&m, "l1=0") < 0);
	CHECK("override junk", hm_machine__set_latency(&m, "l1=3x") < 0);
	for (i = 0; i < HM_LAT__MAX; i++)
		if (!hm_lat__name(i) || !m.lat[i] || !m.lat_source[i])
			break;
	CHECK_EQ("every latency has a name, a value and a source", i, HM_LAT__MAX);
	hm_machine__release(&m);

	CHECK_EQ("skx preset", hm_machine__preset(&m, "skx"), 0);
	CHECK_EQ("skx finish", hm_machine__finish(&m, 0, 0, 0), 0);
	CHECK_EQ("skx: 112 CPUs", m.nr_cpus, 112);
	CHECK_EQ("skx: CPU 56 is the sibling of CPU 0", m.cpu_core[56], m.cpu_core[0]);
	CHECK_EQ("skx: CPU 28 on socket 1", m.cpu_socket[28], 1);
	hm_machine__release(&m);

	CHECK_EQ("zen4 preset", hm_machine__preset(&m, "zen4"), 0);
	CHECK_EQ("zen4 finish", hm_machine__finish(&m, 0, 0, 0), 0);
	CHECK_EQ("zen4: 384 CPUs", m.nr_cpus, 384);
	CHECK_EQ("zen4: 24 CCX", m.nr_llcs, 24);
	CHECK_EQ("zen4: core 8 in CCX 1", m.core_llc[8], 1);
	CHECK_EQ("zen4: core 96 in CCX 12 (socket 1)", m.core_llc[96], 12);
	CHECK_EQ("zen4: MOESI", m.proto, HM_PROTO_MOESI);
	hm_machine__release(&m);

	CHECK_EQ("altra preset", hm_machine__preset(&m, "altra"), 0);
	CHECK_EQ("altra reshaped to 1 socket", hm_machine__finish(&m, 1, 16, 1), 0);
	CHECK_EQ("altra: 16 CPUs", m.nr_cpus, 16);
	CHECK_EQ("altra: MESI", m.proto, HM_PROTO_MESI);
	CHECK_STR("altra: aarch64", m.arch, "aarch64");
	hm_machine__release(&m);

	/* the host's calibration: the measured op less its one-thread memory cost */
	{
		struct hm_sim_tmpl tp = { .n = 4 };
		/* one CPU twice: no transfer to measure, the vendor's figure stays */
		struct hm_host h = { .base = "skx", .nr_pkgs = 1, .nr_cores = 2, .nr_cpus = 2, .mhz = 2000,
				     .xfer_cpu = { 0, 0 } };
		u32 hitm;

		tp.st[0].acc = HM_ACC_LOAD;
		tp.st[1].acc = HM_ACC_RMW;
		tp.st[2].acc = HM_ACC_STORE;
		tp.st[3].acc = HM_ACC_LOAD;
		CHECK_EQ("skx for host", hm_machine__preset(&m, "skx"), 0);
		hitm = m.lat[HM_SRC_HITM_LOCAL];
		hm_machine__host(&m, &h);
		CHECK("host: the futex op was timed", m.host_op > 100);
		CHECK_EQ("host: one CPU twice, hitm_local stays the vendor's", m.lat[HM_SRC_HITM_LOCAL], hitm);
		CHECK("host: ... and its source too", strncmp(m.lat_source[HM_SRC_HITM_LOCAL], "measured", 8) != 0);
		CHECK("host: ... and the desc claims no transfer measured", !strstr(m.desc, "core-to-core"));
		m.host_op = 1000;
		hm_machine__host_calibrate(&m, &tp);
		CHECK_EQ("host: syscall = op - 3 L1 - 1 store", m.lat[HM_LAT_SYSCALL], 1000 - 3 * m.lat[HM_SRC_L1] - m.lat[HM_LAT_STORE]);
		CHECK("host: the desc says so", strstr(m.desc, "futex op 1000 cycles (measured)") != NULL);
		CHECK_EQ("host: pin it", hm_machine__set_latency(&m, "syscall=300"), 0);
		hm_machine__host_calibrate(&m, &tp);
		CHECK_EQ("host: --latency syscall wins", m.lat[HM_LAT_SYSCALL], 300);
		m.host_op = 5;
		m.lat_source[HM_LAT_SYSCALL] = "measured";
		hm_machine__host_calibrate(&m, &tp);
		CHECK_EQ("host: never below 1 cycle", m.lat[HM_LAT_SYSCALL], 1);
		hm_machine__release(&m);
	}

	CHECK("unknown preset", hm_machine__preset(&m, "pentium") < 0);
	CHECK_EQ("srf again", hm_machine__preset(&m, "srf"), 0);
	CHECK("17 sockets refused", hm_machine__finish(&m, 17, 0, 0) < 0);
	CHECK("too many LLC domains refused", hm_machine__preset(&m, "zen4") == 0 &&
	      hm_machine__finish(&m, 8, 96, 1) < 0);
	hm_machine__release(&m);
	hm_machine__release(NULL);
	TAP_DONE();
}
