// SPDX-License-Identifier: GPL-2.0
/*
 * cachesim: a QEMU TCG plugin that counts guest instructions and simulated
 * data-cache misses inside phases the guest opens and closes.
 *
 * Every data access of every vCPU goes through the model of cache.h,
 * keyed by guest physical address, so that the kernel zeroing a page and
 * the user then touching it hit the same lines: a private L1D per vCPU and
 * an L2 shared by all (l3size=0, the v1 layout), or a private L1D and L2
 * per vCPU and an L3 shared by all; with two vCPUs or more, coherent (a
 * store invalidates the other vCPUs' private copies, and a miss served by
 * another vCPU's modified copy is a cross-core transfer: cache.h).  The
 * model runs from boot, so that the caches hold
 * what the guest really touched before a phase opens; only the counters
 * are per phase.  Accesses and instructions are split by the privilege of
 * the code that makes them (kernel text is in the upper half of the
 * address space; a kernel copy to user memory counts as kernel).
 *
 * Phases: guest/src/benchutil.h's hc_phase_begin()/hc_phase_end(); device
 * writes: hc_dma_done() (see cache.h for the markers).  At each phase end
 * the plugin appends one line per vCPU to the output file:
 *   phase=N vcpu=V insn_k=.. insn_u=.. acc_k=.. l1m_k=.. l2m_k=.. l3m_k=..
 *     acc_u=.. l1m_u=.. l2m_u=.. l3m_u=.. (all kinds of access)
 *     sacc_k=.. sl1m_k=.. sl2m_k=.. sl3m_k=.. (of those, stores; _u too)
 *     xacc_k=.. xl1m_k=.. xl2m_k=.. xl3m_k=.. (rep string stores; _u too)
 *     xfer_k=.. xxfer_k=.. xfer_u=.. xxfer_u=.. (cross-core transfers:
 *     misses of the private levels served by another vCPU's modified
 *     copy, in place of the shared level; of those, rep string stores';
 *     always 0 with one vCPU)
 *     rep_k=.. repx_k=.. rep_u=.. repx_u=.. (rep string instructions:
 *     iterations, each counted in insn_*, and instructions executed)
 *     xrep_k=.. xline_k=.. xrep_u=.. xline_u=.. (of those, rep string
 *     stores' iterations, and the lines they wrote: cache.h's
 *     string_lines(); xline is 0 with sim=off)
 *     dma=.. dma_lost=..
 *     call0=.. call1=.. (with calls=: the executions of each item's
 *     addresses, summed)
 * (loads are the rest; with two levels l3m is 0).  dma counts the DMA
 * markers applied, dma_lost the markers whose access never came (a
 * second marker on the vCPU came first).  A marker still pending when a
 * phase ends stays pending: a reader running beside the measured task
 * loads its page just after.  Phases are numbered
 * from 1 in the order they close.  After a phase's vCPU lines,
 *   host phase=N at_ms=.. ms=..
 * when the phase began (from the plugin's start) and how long it took,
 * in the host's wall-clock milliseconds, and at the end
 *   host total_ms=.. phases_ms=..
 * from the plugin's start and inside phases: what each workload costs
 * the machine running QEMU (not a guest measurement; it varies with
 * the host, and nothing compares it between boots).
 *
 * Arguments (-plugin cachesim.so,ARG=VALUE,...):
 *   out=PATH       where the phase lines go (required)
 *   phases=on|off  off: one phase, the whole run, from the plugin's start
 *                  to QEMU's exit (the cross-check against QEMU's own
 *                  contrib/plugins/cache.c, which has no phases)
 *   sim=on|off     simulate the caches (off: instruction counts only)
 *   profile=on|off also write PATH.profile: "phase block-address
 *                  instructions L2-misses L1D-misses" for every translated
 *                  block run in a phase
 *                  (bench/profile.py maps them to functions and compares)
 *   l1size=49152 l1ways=12 l2size=2097152 l2ways=16 line=64
 *   l3size=0 l3ways=16
 *                  (ways=0: fully associative LRU, capacity misses only;
 *                  l3size=0: two levels, the L2 shared; else three, the
 *                  L2 private and the L3 shared)
 *   strfill=on|off a rep string store that misses L1 is filled through
 *                  every level (on) or allocated in L1 without a read
 *                  (off: the full-line fast-string protocol)
 *   resid_hot=ADDR resid_cold=ADDR
 *                  the residency meter's batch wrappers (residency.h):
 *                  free_unref_folios and free_unref_folios_cold, from
 *                  System.map (make bench's meter boots)
 *   calls=ADDR+ADDR/ADDR...
 *                  count the executions of the instructions at these
 *                  virtual addresses in each phase (up to 12 counters; a
 *                  function's address from System.map: its calls), as
 *                  call0, call1...; an item ADDR/ADDR/... is one counter,
 *                  the sum over its addresses (the call sites of a lock
 *                  in one file: up to 64 addresses in all)
 *
 * The model has no locking: run QEMU with one TCG thread (-icount, or
 * -accel tcg,thread=single); scripts/run-guest.sh does.
 *
 * The residency meter (residency.h): in make bench's meter boots a guest
 * module marks each page the kernel frees, or allocates for readahead,
 * and the plugin counts its lines the caches hold; its "resid" lines
 * follow a phase's vCPU lines.  Without its markers nothing changes.
 *
 * Under user-mode emulation (qemu-x86_64 -plugin ..., bench/replay's
 * silicon check) there is no physical address: the model is keyed by the
 * virtual one (cache.h: model_address()), one vCPU (the process's first
 * thread; other threads' accesses are not counted), all of it "user".
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qemu-plugin.h>

#include "cache.h"
#include "residency.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum { USER, KERNEL };

/*
 * calls=: the addresses whose executions are counted per phase, and the
 * counter each one adds to (several addresses may share one)
 */
