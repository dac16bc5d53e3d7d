/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache model of the hotcold TCG plugin (cachesim.c), kept apart so
 * that a host program (test.c) can check it against access patterns with
 * known miss counts.
 *
 * A cache is set-associative with true LRU replacement, write-allocate,
 * indexed and tagged by physical address; or, with ways = 0, fully
 * associative LRU (a hash of lines on a recency list), which counts
 * capacity misses only: no conflict misses that depend on where in
 * physical memory a boot happened to place each page.
 *
 * A hierarchy (struct hier) is, for one vCPU, the caches an access goes
 * through in order: two levels (a private L1D, then an L2 shared by all
 * vCPUs: the Core 2 layout of the v1 results) or three (private L1D,
 * private L2, then an L3 shared by all vCPUs: a current x86 core).  A
 * miss at one level looks up the next, and every level is filled on the
 * way back (non-inclusive, no back-invalidation).
 *
 * Coherence (struct coherence, with two vCPUs or more): a store
 * invalidates the line in every other vCPU's private levels, and its vCPU
 * then holds the line modified.  An access by another vCPU that misses
 * its own private levels while the owner still holds the line there is a
 * cross-core transfer: the owner's copy serves it, in place of the shared
 * level (which is filled, as the owner's write-back would, but counts no
 * hit or miss).  A load leaves the owner a clean copy; a store (its read
 * for ownership) takes the line over.  An owner whose copy left its
 * private levels wrote it back: its own load that misses them reloads
 * the line clean, and it owns the line no more.  A rep string store that allocates
 * without a read (string_fill 0) invalidates the owner's copy but moves
 * no data: no transfer.  Every vCPU's accesses go through the one
 * coherence, so a vCPU that holds a line modified is the only one
 * holding it in its private levels.  With one vCPU, or without a
 * coherence (coh NULL), none of this runs: the model is the one before.
 *
 * Accesses are counted by kind: a load, a store, or a store by a rep
 * string instruction (rep stos/movs: clear_page(), copy_page()).  Such
 * stores write whole lines, and hardware can allocate those lines without
 * reading them first; the model fills them like any store, and the report
 * prices their misses both ways (with and without the fill).
 */
#ifndef HOTCOLD_CACHE_H
#define HOTCOLD_CACHE_H

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* a line of a fully associative cache */
struct fa_node {
	uint64_t tag;			/* line + 1; 0 = free */
	uint32_t prev, next;		/* recency list, MRU at head */
	uint32_t hnext;			/* hash chain */
};

#define FA_NIL 0xffffffffu

struct cache {
	unsigned int sets;		/* a power of two */
	unsigned int ways;		/* 0: fully associative */
	unsigned int line_shift;	/* log2(line size) */
	uint64_t *tags;			/* sets * ways, MRU first; 0 = empty */
	/* fully associative */
	struct fa_node *nodes;
	uint32_t *buckets;
	uint32_t nr_lines, nr_buckets, used, head, tail;
};

/* kinds of access */
enum { ACC_LOAD, ACC_STORE, ACC_STRING, NR_ACC };

#define MAX_LEVELS 3

/* counters of one kind of code (kernel or user) */
struct cache_stats {
	uint64_t accesses[NR_ACC];		/* L1D accesses (lines touched) */
	uint64_t misses[MAX_LEVELS][NR_ACC];	/* misses at L1, L2, L3 */
	/*
	 * cross-core transfers: accesses that missed the private levels
	 * and were served by another vCPU's modified copy (counted instead
	 * of a hit or a miss at the shared level)
	 */
	uint64_t xfers[NR_ACC];
};

struct coherence;

/* the caches one vCPU's accesses go through, nearest first */
struct hier {
	struct cache *level[MAX_LEVELS];
	unsigned int levels;			/* 2 or 3: the last one is shared */
	/*
	 * 0: a rep string store that misses L1 allocates the line there
	 * without reading it (the full-line "fast string" protocol): no
	 * lookup, no fill and no miss below L1.  1: it is filled like any
	 * store (a read for ownership through every level).
	 */
	int string_fill;
	/* the vCPUs' coherence, NULL without (one vCPU); id: this vCPU's index */
	struct coherence *coh;
	unsigned int id;
};

