// SPDX-License-Identifier: GPL-2.0
/*
 * flood: a page-fault loop (the foreground: map FG_KB, write every page,
 * unmap; its own freed pages are cache hot) on CPU 0, and on the same CPU
 * a fixed amount of work that frees or allocates pages the CPU has not
 * touched recently, interleaved at fixed points so that every kernel sees
 * the same sequence:
 *
 *   exit MB N       N processes each touch MB of anonymous memory before
 *                   the phase; one of them is killed (and reaped) after
 *                   every LOOPS/N iterations: its exit frees MB at once.
 *   reclaim MB N    MB of /mnt/big (order-0 page cache) is mapped
 *                   and read before the phase
 *                   (page cache touched long ago); after every LOOPS/N
 *                   iterations, MB/N of it is reclaimed with MADV_PAGEOUT
 *                   (shrink_folio_list() in this task, on this CPU, as in
 *                   direct or proactive reclaim).
 *   readahead KB 0  after every iteration, read the next KB of READDEV
 *                   through a mapping (readahead allocations, data by
 *                   DMA: see consume_file()), dropping what was read.
 *
 * exit or reclaim with N 0: the foreground alone in the phase (the zero
 * point of make bench's sweeps); exit forks no process then, reclaim
 * reads the same page cache before the phase.
 *
 * With FLOOD_CPU (exit and reclaim, not 0) the flood runs on that CPU
 * instead, at the same points: the exiting processes are bound to it
 * before they touch their memory, and a helper bound to it maps and reads
 * the page cache and pages it out when the foreground asks (a pipe each
 * way; the foreground waits for each chunk, so the sequence is the same).
 * The foreground stays on CPU 0.
 *
 * usage: flood exit|reclaim|readahead SIZE N FG_KB LOOPS [FLOOD_CPU]
 * prints: pages_per_s=<foreground pages/s> count=<pages> ops=<pages>
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "benchutil.h"

/*
 * On the scratch disk (ext4), or in a boot without it, ext2 on a loop
 * device over tmpfs (guest/jobs/bench.sh): order-0 page cache either way.
 */
#define BIGFILE "/mnt/big"

/* null_blk: no host I/O, completions on a guest timer (run-guest.sh) */
#define READDEV "/dev/nullb0"

static long fg_bytes;

static void touch(volatile char *p, long bytes)
{
	long off;

	for (off = 0; off < bytes; off += 4096)
		p[off] = 1;
}

static void fg_iteration(void)
{
	char *p = mmap(NULL, fg_bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("flood: mmap");
		exit(1);
	}
	touch(p, fg_bytes);
	munmap(p, fg_bytes);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* the flood's CPU: 0, the foreground's, or FLOOD_CPU */
static int flood_cpu;

static void bind_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("flood: sched_setaffinity");
}

/* exit: processes whose memory is long cold, killed one by one */
static pid_t hogs[MAX_INSTANCES];

static void exit_setup(long bytes, long n)
{
	int pipefd[2];
	long i;
	char c;

	if (pipe(pipefd))
		die("flood: pipe");
	for (i = 0; i < n; i++) {
		hogs[i] = fork();
		if (hogs[i] < 0)
			die("flood: fork");
		if (hogs[i] == 0) {
			char *p;

			close(pipefd[0]);
			if (flood_cpu)
				bind_to(flood_cpu);
			p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				_exit(1);
			touch(p, bytes);
			if (write(pipefd[1], "r", 1) != 1)
				_exit(1);
			close(pipefd[1]);
			for (;;)
				pause();
		}
	}
	/* (a process that died before writing ends the read) */
	close(pipefd[1]);
	for (i = 0; i < n; i++)
		if (read(pipefd[0], &c, 1) != 1) {
			fprintf(stderr, "flood: a process did not start\n");
			exit(1);
		}
	close(pipefd[0]);
}

static void exit_one(long i)
{
	kill(hogs[i], SIGKILL);
	waitpid(hogs[i], NULL, 0);
}

/* reclaim: page cache read long ago, paged out chunk by chunk */
static char *cache;

static void reclaim_setup(long bytes)
{
	int fd = open(BIGFILE, O_RDONLY);
	long off;
	volatile char sum = 0;

	if (fd < 0)
		die(BIGFILE);
	cache = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	if (cache == MAP_FAILED)
		die("flood: mmap " BIGFILE);
	for (off = 0; off < bytes; off += 4096)
		sum += cache[off];
	close(fd);
}

static void reclaim_one(long i, long chunk)
{
	if (madvise(cache + i * chunk, chunk, MADV_PAGEOUT))
		die("flood: MADV_PAGEOUT");
}

/*
 * reclaim on FLOOD_CPU: a helper bound there owns the mapping (the
 * foreground maps nothing, so no page is mapped twice and MADV_PAGEOUT
 * frees each), reads it before the phase, then pages out the chunk whose
 * index it is sent and answers; it exits when the pipe closes.
 */
static int to_helper = -1, from_helper = -1;
static pid_t helper;

