# mk/ptx.mk - PTX front end: kernel corpus and fuzz target.
#
#   make corpus   builds build/corpus/sm_XX/<name>.ptx   (nvcc -ptx -arch=sm_XX test/cuda/<name>.cu)
#                 and    build/corpus/sm_XX/<name>.cubin (ptxas -O3 -arch=sm_XX on that PTX)
#                 for every test/cuda/*.cu and every arch in PTX_CORPUS_ARCHS.
# Each file has its own rule (no shared temporaries), so the rules are safe under make -jN.

CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc
PTXAS ?= $(CUDA_HOME)/bin/ptxas
PTX_CORPUS_ARCHS := 75 80 86 89 90 100 120
PTX_CORPUS_NAMES := $(basename $(notdir $(wildcard test/cuda/*.cu)))
PTX_CORPUS_PTX := $(foreach a,$(PTX_CORPUS_ARCHS),$(foreach n,$(PTX_CORPUS_NAMES),build/corpus/sm_$(a)/$(n).ptx))
PTX_CORPUS_CUBIN := $(PTX_CORPUS_PTX:.ptx=.cubin)

define PTX_CORPUS_ARCH_RULES
build/corpus/sm_$(1)/%.ptx: test/cuda/%.cu
	@mkdir -p $$(dir $$@)
	$(NVCC) -ptx -arch=sm_$(1) $$< -o $$@.tmp && mv $$@.tmp $$@

build/corpus/sm_$(1)/%.cubin: build/corpus/sm_$(1)/%.ptx
	$(PTXAS) -O3 -arch=sm_$(1) $$< -o $$@.tmp && mv $$@.tmp $$@
endef
$(foreach a,$(PTX_CORPUS_ARCHS),$(eval $(call PTX_CORPUS_ARCH_RULES,$(a))))

.PHONY: corpus
corpus: $(PTX_CORPUS_PTX) $(PTX_CORPUS_CUBIN)

# The PTX unit tests read the corpus.
build/test/ptx_tests: | $(PTX_CORPUS_PTX) $(PTX_CORPUS_CUBIN)

FUZZ_COMPS_ptx_parse_fuzz := ptx

# The tool test in test/unit/ptx runs bin/rndn-ptx.
build/test/ptx_tests: | bin/rndn-ptx
