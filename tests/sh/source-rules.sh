#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Rules of the source tree that no compiler checks: prefetches through
# util/prefetch.h (GCC deletes some __builtin_prefetch calls), files of
# about 1000 lines at most, private headers (*-int.h) included only beside
# their sources, public headers that include only with <...> (system
# headers and <hitmap/...>: a quoted include there names a private one).
# Each rule runs on the tree (no breach) and on a tree with one planted
# breach of each (seen).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

# each prints its breaches under ROOT (src/, include/), nothing when none
prefetch_breaches() { grep -rn '__builtin_prefetch' "$1/src" "$1/include" | grep -v '/src/util/prefetch.h:'; }
big_files() { find "$1/src" "$1/include" -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 1000 { print $2 " " $1 }'; }
private_leaks() {
	local h d b f
	for h in $(find "$1/src" -name '*-int.h'); do
		d=$(dirname "$h")
		b=$(basename "$h")
		for f in $(grep -rl "^#include \"\([^\"]*/\)\?$b\"" "$1/src" "$1/include"); do
			[ "$(dirname "$f")" = "$d" ] || echo "$f includes $b"
		done
	done
}
public_includes() { grep -Hn '^#include "' "$1"/include/hitmap/*.h; }

for rule in prefetch_breaches big_files private_leaks public_includes; do
	out=$($rule .)
	check "$rule: none" [ -z "$out" ]
	[ -n "$out" ] && echo "$out" | head -n 5
done

P=$TMP/planted
mkdir -p "$P/src/x" "$P/src/y" "$P/src/util" "$P/include/hitmap"
printf 'static void f(void *p) { __builtin_prefetch(p); }\n' > "$P/src/y/a.c"
printf 'static inline void g(void *p) { __builtin_prefetch(p); }\n' > "$P/src/util/prefetch.h"
seq 1001 > "$P/src/y/long.c"
: > "$P/src/x/x-int.h"
printf '#include "x-int.h"\n' > "$P/src/x/x.c"
printf '#include "x/x-int.h"\n' > "$P/src/y/b.c"
printf '#include <stdint.h>\n#include "../src/x/x.h"\n' > "$P/include/hitmap/p.h"
check "planted: prefetch_breaches sees a.c only" [ "$(prefetch_breaches "$P" | cut -d: -f1)" = "$P/src/y/a.c" ]
check "planted: big_files sees long.c" [ "$(big_files "$P")" = "$P/src/y/long.c 1001" ]
check "planted: private_leaks sees y/b.c only" [ "$(private_leaks "$P")" = "$P/src/y/b.c includes x-int.h" ]
check "planted: public_includes sees p.h" [ "$(public_includes "$P" | cut -d: -f1,2)" = "$P/include/hitmap/p.h:2" ]
done_tests
