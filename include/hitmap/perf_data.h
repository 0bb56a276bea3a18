/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_PERF_DATA_H
#define HITMAP_PERF_DATA_H

/*
 * perf.data: the streaming reader and the file-mode writer.
 *
 * Data flows one way: a source writes perf.data, the reader streams it back
 * as events, and the analysis layers (classify, resolve, aggregate) consume
 * those events.  The reader's memory does not grow with the number of
 * records: it maps or reads the data in windows and hands out one event at a
 * time; pointers inside an event are valid until the next call.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/perf_event.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t  u8;
typedef int64_t  s64;
typedef int32_t  s32;

/* perf.data user record types (tools/lib/perf/include/perf/event.h). */
enum hm_user_record {
	HM_RECORD_HEADER_ATTR		= 64,
	HM_RECORD_HEADER_EVENT_TYPE	= 65,
	HM_RECORD_HEADER_TRACING_DATA	= 66,
	HM_RECORD_HEADER_BUILD_ID	= 67,
	HM_RECORD_FINISHED_ROUND	= 68,
	HM_RECORD_ID_INDEX		= 69,
	HM_RECORD_AUXTRACE_INFO		= 70,
	HM_RECORD_AUXTRACE		= 71,
	HM_RECORD_AUXTRACE_ERROR	= 72,
	HM_RECORD_THREAD_MAP		= 73,
	HM_RECORD_CPU_MAP		= 74,
	HM_RECORD_STAT_CONFIG		= 75,
	HM_RECORD_STAT			= 76,
	HM_RECORD_STAT_ROUND		= 77,
	HM_RECORD_EVENT_UPDATE		= 78,
	HM_RECORD_TIME_CONV		= 79,
	HM_RECORD_HEADER_FEATURE	= 80,
	HM_RECORD_COMPRESSED		= 81,
	HM_RECORD_FINISHED_INIT		= 82,
	HM_RECORD_COMPRESSED2		= 83,
	HM_RECORD_MAX			= 128,	/* counters array size */
};

/* Header feature bits (tools/perf/util/header.h). */
enum hm_feature {
	HM_FEAT_TRACING_DATA = 1, HM_FEAT_BUILD_ID, HM_FEAT_HOSTNAME,
	HM_FEAT_OSRELEASE, HM_FEAT_VERSION, HM_FEAT_ARCH, HM_FEAT_NRCPUS,
	HM_FEAT_CPUDESC, HM_FEAT_CPUID, HM_FEAT_TOTAL_MEM, HM_FEAT_CMDLINE,
	HM_FEAT_EVENT_DESC, HM_FEAT_CPU_TOPOLOGY, HM_FEAT_NUMA_TOPOLOGY,
	HM_FEAT_BRANCH_STACK, HM_FEAT_PMU_MAPPINGS, HM_FEAT_GROUP_DESC,
	HM_FEAT_AUXTRACE, HM_FEAT_STAT, HM_FEAT_CACHE, HM_FEAT_SAMPLE_TIME,
	HM_FEAT_MEM_TOPOLOGY, HM_FEAT_CLOCKID, HM_FEAT_DIR_FORMAT,
	HM_FEAT_BPF_PROG_INFO, HM_FEAT_BPF_BTF, HM_FEAT_COMPRESSED,
	HM_FEAT_CPU_PMU_CAPS, HM_FEAT_CLOCK_DATA, HM_FEAT_HYBRID_TOPOLOGY,
	HM_FEAT_PMU_CAPS, HM_FEAT_CPU_DOMAIN_INFO, HM_FEAT_E_MACHINE,
	HM_FEAT_CLN_SIZE,
	/*
	 * hitmap's own metadata (futex table geometry, kernel symbols, workload
	 * results).  Only an in-memory key: in a file the metadata is not a
	 * feature section but sits past the last one, found by the trailer of
	 * hitmap/meta.h, because perf 6.1 inject crashes on unknown feature
	 * bits.  The writer takes it as this "feature"; the reader puts it
	 * into hm_header.hitmap_meta.
	 */
	HM_FEAT_HITMAP = 200,
	HM_FEAT_BITS = 256,
};

