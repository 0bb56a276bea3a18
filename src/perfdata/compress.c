// SPDX-License-Identifier: GPL-2.0-only
/*
 * PERF_RECORD_COMPRESSED (81) and COMPRESSED2 (83): the payloads of all
 * records form one zstd stream (perf flushes, it does not end frames: perf
 * 6.1, 6.12 and 7.3 start one frame at the first record), and the
 * decompressed bytes are ordinary records that may straddle chunks.  One
 * stream cannot be cut, but it can be decompressed ahead of its reader.
 *
 * Lazily, the default: each call decompresses into a fixed window, so a
 * small chunk that expands a lot never needs more than the window.
 *
 * Ahead (hm_zstream__new(true)): a thread of the stream's own decompresses
 * each chunk fed into a ring while the reader parses what is already
 * there.  The ring is mapped twice, end to end, so a record that wraps is
 * still contiguous; the bytes handed out stay put until the reader's next
 * hm_zstream__ensure, as with the window.  Besides the chunk of the record
 * it has reached, the reader feeds the chunks of the COMPRESSED records its
 * window already holds, at most AHEAD_MAX (hm_zstream__prefeed); their
 * bytes are handed out only once it reaches their records
 * (hm_zstream__release), so the records come out as they do lazily,
 * whatever lies between the COMPRESSED records (FINISHED_ROUND, a record
 * straddling two chunks).  Fed only the chunk reached, the thread would
 * idle while each chunk is parsed and the reader wait at each chunk's
 * start (measured slower than lazily).  If the ring cannot be mapped, the
 * stream decompresses lazily.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>
#include "reader-int.h"

#define OUT_WINDOW	(1u << 20)

/* The ring (a power of two, whole pages) and the most one decompression call writes. */
#define RING_BYTES	(4u << 20)
#define RING_STEP	(64u << 10)

/* Chunks fed ahead of the reader (hm_zstream__prefeed) at most; NBOUND more than that. */
#define AHEAD_MAX	8
#define NBOUND		16

/* A chunk fed, waiting for the thread. */
struct zchunk {
	struct zchunk	*next;
	size_t		len;
	u8		data[];
};

/*
 * The thread's side (hm_zstream.t).  Chunks are numbered in the order fed;
 * the reader has released the first nrel to itself (it has reached their
 * records) and may have fed up to AHEAD_MAX more.  It reads the ring up to
 * the end of the last chunk released: head while the thread is on that
 * chunk, else the bound kept when the thread finished it.
 */
struct zahead {
	pthread_t		th;
	pthread_mutex_t		mu;
	pthread_cond_t		wake_prod, wake_cons;
	u8			*ring;		/* RING_BYTES, mapped twice */
	_Atomic u64		head;		/* bytes written (the thread) */
	_Atomic u64		freed;		/* bytes the reader let go */
	_Atomic u64		ndone;		/* chunks used up and drained (the thread) */
	_Atomic int		cons_wait, prod_wait;
	_Atomic int		err;		/* the thread's zstd error, in chunk err_seq */
	_Atomic u64		err_seq;
	u64			bound[NBOUND];	/* head when chunk i was done, at i % NBOUND */
	struct zchunk		*first, *last;	/* fed, not yet taken (mu) */
	bool			stop;		/* (mu) */
	u64			nfed, nrel;	/* the reader's */
};

struct hm_zstream {
	ZSTD_DStream	*zs;
	u8		*in;
	size_t		in_len, in_pos, in_cap;
	u8		*out;
	size_t		out_cap, out_head, out_len;
	u64		pos;
	size_t		hint;	/* ZSTD_decompressStream's last return: input it wants */
	u64		since;	/* input bytes since the last output (a cut frame) */
	bool		full;	/* last call filled the window: zstd may hold more */
	struct zahead	*t;	/* decompressing ahead: the thread's side */
	u64		tail;	/* ahead: bytes of the ring consumed */
	u64		freed;	/* ahead: the tail last given back (ahead_free) */
};

/* ---- decompressing ahead: the thread */

/* The side waiting on @cv, if @flag says one does (set before it looked again): wake it. */
static void wake(struct zahead *t, _Atomic int *flag, pthread_cond_t *cv)
{
	if (atomic_load(flag)) {
		pthread_mutex_lock(&t->mu);
		pthread_cond_signal(cv);
		pthread_mutex_unlock(&t->mu);
	}
}

