# mk/cuda.mk - the cuda device's driver shim (src/cuda) and the emulated driver its tests use.
#
# build/lib/libcuda_emu.so: the driver API entry points over the SASS emulator
# (test/cuda_emu/libcuda_emu.cpp); build/test/cuda_tests loads it through RNDN_LIBCUDA's default.
#   make gpu-check   the cuda tests against the machine's libcuda.so.1 (needs a GPU; not in CI)

build/lib/libcuda_emu.so: test/cuda_emu/libcuda_emu.cpp $(call lib_files,sassemu)
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -fvisibility=hidden -shared -o $@ $< $(call link_libs,sassemu) \
	    -Wl,--exclude-libs,ALL -Wl,-Bsymbolic -Wl,--no-undefined -pthread -ldl

build/test/cuda_tests: | corpus build/lib/libcuda_emu.so
# runtime's tests run the cuda device (src/runtime/cuda_device.cpp) on the emulated driver, and so
# does the TPC-H differential on rndn.device = cuda (test/run_all.py)
build/test/runtime_tests: | build/lib/libcuda_emu.so

.PHONY: gpu-check
gpu-check: build/test/cuda_tests
	RNDN_LIBCUDA=libcuda.so.1 build/test/cuda_tests

# build/gpu/bundle.tar.xz: what a GPU machine without this build needs to run the cuda tests
# (tools/gpu-check.sh unpacks it there): cuda_tests linked with LLVM's static libraries (the GPU
# machine has no LLVM 14), the sm_90 corpus and the SF 0.01 TPC-H data.
GPU_ARCH ?= sm_90
GPU_TEST_OBJS := $(patsubst test/gpu/%.cpp,build/testobj/gpu/%.o,$(wildcard test/gpu/*.cpp))
build/testobj/gpu/%.o: test/gpu/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CORE_CXXFLAGS) -Itest/unit -c $< -o $@

build/gpu/cuda_tests: build/test/cuda_tests $(GPU_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $(wildcard build/testobj/cuda/*.o) $(GPU_TEST_OBJS) $(call link_libs,cuda $(TEST_DEPS_cuda)) \
	    -L$(shell $(LLVM_CONFIG) --libdir) $(filter-out -lPolly -lPollyISL,$(shell $(LLVM_CONFIG) --link-static --libs)) \
	    $(GTEST_LIBS) -pthread -ldl -Wl,--as-needed $(shell $(LLVM_CONFIG) --link-static --system-libs) -Wl,--strip-debug

.PHONY: gpu-bundle
gpu-bundle: build/gpu/cuda_tests
	tar -cJf build/gpu/bundle.tar.xz build/gpu/cuda_tests build/corpus/$(GPU_ARCH) build/tpch/sf0.01
	@ls -la build/gpu/bundle.tar.xz
