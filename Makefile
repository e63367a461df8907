# scalegate: one non-recursive Makefile for the tracer, the gate, the examples and the tests.
# make [V=1] [SANITIZE=address|thread|undefined] [all|test|test-fast|bench|install PREFIX=…|clean]

VERSION := 0.1.0
PREFIX ?= /usr/local
CC ?= cc
MPICC ?= mpicc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g

# -Werror only when the project's own CI asks for it (.ci/run sets SG_WERROR=1): CI=true is set by
# every CI service, and a user's compiler may warn where ours does not.
ifeq ($(SG_WERROR),1)
WERROR := -Werror
endif

B := build/$(if $(SANITIZE),$(SANITIZE),default)
ifneq ($(SANITIZE),)
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
endif

ALL_CFLAGS = -std=c11 -Wall -Wextra $(WERROR) $(CFLAGS) $(SAN_FLAGS) -MMD -MP -D_GNU_SOURCE
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS)

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Recursive (=) so that pkg-config runs only when a gate file is compiled:
# 'make test' installs the packages first.
GATE_CFLAGS = $(shell $(PKG_CONFIG) --cflags yaml-0.1 libcurl sqlite3 libpq)
GATE_LIBS = $(shell $(PKG_CONFIG) --libs yaml-0.1 libcurl sqlite3 libpq) -lm -pthread
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka)

# ---- format: what the tracer and the gate share ---------------------------
# format/ (docs/design.md, "format/") holds the profile's column tables and the per-rank lost-time
# formulas; both sides include it as "format/...", and its .c files are compiled into both.
FORMAT_SRC := $(wildcard format/*.c)
FORMAT_CFLAGS := -I.

# ---- tracer ---------------------------------------------------------------
TRACER_SRC := $(filter-out tracer/mpi%.c,$(wildcard tracer/*.c))
TRACER_OBJ := $(TRACER_SRC:%.c=$(B)/pic/%.o) $(FORMAT_SRC:%.c=$(B)/pic/%.o)
TRACER_CFLAGS = $(ALL_CFLAGS) -fPIC -fvisibility=hidden -fno-semantic-interposition -pthread -Itracer \
	$(FORMAT_CFLAGS)
TRACER_LIBS := -pthread -ldl -lm

# The Fortran module (use scalegate) is compiled into the tracer libraries when gfortran is
# installed: it calls only the C API, so C programs linking them need no Fortran runtime.
ifeq ($(origin FC),default)
FC := gfortran
endif
HAVE_FC := $(shell $(FC) --version >/dev/null 2>&1 && echo yes)
FORTRAN_FLAGS = -O2 -g -Wall -Wextra $(FFLAGS) $(SAN_FLAGS)
ifeq ($(HAVE_FC),yes)
F_MOD := $(B)/mod/scalegate.mod
TRACER_OBJ += $(B)/pic/tracer/scalegate-f90.o
endif

$(B)/pic/tracer/scalegate-f90.o: tracer/scalegate.f90
	@mkdir -p $(@D) $(B)/mod
	@$(if $(Q),echo "  FC      $@")
	$(Q)$(FC) $(FORTRAN_FLAGS) -fPIC -J $(B)/mod -c $< -o $@

$(B)/mod/scalegate.mod: $(B)/pic/tracer/scalegate-f90.o
	@test -f $@ && touch $@

$(B)/pic/tracer/%.o: tracer/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(TRACER_CFLAGS) -c $< -o $@

$(B)/pic/format/%.o: format/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(TRACER_CFLAGS) -c $< -o $@

$(B)/lib/libscalegate.a: $(TRACER_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/lib/libscalegate.so: $(TRACER_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libscalegate.so $(ALL_LDFLAGS) $^ -o $@ $(TRACER_LIBS)

TRACER_LIBS_OUT := $(B)/lib/libscalegate.a $(B)/lib/libscalegate.so

# ---- gate -----------------------------------------------------------------
# One folder per stage of the data flow (docs/design.md, "The stage folders and their arrows"); includes spelled by folder.
GATE_ALL := $(wildcard gate/*/*.c)
GATE_CMD := $(wildcard gate/cmd/*.c)
GATE_LIB_SRC := $(filter-out $(GATE_CMD),$(GATE_ALL))
GATE_LIB_OBJ := $(GATE_LIB_SRC:%.c=$(B)/%.o) $(FORMAT_SRC:%.c=$(B)/%.o) $(B)/gen/rules-default.o
GATE_CMD_OBJ := $(GATE_CMD:%.c=$(B)/%.o)
# The CLI exports nothing (tests/cli/symbols.sh): a name of ours in its dynamic symbol table would
# replace a library's own for every library in the process (libpq -> MIT Kerberos called the gate's
# profile_init, and glibc's error(3) was the gate's).
GATE_VISIBILITY := -fvisibility=hidden

$(B)/gate/%.o: gate/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(GATE_VISIBILITY) $(GATE_CFLAGS) -Igate $(FORMAT_CFLAGS) -DSG_VERSION='"$(VERSION)"' -c $< -o $@

$(B)/format/%.o: format/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(GATE_VISIBILITY) $(FORMAT_CFLAGS) -c $< -o $@

# The shipped default rules are rules/default.yml itself, built in as a string (rules/rules-load.c).
define gen_rules_default
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo '/* Generated from rules/default.yml by the Makefile. */'; \
	  echo '#include <stddef.h>'; echo 'extern const char rules_default_yml[];'; \
	  echo 'extern const size_t rules_default_yml_len;'; echo 'const char rules_default_yml[] ='; \
	  sed 's/\\/\\\\/g; s/"/\\"/g; s/^/\t"/; s/$$/\\n"/' $<; echo ';'; \
	  echo 'const size_t rules_default_yml_len = sizeof(rules_default_yml) - 1;'; } >$@.tmp && mv $@.tmp $@
