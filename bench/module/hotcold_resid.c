// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold_resid: the residency meter's guest side.  Loaded in make
 * bench's meter boots only (a boot of its own: its probes run code the
 * measured boots must not), it attaches to the page allocator's
 * tracepoints, mm_page_free (every page freed, before it goes on a list)
 * and mm_page_alloc (every page allocated), classes each page by rule and
 * label from its kernel stack (resid_rules.h; a batch whose wrapper no
 * frame names gets its label from the plugin), and tells the cachesim
 * plugin which page and which class: a marker, then a load from the page
 * at the class's line (bench/cachesim/residency.h), which the plugin
 * takes for the page's address and does not model.  The plugin counts
 * how many of the page's lines its modelled caches hold at that moment.
 *
 * Its own work (the stack walk, the symbol lookups) runs between quiet
 * markers, whose accesses the plugin does not model either, so that the
 * caches the meter reads are the workload's; it walks a free's stack once
 * per batch (free_class()) and an allocation's only when its gfp is
 * readahead's.  Nothing is changed in the kernel, so every
 * configuration's own kernel is measured as built.
 *
 * Parameters:
 *   honoured=1|0  the kernel honours cold hints (0: the series booted with
 *                 vm.percpu_pagelist_hot_cold=0, which frees every page
 *                 hot whatever the call): the label of a cold call
 *   plant=1|0     on load, write a page and count it as a rule that frees
 *                 it cold would (class plant, cold): the meter must read
 *                 nearly all its lines cached, a label that was wrong
 */
#include <linux/gfp.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include "resid_rules.h"

#ifndef __GFP_COLD
#define __GFP_COLD 0	/* vanilla 6.12 has no cold allocations */
#endif

/* frames walked per free (the batch frees' sites lie within ~12) */
#define RESID_DEPTH 24
#define RESID_SLOTS 1024	/* return addresses whose frame is kept */

static bool honoured = true;
module_param(honoured, bool, 0444);
MODULE_PARM_DESC(honoured, "the kernel honours cold hints (vm.percpu_pagelist_hot_cold not 0)");

static bool plant;
module_param(plant, bool, 0444);
MODULE_PARM_DESC(plant, "on load, count a just-written page as freed cold (the meter's check)");

/*
 * The markers (bench/cachesim/residency.h): a 7-byte NOP, "nopl
 * MAGIC(%rax)", then for the page marker the load the plugin takes the
 * page and the class from.
 */
static __always_inline void resid_quiet_begin(void)
{
	asm volatile(".byte 0x0f, 0x1f, 0x80; .long 0x48430011" ::: "memory");
}

static __always_inline void resid_quiet_end(void)
{
	asm volatile(".byte 0x0f, 0x1f, 0x80; .long 0x48430012" ::: "memory");
}

static __always_inline void resid_mark(const void *line)
{
	char c;

	asm volatile(".byte 0x0f, 0x1f, 0x80; .long 0x48430010\n\t"
		     "movb (%1), %0" : "=q" (c) : "r" (line) : "memory");
}

/* each of the 1 << order pages, at its class's line */
static void resid_emit(struct page *page, unsigned int order, unsigned int cls)
{
	unsigned long i, n = 1UL << min_t(unsigned int, order, MAX_PAGE_ORDER);

	for (i = 0; i < n; i++)
		resid_mark((const char *)page_address(nth_page(page, i)) + cls * 64);
}

/*
 * The frame of each return address, looked up once: the function it
 * returns into and the target of the direct call before it (the symbol
 * lookups are the costly part, thousands of instructions)
 */
static struct {
	unsigned long addr;
	struct resid_frame f;
} slots[RESID_SLOTS];
static DEFINE_RAW_SPINLOCK(slots_lock);

static struct resid_frame frame_lookup(unsigned long ret)
{
	struct resid_frame f = { RESID_FN_OTHER, RESID_FN_OTHER };
	char name[KSYM_SYMBOL_LEN];
	u8 insn[5];
	s32 rel;

	sprint_symbol_no_offset(name, ret);
	f.fn = resid_fn_of(name);
	if (!copy_from_kernel_nofault(insn, (void *)(ret - 5), sizeof(insn)) && insn[0] == 0xe8) {
		memcpy(&rel, insn + 1, sizeof(rel));
		sprint_symbol_no_offset(name, ret + rel);
		f.callee = resid_fn_of(name);
	}
	return f;
}

static struct resid_frame frame_of(unsigned long ret)
{
	unsigned int i = hash_long(ret, ilog2(RESID_SLOTS));
	struct resid_frame f;
	unsigned long flags;

	raw_spin_lock_irqsave(&slots_lock, flags);
	if (slots[i].addr != ret) {
		slots[i].f = frame_lookup(ret);
		slots[i].addr = ret;
	}
	f = slots[i].f;
	raw_spin_unlock_irqrestore(&slots_lock, flags);
	return f;
}

