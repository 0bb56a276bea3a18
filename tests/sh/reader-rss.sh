#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The reader streams: hitmap script's and stat's peak RSS must not grow with
# the number of samples (20k vs 200k samples written by hm-gen).
. tests/lib.sh

GEN=$HITMAP_BUILD/tools/hm-gen
if [ ! -x "$GEN" ]; then
	skip reader-rss "$GEN not built (make O=$HITMAP_BUILD tests)"
	done_tests
fi
if [ ! -x /usr/bin/time ]; then
	skip reader-rss "no /usr/bin/time (apt-get install time)"
	done_tests
fi
"$GEN" -o "$TMP/s.data" -n 20000 -l 5000 >/dev/null 2>&1 &&
"$GEN" -o "$TMP/l.data" -n 200000 -l 5000 >/dev/null 2>&1 || {
	fail reader-rss.gen "hm-gen failed"
	done_tests
}
for c in "script" "script --no-ordered" "stat"; do
	a=$(peak_rss_kb "$HITMAP" $c -i "$TMP/s.data")
	b=$(peak_rss_kb "$HITMAP" $c -i "$TMP/l.data")
	n=${c// /_}
	if [ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -lt 2048 ]; then
		pass "reader-rss.$n (20k: $a KB, 200k: $b KB)"
	else
		fail "reader-rss.$n" "peak RSS 20k samples: $a KB, 200k: $b KB (grew by more than 2 MB)"
	fi
done
done_tests
