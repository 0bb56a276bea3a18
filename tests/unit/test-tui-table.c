// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TUI's sortable tables (src/report/tui-table.c): rows stay in their
 * insertion (--stdio) order until sorted; a sort keeps that order on ties;
 * "-" cells (NAN) sort last either way; d/D's column cycle; the header marks
 * the sort column; numbers are formatted as the text views format them.
 */
#include <math.h>
#include "tap.h"
#include "report/tui-table.h"

static void row_text(const struct hm_tui_table *t, size_t i, char *buf, size_t size)
{
	hm_tui_table__row(t, i, buf, size);
}

/* The first cell (the name) of every row, in display order, "a b c". */
static void names(const struct hm_tui_table *t, char *out, size_t size)
{
	char row[256];
	size_t len = 0;

	out[0] = 0;
	for (size_t i = 0; i < hm_tui_table__nr(t) && len < size; i++) {
		row_text(t, i, row, sizeof(row));
		row[strcspn(row, " ")] = 0;
		len += snprintf(out + len, size - len, "%s%s", i ? " " : "", row);
	}
}

int main(void)
{
	struct hm_tui_table *t = hm_tui_table__new("t", 4);
	static const struct { const char *name; double hitm, wait; } rows[] = {
		{ "b", 5, 1.25 }, { "a", 7, NAN }, { "c", 5, 10 }, { "d", 0, 2.5 },
	};
	char buf[512], hdr[256];
	u64 k, k2;
	bool rev;

	CHECK("table-new", t != NULL);
	if (!t)
		TAP_DONE();
	hm_tui_table__col(t, 0, "NAME", HM_TUI_COL_TEXT, 8);
	hm_tui_table__col(t, 1, "HITM", HM_TUI_COL_INT, 0);
	hm_tui_table__col(t, 2, "WAIT_US", HM_TUI_COL_FIX1, 0);
	hm_tui_table__col(t, 3, "FUNCS", HM_TUI_COL_TEXT, 0);
	hm_tui_table__sort_first(t, 1);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		long r = hm_tui_table__row_add(t, 0x1000 + 64 * i, 64);

		hm_tui_table__str(t, r, 0, rows[i].name);
		hm_tui_table__num(t, r, 1, rows[i].hitm);
		hm_tui_table__num(t, r, 2, rows[i].wait);
		hm_tui_table__str(t, r, 3, i & 1 ? "futex_q_lock(3)" : "futex_q_unlock(1)");
	}
	CHECK_EQ("rows", hm_tui_table__nr(t), 4);
	names(t, buf, sizeof(buf));
	CHECK_STR("insertion-order", buf, "b a c d");
	CHECK_EQ("starts-unsorted", hm_tui_table__sort_col(t, NULL), -1);

	hm_tui_table__sort(t, 1, false);
	names(t, buf, sizeof(buf));
	CHECK_STR("sort-desc-ties-keep-order", buf, "a b c d");
	hm_tui_table__sort(t, 1, true);
	names(t, buf, sizeof(buf));
	CHECK_STR("sort-asc-ties-keep-order", buf, "d b c a");
	hm_tui_table__sort(t, 2, false);
	names(t, buf, sizeof(buf));
	CHECK_STR("nan-last-desc", buf, "c d b a");
	hm_tui_table__sort(t, 2, true);
	names(t, buf, sizeof(buf));
	CHECK_STR("nan-last-asc", buf, "b d c a");
	hm_tui_table__sort(t, 0, false);
	names(t, buf, sizeof(buf));
	CHECK_STR("text-a-z", buf, "a b c d");
	hm_tui_table__key(t, 0, &k, &k2);
	CHECK("key-follows-row", k == 0x1040 && k2 == 64);

	/* the row as drawn: --stdio's formats, "-" for NAN, no trailing blank */
	hm_tui_table__sort(t, -1, false);
	row_text(t, 1, buf, sizeof(buf));
	CHECK_STR("row-format", buf, "a         7        - futex_q_lock(3)");
	hm_tui_table__cell(t, 1, 2, buf, sizeof(buf));
	CHECK_STR("cell-nan", buf, "-");
	hm_tui_table__cell(t, 0, 2, buf, sizeof(buf));
	CHECK_STR("cell-fix1", buf, "1.2");
	hm_tui_table__cell(t, 0, 0, buf, sizeof(buf));
	CHECK_STR("cell-text", buf, "b");
	hm_tui_table__sort(t, 1, false);
	hm_tui_table__header(t, hdr, sizeof(hdr));
	CHECK("header-marks-sort-desc", strstr(hdr, "HITMv") != NULL);
	hm_tui_table__sort(t, 1, true);
	hm_tui_table__header(t, hdr, sizeof(hdr));
	CHECK("header-marks-sort-asc", strstr(hdr, "HITM^") != NULL && hm_tui_table__sort_col(t, &rev) == 1 && rev);

	/* d: -1 -> HITM (sort_first) -> WAIT_US -> FUNCS -> NAME -> -1; D the other way */
	int c = -1, seen[6], n = 0;

	do {
		c = hm_tui_table__col_next(t, c, 1);
		seen[n++] = c;
	} while (c != -1 && n < 6);
	CHECK("col-cycle", n == 5 && seen[0] == 1 && seen[1] == 2 && seen[2] == 3 && seen[3] == 0 && seen[4] == -1);
	CHECK("col-cycle-back", hm_tui_table__col_next(t, -1, -1) == 0 && hm_tui_table__col_next(t, 1, -1) == -1);

	CHECK_EQ("foot", hm_tui_table__foot_add(t, "HITM: matrix"), 0);
	CHECK_STR("foot-line", hm_tui_table__foot(t, 0), "HITM: matrix");
	CHECK("sort-bad-column", hm_tui_table__sort(t, 9, false) < 0);
	hm_tui_table__delete(t);
	hm_tui_table__delete(NULL);

	/* an empty view sorts (d on a futex view of a file with no buckets): no qsort(NULL, 0) */
	t = hm_tui_table__new("empty", 2);
	CHECK("empty-new", t != NULL);
	if (t) {
		hm_tui_table__col(t, 0, "NAME", HM_TUI_COL_TEXT, 8);
		hm_tui_table__col(t, 1, "HITM", HM_TUI_COL_INT, 0);
		CHECK_EQ("empty-sort", hm_tui_table__sort(t, 1, false), 0);
		CHECK_EQ("empty-rows", hm_tui_table__nr(t), 0);
		hm_tui_table__delete(t);
	}
	TAP_DONE();
}