/*
 * Which vCPU holds each line modified: a table of 1 + its index (0: no
 * vCPU), in chunks of 2^COH_CHUNK_SHIFT lines (4 MB of memory) allocated
 * at the first store to them, so that a guest's sparse physical map costs
 * only what it stores to.  An entry can outlive the owner's copy (evicted
 * since, i.e. written back): the owner's private levels are looked up
 * before a transfer is counted, and the owner's own load that misses them
 * clears the entry (hier_access_line()), so that a clean reload is not
 * taken for a modified copy.
 */
#define COH_CHUNK_SHIFT 16
#define COH_MAX_VCPUS 255

struct coherence {
	struct hier **h;		/* each vCPU's hierarchy, by index */
	unsigned int nr;		/* vCPUs; below 2 coherence does nothing */
	uint8_t **owner;		/* the chunks, NULL until stored to */
	uint64_t nr_chunks;
};

static inline uint64_t stat_sum(const uint64_t *by_kind)
{
	return by_kind[ACC_LOAD] + by_kind[ACC_STORE] + by_kind[ACC_STRING];
}

static inline int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* returns NULL on success, or what is wrong with the geometry */
static inline const char *cache_init(struct cache *c, uint64_t size,
				     unsigned int ways, unsigned int line)
{
	uint64_t sets;

	memset(c, 0, sizeof(*c));
	if (!is_pow2(line) || line < 8)
		return "line size must be a power of two >= 8";
	c->line_shift = __builtin_ctz(line);
	if (!ways) {
		uint32_t i;

		if (!size || size % line || size / line >= FA_NIL / 2)
			return "size must be a multiple of line";
		c->nr_lines = size / line;
		c->nr_buckets = 1;
		while (c->nr_buckets < 2 * c->nr_lines)
			c->nr_buckets <<= 1;
		c->nodes = calloc(c->nr_lines, sizeof(*c->nodes));
		c->buckets = malloc(c->nr_buckets * sizeof(*c->buckets));
		if (!c->nodes || !c->buckets)
			return "out of memory";
		for (i = 0; i < c->nr_buckets; i++)
			c->buckets[i] = FA_NIL;
		c->head = c->tail = FA_NIL;
		return NULL;
	}
	if (size % ((uint64_t)ways * line))
		return "size must be a multiple of ways * line";
	sets = size / ((uint64_t)ways * line);
	if (!is_pow2(sets))
		return "size / (ways * line) must be a power of two";
	c->sets = sets;
	c->ways = ways;
	c->tags = calloc(sets * ways, sizeof(*c->tags));
	return c->tags ? NULL : "out of memory";
}

static inline void cache_free(struct cache *c)
{
	free(c->tags);
	free(c->nodes);
	free(c->buckets);
	c->tags = NULL;
	c->nodes = NULL;
	c->buckets = NULL;
}

static inline uint32_t fa_hash(const struct cache *c, uint64_t tag)
{
	return (uint32_t)((tag * 0x9e3779b97f4a7c15ull) >> 32) & (c->nr_buckets - 1);
}

static inline void fa_unlink(struct cache *c, uint32_t i)
{
	struct fa_node *n = &c->nodes[i];

	if (n->prev != FA_NIL)
		c->nodes[n->prev].next = n->next;
	else
		c->head = n->next;
	if (n->next != FA_NIL)
		c->nodes[n->next].prev = n->prev;
	else
		c->tail = n->prev;
}

static inline void fa_push_head(struct cache *c, uint32_t i)
{
	struct fa_node *n = &c->nodes[i];

	n->prev = FA_NIL;
	n->next = c->head;
	if (c->head != FA_NIL)
		c->nodes[c->head].prev = i;
	c->head = i;
	if (c->tail == FA_NIL)
		c->tail = i;
}

/* the node holding tag, or FA_NIL; *link is where its chain points to it */
static inline uint32_t fa_find(struct cache *c, uint64_t tag, uint32_t **link)
{
	uint32_t *l = &c->buckets[fa_hash(c, tag)];

	while (*l != FA_NIL && c->nodes[*l].tag != tag)
		l = &c->nodes[*l].hnext;
	*link = l;
	return *l;
}

static inline int fa_access(struct cache *c, uint64_t tag)
{
	uint32_t *link, i = fa_find(c, tag, &link);

	if (i != FA_NIL) {
		fa_unlink(c, i);
		fa_push_head(c, i);
		return 1;
	}
	if (c->used < c->nr_lines) {
		i = c->used++;
	} else {
		/* evict the LRU line (or reuse an invalidated one) */
		i = c->tail;
		if (c->nodes[i].tag) {
			fa_find(c, c->nodes[i].tag, &link);
			*link = c->nodes[i].hnext;
		}
		fa_unlink(c, i);
	}
	c->nodes[i].tag = tag;
	fa_find(c, tag, &link);
	c->nodes[i].hnext = FA_NIL;
	*link = i;
	fa_push_head(c, i);
	return 0;
}

