# mk/sasscomp.mk - PTX -> SASS compiler: test dependencies and benchmark.
#
#   make bench-sasscomp   compile time and static code quality against ptxas (not part of CI).

# The unit tests compile the corpus PTX (mk/ptx.mk) and run bin/rndn-asm.
build/test/sasscomp_tests: | corpus bin/rndn-asm
# nvinfo_test and the benchmark also compile src/codegen's TPC-H kernels (test/isa/probe/tpch_q*.ptx
# retargeted per architecture, mk/assembler.mk).
SASSCOMP_TPCH_PTX := $(foreach a,$(ASM_ARCHS),$(foreach n,$(filter tpch_q%,$(ASM_PROBE_NAMES)),build/isa_probe/sm_$(a)/$(n).ptx))
build/test/sasscomp_tests: | $(SASSCOMP_TPCH_PTX)

build/bench/sasscomp_bench: bench/sasscomp_bench.cpp $(call lib_files,sasscomp) | corpus
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -o $@ $< $(call link_libs,sasscomp)

.PHONY: bench-sasscomp
bench-sasscomp: build/bench/sasscomp_bench
	build/bench/sasscomp_bench
