// SPDX-License-Identifier: GPL-2.0
/*
 * calibrate: measure on the host, natively and from user space, what the
 * report prices the simulated misses with (bench/report.py):
 *   - the load-to-use latency of a dependent load (a pointer chase over a
 *     random cyclic permutation of 64-byte lines) for working sets that
 *     step across the host's caches, 16 KB to 512 MB;
 *   - the time to write one 4 KB page with memset() (rep stosb on this
 *     libc with ERMS) when the page is in L1/L2 ("warm"), only in L3, or
 *     in no cache (DRAM), each page a distinct one of a set of that size.
 * Prints "calibrate KEY=VALUE ..." lines, nanoseconds, each the median
 * of 5 runs; the report picks the levels it needs by working set.
 * Run it on an idle host: a concurrent build doubles the DRAM figures.
 *
 * usage: calibrate [--quick]
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define RUNS 5

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Memory in 2 MB pages where the host allows (transparent huge pages):
 * the kernel reaches page contents through its direct map's large pages,
 * so the latencies to price its misses with are those without 4 KB TLB
 * misses.
 */
static char *alloc_buf(size_t bytes)
{
	size_t size = (bytes + (2 << 20) - 1) & ~(size_t)((2 << 20) - 1);
	char *buf = aligned_alloc(2 << 20, size);

	if (!buf) {
		fprintf(stderr, "calibrate: out of memory for %zu bytes\n", bytes);
		exit(1);
	}
	madvise(buf, size, MADV_HUGEPAGE);
	return buf;
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ns per dependent load over a working set of bytes */
static double chase(size_t bytes, long loads)
{
	size_t n = bytes / LINE, i;
	char *buf = alloc_buf(bytes);
	size_t *order = malloc(n * sizeof(*order));
	double t[RUNS];
	void **p;
	int r;

	if (!order) {
		fprintf(stderr, "calibrate: out of memory for %zu bytes\n", bytes);
		exit(1);
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {		/* Fisher-Yates */
		size_t j = next() % (i + 1), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (i = 0; i < n; i++)
		*(void **)(buf + order[i] * LINE) = buf + order[(i + 1) % n] * LINE;
	p = (void **)(buf + order[0] * LINE);
	for (i = 0; i < n; i++)			/* warm up: one lap */
		p = *p;
	for (r = 0; r < RUNS; r++) {
		double t0 = now_ns();
		long k;

		for (k = 0; k < loads; k++)
			p = *p;
		t[r] = (now_ns() - t0) / loads;
	}
	if (!p)
		puts("");			/* keep the chase */
	free(order);
	free(buf);
	qsort(t, RUNS, sizeof(t[0]), cmp_double);
	return t[RUNS / 2];
}

/* ns to memset() one 4 KB page, pages taken in turn from a set of bytes */
static double page_write(size_t bytes, long pages)
{
	char *buf = alloc_buf(bytes);
	size_t n = bytes / 4096;
	double t[RUNS];
	int r;

	memset(buf, 1, bytes);
	for (r = 0; r < RUNS; r++) {
		double t0 = now_ns();
		long k;

		for (k = 0; k < pages; k++)
			memset(buf + (k % n) * 4096, (int)k, 4096);
		t[r] = (now_ns() - t0) / pages;
	}
	if (buf[4096 + 7] == 3)
		puts("");			/* keep the stores */
	free(buf);
	qsort(t, RUNS, sizeof(t[0]), cmp_double);
	return t[RUNS / 2];
}

int main(int argc, char **argv)
{
	/*
	 * The levels' working sets: inside a Zen core's L1D (32-48 KB), L2
	 * (512 KB-1 MB) and L3, and far past any L3.  The L3's is 4 MB: on
	 * the cloud machine this was written on (a Zen 5 VM), 8 MB took 117
	 * and 126 ns in two runs and 19 ns in a third, 16 MB 73-163 ns,
	 * against 14-17 ns at 2-4 MB: the VM does not have the CCD's L3 to
	 * itself.  The sweep line records the whole curve.
	 */
	static const size_t sets[] = { 16 << 10, 256 << 10, 4 << 20, 512 << 20 };
	static const char *const names[] = { "l1", "l2", "l3", "dram" };
	static const size_t sweep[] = { 1 << 20, 2 << 20, 8 << 20, 16 << 20, 64 << 20 };
	static const char *const sweep_names[] = { "1M", "2M", "8M", "16M", "64M" };
	int quick = argc > 1 && !strcmp(argv[1], "--quick");
	long loads = quick ? 2000000 : 20000000;
	unsigned int i;

	if (argc > 2 || (argc == 2 && !quick)) {
		fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
		return 2;
	}
	printf("calibrate load_ns");
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		printf(" %s=%.2f", names[i], chase(sets[i], loads));
	printf("\ncalibrate page_write_ns warm=%.1f l3=%.1f dram=%.1f\n",
	       page_write(16 << 10, quick ? 20000 : 200000),
	       page_write(4 << 20, quick ? 20000 : 200000),
	       page_write(512 << 20, quick ? 20000 : 200000));
	printf("calibrate sweep_ns");
	for (i = 0; i < sizeof(sweep) / sizeof(sweep[0]); i++)
		printf(" %s=%.2f", sweep_names[i], chase(sweep[i], loads / 2));
	printf("\ncalibrate working_sets l1=16K l2=256K l3=4M dram=512M page_sets warm=16K l3=4M dram=512M\n");
	return 0;
}