static inline void fa_invalidate(struct cache *c, uint64_t tag)
{
	uint32_t *link, i = fa_find(c, tag, &link);

	if (i == FA_NIL)
		return;
	*link = c->nodes[i].hnext;
	fa_unlink(c, i);
	/* the freed node goes to the LRU end, empty: reused first */
	c->nodes[i].tag = 0;
	c->nodes[i].hnext = FA_NIL;
	c->nodes[i].next = FA_NIL;
	c->nodes[i].prev = c->tail;
	if (c->tail != FA_NIL)
		c->nodes[c->tail].next = i;
	else
		c->head = i;
	c->tail = i;
}

/* look up the line holding addr; returns 1 on a hit; fills it either way */
static inline int cache_access(struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	uint64_t tag = line + 1;
	uint64_t *set;
	unsigned int i;

	if (!c->ways)
		return fa_access(c, tag);
	set = c->tags + (line & (c->sets - 1)) * c->ways;
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
	uint64_t *set;
	unsigned int i;

	if (!c->ways) {
		fa_invalidate(c, line + 1);
		return;
	}
	set = c->tags + (line & (c->sets - 1)) * c->ways;
	for (i = 0; i < c->ways; i++) {
		if (set[i] == line + 1) {
			memmove(set + i, set + i + 1, (c->ways - 1 - i) * sizeof(*set));
			set[c->ways - 1] = 0;
			return;
		}
	}
}

/* is the line holding addr in c?  (no change to its recency) */
static inline int cache_probe(struct cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	const uint64_t *set;
	unsigned int i;
	uint32_t *link;

	if (!c->ways)
		return fa_find(c, line + 1, &link) != FA_NIL;
	set = c->tags + (line & (c->sets - 1)) * c->ways;
	for (i = 0; i < c->ways; i++)
		if (set[i] == line + 1)
			return 1;
	return 0;
}

/* returns NULL on success, or what is wrong; hs[i] gets coh and id i */
static inline const char *coh_init(struct coherence *co, struct hier **hs, unsigned int nr)
{
	unsigned int i;

	memset(co, 0, sizeof(*co));
	if (nr > COH_MAX_VCPUS)
		return "coherence: more than 255 vCPUs";
	co->h = hs;
	co->nr = nr;
	for (i = 0; i < nr; i++) {
		hs[i]->coh = co;
		hs[i]->id = i;
	}
	return NULL;
}

static inline void coh_free(struct coherence *co)
{
	uint64_t i;

	for (i = 0; i < co->nr_chunks; i++)
		free(co->owner[i]);
	free(co->owner);
	co->owner = NULL;
	co->nr_chunks = 0;
}

/* 1 + the vCPU holding the line modified, or 0 */
static inline unsigned int coh_owner(const struct coherence *co, uint64_t line)
{
	uint64_t chunk = line >> COH_CHUNK_SHIFT;

	if (chunk >= co->nr_chunks || !co->owner[chunk])
		return 0;
	return co->owner[chunk][line & ((1u << COH_CHUNK_SHIFT) - 1)];
}

static inline void coh_set_owner(struct coherence *co, uint64_t line, unsigned int owner)
{
	uint64_t chunk = line >> COH_CHUNK_SHIFT;

	if (chunk >= co->nr_chunks || !co->owner[chunk]) {
		if (!owner)
			return;
		if (chunk >= co->nr_chunks) {
			uint64_t n = co->nr_chunks ? co->nr_chunks : 64;
			uint8_t **p;

			while (n <= chunk)
				n *= 2;
			p = realloc(co->owner, n * sizeof(*p));
			if (!p)
				abort();
			memset(p + co->nr_chunks, 0, (n - co->nr_chunks) * sizeof(*p));
			co->owner = p;
			co->nr_chunks = n;
		}
		co->owner[chunk] = calloc(1u << COH_CHUNK_SHIFT, 1);
		if (!co->owner[chunk])
			abort();
	}
	co->owner[chunk][line & ((1u << COH_CHUNK_SHIFT) - 1)] = owner;
}

