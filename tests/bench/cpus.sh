# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the bench scripts: CPUS, the CPUs this process may run on
# (Cpus_allowed_list, ranges expanded, space-separated), and FIRST, the first
# of them, where the one-thread runs a ratio compares are pinned (taskset):
# a VM's vCPUs ran one thread up to 1.6x apart.
CPUS=$(awk '/^Cpus_allowed_list/ { n = split($2, r, ","); for (i = 1; i <= n; i++) {
	if (split(r[i], ab, "-") == 2) { for (c = ab[1]; c <= ab[2]; c++) printf "%d ", c }
	else printf "%d ", r[i] } }' /proc/self/status)
FIRST=${CPUS%% *}
