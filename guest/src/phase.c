// SPDX-License-Identifier: GPL-2.0
/*
 * phase: open or close a measured phase of the cachesim plugin from a
 * shell script, or check the plugin with a walk of known miss count.
 *
 * usage: phase begin | phase end
 *        phase walk BYTES PASSES
 *   walk: touch BYTES of memory once (page faults, outside the phase)
 *   and read it once more (the faults' kernel work, which evicts some of
 *   the lines written first, is then over), then, inside a phase, read
 *   one word per 64-byte line PASSES times.  A walk over twice the
 *   simulated L1D misses L1 on every line of every pass; a walk over half
 *   of it hits on every line.
 *   prints: lines=<lines read in the phase>
 *        phase dma PAGES
 *   dma: write PAGES pages of a memory file, then, inside a phase, map
 *   it afresh and read it as the streaming readers read a file the disk
 *   wrote (consume_file(): a DMA marker, whose load faults, on each
 *   page).  The plugin must apply every marker to the page read, not to
 *   the fault's accesses, so every line read misses L1.
 *   prints: pages=<pages marked> lines=<lines read in the phase>
 *        phase orphan
 *   orphan: execute a DMA marker whose next instruction loads nothing,
 *   outside any phase, and exit: the marker stays pending, as when a
 *   streaming reader is killed between a marker and its load.  The
 *   plugin must not count it against the next phase (dma_lost).
 */
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "benchutil.h"

static int walk(long bytes, long passes)
{
	volatile char *buf = malloc(bytes);
	unsigned long lines = 0;
	long off, p;

	if (!buf || bytes <= 0 || passes <= 0)
		return 1;
	memset((char *)buf, 1, bytes);
	for (off = 0; off < bytes; off += 64)
		(void)buf[off];
	hc_phase_begin();
	for (p = 0; p < passes; p++) {
		for (off = 0; off < bytes; off += 64)
			(void)buf[off];
		lines += bytes / 64;
	}
	hc_phase_end();
	printf("lines=%lu\n", lines);
	return 0;
}

static int dma(long pages)
{
	long bytes = pages * 4096, off;
	int fd = syscall(SYS_memfd_create, "phase-dma", 0);
	char page[4096];

	if (fd < 0 || pages <= 0)
		return 1;
	memset(page, 1, sizeof(page));
	for (off = 0; off < bytes; off += 4096)
		if (write(fd, page, sizeof(page)) != sizeof(page))
			return 1;
	hc_phase_begin();
	off = consume_file(fd, 0, bytes, 0);
	hc_phase_end();
	close(fd);
	if (!off)
		return 1;
	printf("pages=%ld lines=%ld\n", pages, bytes / 64);
	return 0;
}

static int orphan(void)
{
	asm volatile(".byte 0x0f, 0x1f, 0x80; .long 0x48430003\n\tnop" ::: "memory");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "begin")) {
		hc_phase_begin();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "end")) {
		hc_phase_end();
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "walk"))
		return walk(atol(argv[2]), atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "dma"))
		return dma(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "orphan"))
		return orphan();
	fprintf(stderr, "usage: %s begin|end|walk BYTES PASSES|dma PAGES|orphan\n", argv[0]);
	return 2;
}