static void reclaim_helper_setup(long bytes, long chunk)
{
	int req[2], ack[2];
	long i;
	char c;

	if (pipe(req) || pipe(ack))
		die("flood: pipe");
	signal(SIGPIPE, SIG_IGN);
	helper = fork();
	if (helper < 0)
		die("flood: fork");
	if (helper == 0) {
		signal(SIGPIPE, SIG_DFL);
		close(req[1]);
		close(ack[0]);
		bind_to(flood_cpu);
		reclaim_setup(bytes);
		if (write(ack[1], "r", 1) != 1)
			_exit(1);
		while (read(req[0], &i, sizeof(i)) == sizeof(i)) {
			reclaim_one(i, chunk);
			if (write(ack[1], "d", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(req[0]);
	close(ack[1]);
	to_helper = req[1];
	from_helper = ack[0];
	if (read(from_helper, &c, 1) != 1) {
		fprintf(stderr, "flood: the reclaim helper did not start\n");
		exit(1);
	}
}

/* (SIGPIPE ignored: a helper that died fails the write, with this message) */
static void reclaim_helper_one(long i)
{
	char c;

	if (write(to_helper, &i, sizeof(i)) != sizeof(i) ||
	    read(from_helper, &c, 1) != 1 || c != 'd') {
		fprintf(stderr, "flood: the reclaim helper failed at chunk %ld\n", i);
		exit(1);
	}
}

static void reclaim_helper_down(void)
{
	int status;

	close(to_helper);
	if (waitpid(helper, &status, 0) != helper || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("flood: the reclaim helper failed");
}

/* readahead: a stream read a piece per iteration */
static int ra_fd;
static off_t ra_pos, ra_size;

static void readahead_setup(void)
{
	ra_fd = open(READDEV, O_RDONLY);
	if (ra_fd < 0)
		die(READDEV);
	ra_size = lseek(ra_fd, 0, SEEK_END);
}

static void readahead_one(long bytes)
{
	if (ra_pos + bytes > ra_size)
		ra_pos = 0;
	if (!consume_file(ra_fd, ra_pos, bytes, 1))
		die("flood: read " READDEV);
	ra_pos += bytes;
}

int main(int argc, char **argv)
{
	long size, n, loops, every = 1, i, done = 0;
	enum { EXIT, RECLAIM, READAHEAD } mode;
	double t0, t;

	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: %s exit|reclaim|readahead SIZE N FG_KB LOOPS [FLOOD_CPU]\n",
			argv[0]);
		return 2;
	}
	size = atol(argv[2]);
	n = atol(argv[3]);
	fg_bytes = atol(argv[4]) << 10;
	loops = atol(argv[5]);
	if (argc == 7) {
		char *end;
		long cpu = strtol(argv[6], &end, 10);

		if (!*argv[6] || *end || cpu < 1 || cpu >= sysconf(_SC_NPROCESSORS_ONLN) ||
		    !strcmp(argv[1], "readahead") || atol(argv[3]) <= 0) {
			fprintf(stderr, "%s: FLOOD_CPU '%s': expected an online CPU other than 0, "
				"for exit or reclaim with N above 0\n", argv[0], argv[6]);
			return 2;
		}
		flood_cpu = cpu;
	}
	if (size <= 0 || n < 0 || n > MAX_INSTANCES || fg_bytes <= 0 || loops <= 0 ||
	    loops < n) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	if (n)
		every = loops / n;
	bind_to(0);
	if (!strcmp(argv[1], "exit")) {
		mode = EXIT;
		exit_setup(size << 20, n);
	} else if (!strcmp(argv[1], "reclaim")) {
		mode = RECLAIM;
		if (flood_cpu)
			reclaim_helper_setup(size << 20, (size << 20) / n);
		else
			reclaim_setup(size << 20);
	} else if (!strcmp(argv[1], "readahead")) {
		mode = READAHEAD;
		readahead_setup();
	} else {
		fprintf(stderr, "%s: mode must be exit, reclaim or readahead\n", argv[0]);
		return 2;
	}
	/* what the setup touched is long cold by the time the phase opens */
	for (i = 0; i < 8; i++)
		fg_iteration();

	hc_phase_begin();
	t0 = now();
	for (i = 0; i < loops; i++) {
		fg_iteration();
		if (mode == READAHEAD) {
			readahead_one(size << 10);
		} else if (i % every == every - 1 && done < n) {
			if (mode == EXIT)
				exit_one(done);
			else if (flood_cpu)
				reclaim_helper_one(done);
			else
				reclaim_one(done, (size << 20) / n);
			done++;
		}
	}
	t = now() - t0;
	hc_phase_end();
	if (mode == EXIT)
		while (done < n)
			exit_one(done++);
	if (to_helper >= 0)
		reclaim_helper_down();
	printf("pages_per_s=%.1f count=%ld ops=%ld\n", loops * (fg_bytes >> 12) / t,
	       loops * (fg_bytes >> 12), loops * (fg_bytes >> 12));
	return 0;
}
