/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The residency meter's side of the cachesim plugin (cachesim.c), kept
 * apart from the model (cache.h) and testable on the host (test.c): how
 * many of a page's lines the modelled caches hold when the guest kernel
 * frees it, or allocates it for readahead, counted per class.
 *
 * The guest side is bench/module/hotcold_resid.c, loaded in make bench's
 * meter boots only; it decides each page's class (its rule and label:
 * bench/module/resid_rules.h) and tells the plugin with markers, 7-byte
 * NOPs as the phase markers are (cache.h):
 *   RESID_MAGIC_PAGE         the access of the instruction after it names
 *                            a page and a class: the page holding the
 *                            address, the class its offset in the page
 *                            over 64 (0-63).  The plugin counts the page
 *                            and, for each level of this vCPU's hierarchy,
 *                            the page's lines that level holds (probed:
 *                            no fill, no change of recency), and how many
 *                            lines any level holds; the access itself is
 *                            not modelled.  A page marker whose access
 *                            never came (a second one came first) is lost.
 *   RESID_MAGIC_QUIET_BEGIN  this vCPU's accesses are not modelled until
 *   RESID_MAGIC_QUIET_END    the matching end (they nest): the module's
 *                            own work (stack walks, symbol lookups), so
 *                            that the caches the meter reads are the
 *                            workload's.
 * A class with RESID_LABEL_BATCH set is a batch free whose label the
 * guest's stack does not name (the series' __folios_put_refs() tail-calls
 * the wrapper its cold argument picks): its label is the wrapper this
 * vCPU entered last, free_unref_folios_cold() (cold) or
 * free_unref_folios() (hot), whose addresses the plugin is given
 * (resid_cold=, resid_hot=: System.map's) and whose first instructions
 * it watches.  Such a page before any wrapper ran, or without resid_cold=,
 * is not counted but unlabelled.
 *
 * Levels are the hierarchy's: a private L1D, then a shared L2 (two
 * levels), or a private L2 and a shared L3 (three).  Lines held only in
 * another vCPU's private levels count as not held.  Counts are per phase
 * and per vCPU, printed after the phase's vCPU lines:
 *   resid phase=N vcpu=V class=C pages=P l1=.. l2=.. l3=.. any=..
 * one line per class with a page (l3 is 0 with two levels), and
 *   resid phase=N vcpu=V lost=K
 *   resid phase=N vcpu=V unlabelled=K
 * when K page markers were lost, K batch pages had no wrapper's label.
 */
#ifndef HOTCOLD_RESIDENCY_H
#define HOTCOLD_RESIDENCY_H

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "cache.h"

#define RESID_MAGIC_PAGE        0x48430010u
#define RESID_MAGIC_QUIET_BEGIN 0x48430011u
#define RESID_MAGIC_QUIET_END   0x48430012u

#define RESID_PAGE_SIZE 4096u
#define RESID_CLASS_SHIFT 6	/* the class's line in the page: 64 bytes, whatever the model's */
#define RESID_CLASSES (RESID_PAGE_SIZE >> RESID_CLASS_SHIFT)
/* bench/module/resid_rules.h's: the label is the batch wrapper's */
#define RESID_LABEL_BATCH 32

struct resid_count {
	uint64_t pages;
	uint64_t lines[MAX_LEVELS];	/* held by each level */
	uint64_t any;			/* held by some level */
};

/* one vCPU's meter */
struct resid {
	struct resid_count c[RESID_CLASSES];
	uint64_t lost, unlabelled;
	int pending;	/* a page marker waits for its access */
	int quiet;	/* quiet markers open */
	int batch_cold;	/* the wrapper entered last: 1 cold, 0 hot, -1 none yet */
};

/* resid_hot=, resid_cold=: the batch wrappers' first instructions (0: none) */
struct resid_wrappers {
	uint64_t hot, cold;
};

/* the instructions that follow a page marker: their accesses name pages */
struct resid_pcs {
	uint64_t *pc;
	size_t nr, max;
};

/* one of the magics above, or 0 for other code */
static inline uint32_t resid_marker(const uint8_t *insn, size_t len)
{
	uint32_t disp;

	if (len != 7 || insn[0] != 0x0f || insn[1] != 0x1f || insn[2] != 0x80)
		return 0;
	disp = insn[3] | insn[4] << 8 | insn[5] << 16 | (uint32_t)insn[6] << 24;
	return disp == RESID_MAGIC_PAGE || disp == RESID_MAGIC_QUIET_BEGIN ||
	       disp == RESID_MAGIC_QUIET_END ? disp : 0;
}

static inline int resid_pcs_has(const struct resid_pcs *s, uint64_t pc)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->pc[i] == pc)
			return 1;
	return 0;
}