/* does a private level (all but the last, shared one) of h hold addr? */
static inline int hier_holds_private(const struct hier *h, uint64_t addr)
{
	unsigned int i;

	for (i = 0; i + 1 < h->levels; i++)
		if (cache_probe(h->level[i], addr))
			return 1;
	return 0;
}

/* coh_access()'s answer: flags */
#define COH_REMOTE 1	/* another vCPU holds the line modified */
#define COH_OWN 2	/* h's vCPU is the line's owner */

/*
 * The coherence of one access by h's vCPU, before it looks up its own
 * levels: a store invalidates the line in every other vCPU's private
 * levels and makes h's vCPU its owner; a load of a line another vCPU
 * owns leaves that vCPU a clean copy.  Returns COH_REMOTE if the owner
 * (another vCPU) still holds the line: the access is a cross-core
 * transfer if it misses h's private levels; COH_OWN if h's vCPU is the
 * owner; else 0.  Does nothing (0) with fewer than two vCPUs.
 * (CACHESIM_PLANT_NO_COHERENCE: the planted fault of bench/cachesim/test.c,
 * a model without coherence, which its coherence cases must fail.)
 */
static inline int coh_access(const struct hier *h, uint64_t addr, int kind)
{
	struct coherence *co = h->coh;
	uint64_t line;
	unsigned int owner, i;
	int remote;

#ifdef CACHESIM_PLANT_NO_COHERENCE
	return 0;
#endif
	if (!co || co->nr < 2)
		return 0;
	line = addr >> h->level[0]->line_shift;
	owner = coh_owner(co, line);
	if (owner == h->id + 1)
		return COH_OWN;	/* held modified here: no other copy */
	remote = owner && hier_holds_private(co->h[owner - 1], addr) ? COH_REMOTE : 0;
	if (kind == ACC_LOAD) {
		if (owner)
			coh_set_owner(co, line, 0);
		return remote;
	}
	for (i = 0; i < co->nr; i++) {
		const struct hier *o = co->h[i];
		unsigned int l;

		if (i == h->id)
			continue;
		for (l = 0; l + 1 < o->levels; l++)
			cache_invalidate(o->level[l], addr);
	}
	coh_set_owner(co, line, h->id + 1);
	return remote;
}

/* a device wrote the line holding addr: no vCPU holds it modified */
static inline void coh_forget(struct coherence *co, uint64_t addr, unsigned int line_shift)
{
	if (co && co->nr > 1)
		coh_set_owner(co, addr >> line_shift, 0);
}

/*
 * one line through the levels: counts the access and a miss per level,
 * or, at the shared level, a cross-core transfer (coh_access())
 */
static inline void hier_access_line(const struct hier *h, uint64_t addr, int kind,
				    struct cache_stats *st)
{
	unsigned int i, shared = h->levels - 1;
	int coh = coh_access(h, addr, kind);

	st->accesses[kind]++;
	for (i = 0; i < h->levels; i++) {
		if (i == shared && (coh & COH_REMOTE)) {
			/* the owner's copy serves it; its write-back fills the shared level */
			cache_access(h->level[i], addr);
			st->xfers[kind]++;
			return;
		}
		/*
		 * the owner missed its own private levels: its modified copy
		 * left them (written back), and a load reloads the line clean
		 * (a store keeps it: modified again)
		 */
		if (i == shared && (coh & COH_OWN) && kind == ACC_LOAD)
			coh_set_owner(h->coh, addr >> h->level[0]->line_shift, 0);
		if (cache_access(h->level[i], addr))
			return;
		st->misses[i][kind]++;
		if (kind == ACC_STRING && !h->string_fill)
			return;
	}
}

/* an access of size bytes at addr: one line, or two if it crosses one */
static inline void hier_access(const struct hier *h, uint64_t addr, unsigned int size,
			       int kind, struct cache_stats *st)
{
	uint64_t last = addr + size - 1;
	unsigned int shift = h->level[0]->line_shift;

	hier_access_line(h, addr, kind, st);
	if ((last >> shift) != (addr >> shift))
		hier_access_line(h, last, kind, st);
}

/*
 * The lines a rep string store writes, for pricing its iterations per
 * line (bench/prices.tsv's rep_line): an access counts the lines it
 * touches but the one the vCPU's previous string store ended in (*last:
 * that line + 1, 0 at first), so a clear of a 4 KB page counts 64 lines
 * whatever its element size (4096 rep stosb iterations, 512 rep stosq
 * ones), and a run of stores into one line counts it once.
 */