/* One event (attr) of the file: perf's evsel. */
struct hm_evsel {
	int			idx;
	struct perf_event_attr	attr;		/* known fields; newer ones dropped */
	u32			file_attr_size;	/* attr.size as found in the file */
	char			*name;		/* EVENT_DESC name, or NULL */
	bool			name_late;	/* @name from a pipe EVENT_DESC sent before
						   this event's attr (perf's header and
						   6.1 name the event by it, 6.12+ not) */
	u64			*ids;
	u32			nr_ids;
	/* derived */
	bool			needs_swap;
	int			id_pos;		/* u64 index of the id in a sample, -1 */
	int			is_pos;		/* u64 index from the end in the trailer, -1 */
	struct tep_event	*tp_event;	/* tracepoint format, when known */
};

/* A branch entry as the kernel writes it. */
struct hm_branch_entry {
	u64 from, to, flags;
};

/* A decoded PERF_RECORD_SAMPLE (or a sample_id_all trailer). */
struct hm_sample {
	const struct hm_evsel	*evsel;
	u64	sample_type;	/* which fields below are present */
	u16	misc;		/* record misc: cpumode = misc & 7 */
	u64	ip;
	u32	pid, tid;
	u64	time;
	u64	addr;
	u64	id;
	u64	stream_id;
	u32	cpu;
	u64	period;
	u64	read_nr;	/* READ: number of values; data not decoded */
	const u64 *read;
	u64	callchain_nr;
	const u64 *callchain;	/* native order */
	u32	raw_size;
	const void *raw;	/* RAW tracepoint payload, never swapped */
	u64	branch_nr;
	u64	branch_hw_idx;
	const struct hm_branch_entry *branch;
	u64	user_regs_abi, intr_regs_abi;
	u64	user_stack_size;
	u64	weight;		/* WEIGHT, or WEIGHT_STRUCT.var1_dw */
	u16	ins_lat;	/* WEIGHT_STRUCT.var2_w */
	u16	weight3;	/* WEIGHT_STRUCT.var3_w */
	u64	data_src;	/* PERF_MEM_DATA_SRC_NONE when absent */
	u64	transaction;
	u64	phys_addr;
	u64	cgroup;
	u64	data_page_size;
	u64	code_page_size;
	u64	aux_size;
};

/* One record as the reader hands it out. */
struct hm_event {
	u32		type;
	u16		misc;
	u32		size;		/* record size (AUXTRACE: without the payload that
					   follows it, which the reader skips) */
	u64		file_offset;	/* of the record in the (decompressed) stream */
	bool		compressed;	/* came out of a COMPRESSED record */
	const void	*data;		/* the whole record, 8-byte aligned, byte-swapped
					   to native field by field (kernel records, SAMPLE
					   with its branch flag bitfield, trailers, user
					   records, the HEADER_ATTR attr and ids, HEADER_FEATURE
					   sections of known layout); left in file order:
					   byte payloads (RAW, stack, AUX, COMPRESSED), the
					   HEADER_FEATURE sections TRACING_DATA and the BTF
					   data of BPF_BTF (own byte order), HITMAP and
					   unknown ones, and records of unknown type */
	struct hm_sample sample;	/* SAMPLE; or the trailer when sample_id_all */
	bool		has_sample;
	const void	*aux;		/* AUXTRACE with hm_reader_opts.aux_payload: the
					   aux_size bytes of AUX data that follow it, as
					   in the file; valid until the next record */
	u64		aux_size;
};

/* Feature data, parsed.  Strings are NULL when the feature is absent. */
struct hm_cpu_topo {
	int	core_id, socket_id, die_id;	/* -1 when unknown */
};

