/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_LOG_H
#define HITMAP_LOG_H

#include <stdarg.h>

/*
 * The library never prints.  Everything it has to say goes through one
 * settable sink; the CLI installs one that writes to stderr.
 */
enum hm_log_level {
	HM_LOG_ERROR = 0,
	HM_LOG_WARN  = 1,
	HM_LOG_INFO  = 2,
	HM_LOG_DEBUG = 3,
};

typedef void (*hm_log_fn)(enum hm_log_level level, const char *msg, void *ctx);

/* Install @fn (NULL: silence).  Messages above @max_level are dropped. */
void hm_log__set_sink(hm_log_fn fn, void *ctx, enum hm_log_level max_level);

/*
 * Library-internal: format and emit one message (no trailing newline needed).
 * Returns nothing; never fails.
 */
void hm_log(enum hm_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The last error message, kept per thread so a caller that got -EINVAL can
 * show the one-line reason (file, offset, fix) that went with it.
 */
const char *hm_log__last_error(void);

/*
 * Nothing the calling thread logs is emitted while quiet (nests): a second
 * read of what another reader reports (report --threads over ranges).
 */
void hm_log__quiet(int on);

/*
 * What the calling thread logs from now on is kept, not emitted, until
 * hm_log__release: @emit 1 emits it in order, 0 drops it.  A thread that
 * reads ahead on a plan that may be given up (report --threads: the first
 * range runs while the file's cuts are still being found; given up, the
 * one-reader pass says it all again).
 */
void hm_log__hold(void);
void hm_log__release(int emit);

/*
 * Data was lost: a record, chunk, frame, feature section or metadata block
 * could not be read and was skipped (after a warning that says where and
 * what).  Counted process-wide, so the CLI can exit with its "data lost"
 * status (3) however deep the reader sat.
 */
void hm_log__data_lost(void);
unsigned long hm_log__nr_data_lost(void);

#define hm_err(...)   hm_log(HM_LOG_ERROR, __VA_ARGS__)
/* A warning that says data was lost (see hm_log__data_lost). */
#define hm_warn_lost(...) do { hm_log__data_lost(); hm_log(HM_LOG_WARN, __VA_ARGS__); } while (0)
#define hm_warn(...)  hm_log(HM_LOG_WARN, __VA_ARGS__)
#define hm_info(...)  hm_log(HM_LOG_INFO, __VA_ARGS__)
#define hm_debug(...) hm_log(HM_LOG_DEBUG, __VA_ARGS__)

#endif
