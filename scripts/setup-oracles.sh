#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Installs the perf versions the tests hold hitmap against, beside the
# system's perf 6.1 (which is never touched), from Debian's own archive:
#   perf 6.12  linux-perf from bookworm-backports, unpacked with dpkg -x
#   perf 7.3   linux-perf from trixie-backports, in a minimal Debian 13 chroot
# and writes wrappers perf-6.1, perf-6.12, perf-7.3 into $HITMAP_ORACLES/bin
# (default /var/cache/hitmap-oracles/bin, also linked into /usr/local/bin).
# Idempotent: what is there already is kept.  A version that cannot be
# installed is reported and skipped; the tests then skip it with the reason.
#   scripts/setup-oracles.sh [--debian13]   (--debian13: Debian 13's gcc 14,
#   libbpf 1.5, libtraceevent 1.8 in the chroot too, for make check-debian13)
set -u
D=${HITMAP_ORACLES:-/var/cache/hitmap-oracles}
BIN=$D/bin
ROOT13=$D/trixie
want13dev=0
[ "${1:-}" = --debian13 ] && want13dev=1
say() { echo "setup-oracles: $*"; }
[ "$(id -u)" -eq 0 ] || { say "not root: oracles not installed (run as root)"; exit 0; }
mkdir -p "$BIN"
export DEBIAN_FRONTEND=noninteractive

# The archive this machine uses (deb822 or one-line sources).
mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n 1)
[ -n "$mirror" ] || mirror=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep -v security | head -n 1)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian

# ---- perf 6.1: the system's own
if [ -x /usr/bin/perf ]; then
	ln -sf /usr/bin/perf "$BIN/perf-6.1"
else
	say "perf 6.1: /usr/bin/perf missing (apt-get install linux-perf)"
fi

# ---- perf 6.12: bookworm-backports, unpacked beside the system's perf
if ! "$D/perf-6.12/usr/bin/perf" version >/dev/null 2>&1; then
	src=/etc/apt/sources.list.d/hitmap-bookworm-backports.sources
	if ! grep -qs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null; then
		cat >"$src" <<SRC
Types: deb
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
		apt-get update -qq >/dev/null 2>&1
	fi
	tmp=$(mktemp -d)
	if (cd "$tmp" && apt-get download -qq -t bookworm-backports linux-perf >/dev/null 2>&1) &&
	   rm -rf "$D/perf-6.12" && dpkg -x "$tmp"/linux-perf_*.deb "$D/perf-6.12"; then
		say "perf 6.12: $("$D/perf-6.12/usr/bin/perf" version 2>&1)"
	else
		say "perf 6.12: could not be downloaded from bookworm-backports"
	fi
	rm -rf "$tmp"
fi
if [ -x "$D/perf-6.12/usr/bin/perf" ]; then
	cat >"$BIN/perf-6.12" <<W
#!/bin/sh
exec "$D/perf-6.12/usr/bin/perf" "\$@"
W
	chmod 755 "$BIN/perf-6.12"
fi

# ---- perf 7.3: trixie-backports inside a minimal Debian 13 chroot
# binutils: perf 7.3 runs addr2line for source lines and dies of SIGPIPE
# when the command is missing.  The marker holds the package list, so a
# changed list is installed on the next run.
PKGS13="linux-perf binutils"
if [ ! -x "$ROOT13/usr/bin/perf" ] || [ "$(cat "$ROOT13/.hitmap-ok" 2>/dev/null)" != "$PKGS13" ]; then
	command -v debootstrap >/dev/null 2>&1 || apt-get install -y -qq --no-install-recommends debootstrap >/dev/null 2>&1
	if ! command -v debootstrap >/dev/null 2>&1; then
		say "perf 7.3: skipped: debootstrap is not installable here"
	elif [ ! -f "$ROOT13/.debootstrap-ok" ]; then
		rm -rf --one-file-system "$ROOT13"
		say "perf 7.3: debootstrap trixie (about a minute)"
		if debootstrap --variant=minbase trixie "$ROOT13" "$mirror" >"$D/debootstrap.log" 2>&1; then
			touch "$ROOT13/.debootstrap-ok"
		else
			say "perf 7.3: skipped: debootstrap failed, see $D/debootstrap.log"
		fi
	fi
	if [ -f "$ROOT13/.debootstrap-ok" ]; then
		cat >"$ROOT13/etc/apt/sources.list.d/backports.sources" <<SRC
Types: deb
URIs: $mirror
Suites: trixie-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
		cp /etc/resolv.conf "$ROOT13/etc/resolv.conf" 2>/dev/null
		if chroot "$ROOT13" /bin/sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends -t trixie-backports $PKGS13" >"$D/perf-7.3.log" 2>&1; then
			echo "$PKGS13" >"$ROOT13/.hitmap-ok"
		else
			say "perf 7.3: skipped: apt-get install in the chroot failed, see $D/perf-7.3.log"
		fi
	fi
