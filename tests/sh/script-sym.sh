#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# hitmap script's ip, sym, symoff, dso, srcline and addr symbols against
# every installed perf script, byte for byte: perf's default fields on real
# fixtures (kernel symbols moved by the recorded relocation, modules named
# "[mod]" or by their build-id path, the own [vdso], /tmp/perf-PID.map for
# executable anonymous memory, raw PMU events' addr/data_src/weight) and on
# files recorded here (call chains with kernel and user frames, pipe mode,
# tracepoints with call chains, page faults' data addresses, a JIT-like
# anonymous code map, threads sampled after their EXIT), -F lists of the
# symbol fields, and synthetic files of a raw and a software event with
# the same sample fields (perf shows addr, data_src, weight, phys_addr and
# the page sizes for raw events only).  Both sides read the same kallsyms
# (perf_ksyms) and, for perf 7.3, the same user files (perf_symfs below).
# Both run with --no-inline: perf 7.3 adds inlined frames from installed
# debug info by default (tests/sh/script-inline.sh compares those).
. tests/lib.sh

PERFS=$(oracle_perfs)
if [ -z "$PERFS" ]; then
	skip script-sym "no perf installed (perf-6.1, perf-6.12 or perf-7.3 on PATH)"
	done_tests
fi
KS=$(perf_ksyms)

