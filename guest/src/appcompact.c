// SPDX-License-Identifier: GPL-2.0
/*
 * appcompact: Android's app compaction (CachedAppOptimizer) for the
 * modern family's workloads (guest/bench/modern.sh): a cached app, and
 * the compaction of another process through process_madvise(2).
 *
 * usage: appcompact app MB FILE...
 *   a cached app: MB of anonymous memory with app-like contents (a
 *   quarter of each page pseudo-random, the rest text: about 3:1 to a
 *   compressor, as app heaps go to zram) and FILE... mapped and read;
 *   prints "ready", then for each line "touch KB" on stdin reads the
 *   first KB of its anonymous memory (a word per page, which must hold
 *   what was written there: a page swapped out and back must come back
 *   whole) and a byte of every page of its files, and prints "ok", or
 *   "bad page N" and exits 1; exits 0 at the end of its input.
 *        appcompact compact PID [cold]
 *   MADV_PAGEOUT of PID's anonymous mappings and MADV_COLD of all its
 *   others (/proc/PID/maps, as advice_of() sorts them), by process_madvise(2)
 *   in batches of at most UIO_MAXIOV (1024) ranges, as CachedAppOptimizer's
 *   full compaction does to a cached app; a mapping the kernel refuses with
 *   EINVAL (mlocked, VM_PFNMAP, hugetlb) is skipped and counted, as there;
 *   cold: MADV_COLD for the anonymous mappings too (moves nothing out:
 *   the host's unit test).  prints: anon_kb=N file_kb=N skipped=N
 *   skipped_kb=N (what the calls advised, not what left memory, and the
 *   mappings skipped); any other error fails, naming the call and it.
 *        appcompact advice MAPS
 *   each line of MAPS (the format of /proc/PID/maps) with the advice
 *   compact gives it (advice_of): pageout, cold or none.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef MADV_COLD
#define MADV_COLD 20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif

#define PAGE 4096L
#define MAGIC 0x6170706d656d0000UL	/* "appmem" */
#define MAX_FILES 1024
/* UIO_MAXIOV: the most ranges one process_madvise() takes */
#define BATCH 1024

static const char text[] = "page hot cold zone lock batch list cache buddy order "
			   "free alloc refill drain high low reclaim readahead exit fault ";

/* page i of the app's memory: its tag word, random bytes, then text */
static void fill_page(unsigned char *p, unsigned long i)
{
	unsigned long x = i * 0x9e3779b97f4a7c15UL + 1;
	long off;

	for (off = 0; off < PAGE / 4; off += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(p + off, &x, 8);
	}
	for (; off < PAGE; off++)
		p[off] = text[(off + i) % (sizeof(text) - 1)];
	x = MAGIC ^ i;
	memcpy(p, &x, 8);
}

static int app(long mb, int nfiles, char **files)
{
	static const volatile unsigned char *map[MAX_FILES];
	static long len[MAX_FILES];
	long pages = mb * 256, i, kb, off;
	volatile unsigned long sum = 0;
	unsigned char *mem;
	char line[64];
	struct stat st;
	int f, fd;

	if (mb <= 0 || nfiles > MAX_FILES) {
		fprintf(stderr, "appcompact app: MB %ld, %d files (at most %d)\n",
			mb, nfiles, MAX_FILES);
		return 2;
	}
	mem = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("appcompact app: mmap of its memory");
		return 1;
	}
	for (i = 0; i < pages; i++)
		fill_page(mem + i * PAGE, i);
	for (f = 0; f < nfiles; f++) {
		fd = open(files[f], O_RDONLY);
		if (fd < 0 || fstat(fd, &st) || st.st_size == 0) {
			fprintf(stderr, "appcompact app: cannot map %s\n", files[f]);
			return 1;
		}
		len[f] = st.st_size;
		map[f] = mmap(NULL, len[f], PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (map[f] == MAP_FAILED) {
			perror("appcompact app: mmap of a file");
			return 1;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "touch %ld", &kb) != 1 || kb < 0 || kb > mb * 1024) {
			printf("bad command: %s", line);
			return 1;
		}
		for (i = 0; i < kb / 4; i++) {
			unsigned long want = MAGIC ^ i, got;

			memcpy(&got, mem + i * PAGE, 8);
			if (got != want) {
				printf("bad page %ld\n", i);
				return 1;
			}
		}
		for (f = 0; f < nfiles; f++)
			for (off = 0; off < len[f]; off += PAGE)
				sum += map[f][off];
		printf("ok\n");
	}
	return 0;
}

/* what compact advises */
struct tally {
	long anon_kb, file_kb, skipped_kb;
	int skipped;
};

#define NONE 0
#define BAD (-1)

/*
 * the advice for one line of /proc/PID/maps, as CachedAppOptimizer's full
 * compaction gives it: MADV_PAGEOUT for a private mapping of no file,
 * whatever its name ([heap], [stack], [anon:NAME]) and its permissions
 * (read-only ones too), MADV_COLD for every other (files, shared memory).
 * NONE for the kernel's own ([vdso], [vvar], [vsyscall]): no app memory,
 * and [vsyscall] lies outside every VMA (process_madvise: ENOMEM).
 * BAD: not a line of that format.
 */
