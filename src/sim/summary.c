// SPDX-License-Identifier: GPL-2.0-only
/*
 * What hitmap simulate prints of a run, to the caller's stream: the
 * machine, kernel and workload, the run's totals and its loads by source
 * (text, or one JSON object); and for --accesses the kernel path of one
 * wait and one wake with the mm_struct and futex_private_hash lines it
 * reads.
 */
#include <stdio.h>
#include <string.h>
#include <hitmap/json.h>
#include "sim/sim.h"

static const char *pct(char *b, size_t n, u64 part, u64 whole)
{
	if (!whole)
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.1f%%", 100.0 * (double)part / (double)whole);
	return b;
}

static u64 loads_total(const struct hm_sim *s)
{
	u64 t = 0;
	int k;

	for (k = 0; k < HM_SRC__MAX; k++)
		t += s->res.src[k];
	return t;
}

static void print_text(const struct hm_sim *s, FILE *f)
{
	const struct hm_machine *m = &s->m;
	u64 lt = loads_total(s);
	char b[32];
	int k;

	fprintf(f, "machine   %s: %u socket(s) x %u cores x %u SMT = %u CPUs, %u LLC domain(s)/socket, %s\n",
		m->name, m->sockets, m->cores, m->smt, m->nr_cpus, m->llcs,
		m->proto == HM_PROTO_MESIF ? "MESIF" : m->proto == HM_PROTO_MOESI ? "MOESI" : "MESI");
	fprintf(f, "kernel    %s (%s, %s): %s hash, %llu slots%s\n", s->kmod->name, s->release, s->kmod->what,
		s->lay.fph ? "private" : "global",
		(unsigned long long)(s->lay.fph ? s->lay.fph_slots : s->lay.table_slots),
		s->lay.fph ? "" : s->lay.nr_tables > 1 ? " per node" : "");
	fprintf(f, "workload  %u threads x %u %s futexes, %s placement%s\n", s->nr_threads, s->o.futexes,
		s->o.shared ? "shared" : "private",
		s->o.placement == HM_PLACE_SPREAD ? "spread" :
		s->o.placement == HM_PLACE_PERF ? "perf" : "compact", s->o.thp ? ", THP heap" : "");
	if (s->o.shared && s->o.slots_set)
		fprintf(f, "note      -b/--slots sets the private hash (prctl); shared futexes hash into the global table\n");
	if (strncmp(s->fm.layout.source, "what-if", 7) == 0)
		fprintf(f, "what-if   bucket %u bytes:%s%s%s%s, global table %llu slots per node\n",
			s->fm.layout.bucket_size,
			s->o.pad_field >= 0 ? " padded " : "",
			s->o.pad_field >= 0 ? hm_futex_field__name(s->o.pad_field) : "",
			s->o.drop_field >= 0 ? " dropped " : "",
			s->o.drop_field >= 0 ? hm_futex_field__name(s->o.drop_field) : "",
			(unsigned long long)s->fm.global_slots);
	fprintf(f, "ran       %llu ops, %llu memory accesses, %.3f ms simulated, %.0f ops/s per thread\n",
		(unsigned long long)s->res.ops, (unsigned long long)s->res.accesses,
		(double)s->res.cycles_max / m->ghz / 1e6, s->res.ops_per_sec_thread);
	fprintf(f, "speed     %.2f s CPU, %.1f M simulated accesses/s on one core\n", s->res.wall_s,
		s->res.wall_s > 0 ? (double)s->res.accesses / s->res.wall_s / 1e6 : 0.0);
	if (s->sp || s->o.output)
		fprintf(f, "samples   %llu written to %s\n", (unsigned long long)s->res.samples,
			s->o.output ? s->o.output : "-");
	fprintf(f, "loads by source (all simulated loads and RMW load parts):\n");
	for (k = 0; k < HM_SRC__MAX; k++)
		if (s->res.src[k])
			fprintf(f, "  %-12s %12llu  %7s\n", hm_src__name(k),
				(unsigned long long)s->res.src[k], pct(b, sizeof(b), s->res.src[k], lt));
	fprintf(f, "  %-12s %12llu\n  %-12s %12llu\n", "rmw", (unsigned long long)s->res.rmws,
		"stores", (unsigned long long)s->res.stores);
	if (s->res.contended)
		fprintf(f, "bucket lock: %llu of %llu acquisitions contended (%.1f%%), waiting %.0f cycles each on average\n",
			(unsigned long long)s->res.contended, (unsigned long long)s->res.ops,
			100.0 * s->res.contended / (s->res.ops ? s->res.ops : 1),
			(double)s->res.lock_wait / s->res.contended);
}

