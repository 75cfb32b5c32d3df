# mk/sasscomp.mk - PTX -> SASS compiler: test dependencies and benchmark.
#
#   make bench-asm        compile time and static code quality against ptxas and nvJitLink (not
#                         part of CI; bench-sasscomp is the same).

# The unit tests compile the corpus PTX (mk/ptx.mk) and run bin/rndn-asm.
build/test/sasscomp_tests: | corpus bin/rndn-asm
# nvinfo_test and the benchmark also compile src/codegen's TPC-H kernels (test/isa/probe/tpch_q*.ptx
# retargeted per architecture, mk/assembler.mk).
SASSCOMP_TPCH_PTX := $(foreach a,$(ASM_ARCHS),$(foreach n,$(filter tpch_q%,$(ASM_PROBE_NAMES)),build/isa_probe/sm_$(a)/$(n).ptx))
build/test/sasscomp_tests: | $(SASSCOMP_TPCH_PTX)

# nvJitLink (the toolkit's in-process PTX compiler) is linked into this benchmark only, never into
# rndn.so or the tests; without it the benchmark prints no nvJitLink column.
ASM_BENCH_CUDA ?= /usr/local/cuda
ASM_BENCH_COMMA := ,
ASM_BENCH_JIT := $(if $(wildcard $(ASM_BENCH_CUDA)/lib64/libnvJitLink.so),-DRNDN_HAVE_NVJITLINK -isystem $(ASM_BENCH_CUDA)/include,)
ASM_BENCH_JIT_LIBS := $(if $(ASM_BENCH_JIT),-L$(ASM_BENCH_CUDA)/lib64 -lnvJitLink -Wl$(ASM_BENCH_COMMA)-rpath$(ASM_BENCH_COMMA)$(ASM_BENCH_CUDA)/lib64,)
build/bench/asm_bench: bench/asm_bench.cpp $(call lib_files,sasscomp) | corpus $(SASSCOMP_TPCH_PTX)
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) $(ASM_BENCH_JIT) -o $@ $< $(call link_libs,sasscomp) $(ASM_BENCH_JIT_LIBS)

.PHONY: bench-asm bench-sasscomp
bench-asm: build/bench/asm_bench
	build/bench/asm_bench $(ASM_BENCH_ARGS)
bench-sasscomp: bench-asm