static struct calls call_list;	/* calls= */

struct vcpu {
	struct cache l1, l2;	/* l2: private, with three levels */
	struct hier h;
	int dma_pending;	/* the next hc_dma_done() load names a page a device wrote */
	uint64_t dma, dma_lost;
	uint64_t insns[2];
	/*
	 * rep string instructions: TCG runs one iteration per execution of
	 * the block that ends with it, so insns[] counts every iteration as
	 * an instruction (4096 for one clear_page() by rep stosb).  rep_iters
	 * counts those iterations, rep_execs the instructions: a new one
	 * starts unless the previous block this vCPU ran was the same rep's
	 * last iteration.
	 */
	uint64_t rep_iters[2], rep_execs[2];
	uint64_t tb_seq, rep_seq, rep_pc;
	/* rep string stores: iterations, lines written (string_lines()) */
	uint64_t xrep[2], xlines[2], xline_last;
	struct cache_stats st[2];
	uint64_t calls[MAX_CALLS];
	struct resid resid;	/* the residency meter's counts */
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
static struct cache shared;	/* the L2 (two levels) or the L3 */
/* with two vCPUs or more: their coherence (one vCPU: none, the model unchanged) */
static struct coherence coh;
static struct hier **coh_hiers;
static int simulate = 1;
/* user-mode emulation (qemu-x86_64): one process, keyed by virtual address */
static int user_mode;

/*
 * The addresses of the instructions that follow a DMA marker (the load of
 * hc_dma_done()): only their accesses apply a pending marker, so that the
 * accesses of a page fault the load takes first do not consume it.
 */
static uint64_t *dma_pcs;
static size_t nr_dma_pcs, max_dma_pcs;
/* the instructions after a residency page marker (residency.h) */
static struct resid_pcs resid_pcs;
/* resid_hot=, resid_cold=: the batch wrappers the residency meter watches */
static struct resid_wrappers resid_wrappers;

static int is_dma_pc(uint64_t pc)
{
	size_t i;

	for (i = 0; i < nr_dma_pcs; i++)
		if (dma_pcs[i] == pc)
			return 1;
	return 0;
}

static void add_dma_pc(uint64_t pc)
{
	if (is_dma_pc(pc))
		return;
	if (nr_dma_pcs == max_dma_pcs) {
		max_dma_pcs = max_dma_pcs ? 2 * max_dma_pcs : 64;
		dma_pcs = realloc(dma_pcs, max_dma_pcs * sizeof(*dma_pcs));
		if (!dma_pcs)
			abort();
	}
	dma_pcs[nr_dma_pcs++] = pc;
}
static int in_phase;
static uint64_t host_start_ns, host_phase_ns, host_phases_ns;	/* host clock */
static int whole_run;		/* phases=off */
static unsigned long phases;
static FILE *out;

static int is_kernel(uint64_t vaddr)
{
	return vaddr >> 63;
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	struct tb_info *tb = udata;

	if (vcpu < (unsigned int)nr_vcpus)
		vcpus[vcpu].tb_seq++;
	if (in_phase && vcpu < (unsigned int)nr_vcpus) {
		vcpus[vcpu].insns[tb->mode] += tb->n;
		tb->execs++;
	}
}

/* a rep string instruction at pc ran one iteration (store: a rep stos or movs) */
static void rep_count(unsigned int vcpu, uint64_t pc, int store)
{
	int mode = is_kernel(pc) ? KERNEL : USER;
	struct vcpu *v;

	if (vcpu >= (unsigned int)nr_vcpus)
		return;
	v = &vcpus[vcpu];
	if (in_phase) {
		v->rep_iters[mode]++;
		v->xrep[mode] += store;
		if (v->rep_pc != pc || v->rep_seq + 1 != v->tb_seq)
			v->rep_execs[mode]++;
	}
	v->rep_pc = pc;
	v->rep_seq = v->tb_seq;
}

/* udata: the instruction's address */
static void rep_exec(unsigned int vcpu, void *udata)
{
	rep_count(vcpu, (uintptr_t)udata, 0);
}

static void rep_store_exec(unsigned int vcpu, void *udata)
{
	rep_count(vcpu, (uintptr_t)udata, 1);
}

/* an instruction of calls= ran (udata: its counter) */
static void call_exec(unsigned int vcpu, void *udata)
{
	if (in_phase && vcpu < (unsigned int)nr_vcpus)
		vcpus[vcpu].calls[(uintptr_t)udata]++;
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

static void count_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
			 struct tb_info *tb, int string, int dma, int resid)
{
	struct qemu_plugin_hwaddr *hw = user_mode ? NULL : qemu_plugin_get_hwaddr(info, vaddr);
	struct cache_stats scratch = { 0 }, *st;
	uint64_t l1m, l2m, addr;
	struct vcpu *v;
	int kind;

