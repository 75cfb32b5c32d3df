# horseir: fuzz target components and the benchmark (not run in CI).
FUZZ_COMPS_horseir_parse_fuzz := horseir

.PHONY: bench-horseir
build/bench/horseir_bench: bench/horseir_bench.cpp build/lib/librndn_horseir.a build/lib/librndn_common.a
	@mkdir -p build/bench
	$(CXX) $(filter-out -MMD -MP,$(CORE_CXXFLAGS)) -o $@ $< $(call link_libs,horseir)

bench-horseir: build/bench/horseir_bench
	build/bench/horseir_bench $(HORSEIR_BENCH_SF)