/*
 * Limits on what a file's header may claim (the kernel's own maxima): a
 * feature section beyond them is corrupt and ignored, since these counts
 * size per-CPU and per-node tables.
 */
#define HM_MAX_CPUS	(1u << 15)	/* NRCPUS, CPU ids */
#define HM_MAX_NODES	1024u		/* NUMA/MEM_TOPOLOGY nodes and node ids */
#define HM_MAX_SOCKETS	4096		/* socket and die ids */

struct hm_numa_node {
	u32	node;
	u64	mem_total_kb, mem_free_kb;
	char	*cpus;		/* cpulist string, as in the file */
};

struct hm_mem_node {
	u64	node;
	u64	nbits;
	u64	*bitmap;	/* memory blocks of block_size bytes */
};

struct hm_cache_level {
	u32	level, line_size, sets, ways;
	char	*type, *size, *map;
};

struct hm_pmu_caps {
	char	*pmu_name;	/* NULL for CPU_PMU_CAPS */
	u32	nr;
	char	**names, **values;
};

struct hm_build_id {
	s32	pid;
	u16	misc;
	u8	size;
	u8	id[20];
	char	*filename;
};

/* One jited function of a BPF program (perf's struct bpf_prog_info arrays). */
struct hm_bpf_func {
	u64	addr;		/* jited_ksyms[i] */
	u32	size;		/* jited_func_lens[i] */
	u32	btf_type;	/* func_info[i].type_id, where func_info is saved */
	u8	tag[8];		/* prog_tags[i] */
};

/* One program of BPF_PROG_INFO. */
struct hm_bpf_prog {
	u32	id, btf_id;
	char	name[17];	/* info.name (BPF_OBJ_NAME_LEN) */
	/*
	 * printable: the counts of jited symbols, lengths and tags agree (perf
	 * prints the program only then) and their arrays lie in the entry's
	 * data (perf would read past it otherwise); func_info: every function
	 * has its BTF type id
	 */
	bool	printable, func_info;
	u32	nr_funcs;
	struct hm_bpf_func *funcs;
};

/* One BTF blob of BPF_BTF. */
struct hm_btf {
	u32	id, size;
	u8	*data;
};

/* One feature section as the reader found it (hm_header.feat_raw). */
struct hm_feat_raw {
	void	*data;		/* NULL when empty */
	u64	size;
	bool	present;
};