# perf_symfs V: hitmap's --symfs for the user files perf V sees.  The
# perf-7.3 oracle (scripts/setup-oracles.sh) runs in a Debian 13 chroot:
# its /usr, /lib, /etc... are the chroot's, while /tmp, /work, /root, /home
# and /var/tmp are this system's (its wrapper binds them), so a DSO without
# a build-id in the file (pipe mode; one only call chains reach) is the
# chroot's copy to it.  A directory of links to the same files gives hitmap
# the same view; nothing for a perf that runs here.
perf_symfs() {
	local c r d e n
	c=$(command -v "perf-$1" 2>/dev/null) || return 0
	r=$(sed -n 's|^R=\(/[^ ]*\)$|\1|p' "$c" 2>/dev/null)
	[ -n "$r" ] && [ -d "$r/usr" ] || return 0
	d=$TMP/.symfs-$1
	if [ ! -d "$d" ]; then
		mkdir -p "$d/var"
		for e in "$r"/* "$r"/var/*; do
			n=${e#"$r"/}
			case $n in tmp|work|root|home|var|var/tmp|proc|sys|dev) continue;; esac
			ln -s "$e" "$d/$n"
		done
		for n in tmp work root home var/tmp; do [ -e "/$n" ] && ln -sfn "/$n" "$d/$n"; done
	fi
	echo "--symfs=$d"
}

# unsure_paths FILE: the paths of a system-wide recording whose frames
# perf may resolve from another file than hitmap does (hitmap: the build-id
# table's file, else the path in its own root or --symfs):
# - paths that FILE maps under two or more identities (device, inode and
#   inode generation, or the build-id where the MMAP2 carries one, as
#   perf's dso_id compares them) and that its build-id table names.  Two
#   identities come from two files (a process under another root, a
#   container on the machine or the perf 7.3 chroot) or from one file seen
#   twice: a map that perf record synthesizes from /proc/PID/maps has
#   generation 0, the kernel's MMAP2 of the same file the inode's own (ext4
#   and tmpfs give most files a non-zero one).  perf gives the table's
#   build-id to the DSO of the first identity; for each other one it looks
#   the path up again among all its DSOs (map__new), and where the lookup
#   lands on the new DSO itself, which has no build-id, perf reads the file
#   by its path (in perf 7.3's chroot, the chroot's copy, or none).  Where
#   it lands depends on perf's whole set of DSOs (a binary search over all
#   of them from perf 6.10 on, a tree walk before).
# - paths that FILE maps and its build-id table does not name (perf record
#   found no build-id: a process that exec'd or left for another root
#   before the recording ended).  perf reads such a file through the mount
#   namespace of the process with the sample's pid, if one is alive when
#   perf script runs (nsinfo: setns, which also leaves a chroot), so what
#   it reads depends on what else runs on the machine then.
unsure_paths() {
	perf script --show-mmap-events -i "$1" 2>/dev/null | awk -v all="$TMP/us.all" '
	/PERF_RECORD_MMAP2/ {
		i = index($0, "]: "); if (!i) next
		rest = substr($0, i + 3); path = substr(rest, index(rest, " ") + 1)
		# "maj:min ino generation]", or "<build-id>]" (perf 7.x records
		# build-ids in MMAP2 by default: then the build-id is the identity)
		n = split(substr($0, 1, i), w, " "); id = w[n] ~ /^</ ? w[n] : w[n - 2] " " w[n - 1] " " w[n]
		if (path ~ /^\//) print path >all
		if (!((path, id) in seen)) { seen[path, id] = 1; if (++files[path] == 2) print path }
	}' | sort >"$TMP/us.two"
	sort -u -o "$TMP/us.all" "$TMP/us.all" 2>/dev/null || : >"$TMP/us.all"
	perf buildid-list -i "$1" 2>/dev/null | awk '{ print substr($0, index($0, " ") + 1) }' | sort -u >"$TMP/us.bid"
	{ comm -12 "$TMP/us.two" "$TMP/us.bid"; comm -23 "$TMP/us.all" "$TMP/us.bid"; } | sort -u
}
# excuse_sym PATHS WANT GOT: WANT.us and GOT.us, the two outputs where a
# line differs only in the symbol of a frame (the same address and DSO) in
# one of PATHS (one a line), with that symbol as "[sym]" on both sides;
# prints how many lines it excused.  Every other line must still match.
excuse_sym() {
	awk -v got="$3" -v ow="$2.us" -v og="$3.us" '
	function frame(s) { sub(/ [^ ]+ \([^ ]+\)$/, "", s); return s }
	FNR == NR { p["(" $0 ")"] = 1; next }
	{
		w = $0; has = (getline g <got) > 0
		if (has && w != g && match(w, / \([^ ]+\)$/)) {
			d = substr(w, RSTART)
			if ((substr(d, 2) in p) && substr(g, length(g) - length(d) + 1) == d && frame(w) == frame(g)) {
				w = frame(w) " [sym]" d; g = w; n++
			}
		}
		print w >ow
		if (has) print g >og
	}
	END { while ((getline g <got) > 0) print g >og; print n + 0 }' "$1" "$2"
}

# Jobs: "NAME FILE ARGS..." lines; perf V script --no-inline $KS -i FILE ARGS
# against hitmap script --perf-compat V $KS $(perf_symfs V) -i FILE ARGS.
JOBS=$TMP/jobs
: >"$JOBS"
job() { echo "$*" >>"$JOBS"; }
# runs NAME V: false (after a SKIP line) where perf V cannot run job NAME
runs() {
	case "$1:$2" in
	fx-srcline:6.1) skip "script-sym.$1 (perf $2)" "perf 6.1 runs addr2line on the fixture's DSOs, which are not on this machine, and stops at the first (exit 141)"; return 1;;
	esac
	return 0
}
# excused NAME V: why NAME differs from perf V on purpose, or nothing
excused() {
	case "$1:$2" in
	*srcline*:6.1|*srcline*:6.12) echo "srcline: perf $2 runs binutils' addr2line, hitmap reads DWARF with libdw as perf 7.3 does (lines of user code compared with 7.3 only)";;
	esac
}

if [ -d "$FIXTURES" ]; then
	P=$FIXTURES/perf_data_converter
	job fx-busy "$P/perf.data.busy.0-3.8"
	job fx-jit "$P/perf.data.busy.1-3.8"
	job fx-cg34 "$P/perf.data.callgraph-3.4"
	job fx-cg38 "$P/perf.data.callgraph-3.8"
	job fx-forkexit "$P/perf.data.forkexit-3.4"
	job fx-raw "$P/perf.data.weight_struct"
	job fx-pipe "$P/perf.data.piped.target-3.8"
	job fx-sw5 "$P/perf.data.systemwide.5-3.8"
	job fx-pipe612 "$P/perf.data.piped.header_features_aligned-6.12"
	job fx-symoff "$P/perf.data.callgraph-3.4" -F comm,tid,ip,sym,symoff -G
	job fx-srcline "$P/perf.data.callgraph-3.8" -F comm,tid,ip,sym,dso,srcline
else
	skip script-sym.fixtures "no fixtures at $FIXTURES (set HITMAP_FIXTURES)"
fi

# synthetic: one raw (PERF_TYPE_RAW) and one software event with the same
# sample fields, pipe mode and (through hitmap convert) file mode
if command -v python3 >/dev/null; then
	for t in 1 4; do
		python3 - "$TMP/t$t.pipe" $t <<'EOF'
import struct, sys
out = open(sys.argv[1], 'wb')
typ = int(sys.argv[2])
# IP TID TIME ADDR CPU PERIOD WEIGHT DATA_SRC PHYS_ADDR DATA_PAGE_SIZE CODE_PAGE_SIZE
st = 0x1 | 0x2 | 0x4 | 0x8 | 0x80 | 0x100 | 0x4000 | 0x8000 | 0x80000 | 0x400000 | 0x800000
out.write(b'PERFILE2' + struct.pack('<Q', 16))
attr = struct.pack('<IIQQQQQIIQ', typ, 64, 0x1cd if typ == 4 else 0, 10000, st, 0, 0, 0, 0, 0)
out.write(struct.pack('<IHH', 64, 0, 8 + len(attr)) + attr)
for i, ip in enumerate((0xffffffff81000000, 0x400123, 0x7f0000001000)):
    b = struct.pack('<QiiQQIIQQQQQQ', ip, 42, 42, 1000000000 + i * 1000, 0x7ffd00001000 + i,
                    0, 0, 10000, 77 + i, 0x68100142, 0x12345000, 4096, 2 << 20)
    out.write(struct.pack('<IHH', 9, 1 if ip >> 63 else 2, 8 + len(b)) + b)
EOF
		if "$HITMAP" convert -i "$TMP/t$t.pipe" -o "$TMP/t$t.data" >/dev/null 2>&1; then
			job "syn-type$t" "$TMP/t$t.data"
		else
			fail "script-sym.syn-type$t" "hitmap convert of the synthetic pipe file failed"
		fi
		job "syn-type$t-pipe" "$TMP/t$t.pipe"
	done
else
	skip script-sym.synthetic "python3 is not installed"
fi

REC=0
if can_record; then
	REC=1
	# call chains through exec: kernel frames, ld.so and libc
	perf record -q -o "$TMP/cc.data" -e cpu-clock -c 100000 -g -- ls -lR /usr/share/doc/bash >/dev/null 2>&1
	job cc "$TMP/cc.data"
	job cc-ipsym "$TMP/cc.data" -F comm,tid,ip,sym
	job cc-ipdso "$TMP/cc.data" -F tid,ip,dso
	job cc-symoff-G "$TMP/cc.data" -F comm,tid,time,ip,sym,symoff -G
	job cc-noip "$TMP/cc.data" -F comm,tid,sym,dso
	job cc-srcline "$TMP/cc.data" -F comm,tid,ip,sym,srcline
	# perf's own kernel symbols: /proc/kallsyms (and /proc/kcore), on both sides
	job cc-proc "$TMP/cc.data" --kallsyms=/proc/kallsyms
	# pipe mode: the user DSOs have no build-ids; -F ip gets sym added
	perf record -q -o - -e cpu-clock -c 100000 -g -- ls -lR /usr/share/doc/bash 2>/dev/null >"$TMP/pipe.data"
	job pipe "$TMP/pipe.data"
	job pipe-ip "$TMP/pipe.data" -F comm,tid,ip
	job pipe-ip-G "$TMP/pipe.data" -F comm,tid,ip -G
	# page faults: addr has the data address's sym and dso
	perf record -q -e page-faults -d -g -o "$TMP/pf.data" -- ls -R /usr/share/doc/bash >/dev/null 2>&1
	job pf "$TMP/pf.data" -F comm,tid,time,addr,ip,sym,symoff,dso
	# code in anonymous executable memory: perf names it /tmp/perf-PID.map
	if command -v python3 >/dev/null && [ "$(uname -m)" = x86_64 ]; then
		cat >"$TMP/jit.py" <<'EOF'
import ctypes, mmap
# mov rcx, N; 1: dec rcx; jnz 1b; ret
code = b'\x48\xb9' + (30000000).to_bytes(8, 'little') + b'\x48\xff\xc9\x75\xfb\xc3'
m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(code)
ctypes.CFUNCTYPE(None)(ctypes.addressof(ctypes.c_char.from_buffer(m)))()
EOF
		perf record -q -e cpu-clock -c 200000 -o "$TMP/jit.data" -- python3 "$TMP/jit.py" >/dev/null 2>&1
		job jit "$TMP/jit.data"
	else
		skip script-sym.jit "needs python3 on x86_64 (the loop is x86-64 code)"
	fi
	# system-wide, short-lived processes with call chains: samples after a
	# thread's EXIT (6.12 and later: a new thread, no maps)
	perf record -q -a -g --no-buildid-mmap -e cpu-clock -c 100000 -o "$TMP/exit.data" -- \
		sh -c 'for i in 1 2 3 4; do (ls -R /usr/share/doc >/dev/null) & done; wait' >/dev/null 2>&1
	if [ -s "$TMP/exit.data" ]; then job exit "$TMP/exit.data"; unsure_paths "$TMP/exit.data" >"$TMP/unsure.exit"
	else skip script-sym.exit "perf record -a failed here (system-wide sampling refused)"; fi
	# tracepoints with call chains: perf adds ip, sym, symoff and dso (file
	# mode), ip and sym (pipe mode) to their default fields
	if have_tracefs && perf record -q -e sched:sched_process_exec -e sched:sched_process_exit -g \
		-o "$TMP/tp.data" -- sh -c 'ls >/dev/null' >/dev/null 2>&1; then
		job tp "$TMP/tp.data"
		perf record -q -e sched:sched_process_exec -g -o - -- sh -c 'ls >/dev/null' 2>/dev/null >"$TMP/tpp.data"
		job tp-pipe "$TMP/tpp.data"
	else
		skip script-sym.tp "cannot record sched tracepoints here (tracefs or permissions)"
	fi
else
	skip script-sym.record "perf cannot record here (perf record -e cpu-clock failed: perf_event_paranoid or no perf_event_open)"
fi

for v in $PERFS; do
	O=$TMP/v$v
	SF=$(perf_symfs "$v")
	# one batch a version (perf 7.3's chroot is entered once)
	while read -r n f a; do
		runs "$n" "$v" >/dev/null && echo "$n - script --no-inline $KS -i $f $a"
	done <"$JOBS" >"$TMP/batch.$v"
	perf_batch "$v" "$O" "$TMP/batch.$v"
	while read -r n f a; do
		runs "$n" "$v" || continue
		# shellcheck disable=SC2086  # the argument lists split on purpose
		"$HITMAP" script --no-inline --perf-compat "$v" $KS $SF -i "$f" $a >"$O/$n.hm" 2>"$O/$n.herr"
		hrc=$?
		perf_ran "$v" "$O" "$n" || continue
		if [ $hrc -ne 0 ]; then
			fail "script-sym.$n (perf $v)" "hitmap script exited $hrc: $(head -c 300 "$O/$n.herr")"
			continue
		fi
		want=$O/$n.out got=$O/$n.hm
		# perf 7.3 prints the CPUs of a pipe file without HEADER_NRCPUS as [000]
		if [ "$v" = 7.3 ] && ! has_nrcpus "$f"; then
			no_cpu "$want" >"$want.c"; no_cpu "$got" >"$got.c"; want=$want.c got=$got.c
		fi
		if [ -s "$TMP/unsure.$n" ]; then
			k=$(excuse_sym "$TMP/unsure.$n" "$want" "$got")
			echo "# script-sym.$n (perf $v): $k frames differ in their symbol alone, in $(wc -l <"$TMP/unsure.$n")" \
				"paths that perf may read from another file here, and are compared without it (unsure_paths" \
				"says why): $(tr '\n' ' ' <"$TMP/unsure.$n" | cut -c1-300)"
			want=$want.us got=$got.us
		fi
		why=$(excused "$n" "$v")
		if [ -n "$why" ]; then
			# the lines both read alike: samples, frames, kernel and DSO srclines
			grep -v '^  [^[]' "$want" >"$want.k"; grep -v '^  [^[]' "$got" >"$got.k"
			echo "# script-sym.$n (perf $v): $why"
			want=$want.k got=$got.k
		fi
		if [ ! -s "$want" ]; then
			fail "script-sym.$n (perf $v)" "perf $v script printed nothing"
		elif cmp -s "$want" "$got"; then
			pass "script-sym.$n = perf $v script $a ($(wc -l <"$got") lines)"
		else
			fail "script-sym.$n (perf $v)" "differs from perf $v script $a: $(diff "$want" "$got" 2>&1 | head -5 | tr '\n' ' ' | cut -c1-400)"
		fi
	done <"$JOBS"
done

# the symbol fields' refusals, as perf's: symoff without sym, srcline without ip
if [ $REC = 1 ]; then
	for fl in comm,tid,ip,symoff comm,tid,sym,srcline; do
		"$HITMAP" script -i "$TMP/cc.data" $KS -F $fl >/dev/null 2>"$TMP/refuse.err"
		hrc=$?
		perfv "${PERFS%% *}" script -i "$TMP/cc.data" $KS -F $fl >/dev/null 2>&1
		prc=$?
		if [ $hrc = 1 ] && [ $prc != 0 ] && grep -q 'needs' "$TMP/refuse.err"; then
			pass "script-sym.refuse -F $fl (exit 1, as perf refuses it: exit $prc)"
		else
			fail "script-sym.refuse -F $fl" "hitmap exit $hrc ($(head -c 200 "$TMP/refuse.err")), perf exit $prc"
		fi
	done
fi
done_tests
