// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's symbol tree, for its shape: a red-black tree keyed by start (equal
 * starts go right), rebalanced as the kernel's lib/rbtree.c does (the
 * textbook insert and erase, erase taking the in-order successor), and
 * perf's lookup walk (symbols__find: the first node on the way down that
 * holds the address).  Where symbols overlap, which one that walk meets,
 * or whether it misses all of them, depends on the shape, so elf.c replays
 * perf's inserts and erases here for the addresses that overlap.
 */
#include <errno.h>
#include <stdlib.h>
#include "symbols-priv.h"

#define NIL UINT32_MAX

struct node {
	u64	start, end;
	u32	id;
	u32	child[2], parent;	/* child[0] left, child[1] right */
	bool	red, gone;
};

struct hm_symtree {
	struct node *n;
	u32	nr, cap, root;
};

struct hm_symtree *hm_symtree__new(void)
{
	struct hm_symtree *t = calloc(1, sizeof(*t));

	if (t)
		t->root = NIL;
	return t;
}

void hm_symtree__delete(struct hm_symtree *t)
{
	if (!t)
		return;
	free(t->n);
	free(t);
}

static void set_child(struct hm_symtree *t, u32 parent, u32 old, u32 new)
{
	if (parent == NIL)
		t->root = new;
	else
		t->n[parent].child[t->n[parent].child[1] == old] = new;
	if (new != NIL)
		t->n[new].parent = parent;
}

/* Rotate @x down to side @d (0: left rotation, its right child rises). */
static void rotate(struct hm_symtree *t, u32 x, int d)
{
	u32 y = t->n[x].child[!d], b = t->n[y].child[d];

	t->n[x].child[!d] = b;
	if (b != NIL)
		t->n[b].parent = x;
	set_child(t, t->n[x].parent, x, y);
	t->n[y].child[d] = x;
	t->n[x].parent = y;
}

static bool is_red(const struct hm_symtree *t, u32 x)
{
	return x != NIL && t->n[x].red;
}

int hm_symtree__insert(struct hm_symtree *t, u64 start, u64 end, u32 id)
{
	u32 x, p = NIL, *link = &t->root, added;

	if (t->nr == t->cap) {
		u32 cap = t->cap ? 2 * t->cap : 256;
		struct node *nv = realloc(t->n, (size_t)cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		t->n = nv;
		t->cap = cap;
	}
	while (*link != NIL) {	/* perf's __symbols__insert: equal starts go right */
		p = *link;
		link = &t->n[p].child[start >= t->n[p].start];
	}
	added = x = t->nr++;
	t->n[x] = (struct node){ start, end, id, { NIL, NIL }, p, true, false };
	*link = x;
	while (is_red(t, t->n[x].parent)) {
		u32 par = t->n[x].parent, g = t->n[par].parent;
		int d = t->n[g].child[1] == par;	/* the side of g that par is on */
		u32 u = t->n[g].child[!d];

		if (is_red(t, u)) {
			t->n[par].red = t->n[u].red = false;
			t->n[g].red = true;
			x = g;
			continue;
		}
		if (x == t->n[par].child[!d]) {	/* inner grandchild: make it outer */
			rotate(t, par, d);
			x = par;
			par = t->n[x].parent;
		}
		t->n[par].red = false;
		t->n[g].red = true;
		rotate(t, g, !d);
	}
	t->n[t->root].red = false;
	return (int)added;
}

/* Restore the black heights after a black node left @p's side where @x (maybe NIL) now is. */
static void erase_fixup(struct hm_symtree *t, u32 x, u32 p)
{
	while (x != t->root && !is_red(t, x)) {
		int d = x == t->n[p].child[1];	/* x (maybe NIL) is the left child unless it is p's right, as lib/rbtree.c tells */
		u32 w = t->n[p].child[!d];

		if (is_red(t, w)) {
			t->n[w].red = false;
			t->n[p].red = true;
			rotate(t, p, d);
			w = t->n[p].child[!d];
		}
		if (!is_red(t, t->n[w].child[0]) && !is_red(t, t->n[w].child[1])) {
			t->n[w].red = true;
			x = p;
			p = t->n[x].parent;
			continue;
		}
		if (!is_red(t, t->n[w].child[!d])) {
			t->n[t->n[w].child[d]].red = false;
			t->n[w].red = true;
			rotate(t, w, !d);
			w = t->n[p].child[!d];
		}
		t->n[w].red = t->n[p].red;
		t->n[p].red = false;
		if (t->n[w].child[!d] != NIL)
			t->n[t->n[w].child[!d]].red = false;
		rotate(t, p, d);
		x = t->root;
	}
	if (x != NIL)
		t->n[x].red = false;
}

void hm_symtree__erase(struct hm_symtree *t, int node)
{
	u32 z = (u32)node, x, xp;
	bool black;

	if (node < 0 || z >= t->nr || t->n[z].gone)
		return;
	t->n[z].gone = true;
	if (t->n[z].child[0] == NIL || t->n[z].child[1] == NIL) {
		x = t->n[z].child[t->n[z].child[0] == NIL];
		xp = t->n[z].parent;
		black = !t->n[z].red;
		set_child(t, xp, z, x);
	} else {	/* the in-order successor takes z's place and colour */
		u32 y = t->n[z].child[1];

		while (t->n[y].child[0] != NIL)
			y = t->n[y].child[0];
		black = !t->n[y].red;
		x = t->n[y].child[1];
		if (t->n[y].parent == z) {
			xp = y;
		} else {
			xp = t->n[y].parent;
			set_child(t, xp, y, x);
			t->n[y].child[1] = t->n[z].child[1];
			t->n[t->n[y].child[1]].parent = y;
		}
		set_child(t, t->n[z].parent, z, y);
		t->n[y].child[0] = t->n[z].child[0];
		t->n[t->n[y].child[0]].parent = y;
		t->n[y].red = t->n[z].red;
	}
	t->n[z].child[0] = t->n[z].child[1] = t->n[z].parent = NIL;
	if (black)
		erase_fixup(t, x, xp);
}

int64_t hm_symtree__find(const struct hm_symtree *t, u64 ip)
{
	u32 x = t->root;

	while (x != NIL) {	/* perf's symbols__find() */
		const struct node *s = &t->n[x];

		if (ip < s->start)
			x = s->child[0];
		else if (ip > s->end || (ip == s->end && ip != s->start))
			x = s->child[1];
		else
			return s->id;
	}
	return -1;
}