	if (vcpu >= (unsigned int)nr_vcpus ||
	    !model_address(!user_mode, hw != NULL, hw && qemu_plugin_hwaddr_is_io(hw),
			   hw ? qemu_plugin_hwaddr_phys_addr(hw) : 0, vaddr, &addr))
		return;
	v = &vcpus[vcpu];
	if (dma && v->dma_pending) {
		uint64_t page = addr & ~4095ull, off;
		int i;

		v->dma_pending = 0;
		v->dma++;
		for (off = 0; off < 4096; off += 1u << shared.line_shift) {
			for (i = 0; i < nr_vcpus; i++)
				hier_invalidate(&vcpus[i].h, page + off);
			coh_forget(&coh, page + off, shared.line_shift);
		}
		return;
	}
	if (resid_access(&v->resid, &v->h, addr, resid))
		return;
	kind = !qemu_plugin_mem_is_store(info) ? ACC_LOAD : string ? ACC_STRING : ACC_STORE;
	st = in_phase ? &v->st[tb->mode] : &scratch;
	if (kind == ACC_STRING) {
		unsigned int n = string_lines(&v->xline_last, addr,
					      1u << qemu_plugin_mem_size_shift(info),
					      shared.line_shift);

		if (in_phase)
			v->xlines[tb->mode] += n;
	}
	l1m = stat_sum(st->misses[0]);
	l2m = stat_sum(st->misses[1]);
	hier_access(&v->h, addr, 1u << qemu_plugin_mem_size_shift(info), kind, st);
	if (in_phase) {
		tb->l2_misses += stat_sum(st->misses[1]) - l2m;
		tb->l1_misses += stat_sum(st->misses[0]) - l1m;
	}
}

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *udata)
{
	count_access(vcpu, info, vaddr, udata, 0, 0, 0);
}

static void mem_access_string(unsigned int vcpu, qemu_plugin_meminfo_t info,
			      uint64_t vaddr, void *udata)
{
	count_access(vcpu, info, vaddr, udata, 1, 0, 0);
}

static void mem_access_dma(unsigned int vcpu, qemu_plugin_meminfo_t info,
			   uint64_t vaddr, void *udata)
{
	count_access(vcpu, info, vaddr, udata, 0, 1, 0);
}

