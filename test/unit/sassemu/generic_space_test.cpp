// Generic addressing in the SASS emulator: atomics through a generic pointer (cvta.shared) land
// in the CTA's shared memory, through a global pointer in global memory.  The kernel is the ISA
// probe test/isa/probe/generic_space.cu (nvcc + ptxas -O3, built by mk/assembler.mk), whose
// results do not depend on the order of the atomics; the reference is computed here.  (A
// generic address taken for global would fail the bounds check, one taken for shared would
// leave the global counters short.)
#include "harness.h"

namespace rndn::cpujit::testing {
namespace {

class GenericSpaceTest : public CorpusTest {};

// What generic_atomics leaves in its eight counters after the threads t of `block` with
// (t & 32) == odd32 ran it, `blocks` times: four add counters, a max of t + 1, the sum of the add
// counters' old values, a compare-and-swap from 0 to 7 and an exchange with 9.
std::vector<uint32_t> Expected(uint32_t block, uint32_t blocks, uint32_t odd32) {
    std::vector<uint32_t> e(8, 0), per(4, 0);
    for (uint32_t t = 0; t < block; ++t)
        if ((t & 32) == odd32) per[t & 3] += blocks, e[4] = t + 1;
    for (int k = 0; k < 4; ++k) {
        e[k] = per[k];
        e[5] += per[k] * (per[k] - 1) / 2;  // old values 0 .. per[k]-1, in whatever order
    }
    e[6] = 7;
    e[7] = 9;
    return e;
}

TEST_P(GenericSpaceTest, AtomicsOnGenericAddressesResolveByWindow) {
    std::string path = "build/isa_probe/" + arch() + "/generic_space.cubin";
    auto m = LoadCorpus(dev(), path);
    ASSERT_TRUE(m.ok()) << path << ": " << m.status().ToString();
    const Kernel *k = (*m)->Find("generic_atomics");
    ASSERT_NE(k, nullptr);
    // even warps: a generic pointer into the block's shared counters (copied out per block);
    // odd warps: a generic pointer to global counters all blocks share
    const uint32_t block = 160, blocks = 3;
    uint32_t *out = Zeros<uint32_t>(8 * blocks), *g = Zeros<uint32_t>(8);
    ASSERT_TRUE(Ok(Launch(k, D1(blocks), D1(block), {Arg::Ptr(out), Arg::Ptr(g)})));
    std::vector<uint32_t> es = Expected(block, 1, 0), eg = Expected(block, blocks, 32);
    for (uint32_t b = 0; b < blocks; ++b)
        for (int i = 0; i < 8; ++i) EXPECT_EQ(out[b * 8 + i], es[i]) << "block " << b << " shared counter " << i;
    for (int i = 0; i < 8; ++i) EXPECT_EQ(g[i], eg[i]) << "global counter " << i;
}

RNDN_CJ_INSTANTIATE(GenericSpaceTest);

}  // namespace
}  // namespace rndn::cpujit::testing
