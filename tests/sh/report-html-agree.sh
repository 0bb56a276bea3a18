#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every view reads the report's one aggregation: on a 2-socket Sierra Forest
# file the totals, the sockets, the hottest futex buckets (with their
# sockets and fields) and the hottest cache line show the same numbers in
# report --json, --lkp, --by bucket --json, the metric set (diff --metrics),
# the HTML page's data, diff --json and the diff page's data (of the file
# against itself: both sides).  Then the same on a copy without
# hitmap's metadata, whose futex tables the report infers from the samples
# (perf inject strips the metadata): the metric set and the page must show
# the buckets --by bucket shows, not none, and name the hottest line as
# report --json does (tests/sh/report-names.sh: every view, every name).
. tests/lib.sh
[ -x "$HITMAP" ] || { skip report-html-agree "no $HITMAP; build first"; done_tests; }
command -v python3 >/dev/null || { skip report-html-agree "python3 is not installed"; done_tests; }

# agree NAME FILE [report options...]: all views of FILE, compared
agree() {
	local name=$1 f=$2; shift 2
	local o=$TMP/$name
	"$HITMAP" report -i "$f" "$@" --json >"$o.json" 2>"$o.err" &&
	"$HITMAP" report -i "$f" "$@" --lkp >"$o.lkp" 2>>"$o.err" &&
	"$HITMAP" report -i "$f" "$@" --by bucket --json >"$o.bk.json" 2>>"$o.err" &&
	"$HITMAP" report -i "$f" "$@" --html "$o.html" >/dev/null 2>>"$o.err" &&
	"$HITMAP" diff --metrics "$f" "$@" >"$o.m.json" 2>>"$o.err" &&
	"$HITMAP" diff --all --json "$f" "$@" -- "$f" >"$o.d.json" 2>>"$o.err" &&
	"$HITMAP" diff --html "$o.dh.html" "$f" "$@" -- "$f" >/dev/null 2>>"$o.err" ||
		{ fail "$name: views" "$(tail -n 2 "$o.err")"; return; }
	python3 - "$name" "$o" <<'PY'
import json, re, sys
name, o = sys.argv[1], sys.argv[2]
rep = json.load(open(o + ".json"))
bk = json.load(open(o + ".bk.json"))
met = json.load(open(o + ".m.json"))["metrics"]
diff = {r["metric"]: r for r in json.load(open(o + ".d.json"))["rows"]}
def page_data(path):
    d = json.loads(re.search(r'<script type="application/json" id="hm-data">(.*?)</script>',
                             open(path).read(), re.S).group(1).replace("<\\/", "</"))
    # the ids as the page spells them: bucket table + index, line prefix + hex digits
    B, L = d["buckets"], d["lines"]
    B["id"] = ["%s.bucket.%d" % (B["tables"][t], i) for t, i in zip(B["t"], B["index"])]
    L["id"] = [L["pre"][p] + x for p, x in zip(L["p"], L["s"])]
    return d
page = page_data(o + ".html")
dpage = page_data(o + ".dh.html")	# the file against itself: both sides the file's
lkp = dict(l.split(": ") for l in open(o + ".lkp").read().split("\n") if ": " in l)

def check(what, got):
    bad = [x for x in got if len(set(map(str, x[1:]))) != 1]
    if bad:
        print("FAIL %s: %s: %s" % (name, what, "; ".join(map(str, bad[:4]))))
    else:
        print("PASS %s: %s (%d numbers)" % (name, what, len(got)))

def d(key):	# diff of the file against itself: the base side's mean
    return diff[key]["base"]["mean"] if key in diff else 0

# totals: perf's counters and hitmap's categories
c2c = rep["perf_c2c"]
rows = []
for lk, pk in (("HITM.local", "lcl_hitm"), ("HITM.remote", "rmt_hitm"), ("HIT.remote", "rmt_hit"),
               ("DRAM.local", "lcl_dram"), ("DRAM.remote", "rmt_dram")):
    k = "perf-c2c." + lk
    rows.append((k, c2c[pk], int(lkp[k]), met[k], d(k)))
for cat, n in rep["hitmap"].items():
    rows.append(("hitmap." + cat, n, met["hitmap." + cat], d("hitmap." + cat)))
rows.append(("samples", rep["samples"], met["hitmap.samples"], sum(page["samples"])))
check("totals: report --json, --lkp, metrics, diff, page", rows)

# sockets: report --json's socket rows and the metric set's
rows = []
for s in rep["sockets"]:
    for cat in ("hitm_local", "hitm_xdie", "hitm_remote", "dram_local", "dram_remote"):
        k = "socket.%d.%s" % (s["socket"], cat)
        rows.append((k, s["hitmap"][cat], met.get(k, 0), d(k)))
check("sockets: report --json, metrics, diff", rows)

# the hottest buckets, their sockets and fields: --by bucket, metrics, page, diff
ns = page["sockets"]
bstats = page["bstats"]
bid = {b: i for i, b in enumerate(page["buckets"]["id"])}
dbid = {b: i for i, b in enumerate(dpage["buckets"]["id"])}
dbst = dpage["bstats"]
rows = []
buckets = [b for b in bk.get("buckets", []) if b.get("table") != "unknown" and b["counts"]["samples"]][:20]
for b in buckets:
    key = b["name"]
    c = b["counts"]
    hitm = c["hitm_local"] + c["hitm_xdie"] + c["hitm_remote"]
    for st, v in (("loads", c["loads"]), ("stores", c["stores"]), ("hitm_local", c["hitm_local"]),
                  ("hitm_remote", c["hitm_remote"]), ("hitm", hitm), ("dram_remote", c["dram_remote"])):
        rows.append((key + "." + st, v, met.get(key + "." + st, 0), d(key + "." + st)))
    pid = key[len("futex."):]
    i = bid.get(pid)
    di = dbid.get(pid)
    rows.append((key + " on the page and the diff's", True, i is not None, di is not None))
    for s in b.get("sockets", []):
        sc = s["counts"]
        for st in ("hitm_local", "hitm_remote", "dram_remote", "stores"):
            k = "%s.socket.%d.%s" % (key, s["socket"], st)
            r = [k, sc[st], met.get(k, 0), d(k)]
            if i is not None and st in bstats and s["socket"] < ns:
                r.append(page["buckets"]["v"][(i * ns + s["socket"]) * len(bstats) + bstats.index(st)])
            if di is not None and st in dbst and s["socket"] < dpage["sockets"]:
                for side in (0, 1):
                    r.append(dpage["buckets"]["v"][((di * 2 + side) * dpage["sockets"] + s["socket"]) * len(dbst) + dbst.index(st)])
            rows.append(tuple(r))
    for fl in b.get("fields", []):
        fc = fl["counts"]
        for st, v in (("stores", fc["stores"]), ("hitm", fc["hitm_local"] + fc["hitm_xdie"] + fc["hitm_remote"])):
            k = "%s.%s.%s" % (key, fl["field"], st)
            rows.append((k, v, met.get(k, 0), d(k)))
if not buckets:
    print("FAIL %s: buckets: --by bucket shows none" % name)
else:
    check("%d hottest buckets: --by bucket, metrics, page, diff, diff's page" % len(buckets), rows)
nb = len([b for b in bk.get("buckets", []) if b.get("table") != "unknown" and b["counts"]["samples"]])
check("buckets touched: --by bucket, page, diff's page", [("buckets", nb, len(page["buckets"]["id"]), len(dpage["buckets"]["id"]))])

# the hottest line: report --json, metrics, page, diff
ln = rep["lines"][0]
lid = page["lines"]["id"][0]
lv = page["lines"]["v"][:len(page["lstats"])]
pv = dict(zip(page["lstats"], lv))
dli = dpage["lines"]["id"].index(lid) if lid in dpage["lines"]["id"] else None
dl = dpage["lstats"]
rows = [("hottest line on the diff's page", True, dli is not None)]
for st, v in (("tot_hitm", ln["hitm"]), ("lcl_hitm", ln["lcl_hitm"]), ("rmt_hitm", ln["rmt_hitm"]),
              ("total_loads", ln["total_loads"]), ("store", ln["stores"])):
    k = "line.%s.%s" % (lid, st)
    rows.append((k, v, met.get(k, 0), d(k), pv[st]) +
                tuple(dpage["lines"]["v"][(dli * 2 + side) * len(dl) + dl.index(st)] for side in (0, 1) if dli is not None))
rows.append(("line name", ln["data"], lid))
check("hottest line: report --json, metrics, page, diff, diff's page", rows)
PY
}

