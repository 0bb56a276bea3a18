// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event planning against fixture sysfs trees (tests/fixtures/sysfs/<machine>):
 * the attrs perf 6.1's 'perf c2c record' builds there (notes/pmu-sysfs.md s5-6).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <hitmap/log.h>
#include "record/pmu.h"
#include "tap.h"

#define ROOT "tests/fixtures/sysfs/"

static unsigned long long flags(const struct perf_event_attr *a)
{
	unsigned long long f;

	memcpy(&f, (const char *)a + offsetof(struct perf_event_attr, read_format) + 8, 8);
	return f;
}

static int plan(const char *m, struct hm_pmu_plan *p, bool sw, int ldlat, u64 period, bool user)
{
	struct hm_pmu_plan_opts o = {
		.sysfs_root = m, .mode = HM_MODE_AUTO, .ldlat = ldlat, .period = period,
		.system_wide = sw, .user_only = user,
	};

	return hm_pmu__plan(&o, p);
}

struct want {
	u32 type;
	unsigned long long config, config1, config2;
	int precise, expect;
	unsigned long long sample_type, read_format, flags;
	int leader;
};

static void check_plan(const char *tag, const struct hm_pmu_plan *p, enum hm_rec_mode mode,
		       const struct want *w, int n)
{
	char name[160];
	int i;

	snprintf(name, sizeof(name), "%s: mode", tag);
	CHECK_EQ(name, p->mode, mode);
	snprintf(name, sizeof(name), "%s: number of events", tag);
	CHECK_EQ(name, p->nr, n);
	for (i = 0; i < n && i < p->nr; i++) {
		const struct perf_event_attr *a = &p->ev[i].attr;

#define F(field, val) do { snprintf(name, sizeof(name), "%s: ev%d (%s) " #field, tag, i, p->ev[i].name); \
		CHECK_EQ(name, (long long)(val), (long long)w[i].field); } while (0)
		F(type, a->type);
		F(config, a->config);
		F(config1, a->config1);
		F(config2, a->config2);
		F(precise, a->precise_ip);
		F(expect, p->ev[i].expect_precise);
		F(sample_type, a->sample_type);
		F(read_format, a->read_format);
		F(flags, flags(a));
		F(leader, p->ev[i].leader);
#undef F
	}
}

