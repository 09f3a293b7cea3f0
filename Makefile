# SPDX-License-Identifier: MIT
# mbsuite build. `make` builds ./mbsuite; `make run` runs the default configuration;
# `make check` runs the tests; `make bench` prints speed and accuracy figures.
# Each of them first makes sure the Debian packages are there (scripts/deps.sh).

VERSION    := 0.1.0
# Which MPI: Debian's default (Open MPI) unless told. MPI=mpich builds against Debian's
# MPICH in its own tree and executable, so both builds can stand side by side; MPICC and
# MPIRUN name any other MPI's compiler wrapper and launcher (README, "Another MPI").
MPI        := openmpi
MPICC      := mpicc
MPIRUN     := mpirun
ifeq ($(MPI),mpich)
MPICC      := mpicc.mpich
MPIRUN     := mpiexec.mpich
endif
CC         := $(MPICC)
PKGS       := hwloc gsl jansson inih zlib
TEST_PKGS  := cmocka
BUILD      := build
OPT        ?= -O2
SANITIZE   ?=
NP         ?= 2
EXE        ?= mbsuite
ifeq ($(MPI),mpich)
BUILD      := build-mpich
EXE        := mbsuite-mpich
endif
HELLO      := $(dir $(EXE))mbsuite-hello
LAT_PROC   := $(dir $(EXE))mbsuite-lat-proc

# pkg-config runs when a recipe needs the flags, i.e. after deps.sh has installed them.
PKG_CFLAGS  = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS    = $(shell pkg-config --libs $(PKGS)) -lm
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS))
TEST_LIBS   = $(shell pkg-config --libs $(TEST_PKGS))