f=$TMP/srf.data
"$HITMAP" simulate --preset srf --sockets 2 --cores 8 --kernel 6.16 --futexes 64 --ops 20000 --period 20 \
	-o "$f" --kallsyms "$TMP/srf.ksyms" >"$TMP/sim.out" 2>&1 || { fail report-html-agree-simulate "$(tail -n 1 "$TMP/sim.out")"; done_tests; }
agree "srf-6.16" "$f"

P=$(perf_cmd 6.1 2>/dev/null) || P=
if [ -z "$P" ]; then
	skip "stripped: views agree" "no perf-6.1 to strip the metadata (perf inject)"
	done_tests
fi
f=$TMP/srf12.data
"$HITMAP" simulate --preset srf --sockets 2 --cores 8 --kernel 6.12 --futexes 64 --ops 20000 --period 20 \
	-o "$f" --kallsyms "$TMP/srf12.ksyms" >"$TMP/sim.out" 2>&1 || { fail report-html-agree-simulate-6.12 "$(tail -n 1 "$TMP/sim.out")"; done_tests; }
"$P" inject -i "$f" -o "$TMP/strip.data" >"$TMP/inject.out" 2>&1 || { fail "stripped: perf inject" "$(tail -n 1 "$TMP/inject.out")"; done_tests; }
agree "stripped-6.12" "$TMP/strip.data" --kallsyms "$TMP/srf12.ksyms"
done_tests
