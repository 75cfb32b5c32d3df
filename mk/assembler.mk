# mk/assembler.mk - SASS assembler: ISA table generator, corpus dependency, fuzz targets, bench.
#
#   make isa-tables     regenerates src/assembler/isa/sm_XX.inc from the kernel corpus
#                       (build/corpus/sm_XX/*.cubin, see mk/ptx.mk) through nvdisasm.
#   make bench-assembler  encoder/decoder throughput versus ptxas on the corpus.

ASM_NVDISASM ?= $(firstword $(wildcard $(CURDIR)/.venv/lib/python3.11/site-packages/nvidia/cu13/bin/nvdisasm) nvdisasm)
ASM_ARCHS := 75 80 86 89 90 100 120

build/assembler/isa_gen: src/assembler/gen/isa_gen.cpp $(call lib_files,assembler)
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -o $@ $< $(call link_libs,assembler)

# nvdisasm's listing of each corpus cubin, saved once: the generator and the regeneration test
# (test/unit/assembler/isa_gen_test.cpp) read these instead of running nvdisasm again.
ASM_SASS := $(foreach a,$(ASM_ARCHS),$(foreach n,$(basename $(notdir $(wildcard test/cuda/*.cu))),build/corpus/sm_$(a)/$(n).sass))
build/corpus/%.sass: build/corpus/%.cubin
	$(ASM_NVDISASM) -c -hex $< > $@.tmp && mv $@.tmp $@

# The ISA probe corpus (test/isa/probe/*.cu: kernels written to exercise opcodes' modifier and
# operand space, generator input only) and the held-out kernels (test/isa/heldout/*.cu: never
# generator input; test/unit/assembler/heldout_test.cpp measures the tables on them).
ASM_PROBE_NAMES := $(basename $(notdir $(wildcard test/isa/probe/*.cu) $(wildcard test/isa/probe/*.ptx)))
ASM_HELDOUT_NAMES := $(basename $(notdir $(wildcard test/isa/heldout/*.cu)))
ASM_PROBE := $(foreach a,$(ASM_ARCHS),$(foreach n,$(ASM_PROBE_NAMES),build/isa_probe/sm_$(a)/$(n).sass))
ASM_HELDOUT := $(foreach a,$(ASM_ARCHS),$(foreach n,$(ASM_HELDOUT_NAMES),build/isa_heldout/sm_$(a)/$(n).cubin))
define ASM_ARCH_RULES
build/isa_probe/sm_$(1)/%.ptx: test/isa/probe/%.cu
	@mkdir -p $$(dir $$@)
	$$(NVCC) -ptx -arch=sm_$(1) $$< -o $$@.tmp && mv $$@.tmp $$@
build/isa_probe/sm_$(1)/%.ptx: test/isa/probe/%.ptx
	@mkdir -p $$(dir $$@)
	sed 's/^\.target sm_[0-9]*/.target sm_$(1)/' $$< > $$@.tmp && mv $$@.tmp $$@
build/isa_heldout/sm_$(1)/%.ptx: test/isa/heldout/%.cu
	@mkdir -p $$(dir $$@)
	$$(NVCC) -ptx -arch=sm_$(1) $$< -o $$@.tmp && mv $$@.tmp $$@
build/isa_probe/sm_$(1)/%.cubin: build/isa_probe/sm_$(1)/%.ptx
	$$(PTXAS) -O3 -arch=sm_$(1) $$< -o $$@.tmp && mv $$@.tmp $$@
build/isa_heldout/sm_$(1)/%.cubin: build/isa_heldout/sm_$(1)/%.ptx
	$$(PTXAS) -O3 -arch=sm_$(1) $$< -o $$@.tmp && mv $$@.tmp $$@
endef
$(foreach a,$(ASM_ARCHS),$(eval $(call ASM_ARCH_RULES,$(a))))
build/isa_probe/%.sass: build/isa_probe/%.cubin
	$(ASM_NVDISASM) -c -hex $< > $@.tmp && mv $@.tmp $@

# The PTX probes test/isa/probe/tpch_q*.ptx are codegen's kernels for the 22 TPC-H programs
# (full fusion, sm_80 text; the rules above retarget them per arch), so that the tables cover
# what the code generator emits (the SASS emulator's TPC-H test runs them).  Regenerate them
# after code-generator changes, then the tables:  make isa-probe-tpch isa-tables
.PHONY: isa-probe-tpch
isa-probe-tpch: bin/rndn-hir
	for q in $$(seq 1 22); do \
	  bin/rndn-hir compile test/horseir/tpch/q$$q.hir --emit=ptx --outline=full --arch=sm_80 > test/isa/probe/tpch_q$$q.ptx || exit 1; \
	done

.PHONY: isa-tables isa-sass
isa-sass: $(ASM_SASS) $(ASM_PROBE)
isa-tables: build/assembler/isa_gen $(ASM_SASS) $(ASM_PROBE) src/assembler/isa/hand.txt
	for a in $(ASM_ARCHS); do \
	  build/assembler/isa_gen --arch sm_$$a --nvdisasm $(ASM_NVDISASM) --synthesize 2 --hand src/assembler/isa/hand.txt -o src/assembler/isa/sm_$$a.inc \
	    build/corpus/sm_$$a/*.sass build/isa_probe/sm_$$a/*.sass || exit 1; \
	done

# The unit tests read every corpus cubin.
.PHONY: corpus
corpus:
build/test/assembler_tests: | corpus build/assembler/isa_gen $(ASM_SASS) $(ASM_PROBE) $(ASM_HELDOUT)

FUZZ_COMPS_sass_text_fuzz := assembler
FUZZ_COMPS_cubin_read_fuzz := assembler

build/bench/assembler_bench: bench/assembler_bench.cpp $(call lib_files,assembler)
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -o $@ $< $(call link_libs,assembler)

.PHONY: bench-assembler
bench-assembler: build/bench/assembler_bench | corpus
	build/bench/assembler_bench
