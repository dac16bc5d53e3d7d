// SPDX-License-Identifier: GPL-2.0
/*
 * cachesim: a QEMU TCG plugin that counts guest instructions and simulated
 * data-cache misses inside phases the guest opens and closes.
 *
 * Every data access of every vCPU goes through the model of cache.h: a
 * private L1D per vCPU and an L2 shared by all, keyed by guest physical
 * address, so that the kernel zeroing a page and the user then touching it
 * hit the same lines.  The model runs from boot, so that the caches hold
 * what the guest really touched before a phase opens; only the counters
 * are per phase.  Accesses and instructions are split by the privilege of
 * the code that makes them (kernel text is in the upper half of the
 * address space; a kernel copy to user memory counts as kernel).
 *
 * Phases: guest/src/benchutil.h's hc_phase_begin()/hc_phase_end(); device
 * writes: hc_dma_done() (see cache.h for the markers).  At each phase end the plugin appends one line
 * per vCPU to the output file:
 *   phase=N vcpu=V insn_k=.. insn_u=.. acc_k=.. l1m_k=.. l2m_k=.. acc_u=.. l1m_u=.. l2m_u=..
 * Phases are numbered from 1 in the order they close.
 *
 * Arguments (-plugin cachesim.so,ARG=VALUE,...):
 *   out=PATH       where the phase lines go (required)
 *   sim=on|off     simulate the caches (off: instruction counts only)
 *   profile=on|off also write PATH.profile: "phase block-address
 *                  instructions L2-misses L1D-misses" for every translated
 *                  block run in a phase
 *                  (bench/profile.py maps them to functions and compares)
 *   l1size=49152 l1ways=12 l2size=2097152 l2ways=16 line=64
 *                  (ways=0: fully associative LRU, capacity misses only)
 *
 * The model has no locking: run QEMU with one TCG thread (-icount, or
 * -accel tcg,thread=single); scripts/run-guest.sh does.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "cache.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum { USER, KERNEL };

struct vcpu {
	struct cache l1;
	int dma_pending;	/* the next access names a page a device wrote */
	uint64_t insns[2];
	struct cache_stats st[2];
};

/* one translated block: its instructions counted per execution in a phase */
struct tb_info {
	uint64_t vaddr;
	uint64_t execs;		/* in phases */
	uint64_t l2_misses;	/* by its accesses, in phases */
	uint64_t l1_misses;
	uint32_t n;
	uint32_t mode;
};

static struct tb_info **tbs;
static size_t nr_tbs, max_tbs;
static int profile;
static FILE *prof;

static struct vcpu *vcpus;
static int nr_vcpus;
static struct cache l2;
static int simulate = 1;
static int in_phase;
static unsigned long phases;
static FILE *out;

static int is_kernel(uint64_t vaddr)
{
	return vaddr >> 63;
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	struct tb_info *tb = udata;

	if (in_phase && vcpu < (unsigned int)nr_vcpus) {
		vcpus[vcpu].insns[tb->mode] += tb->n;
		tb->execs++;
	}
}

static int cmp_vaddr(const void *a, const void *b)
{
	const struct tb_info *x = *(struct tb_info * const *)a;
	const struct tb_info *y = *(struct tb_info * const *)b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/* profile=on: instructions per block start address in this phase */
static void profile_dump(unsigned long phase)
{
	size_t i;

	qsort(tbs, nr_tbs, sizeof(*tbs), cmp_vaddr);
	for (i = 0; i < nr_tbs; i++) {
		uint64_t insns = 0, l2m = 0, l1m = 0, vaddr = tbs[i]->vaddr;

		while (i < nr_tbs && tbs[i]->vaddr == vaddr) {
			insns += tbs[i]->execs * tbs[i]->n;
			l2m += tbs[i]->l2_misses;
			l1m += tbs[i]->l1_misses;
			tbs[i]->execs = 0;
			tbs[i]->l2_misses = 0;
			tbs[i]->l1_misses = 0;
			i++;
		}
		i--;
		if (insns || l2m || l1m)
			fprintf(prof, "%lu %" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
				phase, vaddr, insns, l2m, l1m);
	}
	fflush(prof);
}

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	struct tb_info *tb = udata;
	struct cache_stats scratch = { 0 }, *st;
	uint64_t l1m, l2m;
	struct vcpu *v;

	if (!hw || qemu_plugin_hwaddr_is_io(hw) || vcpu >= (unsigned int)nr_vcpus)
		return;
	v = &vcpus[vcpu];
	if (v->dma_pending) {
		uint64_t page = qemu_plugin_hwaddr_phys_addr(hw) & ~4095ull, off;
		int i;

		v->dma_pending = 0;
		for (off = 0; off < 4096; off += 1u << l2.line_shift) {
			for (i = 0; i < nr_vcpus; i++)
				cache_invalidate(&vcpus[i].l1, page + off);
			cache_invalidate(&l2, page + off);
		}
		return;
	}
	st = in_phase ? &v->st[tb->mode] : &scratch;
	l1m = st->l1_misses;
	l2m = st->l2_misses;
	hier_access(&v->l1, &l2, qemu_plugin_hwaddr_phys_addr(hw),
		    1u << qemu_plugin_mem_size_shift(info), st);
	if (in_phase) {
		tb->l2_misses += st->l2_misses - l2m;
		tb->l1_misses += st->l1_misses - l1m;
	}
}