static void print_json(const struct hm_sim *s, FILE *f)
{
	struct hm_json *j = hm_json__new(f, true);
	int k;

	if (!j)
		return;
	hm_json__obj_begin(j, NULL);
	hm_json__str(j, "preset", s->m.name);
	hm_json__u64(j, "cpus", s->m.nr_cpus);
	hm_json__str(j, "kernel", s->kmod->name);
	hm_json__str(j, "release", s->release);
	hm_json__str(j, "era", hm_futex_era__name(s->era));
	hm_json__str(j, "hash", s->lay.fph ? "private" : "global");
	hm_json__bool(j, "read_migrates", s->m.read_migrates);
	hm_json__u64(j, "threads", s->nr_threads);
	hm_json__u64(j, "ops", s->res.ops);
	hm_json__u64(j, "accesses", s->res.accesses);
	hm_json__u64(j, "samples", s->res.samples);
	hm_json__double(j, "simulated_ms", (double)s->res.cycles_max / s->m.ghz / 1e6);
	hm_json__double(j, "ops_per_sec_thread", s->res.ops_per_sec_thread);
	hm_json__double(j, "cpu_s", s->res.wall_s);
	hm_json__double(j, "accesses_per_sec", s->res.wall_s > 0 ? s->res.accesses / s->res.wall_s : 0);
	hm_json__obj_begin(j, "loads_by_source");
	for (k = 0; k < HM_SRC__MAX; k++)
		hm_json__u64(j, hm_src__name(k), s->res.src[k]);
	hm_json__obj_end(j);
	hm_json__u64(j, "rmw", s->res.rmws);
	hm_json__u64(j, "stores", s->res.stores);
	hm_json__u64(j, "lock_contended", s->res.contended);
	hm_json__u64(j, "lock_wait_cycles", s->res.lock_wait);
	hm_json__obj_end(j);
	hm_json__delete(j);
}

/*
 * --accesses: the lines of mm_struct and futex_private_hash the path reads,
 * every field on them, and who writes each while the benchmark runs.
 */
static void print_neighbours(const struct hm_sim *s, FILE *f)
{
	struct hm_sim_mmfield fl[HM_SIM_MM_FIELDS_MAX];
	struct hm_sim_tmpl t;
	u32 lines[8], nl = 0, n, i, j;
	int op, obj;

	for (obj = HM_OBJ_FPH; obj <= HM_OBJ_MM; obj++) {
		nl = 0;
		for (op = HM_SIM_OP_WAIT; op <= HM_SIM_OP_WAKE; op++) {
			hm_sim__template(s, (enum hm_sim_op)op, &t);
			for (i = 0; i < t.n; i++) {
				u32 l = t.st[i].off & ~63u;

				if (t.st[i].obj != obj)
					continue;
				for (j = 0; j < nl && lines[j] != l; j++)
					;
				if (j == nl && nl < 8)
					lines[nl++] = l;
			}
		}
		if (!nl)
			continue;
		n = obj == HM_OBJ_MM ? hm_sim__mm_fields(s->kmod, fl, HM_SIM_MM_FIELDS_MAX)
				     : hm_sim__fph_fields(s->kmod, fl, HM_SIM_MM_FIELDS_MAX);
		if (n > HM_SIM_MM_FIELDS_MAX)
			n = HM_SIM_MM_FIELDS_MAX;
		fprintf(f, "%s lines read, every field on them and what writes it (none of these\n"
			"writers runs in perf bench's measured loop: the model has no write there):\n",
			obj == HM_OBJ_MM ? "mm_struct" : "futex_private_hash");
		for (j = 0; j < nl; j++)
			for (i = 0; i < n; i++)
				if (fl[i].off < lines[j] + 64 && fl[i].off + fl[i].size > lines[j])
					fprintf(f, "  %s+%-4u %-24s %s\n", hm_obj__name((enum hm_obj)obj), fl[i].off,
						fl[i].name, fl[i].writer ? fl[i].writer : "-");
	}
}

void hm_sim__print_summary(const struct hm_sim *s, bool json, FILE *f)
{
	if (json)
		print_json(s, f);
	else
		print_text(s, f);
}

void hm_sim__print_accesses(const struct hm_sim *s, FILE *f)
{
	struct hm_sim_tmpl t;
	int op;
	u32 i;

	fprintf(f, "# kernel %s (%s): %s\n# %s futexes, %s hash, bucket %u bytes (%s)\n", s->kmod->name,
		s->release, s->kmod->what, s->o.shared ? "shared" : "private",
		s->lay.fph ? "private" : "global", s->fm.layout.bucket_size, s->fm.layout.source);
	for (op = HM_SIM_OP_WAIT; op <= HM_SIM_OP_WAKE; op++) {
		hm_sim__template(s, (enum hm_sim_op)op, &t);
		fprintf(f, "%s:\n", op == HM_SIM_OP_WAIT ? "futex_wait (value mismatch: -EAGAIN)"
							 : "futex_wake (no waiter)");
		fprintf(f, "  %-2s  %-24s %-44s %-5s %s\n", "#", "function", "access", "kind", "offset");
		for (i = 0; i < t.n; i++)
			fprintf(f, "  %2u  %-24s %-44s %-5s %s+%u\n", i + 1, hm_sim_ksym__name(t.st[i].ksym),
				t.st[i].what, hm_sim_acc__name(t.st[i].acc), hm_obj__name(t.st[i].obj),
				t.st[i].off);
	}
	print_neighbours(s, f);
}

const char *hm_sim__ksyms(const struct hm_sim *s, size_t *len)
{
	*len = s->ksyms_len;
	return s->ksyms;
}
