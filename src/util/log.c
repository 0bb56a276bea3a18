// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>
#include <hitmap/log.h>

static hm_log_fn log_fn;
static void *log_ctx;
static enum hm_log_level log_max = HM_LOG_WARN;
static __thread char last_error[512];
static __thread int quiet;

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
	if (log_fn && level <= log_max)
		log_fn(level, buf, log_ctx);
}
