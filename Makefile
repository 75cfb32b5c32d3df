# rndn — PostgreSQL 15 extension (PGXS) plus a PostgreSQL-free core compiler stack.
#
# Layout of the build:
#   build/obj/<comp>/*.o       core objects (no PostgreSQL headers), -fPIC
#   build/lib/librndn_<comp>.a one static library per core component
#   build/test/<comp>_tests    GoogleTest binary per component (test/unit/<comp>/*_test.cpp)
#   bin/rndn-<tool>            command-line front ends (tools/rndn-<tool>/*.cpp)
#   rndn.so                    the extension: src/pg_base + src/planner_hook + src/executor + core libraries
#
# User-facing targets: deps, all, install, tpch, demo, test (see README.md).

PG_CONFIG ?= $(firstword $(wildcard /usr/lib/postgresql/15/bin/pg_config) pg_config)
LLVM_CONFIG ?= llvm-config-14
CXX = g++
NPROC := $(shell nproc 2>/dev/null || echo 2)
.DEFAULT_GOAL := all
RNDN_PYTHON := $(CURDIR)/.venv/bin/python

# ---------------------------------------------------------------------------
# Core components and their dependencies (a component may use the ones listed).
# Add a component: create src/<comp>/, list it here with its dependencies.
CORE_COMPONENTS := common horseir runtime ptx codegen assembler cpujit sassemu sasscomp cuda
DEPS_common    :=
DEPS_horseir   := common
DEPS_runtime   := codegen cpujit sasscomp cuda assembler ptx horseir common
DEPS_ptx       := common
DEPS_codegen   := horseir ptx cpujit common
DEPS_assembler := ptx common
DEPS_cpujit    := ptx common
DEPS_sassemu   := assembler ptx common
DEPS_sasscomp  := assembler ptx common
DEPS_cuda      := common
# Components a unit-test binary links besides its own closure (tests may use a later stage as
# the judge: sasscomp's tests run the cubins they compile in the SASS emulator, and its TPC-H
# test runs codegen's outlined kernels compiled by sasscomp).
TEST_DEPS_sasscomp := sassemu codegen horseir
TEST_DEPS_cuda := sasscomp sassemu codegen horseir
# sassemu's TPC-H test runs codegen's outlined kernels (ptxas's cubins) in the emulator.
TEST_DEPS_sassemu := codegen horseir

# Tools: bin/rndn-<name> built from tools/rndn-<name>/*.cpp, linked with these components.
TOOL_LIBS_rndn-hir := codegen runtime horseir common
TOOL_LIBS_rndn-ptx := ptx common
TOOL_LIBS_rndn-asm := sasscomp assembler ptx common
TOOL_LIBS_rndn-dis := assembler ptx common
TOOL_LIBS_rndn-run := cpujit ptx common
TOOL_LIBS_rndn-emu := sassemu assembler ptx common

# Components whose code includes LLVM headers.
LLVM_COMPONENTS := cpujit

# ---------------------------------------------------------------------------
CORE_CXXFLAGS := -std=c++20 -O2 -g -fPIC -Wall -Wextra -Werror=return-type -Isrc -MMD -MP -pthread
LLVM_INCLUDE := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
RNDN_LLVM_CXXFLAGS := -isystem $(LLVM_INCLUDE) -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS
RNDN_LLVM_LDFLAGS := -L$(shell $(LLVM_CONFIG) --libdir 2>/dev/null) -Wl,-rpath,$(shell $(LLVM_CONFIG) --libdir 2>/dev/null) -lLLVM-14
GTEST_LIBS := -lgtest_main -lgtest -pthread