struct hm_header {
	bool	pipe;
	bool	needs_swap;
	u64	data_offset, data_size;
	u64	feat_bits[HM_FEAT_BITS / 64];
	char	*hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	u32	nr_cpus_avail, nr_cpus_online;
	u64	total_mem_kb;
	u32	cmdline_argc;
	char	**cmdline_argv;
	/* CPU_TOPOLOGY */
	u32	nr_package_cpus, nr_core_cpus, nr_die_cpus;
	char	**package_cpus, **core_cpus, **die_cpus;
	struct hm_cpu_topo *cpu;	/* nr_cpus_avail entries */
	/* NUMA_TOPOLOGY */
	u32	nr_numa_nodes;
	struct hm_numa_node *numa;
	/* MEM_TOPOLOGY */
	u64	mem_block_size;
	u64	nr_mem_nodes;
	struct hm_mem_node *mem;
	/* CACHE */
	u32	nr_caches;
	struct hm_cache_level *caches;
	/* PMU_MAPPINGS */
	u32	nr_pmu_mappings;
	u32	*pmu_types;
	char	**pmu_names;
	/* GROUP_DESC */
	u32	nr_groups;
	char	**group_names;
	u32	*group_leader, *group_members;
	/* HYBRID_TOPOLOGY */
	u32	nr_hybrid;
	char	**hybrid_pmu, **hybrid_cpus;
	/* CPU_PMU_CAPS (pmu_name NULL) and PMU_CAPS */
	u32	nr_pmu_caps;
	struct hm_pmu_caps *pmu_caps;
	/* BUILD_ID */
	u32	nr_build_ids;
	struct hm_build_id *build_ids;
	u64	clockid_res_ns;
	/* CLOCK_DATA (version 1): the clock and one moment on it and on the TOD */
	u32	clock_id;
	u64	clock_tod_ns, clock_ref_ns;
	/*
	 * BPF_PROG_INFO and BPF_BTF, as perf reads them (nothing from the other
	 * byte order): the programs and the BTF blobs saved with them, each
	 * sorted by id, a repeated id keeping its first entry.  Name a
	 * program's functions with hm_header__bpf_func_name().
	 */
	u32	nr_bpf_progs, nr_btf;
	struct hm_bpf_prog *bpf_progs;
	struct hm_btf *btf;
	/*
	 * Pipe mode: BPF_BTF came after BPF_PROG_INFO.  perf names the
	 * programs when their record comes, without the BTF still to come,
	 * and so does hm_header__bpf_func_name().
	 */
	bool	bpf_btf_late;
	/*
	 * CPU_TOPOLOGY: perf's reader skips the per-CPU ids (cpu[]) of this
	 * section, since its size is not above what the sibling lists would
	 * take with every string padded to 64 bytes (strings written shorter)
	 */
	bool	cpu_ids_hidden;
	u64	sample_time_first, sample_time_last;
	/* COMPRESSED */
	u32	comp_version, comp_type, comp_level, comp_ratio, comp_mmap_len;
	/* TRACING_DATA, parsed with libtraceevent (NULL when absent) */
	struct tep_handle *tep;
	/* hitmap's own metadata (HM_FEAT_HITMAP), raw */
	void	*hitmap_meta;
	u64	hitmap_meta_size;
	/*
	 * TRACING_DATA as it is in the file (or after HEADER_TRACING_DATA in
	 * pipe mode), raw, for writers that pass it through; NULL when absent.
	 */
	void	*tracing_data;
	u64	tracing_data_size;
	/*
	 * Every feature section as the file holds it (file mode) or the
	 * HEADER_FEATURE records brought it (pipe mode), for writers that
	 * pass sections on (convert): the named features that parsed, those
	 * hitmap does not parse, and empty ones (perf writes BRANCH_STACK so;
	 * the bit stays set); not TRACING_DATA, BUILD_ID, EVENT_DESC (above,
	 * or made from the events).  Numbers in native byte order, bytes as
	 * in the file.  HM_FEAT_BITS entries, NULL when none.
	 */
	struct hm_feat_raw *feat_raw;
};

static inline bool hm_header__has_feat(const struct hm_header *h, int feat)
{
	return feat >= 0 && feat < HM_FEAT_BITS &&
	       (h->feat_bits[feat / 64] >> (feat % 64)) & 1;
}

/* ---------------------------------------------------------------- reader */

struct hm_reader;

