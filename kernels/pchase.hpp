// Host interface of the pointer-chase kernels (kernels/pchase.cuh). Plain C++: benchmarks and
// tests include this, only kernels/pchase.cu sees device code.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace archbench {

// Global-load cache operators, as PTX spells them. The SASS each becomes on sm_90 is checked by
// tests/sass/: ca -> LDG.E[.64].STRONG.SM (L1), cg -> LDG.E[.64].STRONG.GPU (L2 only),
// nc -> LDG.E[.64].CONSTANT (read-only/texture path); .64 in the pointer chain.
enum class CacheOp { ca, cg, nc };
inline constexpr CacheOp kAllCacheOps[] = {CacheOp::ca, CacheOp::cg, CacheOp::nc};
const char* cache_op_name(CacheOp op);  // "ld.ca", "ld.cg", "ld.nc"

// Every chase runs on one chosen SM, pin_sm: a run's reference SM (fixtures/harness/placement.hpp)
// unless a caller spreads its chases over several SMs.
// The timed loop of the chain kernel is unrolled this many times: timed steps are a multiple.
inline constexpr std::uint32_t kChainUnroll = 8;
// Samples per fine-grained run, each one access timed on its own; they live in shared memory.
inline constexpr std::uint32_t kFineSamples = 1024;

struct ChainTiming {
  std::uint64_t cycles = 0;         // clock64 delta over the timed steps
  std::uint64_t ns = 0;             // %globaltimer delta over the same window
  std::uint64_t final_pointer = 0;  // where the chase ended (self-check against the host)
  std::uint32_t smid = 0;
};

struct FineTiming {
  std::vector<std::uint32_t> cycles;  // one per access: clock, load, dependent store, clock
  std::uint64_t window_cycles = 0;    // clock64 and globaltimer over all samples: effective clock
  std::uint64_t window_ns = 0;
  std::uint32_t final_index = 0;
  std::uint32_t smid = 0;
};

// One thread chases 64-bit pointers from `start` (a device address inside a pointer chase array):
// `warm_steps` untimed, then `timed_steps` timed (a multiple of kChainUnroll).
// carveout_pct is the preferred shared-memory carveout (0 = largest L1). The chase runs on SM
// pin_sm.
ChainTiming run_chain_chase(CacheOp op, std::uint64_t start, std::uint32_t warm_steps, std::uint32_t timed_steps,
                            int carveout_pct, std::uint32_t pin_sm);

// One thread chases 32-bit indices from element `start`: `warm_steps` untimed, then times
// kFineSamples accesses one by one.
FineTiming run_fine_chase(CacheOp op, const std::uint32_t* d_chase, std::uint32_t start, std::uint32_t warm_steps,
                          int carveout_pct, std::uint32_t pin_sm);

// The fine-grained timing sequence with the load taken out: what the timer itself costs.
FineTiming run_fine_timer_overhead(std::uint32_t pin_sm);

// Shared memory the fine-grained kernel uses, which the L1 loses (it matters near the L1 edge).
std::size_t fine_chase_shared_bytes();

// Reads every 32-byte sector of [d, d + words) once through L2 from the whole GPU: puts a
// footprint that fits into L2 quickly, without a long serial warm-up chase.
void warm_l2(const std::uint32_t* d, std::size_t words);

// The L2 hit latency of each line at `addresses` (8-byte aligned device addresses) through
// ld.cg, cycles per load (kernels/pchase.cuh, line_latency): from SM pin_sm alone (one value per
// line), or from every SM at once (sm_count x lines, SM-major; a row of zeros for an SM no block
// reached). Overwrites the first 8 bytes of every line. Throws std::invalid_argument on an empty
// list, a misaligned address or an SM that does not exist.
inline constexpr std::uint32_t kLineLatencySteps = 16;
std::vector<float> line_latency_one_sm(const std::vector<std::uint64_t>& addresses, std::uint32_t pin_sm);
std::vector<float> line_latency_every_sm(const std::vector<std::uint64_t>& addresses);
// The addresses of `lines` lines of `line_bytes` from `base`.
std::vector<std::uint64_t> line_addresses(std::uint64_t base, std::uint32_t lines, std::uint32_t line_bytes);

}  // namespace archbench