# Messages are cut to their buffers on purpose: truncation warnings would be noise.
WARN       := -Wall -Wextra -Werror -Wno-format-truncation
# MPICH's MPI_STATUSES_IGNORE is the address 1, which GCC 12 takes for an array of size 0
# passed to MPI_Waitall's MPI_Status[] parameter: a false stringop-overflow error.
ifeq ($(MPI),mpich)
WARN       += -Wno-stringop-overflow
endif
# OpenMP for the thread benchmarks (fork/join, barriers); pthreads for the rest.
# Every loop starts on a 64-byte boundary, mbsuite's and the references' alike, so that a
# timed loop's rate does not move with the code around it. On an AMD Zen 4 (2026-11-27) a
# short loop across such a boundary ran at half its rate: shm.bandwidth's copy_loop in cache
# 17.75 us a pass unaligned against 8.97 us aligned, and bench/ref_lmbench's mmap reread
# 30-58 GB/s against mbsuite's 90 with the same instructions (os/README.md).
CFLAGS     := -std=c11 -g $(OPT) -falign-loops=64 $(WARN) $(SANITIZE) -fopenmp -pthread
# Every folder of src/ holds headers; tests/lib holds the test-only helpers.
SRC_DIRS   := $(sort $(dir $(wildcard src/*/*.h)))
CPPFLAGS   := -D_GNU_SOURCE $(addprefix -I,$(SRC_DIRS)) -I$(BUILD)
LDFLAGS    := $(SANITIZE) -fopenmp -pthread
# os/ headers are used by its unit tests too.
CPPFLAGS   += -Ios/

# The launcher's own options (Open MPI's --oversubscribe, --bind-to none, running as root)
# are scripts/launch.sh's business; the tests and make bench start ranks through it too.
export MB_MPIRUN := $(MPIRUN)
LAUNCH     := scripts/launch.sh
# The tests and make bench run this tree's build (./ for an executable named bare).
RUN_ENV    = MB_BUILD=$(BUILD) MB_EXE=$(if $(findstring /,$(EXE)),$(EXE),./$(EXE))

LIB_SRC    := $(filter-out src/run/main.c,$(wildcard src/*/*.c mpi/*.c shm/*.c os/*.c))
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ   := $(BUILD)/src/run/main.o
LIB        := $(BUILD)/libmbsuite.a
TEST_SRC   := $(wildcard tests/test_*.c)
TEST_BIN   := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TOOL_BIN   := $(BUILD)/tests/check_results $(BUILD)/tests/results_get $(BUILD)/tests/mhz_reference \
              $(BUILD)/tests/check_mpi_sweep $(BUILD)/tests/refit $(BUILD)/tests/slow_disk.so
# MPICH polls without pause: the tests preload this where ranks share cores (ucx_idle.c).
ifeq ($(MPI),mpich)
TOOL_BIN   += $(BUILD)/tests/ucx_idle.so
endif
# The fuzz harnesses (tests/fuzz/fuzz_NAME.c): replay_NAME runs their corpus in make check.
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
REPLAY_BIN := $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz/replay_%)
EXAMPLE_SRC:= $(wildcard examples/*.c)
EXAMPLE_BIN:= $(EXAMPLE_SRC:examples/%.c=$(BUILD)/examples/%)

.PHONY: all deps exe run check test-programs bench asan clean format fuzz fuzz-programs
.DEFAULT_GOAL := all

all: deps
	@$(MAKE) --no-print-directory exe

deps:
	@scripts/deps.sh

exe: $(EXE) $(HELLO) $(LAT_PROC)

# os.exec and os.shell start this tiny program, found next to the executable (os/README.md);
# static as lmbench's hello, so that exec costs no dynamic loading (dynamic if no libc.a).
$(HELLO): os/hello/hello.c
	cc -static -O2 $(WARN) -o $@ $< 2>/dev/null || cc -O2 $(WARN) -o $@ $<

# os.fork, os.exec and os.shell fork from this small process, not from mbsuite with its
# libraries mapped (os/lat_proc/lat_proc.c); dynamically linked against libc alone, as
# lmbench's lat_proc is, and like the other helpers found next to the executable.
$(LAT_PROC): os/lat_proc/lat_proc.c os/lat_proc/lat_proc.h
	cc -O2 $(WARN) -o $@ $<

$(EXE): $(MAIN_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The compiler and flags are recorded in every results.json.
$(BUILD)/buildinfo.h: Makefile | $(BUILD)
	@printf '#define MB_VERSION "%s"\n#define MB_CFLAGS "%s"\n' '$(VERSION)' '$(CFLAGS)' > $@.tmp
	@mv $@.tmp $@

$(BUILD):
	@mkdir -p $@

$(BUILD)/%.o: %.c $(BUILD)/buildinfo.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# lmbench 2.0 examples: the seed's code, unused main() arguments and all.
$(BUILD)/examples/%: examples/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -Wno-unused-parameter -o $@ $< $(LIB) $(PKG_LIBS)

# Test-only code (tests/lib/) is linked into the test programs, never into mbsuite.
TESTLIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/lib/*.c))

$(BUILD)/tests/%: tests/%.c $(TESTLIB_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/lib $(PKG_CFLAGS) $(TEST_CFLAGS) $(CFLAGS) -o $@ $< $(TESTLIB_OBJ) $(LIB) $(PKG_LIBS) $(TEST_LIBS)

# The tests' preloaded shims (ucx_idle.c, slow_disk.c). Plain gcc, not the MPI wrapper:
# preloaded into every process a test starts, a shim must not bring an MPI library with it.
$(BUILD)/tests/%.so: tests/%.c
	@mkdir -p $(@D)
	gcc -std=c11 -O2 $(WARN) -shared -fPIC -o $@ $< -ldl

# A fuzz harness fed its corpus by tests/fuzz/replay.c instead of libFuzzer (any compiler).
$(BUILD)/tests/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -o $@ $< tests/fuzz/replay.c $(LIB) $(PKG_LIBS)

# make bench's reference programs (issue 15): the peers' methods outside mbsuite, nothing
# of it linked in: OSU's latency and bandwidth loops, STREAM, lmbench's lat_mem_rd and
# bw_mem, and lmbench 3's OS and local-communication programs (ref_lmbench, issue 14). Built with the tests, so that CI compiles them too.
# ref_stream_serial: STREAM built without OpenMP's runtime (its pragmas as simd only), as
# STREAM is for a one-core figure: under libgomp with one thread its triad read 23-28 GB/s
# where its add read 33, and the serial build's triad read as its add.
REF_BIN    := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/ref_*.c)) \
              $(BUILD)/bench/ref_stream_serial

test-programs: $(EXE) $(HELLO) $(LAT_PROC) $(TEST_BIN) $(TOOL_BIN) $(EXAMPLE_BIN) $(REPLAY_BIN) $(REF_BIN)

run: deps
	@$(MAKE) --no-print-directory exe
	$(LAUNCH) -np $(NP) $(if $(findstring /,$(EXE)),$(EXE),./$(EXE)) --config config/default.ini

check: deps
	@scripts/deps.sh check
	@$(MAKE) --no-print-directory test-programs
	@$(RUN_ENV) tests/run.sh

bench: deps
	@scripts/deps.sh bench
	@$(MAKE) --no-print-directory test-programs
	@$(RUN_ENV) scripts/bench.sh

$(BUILD)/bench/ref_%: bench/ref_%.c bench/ref_bind.h
	@mkdir -p $(@D)
	$(CC) -D_GNU_SOURCE $(CFLAGS) -o $@ $<

$(BUILD)/bench/ref_stream_serial: bench/ref_stream.c
	@mkdir -p $(@D)
	$(CC) -D_GNU_SOURCE $(filter-out -fopenmp,$(CFLAGS)) -fopenmp-simd -o $@ $<

# The same tests under AddressSanitizer and UBSan, in a separate build tree.
asan: deps
	@scripts/deps.sh check
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-asan EXE=$(BUILD)-asan/mbsuite OPT=-O1 \
	    SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    test-programs
	@MB_BUILD=$(BUILD)-asan MB_EXE=$(BUILD)-asan/mbsuite tests/run.sh

# libFuzzer harnesses (tests/fuzz/README.md): clang through the MPI wrapper, ASan and UBSan,
# in their own build tree; each runs until FUZZ_RUNS executions (issue 17's 10^6; 0: no
# count) or FUZZ_SECONDS, whichever comes first, and prints its execution count. CI:
# FUZZ_SECONDS=60 FUZZ_RUNS=0.
FUZZ_RUNS    ?= 1000000
FUZZ_SECONDS ?= 1800
FUZZ_BUILD   := build-fuzz
# clang warns of GCC's optimize attribute (shm/), of GCC-only warning options, and that at
# -O1 it leaves an `omp simd` loop (os/daxpy.c) scalar.
FUZZ_WARN    := $(WARN) -Wno-unknown-warning-option -Wno-unknown-attributes -Wno-pass-failed

fuzz: deps
	@scripts/deps.sh fuzz
	@OMPI_CC=clang MPICH_CC=clang $(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) \
	    EXE=$(FUZZ_BUILD)/mbsuite OPT="-O1" WARN="$(FUZZ_WARN)" \
	    SANITIZE="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    fuzz-programs
	@MB_FUZZ_BUILD=$(FUZZ_BUILD) tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_RUNS) $(FUZZ_NAMES)

fuzz-programs: $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB) $(PKG_LIBS)

format:
	clang-format -i $(wildcard src/*/*.[ch] mpi/*.[ch] shm/*.[ch] tests/*.c tests/lib/*.[ch])

clean:
	rm -rf build build-asan build-fuzz mbsuite mbsuite-hello mbsuite-lat-proc build-mpich build-mpich-asan mbsuite-mpich

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TESTLIB_OBJ:.o=.d)
