#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One name per line in every view, on files without hitmap's metadata (perf
# inject drops it; the report infers the futex tables from the samples):
# the hottest futex lines carry the same name in the text cache-line table,
# its details, --json, --csv, the HTML page, --by bucket and the metric set
# (diff --metrics), with the same HITM/load/store counts; the offsets carry
# the same field in the details and --json; and the names are the ones the
# file with its metadata gets.  Files: a global table (6.12), private hashes
# (6.16-rc4) and per-node global tables with shared futexes (6.17).  On the
# same files, with and without metadata, the --stats blocks are perf 6.1's
# byte for byte.  Read through a pipe, the same files name and count their
# lines as the files do (text, JSON, CSV).
. tests/lib.sh
[ -x "$HITMAP" ] || { skip report-names "no $HITMAP; build first"; done_tests; }
command -v python3 >/dev/null || { skip report-names "python3 is not installed"; done_tests; }
P=$(perf_cmd 6.1 2>/dev/null) || P=
[ -n "$P" ] || { skip report-names "no perf-6.1 to strip the metadata (perf inject)"; done_tests; }

# names NAME FILE KSYMS [ORIG]: every view of FILE; ORIG: the same file with its metadata
names() {
	local name=$1 f=$2 k=$3 orig=${4:-} o=$TMP/$1
	"$HITMAP" report -i "$f" --kallsyms "$k" --threads 1 >"$o.txt" 2>"$o.err" &&
	"$HITMAP" report -i "$f" --kallsyms "$k" --threads 2 --json >"$o.json" 2>>"$o.err" &&
	"$HITMAP" report -i "$f" --kallsyms "$k" --csv >"$o.csv" 2>>"$o.err" &&
	"$HITMAP" report -i "$f" --kallsyms "$k" --html "$o.html" >/dev/null 2>>"$o.err" &&
	"$HITMAP" report -i "$f" --kallsyms "$k" --by bucket --json >"$o.bk.json" 2>>"$o.err" &&
	"$HITMAP" diff --metrics "$f" --kallsyms "$k" >"$o.m.json" 2>>"$o.err" ||
		{ fail "$name: views" "$(tail -n 2 "$o.err")"; return; }
	if [ -n "$orig" ]; then
		"$HITMAP" report -i "$orig" --kallsyms "$k" --json >"$o.orig.json" 2>>"$o.err" ||
			{ fail "$name: views of the file with metadata" "$(tail -n 2 "$o.err")"; return; }
	fi
	python3 - "$name" "$o" <<'PY'
import csv, json, re, sys
name, o = sys.argv[1], sys.argv[2]
N = 12
txt = open(o + ".txt").read()
# the text table: address -> (name, Tot Hitm count, Loads, Stores)
table, details, doffs = {}, {}, {}
hdr = None
for l in txt.split("\n"):
    if l.startswith("# Index"):
        hdr = l[1:].replace("Tot Hitm", "TotHitm").split()
        continue
    if hdr and re.match(r"^\s+\d+ 0x[0-9a-f]+ ", l):
        f = l.split()
        table[f[1]] = (f[-1], int(f[hdr.index("Hitm")]), int(f[hdr.index("Loads")]), int(f[hdr.index("Stores")]))
    elif hdr and not l.strip():
        hdr = None
cur = None
for l in txt.split("\n"):
    m = re.match(r"^\s+\d+\s+(0x[0-9a-f]+)\s+(\S+)\s+Tot Hitm (\d+) .*Loads (\d+)\s+Stores (\d+)", l)
    if m:
        cur = m.group(1)
        details[cur] = (m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5)))
        doffs[cur] = {}
        continue
    m = re.match(r"^\s+0x([0-9a-f]+) (\S+)\s+\d", l)
    if cur and m:
        doffs[cur][int(m.group(1), 16)] = m.group(2)
rep = json.load(open(o + ".json"))
js = {l["address"]: l for l in rep["lines"]}
cs = {r["address"]: r for r in csv.DictReader(open(o + ".csv"))}
bk = {b["name"] for b in json.load(open(o + ".bk.json")).get("buckets", [])}
met = json.load(open(o + ".m.json"))["metrics"]
d = json.loads(re.search(r'<script type="application/json" id="hm-data">(.*?)</script>',
                         open(o + ".html").read(), re.S).group(1).replace("<\\/", "</"))
