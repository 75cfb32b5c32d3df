# cpujit: extra rules.
#
# The unit tests run the corpus kernels (built by mk/ptx.mk's pattern rules) for sm_80 and sm_90.
CPUJIT_CORPUS := $(foreach a,80 90,$(patsubst test/cuda/%.cu,build/corpus/sm_$(a)/%.ptx,$(wildcard test/cuda/*.cu)))
build/test/cpujit_tests: | $(CPUJIT_CORPUS)

# Benchmark (not part of CI): make bench-cpujit
build/bench/cpujit_bench: bench/cpujit_bench.cpp $(call lib_files,cpujit) | $(CPUJIT_CORPUS)
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -o $@ $< $(call link_libs,cpujit) $(RNDN_LLVM_LDFLAGS) -ldl
.PHONY: bench-cpujit
bench-cpujit: build/bench/cpujit_bench
	build/bench/cpujit_bench
# rndn_run_test.cpp drives bin/rndn-run (it skips, saying why, when the tool is absent).
build/test/cpujit_tests: | bin/rndn-run