int main(void)
{
	struct hm_pmu_plan p;
	int err;

	/* Skylake-SP: loads 0x1cd/0x1f p3 (tracking), stores 0x82d0 (s5.3.1) */
	{
		static const struct want w[] = {
			{ 4, 0x1cd, 0x1f, 0, 3, 3, 0x10881cf, 0x14, 0x6187b703, -1 },
			{ 4, 0x82d0, 0, 0, 3, 3, 0x10881cf, 0x14, 0x59403, -1 },
		};
		err = plan(ROOT "skylake-sp", &p, false, -1, 0, false);
		CHECK_EQ("skylake-sp: plan", err, 0);
		check_plan("skylake-sp", &p, HM_MODE_PEBS, w, 2);
		CHECK_STR("skylake-sp: no cpus file, every CPU", p.ev[0].cpus, "");
		CHECK_EQ("skylake-sp: sample_freq 4000", p.ev[0].attr.sample_freq, 4000);
	}
	/* Skylake-SP -a: IDENTIFIER, no enable_on_exec, dummy with the tracking flags */
	{
		static const struct want w[] = {
			{ 4, 0x1cd, 0x1f, 0, 3, 3, 0x109818f, 0x14, 0x58403, -1 },
			{ 4, 0x82d0, 0, 0, 3, 3, 0x109818f, 0x14, 0x58403, -1 },
			{ 1, 9, 0, 0, 0, 0, 0x109808f, 0x14, 0x61862302, -1 },
		};
		err = plan(ROOT "skylake-sp", &p, true, -1, 0, false);
		CHECK_EQ("skylake-sp -a: plan", err, 0);
		check_plan("skylake-sp -a", &p, HM_MODE_PEBS, w, 3);
		CHECK_EQ("skylake-sp -a: dummy period 1", p.ev[2].attr.sample_period, 1);
	}
	/* -l 50: config1 = 3 | 50 (the alias ldlat=3 OR-ed in, s5.2); -c; -u */
	err = plan(ROOT "skylake-sp", &p, false, 50, 0, false);
	CHECK_EQ("skylake-sp -l 50: config1 0x33", p.ev[0].attr.config1, 0x33);
	err = plan(ROOT "skylake-sp", &p, false, -1, 10007, true);
	CHECK("skylake-sp -c 10007: period, no freq",
	      !err && !p.ev[0].attr.freq && p.ev[0].attr.sample_period == 10007);
	CHECK("skylake-sp -u: exclude_kernel on every event",
	      p.ev[0].attr.exclude_kernel && p.ev[1].attr.exclude_kernel && !p.ev[0].attr.exclude_user);

	/* Sapphire Rapids: {mem-loads-aux, mem-loads}:P + mem-stores (s5.3.2) */
	{
		static const struct want w[] = {
			{ 4, 0x8203, 0, 0, 3, 3, 0x10881cf, 0x14, 0x6197b703, -1 },
			{ 4, 0x1cd, 0x1f, 0, 3, 2, 0x10881cf, 0x14, 0x158402, 0 },
			{ 4, 0x2cd, 0, 0, 3, 3, 0x10881cf, 0x14, 0x59403, -1 },
		};
		err = plan(ROOT "sapphire-rapids", &p, false, -1, 0, false);
		CHECK_EQ("sapphire-rapids: plan", err, 0);
		check_plan("sapphire-rapids", &p, HM_MODE_PEBS, w, 3);
	}
	/* Alder Lake hybrid: atom loads, core aux+loads, atom stores, core stores, dummy (s5.3.3) */
	{
		static const struct want w[] = {
			{ 10, 0x5d0, 0x1f, 0, 3, 3, 0x109818f, 0x14, 0x59403, -1 },
			{ 4, 0x8203, 0, 0, 3, 3, 0x109818f, 0x14, 0x159403, -1 },
			{ 4, 0x1cd, 0x1f, 0, 3, 2, 0x109818f, 0x14, 0x158402, 1 },
			{ 10, 0x6d0, 0, 0, 3, 3, 0x109818f, 0x14, 0x59403, -1 },
			{ 4, 0x2cd, 0, 0, 3, 3, 0x109818f, 0x14, 0x59403, -1 },
			{ 1, 9, 0, 0, 0, 0, 0x109808f, 0x14, 0x61862302, -1 },
		};
		err = plan(ROOT "alderlake", &p, false, -1, 0, false);
		CHECK_EQ("alderlake: plan", err, 0);
		check_plan("alderlake", &p, HM_MODE_PEBS, w, 6);
		CHECK_STR("alderlake: atom events only on the atom CPUs", p.ev[0].cpus, "16-23");
		CHECK_STR("alderlake: core events only on the core CPUs", p.ev[2].cpus, "0-15");
		CHECK_STR("alderlake: the dummy on every CPU", p.ev[5].cpus, "");
	}
	/* Sierra Forest (Crestmont cpu): 0x5d0 / 0x6d0 (s6) */
	{
		static const struct want w[] = {
			{ 4, 0x5d0, 0x1f, 0, 3, 3, 0x10881cf, 0x14, 0x6187b703, -1 },
			{ 4, 0x6d0, 0, 0, 3, 3, 0x10881cf, 0x14, 0x59403, -1 },
		};
		err = plan(ROOT "sierra-forest", &p, false, -1, 0, false);
		CHECK_EQ("sierra-forest: plan", err, 0);
		check_plan("sierra-forest", &p, HM_MODE_PEBS, w, 2);
	}
	/* AMD Zen 3 and Zen 4: ibs_op//, one event so no ID, no exclude_* (NO_EXCLUDE, s5.3.4) */
	{
		static const struct want w[] = {
			{ 11, 0, 0, 0, 0, 0, 0x108818f, 0x14, 0x61863703, -1 },
		};
		err = plan(ROOT "zen3", &p, false, -1, 0, false);
		CHECK_EQ("zen3: plan", err, 0);
		check_plan("zen3", &p, HM_MODE_IBS, w, 1);
		CHECK("zen3: described as coarse data_src", strstr(p.desc, "Zen 3") != NULL);
		err = plan(ROOT "zen4", &p, false, -1, 0, false);
		CHECK_EQ("zen4: plan", err, 0);
		check_plan("zen4", &p, HM_MODE_IBS, w, 1);
		CHECK("zen4: described as Zen 4+", strstr(p.desc, "Zen 4+") != NULL);
		hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);
		err = plan(ROOT "zen4", &p, false, -1, 0, true);
		CHECK_EQ("zen4 -u: IBS cannot exclude on this kernel", err, -EOPNOTSUPP);
		err = plan(ROOT "zen4", &p, false, 256, 0, false);
		CHECK_EQ("zen4 -l 256: no ldlat capability", err, -EOPNOTSUPP);
	}
	/* Neoverse SPE: config 0x600000003, config2 = min_latency 30, period = min_interval (s5.3.5) */
	{
		static const struct want w[] = {
			{ 12, 0x600000003ULL, 0, 30, 0, 0, 0x9c08f, 0x14, 0x41003, -1 },
			{ 1, 9, 0, 0, 0, 0, 0x10087, 0x14, 0x61862362, -1 },
		};
		err = plan(ROOT "neoverse", &p, false, -1, 0, false);
		CHECK_EQ("neoverse: plan", err, 0);
		check_plan("neoverse", &p, HM_MODE_SPE, w, 2);
		CHECK("neoverse: no freq, period = caps/min_interval",
		      !p.ev[0].attr.freq && p.ev[0].attr.sample_period == 1024);
	}
	/* contention mode plans nothing; a missing tree says why */
	{
		struct hm_pmu_plan_opts o = { .sysfs_root = ROOT "zen4", .mode = HM_MODE_CONTENTION, .ldlat = -1 };

		err = hm_pmu__plan(&o, &p);
		CHECK("contention: no PMU events", !err && p.nr == 0 && p.mode == HM_MODE_CONTENTION);
		err = plan("/nonexistent-hitmap-root", &p, false, -1, 0, false);
		CHECK("missing sysfs: no events, a reason", !err && p.nr == 0 && p.why[0]);
		o.mode = HM_MODE_PEBS;
		o.sysfs_root = ROOT "zen3";
		err = hm_pmu__plan(&o, &p);
		CHECK("pebs on zen3: no events, reason names mem-loads",
		      !err && p.nr == 0 && strstr(p.why, "mem-loads"));
	}
	/* this machine: whatever it has, the plan is consistent */
	err = plan(NULL, &p, false, -1, 0, false);
	if (!err && !p.nr)
		CHECK("this machine: no PMU, auto falls back (reason given)", p.why[0] != 0);
	else
		CHECK("this machine: a PMU plan with events", !err && p.nr > 0);
	TAP_DONE();
}
