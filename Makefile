# SPDX-License-Identifier: GPL-2.0-only
# hitmap build.  make [V=1] [SAN=1|TSAN=1] [WERROR=1] [O=builddir] [all|check|bench|fuzz|install]
PREFIX  ?= /usr/local
DESTDIR ?=
O       ?= build
CC      ?= cc
PKG_CONFIG ?= pkg-config

PKGS      := libtraceevent libtracefs libdw libelf libzstd libbpf ncursesw
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

CFLAGS  ?= -O3 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
           -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes \
           -D_GNU_SOURCE -Iinclude -Isrc $(PKG_CFLAGS) -MMD -MP
LDLIBS  += $(PKG_LIBS) -liberty -lstdc++ -lm -lpthread

ifeq ($(WERROR),1)
CFLAGS  += -Werror
endif
# B: the build folder.  SAN=1 builds go to $(O)-san so they never mix.
B := $(O)
ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
B := $(O)-san
endif
# TSAN=1: ThreadSanitizer, in $(O)-tsan (not with SAN=1: the two runtimes
# exclude each other).  `make tsan` builds it from any build (below), and
# `make check` does, for tests/sh/threads-tsan.sh.
ifeq ($(TSAN),1)
ifeq ($(SAN),1)
$(error SAN=1 and TSAN=1 cannot be combined: ASan and TSan are separate runtimes)
endif
# -Wno-tsan (gcc 11 on): the AUX ring's fences with the kernel, which
# ThreadSanitizer does not model (nor does it see the kernel's writes)
CFLAGS  := $(filter-out -O%,$(CFLAGS)) -O1 -fsanitize=thread -fno-omit-frame-pointer \
	   $(shell $(CC) -Werror -Wtsan -E -x c /dev/null >/dev/null 2>&1 && echo -Wno-tsan)
LDFLAGS += -fsanitize=thread
B := $(O)-tsan
endif

# The binary is optimised across files at link time (LTO=0: not).  A
# report's per-sample path crosses the reader, the classifier, the tables
# and the futex model; inlined across them it runs 12% fewer instructions
# (README, Speed).  The objects are fat: the tests, tools and fuzz targets
# link their regular code, without an LTO link each.  Not with SAN=1 or a
# compiler other than gcc.
ifeq ($(origin LTO),undefined)
LTO := $(if $(filter 1,$(SAN) $(TSAN)),0,$(if $(shell $(CC) -v 2>&1 | grep -q '^gcc version' && echo y),1,0))
endif
ifeq ($(LTO),1)
OBJ_CFLAGS := -flto=auto -ffat-lto-objects
BIN_LDFLAGS := -flto=auto $(filter -O% -g%,$(CFLAGS))
endif
# Profile-guided too, where LTO is (PGO=0: not): scripts/pgo-train.sh
# builds an instrumented hitmap in $(B)/pgo, runs it on simulated futex
# workloads (report, --by bucket, threads, stat) and leaves each object's
# profile beside it; the objects are then compiled with it.  Another 8%
# fewer instructions a sample (20% in all), and faster (README, Speed).  Every source
# or header change trains again, so while editing, PGO=0 builds quicker.
# Not with WERROR=1: gcc notes calls into code the training never ran as
# warnings no -W option turns off (scripts/cc-profile.sh hides them).
ifeq ($(origin PGO),undefined)
PGO := $(if $(filter 1,$(WERROR)),0,$(LTO))
endif
ifeq ($(PGO_GEN),1)
# the instrumented build (scripts/pgo-train.sh's sub-make)
OBJ_CFLAGS := -fprofile-generate -fprofile-update=atomic
BIN_LDFLAGS := -fprofile-generate
else ifeq ($(PGO),1)
OBJ_CFLAGS += -fprofile-use -fprofile-partial-training -fprofile-correction -Wno-missing-profile -Wno-coverage-mismatch
CC_WRAP := scripts/cc-profile.sh
endif

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2);
endif

