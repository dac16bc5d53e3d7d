/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache model of the hotcold TCG plugin (cachesim.c), kept apart so
 * that a host program (test.c) can check it against access patterns with
 * known miss counts.
 *
 * A cache is set-associative with true LRU replacement, write-allocate,
 * indexed and tagged by physical address.  A hierarchy is one private L1D
 * per vCPU in front of one L2 shared by all vCPUs; an L1 miss looks up the
 * L2, and both are filled on a miss (non-inclusive, no back-invalidation).
 */
#ifndef HOTCOLD_CACHE_H
#define HOTCOLD_CACHE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct cache {
	unsigned int sets;		/* a power of two */
	unsigned int ways;
	unsigned int line_shift;	/* log2(line size) */
	uint64_t *tags;			/* sets * ways, MRU first; 0 = empty */
};

/* counters of one kind of access (kernel or user code) */
struct cache_stats {
	uint64_t accesses;	/* L1D accesses (lines touched) */
	uint64_t l1_misses;	/* = L2 accesses */
	uint64_t l2_misses;
};

static inline int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* returns NULL on success, or what is wrong with the geometry */
static inline const char *cache_init(struct cache *c, uint64_t size,
				     unsigned int ways, unsigned int line)
{
	uint64_t sets;

	if (!is_pow2(line) || line < 8)
		return "line size must be a power of two >= 8";
	if (!ways || size % ((uint64_t)ways * line))
		return "size must be a multiple of ways * line";
	sets = size / ((uint64_t)ways * line);
	if (!is_pow2(sets))
		return "size / (ways * line) must be a power of two";
	c->sets = sets;
	c->ways = ways;
	c->line_shift = __builtin_ctz(line);
	c->tags = calloc(sets * ways, sizeof(*c->tags));
	return c->tags ? NULL : "out of memory";
}

static inline void cache_free(struct cache *c)
{
	free(c->tags);
	c->tags = NULL;
}

/* look up the line holding addr; returns 1 on a hit; fills it either way */
static inline int cache_access(struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	uint64_t tag = line + 1;
	uint64_t *set = c->tags + (line & (c->sets - 1)) * c->ways;
	unsigned int i;

	for (i = 0; i < c->ways; i++) {
		if (set[i] == tag)
			break;
	}
	if (i == c->ways) {
		/* miss: drop the LRU way, insert at MRU */
		memmove(set + 1, set, (c->ways - 1) * sizeof(*set));
		set[0] = tag;
		return 0;
	}
	if (i) {
		memmove(set + 1, set, i * sizeof(*set));
		set[0] = tag;
	}
	return 1;
}

/* drop the line holding addr, if present (a device wrote it) */
static inline void cache_invalidate(struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	uint64_t *set = c->tags + (line & (c->sets - 1)) * c->ways;
	unsigned int i;

	for (i = 0; i < c->ways; i++) {
		if (set[i] == line + 1) {
			memmove(set + i, set + i + 1, (c->ways - 1 - i) * sizeof(*set));
			set[c->ways - 1] = 0;
			return;
		}
	}
}

/* one line through L1 then L2 */
static inline void hier_access_line(struct cache *l1, struct cache *l2,
				    uint64_t addr, struct cache_stats *st)
{
	st->accesses++;
	if (cache_access(l1, addr))
		return;
	st->l1_misses++;
	if (!cache_access(l2, addr))
		st->l2_misses++;
}

/* an access of size bytes at addr: one line, or two if it crosses one */
static inline void hier_access(struct cache *l1, struct cache *l2, uint64_t addr,
			       unsigned int size, struct cache_stats *st)
{
	uint64_t last = addr + size - 1;

	hier_access_line(l1, l2, addr, st);
	if ((last >> l1->line_shift) != (addr >> l1->line_shift))
		hier_access_line(l1, l2, last, st);
}

/*
 * Markers.  The guest opens and closes the measured phase with a 7-byte
 * NOP, "nopl MAGIC(%rax)" (0f 1f 80 + 32-bit displacement), which does
 * nothing on any x86 CPU; the plugin recognises the displacement.
 * guest/src/benchutil.h emits the same bytes.
 *
 * The DMA marker stands for what the plugin cannot see: a device writing
 * guest memory.  The vCPU's next memory access after it names a page that
 * a device wrote since the CPU last touched it; the plugin drops that
 * page's lines from every cache instead of counting the access.  (The
 * guest's streaming readers mark each page of a file they map before
 * reading it: its data came by DMA from the virtio disk.)
 */
#define PHASE_MAGIC_BEGIN 0x48430001u	/* "HC", 1 */
#define PHASE_MAGIC_END   0x48430002u	/* "HC", 2 */
#define DMA_MAGIC         0x48430003u	/* "HC", 3 */

/* returns one of the magics above, or 0 for other code */
static inline uint32_t phase_marker(const uint8_t *insn, size_t len)
{
	uint32_t disp;

	if (len != 7 || insn[0] != 0x0f || insn[1] != 0x1f || insn[2] != 0x80)
		return 0;
	disp = insn[3] | insn[4] << 8 | insn[5] << 16 | (uint32_t)insn[6] << 24;
	return disp == PHASE_MAGIC_BEGIN || disp == PHASE_MAGIC_END ||
	       disp == DMA_MAGIC ? disp : 0;
}

#endif