struct hm_reader_opts {
	/*
	 * Sort timestamped records by time as perf's ordered_events does: at
	 * each FINISHED_ROUND, hand out what is not later than the previous
	 * round's last timestamp, the rest at the end.  perf's queue has no
	 * size limit; past 4 MiB this one hands out early only what perf hands
	 * out in the same place anyway, found by timing the records ahead in
	 * the file (reader-ahead.c), so the order is perf's and memory stays
	 * near a round (a folder of perf record --threads: a turn of each
	 * file).  Off when the first event has no sample_id_all, as in perf.
	 */
	bool	ordered;
	/*
	 * With ordered, for a caller that only counts samples (their order
	 * among themselves does not matter, their order against the other
	 * records does): the samples of a round that, with the rounds before
	 * and after it, holds SAMPLEs alone, and which with its neighbour stays
	 * under the queue's 4 MiB, are handed out in arrival order without the
	 * queue.  Every other record, and every sample of the other rounds,
	 * comes where ordered puts it, so each sample sees the same MMAP,
	 * COMM, FORK and EXIT records before it (reader-order.c).
	 */
	bool	counts_order;
	/*
	 * With ordered: the queued record bytes past which the early hand-out
	 * looks at the records ahead (0: 4 MiB).  Tests and fuzzers set it
	 * small; the order handed out is perf's whatever its value.
	 */
	u32	queue_bytes;
	/* Hand out every record; false: SAMPLE records only.  opts NULL: every record. */
	bool	all_records;
	/*
	 * AUXTRACE payloads are handed out (hm_event.aux) instead of decoded:
	 * no Arm SPE samples are synthesized.  For copying a file (convert).
	 */
	bool	aux_payload;
	/*
	 * zstd-compressed records (COMPRESSED, COMPRESSED2) are decompressed
	 * by a thread of the reader's own, ahead of the records handed out
	 * (the same records; one more CPU busy).  false: on the caller's thread.
	 */
	bool	zstd_ahead;
	/*
	 * additive: nothing is logged while the reader opens or reads (its
	 * warnings and errors alike; a failing call still returns its errno):
	 * a second read of a file whose first read says what is wrong with it.
	 */
	bool	quiet;
};

/*
 * Open @path ("-" for standard input).  File or pipe mode is detected from
 * the magic; pipe-mode files are read as a stream either way.  Returns NULL
 * with errno set; the reason (file, offset, fix) is in hm_log__last_error().
 */
struct hm_reader *hm_reader__new(const char *path, const struct hm_reader_opts *opts);
/*
 * The same over a buffer in memory (file or pipe format); @buf must stay
 * valid until hm_reader__delete().  Used by the fuzzer and tests.
 * @opts NULL: every record, unordered.  With @opts, its fields as set.
 */
struct hm_reader *hm_reader__new_mem(const void *buf, size_t size,
				     const struct hm_reader_opts *opts);
void hm_reader__delete(struct hm_reader *r);

/*
 * Next event.  Returns 1 and fills @ev, 0 at the end, or a negative errno
 * (corrupt or truncated input: the message names the offset).  In pipe mode
 * the header (attrs, features) fills in as HEADER_* records pass by; they are
 * handed out too.
 */
int hm_reader__next(struct hm_reader *r, struct hm_event *ev);

const struct hm_header *hm_reader__header(const struct hm_reader *r);
int hm_reader__nr_evsels(const struct hm_reader *r);
const struct hm_evsel *hm_reader__evsel(const struct hm_reader *r, int idx);
const char *hm_reader__path(const struct hm_reader *r);
/* How a reader names @path in its messages (hm_reader__path): "<stdin>" for "-". */
const char *hm_reader__name_of(const char *path);

/* Per-type record counts seen so far (index: record type < HM_RECORD_MAX). */
struct hm_reader_stats {
	u64	nr[HM_RECORD_MAX];
	u64	nr_unknown;		/* types we do not know, skipped by size */
	u64	lost;			/* sum of LOST.lost */
	u64	lost_samples;		/* sum of LOST_SAMPLES.lost */
	u64	bytes;			/* record bytes handed out */
	u64	compressed_bytes;	/* payload of COMPRESSED records */
	u64	nr_unknown_id;		/* SAMPLEs whose id names no event (has_sample false) */
	u64	nr_unqueued;		/* SAMPLEs counts_order handed out without the queue */
	u64	hold_peak;		/* counts_order: the most SAMPLE bytes held at once (queue's count) */
	u64	queue_peak;		/* ordered: the most record bytes queued at a look ahead (past 4 MiB) */
	u64	queue_mem;		/* ordered: bytes of the chunks the queued records took at most */
	/*
	 * Records (counted in nr[] too) shorter than perf 7.3's minimum for
	 * their type (perf_event__min_size: EVENT_TYPE of perf 3.x is 24
	 * bytes where 7.3 wants 80); perf 7.3 skips them, uncounted, with a
	 * warning, where 6.1 and 6.12 count them.
	 */
	u64	nr_short[HM_RECORD_MAX];
};
const struct hm_reader_stats *hm_reader__stats(const struct hm_reader *r);

