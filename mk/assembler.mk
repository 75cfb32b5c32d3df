# mk/assembler.mk - SASS assembler: ISA table generator, corpus dependency, fuzz targets, bench.
#
#   make isa-tables     regenerates src/assembler/isa/sm_XX.inc from the kernel corpus
#                       (build/corpus/sm_XX/*.cubin, see mk/ptx.mk) through nvdisasm.
#   make bench-assembler  encoder/decoder throughput versus ptxas on the corpus.

ASM_NVDISASM ?= $(firstword $(wildcard $(CURDIR)/.venv/lib/python3.11/site-packages/nvidia/cu13/bin/nvdisasm) nvdisasm)
ASM_ARCHS := 75 80 86 89 90

build/assembler/isa_gen: src/assembler/gen/isa_gen.cpp $(call lib_files,assembler)
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -o $@ $< $(call link_libs,assembler)

# nvdisasm's listing of each corpus cubin, saved once: the generator and the regeneration test
# (test/unit/assembler/isa_gen_test.cpp) read these instead of running nvdisasm again.
ASM_SASS := $(foreach a,$(ASM_ARCHS),$(foreach n,$(basename $(notdir $(wildcard test/cuda/*.cu))),build/corpus/sm_$(a)/$(n).sass))
build/corpus/%.sass: build/corpus/%.cubin
	$(ASM_NVDISASM) -c -hex $< > $@.tmp && mv $@.tmp $@

.PHONY: isa-tables isa-sass
isa-sass: $(ASM_SASS)
isa-tables: build/assembler/isa_gen $(ASM_SASS) src/assembler/isa/hand.txt
	for a in $(ASM_ARCHS); do \
	  build/assembler/isa_gen --arch sm_$$a --hand src/assembler/isa/hand.txt -o src/assembler/isa/sm_$$a.inc \
	    build/corpus/sm_$$a/*.sass || exit 1; \
	done

# The unit tests read every corpus cubin.
.PHONY: corpus
corpus:
build/test/assembler_tests: | corpus build/assembler/isa_gen $(ASM_SASS)

FUZZ_COMPS_sass_text_fuzz := assembler
FUZZ_COMPS_cubin_read_fuzz := assembler

build/bench/assembler_bench: bench/assembler_bench.cpp $(call lib_files,assembler)
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -o $@ $< $(call link_libs,assembler)

.PHONY: bench-assembler
bench-assembler: build/bench/assembler_bench | corpus
	build/bench/assembler_bench