/* Wait until the reader has freed room for one call's output; false: told to stop. */
static bool room_wait(struct zahead *t, u64 head)
{
	while (RING_BYTES - (head - atomic_load(&t->freed)) < RING_STEP) {
		pthread_mutex_lock(&t->mu);
		atomic_store(&t->prod_wait, 1);
		while (!t->stop && RING_BYTES - (head - atomic_load(&t->freed)) < RING_STEP)
			pthread_cond_wait(&t->wake_prod, &t->mu);
		atomic_store(&t->prod_wait, 0);
		if (t->stop) {
			pthread_mutex_unlock(&t->mu);
			return false;
		}
		pthread_mutex_unlock(&t->mu);
	}
	return true;
}

/* Chunk @seq used up at @head: its bound, then the count the reader reads it by. */
static void chunk_done(struct zahead *t, u64 seq, u64 head)
{
	t->bound[seq % NBOUND] = head;
	atomic_store(&t->ndone, seq + 1);
	wake(t, &t->cons_wait, &t->wake_cons);
}

/*
 * The thread: each chunk in turn, decompressed into the ring RING_STEP at a
 * time until its input is used and zstd holds no more output, as the lazy
 * window does (the same hint, since and error), the head published after
 * each call.  After an error the chunks still fed are done at once, empty.
 */
static void *ahead_main(void *arg)
{
	struct hm_zstream *z = arg;
	struct zahead *t = z->t;
	struct zchunk *c = NULL;
	size_t cpos = 0;
	u64 head = 0, seq = 0;
	bool more = false, stuck;

	for (;;) {
		ZSTD_inBuffer ib;
		ZSTD_outBuffer ob;
		size_t r;

		if (!c) {
			pthread_mutex_lock(&t->mu);
			while (!t->stop && !t->first)
				pthread_cond_wait(&t->wake_prod, &t->mu);
			if (t->stop) {
				pthread_mutex_unlock(&t->mu);
				break;
			}
			c = t->first;
			t->first = c->next;
			if (!t->first)
				t->last = NULL;
			pthread_mutex_unlock(&t->mu);
			cpos = 0;
			more = false;
		}
		if (atomic_load(&t->err)) {
			free(c);
			c = NULL;
			chunk_done(t, seq++, head);
			continue;
		}
		if (!room_wait(t, head))
			break;
		ib = (ZSTD_inBuffer){ c->data, c->len, cpos };
		ob = (ZSTD_outBuffer){ t->ring + (head & (RING_BYTES - 1)), RING_STEP, 0 };
		r = ZSTD_decompressStream(z->zs, &ob, &ib);
		if (ZSTD_isError(r)) {
			atomic_store(&t->err_seq, seq);
			atomic_store(&t->err, -EBADMSG);
			free(c);
			c = NULL;
			chunk_done(t, seq++, head);
			continue;
		}
		z->hint = r;
		z->since = ob.pos ? 0 : z->since + (ib.pos - cpos);
		/* no progress: treat the chunk as used up */
		stuck = ib.pos == cpos && !ob.pos;
		more = !stuck && ob.pos == ob.size;
		cpos = ib.pos;
		if (ob.pos) {
			head += ob.pos;
			atomic_store(&t->head, head);
		}
		if (stuck || (cpos == c->len && !more)) {
			free(c);
			c = NULL;
			chunk_done(t, seq++, head);
		} else if (ob.pos) {
			wake(t, &t->cons_wait, &t->wake_cons);
		}
	}
	free(c);
	return NULL;
}

/* The ring, mapped twice end to end; NULL when it cannot be. */
static u8 *ring_map(void)
{
	int fd = memfd_create("hitmap-zstd", MFD_CLOEXEC);
	u8 *base = MAP_FAILED;

	if (fd < 0)
		return NULL;
	if (ftruncate(fd, RING_BYTES))
		goto out;
	base = mmap(NULL, 2 * (size_t)RING_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		goto out;
	if (mmap(base, RING_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED ||
	    mmap(base + RING_BYTES, RING_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
		 0) == MAP_FAILED) {
		munmap(base, 2 * (size_t)RING_BYTES);
		base = MAP_FAILED;
	}
out:
	close(fd);
	return base == MAP_FAILED ? NULL : base;
}

static void ahead_delete(struct zahead *t)
{
	if (t->ring)
		munmap(t->ring, 2 * (size_t)RING_BYTES);
	while (t->first) {
		struct zchunk *n = t->first->next;

		free(t->first);
		t->first = n;
	}
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->wake_prod);
	pthread_cond_destroy(&t->wake_cons);
	free(t);
}

/* The thread's side, started; NULL (decompress lazily) when any of it fails. */
static struct zahead *ahead_new(struct hm_zstream *z)
{
	struct zahead *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->wake_prod, NULL);
	pthread_cond_init(&t->wake_cons, NULL);
	t->ring = ring_map();
	z->t = t;
	if (!t->ring || pthread_create(&t->th, NULL, ahead_main, z)) {
		z->t = NULL;
		ahead_delete(t);
		return NULL;
	}
	return t;
}

