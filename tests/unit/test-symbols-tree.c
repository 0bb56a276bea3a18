// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's symbol tree replayed (src/symbols/symtree.c): after every insert
 * and erase of a random run (equal starts included), the tree is a binary
 * search tree by start with equal starts in insertion order, a red-black
 * tree (black root, no red child of a red node, one black height) with
 * consistent parent links; the walk finds every interval of a set that does
 * not overlap and nothing between them; a nested interval shadows its
 * parent or not as the shape says, and the shape is the textbook one
 * (1..7 inserted in order: 2 at the root's left, 4 the root).  Its agreement
 * with perf's own tree is shown end to end by tests/sh/symbols-plt.sh.
 */
#include "tap.h"
#include "symbols/symtree.c"

static int bad;

/* Black height of the subtree at @x, or -1; checks order, colours and links on the way. */
static int check_sub(const struct hm_symtree *t, u32 x, u32 parent, u64 lo, u64 hi, u32 *seen)
{
	int l, r;

	if (x == NIL)
		return 1;
	(*seen)++;
	if (t->n[x].parent != parent || t->n[x].gone || t->n[x].start < lo || t->n[x].start > hi)
		bad++;
	if (t->n[x].red && (is_red(t, t->n[x].child[0]) || is_red(t, t->n[x].child[1])))
		bad++;
	l = check_sub(t, t->n[x].child[0], x, lo, t->n[x].start, seen);
	r = check_sub(t, t->n[x].child[1], x, t->n[x].start, hi, seen);
	if (l != r || l < 0)
		return -1;
	return l + !t->n[x].red;
}

static bool valid(const struct hm_symtree *t, u32 live)
{
	u32 seen = 0;
	int h;

	bad = 0;
	if (t->root != NIL && t->n[t->root].red)
		return false;
	h = check_sub(t, t->root, NIL, 0, UINT64_MAX, &seen);
	return h > 0 && !bad && seen == live;
}

/* In-order ids: equal starts must keep their insertion order (ids ascending). */
static bool in_order(const struct hm_symtree *t, u32 x, u64 *last_start, u32 *last_id)
{
	if (x == NIL)
		return true;
	if (!in_order(t, t->n[x].child[0], last_start, last_id))
		return false;
	if (t->n[x].start == *last_start && t->n[x].id < *last_id)
		return false;
	*last_start = t->n[x].start;
	*last_id = t->n[x].id;
	return in_order(t, t->n[x].child[1], last_start, last_id);
}

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u64 rnd(u64 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

int main(void)
{
	struct hm_symtree *t = hm_symtree__new();
	int nodes[3000];
	bool ok = true, order = true, handle = true;
	u32 live = 0;

	for (int i = 0; i < 3000 && t; i++) {	/* inserts, with every third one erasing a random live node */
		u64 last = 0;
		u32 lid = 0;

		nodes[i] = hm_symtree__insert(t, rnd(500) * 16, 0, (u32)i);
		live++;
		if (nodes[i] < 0 || t->n[nodes[i]].id != (u32)i)
			handle = false;
		if (i % 3 == 2) {
			int k = (int)rnd((u64)i + 1);

			if (!t->n[nodes[k]].gone) {
				hm_symtree__erase(t, nodes[k]);
				live--;
			}
		}
		if (!valid(t, live))
			ok = false;
		if (!in_order(t, t->root, &last, &lid))
			order = false;
	}
	CHECK("symtree: a red-black search tree after each of 3000 inserts and 1000 erases", ok);
	CHECK("symtree: equal starts stay in insertion order (they go right, as perf's insert)", order);
	CHECK("symtree: insert returns the new node's handle, whatever the rebalancing moved", handle);
	if (t) {
		bool was = t->n[nodes[0]].gone;

		hm_symtree__erase(t, nodes[0]);
		hm_symtree__erase(t, nodes[0]);	/* twice: nothing more */
		CHECK("symtree: erasing a node again leaves the tree whole", valid(t, live - !was));
	}
	hm_symtree__delete(t);

	/* disjoint intervals: the walk finds each, and nothing in the gaps */
	t = hm_symtree__new();
	ok = true;
	for (u32 i = 0; i < 1000 && t; i++)
		hm_symtree__insert(t, 100 + 32 * (u64)((i * 617) % 1000), 100 + 32 * (u64)((i * 617) % 1000) + 16, i);
	for (u64 a = 90; a < 100 + 32 * 1000 && t; a++) {
		int64_t want = a >= 100 && (a - 100) % 32 < 16 ? -2 : -1;
		int64_t got = hm_symtree__find(t, a);

		if (want == -1 ? got != -1 : got < 0 || (100 + 32 * (u64)((got * 617) % 1000)) != a - (a - 100) % 32)
			ok = false;
	}
	CHECK("symtree: the walk finds every one of 1000 disjoint intervals, and no gap", ok);
	hm_symtree__delete(t);

	/* shape: 1..7 in order make the textbook tree; a wide interval at 1 then shadows 2..3 only where it is met first */
	t = hm_symtree__new();
	for (u32 i = 1; i <= 7 && t; i++)
		hm_symtree__insert(t, i * 10, i == 1 ? 65 : i * 10 + 5, i);
	CHECK("symtree: 1..7 inserted in order: 20 at the root", t && t->n[t->root].start == 20);
	CHECK_EQ("symtree: the root (20, holding 20..25) is met before 10 (10..65) at 22", hm_symtree__find(t, 22), 2);
	CHECK_EQ("symtree: at 12 the walk meets 10..65 below the root", hm_symtree__find(t, 12), 1);
	CHECK_EQ("symtree: at 32 it goes right of 20 and never meets 10..65 (perf's [unknown])", hm_symtree__find(t, 32), 3);
	CHECK_EQ("symtree: at 37 (past 30..35, inside 10..65) nothing is met", hm_symtree__find(t, 37), -1);
	hm_symtree__delete(t);
	TAP_DONE();
}
