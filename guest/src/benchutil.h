/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the guest workloads: "PROG X SIZE INSTANCES SECONDS [LOOPS]"
 * argument parsing, a clock, per-instance counters shared with forked
 * workers, and reaping them.
 */
#ifndef HOTCOLD_BENCHUTIL_H
#define HOTCOLD_BENCHUTIL_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

/*
 * Measured phase markers for the cachesim TCG plugin (bench/cachesim): a
 * 7-byte NOP, "nopl MAGIC(%rax)", that the plugin recognises.  They do
 * nothing on hardware or without the plugin.  Phases do not nest; the
 * plugin's counters are global, so one process opens and closes a phase.
 */
static inline void hc_phase_begin(void)
{
	asm volatile(".byte 0x0f, 0x1f, 0x80; .long 0x48430001" ::: "memory");
}

static inline void hc_phase_end(void)
{
	asm volatile(".byte 0x0f, 0x1f, 0x80; .long 0x48430002" ::: "memory");
}

/*
 * Tell the plugin that a device (DMA) wrote the page at p since the CPU
 * last touched it, then read its first byte: the plugin drops the page's
 * lines from its caches, as the device's writes did on hardware.
 */
static inline char hc_dma_done(const volatile char *p)
{
	char c;

	asm volatile(".byte 0x0f, 0x1f, 0x80; .long 0x48430003\n\t"
		     "movb (%1), %0" : "=q" (c) : "r" (p) : "memory");
	return c;
}

/*
 * Read bytes at pos of a file through a mapping, one word per cache line,
 * marking each page as written by the disk's DMA first; then, with drop,
 * drop the range from the page cache.  Returns a checksum, 0 on failure.
 */
static inline unsigned long consume_file(int fd, off_t pos, long bytes, int drop)
{
	volatile char *p = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, pos);
	unsigned long sum = 1;
	long off;

	if (p == MAP_FAILED)
		return 0;
	for (off = 0; off < bytes; off += 64) {
		if (!(off & 4095))
			sum += hc_dma_done(p + off);
		sum += p[off];
	}
	munmap((void *)p, bytes);
	if (drop)
		posix_fadvise(fd, pos, bytes, POSIX_FADV_DONTNEED);
	return sum;
}

#define MAX_INSTANCES 64

struct run_args {
	long size;	/* bytes per iteration */
	long inst;	/* worker processes */
	double secs;	/* run this long ... */
	long loops;	/* ... or this many iterations per worker, if > 0 */
};

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* argv[2..5]; returns 0, or 2 after printing what is wrong */
static inline int parse_run_args(int argc, char **argv, struct run_args *a)
{
	if (argc < 5)
		return 2;
	a->size = atol(argv[2]);
	a->inst = atol(argv[3]);
	a->secs = atof(argv[4]);
	a->loops = argc > 5 ? atol(argv[5]) : 0;
	if (a->size <= 0 || a->inst <= 0 || a->inst > MAX_INSTANCES ||
	    (a->secs <= 0 && a->loops <= 0)) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	return 0;
}

/* keep going? for a worker that has done n iterations since t0 */
static inline int keep_going(const struct run_args *a, unsigned long n, double t0)
{
	return a->loops ? n < (unsigned long)a->loops : now() - t0 < a->secs;
}

/* one counter per worker, visible to the parent after the fork */
static inline unsigned long *shared_counters(void)
{
	void *p = mmap(NULL, MAX_INSTANCES * sizeof(unsigned long),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* reap n workers; returns 0 if all exited 0, and the counters' sum */
static inline int reap(long n, const unsigned long *done, unsigned long *total)
{
	int rc = 0;
	long i;

	for (i = 0; i < n; i++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			rc = 1;
	}
	/* only now: wait() returns the workers in any order */
	*total = 0;
	for (i = 0; i < n; i++)
		*total += done[i];
	return rc;
}

#endif
