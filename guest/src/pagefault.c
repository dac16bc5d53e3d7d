// SPDX-License-Identifier: GPL-2.0
/*
 * pagefault: page-fault heavy work.
 *   anon:  map SIZE bytes of anonymous memory, touch every page, unmap,
 *          repeat; one process per instance.  Metric: pages/s.
 *   fork:  fork a child that touches a few pages and exits, repeat; one
 *          loop per instance (page tables built and freed).  Metric: forks/s.
 *
 * usage: pagefault anon|fork SIZE INSTANCES SECONDS [LOOPS]
 * prints: pages_per_s=<n> | forks_per_s=<n>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long run_anon(long size, double t0, double secs, long loops)
{
	unsigned long pages = 0, n = 0;
	long psz = sysconf(_SC_PAGESIZE), off;

	while (loops ? n < (unsigned long)loops : now() - t0 < secs) {
		char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(1);
		for (off = 0; off < size; off += psz)
			p[off] = 1;
		munmap(p, size);
		pages += size / psz;
		n++;
	}
	return pages;
}

static unsigned long run_fork(long size, double t0, double secs, long loops)
{
	unsigned long n = 0;
	static char data[64 * 4096];

	while (loops ? n < (unsigned long)loops : now() - t0 < secs) {
		pid_t pid = fork();

		if (pid == 0) {
			long off;

			for (off = 0; off < size && off < (long)sizeof(data); off += 4096)
				data[off] = 1;
			_exit(0);
		}
		if (pid < 0)
			_exit(1);
		waitpid(pid, NULL, 0);
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	long size, inst, loops, i;
	unsigned long *done, total = 0;
	double secs, t0, t1;
	int anon;

	if (argc < 5) {
		fprintf(stderr, "usage: %s anon|fork SIZE INSTANCES SECONDS [LOOPS]\n", argv[0]);
		return 2;
	}
	anon = !strcmp(argv[1], "anon");
	if (!anon && strcmp(argv[1], "fork")) {
		fprintf(stderr, "%s: mode must be anon or fork\n", argv[0]);
		return 2;
	}
	size = atol(argv[2]);
	inst = atol(argv[3]);
	secs = atof(argv[4]);
	loops = argc > 5 ? atol(argv[5]) : 0;
	if (size <= 0 || inst <= 0 || inst > 64 || (secs <= 0 && loops <= 0)) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	done = mmap(NULL, 64 * sizeof(*done), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (done == MAP_FAILED)
		return 1;
	t0 = now();
	for (i = 0; i < inst; i++) {
		if (fork() == 0) {
			done[i] = anon ? run_anon(size, t0, secs, loops) :
					 run_fork(size, t0, secs, loops);
			_exit(0);
		}
	}
	for (i = 0; i < inst; i++) {
		int st;

		wait(&st);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	}
	t1 = now();
	for (i = 0; i < inst; i++)
		total += done[i];
	printf("%s=%.1f count=%lu\n", anon ? "pages_per_s" : "forks_per_s",
	       total / (t1 - t0), total);
	return 0;
}
