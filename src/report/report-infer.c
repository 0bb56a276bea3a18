// SPDX-License-Identifier: GPL-2.0-only
/*
 * Futex tables of a file that carries none (no hitmap metadata, no
 * --futex-table): inferred from its samples (src/futex/infer-scan.c), the
 * same way for every view, so that the cache-line table, its details, JSON,
 * CSV, the HTML page and the diff name the same lines the same way.
 *
 *   futex views (want_buckets): they key on the table and index during the
 *     pass, so the tables come from a pre-scan of the file before it.
 *   cache-line views only (want_lines): names are given after the pass, so
 *     the pass itself feeds the observer and the tables are placed at its
 *     end: no second read, so a pipe infers them too.
 * The futex views of a pipe, which cannot be read twice, get no tables
 * (they say why): their rows would have to be kept per line and offset
 * through the pass and re-keyed after it.  hitmap report copies such a
 * pipe to a temporary file first; a file in pipe mode is read twice.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hitmap/futex_infer.h>
#include "report.h"

/*
 * Whether the input can be read only once: standard input that is not a
 * regular file read from its start (hitmap report copies such a pipe to a
 * temporary file first where the futex views need the tables, see
 * cmd-report.c).  A file in pipe mode is a file: it can be read twice.
 */
static bool is_pipe(const struct hm_report *r)
{
	struct stat st;

	if (strcmp(r->opts.input, "-"))
		return false;
	return fstat(STDIN_FILENO, &st) || !S_ISREG(st.st_mode) || lseek(STDIN_FILENO, 0, SEEK_CUR) != 0;
}

int hm_report__infer_setup(struct hm_report *r)
{
	if (r->futex.nr_tables)
		return 0;
	if (r->opts.want_buckets) {
		/*
		 * The default kernel symbols depend on the recorded kernel's
		 * build-id, from its MMAP record: the pre-scan reads the maps
		 * into a copy the symbols look at meanwhile, so that it and
		 * the pass pick the same symbols.
		 */
		struct hm_maps *maps = is_pipe(r) ? NULL : hm_maps__new();

		if (maps) {
			hm_maps__set_build_ids(maps, r->header);
			hm_symbols__attach_maps(r->syms, maps);
		}
		hm_futex_model__infer_file(&r->futex, is_pipe(r) ? NULL : r->opts.input,
					   r->opts.kernel_release, r->syms, maps, r->topo);
		if (maps) {
			hm_symbols__attach_maps(r->syms, r->maps);
			hm_maps__delete(maps);
		}
		return 0;
	}
	if (!r->opts.want_lines)
		return 0;
	r->infer = hm_futex_observer__new(r->header, r->opts.kernel_release, r->syms, r->topo, &r->futex);
	return r->infer ? 0 : -ENOMEM;
}

int hm_report__infer_finish(struct hm_report *r)
{
	int n;

	if (!r->infer)
		return 0;
	n = hm_futex_model__infer_observed(&r->futex, r->infer, r->name);
	hm_futex_observer__delete(r->infer);
	r->infer = NULL;
	return n == -ENOMEM ? n : 0;	/* a failed inference leaves lines unnamed (warned) */
}
