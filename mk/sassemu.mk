# mk/sassemu.mk - SASS emulator: test dependencies and benchmark.
#
#   make bench-sassemu   warp-instructions per second per core on corpus cubins (not part of CI).

# The unit tests run the corpus cubins (mk/ptx.mk), the ISA probe cubins (generic_space_test,
# mk/assembler.mk) and bin/rndn-emu.
build/test/sassemu_tests: | corpus bin/rndn-emu $(ASM_PROBE)

build/bench/sassemu_bench: bench/sassemu_bench.cpp $(call lib_files,sassemu) | corpus
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -o $@ $< $(call link_libs,sassemu)

.PHONY: bench-sassemu
bench-sassemu: build/bench/sassemu_bench
	build/bench/sassemu_bench
