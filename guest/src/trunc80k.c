// SPDX-License-Identifier: GPL-2.0
/*
 * trunc80k: the 2002 hot-n-cold benchmark.  Each instance repeats
 * "lseek(0), write SIZE bytes, ftruncate(0)" on its own file in DIR for
 * SECONDS (or a fixed number of LOOPS) and the total rate is printed.
 *
 * usage: trunc80k DIR SIZE INSTANCES SECONDS [LOOPS]
 * prints: loops_per_s=<total> loops=<total>
 */
#include <fcntl.h>
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

int main(int argc, char **argv)
{
	long size, inst, loops_max, i;
	double secs, t0, t1;
	unsigned long *done;
	char *buf;

	if (argc < 5) {
		fprintf(stderr, "usage: %s DIR SIZE INSTANCES SECONDS [LOOPS]\n", argv[0]);
		return 2;
	}
	size = atol(argv[2]);
	inst = atol(argv[3]);
	secs = atof(argv[4]);
	loops_max = argc > 5 ? atol(argv[5]) : 0;
	if (size <= 0 || inst <= 0 || inst > 64 || (secs <= 0 && loops_max <= 0)) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	done = mmap(NULL, 64 * sizeof(*done), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	buf = malloc(size);
	if (done == MAP_FAILED || !buf)
		return 1;
	memset(buf, 'x', size);

	t0 = now();
	for (i = 0; i < inst; i++) {
		if (fork() == 0) {
			char path[512];
			unsigned long n = 0;
			int fd;

			snprintf(path, sizeof(path), "%s/trunc80k.%ld", argv[1], i);
			fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
			if (fd < 0) {
				perror(path);
				_exit(1);
			}
			while (loops_max ? n < (unsigned long)loops_max : now() - t0 < secs) {
				if (lseek(fd, 0, SEEK_SET) < 0 ||
				    write(fd, buf, size) != size ||
				    ftruncate(fd, 0) < 0) {
					perror("trunc80k");
					_exit(1);
				}
				n++;
			}
			close(fd);
			unlink(path);
			done[i] = n;
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
	{
		unsigned long total = 0;

		for (i = 0; i < inst; i++)
			total += done[i];
		printf("loops_per_s=%.1f loops=%lu\n", total / (t1 - t0), total);
	}
	return 0;
}
