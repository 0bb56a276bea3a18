// SPDX-License-Identifier: GPL-2.0-only
/*
 * hitmap script's header lines (script-header.h).  perf script --header
 * prints perf_session__fprintf_info(session, stdout, -I given): the lines
 * of perf report --header-only, without -I unless given, so the features
 * perf prints only in full say "# X info available, use -I to display".
 * In pipe mode the features are records in the stream: perf prints each
 * as it comes (perf_event__process_feature()) when --header or -I asks
 * for them; --header-only stops after the opening lines.
 */
#include <stdio.h>
#include <string.h>
#include "header-print.h"
#include "script-header.h"

void hm_script_header__begin(const struct hm_script_header *sh, struct hm_reader *r,
			     const char *input)
{
	struct hm_header_print hp = {
		.compat = sh->compat,
		.full = sh->show_info,
		.stdin_time = true,
		.features_later = true,
	};

	if (!sh->header)
		return;
	hm_header_print__text(r, input, &hp);
	fflush(stdout);
}

void hm_script_header__feature(const struct hm_script_header *sh, struct hm_reader *r,
			       const struct hm_event *ev, struct obuf *o)
{
	struct hm_header_print hp = { .compat = sh->compat, .full = sh->show_info };
	u64 feat;

	if (!(sh->header || sh->show_info) || !hm_reader__header(r)->pipe || ev->size < 16)
		return;
	memcpy(&feat, (const char *)ev->data + 8, sizeof(feat));
	/*
	 * perf record ends the features with an empty HEADER_LAST_FEATURE
	 * mark, its own: perf 6.1's is perf 7.3's CPU_DOMAIN_INFO, which
	 * perf 7.3 cannot read from nothing and leaves out.  Only the
	 * features that are their own contents come empty.
	 */
	if (ev->size <= 16 && feat != HM_FEAT_BRANCH_STACK && feat != HM_FEAT_AUXTRACE &&
	    feat != HM_FEAT_STAT)
		return;
	ob_flush(o);
	hm_header_print__feature(r, (int)feat, &hp);
	fflush(stdout);
}