static inline void resid_pcs_add(struct resid_pcs *s, uint64_t pc)
{
	if (resid_pcs_has(s, pc))
		return;
	if (s->nr == s->max) {
		s->max = s->max ? 2 * s->max : 16;
		s->pc = realloc(s->pc, s->max * sizeof(*s->pc));
		if (!s->pc)
			abort();
	}
	s->pc[s->nr++] = pc;
}

/*
 * The page holding addr, under the class its offset names (a batch's
 * label the wrapper's): its lines each level of h holds.
 * (CACHESIM_PLANT_RESID_SWAP: the planted fault of test.c's residency
 * cases, hot and cold swapped: the class's lowest bit, the label,
 * flipped.)
 */
static inline void resid_page(struct resid *r, const struct hier *h, uint64_t addr)
{
	uint64_t page = addr & ~(uint64_t)(RESID_PAGE_SIZE - 1), off;
	unsigned int cls = (addr & (RESID_PAGE_SIZE - 1)) >> RESID_CLASS_SHIFT;
	unsigned int line = 1u << h->level[0]->line_shift, i;
	struct resid_count *c;

	if (cls & RESID_LABEL_BATCH) {
		if (r->batch_cold < 0) {
			r->unlabelled++;
			return;
		}
		cls = (cls & ~(RESID_LABEL_BATCH | 1u)) | r->batch_cold;
	}
#ifdef CACHESIM_PLANT_RESID_SWAP
	cls ^= 1;
#endif
	c = &r->c[cls];
	c->pages++;
	for (off = 0; off < RESID_PAGE_SIZE; off += line) {
		int held = 0;

		for (i = 0; i < h->levels; i++)
			if (cache_probe(h->level[i], page + off)) {
				c->lines[i]++;
				held = 1;
			}
		c->any += held;
	}
}

/* a marker of this vCPU's ran */
static inline void resid_marker_exec(struct resid *r, uint32_t magic)
{
	switch (magic) {
	case RESID_MAGIC_PAGE:
		if (r->pending)
			r->lost++;
		r->pending = 1;
		break;
	case RESID_MAGIC_QUIET_BEGIN:
		r->quiet++;
		break;
	case RESID_MAGIC_QUIET_END:
		if (r->quiet)
			r->quiet--;
		break;
	}
}

/*
 * An access of this vCPU's at addr (the model's address), at_page: by the
 * instruction after a page marker.  1: the meter took it, and the model
 * must not see it; 0: the model's.
 */
static inline int resid_access(struct resid *r, const struct hier *h, uint64_t addr,
			       int at_page)
{
	if (at_page && r->pending) {
		r->pending = 0;
		resid_page(r, h, addr);
		return 1;
	}
	return r->quiet > 0;
}

/*
 * A batch wrapper's first instruction ran on this vCPU: cold, or hot.
 * Without resid_cold= a cold wrapper is never seen: no label is kept.
 */
static inline void resid_wrapper_exec(struct resid *r, const struct resid_wrappers *w, int cold)
{
	r->batch_cold = w->cold ? cold : -1;
}

/*
 * resid_hot= or resid_cold= (KEY) with VALUE, an address as C writes it,
 * not 0, into W: NULL, or why VALUE is refused (W unchanged)
 */
static inline const char *resid_wrappers_parse(struct resid_wrappers *w, const char *key,
					       const char *value)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = isdigit((unsigned char)*value) ? strtoull(value, &end, 0) : 0;
	if (!x || errno || *end)
		return "expected an address (a number, not 0)";
	if (!strcmp(key, "resid_cold"))
		w->cold = x;
	else
		w->hot = x;
	return NULL;
}

/* the vCPU's meter before its first marker */
static inline void resid_init(struct resid *r)
{
	memset(r, 0, sizeof(*r));
	r->batch_cold = -1;
}

/* a phase begins: its counts start at 0 (a quiet window open goes on) */
static inline void resid_reset(struct resid *r)
{
	memset(r->c, 0, sizeof(r->c));
	r->lost = 0;
	r->unlabelled = 0;
}

/* the phase's lines of this vCPU (the format above) */
static inline void resid_print(FILE *out, unsigned long phase, int vcpu, const struct resid *r)
{
	unsigned int i;

	for (i = 0; i < RESID_CLASSES; i++) {
		const struct resid_count *c = &r->c[i];

		if (!c->pages)
			continue;
		fprintf(out, "resid phase=%lu vcpu=%d class=%u pages=%" PRIu64 " l1=%" PRIu64
			" l2=%" PRIu64 " l3=%" PRIu64 " any=%" PRIu64 "\n", phase, vcpu, i,
			c->pages, c->lines[0], c->lines[1], c->lines[2], c->any);
	}
	if (r->lost)
		fprintf(out, "resid phase=%lu vcpu=%d lost=%" PRIu64 "\n", phase, vcpu, r->lost);
	if (r->unlabelled)
		fprintf(out, "resid phase=%lu vcpu=%d unlabelled=%" PRIu64 "\n", phase, vcpu,
			r->unlabelled);
}

#endif
