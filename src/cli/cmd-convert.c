// SPDX-License-Identifier: GPL-2.0-only
/* hitmap convert: rewrite a perf.data in another form (file/pipe, zstd, byte order). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <hitmap/json.h>
#include <hitmap/perf_data.h>
#include "cli.h"
#include "output.h"
#include "util/clock.h"
#include "util/num.h"

static const char usage_text[] =
"usage: hitmap convert -i IN -o OUT [--pipe | --dir[=N]] [-z [LEVEL]] [--compressed2]\n"
"                      [--swap] [--json]\n"
"\n"
"Read any perf.data hitmap reads (file or pipe mode, either byte order,\n"
"COMPRESSED or COMPRESSED2, attrs of any size) and write it again in the\n"
"chosen form.  The default output is a plain file-mode perf.data with\n"
"128-byte attrs that perf 6.1 reads.  AUX trace data (Arm SPE, Intel PT)\n"
"is kept as it is.  IN may be a perf.data folder (perf record --threads).\n"
"\n"
"  -i, --input IN       perf.data to read ('-': standard input)\n"
"  -o, --output OUT     file (folder with --dir) to write ('-': pipe mode to\n"
"                       standard output)\n"
"      --pipe           write pipe mode (like perf record -o -)\n"
"      --dir[=N]        write OUT as a perf.data folder, as perf record --threads\n"
"                       does (perf >= 5.17 reads it): OUT/data (header, events,\n"
"                       side-band records) and OUT/data.0 .. data.N-1 (the\n"
"                       samples of CPU c in data.(c % N)); N: 1..1024, default\n"
"                       the input's CPUs.  OUT must be new or an empty folder.\n"
"  -z, --compress[=N]   zstd-compress the records, level N (default 1, 1..22)\n"
"      --compressed2    with -z: COMPRESSED2 records (perf >= 6.16) instead of\n"
"                       COMPRESSED (perf >= 5.2)\n"
"      --swap           write the other byte order (big-endian on x86)\n"
"      --json           print what was done as JSON (stderr with -o -)\n"
"  -h, --help           show this help\n";

/*
 * The output @out as file mode needs: a regular file, a new one or a
 * seekable device (/dev/null); a FIFO, pipe, socket or terminal cannot take
 * the header written last at offset 0.  0, or the exit status after one line.
 */
static int check_seekable(const char *out)
{
	struct stat st;
	int fd, bad = 0;

	if (stat(out, &st) || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
		return 0;	/* the writer says what is wrong with a folder */
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		bad = 1;
	} else {
		fd = open(out, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			bad = lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE;
			close(fd);
		}
	}
	if (!bad)
		return 0;
	return hm_cli__usage_error("convert: -o %s: not seekable (a %s), and file mode writes "
				   "its header last, at offset 0; add --pipe for a pipe-mode "
				   "stream, or write a regular file (or -o - for standard "
				   "output)", out, S_ISFIFO(st.st_mode) ? "FIFO" :
				   S_ISSOCK(st.st_mode) ? "socket" : "device that cannot seek");
}

