# SPDX-License-Identifier: GPL-2.0
# hotcold: hot and cold per-CPU page queues for Linux 6.12.
# The two commands that matter are `make test` and `make bench`; the rest
# are the steps they are made of, for working on the series, and `make
# unit`, the harness's own tests in seconds.

SHELL := /bin/bash
S := scripts

.PHONY: help test unit bench tree export tree-check tree-reset pahole kernels kernel-% image \
	shell checkpatch build-series cachesim vcpu-shares kunit-py clean distclean

help:
	@echo "hotcold -- hot/cold per-CPU page queues for Linux 6.12"
	@echo
	@echo "  make test          build, boot and test the series (KUnit, guest tests,"
	@echo "                     debug kernel, checkpatch); last line: N passed, N failed[, N skipped]"
	@echo "  make bench         vanilla against the series (bench/configs.tsv); report in build/bench/latest/"
	@echo "  make bench QUICK=1 the same, short"
	@echo "  make bench DRY_RUN=1 [HOSTS=FILE]  the run's plan: every boot checked and listed, none booted"
	@echo "  make unit          the harness's own tests, no kernel, no root, in seconds:"
	@echo "                     Python unit tests, shellcheck, the cache model's host"
	@echo "                     test; last line: N passed, N failed[, N skipped]"
	@echo
	@echo "  make tree          build/linux: baseline + one commit per patch"
	@echo "  make export        write build/linux's commits to patches/"
	@echo "  make tree-check    fail if patches/ and build/linux disagree"
	@echo "  make tree-reset    drop build/linux work, re-apply patches/"
	@echo "  make kernel-FLAVOUR  build one of scripts/lib.sh FLAVOURS (vanilla hotcold debug hotcold-bench ...)"
	@echo "  make shell         boot the hotcold kernel to a busybox shell"
	@echo "  make checkpatch    checkpatch.pl --strict on every patch"
	@echo "  make build-series  build the kernel at every step of the series"
	@echo "  make cachesim      build the bench's TCG cache plugin and run its tests"
	@echo "  make vcpu-shares   build QEMU with turns (scripts/qemu.sh) and check that 2, 4"
	@echo "                     and 8 busy vCPUs share fairly and repeat under -icount"
	@echo "  make kunit-py      the series' KUnit suite under the tree's kunit.py"
	@echo "                     (--arch=x86_64, QEMU TCG, one CPU, no SMP)"
	@echo "  make pahole        struct per_cpu_pages in vanilla, single and the series"

test:
	@$(S)/test.sh

unit:
	@$(S)/unit.sh

bench:
	@$(S)/bench.sh

tree:
	@$(S)/deps.sh && $(S)/source.sh && $(S)/tree.sh setup

export:
	@$(S)/tree.sh export

tree-check:
	@$(S)/tree.sh check

# The suite as kunit.py builds and boots it (its own small x86_64 config:
# one CPU, no SMP, no null_blk or THP, whose cases skip with the reason)
kunit-py:
	@test -d build/linux/.git || { echo "hotcold: no build/linux -- run make tree first" >&2; exit 1; }
	@cd build/linux && python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
		--kunitconfig=mm/.kunitconfig --build_dir=$(CURDIR)/build/kunit-x86 \
		--make_options 'CC=ccache gcc' --jobs $$(nproc)

# struct per_cpu_pages per kernel (the kernels must be built)
pahole:
	@$(S)/pahole.sh

tree-reset:
	@$(S)/tree.sh reset

kernels: kernel-vanilla kernel-hotcold

kernel-%:
	@$(S)/build-kernel.sh $*

image:
	@$(S)/initramfs.sh && $(S)/disk.sh

shell: kernel-hotcold image
	@$(S)/modules.sh hotcold
	@$(S)/run-guest.sh --interactive hotcold shell

checkpatch:
	@$(S)/checkpatch.sh

build-series:
	@$(S)/build-series.sh

cachesim: kernel-vanilla image
	@$(S)/deps.sh bench && $(S)/cachesim.sh check

vcpu-shares: kernel-vanilla image
	@$(S)/deps.sh bench && $(S)/vcpu-shares.sh

# clean deletes the saved bench runs (build/bench/*) too: archive a run
# first (bench/report.py archive RUN DEST) to keep it
clean:
	rm -rf build/logs build/bench build/initramfs* build/disk* build/modules-*

distclean:
	rm -rf build
