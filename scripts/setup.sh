#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Installs what hitmap needs on Debian 12 (as root), mounts tracefs, and says
# what is missing otherwise.  Safe to run again.
set -u
# build: compiler, libraries; tests: perf (the oracle), clang (BPF objects,
# libFuzzer), chromium + node (HTML report), jq, bc, zstd, binutils, time,
# libc6-dbg (debug files: the symbol tests compare perf on them too).
PKGS="build-essential pkg-config libtraceevent-dev libtracefs-dev libelf-dev libdw-dev
      libzstd-dev libbpf-dev libiberty-dev linux-perf clang libclang-rt-14-dev bpftool chromium jq
      bc time zstd binutils python3 bsdutils debootstrap tmux libncurses-dev man-db
      libc6-dbg"
command -v node >/dev/null 2>&1 || PKGS="$PKGS nodejs"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		echo "setup: installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >/dev/null
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
			echo "setup: apt-get install failed for:$missing" >&2; exit 1; }
	else
		echo "setup: missing packages; run as root:" >&2
		echo "  apt-get install -y$missing" >&2
		exit 1
	fi
fi
# tracefs for the contention mode and the tracepoint tests
if [ ! -d /sys/kernel/tracing/events ] && [ "$(id -u)" -eq 0 ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi
# perf needs to be allowed to record as this user
if [ "$(id -u)" -eq 0 ] && [ -w /proc/sys/kernel/perf_event_paranoid ]; then
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt -1 ] && echo -1 >/proc/sys/kernel/perf_event_paranoid
fi
# the perf versions the oracle tests compare against (6.1, 6.12, 7.3)
"$(dirname "$0")/setup-oracles.sh"
echo "setup: ok"