endef

$(B)/gen/rules-default.c: rules/default.yml
	$(gen_rules_default)

$(B)/gen/rules-default.o: $(B)/gen/rules-default.c
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(GATE_VISIBILITY) -c $< -o $@

$(B)/libgate.a: $(GATE_LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/bin/scalegate: $(GATE_CMD_OBJ) $(B)/libgate.a
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) $^ -o $@ $(GATE_LIBS)

# ---- programs linked with the tracer: tests, benchmarks, examples ---------
TRACED_SRC := $(wildcard tests/tracer/*.c) $(filter-out tests/bench/mpi%.c,$(wildcard tests/bench/*.c)) $(filter-out examples/mpi%.c examples/hybrid%.c,$(wildcard examples/*.c))
TRACED_BIN := $(TRACED_SRC:%.c=$(B)/%)

# Compiled-out macros are tested in a build of their own.
$(B)/tests/tracer/disabled: EXTRA_CFLAGS := -DSCALEGATE_DISABLE

$(B)/tests/%: tests/%.c $(B)/lib/libscalegate.a tracer/scalegate.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(EXTRA_CFLAGS) -fopenmp -Itracer $< -o $@ $(ALL_LDFLAGS) $(B)/lib/libscalegate.a $(TRACER_LIBS)

$(B)/examples/%: examples/%.c $(B)/lib/libscalegate.a tracer/scalegate.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -fopenmp -Itracer $< -o $@ $(ALL_LDFLAGS) $(B)/lib/libscalegate.a $(TRACER_LIBS)

# Fortran programs with 'use scalegate': the example and the benchmark (when gfortran is installed).
F_PROG_SRC := $(if $(HAVE_FC),$(wildcard examples/*.F90 tests/bench/*.F90))
F_PROG_BIN := $(F_PROG_SRC:%.F90=$(B)/%)

$(F_PROG_BIN): $(B)/%: %.F90 $(B)/lib/libscalegate.a $(F_MOD)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FC      $@")
	$(Q)$(FC) $(FORTRAN_FLAGS) -fopenmp -I$(B)/mod $< -o $@ $(ALL_LDFLAGS) $(B)/lib/libscalegate.a $(TRACER_LIBS)

# ---- MPI capture (PMPI): libscalegate-mpi = the tracer + tracer/mpi*.c --------
# Built with $(MPICC) when it is installed (else skipped: non-MPI users never
# need MPI). An MPI program links only -lscalegate-mpi (tracer/MPI.md).
MPIFC ?= mpif90
HAVE_MPI := $(if $(shell command -v $(MPICC) 2>/dev/null),yes)
HAVE_MPIFC := $(if $(HAVE_MPI),$(shell $(MPIFC) --version >/dev/null 2>&1 && echo yes))
# The MPI Fortran library (Open MPI: -lmpi_mpifh, MPICH: -lmpifort): the Fortran
# wrappers call its pmpi_* entry points. Without it there is no Fortran capture.
MPI_FORTRAN_LINK := $(if $(HAVE_MPI),$(shell $(MPIFC) --showme:link 2>/dev/null || $(MPIFC) -link_info 2>/dev/null))
MPI_FORTRAN_LIB := $(firstword $(filter -lmpi_mpifh -lmpifort,$(MPI_FORTRAN_LINK)))
ifneq ($(MPI_FORTRAN_LIB),)
MPI_SRC := $(wildcard tracer/mpi*.c)
MPI_FORTRAN_LIBS := $(filter -L%,$(MPI_FORTRAN_LINK)) -Wl,--push-state,--no-as-needed $(MPI_FORTRAN_LIB) -Wl,--pop-state
else
MPI_SRC := $(filter-out tracer/mpi-fortran.c,$(wildcard tracer/mpi*.c))
endif
MPI_OBJ := $(MPI_SRC:%.c=$(B)/pic/%.o)

$(MPI_OBJ): $(B)/pic/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  MPICC   $@")
	$(Q)$(MPICC) $(TRACER_CFLAGS) -c $< -o $@

$(B)/lib/libscalegate-mpi.a: $(TRACER_OBJ) $(MPI_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/lib/libscalegate-mpi.so: $(TRACER_OBJ) $(MPI_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(MPICC) -shared -Wl,-soname,libscalegate-mpi.so $(ALL_LDFLAGS) $^ -o $@ $(MPI_FORTRAN_LIBS) $(TRACER_LIBS)

# MPI examples and test programs, linked with the static library.
MPI_PROG_SRC := $(wildcard examples/mpi*.c examples/hybrid*.c tests/mpi/*.c tests/bench/mpi*.c)
MPI_PROG_BIN := $(MPI_PROG_SRC:%.c=$(B)/%)
# The examples without the tracer (macros compiled out, no library): unmodified
# MPI binaries for the LD_PRELOAD tests.
MPI_PLAIN_BIN := $(patsubst %.c,$(B)/%-plain,$(wildcard examples/mpi*.c examples/hybrid*.c))

$(MPI_PROG_BIN): $(B)/%: %.c $(B)/lib/libscalegate-mpi.a tracer/scalegate.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  MPICC   $@")
	$(Q)$(MPICC) $(ALL_CFLAGS) -fopenmp -Itracer $< -o $@ $(ALL_LDFLAGS) $(B)/lib/libscalegate-mpi.a $(TRACER_LIBS)

$(MPI_PLAIN_BIN): $(B)/%-plain: %.c tracer/scalegate.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  MPICC   $@")
	$(Q)$(MPICC) $(ALL_CFLAGS) -DSCALEGATE_DISABLE -fopenmp -Itracer $< -o $@ $(ALL_LDFLAGS)

# Fortran test programs: linked with the tracer, and plain (for LD_PRELOAD). An
# mpi_f08 program references no symbol of the static library (its calls reach
# the wrappers from inside the MPI library), so it links the shared one.
MPI_F_SRC := $(wildcard tests/mpi/*.f90)
MPI_F_BIN := $(MPI_F_SRC:%.f90=$(B)/%) $(MPI_F_SRC:%.f90=$(B)/%-plain)
MPI_FFLAGS = $(FFLAGS) -O2 -g -Wall $(SAN_FLAGS) -J $(@D)
MPI_F_TRACER = $(B)/lib/libscalegate-mpi.a $(TRACER_LIBS)
$(B)/tests/mpi/fortran08: MPI_F_TRACER = -L$(B)/lib -Wl,-rpath,$(abspath $(B)/lib) \
	-Wl,--push-state,--no-as-needed -lscalegate-mpi -Wl,--pop-state

$(MPI_F_SRC:%.f90=$(B)/%): $(B)/%: %.f90 $(B)/lib/libscalegate-mpi.a $(B)/lib/libscalegate-mpi.so
	@mkdir -p $(@D)
	@$(if $(Q),echo "  MPIFC   $@")
	$(Q)$(MPIFC) $(MPI_FFLAGS) $< -o $@ $(ALL_LDFLAGS) $(MPI_F_TRACER)

$(MPI_F_SRC:%.f90=$(B)/%-plain): $(B)/%-plain: %.f90
	@mkdir -p $(@D)
	@$(if $(Q),echo "  MPIFC   $@")
	$(Q)$(MPIFC) $(MPI_FFLAGS) $< -o $@ $(ALL_LDFLAGS)

ifeq ($(HAVE_MPI),yes)
MPI_ALL := $(B)/lib/libscalegate-mpi.a $(B)/lib/libscalegate-mpi.so $(MPI_PROG_BIN) $(MPI_PLAIN_BIN) \
	$(if $(and $(HAVE_MPIFC),$(MPI_FORTRAN_LIB)),$(MPI_F_BIN))
else
MPI_ALL :=
$(info note: '$(MPICC)' not found: building without MPI capture (libscalegate-mpi, MPI examples))
endif

# ---- OpenMP through OMPT: test programs built with clang for LLVM's libomp ------
# The tracer is built with $(CC) as always; these programs (tests/cli/ompt-*.sh) check its
# OMPT capture in code that calls libomp's __kmpc_* entry points. Each is built four ways:
# static (libscalegate.a), shared (-lscalegate), plain (no tracer, macros compiled out: for
# LD_PRELOAD), and gcc (compiled by GCC, run on libomp: the GOMP_* calls meet OMPT).
# 'make all-tests' needs clang and libomp-dev (ci/install-deps.sh installs them).
CLANG ?= clang
OMPT_SRC := tests/tracer/omp_known.c examples/imbalance.c
OMPT_CFLAGS = -std=c11 -Wall -Wextra $(WERROR) $(CFLAGS) -MMD -MP -D_GNU_SOURCE -fopenmp -Itracer
# A sanitizer build links GCC's sanitizer runtime first (the tracer's objects need it; clang's would clash).
OMPT_SAN_RT = $(if $(SANITIZE),$(shell $(CC) -print-file-name=lib$(patsubst address,asan,$(patsubst thread,tsan,$(patsubst undefined,ubsan,$(SANITIZE)))).so))
OMPT_BIN := $(foreach v,static shared plain,$(patsubst %.c,$(B)/ompt/$(v)/%,$(notdir $(OMPT_SRC)))) $(B)/ompt/gcc/omp_known

define OMPT_RULES
$(B)/ompt/static/$(basename $(notdir $(1))): $(1) $(B)/lib/libscalegate.a tracer/scalegate.h
	@mkdir -p $$(@D)
	@$$(if $$(Q),echo "  CLANG   $$@")
	$$(Q)$$(CLANG) $$(OMPT_CFLAGS) $$(OMPT_SAN_RT) $$< -o $$@ $$(LDFLAGS) $(B)/lib/libscalegate.a $$(TRACER_LIBS)

$(B)/ompt/shared/$(basename $(notdir $(1))): $(1) $(B)/lib/libscalegate.so tracer/scalegate.h
	@mkdir -p $$(@D)
	@$$(if $$(Q),echo "  CLANG   $$@")
	$$(Q)$$(CLANG) $$(OMPT_CFLAGS) $$(OMPT_SAN_RT) $$< -o $$@ $$(LDFLAGS) -L$(B)/lib -Wl,-rpath,$$(abspath $(B)/lib) -lscalegate

$(B)/ompt/plain/$(basename $(notdir $(1))): $(1) tracer/scalegate.h
	@mkdir -p $$(@D)
	@$$(if $$(Q),echo "  CLANG   $$@")
	$$(Q)$$(CLANG) $$(OMPT_CFLAGS) -DSCALEGATE_DISABLE $$< -o $$@ $$(LDFLAGS)
endef
$(foreach s,$(OMPT_SRC),$(eval $(call OMPT_RULES,$(s))))

$(B)/ompt/gcc/omp_known: tests/tracer/omp_known.c $(B)/lib/libscalegate.a tracer/scalegate.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC+LD   $@")
	$(Q)$(CC) $(ALL_CFLAGS) -fopenmp -Itracer -c $< -o $@.o
	$(Q)$(CLANG) -fopenmp $(OMPT_SAN_RT) $@.o -o $@ $(LDFLAGS) $(B)/lib/libscalegate.a $(TRACER_LIBS)

# ompt.c carries a copy of the part of omp-tools.h it uses, for GCC. Check it against clang's
# header: the file compiles with the real declarations, and every copied value is the real one.
$(B)/ompt/abi-checked: tracer/ompt.c tracer/internal.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CHECK   tracer/ompt.c against omp-tools.h")
	$(Q)$(CLANG) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -fsyntax-only -Itracer tracer/ompt.c
	$(Q){ echo '#include <omp-tools.h>'; sed -n 's/^\t\(ompt_[a-z_]*\) = \([0-9a-fx]*\),\{0,1\}$$/_Static_assert(\1 == \2, "\1");/p' tracer/ompt.c; } \
		| $(CLANG) -std=c11 -Werror -fsyntax-only -x c - && touch $@

OMPT_ALL := $(OMPT_BIN) $(B)/ompt/abi-checked

# ---- unit tests (cmocka) --------------------------------------------------
UNIT_SRC := $(wildcard tests/unit/test-*.c)
UNIT_BIN := $(UNIT_SRC:%.c=$(B)/%)

$(B)/tests/unit/%: tests/unit/%.c $(B)/libgate.a
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(GATE_CFLAGS) -Igate $(FORMAT_CFLAGS) $< -o $@ $(ALL_LDFLAGS) $(B)/libgate.a $(GATE_LIBS) $(CMOCKA_LIBS)

# ---- fuzzing (libFuzzer): the config, rules, profile and baseline readers ----------
# tests/fuzz/fuzz-*.c linked with the gate built by clang with -fsanitize=fuzzer-no-link,address,undefined, in
# build/fuzz whatever SANITIZE says. 'make test' runs each harness briefly (tests/cli/fuzz.sh);
# 'make fuzz [FUZZ_SECONDS=600]' runs them longer, keeping the corpus in build/fuzz/corpus-*.
FUZZ_B := build/fuzz
HAVE_CLANG := $(if $(shell command -v $(CLANG) 2>/dev/null),yes)
FUZZ_NAMES := config rules profile baseline
FUZZ_BIN := $(FUZZ_NAMES:%=$(FUZZ_B)/fuzz-%)
FUZZ_OBJ := $(GATE_LIB_SRC:%.c=$(FUZZ_B)/%.o) $(FORMAT_SRC:%.c=$(FUZZ_B)/%.o) $(FUZZ_B)/gen/rules-default.o
FUZZ_CFLAGS = -std=c11 -Wall -Wextra $(WERROR) -g -O1 -MMD -MP -D_GNU_SOURCE -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
# AddressSanitizer and UndefinedBehaviorSanitizer: undefined behaviour stops the fuzzer as a crash.
FUZZ_SAN := address,undefined
FUZZ_SECONDS ?= 600

$(FUZZ_B)/gate/%.o: gate/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) $(GATE_VISIBILITY) $(GATE_CFLAGS) -Igate $(FORMAT_CFLAGS) -DSG_VERSION='"$(VERSION)"' -c $< -o $@

$(FUZZ_B)/format/%.o: format/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) $(GATE_VISIBILITY) $(FORMAT_CFLAGS) -c $< -o $@

$(FUZZ_B)/gen/rules-default.c: rules/default.yml
	$(gen_rules_default)

$(FUZZ_B)/gen/rules-default.o: $(FUZZ_B)/gen/rules-default.c
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) $(GATE_VISIBILITY) -c $< -o $@

$(FUZZ_B)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(FUZZ_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) $(GATE_CFLAGS) -Igate $(FORMAT_CFLAGS) -Itests/fuzz $< $(FUZZ_OBJ) -o $@ $(GATE_LIBS)

FUZZ_ALL := $(if $(HAVE_CLANG),$(FUZZ_BIN))
# Kept: as prerequisites of a pattern rule they are intermediate and would be deleted after the first build,
# and the next 'make all-tests' (make test-busy after make test) would compile them all again.
.SECONDARY: $(FUZZ_OBJ)

fuzz: deps
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BIN)
	$(Q)tests/fuzz/run.sh $(FUZZ_B) $(FUZZ_SECONDS) $(FUZZ_B)

# ---- top-level targets ----------------------------------------------------
.PHONY: all all-tests deps test test-fast test-busy bench install install-mpi clean demo fuzz
.DEFAULT_GOAL := all

all: $(TRACER_LIBS_OUT) $(B)/bin/scalegate $(B)/man/scalegate.1 $(TRACED_BIN) $(F_PROG_BIN) $(MPI_ALL)

# 'make test' is what CI runs: install what is missing, build, run everything: the fast tier (unit tests,
# data-driven cases, static checks; two at a time, under two minutes), then the timing tier (every test that
# judges measured time; alone). 'make test-fast' runs the fast tier only (tests/run.sh, "Two tiers").
test: deps
	$(Q)$(MAKE) --no-print-directory all-tests
	$(Q)SG_SAN_FLAGS="$(SAN_FLAGS)" tests/run.sh $(B)

test-fast: deps
	$(Q)$(MAKE) --no-print-directory all-tests
	$(Q)SG_TIER=fast SG_SAN_FLAGS="$(SAN_FLAGS)" tests/run.sh $(B)

all-tests: all $(UNIT_BIN) $(OMPT_ALL) $(FUZZ_ALL)

# The tests that judge timings, again with two CPU-bound neighbour processes on the machine: a shared
# CI runner is busy, and the gate must give the same answers there (.ci/run runs this after 'test').
# cli/gate-defaults-* take minutes even on a quiet machine: 'make test-busy BUSY_TESTS=cli/gate-defaults'.
BUSY_TESTS ?= cli/lang-caliper cli/run-contention cli/check-e2e cli/ab-git cli/adaptive \
	cli/tracer-sched cli/tracer-inject cli/analyze-interference cli/run-progress cli/check-reference
test-busy: deps
	$(Q)$(MAKE) --no-print-directory all-tests
	$(Q)SG_HOGS=2 tests/run.sh $(B) $(BUSY_TESTS)

deps:
	$(Q)ci/install-deps.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory all CFLAGS="$(CFLAGS)"
	$(Q)tests/bench/run.sh $(B)

# The main job on the bundled examples: the gate the project runs on itself (scalegate.yml, rules/ci.yml,
# baselines/). Open MPI refuses root unless told; CI machines and containers often are root.
demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 build/default/bin/scalegate ci -c scalegate.yml

# The man page is the CLI's --help texts (docs/man.sh), generated at build time so they cannot drift.
$(B)/man/scalegate.1: $(B)/bin/scalegate docs/man.sh
	@mkdir -p $(@D)
	@$(if $(Q),echo "  MAN     $@")
	$(Q)docs/man.sh $(B)/bin/scalegate > $@.tmp && mv $@.tmp $@

# 'make install' builds what it installs and nothing else (no tests, no examples).
# Docs keep their folders, so the README's links work in share/doc/scalegate.
DOC_DIR = $(DESTDIR)$(PREFIX)/share/doc/scalegate
SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	-e 's|@VERSION_MAJOR@|$(word 1,$(subst ., ,$(VERSION)))|g' -e 's|@VERSION_MINOR@|$(word 2,$(subst ., ,$(VERSION)))|g' \
	-e 's|@SIZEOF_VOID_P@|$(shell echo __SIZEOF_POINTER__ | $(CC) -E -P - | tr -d " ")|g' \
	-e 's|@FC_VERSION@|$(if $(HAVE_FC),$(shell $(FC) -dumpversion))|g'

install: $(TRACER_LIBS_OUT) $(B)/bin/scalegate $(F_MOD) $(B)/man/scalegate.1
	install -d $(DESTDIR)$(PREFIX)/include/scalegate-caliper/caliper $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/lib/cmake/scalegate $(DESTDIR)$(PREFIX)/bin \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DOC_DIR)/docs $(DOC_DIR)/tracer
	install -m 644 tracer/scalegate.h tracer/scalegate.hpp $(F_MOD) $(DESTDIR)$(PREFIX)/include/
	install -m 644 tracer/caliper/cali.h tracer/caliper/cali_macros.h $(DESTDIR)$(PREFIX)/include/scalegate-caliper/caliper/
	install -m 644 $(B)/lib/libscalegate.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/lib/libscalegate.so $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/bin/scalegate $(DESTDIR)$(PREFIX)/bin/
	$(SUBST) tracer/scalegate.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/scalegate.pc
	$(SUBST) tracer/scalegate-caliper.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/scalegate-caliper.pc
	$(SUBST) tracer/cmake/scalegateConfig.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/scalegate/scalegateConfig.cmake
	$(SUBST) tracer/cmake/scalegateConfigVersion.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/scalegate/scalegateConfigVersion.cmake
	install -m 644 $(B)/man/scalegate.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 README.md $(DOC_DIR)/
	install -m 644 $(wildcard docs/*.md) $(DOC_DIR)/docs/
	install -m 644 $(wildcard tracer/*.md) $(DOC_DIR)/tracer/
	$(if $(HAVE_MPI),$(Q)$(MAKE) --no-print-directory install-mpi)

install-mpi: $(B)/lib/libscalegate-mpi.a $(B)/lib/libscalegate-mpi.so
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 tracer/scalegate.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(B)/lib/libscalegate-mpi.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/lib/libscalegate-mpi.so $(DESTDIR)$(PREFIX)/lib/
	$(SUBST) tracer/scalegate-mpi.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/scalegate-mpi.pc

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