L, ls = d["lines"], d["lstats"]
page = {L["pre"][p] + x: i for i, (p, x) in enumerate(zip(L["p"], L["s"]))}
def pv(i, st):
    return L["v"][i * len(ls) + ls.index(st)]

hot = [a for a in sorted(table, key=lambda a: -table[a][1]) if table[a][0].startswith("futex.")][:N]
if not hot:
    print("FAIL %s: the cache-line table names no line as futex data (names: %s)" %
          (name, ", ".join(sorted({v[0].split("+")[0] for v in table.values()})[:4])))
    sys.exit(0)
bad = []
if not any(".bucket." in table[a][0] for a in hot):
    bad.append("no futex bucket among the %d hottest futex lines" % len(hot))
for a in hot:
    n, hitm, loads, stores = table[a]
    j, c = js.get(a), cs.get(a)
    got = [("details", details.get(a)), ("json", j and (j["data"], j["hitm"], j["total_loads"], j["stores"])),
           ("csv", c and (c["data"], int(c["hitm"]), int(c["total_loads"]), int(c["stores"])))]
    i = page.get(n)
    got.append(("html", i is not None and (n, pv(i, "tot_hitm"), pv(i, "total_loads"), pv(i, "store"))))
    got.append(("metrics", ("line.%s.tot_hitm" % n) in met and
                (n, met["line.%s.tot_hitm" % n], met["line.%s.total_loads" % n], met["line.%s.store" % n])))
    for what, g in got:
        if g != table[a]:
            bad.append("%s %s: text %s, %s %s" % (a, what, table[a], what, g))
    if ".bucket." in n and n not in bk:
        bad.append("%s: %s not among --by bucket's buckets" % (a, n))
    jo = {x["offset"]: x["data"] for x in (j or {}).get("offsets", [])}
    for off, fld in doffs.get(a, {}).items():
        if jo.get(off) != fld:
            bad.append("%s+0x%x: details %s, json %s" % (a, off, fld, jo.get(off)))
if bad:
    print("FAIL %s: names and counts differ: %s" % (name, "; ".join(bad[:4])))
else:
    print("PASS %s: %d hottest futex lines (%s ...) named and counted alike in text, details, "
          "json, csv, html, --by bucket, metrics" % (name, len(hot), table[hot[0]][0]))
try:
    orig = {l["address"]: l["data"] for l in json.load(open(o + ".orig.json"))["lines"]}
except FileNotFoundError:
    sys.exit(0)
diff = ["%s: %s, with metadata %s" % (a, table[a][0], orig.get(a)) for a in hot if orig.get(a) != table[a][0]]
if diff:
    print("FAIL %s: inferred names differ from the metadata's: %s" % (name, "; ".join(diff[:4])))
else:
    print("PASS %s: the inferred names are the metadata's" % name)
PY
}