/* ---- the stream */

struct hm_zstream *hm_zstream__new(bool ahead)
{
	struct hm_zstream *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->zs = ZSTD_createDStream();
	if (!z->zs) {
		free(z);
		errno = ENOMEM;
		return NULL;
	}
	ZSTD_initDStream(z->zs);
	if (ahead)
		ahead_new(z);	/* else, or failing that, lazily */
	return z;
}

bool hm_zstream__ahead(const struct hm_zstream *z)
{
	return z->t != NULL;
}

void hm_zstream__delete(struct hm_zstream *z)
{
	if (!z)
		return;
	if (z->t) {
		pthread_mutex_lock(&z->t->mu);
		z->t->stop = true;
		pthread_cond_signal(&z->t->wake_prod);
		pthread_mutex_unlock(&z->t->mu);
		pthread_join(z->t->th, NULL);
		ahead_delete(z->t);
	}
	ZSTD_freeDStream(z->zs);
	free(z->in);
	free(z->out);
	free(z);
}

/* Ahead: the chunk copied onto the thread's list. */
static int ahead_feed(struct zahead *t, const void *src, size_t n)
{
	struct zchunk *c = malloc(sizeof(*c) + n);

	if (!c)
		return -ENOMEM;
	c->next = NULL;
	c->len = n;
	memcpy(c->data, src, n);
	pthread_mutex_lock(&t->mu);
	if (t->last)
		t->last->next = c;
	else
		t->first = c;
	t->last = c;
	pthread_cond_signal(&t->wake_prod);
	pthread_mutex_unlock(&t->mu);
	t->nfed++;
	return 0;
}

int hm_zstream__prefeed(struct hm_zstream *z, const void *src, size_t n)
{
	int err;

	if (!z->t || z->t->nfed - z->t->nrel >= AHEAD_MAX)
		return 0;
	err = ahead_feed(z->t, src, n);
	return err < 0 ? err : 1;
}

void hm_zstream__release(struct hm_zstream *z)
{
	if (z->t && z->t->nrel < z->t->nfed)
		z->t->nrel++;
}

int hm_zstream__feed(struct hm_zstream *z, const void *src, size_t n)
{
	size_t left = z->in_len - z->in_pos;

	if (z->t) {
		/* after the chunks fed ahead (the reader releases those first) */
		int err = ahead_feed(z->t, src, n);

		if (!err)
			z->t->nrel = z->t->nfed;
		return err;
	}
	if (!n)
		return 0;
	if (left)
		memmove(z->in, z->in + z->in_pos, left);
	z->in_len = left;
	z->in_pos = 0;
	if (left + n > z->in_cap) {
		size_t cap = left + n < 65536 ? 65536 : left + n;
		u8 *p = realloc(z->in, cap);

		if (!p)
			return -ENOMEM;
		z->in = p;
		z->in_cap = cap;
	}
	memcpy(z->in + z->in_len, src, n);
	z->in_len += n;
	return 0;
}

/* Ahead: the end of what the reader may read, the bytes of the chunks released. */
static u64 ahead_limit(struct zahead *t)
{
	u64 head = atomic_load(&t->head);

	if (!t->nrel)
		return 0;
	if (atomic_load(&t->ndone) >= t->nrel)
		return t->bound[(t->nrel - 1) % NBOUND];
	return head;	/* read before ndone: all of it the released chunks' */
}

/* Ahead: whether the thread is still on a released chunk. */
static bool ahead_busy(struct zahead *t)
{
	return atomic_load(&t->ndone) < t->nrel;
}

/* Ahead: the zstd error, once the reader has released the chunk it came in. */
static int ahead_err(struct zahead *t)
{
	int err = atomic_load(&t->err);

	return err && atomic_load(&t->err_seq) < t->nrel ? err : 0;
}

/* Ahead: the ring up to the reader's tail given back to the thread. */
static void ahead_free(struct hm_zstream *z)
{
	z->freed = z->tail;
	atomic_store(&z->t->freed, z->tail);
	wake(z->t, &z->t->prod_wait, &z->t->wake_prod);
}

/*
 * Ahead: the bytes handed out before are let go, then wait for @need bytes
 * or for the thread to be done with the chunks released short of them.
 */