static inline unsigned int string_lines(uint64_t *last, uint64_t addr, unsigned int size,
					unsigned int line_shift)
{
	uint64_t first = (addr >> line_shift) + 1;
	uint64_t end = ((addr + size - 1) >> line_shift) + 1;
	unsigned int n = (first != *last) + (end != first);

	*last = end;
	return n;
}

/* drop the line holding addr from every level of h (a device wrote it) */
static inline void hier_invalidate(const struct hier *h, uint64_t addr)
{
	unsigned int i;

	for (i = 0; i < h->levels; i++)
		cache_invalidate(h->level[i], addr);
}

/*
 * The opcode of a rep-prefixed string instruction (movs a4/a5, cmps
 * a6/a7, stos aa/ab, lods ac/ad, scas ae/af), or -1: legacy prefixes (66,
 * 67, f2, f3, segment overrides) and one REX prefix may come before the
 * opcode; f2 or f3 must be among them.
 */
static inline int rep_string_opcode(const uint8_t *insn, size_t len)
{
	int rep = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		uint8_t b = insn[i];

		if (b == 0xf3 || b == 0xf2)
			rep = 1;
		else if (b == 0x66 || b == 0x67 || b == 0x2e || b == 0x36 ||
			 b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65)
			continue;
		else if ((b & 0xf0) == 0x40 && i + 1 < len)
			continue;	/* REX */
		else
			return rep && b >= 0xa4 && b <= 0xaf ? b : -1;
	}
	return -1;
}

static inline int is_rep_string(const uint8_t *insn, size_t len)
{
	return rep_string_opcode(insn, len) >= 0;
}

/* Is this instruction a rep-prefixed string store (rep stos, rep movs)? */
static inline int is_rep_string_store(const uint8_t *insn, size_t len)
{
	int op = rep_string_opcode(insn, len);

	return op == 0xaa || op == 0xab || op == 0xa4 || op == 0xa5;
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

/*
 * The address the model keys a data access by, in *addr; 0 for an access
 * it skips.  Under system emulation, the guest physical address (the
 * kernel clearing a page through its direct map and the user then
 * touching it through its own mapping hit the same lines): skipped when
 * QEMU gives no translation (have_phys 0) or the access is to device
 * memory.  Under user-mode emulation (one process, no physical address:
 * QEMU gives none), the virtual address, every access counted.
 */
static inline int model_address(int system, int have_phys, int is_io, uint64_t phys,
				uint64_t vaddr, uint64_t *addr)
{
	if (!system) {
		*addr = vaddr;
		return 1;
	}
	if (!have_phys || is_io)
		return 0;
	*addr = phys;
	return 1;
}

/*
 * calls=ADDR+ADDR/ADDR...: the instructions whose executions the plugin
 * counts per phase.  '+' starts a new counter, '/' adds an address to the
 * current one (a lock's call sites in one file: one counter); each
 * address a number as C writes it (strtoull() base 0: 0x hex, a leading
 * 0 octal, else decimal), not 0.
 */
#define MAX_CALLS 12
#define MAX_CALL_PCS 64
struct calls {
	uint64_t pcs[MAX_CALL_PCS];
	int ctr[MAX_CALL_PCS];	/* the counter pcs[i] adds to */
	int nr_pcs, nr;		/* addresses, counters */
};

/*
 * Adds VALUE's counters to C: NULL, or the reason VALUE is refused (C is
 * then unchanged).
 */
static inline const char *calls_parse(struct calls *c, const char *value)
{
	struct calls t = *c;
	const char *p = value;
	unsigned long long x;
	char *end;

	do {
		if (t.nr == MAX_CALLS)
			return "more than 12 counters";
		do {
			if (t.nr_pcs == MAX_CALL_PCS)
				return "more than 64 addresses";
			/* (strtoull takes a sign and spaces: refused) */
			errno = 0;
			x = isdigit((unsigned char)*p) ? strtoull(p, &end, 0) : 0;
			if (!x || errno || (*end && *end != '+' && *end != '/'))
				return "expected ADDR+ADDR/ADDR... (numbers, not 0)";
			t.ctr[t.nr_pcs] = t.nr;
			t.pcs[t.nr_pcs++] = x;
			p = end + 1;
		} while (*end == '/');
		t.nr++;
	} while (*end);
	*c = t;
	return NULL;
}

#endif