static int advice_of(const char *line, unsigned long *start, unsigned long *end)
{
	char perms[8], name[256] = "";
	unsigned long inode;

	if (sscanf(line, "%lx-%lx %7s %*s %*s %lu %255s", start, end, perms,
		   &inode, name) < 4 || strlen(perms) != 4 || *end <= *start)
		return BAD;
	if (name[0] == '[' && strcmp(name, "[heap]") && strcmp(name, "[stack]") &&
	    strncmp(name, "[anon", 5))
		return NONE;
	return !inode && perms[3] == 'p' ? MADV_PAGEOUT : MADV_COLD;
}

/*
 * ADVICE for the n ranges in iov, all of them; *kb gains what was advised.
 * The kernel advises a vector's ranges in order and, at the first it
 * refuses, returns what it advised before it, or the error if none: a
 * range refused with EINVAL is skipped and counted in t.
 */
static int advise(int pidfd, struct iovec *iov, int n, int advice,
		  long *kb, struct tally *t)
{
	long done;
	int i = 0;

	while (i < n) {
		int batch = n - i > BATCH ? BATCH : n - i;

		done = syscall(SYS_process_madvise, pidfd, iov + i, batch, advice, 0);
		if (done < 0 && errno == EINVAL) {
			t->skipped++;
			t->skipped_kb += iov[i++].iov_len / 1024;
			continue;
		}
		if (done <= 0) {
			fprintf(stderr, "appcompact compact: process_madvise(%s): %s%s\n",
				advice == MADV_PAGEOUT ? "MADV_PAGEOUT" : "MADV_COLD",
				done ? strerror(errno) : "advised nothing",
				done && errno == ENOSYS ?
				" (a kernel without process_madvise: CONFIG_ADVISE_SYSCALLS)" : "");
			return 1;
		}
		*kb += done / 1024;
		/* a partial call: go on from where it stopped */
		while (i < n && done >= (long)iov[i].iov_len)
			done -= iov[i++].iov_len;
		if (i < n) {
			iov[i].iov_base = (char *)iov[i].iov_base + done;
			iov[i].iov_len -= done;
		}
	}
	return 0;
}

/* each line of the maps file PATH with its advice */
static int show(const char *path)
{
	static const char *const word[] = { [NONE] = "none", [MADV_COLD] = "cold",
					    [MADV_PAGEOUT] = "pageout" };
	unsigned long start, end;
	char line[512];
	FILE *maps = fopen(path, "r");
	int a;

	if (!maps) {
		fprintf(stderr, "appcompact advice: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), maps)) {
		a = advice_of(line, &start, &end);
		if (a == BAD) {
			fprintf(stderr, "appcompact advice: %s: cannot read '%s'\n", path, line);
			return 1;
		}
		printf("%s %s", word[a], line);
	}
	fclose(maps);
	return 0;
}

static int compact(int pid, int cold)
{
	static struct iovec anon[65536], file[65536];
	unsigned long start, end;
	int pidfd, na = 0, nf = 0, rc, a;
	char path[64], line[512];
	struct tally t = { 0 };
	FILE *maps;

	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		fprintf(stderr, "appcompact compact: pidfd_open(%d): %s\n", pid, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	maps = fopen(path, "r");
	if (!maps) {
		fprintf(stderr, "appcompact compact: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), maps)) {
		a = advice_of(line, &start, &end);
		if (a == BAD) {
			fprintf(stderr, "appcompact compact: %s: cannot read '%s'\n", path, line);
			return 1;
		}
		if (na == 65536 || nf == 65536) {
			fprintf(stderr, "appcompact compact: more than 65536 mappings in %s\n",
				path);
			return 1;
		}
		if (a == MADV_PAGEOUT)
			anon[na++] = (struct iovec){ (void *)start, end - start };
		else if (a == MADV_COLD)
			file[nf++] = (struct iovec){ (void *)start, end - start };
	}
	fclose(maps);
	rc = advise(pidfd, anon, na, cold ? MADV_COLD : MADV_PAGEOUT, &t.anon_kb, &t) ||
	     advise(pidfd, file, nf, MADV_COLD, &t.file_kb, &t);
	close(pidfd);
	if (rc)
		return 1;
	printf("anon_kb=%ld file_kb=%ld skipped=%d skipped_kb=%ld\n", t.anon_kb, t.file_kb,
	       t.skipped, t.skipped_kb);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "app"))
		return app(atol(argv[2]), argc - 3, argv + 3);
	if ((argc == 3 || (argc == 4 && !strcmp(argv[3], "cold"))) &&
	    !strcmp(argv[1], "compact") && atoi(argv[2]) > 0)
		return compact(atoi(argv[2]), argc == 4);
	if (argc == 3 && !strcmp(argv[1], "advice"))
		return show(argv[2]);
	fprintf(stderr, "usage: appcompact app MB FILE... | appcompact compact PID [cold] | %s\n",
		"appcompact advice MAPS");
	return 2;
}
