/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_CLI_PROGRESS_H
#define HITMAP_CLI_PROGRESS_H

/*
 * CLI only (the library never prints: it reports progress through a
 * callback, e.g. hm_report_opts.on_progress, and the CLI shows it here).
 * Progress of long work (reading a large file, recording) on stderr, only
 * when stderr is a terminal; nothing at all otherwise, so pipes, logs and
 * tests stay clean.  HITMAP_PROGRESS=0 turns it off, =1 forces it on.
 *
 *   struct hm_progress *p = hm_progress__new("reading perf.data", size);
 *   ... hm_progress__update(p, done); ...
 *   hm_progress__delete(p);		// clears the line
 *
 * __new returns NULL when there is nothing to show; __update and __delete
 * accept NULL, so callers never check.
 */
#include <stdint.h>

struct hm_progress;

/* @total: units of work (bytes, samples), 0 when unknown. */
struct hm_progress *hm_progress__new(const char *label, uint64_t total);
void hm_progress__update(struct hm_progress *p, uint64_t done);
void hm_progress__delete(struct hm_progress *p);

/*
 * For hm_report_opts.on_progress: @priv is a struct hm_report_progress whose
 * .p is made at the first call, labelled .label; the caller deletes .p.
 */
struct hm_report_progress {
	struct hm_progress	*p;
	const char		*label;
};
void hm_progress__report_cb(void *priv, uint64_t done, uint64_t total);

#endif