/* Name of a record type ("SAMPLE", "MMAP2", ...), or NULL. */
const char *hm_record__name(u32 type);
/* Name of a feature ("HOSTNAME", ...), or NULL. */
const char *hm_feature__name(int feat);
/*
 * Name of an event: EVENT_DESC's name, the tracepoint "sys:name", or one made
 * from the attr as perf does ("cycles", "cpu-clock", "raw 0x1cd").  Returns
 * e->name or @buf.
 */
const char *hm_evsel__name(const struct hm_evsel *e, char *buf, size_t size);
/*
 * The name perf @perf_compat's evsel__name() gives (enum hm_perf_compat:
 * 601, 612, 703; 0 the newest), for its --stats and script: a name made
 * from the attr takes that version's :H and :G rule, and a pipe EVENT_DESC
 * sent before the event's attr (name_late) names it in 6.1 only.
 */
const char *hm_evsel__name_v(const struct hm_evsel *e, unsigned perf_compat, char *buf,
			     size_t size);
/* The name perf @perf_compat makes from the attr alone, whatever names the event. */
const char *hm_evsel__attr_name(const struct hm_evsel *e, unsigned perf_compat, char *buf,
				size_t size);

/*
 * Decode the tracepoint payload of @s (evsel with tp_event) into "name=value"
 * text like perf script; returns bytes written or a negative errno.
 */
int hm_sample__format_tp(const struct hm_sample *s, const struct hm_header *h,
			 char *buf, size_t size);
/* Look up one numeric tracepoint field of @s by name. */
int hm_sample__tp_field(const struct hm_sample *s, const char *field, u64 *val);

/*
 * Outside a file (records from a live ring buffer): hm_evsel__derive sets
 * the derived fields of @e from its attr (the rest zeroed by the caller);
 * hm_sample__decode decodes the native PERF_RECORD_SAMPLE @rec of @size
 * bytes of event @e into @s exactly as the reader does.  0, or -EINVAL when
 * the record is shorter than its sample_type needs.
 */
void hm_evsel__derive(struct hm_evsel *e);
int hm_sample__decode(const struct hm_evsel *e, const void *rec, u32 size, struct hm_sample *s);

/* ---------------------------------------------------------------- writer */

struct hm_writer;

/*
 * Create a file-mode perf.data at @path.  Attrs are written with size 128 so
 * perf 6.1 reads the file.  Returns NULL with errno set.
 */
struct hm_writer *hm_writer__new(const char *path);

/*
 * Write the file in the other byte order (big-endian on x86), every field
 * as a machine of that order writes it, so that swap paths of readers can
 * be tested (perf reads such files too).  Call right after hm_writer__new,
 * before anything else.  In this mode hm_writer__write takes header-only
 * records (FINISHED_ROUND) and the kernel and user records whose layout it
 * knows (MMAP, MMAP2, COMM, FORK, EXIT, LOST, THROTTLE, ..., with their
 * sample_id_all trailer laid out from the first event); -EOPNOTSUPP for
 * others (SAMPLE: use hm_writer__write_sample).
 */
int hm_writer__set_swap(struct hm_writer *w, bool swap);

/*
 * The same over an open descriptor (a pipe or stdout works in pipe mode);
 * the writer does not close @fd.  @name is used in messages.
 */
struct hm_writer *hm_writer__new_fd(int fd, const char *name);

/*
 * Pipe mode (perf record -o - layout): the 16-byte pipe header, a
 * HEADER_ATTR per event, a HEADER_FEATURE per feature perf 6.1 synthesizes
 * (then the end mark, feature id 32), HEADER_TRACING_DATA and
 * HEADER_BUILD_ID records when the header has them, then the records; no
 * seeking.  hitmap's metadata is left out (perf report 6.1 fails on feature
 * ids past its last).  Call before the first record, after set_swap;
 * hm_writer__set_header must come before the first record too.
 */
