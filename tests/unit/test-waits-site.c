// SPDX-License-Identifier: GPL-2.0-only
/*
 * Contention mode: which waiting call chains are futex bucket-lock sites.  The
 * live check (>= 99% of bucket contentions resolved) counts against these, so
 * a contention on another lock of the recorded command (an rwsem taken by a
 * mount in a wrapper script, mm->futex_hash_lock while the private hash is
 * resized) must not count as an unresolved bucket contention.
 */
#include "report/waits.h"
#include "tap.h"

int main(void)
{
	static const char *const yes[] = {
		"futex_q_lock <- futex_wait_setup", "futex_wait_setup <- __futex_wait",
		"futex_wake <- do_futex", "futex_wake_op <- do_futex", "double_lock_hb <- futex_requeue",
		"futex_requeue <- do_futex", "futex_lock_pi <- do_futex", "futex_unlock_pi <- do_futex",
		"__futex_wait <- futex_wait", "futex_wait_multiple_setup <- __futex_waitv",
	};
	static const char *const no[] = {
		"down_write <- do_mount", "futex_hash_allocate <- futex_hash_prctl",
		"futex_private_hash_get <- futex_hash", "futex_pivot_hash <- futex_hash_allocate",
		"futex_ref_drop <- futex_hash_put", "futex_exit_release <- exit_mm_release",
		"do_exit <- futex_exit_release", "mmap_read_lock <- futex_wait", "", "futex",
	};
	char name[160];

	for (unsigned i = 0; i < sizeof(yes) / sizeof(*yes); i++) {
		snprintf(name, sizeof(name), "bucket site: %s", yes[i]);
		CHECK(name, hm_waits__bucket_site(yes[i]));
	}
	for (unsigned i = 0; i < sizeof(no) / sizeof(*no); i++) {
		snprintf(name, sizeof(name), "not a bucket site: '%s'", no[i]);
		CHECK(name, !hm_waits__bucket_site(no[i]));
	}
	TAP_DONE();
}