fi
# The Debian 13 build and test tools; the marker holds the list, so a
# changed list is installed on the next run (libncurses-dev: the TUI;
# libiberty-dev: perf 6.1's demangler; tmux,
# script (bsdutils), man-db: the TUI and man page tests; bpftool: loads
# header-bpf.sh's programs).
DEV13="build-essential pkg-config libtraceevent-dev libtracefs-dev libelf-dev libdw-dev libzstd-dev libbpf-dev libiberty-dev libncurses-dev clang make jq bc time zstd binutils python3 procps util-linux bsdutils tmux man-db bpftool"
if [ "$want13dev" = 1 ] && [ -s "$ROOT13/.hitmap-ok" ] && [ "$(cat "$ROOT13/.hitmap-dev-ok" 2>/dev/null)" != "$DEV13" ]; then
	say "Debian 13: build tools and libraries in the chroot"
	# -t trixie-backports: perf 7.3 pulled libelf/libdw from there, and
	# their -dev packages must be the same version
	cp /etc/resolv.conf "$ROOT13/etc/resolv.conf" 2>/dev/null
	if chroot "$ROOT13" /bin/sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends -t trixie-backports $DEV13" >"$D/debian13-dev.log" 2>&1; then
		echo "$DEV13" >"$ROOT13/.hitmap-dev-ok"
	else
		say "Debian 13 tools: install failed, see $D/debian13-dev.log"
	fi
fi
if [ -f "$ROOT13/.hitmap-dev-ok" ]; then
	# inside the chroot perf 7.3 is the system's perf; perf-7.3 takes the
	# same --sh batch mode as the wrapper outside, for the tests
	cat >"$ROOT13/usr/local/bin/perf-7.3" <<'W'
#!/bin/sh
if [ "${1:-}" = --sh ]; then shift; s=$1; shift; exec /bin/sh -c "$s" perf-sh "$@"; fi
exec /usr/bin/perf "$@"
W
	chmod 755 "$ROOT13/usr/local/bin/perf-7.3"
fi
if [ -s "$ROOT13/.hitmap-ok" ]; then
	# The wrapper runs perf 7.3 in the chroot, in a private mount namespace
	# where /proc, /sys, /dev, the host's /tmp, /work, /root, /home,
	# /var/tmp, the current folder and the folders of absolute arguments
	# appear at the same paths (nothing is mounted outside that namespace,
	# so removing the cache folder never reaches the host's files).
	# Few processes per call (it is called hundreds of times by the tests).
	#   perf-7.3 ARGS...              perf ARGS in the chroot
	#   perf-7.3 --sh SCRIPT [ARGS]   sh -c SCRIPT in the chroot, perf on PATH:
	#                                 one call for a batch of perf commands
	cat >"$BIN/perf-7.3" <<'W'
#!/bin/bash
R=@ROOT@
sh=0
[ "${1:-}" = --sh ] && { sh=1; shift; }
dirs=
# folders by their real paths: "/x/clone/../shared" is not under
# "/x/clone", and a link may lead out of every folder mounted
add() {
	local p=$1 d
	[ -d "$p" ] || p=${p%/*}
	[ -d "$p" ] || p=${p%/*}
	[ -n "$p" ] && [ -d "$p" ] || return
	p=$(readlink -f -- "$p") || return
	for d in $dirs; do case $p/ in "$d"/*) return;; esac; done
	dirs="$dirs $p"
}
for d in /tmp /work /root /home /var/tmp "$PWD"; do add "$d"; done
# absolute arguments that exist go to perf as their real paths, which
# the folders mounted below hold
n=$#
while [ $n -gt 0 ]; do
	a=$1; shift; n=$((n - 1))
	case "$a" in
	/*) add "$a"; [ -e "$a" ] && a=$(readlink -f -- "$a");;
	*=/*) add "${a#*=}"; [ -e "${a#*=}" ] && a="${a%%=*}=$(readlink -f -- "${a#*=}")";;
	esac
	set -- "$@" "$a"
done
exec unshare -m --propagation private /bin/bash -c '
R=$1 sh=$2 dirs=$3 wd=$4; shift 4
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys"
mount --rbind /dev "$R/dev"
for d in $dirs; do
	[ -d "$R$d" ] || mkdir -p "$R$d"
	mount --rbind "$d" "$R$d"
done
if [ "$sh" = 1 ]; then
	exec chroot "$R" /bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; s=\$1; shift; exec /bin/sh -c \"\$s\" perf-sh \"\$@\"" "$wd" "$@"
fi
exec chroot "$R" /bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec /usr/bin/perf \"\$@\"" "$wd" "$@"
' hitmap-perf73 "$R" "$sh" "$dirs" "$(pwd -P)" "$@"
W
	sed -i "s|@ROOT@|$ROOT13|" "$BIN/perf-7.3"
	chmod 755 "$BIN/perf-7.3"
	say "perf 7.3: $("$BIN/perf-7.3" version 2>&1)"
fi
for v in 6.1 6.12 7.3; do
	[ -x "$BIN/perf-$v" ] && ln -sf "$BIN/perf-$v" "/usr/local/bin/perf-$v"
done
exit 0
