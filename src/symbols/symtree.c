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
	u32	left, right, parent;
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
	else if (t->n[parent].left == old)
		t->n[parent].left = new;
	else
		t->n[parent].right = new;
	if (new != NIL)
		t->n[new].parent = parent;
}

static void rotate_left(struct hm_symtree *t, u32 x)
{
	u32 y = t->n[x].right, b = t->n[y].left;

	t->n[x].right = b;
	if (b != NIL)
		t->n[b].parent = x;
	set_child(t, t->n[x].parent, x, y);
	t->n[y].left = x;
	t->n[x].parent = y;
}

static void rotate_right(struct hm_symtree *t, u32 x)
{
	u32 y = t->n[x].left, b = t->n[y].right;

	t->n[x].left = b;
	if (b != NIL)
		t->n[b].parent = x;
	set_child(t, t->n[x].parent, x, y);
	t->n[y].right = x;
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
		link = start < t->n[p].start ? &t->n[p].left : &t->n[p].right;
	}
	added = x = t->nr++;
	t->n[x] = (struct node){ start, end, id, NIL, NIL, p, true, false };
	*link = x;
	while (is_red(t, t->n[x].parent)) {
		u32 par = t->n[x].parent, g = t->n[par].parent, u;

		if (par == t->n[g].left) {
			u = t->n[g].right;
			if (is_red(t, u)) {
				t->n[par].red = t->n[u].red = false;
				t->n[g].red = true;
				x = g;
				continue;
			}
			if (x == t->n[par].right) {
				rotate_left(t, par);
				x = par;
				par = t->n[x].parent;
			}
			t->n[par].red = false;
			t->n[g].red = true;
			rotate_right(t, g);
		} else {
			u = t->n[g].left;
			if (is_red(t, u)) {
				t->n[par].red = t->n[u].red = false;
				t->n[g].red = true;
				x = g;
				continue;
			}
			if (x == t->n[par].left) {
				rotate_right(t, par);
				x = par;
				par = t->n[x].parent;
			}
			t->n[par].red = false;
			t->n[g].red = true;
			rotate_left(t, g);
		}
	}
	t->n[t->root].red = false;
	return (int)added;
}

/* Restore the black heights after a black node left @p's side where @x (maybe NIL) now is. */
static void erase_fixup(struct hm_symtree *t, u32 x, u32 p)
{
	while (x != t->root && !is_red(t, x)) {
		if (x != t->n[p].right) {	/* x (maybe NIL) is the left child, as lib/rbtree.c tells */
			u32 w = t->n[p].right;

			if (is_red(t, w)) {
				t->n[w].red = false;
				t->n[p].red = true;
				rotate_left(t, p);
				w = t->n[p].right;
			}
			if (!is_red(t, t->n[w].left) && !is_red(t, t->n[w].right)) {
				t->n[w].red = true;
				x = p;
				p = t->n[x].parent;
				continue;
			}
			if (!is_red(t, t->n[w].right)) {
				t->n[t->n[w].left].red = false;
				t->n[w].red = true;
				rotate_right(t, w);
				w = t->n[p].right;
			}
			t->n[w].red = t->n[p].red;
			t->n[p].red = false;
			if (t->n[w].right != NIL)
				t->n[t->n[w].right].red = false;
			rotate_left(t, p);
			x = t->root;
		} else {
			u32 w = t->n[p].left;

			if (is_red(t, w)) {
				t->n[w].red = false;
				t->n[p].red = true;
				rotate_right(t, p);
				w = t->n[p].left;
			}
			if (!is_red(t, t->n[w].left) && !is_red(t, t->n[w].right)) {
				t->n[w].red = true;
				x = p;
				p = t->n[x].parent;
				continue;
			}
			if (!is_red(t, t->n[w].left)) {
				t->n[t->n[w].right].red = false;
				t->n[w].red = true;
				rotate_left(t, w);
				w = t->n[p].left;
			}
			t->n[w].red = t->n[p].red;
			t->n[p].red = false;
			if (t->n[w].left != NIL)
				t->n[t->n[w].left].red = false;
			rotate_right(t, p);
			x = t->root;
		}
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
	if (t->n[z].left == NIL || t->n[z].right == NIL) {
		x = t->n[z].left == NIL ? t->n[z].right : t->n[z].left;
		xp = t->n[z].parent;
		black = !t->n[z].red;
		set_child(t, xp, z, x);
	} else {	/* the in-order successor takes z's place and colour */
		u32 y = t->n[z].right;

		while (t->n[y].left != NIL)
			y = t->n[y].left;
		black = !t->n[y].red;
		x = t->n[y].right;
		if (t->n[y].parent == z) {
			xp = y;
		} else {
			xp = t->n[y].parent;
			set_child(t, xp, y, x);
			t->n[y].right = t->n[z].right;
			t->n[t->n[y].right].parent = y;
		}
		set_child(t, t->n[z].parent, z, y);
		t->n[y].left = t->n[z].left;
		t->n[t->n[y].left].parent = y;
		t->n[y].red = t->n[z].red;
	}
	t->n[z].left = t->n[z].right = t->n[z].parent = NIL;
	if (black)
		erase_fixup(t, x, xp);
}

int64_t hm_symtree__find(const struct hm_symtree *t, u64 ip)
{
	u32 x = t->root;

	while (x != NIL) {	/* perf's symbols__find() */
		const struct node *s = &t->n[x];

		if (ip < s->start)
			x = s->left;
		else if (ip > s->end || (ip == s->end && ip != s->start))
			x = s->right;
		else
			return s->id;
	}
	return -1;
}