static void mem_access_resid(unsigned int vcpu, qemu_plugin_meminfo_t info,
			     uint64_t vaddr, void *udata)
{
	count_access(vcpu, info, vaddr, udata, 0, 0, 1);
}

/* a residency marker ran (udata: its magic) */
static void resid_exec(unsigned int vcpu, void *udata)
{
	if (vcpu < (unsigned int)nr_vcpus)
		resid_marker_exec(&vcpus[vcpu].resid, (uintptr_t)udata);
}

/* a batch wrapper's first instruction ran (udata: 1 cold, 0 hot) */
static void resid_wrapper_cb(unsigned int vcpu, void *udata)
{
	if (vcpu < (unsigned int)nr_vcpus)
		resid_wrapper_exec(&vcpus[vcpu].resid, &resid_wrappers, (uintptr_t)udata);
}

/* the residency meter's callbacks of one instruction at pc */
static void resid_trans(struct qemu_plugin_insn *insn, uint64_t pc)
{
	uint32_t rm = resid_marker(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));

	if (rm)
		qemu_plugin_register_vcpu_insn_exec_cb(insn, resid_exec, QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)rm);
	if (rm == RESID_MAGIC_PAGE)
		resid_pcs_add(&resid_pcs, pc + qemu_plugin_insn_size(insn));
	if (pc && (pc == resid_wrappers.hot || pc == resid_wrappers.cold))
		qemu_plugin_register_vcpu_insn_exec_cb(insn, resid_wrapper_cb,
						       QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)(pc == resid_wrappers.cold));
}

/* the host's monotonic clock in ns (what a phase costs the machine) */
static uint64_t host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void phase_begin(void)
{
	int i;

	for (i = 0; i < nr_vcpus; i++) {
		memset(vcpus[i].insns, 0, sizeof(vcpus[i].insns));
		memset(vcpus[i].st, 0, sizeof(vcpus[i].st));
		vcpus[i].dma = vcpus[i].dma_lost = 0;
		/*
		 * A marker still pending from before the phase belongs to no
		 * phase: its task was killed between the marker and its load
		 * (the mixes' streaming readers are), and the load never comes.
		 */
		vcpus[i].dma_pending = 0;
		memset(vcpus[i].rep_iters, 0, sizeof(vcpus[i].rep_iters));
		memset(vcpus[i].rep_execs, 0, sizeof(vcpus[i].rep_execs));
		memset(vcpus[i].xrep, 0, sizeof(vcpus[i].xrep));
		memset(vcpus[i].xlines, 0, sizeof(vcpus[i].xlines));
		memset(vcpus[i].calls, 0, sizeof(vcpus[i].calls));
		resid_reset(&vcpus[i].resid);
	}
	host_phase_ns = host_ns();
	in_phase = 1;
}