static int ahead_ensure(struct hm_zstream *z, size_t need, u8 **out, size_t *avail)
{
	struct zahead *t = z->t;
	u64 lim;

	/* a step's worth at a time (a fenced store), and always before waiting */
	if (z->tail - z->freed >= RING_STEP)
		ahead_free(z);
	lim = ahead_limit(t);
	if (lim - z->tail < need && ahead_busy(t)) {
		ahead_free(z);
		pthread_mutex_lock(&t->mu);
		atomic_store(&t->cons_wait, 1);
		while ((lim = ahead_limit(t)) - z->tail < need && ahead_busy(t))
			pthread_cond_wait(&t->wake_cons, &t->mu);
		atomic_store(&t->cons_wait, 0);
		pthread_mutex_unlock(&t->mu);
	}
	*out = t->ring + (z->tail & (RING_BYTES - 1));
	*avail = lim - z->tail;
	if (*avail >= need)
		return 1;
	return ahead_err(t);
}

int hm_zstream__ensure(struct hm_zstream *z, size_t need, u8 **out, size_t *avail)
{
	if (z->t && need <= RING_BYTES - RING_STEP)
		return ahead_ensure(z, need, out, avail);
	if (z->t) {
		*out = z->t->ring + (z->tail & (RING_BYTES - 1));
		*avail = 0;
		return -EFBIG;	/* no record is this large (a u16 size, a 64 KiB step) */
	}
	while (z->out_len - z->out_head < need) {
		ZSTD_inBuffer ib;
		ZSTD_outBuffer ob;
		size_t r, cap;

		if (z->in_pos >= z->in_len && !z->full)
			break;
		if (z->out_head) {
			memmove(z->out, z->out + z->out_head, z->out_len - z->out_head);
			z->out_len -= z->out_head;
			z->out_head = 0;
		}
		cap = need > OUT_WINDOW ? need : OUT_WINDOW;
		if (cap > z->out_cap) {
			u8 *p = realloc(z->out, cap);

			if (!p)
				return -ENOMEM;
			z->out = p;
			z->out_cap = cap;
		}
		ib = (ZSTD_inBuffer){ z->in, z->in_len, z->in_pos };
		ob = (ZSTD_outBuffer){ z->out, z->out_cap, z->out_len };
		r = ZSTD_decompressStream(z->zs, &ob, &ib);
		if (ZSTD_isError(r))
			return -EBADMSG;
		z->hint = r;
		z->since = ob.pos != z->out_len ? 0 : z->since + (ib.pos - z->in_pos);
		z->full = ob.pos == ob.size;
		if (ib.pos == z->in_pos && ob.pos == z->out_len) {
			/* no progress: treat the chunk as used up */
			z->in_pos = z->in_len;
			z->full = false;
			break;
		}
		z->in_pos = ib.pos;
		z->out_len = ob.pos;
	}
	*out = z->out + z->out_head;
	*avail = z->out_len - z->out_head;
	return *avail >= need;
}

void hm_zstream__consume(struct hm_zstream *z, size_t n)
{
	if (z->t) {
		u64 have = ahead_limit(z->t) - z->tail;

		if (n > have)
			n = have;
		z->tail += n;
		z->pos += n;
		return;
	}
	if (n > z->out_len - z->out_head)
		n = z->out_len - z->out_head;
	z->out_head += n;
	z->pos += n;
}

u64 hm_zstream__pos(const struct hm_zstream *z)
{
	return z->pos;
}

size_t hm_zstream__pending(const struct hm_zstream *z)
{
	if (z->t)
		return ahead_limit(z->t) - z->tail;
	return z->out_len - z->out_head;
}

u64 hm_zstream__cut(const struct hm_zstream *z)
{
	/*
	 * Between blocks zstd wants a 3-byte block header (a flushed stream,
	 * as perf and hitmap write) and after a frame's end nothing; anything
	 * else is a block or frame header cut short.
	 */
	if (z->t) {
		/* the thread idle: every chunk fed released and done */
		if (z->t->nfed != z->t->nrel || ahead_busy(z->t) || !z->hint || z->hint == 3)
			return 0;
		return z->since ? z->since : 1;
	}
	if (z->in_pos < z->in_len || z->full || !z->hint || z->hint == 3)
		return 0;
	return z->since ? z->since : 1;
}

bool hm_zstream__input_left(const struct hm_zstream *z)
{
	/* ahead, an error in a chunk released: there for hm_zstream__ensure to return */
	if (z->t)
		return ahead_busy(z->t) || ahead_err(z->t);
	return z->in_pos < z->in_len || z->full;
}
