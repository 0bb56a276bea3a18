// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hitmap/log.h>

static hm_log_fn log_fn;
static void *log_ctx;
static enum hm_log_level log_max = HM_LOG_WARN;
static __thread char last_error[512];
static __thread int quiet;

/* What the calling thread logs while held (hm_log__hold), in order. */
struct held_msg {
	enum hm_log_level	level;
	char			msg[512];
};
static __thread struct held_msg *held;
static __thread size_t nr_held, alloc_held;
static __thread int holding;

void hm_log__quiet(int on)
{
	quiet += on ? 1 : -1;
}

void hm_log__set_sink(hm_log_fn fn, void *ctx, enum hm_log_level max_level)
{
	log_fn = fn;
	log_ctx = ctx;
	log_max = max_level;
}

static unsigned long nr_data_lost;

void hm_log__data_lost(void)
{
	__atomic_add_fetch(&nr_data_lost, 1, __ATOMIC_RELAXED);
}

unsigned long hm_log__nr_data_lost(void)
{
	return __atomic_load_n(&nr_data_lost, __ATOMIC_RELAXED);
}

void hm_log__hold(void)
{
	holding = 1;
}

void hm_log__release(int emit)
{
	holding = 0;
	for (size_t i = 0; i < nr_held; i++)
		if (emit && log_fn)
			log_fn(held[i].level, held[i].msg, log_ctx);
	free(held);
	held = NULL;
	nr_held = alloc_held = 0;
}

/* Keep @msg for hm_log__release; 0, or -1 when out of memory (emitted now instead). */
static int hold(enum hm_log_level level, const char *msg)
{
	if (nr_held == alloc_held) {
		size_t n = alloc_held ? alloc_held * 2 : 8;
		struct held_msg *h = realloc(held, n * sizeof(*h));

		if (!h)
			return -1;
		held = h;
		alloc_held = n;
	}
	held[nr_held].level = level;
	memcpy(held[nr_held].msg, msg, sizeof(held[nr_held].msg));
	nr_held++;
	return 0;
}

const char *hm_log__last_error(void)
{
	return last_error;
}

void hm_log(enum hm_log_level level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (quiet || (level != HM_LOG_ERROR && (!log_fn || level > log_max)))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (level == HM_LOG_ERROR)
		memcpy(last_error, buf, sizeof(buf));
	if (log_fn && level <= log_max && !(holding && !hold(level, buf)))
		log_fn(level, buf, log_ctx);
}