int hm_writer__set_pipe(struct hm_writer *w, bool pipe);

/*
 * zstd compression at @level (1..22; 0: off): records go into one
 * continuous zstd stream, flushed per chunk of at most 256 KiB of whole
 * records, cut into COMPRESSED (81) records of at most 64 KiB, or with
 * @compressed2 COMPRESSED2 (83) records as perf >= 6.16 writes them;
 * FINISHED_ROUND stays plain; the COMPRESSED feature {0, 1, level, ratio,
 * mmap_len} is added.  Call before the first record.
 */
int hm_writer__set_compression(struct hm_writer *w, int level, bool compressed2);
/*
 * A bare record stream, as the data.N files of a perf.data folder (perf
 * record --threads) hold: the records from offset 0, with no header, ids,
 * attrs or feature sections, and no AUXTRACE index.  Events are still added
 * (SAMPLE encoding and the other byte order lay records out from their
 * attrs).  Compression works as in a file: the file's own zstd stream.
 * Call before the first record.
 */
int hm_writer__set_bare(struct hm_writer *w, bool bare);
/*
 * The DIR_FORMAT feature (u64 @version; perf's PERF_DIR_VERSION is 1) in
 * the header at close: the file is the "data" file of a perf.data folder
 * whose data.N files hold the rest of the records.  0: none.
 */
int hm_writer__set_dir_format(struct hm_writer *w, u64 version);
/* Bytes fed to and written by compression so far (after close: all). */
void hm_writer__comp_stats(const struct hm_writer *w, u64 *raw, u64 *compressed);

/* Add an event; @ids may be NULL.  Returns its index or a negative errno. */
int hm_writer__add_evsel(struct hm_writer *w, const struct perf_event_attr *attr,
			 const char *name, const u64 *ids, u32 nr_ids);

/*
 * Header features to write at close: every non-NULL field of @h whose
 * feature makes sense (HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC,
 * CPUID, TOTAL_MEM, CMDLINE, CPU_TOPOLOGY, NUMA_TOPOLOGY, MEM_TOPOLOGY, CACHE,
 * SAMPLE_TIME, CLOCKID, BUILD_ID, HM_FEAT_HITMAP, ...).  EVENT_DESC is made
 * from the evsels.  The writer copies what it needs.
 */
int hm_writer__set_header(struct hm_writer *w, const struct hm_header *h);

/* Write one raw record (any type; size from its header). */
int hm_writer__write(struct hm_writer *w, const void *rec, size_t size);

/* Whether hm_writer__write takes @rec (in swap mode: its layout is known). */
bool hm_writer__swappable(const struct hm_writer *w, const void *rec, size_t size);

/*
 * An AUXTRACE record (48 bytes, native) and the @n bytes of AUX data that
 * follow it (its size field; a multiple of 8).  With compression they go
 * beside the compressed stream, as perf writes them.
 */
int hm_writer__write_auxtrace(struct hm_writer *w, const void *rec, size_t size,
			      const void *payload, u64 n);

/* Encode and write a SAMPLE of evsel @idx from the fields its sample_type selects. */
int hm_writer__write_sample(struct hm_writer *w, int idx, const struct hm_sample *s);

/* Convenience synthesized records. */
int hm_writer__write_comm(struct hm_writer *w, u32 pid, u32 tid, const char *comm);
int hm_writer__write_mmap2(struct hm_writer *w, u32 pid, u32 tid, u64 start,
			   u64 len, u64 pgoff, u32 prot, u32 flags,
			   const char *filename, u16 misc);
/*
 * A mapped file's identity as an MMAP2 carries it: device, inode and inode
 * generation.  perf's DSOs and perf c2c's data map keys compare all four,
 * so a map synthesized from /proc/PID/maps carries the device and inode
 * listed there (generation 0, as perf writes it) to be the same DSO as
 * the kernel's MMAP2 of the same file.
 */
