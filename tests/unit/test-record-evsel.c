// SPDX-License-Identifier: GPL-2.0-only
/* The perf_event layer: open on CPUs, ids, enable/disable, error texts with the fix. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <hitmap/log.h>
#include "record/evsel.h"
#include "record/mmap.h"
#include "tap.h"

int main(void)
{
	struct hm_pevsel e, m;
	struct perf_event_attr tp = { .type = PERF_TYPE_TRACEPOINT };
	char buf[512];
	int cpus[1] = { 0 }, err;

	hm_pevsel__strerror(-EACCES, &tp, buf, sizeof(buf));
	CHECK("EACCES names perf_event_paranoid", strstr(buf, "perf_event_paranoid") != NULL);
	if (geteuid())
		CHECK("EACCES as a user: the value to set and CAP_PERFMON",
		      strstr(buf, "sysctl kernel.perf_event_paranoid=") && strstr(buf, "CAP_PERFMON"));
	hm_pevsel__strerror(-ENOENT, NULL, buf, sizeof(buf));
	CHECK("ENOENT: no PMU, names --mode contention", strstr(buf, "--mode contention") != NULL);
	hm_pevsel__strerror(-EMFILE, NULL, buf, sizeof(buf));
	CHECK("EMFILE: names ulimit -n", strstr(buf, "ulimit -n") != NULL);
	CHECK("paranoid read (-1..4)", hm_perf__paranoid() >= -1 && hm_perf__paranoid() <= 4);

	hm_pevsel__init(&e, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, "dummy");
	CHECK_EQ("init: attr size 128 (perf 6.1 reads it)", e.attr.size, 128);
	CHECK("init: sample_id_all and read_format ID", e.attr.sample_id_all && (e.attr.read_format & PERF_FORMAT_ID));
	e.attr.sample_period = 1;
	e.attr.disabled = 1;
	hm_log__set_sink(NULL, NULL, HM_LOG_ERROR);
	err = hm_pevsel__open(&e, cpus, 1, getpid(), NULL);
	if (err) {
		SKIP("open a software event", "perf_event_open: %s", strerror(-err));
		TAP_DONE();
	}
	PASS("open a software event on CPU 0 for this process");
	CHECK("the kernel gave an id", e.id[0] != 0);
	CHECK_EQ("enable", hm_pevsel__enable(&e), 0);
	CHECK_EQ("disable", hm_pevsel__disable(&e), 0);
	/* a group member behind the leader, and a ring buffer shared through SET_OUTPUT */
	hm_pevsel__init(&m, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	m.attr.sample_period = 1000000;
	err = hm_pevsel__open(&m, cpus, 1, getpid(), &e);
	CHECK_EQ("open a group member", err, 0);
	{
		struct hm_ring r;

		err = hm_ring__mmap(&r, e.fd[0], 0, 8);
		CHECK_EQ("mmap 8 pages", err, 0);
		if (!err) {
			CHECK_EQ("SET_OUTPUT into the leader's ring", hm_ring__set_output(&r, m.fd[0]), 0);
			CHECK_EQ("empty ring", hm_ring__pending(&r), 0);
			hm_ring__munmap(&r);
		}
		err = hm_ring__mmap(&r, e.fd[0], 0, 3);
		CHECK_EQ("mmap of 3 pages: not a power of two", err, -EINVAL);
	}
	hm_pevsel__close(&m);
	hm_pevsel__close(&e);
	hm_pevsel__close(&e);	/* twice is fine */
	/* a bad event: the message names the event, the CPU and a fix */
	hm_pevsel__init(&e, 0x7fff, 0, "bogus");
	err = hm_pevsel__open(&e, cpus, 1, -1, NULL);
	CHECK("unknown PMU type: an error", err < 0);
	CHECK("the message names the event and the CPU",
	      strstr(hm_log__last_error(), "bogus on CPU 0") != NULL);
	TAP_DONE();
}
