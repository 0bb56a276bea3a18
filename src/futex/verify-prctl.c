// SPDX-License-Identifier: GPL-2.0-only
/*
 * hash --verify's prctl rules: a child process's private futex hash, its
 * slot count set and read back through prctl(PR_FUTEX_HASH) step by step
 * against the era's rules (hm_futex_phash__*).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <hitmap/futex.h>
#include <hitmap/log.h>
#include "prctl-hash.h"

/* Sleeps until *@arg is set (an atomic flag: the setter is another thread). */
static void *sleeper(void *arg)
{
	int *stop = arg;

	while (!__atomic_load_n(stop, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL;
}

static long set_slots(u64 n, u64 arg4)
{
	return prctl(PR_FUTEX_HASH_, SET_SLOTS, n, arg4, 0) ? -errno : 0;
}

static long get_slots(void)
{
	long r = prctl(PR_FUTEX_HASH_, GET_SLOTS, 0, 0, 0);

	return r < 0 ? -errno : r;
}

/* In the child: the sequence; returns agreed << 16 | steps, or 0xffff for no PR_FUTEX_HASH. */
static int prctl_child(enum hm_futex_era e, u32 online, u64 global_slots)
{
	static const struct { u64 n, arg4; } sets[] = {
		{ 3, 0 }, { 1, 0 }, { 16, 1 }, { 8, 0 },
	};
	struct hm_futex_phash_state st = { 0 };
	pthread_t th[16];
	int stop = 0;	/* the sleepers' flag, atomic */
	int steps = 0, agreed = 0, nth = 0, i;

#define STEP(got, want) do { long g_ = (got), w_ = (want); steps++; agreed += g_ == w_; \
	if (g_ != w_) hm_debug("prctl step %d: kernel %ld, model %ld", steps, g_, w_); } while (0)
	if (get_slots() == -EINVAL)
		return 0xffff;
	STEP(get_slots(), (long)hm_futex_phash__get_slots(&st));		/* single-threaded */
	for (i = 0; i < 3; i++) {					/* automatic size, growing */
		if (pthread_create(&th[nth], NULL, sleeper, (void *)&stop))
			break;
		nth++;
		hm_futex_phash__on_thread(e, true, &st, nth + 1, online, global_slots);
		STEP(get_slots(), (long)hm_futex_phash__get_slots(&st));
	}
	for (i = 0; i < (int)(sizeof(sets) / sizeof(sets[0])); i++) {
		STEP(set_slots(sets[i].n, sets[i].arg4), hm_futex_phash__set_slots(e, true, &st, sets[i].n, sets[i].arg4));
		STEP(get_slots(), (long)hm_futex_phash__get_slots(&st));
	}
	for (i = 0; i < 8 && nth < 16; i++) {				/* custom: not resized */
		if (pthread_create(&th[nth], NULL, sleeper, (void *)&stop))
			break;
		nth++;
		hm_futex_phash__on_thread(e, true, &st, nth + 1, online, global_slots);
	}
	STEP(get_slots(), (long)hm_futex_phash__get_slots(&st));
	STEP(set_slots(1ull << 32, 0), hm_futex_phash__set_slots(e, true, &st, 1ull << 32, 0));	/* truncated: 0 */
	STEP(get_slots(), (long)hm_futex_phash__get_slots(&st));
	STEP(set_slots(16, 0), hm_futex_phash__set_slots(e, true, &st, 16, 0));			/* EBUSY */
	STEP(set_slots(0, 0), hm_futex_phash__set_slots(e, true, &st, 0, 0));
#undef STEP
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	while (nth-- > 0)
		pthread_join(th[nth], NULL);
	return agreed << 16 | steps;
}

int hm_futex__verify_prctl(struct hm_futex_verify_result *r)
{
	struct hm_futex_model m;
	int fds[2], status = 0, res = 0;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t pid;
	int err;

	memset(r, 0, sizeof(*r));
	err = hm_futex_geometry__this_machine(&m);
	if (err)
		return err;
	if (pipe(fds)) {
		hm_futex_model__release(&m);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		hm_futex_model__release(&m);
		return err;
	}
	if (!pid) {
		int v;

		close(fds[0]);
		v = prctl_child(m.era, online > 0 ? online : 1, m.global_slots);
		if (write(fds[1], &v, sizeof(v)) != sizeof(v))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &res, sizeof(res)) != sizeof(res))
		res = -1;
	close(fds[0]);
	waitpid(pid, &status, 0);
	r->slots = m.global_slots;
	hm_futex_model__release(&m);
	if (res == 0xffff) {
		hm_err("prctl(PR_FUTEX_HASH): EINVAL; this kernel has no private futex hash");
		return -ENOSYS;
	}
	if (res < 0) {
		hm_err("prctl check: the child process died (status %d)", status);
		return -EIO;
	}
	r->tried = r->observed = res & 0xffff;
	r->agreed = (u32)res >> 16;
	snprintf(r->how, sizeof(r->how), "prctl PR_FUTEX_HASH and thread creation in a child");
	return 0;
}