static void phase_begin(void)
{
	int i;

	for (i = 0; i < nr_vcpus; i++) {
		memset(vcpus[i].insns, 0, sizeof(vcpus[i].insns));
		memset(vcpus[i].st, 0, sizeof(vcpus[i].st));
	}
	in_phase = 1;
}

static void phase_end(void)
{
	int i;

	if (!in_phase)
		return;
	in_phase = 0;
	phases++;
	if (profile)
		profile_dump(phases);
	for (i = 0; i < nr_vcpus; i++) {
		struct vcpu *v = &vcpus[i];

		fprintf(out, "phase=%lu vcpu=%d insn_k=%" PRIu64 " insn_u=%" PRIu64
			" acc_k=%" PRIu64 " l1m_k=%" PRIu64 " l2m_k=%" PRIu64
			" acc_u=%" PRIu64 " l1m_u=%" PRIu64 " l2m_u=%" PRIu64 "\n",
			phases, i, v->insns[KERNEL], v->insns[USER],
			v->st[KERNEL].accesses, v->st[KERNEL].l1_misses,
			v->st[KERNEL].l2_misses, v->st[USER].accesses,
			v->st[USER].l1_misses, v->st[USER].l2_misses);
	}
	fflush(out);
}

static void marker_exec(unsigned int vcpu, void *udata)
{
	switch ((uintptr_t)udata) {
	case PHASE_MAGIC_BEGIN:
		phase_begin();
		break;
	case PHASE_MAGIC_END:
		phase_end();
		break;
	case DMA_MAGIC:
		if (simulate && vcpu < (unsigned int)nr_vcpus)
			vcpus[vcpu].dma_pending = 1;
		break;
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	uintptr_t mode = is_kernel(qemu_plugin_tb_vaddr(tb)) ? KERNEL : USER;
	struct tb_info *info = calloc(1, sizeof(*info));

	if (!info)
		abort();
	info->vaddr = qemu_plugin_tb_vaddr(tb);
	info->n = n;
	info->mode = mode;
	if (nr_tbs == max_tbs) {
		max_tbs = max_tbs ? 2 * max_tbs : 65536;
		tbs = realloc(tbs, max_tbs * sizeof(*tbs));
		if (!tbs)
			abort();
	}
	tbs[nr_tbs++] = info;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, info);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint32_t m = phase_marker(qemu_plugin_insn_data(insn),
					  qemu_plugin_insn_size(insn));

		if (m)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)m);
		if (simulate)
			qemu_plugin_register_vcpu_mem_cb(insn, mem_access,
							 QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, info);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	int i;

	phase_end();
	fprintf(out, "end phases=%lu\n", phases);
	fclose(out);
	if (prof)
		fclose(prof);
	for (i = 0; i < (int)nr_tbs; i++)
		free(tbs[i]);
	free(tbs);
	for (i = 0; i < nr_vcpus; i++)
		cache_free(&vcpus[i].l1);
	cache_free(&l2);
	free(vcpus);
}

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "cachesim: %s: %s\n", what, why);
	return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	uint64_t l1size = 48 * 1024, l2size = 2 * 1024 * 1024;
	unsigned int l1ways = 12, l2ways = 16, line = 64;
	const char *path = NULL, *err;
	bool b;
	int i;

	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *k = argv[i], *v;
		char *end;
		unsigned long long x;

		if (!eq)
			return fail(argv[i], "expected KEY=VALUE");
		*eq = 0;
		v = eq + 1;
		if (!strcmp(k, "out")) {
			path = v;
			continue;
		}
		if (!strcmp(k, "sim") || !strcmp(k, "profile")) {
			if (!qemu_plugin_bool_parse(k, v, &b))
				return fail(k, "expected on or off");
			if (k[0] == 's')
				simulate = b;
			else
				profile = b;
			continue;
		}
		x = strtoull(v, &end, 0);
		if (*end || !*v)
			return fail(k, "expected a number");
		if (!strcmp(k, "l1size"))
			l1size = x;
		else if (!strcmp(k, "l1ways"))
			l1ways = x;
		else if (!strcmp(k, "l2size"))
			l2size = x;
		else if (!strcmp(k, "l2ways"))
			l2ways = x;
		else if (!strcmp(k, "line"))
			line = x;
		else
			return fail(k, "unknown argument (out sim l1size l1ways l2size l2ways line)");
	}
	if (!path)
		return fail("out", "missing: where to write the phase counts");
	if (!info->system_emulation)
		return fail("mode", "system emulation only (physical addresses)");
	out = fopen(path, "w");
	if (!out)
		return fail(path, "cannot create");
	if (profile) {
		char ppath[4096];

		snprintf(ppath, sizeof(ppath), "%s.profile", path);
		prof = fopen(ppath, "w");
		if (!prof)
			return fail(ppath, "cannot create");
	}
	nr_vcpus = info->system.max_vcpus;
	vcpus = calloc(nr_vcpus, sizeof(*vcpus));
	if (!vcpus)
		return fail("vcpus", "out of memory");
	if (simulate) {
		err = cache_init(&l2, l2size, l2ways, line);
		if (err)
			return fail("l2", err);
		for (i = 0; i < nr_vcpus; i++) {
			err = cache_init(&vcpus[i].l1, l1size, l1ways, line);
			if (err)
				return fail("l1", err);
		}
	}
	fprintf(out, "config sim=%d l1size=%" PRIu64 " l1ways=%u l2size=%" PRIu64
		" l2ways=%u line=%u vcpus=%d\n", simulate, l1size, l1ways, l2size,
		l2ways, line, nr_vcpus);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