/* this stack's frames, innermost first: their number */
static int resid_frames(struct resid_frame *f, unsigned int depth)
{
	unsigned long entries[RESID_DEPTH];
	unsigned int i, n;

	n = stack_trace_save(entries, min_t(unsigned int, depth, RESID_DEPTH), 0);
	for (i = 0; i < n; i++)
		f[i] = frame_of(entries[i]);
	return n;
}

/*
 * A free's stack is walked whole once per batch: the folios of one
 * batch are freed from one loop, with the same task, stack pointer and
 * innermost return addresses (the key), and the class of the last key
 * seen on this CPU is kept.  A deeper walk for every page would double
 * a meter boot's instructions.
 */
#define RESID_KEY_DEPTH 6

struct resid_key {
	struct task_struct *task;
	unsigned long sp;
	unsigned long ret[RESID_KEY_DEPTH];
};

struct resid_last {
	struct resid_key key;
	unsigned int cls;
	bool valid;
};

static DEFINE_PER_CPU(struct resid_last, resid_last);

static unsigned int free_class(void)
{
	struct resid_key key = { current, current_stack_pointer };
	struct resid_frame f[RESID_DEPTH];
	struct resid_last *last;
	unsigned long flags;
	unsigned int cls;
	bool hit;

	stack_trace_save(key.ret, RESID_KEY_DEPTH, 0);
	local_irq_save(flags);
	last = this_cpu_ptr(&resid_last);
	hit = last->valid && !memcmp(&last->key, &key, sizeof(key));
	cls = last->cls;
	local_irq_restore(flags);
	if (hit)
		return cls;
	cls = resid_free_class(f, resid_frames(f, RESID_DEPTH), honoured);
	local_irq_save(flags);
	last = this_cpu_ptr(&resid_last);
	last->key = key;
	last->cls = cls;
	last->valid = true;
	local_irq_restore(flags);
	return cls;
}

static void probe_free(void *data, struct page *page, unsigned int order)
{
	unsigned int cls;

	resid_quiet_begin();
	cls = free_class();
	resid_quiet_end();
	resid_emit(page, order, cls);
}

/*
 * readahead's allocations: the gfp of readahead_gfp_mask(), with
 * __GFP_NORETRY and __GFP_NOWARN; only those are walked (a few frames:
 * the readahead functions call the allocator)
 */
#define RESID_RA_GFP (__GFP_NORETRY | __GFP_NOWARN)
#define RESID_ALLOC_DEPTH 12

static void probe_alloc(void *data, struct page *page, unsigned int order, gfp_t gfp,
			int migratetype)
{
	struct resid_frame f[RESID_DEPTH];
	int cls;

	if ((gfp & RESID_RA_GFP) != RESID_RA_GFP)
		return;
	resid_quiet_begin();
	cls = resid_alloc_class(f, resid_frames(f, RESID_ALLOC_DEPTH), !!(gfp & __GFP_COLD),
				honoured);
	resid_quiet_end();
	if (cls >= 0)
		resid_emit(page, order, cls);
}

static struct {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool on;
} probes[] = {
	{ "mm_page_free", probe_free },
	{ "mm_page_alloc", probe_alloc },
};

static void find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (!strcmp(tp->name, probes[i].name))
			probes[i].tp = tp;
}

static void unregister_probes(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (probes[i].on)
			tracepoint_probe_unregister(probes[i].tp, probes[i].probe, NULL);
	tracepoint_synchronize_unregister();
}

static void resid_plant(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	if (!page)
		return;
	memset(page_address(page), 0x5a, PAGE_SIZE);
	resid_emit(page, 0, RESID_CLASS(RESID_PLANT, 1));
	__free_page(page);
}

static int __init hotcold_resid_init(void)
{
	unsigned int i;
	int err;

	for_each_kernel_tracepoint(find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (!probes[i].tp) {
			pr_err("hotcold_resid: no tracepoint %s\n", probes[i].name);
			err = -ENOENT;
			goto fail;
		}
		err = tracepoint_probe_register(probes[i].tp, probes[i].probe, NULL);
		if (err) {
			pr_err("hotcold_resid: cannot attach to %s: %d\n", probes[i].name, err);
			goto fail;
		}
		probes[i].on = true;
	}
	if (plant)
		resid_plant();
	pr_info("hotcold_resid: counting at mm_page_free and mm_page_alloc, honoured=%d\n",
		honoured);
	return 0;
fail:
	unregister_probes();
	return err;
}
module_init(hotcold_resid_init);

static void __exit hotcold_resid_exit(void)
{
	unregister_probes();
}
module_exit(hotcold_resid_exit);

MODULE_DESCRIPTION("hotcold residency meter: page frees and readahead allocations to the cachesim plugin");
MODULE_LICENSE("GPL");