# Library: every src/*/*.c except the CLI.  CLI: src/cli/*.c.
LIB_SRCS := $(filter-out src/cli/%,$(wildcard src/*/*.c))
CLI_SRCS := $(wildcard src/cli/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(B)/%.o)
LIB      := $(B)/libhitmap.a
BIN      := $(B)/hitmap

UNIT_SRCS := $(wildcard tests/unit/test-*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
TOOL_SRCS := $(filter-out tests/tools/gen-common.c,$(wildcard tests/tools/*.c))
TOOL_BINS := $(TOOL_SRCS:tests/tools/%.c=$(B)/tools/%)
# the perf.data generators that share tests/tools/gen-common.c
GEN_TOOLS := $(B)/tools/hm-cont-gen $(B)/tools/hm-futex-gen $(B)/tools/hm-diff-gen $(B)/tools/hm-kern-gen \
	     $(B)/tools/hm-pltgen $(B)/tools/hm-symmaps-gen
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz-*.c)

.PHONY: all check run bench fuzz install clean setup tests tsan check-debian13
# BPF objects beside the binary (hitmap hash --verify/--probe, record
# --futex-bpf look there), when clang is installed.
BPF_CLANG := $(shell command -v clang 2>/dev/null)
BPF_OBJS  := $(if $(BPF_CLANG),$(B)/verify.bpf.o $(B)/record-pair.bpf.o)
BPF_FLAGS := -O2 -g -target bpf -I/usr/include/$(shell uname -m)-linux-gnu

all: $(BIN) $(BPF_OBJS)

$(B)/verify.bpf.o: src/futex/verify.bpf.c
	$(call msg,BPF,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)clang $(BPF_FLAGS) -c -o $@ $<

$(B)/record-pair.bpf.o: src/record/pair.bpf.c
	$(call msg,BPF,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)clang $(BPF_FLAGS) -c -o $@ $<

$(B)/%.o: %.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC_WRAP) $(CC) $(CFLAGS) $(OBJ_CFLAGS) -c -o $@ $<

ifeq ($(PGO)$(PGO_GEN),1)
$(LIB_OBJS) $(CLI_OBJS): $(B)/pgo/stamp
$(B)/pgo/stamp: $(LIB_SRCS) $(CLI_SRCS) $(wildcard src/*/*.h include/hitmap/*.h) scripts/pgo-train.sh
	$(call msg,PGO,$(B)/pgo)
	$(Q)scripts/pgo-train.sh "$(MAKE)" $(B)
endif

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC_WRAP) $(CC) $(LDFLAGS) $(BIN_LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LDLIBS)

$(B)/tests/%: tests/unit/%.c tests/unit/tap.h $(LIB)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(B)/tools/%: tests/tools/%.c $(LIB)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(B)/tools/gen-common.o: tests/tools/gen-common.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(GEN_TOOLS): $(B)/tools/%: tests/tools/%.c $(B)/tools/gen-common.o $(LIB)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/tools/gen-common.o $(LIB) $(LDLIBS)

tests: $(BIN) $(BPF_OBJS) $(UNIT_BINS) $(TOOL_BINS)

# The one test command.  It first installs what it needs (as root), then
# builds in a sub-make (so pkg-config sees freshly installed libraries) and
# runs every test (and builds $(O)-tsan/hitmap for the race detector's
# test first).  `make SAN=1 check`: the same built with ASan+UBSan in
# build-san/; a sanitizer report fails the test that caused it and is kept in
# build-san/san-reports/TEST/, and each test may run 2700 s instead of 900
# (tests/run.sh; HITMAP_TEST_TIMEOUT=SECONDS sets it).
check:
	$(Q)scripts/setup.sh
	$(Q)$(MAKE) --no-print-directory -j$$(nproc) tests
	$(Q)$(MAKE) --no-print-directory -j$$(nproc) tsan
	$(Q)HITMAP_BUILD=$(B) tests/run.sh

# The ThreadSanitizer hitmap and the unit tests that start threads, in
# $(O)-tsan (make tsan; from any other build, a sub-make with TSAN=1).
TSAN_UNITS := $(addprefix $(B)/tests/,test-util-prefault test-util-rotate test-reader-synth test-futex-hash)
ifeq ($(TSAN),1)
tsan: $(BIN) $(TSAN_UNITS)
else
tsan:
	$(Q)$(MAKE) --no-print-directory SAN= TSAN=1 tsan
endif

# The main job: set up, build, record the futex workload with the best mode
# this machine has, and print the per-bucket, per-socket report.
run:
	$(Q)scripts/setup.sh
	$(Q)$(MAKE) --no-print-directory -j$$(nproc) all
	$(Q)HITMAP_BUILD=$(B) scripts/main-job.sh

setup:
	$(Q)scripts/setup.sh

# Debian 13 too (not part of check: a chroot build and a second test run):
# gcc 14, libbpf 1.5, libtraceevent 1.8, WERROR=1, perf 7.3 as the oracle.
check-debian13:
	$(Q)scripts/check-debian13.sh $(FILTER)

bench: $(BIN) $(TOOL_BINS)
	$(Q)HITMAP_BUILD=$(B) tests/bench/run.sh

# libFuzzer targets, bounded: FUZZ_SECONDS per target (120 s: some thousands
# of inputs each under load, tens of thousands on a quiet box; FUZZ=spe: only the
# targets whose name has that substring).  Each target starts from its own
# seed folder, $(B)/fuzz/seeds/<target>, made by tests/fuzz/make-seeds.sh
# from the recordings the tests make (the simulator in every form, the test
# generators; cut into SPE packets, map records and metadata for the targets
# that read those; small ELF files of every PLT shape, built with cc, for the
# ELF symbol reader's) and, for the reader and the report (which reads whole
# files too, so starts from the reader's seeds), the committed
# tests/fuzz/seeds and the corrupt fixtures when ../shared/fixtures/corrupt
# is there (read in place, never copied).
FUZZ_SECONDS ?= 120
FUZZ ?=
FUZZ_FIXTURES := $(wildcard ../shared/fixtures/corrupt)
# The library is compiled once for all targets, with clang's fuzzer and
# sanitizer instrumentation (in parallel under make -j).  A target that
# crashes does not stop the others; make fuzz fails at the end, naming it.
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined -D_GNU_SOURCE -Iinclude -Isrc \
	       $(PKG_CFLAGS) -MMD -MP
FUZZ_OBJS := $(LIB_SRCS:%.c=$(B)/fuzz/obj/%.o)
$(B)/fuzz/obj/%.o: %.c
	$(call msg,FUZZCC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)clang $(FUZZ_CFLAGS) -c -o $@ $<

fuzz: $(BIN) $(TOOL_BINS) $(FUZZ_OBJS)
	$(Q)mkdir -p $(B)/fuzz
	$(Q)tests/fuzz/make-seeds.sh $(B) $(B)/fuzz/seeds
	$(Q)bad=; for f in $(FUZZ_SRCS); do \
	  n=$$(basename $$f .c); t=$${n#fuzz-}; \
	  case $$n in *"$(FUZZ)"*) ;; *) continue;; esac; \
	  [ $$t = report ] && t=reader; \
	  extra=; [ $$t = reader ] && extra="tests/fuzz/seeds $(FUZZ_FIXTURES)"; \
	  clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $(B)/fuzz/$$n $$f $(FUZZ_OBJS) $(LDLIBS) || exit 1; \
	  mkdir -p $(B)/fuzz/$$n.corpus; \
	  $(B)/fuzz/$$n -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=20 -max_len=262144 \
	    -artifact_prefix=$(B)/fuzz/$$n- -print_final_stats=1 \
	    $(B)/fuzz/$$n.corpus $(B)/fuzz/seeds/$$t $$extra \
	    >$(B)/fuzz/$$n.log 2>&1; rc=$$?; tail -n 3 $(B)/fuzz/$$n.log; \
	  echo "$$n: exit $$rc; $$(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' $(B)/fuzz/$$n.log | sed 's/.*: /runs: /'); seeds: $$(grep -m1 -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' $(B)/fuzz/$$n.log); corpus now $$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' $(B)/fuzz/$$n.log | tail -n 1), $$(ls $(B)/fuzz/$$n.corpus | wc -l) new files kept"; \
	  [ $$rc -eq 0 ] || bad="$$bad $$n"; \
	done; \
	if [ -n "$$bad" ]; then echo "fuzz: crashes in$$bad (inputs: $(B)/fuzz/*-crash-*, logs: $(B)/fuzz/*.log)"; exit 1; fi

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/hitmap
	$(if $(BPF_OBJS),install -m 644 $(BPF_OBJS) $(DESTDIR)$(PREFIX)/bin/)
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf build build-san build-tsan $(O) $(B) $(O)-san $(O)-tsan

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(wildcard $(B)/tools/*.d $(B)/fuzz/obj/src/*/*.d)