# pipe_names NAME FILE KSYMS: FILE as a pipe-mode stream (hitmap convert keeps
# its header; perf inject -o - would write this machine's CPUs instead) names
# and counts its lines as the file does: the cache-line table infers the
# tables from its one pass.  Text and CSV byte for byte, JSON but the input
# name; the futex views of a pipe say why they have no tables.
pipe_names() {
	local name=$1 f=$2 k=$3 o=$TMP/pipe v nf np
	for v in "" "--json" "--csv" "--threads 2"; do
		"$HITMAP" report -i "$f" --kallsyms "$k" $v 2>"$o.err" | sed '/^  "input": /d' >"$o.file" &&
		"$HITMAP" convert -i "$f" -o - 2>>"$o.err" |
			"$HITMAP" report -i - --kallsyms "$k" $v 2>>"$o.err" | sed '/^  "input": /d' >"$o.pipe" ||
			{ fail "$name through a pipe ${v:-text}: report" "$(tail -n 2 "$o.err")"; continue; }
		nf=$(grep -c 'futex\.' "$o.file") np=$(grep -c 'futex\.' "$o.pipe")
		check "$name through a pipe ${v:-text}: the file's output ($nf futex names, pipe $np)" \
			eval "[ '$nf' -gt 0 ] && cmp -s '$o.file' '$o.pipe'"
	done
	# the futex views and the HTML page key rows on the tables during the
	# pass: the pipe is copied to a temporary file first, and its tables
	# are inferred as the file's (the page names its input: normalized)
	for v in "--by bucket" "--by field" "--by socket" "--by bucket --json" "--html -"; do
		"$HITMAP" report -i "$f" --kallsyms "$k" $v 2>"$o.err" |
			sed -e '/^  "input": /d' -e "s|$f|INPUT|g" >"$o.file" &&
		"$HITMAP" convert -i "$f" -o - 2>>"$o.err" |
			"$HITMAP" report -i - --kallsyms "$k" $v 2>>"$o.err" |
			sed -e '/^  "input": /d' -e 's|<p>-: |<p>INPUT: |' -e 's|"sides":\["-"\]|"sides":["INPUT"]|' >"$o.pipe" ||
			{ fail "$name through a pipe $v: report" "$(tail -n 2 "$o.err")"; continue; }
		check "$name through a pipe $v: the file's output, with its futex names" \
			eval "grep -qE 'inferred from|futex\\.(global|private)' '$o.file' && cmp -s '$o.file' '$o.pipe'"
	done
	"$HITMAP" diff --metrics "$f" --kallsyms "$k" 2>/dev/null | sed '/^  "label": /d' >"$o.file"
	"$HITMAP" convert -i "$f" -o - 2>/dev/null | "$HITMAP" diff --metrics - --kallsyms "$k" 2>/dev/null |
		sed '/^  "label": /d' >"$o.pipe"
	check "$name through a pipe diff --metrics: the file's metrics" \
		eval "grep -q 'futex' '$o.file' && cmp -s '$o.file' '$o.pipe'"
	# a pipe-mode stream written to a file is a file: read twice
	"$HITMAP" convert -i "$f" -o - >"$o.pipe.data" 2>/dev/null
	"$HITMAP" report -i "$o.pipe.data" --kallsyms "$k" --by bucket >"$o.bk" 2>&1
	check "$name: a pipe-mode file --by bucket: tables inferred" grep -q '^tables: inferred from' "$o.bk"
	cat "$o.pipe.data" | TMPDIR=$TMP/no-such-dir "$HITMAP" report -i - --kallsyms "$k" --by bucket >"$o.bk" 2>&1
	rc=$?
	check "$name through a pipe, no directory for its copy: one line naming TMPDIR, exit 1" \
		eval "[ $rc = 1 ] && [ \$(wc -l <'$o.bk') = 1 ] && grep -q 'TMPDIR' '$o.bk'"
}

for c in "6.12:" "6.16-rc4:" "6.17:--shared"; do
	k=${c%%:*} extra=${c#*:} f=$TMP/sim-$k.data
	"$HITMAP" simulate --preset srf --sockets 2 --cores 8 --kernel "$k" $extra --futexes 64 --ops 20000 \
		--period 20 -o "$f" --kallsyms "$TMP/$k.ksyms" >"$TMP/sim.out" 2>&1 ||
		{ fail "report-names $k: simulate" "$(tail -n 1 "$TMP/sim.out")"; continue; }
	"$P" inject -i "$f" -o "$TMP/strip-$k.data" >"$TMP/inject.out" 2>&1 ||
		{ fail "report-names $k: perf inject" "$(tail -n 1 "$TMP/inject.out")"; continue; }
	names "report-names stripped $k${extra:+ $extra}" "$TMP/strip-$k.data" "$TMP/$k.ksyms" "$f"
	pipe_names "report-names stripped $k${extra:+ $extra}" "$TMP/strip-$k.data" "$TMP/$k.ksyms"
	# perf's blocks stay perf's on these files too, with and without the metadata
	for g in "$f" "$TMP/strip-$k.data"; do
		"$P" c2c report --stats -i "$g" 2>/dev/null | sed -n '/Trace Event/,/Total Merged/p' >"$TMP/p.st"
		"$HITMAP" report -i "$g" --stats --perf-compat 6.1 2>/dev/null | sed -n '/Trace Event/,/Total Merged/p' >"$TMP/h.st"
		check "report-names $k${extra:+ $extra} $(basename "$g"): --stats blocks = perf 6.1's ($(wc -l <"$TMP/p.st") lines)" \
			eval "[ -s '$TMP/p.st' ] && cmp '$TMP/p.st' '$TMP/h.st'"
	done
done
done_tests
