// The control-code checker: per warp, when each register written by a fixed-latency instruction
// is ready (stall counts along the executed path) and which scoreboard guards each
// variable-latency result (write barriers) or each source a variable-latency instruction still
// reads (read barriers).  Reports reads and overwrites before a register is guaranteed ready and
// waits on scoreboards no instruction set, with the instruction address.
#pragma once

#include <mutex>
#include <vector>

#include "sassemu/internal.h"

namespace rndn::sassemu {

struct RegUse {
    uint8_t reg, width;
};

// Per instruction: the registers it reads and writes, its latency class.
struct HazardInfo {
    std::vector<RegUse> reads, writes;
    std::vector<uint8_t> preads, pwrites;  // predicates (guard included in preads)
    std::vector<uint8_t> ureads, uwrites;  // uniform registers
    bool variable = false;
    int latency = 4;
    int pipe = 0;
};

// The highest general register an instruction reads or writes (register pairs and quads counted
// whole; RZ not), -1 for none.
int HighestRegister(const KernelImpl &k, const DInst &d);

class HazardState {
public:
    explicit HazardState(const KernelImpl &k);
    void Reset(Cta &c);
    void Issue(Cta &c, Warp &w, const DInst &d);
    void Flush(std::vector<Hazard> &out, std::mutex &mu);
    bool ok() const { return found_.empty(); }

private:
    struct WarpState {
        int64_t cycle = 0;
        int64_t ready[256];
        uint32_t writer[256];      // lanes whose value is in flight
        int8_t sb[256];            // write scoreboard guarding the register (-1 none, 7 unguarded variable)
        int8_t rsb[256];           // read scoreboard still reading it (-1 none)
        uint16_t from[256];        // instruction index of the last writer
        int8_t pipe[256];          // pipe of a variable-latency writer
        uint64_t seq[256];         // issue number of the writer
        bool sb_ever[6] = {};      // the scoreboard was set at some point
        int8_t sb_pipe[6] = {};    // pipe of its last setter
        uint64_t sb_seq[6] = {};   // issue number (+1) of its last setter
        uint64_t issued = 0;
        int64_t bar_result_ready = 0;  // when B2R.RESULT may read the last BAR.RED's result
        int64_t pready[8];
        uint32_t pwriter[8];
        int8_t psb[8];
        uint16_t pfrom[8];
        int64_t uready[64];
        uint32_t uwriter[64];
        int8_t usb[64];
        uint16_t ufrom[64];
    };
    void Report(const DInst &d, const std::string &what);
    const KernelImpl &k_;
    std::vector<HazardInfo> info_;
    std::vector<WarpState> warps_;
    std::vector<Hazard> found_;
    int plat_ = 4, plat_control_ = 4;     // predicate latency to ordinary and control consumers
    int plat_guard_ = 4;                  // ... and to the guard of an ordinary instruction
    int bar_result_ = 6;                  // BAR.RED to the B2R.RESULT that reads its result
    uint32_t static_sbs_ = 0;          // scoreboards some instruction of the kernel sets
    std::vector<uint64_t> reported_;  // addresses already reported (one report per address)
};

// The latency class of an opcode on an architecture (latency.inc).
bool LatencyOf(sass::Arch arch, const std::string &opcode, int *cycles, int *pipe,
               const std::vector<std::string> *mods = nullptr);

}  // namespace rndn::sassemu