struct hm_file_id {
	u32 maj, min;
	u64 ino, ino_generation;
};
/* hm_writer__write_mmap2 with @id (NULL: all zero, as for anonymous memory) */
int hm_writer__write_mmap2_id(struct hm_writer *w, u32 pid, u32 tid, u64 start,
			      u64 len, u64 pgoff, u32 prot, u32 flags,
			      const char *filename, u16 misc, const struct hm_file_id *id);
int hm_writer__write_finished_round(struct hm_writer *w);
/*
 * Flush and write a provisional header (file mode, regular files): the file
 * reads up to here even if the writer dies before hm_writer__close.
 */
int hm_writer__sync(struct hm_writer *w);

/* Finish: data size, attrs, feature sections.  Returns 0 or a negative errno. */
int hm_writer__close(struct hm_writer *w);
/* Free (after close, or to abandon a file).  Accepts NULL. */
void hm_writer__delete(struct hm_writer *w);

/* --------------------------------------------------------------- convert */

/*
 * Read any perf.data the reader reads and write it again with the writer
 * in the form @opts asks for (hitmap convert).  Records are copied as
 * they are (decompressed; pipe-mode header records become the header);
 * with @swap, SAMPLEs are re-encoded from their decoded fields and other
 * records are swapped by layout, those of unknown layout are dropped and
 * counted.
 */
struct hm_convert_opts {
	bool	pipe;		/* pipe-mode output */
	int	comp_level;	/* zstd level, 0: none */
	bool	compressed2;	/* COMPRESSED2 (83) records instead of COMPRESSED (81) */
	bool	swap;		/* the other byte order */
	int	out_fd;		/* >= 0: write there (not closed), @out names it */
	/*
	 * A perf.data folder (perf record --threads' layout) at @out, which
	 * must not exist or be an empty folder: "data" (header, events,
	 * side-band records) and data.0 .. data.(dir_files - 1), the samples
	 * and kernel records of CPU c in data.(c % dir_files).  Not with @pipe
	 * or @out_fd.
	 */
	bool	dir;
	u32	dir_files;	/* with @dir: data.N files; 0: the input's CPUs */
};
#define HM_CONVERT_DIR_MAX	1024	/* data.N files at most */

struct hm_convert_stats {
	u64	records;	/* records written (SAMPLE included) */
	u64	samples;
	u64	dropped;	/* records left out (unknown layout in swap mode, ...) */
	u64	raw_bytes, comp_bytes;	/* compression input and output */
	bool	in_pipe, in_swap;
	u32	in_attr_size;	/* attr size of the first event in the input */
	bool	in_compressed;	/* COMPRESSED/COMPRESSED2 records in the input */
	bool	tracing_data;	/* TRACING_DATA written */
	u64	aux_records;	/* AUXTRACE records written (in records) */
	u64	aux_bytes;	/* the AUX data they carry */
	u32	dir_files;	/* data.N files written (a folder) */
	u64	dir_main_records;	/* records in a folder's "data" file */
};

int hm_convert(const char *in, const char *out, const struct hm_convert_opts *opts,
	       struct hm_convert_stats *st);

/* Free everything a reader or caller put into @h (not @h itself). */
void hm_header__release(struct hm_header *h);
/*
 * Function @i of BPF program @p (one of @h's) named as perf names it:
 * "bpf_prog_" and its tag in hex, then "_" and its name (from the
 * program's BTF where @h holds it and it came first, else the program's
 * own name for a program of one function, "F" for each of several).  Writes at most
 * @size bytes, NUL-terminated; returns the name's length (as snprintf) or
 * -EINVAL when @i is not one of @p's functions.
 */
int hm_header__bpf_func_name(const struct hm_header *h, const struct hm_bpf_prog *p, u32 i,
			     char *buf, size_t size);

#endif
