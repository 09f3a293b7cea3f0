# SPDX-License-Identifier: MIT
# mbsuite build. `make` builds ./mbsuite; `make run` runs the default configuration;
# `make check` runs the tests; `make bench` prints speed and accuracy figures.
# Each of them first makes sure the Debian packages are there (scripts/deps.sh).

VERSION    := 0.1.0
CC         := mpicc
PKGS       := hwloc gsl jansson inih
TEST_PKGS  := cmocka
BUILD      := build
OPT        ?= -O2
SANITIZE   ?=
NP         ?= 2
EXE        ?= mbsuite
HELLO      := $(dir $(EXE))mbsuite-hello

# pkg-config runs when a recipe needs the flags, i.e. after deps.sh has installed them.
PKG_CFLAGS  = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS    = $(shell pkg-config --libs $(PKGS)) -lm
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS))
TEST_LIBS   = $(shell pkg-config --libs $(TEST_PKGS))

# Messages are cut to their buffers on purpose: truncation warnings would be noise.
WARN       := -Wall -Wextra -Werror -Wno-format-truncation
# OpenMP for the thread benchmarks (fork/join, barriers); pthreads for the rest.
CFLAGS     := -std=c11 -g $(OPT) $(WARN) $(SANITIZE) -fopenmp -pthread
# Every folder of src/ holds headers; tests/lib holds the test-only helpers.
SRC_DIRS   := $(sort $(dir $(wildcard src/*/*.h)))
CPPFLAGS   := -D_GNU_SOURCE $(addprefix -I,$(SRC_DIRS)) -I$(BUILD)
LDFLAGS    := $(SANITIZE) -fopenmp -pthread
# os/ headers are used by its unit tests too.
CPPFLAGS   += -Ios/

# Open MPI's mpirun refuses root and more ranks than cores unless told; users need neither.
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
# mbsuite binds each rank to a core itself; a launcher binding to one core also makes
# libgomp give up spinning at start-up, which inflates OpenMP fork/join and barrier times.
MPIRUN     := mpirun --oversubscribe --bind-to none

LIB_SRC    := $(filter-out src/run/main.c,$(wildcard src/*/*.c mpi/*.c shm/*.c os/*.c))
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ   := $(BUILD)/src/run/main.o
LIB        := $(BUILD)/libmbsuite.a
TEST_SRC   := $(wildcard tests/test_*.c)
TEST_BIN   := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TOOL_BIN   := $(BUILD)/tests/check_results $(BUILD)/tests/results_get $(BUILD)/tests/mhz_reference \
              $(BUILD)/tests/check_mpi_sweep
EXAMPLE_SRC:= $(wildcard examples/*.c)
EXAMPLE_BIN:= $(EXAMPLE_SRC:examples/%.c=$(BUILD)/examples/%)

.PHONY: all deps exe run check test-programs bench asan clean format
.DEFAULT_GOAL := all

all: deps
	@$(MAKE) --no-print-directory exe

deps:
	@scripts/deps.sh

exe: $(EXE) $(HELLO)

# os.exec and os.shell start this tiny program, found next to the executable (os/README.md);
# static as lmbench's hello, so that exec costs no dynamic loading (dynamic if no libc.a).
$(HELLO): os/hello/hello.c
	cc -static -O2 $(WARN) -o $@ $< 2>/dev/null || cc -O2 $(WARN) -o $@ $<

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

test-programs: $(EXE) $(HELLO) $(TEST_BIN) $(TOOL_BIN) $(EXAMPLE_BIN)

run: deps
	@$(MAKE) --no-print-directory exe
	$(MPIRUN) -np $(NP) ./mbsuite --config config/default.ini

check: deps
	@$(MAKE) --no-print-directory test-programs
	@tests/run.sh

bench: deps
	@scripts/deps.sh bench
	@$(MAKE) --no-print-directory test-programs
	@scripts/bench.sh

# The same tests under AddressSanitizer and UBSan, in a separate build tree.
asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan EXE=build-asan/mbsuite OPT=-O1 \
	    SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    test-programs
	@MB_BUILD=build-asan MB_EXE=build-asan/mbsuite tests/run.sh

format:
	clang-format -i $(wildcard src/*/*.[ch] mpi/*.[ch] shm/*.[ch] tests/*.c tests/lib/*.[ch])

clean:
	rm -rf build build-asan mbsuite mbsuite-hello

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TESTLIB_OBJ:.o=.d)