static int cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input",	 required_argument, NULL, 'i' },
		{ "output",	 required_argument, NULL, 'o' },
		{ "pipe",	 no_argument,	    NULL, 'p' },
		{ "dir",	 optional_argument, NULL, 'd' },
		{ "compress",	 optional_argument, NULL, 'z' },
		{ "compressed2", no_argument,	    NULL, '2' },
		{ "swap",	 no_argument,	    NULL, 's' },
		{ "json",	 no_argument,	    NULL, 'j' },
		{ "help",	 no_argument,	    NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hm_convert_opts o = { .out_fd = -1 };
	struct hm_convert_stats st;
	const char *in = NULL, *out = NULL, *level = NULL, *files = NULL, *wpath;
	bool json = false, zset = false, c2 = false;
	double t0;
	FILE *info;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:o:z::h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': in = optarg; break;
		case 'o': out = optarg; break;
		case 'p': o.pipe = true; break;
		case 'd':
			o.dir = true;
			files = optarg;
			/* "--dir 4" as "-z 3": a word that starts with a digit */
			if (!files && optind < argc && argv[optind][0] >= '0' &&
			    argv[optind][0] <= '9')
				files = argv[optind++];
			break;
		case 'z':
			zset = true;
			level = optarg;
			/*
			 * "-z 3": the level as the next word; a word that starts
			 * with a digit is meant as one ("-z 5x": a bad level).
			 * perf's own "-z" takes its level only as -z3 or
			 * --compression-level=3; both work here too.
			 */
			if (!level && optind < argc && argv[optind][0] >= '0' &&
			    argv[optind][0] <= '9')
				level = argv[optind++];
			break;
		case '2': c2 = true; break;
		case 's': o.swap = true; break;
		case 'j': json = true; break;
		case 'h': hm_cli__usage(usage_text); return 0;
		default:
			return hm_cli__bad_option("convert", longopts, argv, c);
		}
	}
	if (optind < argc)
		return hm_cli__usage_error("convert: unexpected argument '%s'; give the input with -i and the output with -o",
				     argv[optind]);
	if (!in || !out)
		return hm_cli__usage_error("convert: %s missing; use -i IN -o OUT ('-' for stdin/stdout)",
				     !in ? "input (-i)" : "output (-o)");
	if (!*in || !*out)
		return hm_cli__usage_error("convert: %s '': an empty file name; give a file, or '-' "
					   "for %s", !*in ? "-i" : "-o",
					   !*in ? "standard input" : "standard output");
	if (zset) {
		int64_t l = 1;

		if (level && hm_num__parse_s64(level, 10, 1, 22, &l))
			return hm_cli__usage_error("convert: -z %s: not a zstd level; use 1..22", level);
		o.comp_level = (int)l;
	}
	if (files) {
		int64_t n;

		if (hm_num__parse_s64(files, 10, 1, HM_CONVERT_DIR_MAX, &n))
			return hm_cli__usage_error("convert: --dir=%s: not a number of data.N files; "
						   "use 1..%d", files, HM_CONVERT_DIR_MAX);
		o.dir_files = (u32)n;
	}
	if (o.dir && o.pipe)
		return hm_cli__usage_error("convert: --dir and --pipe: a perf.data folder is file "
					   "mode, not a stream; drop one of them");
	if (o.dir && !strcmp(out, "-"))
		return hm_cli__usage_error("convert: --dir with -o -: a perf.data folder cannot go "
					   "to standard output; give a folder name with -o");
	if (c2 && !zset)
		return hm_cli__usage_error("convert: --compressed2 needs -z; add -z [LEVEL]");
	o.compressed2 = c2;
	hm_out__input(in);
	if (hm_out__check(out, "-o", true))
		return 1;
	if (!strcmp(out, "-")) {
		if (isatty(STDOUT_FILENO))
			return hm_cli__error("convert: -o -: standard output is a terminal; pipe it (| perf script -i -) or redirect it");
		o.pipe = true;
		o.out_fd = STDOUT_FILENO;
		out = "<stdout>";
	}
	if (o.out_fd < 0 && !o.pipe && !o.dir && (ret = check_seekable(out)))
		return ret;
	info = o.out_fd == STDOUT_FILENO ? stderr : stdout;
	t0 = hm_clock__mono();
	/* a regular file is written beside it and put in its place when finished */
	/*
	 * a regular file is written beside it and put in its place when
	 * finished; a folder in place (hm_convert removes it on failure)
	 */
	wpath = o.out_fd < 0 && !o.dir ? hm_out__begin(out, "-o", 0644, 0) : out;
	ret = hm_convert(in, wpath, &o, &st);
	if (ret) {
		ret = hm_out__lib_error(ret, in);
		if (!o.dir)
			hm_out__drop(wpath);
		return ret;
	}
	if (!o.dir && hm_out__commit(wpath))
		return 1;
	if (json) {
		struct hm_json *j = hm_json__new(info, true);

		hm_json__obj_begin(j, NULL);
		hm_json__str(j, "input", in);
		hm_json__str(j, "output", out);
		hm_json__obj_begin(j, "input_form");
		hm_json__str(j, "mode", st.in_pipe ? "pipe" : "file");
		hm_json__bool(j, "swapped", st.in_swap);
		hm_json__bool(j, "compressed", st.in_compressed);
		hm_json__u64(j, "attr_size", st.in_attr_size);
		hm_json__obj_end(j);
		hm_json__obj_begin(j, "output_form");
		hm_json__str(j, "mode", o.pipe ? "pipe" : o.dir ? "folder" : "file");
		if (o.dir) {
			hm_json__u64(j, "data_files", st.dir_files);
			hm_json__u64(j, "data_records", st.dir_main_records);
		}
		hm_json__bool(j, "swapped", o.swap);
		hm_json__str(j, "compression", !o.comp_level ? "none" :
			     o.compressed2 ? "COMPRESSED2" : "COMPRESSED");
		hm_json__u64(j, "level", (u64)o.comp_level);
		hm_json__bool(j, "tracing_data", st.tracing_data);
		hm_json__obj_end(j);
		hm_json__u64(j, "records", st.records);
		hm_json__u64(j, "samples", st.samples);
		hm_json__u64(j, "dropped", st.dropped);
		hm_json__u64(j, "aux_records", st.aux_records);
		hm_json__u64(j, "aux_bytes", st.aux_bytes);
		if (o.comp_level) {
			hm_json__u64(j, "raw_bytes", st.raw_bytes);
			hm_json__u64(j, "compressed_bytes", st.comp_bytes);
		}
		hm_json__double(j, "seconds", hm_clock__mono() - t0);
		hm_json__obj_end(j);
		hm_json__delete(j);
	} else {
		fprintf(info, "%s -> %s: %llu records (%llu samples), %s mode%s%s",
			in, out, (unsigned long long)st.records, (unsigned long long)st.samples,
			o.pipe ? "pipe" : "file", o.swap ? ", swapped" : "",
			!o.comp_level ? "" : o.compressed2 ? ", COMPRESSED2" : ", COMPRESSED");
		if (o.comp_level && st.comp_bytes)
			fprintf(info, " (%.1fx)", (double)st.raw_bytes / st.comp_bytes);
		if (o.dir)
			fprintf(info, "; a folder: data (%llu records) and data.0 .. data.%u",
				(unsigned long long)st.dir_main_records, st.dir_files - 1);
		if (st.aux_records)
			fprintf(info, "; %llu AUX trace records (%llu bytes of AUX data)",
				(unsigned long long)st.aux_records, (unsigned long long)st.aux_bytes);
		if (st.dropped)
			fprintf(info, "; %llu records of unknown layout dropped",
				(unsigned long long)st.dropped);
		fputc('\n', info);
	}
	return 0;
}

HM_COMMAND("convert", "rewrite a perf.data as file/pipe mode, a folder, zstd or the other byte order", cmd_convert)