static void phase_end(void)
{
	uint64_t ns;
	int i;

	if (!in_phase)
		return;
	ns = host_ns() - host_phase_ns;
	in_phase = 0;
	phases++;
	if (profile)
		profile_dump(phases);
	for (i = 0; i < nr_vcpus; i++) {
		struct vcpu *v = &vcpus[i];
		int m;

		fprintf(out, "phase=%lu vcpu=%d insn_k=%" PRIu64 " insn_u=%" PRIu64,
			phases, i, v->insns[KERNEL], v->insns[USER]);
		for (m = KERNEL; m >= USER; m--) {
			const struct cache_stats *st = &v->st[m];
			char c = m == KERNEL ? 'k' : 'u';

			fprintf(out, " acc_%c=%" PRIu64 " l1m_%c=%" PRIu64 " l2m_%c=%" PRIu64
				" l3m_%c=%" PRIu64, c, stat_sum(st->accesses),
				c, stat_sum(st->misses[0]), c, stat_sum(st->misses[1]),
				c, stat_sum(st->misses[2]));
		}
		for (m = KERNEL; m >= USER; m--) {
			const struct cache_stats *st = &v->st[m];
			char c = m == KERNEL ? 'k' : 'u';
			int kind;

			for (kind = ACC_STORE; kind <= ACC_STRING; kind++) {
				char x = kind == ACC_STORE ? 's' : 'x';

				fprintf(out, " %cacc_%c=%" PRIu64 " %cl1m_%c=%" PRIu64
					" %cl2m_%c=%" PRIu64 " %cl3m_%c=%" PRIu64,
					x, c, st->accesses[kind], x, c, st->misses[0][kind],
					x, c, st->misses[1][kind], x, c, st->misses[2][kind]);
			}
		}
		for (m = KERNEL; m >= USER; m--) {
			const struct cache_stats *st = &v->st[m];
			char c = m == KERNEL ? 'k' : 'u';

			fprintf(out, " xfer_%c=%" PRIu64 " xxfer_%c=%" PRIu64, c,
				stat_sum(st->xfers), c, st->xfers[ACC_STRING]);
		}
		fprintf(out, " rep_k=%" PRIu64 " repx_k=%" PRIu64 " rep_u=%" PRIu64
			" repx_u=%" PRIu64, v->rep_iters[KERNEL], v->rep_execs[KERNEL],
			v->rep_iters[USER], v->rep_execs[USER]);
		fprintf(out, " xrep_k=%" PRIu64 " xline_k=%" PRIu64 " xrep_u=%" PRIu64
			" xline_u=%" PRIu64, v->xrep[KERNEL], v->xlines[KERNEL],
			v->xrep[USER], v->xlines[USER]);
		fprintf(out, " dma=%" PRIu64 " dma_lost=%" PRIu64, v->dma, v->dma_lost);
		for (m = 0; m < call_list.nr; m++)
			fprintf(out, " call%d=%" PRIu64, m, v->calls[m]);
		fputc('\n', out);
	}
	for (i = 0; i < nr_vcpus; i++)
		resid_print(out, phases, i, &vcpus[i].resid);
	host_phases_ns += ns;
	fprintf(out, "host phase=%lu at_ms=%" PRIu64 " ms=%" PRIu64 "\n", phases,
		(host_phase_ns - host_start_ns) / 1000000, ns / 1000000);
	fflush(out);
}

