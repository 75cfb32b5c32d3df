#!/usr/bin/env bash
# tools/gpu-check.sh: on a machine with an NVIDIA GPU, run the cuda device's tests against the
# real driver (libcuda.so.1): ptxas's corpus cubins and rndn's own compiled cubins against the C++
# references, and TPC-H's kernels against the interpreter.  Build the bundle where the build is
# (`make gpu-bundle`), carry build/gpu/bundle.tar.xz to the GPU machine, run this from the
# repository root there.  A kernel fault poisons the process's CUDA context, so the groups run in
# separate processes, and each test of rndn's own code in its own.  Output: $OUT/gpu-check.log.
set -u
log=${OUT:-/tmp}/gpu-check.log
run() {
    echo "== $1"
    RNDN_CUDA_MODES=ptxas,rndn RNDN_LIBCUDA=libcuda.so.1 timeout ${GPU_CHECK_TIMEOUT:-300} build/gpu/cuda_tests --gtest_filter="$1" 2>&1 |
        grep -E '^\[ +(OK|FAILED|PASSED|SKIPPED) |^\[cuda\]|Failure|error|Which is|Actual' | grep -v '^\[  FAILED  \] [0-9]* test' | head -60
}
{
    echo "== machine"; date -u; nvidia-smi -L 2>&1; nvidia-smi --query-gpu=driver_version,compute_cap --format=csv,noheader 2>&1
    head -1 /etc/os-release; ldd --version 2>&1 | head -1
    tar -xJf build/gpu/bundle.tar.xz || echo "unpack failed"
    # GPU_CHECK_ONLY_DRIVER=1: the driver shim's tests alone here (then the timing, unless skipped)
    if [ -n "${GPU_CHECK_ONLY_DRIVER:-}" ]; then run 'CudaDriver.*'; exit 0; fi
    run 'CudaDriver.*-CudaDriver.RndnAndPtxasCubinsAgree'
    [ -n "${GPU_CHECK_SKIP_PTXAS:-}" ] || run '*ptxas*'  # ptxas's own cubins on the corpus suites
    run 'CudaTpch.EveryProgram*'
    for t in $(RNDN_CUDA_MODES=ptxas,rndn build/gpu/cuda_tests --gtest_list_tests --gtest_filter="*rndn*:CudaDriver.RndnAndPtxasCubinsAgree:CudaTpch.OurCompilers*" |
               awk '/^[^ ]/{s=$1} /^  /{print s $1}'); do
        run "$t"
    done
} 2>&1 | tee "$log"
# diagnosis: saxpy from each cubin in gpucheck/ (one process each)
for f in gpucheck/*.cubin; do
    [ -f "$f" ] || continue
    echo "== saxpy from $f"
    RNDN_LIBCUDA=libcuda.so.1 RNDN_SAXPY_CUBINS=$f timeout 60 build/gpu/cuda_tests --gtest_also_run_disabled_tests --gtest_filter=CudaDriver.DISABLED_SaxpyFromCubinFiles 2>&1 | grep -E '^\[cuda\]|rror' | head -5
done 2>&1 | tee -a "$log"
# diagnosis: a kernel from each cubin listed in gpucheck/kernel.env (RNDN_KERNEL, RNDN_KERNEL_ARGS)
if [ -f gpucheck/kernel.env ]; then
    . gpucheck/kernel.env
    for f in gpucheck/base.cubin gpucheck/n*.cubin; do
        [ -f "$f" ] || continue
        RNDN_LIBCUDA=libcuda.so.1 RNDN_KERNEL=$RNDN_KERNEL RNDN_KERNEL_ARGS=$RNDN_KERNEL_ARGS RNDN_KERNEL_CUBINS=$f timeout 30 \
            build/gpu/cuda_tests --gtest_also_run_disabled_tests --gtest_filter=CudaDriver.DISABLED_KernelFromCubinFiles 2>&1 | grep -E '^\[cuda\]'
    done 2>&1 | tee -a "$log"
fi
# sweep: every corpus kernel of our compiler (tools/gpu-bisect.py prepare sm_90 gpucheck/sweep),
# one process each, ptxas's cubin of the kernel as the control where ours fails; then the
# NOP variants of the first kernels that stop with an illegal instruction
one() {  # cubin kernel args
    RNDN_LIBCUDA=libcuda.so.1 RNDN_KERNEL=$2 RNDN_KERNEL_ARGS=$3 RNDN_KERNEL_CUBINS=$1 timeout 30 \
        build/gpu/cuda_tests --gtest_also_run_disabled_tests --gtest_filter=CudaDriver.DISABLED_KernelFromCubinFiles 2>&1 | grep -E '^\[cuda\]' || echo "[cuda] $1 $2: no answer (timeout or crash)"
}
if [ -z "${GPU_CHECK_ONLY_DRIVER:-}" ] && [ -f gpucheck/sweep/list ]; then
    echo "== sweep"
    : > /tmp/illegal
    while read -r cubin kernel args; do
        r=$(one gpucheck/sweep/$cubin $kernel $args)
        echo "$r"
        case "$r" in
            *ran) ;;
            *) echo "$(one build/corpus/sm_90/$cubin $kernel $args) (ptxas)"
               case "$r" in *ILLEGAL_INSTRUCTION*) echo "$cubin $kernel $args" >> /tmp/illegal ;; esac ;;
        esac
    done < gpucheck/sweep/list
    echo "== sweep: $(grep -c . gpucheck/sweep/list) kernels, $(grep -c . /tmp/illegal) stop with an illegal instruction"
    head -${GPU_BISECT_KERNELS:-4} /tmp/illegal | while read -r cubin kernel args; do
        echo "== bisect $kernel"
        rm -rf /tmp/v && python3 tools/gpu-bisect.py variants gpucheck/sweep/$cubin $kernel /tmp/v
        for v in /tmp/v/nobra.cubin /tmp/v/n*.cubin; do
            one $v $kernel $args
        done | sed 's|/tmp/v/||' | grep -v ILLEGAL_INSTRUCTION
    done
fi 2>&1 | tee -a "$log"
# timing (printed, never asserted): the 22 TPC-H programs on the interpreter, the cpu device and the
# GPU (CudaTpch.DISABLED_TimesEveryProgram) at SF 0.01 and, where a DuckDB wheel for this machine's
# python3 was carried in build/gpu/wheels (no network there), at SF ${GPU_TIMING_SF:-1} generated here.
timing() {
    echo "== timing $1"
    RNDN_TPCH_DIR=$1 RNDN_LIBCUDA=libcuda.so.1 timeout ${GPU_TIMING_TIMEOUT:-330} build/gpu/cuda_tests --gtest_also_run_disabled_tests \
        --gtest_filter=CudaTpch.DISABLED_TimesEveryProgram 2>&1 | grep -E '^\[cuda\]|Failure|Which is|^\[ +(OK|FAILED) '
}
if [ -z "${GPU_CHECK_SKIP_TIMING:-}" ]; then
    nproc; grep -m1 'model name' /proc/cpuinfo
    [ -n "${GPU_TIMING_SKIP_SMALL:-}" ] || timing build/tpch/sf0.01
    sf=${GPU_TIMING_SF:-1}
    py=$(python3 -c 'import sys; print("cp%d%d" % sys.version_info[:2])' 2>/dev/null)
    whl=$(ls build/gpu/wheels/duckdb-*-$py-*.whl 2>/dev/null | head -1)
    if [ -n "$whl" ]; then
        rm -rf /tmp/rndn-duckdb && python3 -c "import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extractall('/tmp/rndn-duckdb')" "$whl"
        t0=$(date +%s)
        PYTHONPATH=/tmp/rndn-duckdb python3 test/tpch/dbgen.py "$sf" "build/tpch/sf$sf" && echo "SF $sf generated in $(( $(date +%s) - t0 )) s" &&
            timing "build/tpch/sf$sf"
    else
        echo "no DuckDB wheel for python3 ($py) in build/gpu/wheels: SF $sf not timed"
    fi
fi 2>&1 | tee "${OUT:-/tmp}/gpu-timing.log"