comp_srcs = $(wildcard src/$(1)/*.cpp)
comp_objs = $(patsubst src/%.cpp,build/obj/%.o,$(call comp_srcs,$(1)))
comp_lib  = build/lib/librndn_$(1).a
# transitive closure of dependencies, in link order (component first)
comp_closure = $(strip $(1) $(foreach d,$(DEPS_$(1)),$(call comp_closure,$(d))))
uniq = $(if $1,$(firstword $1) $(call uniq,$(filter-out $(firstword $1),$1)))
link_libs = -Wl,--start-group $(foreach c,$(call uniq,$(foreach x,$(1),$(call comp_closure,$(x)))),$(call comp_lib,$(c))) -Wl,--end-group
lib_files = $(foreach c,$(call uniq,$(foreach x,$(1),$(call comp_closure,$(x)))),$(call comp_lib,$(c)))
needs_llvm = $(strip $(foreach c,$(call uniq,$(foreach x,$(1),$(call comp_closure,$(x)))),$(filter $(c),$(LLVM_COMPONENTS))))

CORE_LIBS := $(foreach c,$(CORE_COMPONENTS),$(call comp_lib,$(c)))
TOOLS := $(patsubst tools/%/,bin/%,$(sort $(dir $(wildcard tools/rndn-*/*.cpp))))
UNIT_TESTS := $(foreach c,$(CORE_COMPONENTS),$(if $(wildcard test/unit/$(c)/*_test.cpp),build/test/$(c)_tests))

build/obj/%.o: src/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) $(if $(filter $(LLVM_COMPONENTS),$(firstword $(subst /, ,$*))),$(RNDN_LLVM_CXXFLAGS)) -c $< -o $@

define COMP_RULES
$(call comp_lib,$(1)): $(call comp_objs,$(1))
	@mkdir -p $$(dir $$@)
	rm -f $$@ && ar rcs $$@ $$^

build/test/$(1)_tests: $(patsubst test/unit/%.cpp,build/testobj/%.o,$(wildcard test/unit/$(1)/*.cpp)) $(call lib_files,$(1) $(TEST_DEPS_$(1)))
	@mkdir -p $$(dir $$@)
	$(CXX) -o $$@ $$(filter %.o,$$^) $(call link_libs,$(1) $(TEST_DEPS_$(1))) $(GTEST_LIBS) $(if $(call needs_llvm,$(1) $(TEST_DEPS_$(1))),$(RNDN_LLVM_LDFLAGS)) -ldl

.PHONY: unit-$(1)
unit-$(1): build/test/$(1)_tests
	cd $(CURDIR) && build/test/$(1)_tests
endef
$(foreach c,$(CORE_COMPONENTS),$(eval $(call COMP_RULES,$(c))))

build/testobj/%.o: test/unit/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) $(if $(filter $(LLVM_COMPONENTS),$(firstword $(subst /, ,$*))),$(RNDN_LLVM_CXXFLAGS)) -Itest/unit -c $< -o $@

build/toolobj/%.o: tools/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -c $< -o $@

define TOOL_RULES
bin/$(1): $(patsubst tools/%.cpp,build/toolobj/%.o,$(wildcard tools/$(1)/*.cpp)) $(call lib_files,$(TOOL_LIBS_$(1)))
	@mkdir -p bin
	$(CXX) -o $$@ $$(filter %.o,$$^) $(call link_libs,$(TOOL_LIBS_$(1))) -pthread $(if $(call needs_llvm,$(TOOL_LIBS_$(1))),$(RNDN_LLVM_LDFLAGS)) -ldl
endef
$(foreach t,$(patsubst bin/%,%,$(TOOLS)),$(eval $(call TOOL_RULES,$(t))))

.PHONY: core tools unit-tests
core: $(CORE_LIBS)
tools: $(TOOLS)
unit-tests: $(UNIT_TESTS)

-include $(shell find build -name '*.d' 2>/dev/null)

# Per-component extra rules (corpus builds, generated tables, ...): one file per owner.
-include $(sort $(wildcard mk/*.mk))

# ---------------------------------------------------------------------------
# The PostgreSQL extension (PGXS).
EXTENSION = rndn
MODULE_big = rndn
DATA = $(wildcard sql/rndn--*.sql)
# src/pg_base is the base both PostgreSQL-side folders stand on (module init, GUCs, the error
# boundary, the plan node's layout); tools/check_layers.sh keeps them from including each other.
PG_SRCS := $(wildcard src/pg_base/*.cpp src/planner_hook/*.cpp src/executor/*.cpp)
OBJS = $(PG_SRCS:.cpp=.o)
PG_CPPFLAGS = -Isrc
PG_CXXFLAGS = -std=c++20 -Wall -Wextra -Wno-missing-field-initializers -MMD -MP -fPIC -pthread
EXT_COMPONENTS := runtime
SHLIB_LINK = $(call link_libs,$(EXT_COMPONENTS)) $(if $(call needs_llvm,$(EXT_COMPONENTS)),$(RNDN_LLVM_LDFLAGS)) -licui18n -licuuc -lstdc++ -ldl -pthread
EXTRA_CLEAN = build bin $(PG_SRCS:.cpp=.d)

# pg_regress (make installcheck) against the throwaway cluster started by tools/pgcluster.
REGRESS = $(basename $(notdir $(wildcard test/regress/sql/*.sql)))
REGRESS_OPTS = --inputdir=test/regress --outputdir=build/regress --load-extension=rndn
# The regression tests check what rndn computes on small tables, where PostgreSQL's plans are
# usually expected faster: rndn takes every plan it can (tests of the cost model turn it off).
installcheck: export PGOPTIONS := $(PGOPTIONS) -c rndn.force=on

override with_llvm = no
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifneq ($(PGXS),)
include $(PGXS)
# PostgreSQL 15's headers are not C++17/20 clean (-Wregister): include them as system headers.
override CPPFLAGS := $(patsubst -I$(includedir_server),-isystem $(includedir_server),$(CPPFLAGS))
endif

all: build/layers.ok $(CORE_LIBS) $(TOOLS)
$(shlib): $(call lib_files,$(EXT_COMPONENTS)) build/layers.ok
$(OBJS): | build/layers.ok

# The include rules between layers (tools/check_layers.sh): fails the build when one is broken.
build/layers.ok: tools/check_layers.sh $(wildcard src/*/*.h src/*/*.cpp src/*/*.def)
	tools/check_layers.sh
	@mkdir -p build && touch $@
-include $(PG_SRCS:.cpp=.d)

# ---------------------------------------------------------------------------
# Set-up, data, demo and the whole test suite.
SF ?= 0.01
TBL ?=
.PHONY: deps tpch tpch-check demo test check-deps fuzz-sql fuzz-sqlsmith pg-regress

deps:
	@tools/deps.sh

check-deps:
	@tools/deps.sh --check >/dev/null 2>&1 || tools/deps.sh

tpch: check-deps
	$(MAKE) all
	tools/tpch.sh load $(SF) $(TBL)

# official answers + on/off differential at any scale factor (SF 0.01, 0.1 and 1 have answers)
tpch-check: check-deps
	$(MAKE) -j$(NPROC) all
	$(MAKE) install
	tools/tpch.sh check $(SF)

demo: check-deps
	$(MAKE) -j$(NPROC) all
	$(MAKE) install
	tools/demo.sh

test: check-deps
	$(MAKE) -j$(NPROC) all unit-tests
	$(MAKE) install
	tools/tpch.sh gen 0.01 >/dev/null   # the HorseIR unit tests run the TPC-H programs on it
	$(RNDN_PYTHON) test/run_all.py

# a long random differential batch (rndn off vs on) in the throwaway cluster: N queries from SEED
N ?= 20000
SEED ?= 1
fuzz-sql: check-deps
	$(MAKE) -j$(NPROC) all
	$(MAKE) install
	. "$$(tools/pgcluster.sh start)" && $(RNDN_PYTHON) test/differential/random_sql.py --count $(N) --seed $(SEED); \
	  rc=$$?; tools/pgcluster.sh stop; exit $$rc

# sqlsmith's read-only queries over the same tables through the same harness (rndn off vs on;
# plan-dependent queries only checked for crashes; rndn's share printed, no floor)
fuzz-sqlsmith: check-deps
	$(MAKE) -j$(NPROC) all
	$(MAKE) install
	. "$$(tools/pgcluster.sh start)" && $(RNDN_PYTHON) test/differential/random_sql.py --sqlsmith --count $(N) --seed $(SEED); \
	  rc=$$?; tools/pgcluster.sh stop; exit $$rc

# PostgreSQL's own regression suite (Debian's postgresql-15 source) on PostgreSQL alone and with
# rndn forced, in two fresh clusters, every difference classified (test/pgregress/run.py); also
# a group of `make test`
pg-regress: check-deps
	$(MAKE) -j$(NPROC) all
	$(MAKE) install
	$(RNDN_PYTHON) test/pgregress/run.py

# ---------------------------------------------------------------------------
# libFuzzer targets: test/fuzz/<name>_fuzz.cpp, built with clang-14 together with the sources of
# the components listed in FUZZ_COMPS_<name>_fuzz (set in mk/<comp>.mk).  test/run_all.py runs
# each one for a bounded time on the seeds in test/fuzz/<name>_seeds/.
FUZZ_CXX ?= clang++-14
FUZZ_TARGETS := $(patsubst test/fuzz/%.cpp,build/fuzz/%,$(wildcard test/fuzz/*_fuzz.cpp))
fuzz_srcs = $(foreach c,$(call uniq,$(foreach x,$(FUZZ_COMPS_$(1)),$(call comp_closure,$(x)))),$(wildcard src/$(c)/*.cpp))
.SECONDEXPANSION:
build/fuzz/%: test/fuzz/%.cpp $$(call fuzz_srcs,$$*)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Isrc $< $(call fuzz_srcs,$*) -o $@
.PHONY: fuzz-targets
fuzz-targets: $(FUZZ_TARGETS)