static void marker_exec(unsigned int vcpu, void *udata)
{
	if (whole_run && (uintptr_t)udata != DMA_MAGIC)
		return;
	switch ((uintptr_t)udata) {
	case PHASE_MAGIC_BEGIN:
		phase_begin();
		break;
	case PHASE_MAGIC_END:
		phase_end();
		break;
	case DMA_MAGIC:
		if (simulate && vcpu < (unsigned int)nr_vcpus) {
			/* the previous marker's load never came */
			if (vcpus[vcpu].dma_pending)
				vcpus[vcpu].dma_lost++;
			vcpus[vcpu].dma_pending = 1;
		}
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

		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		qemu_plugin_vcpu_mem_cb_t cb = mem_access;
		int c, rep_store;

		if (m)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)m);
		if (m == DMA_MAGIC)
			add_dma_pc(pc + qemu_plugin_insn_size(insn));
		resid_trans(insn, pc);
		for (c = 0; c < call_list.nr_pcs; c++)
			if (pc == call_list.pcs[c])
				qemu_plugin_register_vcpu_insn_exec_cb(insn, call_exec,
								       QEMU_PLUGIN_CB_NO_REGS,
								       (void *)(uintptr_t)call_list.ctr[c]);
		rep_store = is_rep_string_store(qemu_plugin_insn_data(insn),
						qemu_plugin_insn_size(insn));
		if (is_dma_pc(pc))
			cb = mem_access_dma;
		else if (resid_pcs_has(&resid_pcs, pc))
			cb = mem_access_resid;
		else if (rep_store)
			cb = mem_access_string;
		if (is_rep_string(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, rep_store ? rep_store_exec :
							       rep_exec, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)pc);
		if (simulate)
			qemu_plugin_register_vcpu_mem_cb(insn, cb, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, info);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	int i;

	phase_end();
	fprintf(out, "host total_ms=%" PRIu64 " phases_ms=%" PRIu64 "\n",
		(host_ns() - host_start_ns) / 1000000, host_phases_ns / 1000000);
	fprintf(out, "end phases=%lu\n", phases);
	fclose(out);
	if (prof)
		fclose(prof);
	for (i = 0; i < (int)nr_tbs; i++)
		free(tbs[i]);
	free(tbs);
	for (i = 0; i < nr_vcpus; i++) {
		cache_free(&vcpus[i].l1);
		cache_free(&vcpus[i].l2);
	}
	cache_free(&shared);
	coh_free(&coh);
	free(coh_hiers);
	free(vcpus);
	free(dma_pcs);
	free(resid_pcs.pc);
}

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "cachesim: %s: %s\n", what, why);
	return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	uint64_t l1size = 48 * 1024, l2size = 2 * 1024 * 1024, l3size = 0;
	unsigned int l1ways = 12, l2ways = 16, l3ways = 16, line = 64;
	int string_fill = 1;
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
		if (!strcmp(k, "resid_hot") || !strcmp(k, "resid_cold")) {
			const char *why = resid_wrappers_parse(&resid_wrappers, k, v);

			if (why)
				return fail(k, why);
			continue;
		}
		if (!strcmp(k, "calls")) {
			const char *why = calls_parse(&call_list, v);

			if (why)
				return fail(k, why);
			continue;
		}
		if (!strcmp(k, "sim") || !strcmp(k, "profile") || !strcmp(k, "strfill") ||
		    !strcmp(k, "phases")) {
			if (!qemu_plugin_bool_parse(k, v, &b))
				return fail(k, "expected on or off");
			if (!strcmp(k, "sim"))
				simulate = b;
			else if (!strcmp(k, "profile"))
				profile = b;
			else if (!strcmp(k, "phases"))
				whole_run = !b;
			else
				string_fill = b;
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
		else if (!strcmp(k, "l3size"))
			l3size = x;
		else if (!strcmp(k, "l3ways"))
			l3ways = x;
		else if (!strcmp(k, "line"))
			line = x;
		else
			return fail(k, "unknown argument (out sim profile strfill calls l1size "
				    "l1ways l2size l2ways l3size l3ways line resid_hot resid_cold)");
	}
	if (!path)
		return fail("out", "missing: where to write the phase counts");
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
	/* user mode: one thread is measured (bench/replay is single-threaded) */
	user_mode = !info->system_emulation;
	nr_vcpus = user_mode ? 1 : info->system.max_vcpus;
	vcpus = calloc(nr_vcpus, sizeof(*vcpus));
	if (!vcpus)
		return fail("vcpus", "out of memory");
	for (i = 0; i < nr_vcpus; i++)
		resid_init(&vcpus[i].resid);
	if (simulate) {
		err = l3size ? cache_init(&shared, l3size, l3ways, line) :
			       cache_init(&shared, l2size, l2ways, line);
		if (err)
			return fail(l3size ? "l3" : "l2", err);
		for (i = 0; i < nr_vcpus; i++) {
			struct vcpu *v = &vcpus[i];

			err = cache_init(&v->l1, l1size, l1ways, line);
			if (err)
				return fail("l1", err);
			v->h.level[0] = &v->l1;
			v->h.string_fill = string_fill;
			if (!l3size) {
				v->h.level[1] = &shared;
				v->h.levels = 2;
				continue;
			}
			err = cache_init(&v->l2, l2size, l2ways, line);
			if (err)
				return fail("l2", err);
			v->h.level[1] = &v->l2;
			v->h.level[2] = &shared;
			v->h.levels = 3;
		}
		/* one vCPU: no coherence at all, so nothing changes (h.coh NULL) */
		if (nr_vcpus > 1) {
			coh_hiers = calloc(nr_vcpus, sizeof(*coh_hiers));
			if (!coh_hiers)
				return fail("vcpus", "out of memory");
			for (i = 0; i < nr_vcpus; i++)
				coh_hiers[i] = &vcpus[i].h;
			err = coh_init(&coh, coh_hiers, nr_vcpus);
			if (err)
				return fail("vcpus", err);
		}
	}
	fprintf(out, "config sim=%d phases=%d levels=%d l1size=%" PRIu64 " l1ways=%u l2size=%" PRIu64
		" l2ways=%u l3size=%" PRIu64 " l3ways=%u line=%u strfill=%d vcpus=%d calls=%d"
		" coherence=%d user=%d\n",
		simulate, !whole_run, l3size ? 3 : 2, l1size, l1ways, l2size, l2ways, l3size,
		l3size ? l3ways : 0, line, string_fill, nr_vcpus, call_list.nr, coh.nr > 1,
		user_mode);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	host_start_ns = host_ns();
	if (whole_run)
		phase_begin();
	return 0;
}
