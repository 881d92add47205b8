// The data-integrity screen's kernels (kernels/integrity.cu): DRAM patterns over a buffer, checked
// FP32 and tensor-core loads that every SM computes identically, shared-memory and L1 patterns per
// SM. Each kernel compares what it reads or computes with what it must be, and a mismatch is recorded
// with the SM (%smid), lane and place where it was found: the screen names where data went wrong,
// where a memory test or a checked GEMM says only pass or fail.
#pragma once
#include <cstddef>
#include <cstdint>

namespace archbench {

// One value that read back (or computed) other than it must have.
struct IntegrityMismatch {
  std::uint32_t sm = 0;     // %smid of the thread that read (DRAM) or computed it
  std::uint32_t lane = 0;   // %laneid
  std::uint32_t warp = 0;   // the warp within its block
  std::uint32_t pass = 0;   // the pattern or launch that found it
  std::uint64_t where = 0;  // DRAM, shared memory, L1: byte offset in the buffer (the block's region);
                            // FFMA: the thread's result index; mma: (tile << 16) | (row << 8) | column
  std::uint32_t expected = 0;
  std::uint32_t found = 0;
};

// A screen's launches share one log: it counts every mismatch and keeps the first kMaxKeptMismatches.
inline constexpr int kMaxKeptMismatches = 32;
struct MismatchLog {
  unsigned long long count;
  IntegrityMismatch kept[kMaxKeptMismatches];
};

// A word's value under a pattern: `solid` is `seed` everywhere; `address` is the word's index in
// the buffer folded to 32 bits, XOR `seed` (address-in-address: an address line stuck or coupled
// makes two words alias, and one of them reads the other's index).
enum class WordPattern : std::uint32_t { solid = 0, address = 1 };
struct Pattern {
  WordPattern kind;
  std::uint32_t seed;
};

// A test-only plant (ARCHBENCH_INTEGRITY_PLANT): the result of `lane` of warp 0 on SM `sm` gets its
// lowest bit flipped before the comparison. sm < 0: none.
struct ComputePlant {
  int sm = -1;
  int lane = 0;
};

// DRAM. `words` 32-bit words at `buffer` (a multiple of 4). Writes `p` everywhere.
void integrity_dram_fill(std::uint32_t* buffer, std::size_t words, Pattern p, bool descending, int blocks);
// Checks every word against `expect` and, unless `then_write` is null, writes `*then_write` into it
// (a moving-inversion step: read, compare, write the complement, in one pass). Appends to `log`
// (device memory, its count zeroed by the caller), `pass` naming the step.
void integrity_dram_check(std::uint32_t* buffer, std::size_t words, Pattern expect, const Pattern* then_write,
                          bool descending, int blocks, std::uint32_t pass, MismatchLog* log);

// The checked FP32 load: `blocks` x `threads` threads each run kFfmaChains chains x <- fma(x, x, -c)
// (chaotic: most wrong bits grow) for `iterations` steps (a multiple of kFfmaFold) from `seeds`
// (threads x kFfmaChains, the same for every block). Every kFfmaFold-th step's bits are added into
// the chain's signature, so that an error the map erases (a sign, a low bit lost in rounding) is
// still seen; the result is the last value's bits XOR the signature, compared with `reference`
// (the host's, the same layout). `sm_of_block` (blocks) receives each block's SM.
inline constexpr int kFfmaChains = 8;
inline constexpr int kFfmaFold = 4;
void integrity_ffma(const float* seeds, const float* c_of_thread, const std::uint32_t* reference, int blocks, int threads,
                    int iterations, std::uint32_t pass, ComputePlant plant, std::uint32_t* sm_of_block,
                    MismatchLog* log);
// Host reference of one thread's chains (the same fused multiply-adds, IEEE round to nearest, and
// the same signature): kFfmaChains results, as the kernel's bits.
void integrity_ffma_reference(const float* seeds, float c, int iterations, std::uint32_t* out);

// The kernels' resident blocks per SM at `threads` (and `smem_bytes` of dynamic shared memory):
// a grid of that many blocks per SM is one full wave, which puts blocks on every SM.
enum class IntegrityKernel { dram_fill, dram_check, ffma, mma, smem, l1 };
int integrity_blocks_per_sm(IntegrityKernel kernel, int threads, std::size_t smem_bytes = 0);

// The checked tensor-core load: every warp runs kMmaAccumulators independent accumulations of
// mma.sync m16n8k16 (FP16 inputs, FP32 accumulators) of its tile pair, `iterations` times. The
// inputs are small integers, so every sum is exact whatever the order and the result is known:
// C0 + iterations x (A B). `a_frag` holds each tile's A fragments (tiles x 32 lanes x 4 registers
// of two halves), `b_frag` its B fragments (tiles x 32 x 2), `reference` its exact results (tiles x
// 32 x 4: one accumulator's; accumulator j adds j). A warp takes tile warp % tiles.
inline constexpr int kMmaAccumulators = 4;
void integrity_mma(const std::uint32_t* a_frag, const std::uint32_t* b_frag, const float* reference, int tiles,
                   int blocks, int warps_per_block, int iterations, std::uint32_t pass, ComputePlant plant,
                   std::uint32_t* sm_of_block, MismatchLog* log);

// Shared memory: one block per SM, each with `smem_bytes` of dynamic shared memory, runs `rounds`
// rounds of moving inversions over it (address-in-address, then solid patterns), each thread
// checking words another warp wrote.
void integrity_smem(int blocks, int threads, std::uint32_t smem_bytes, int rounds, std::uint32_t pass,
                    std::uint32_t* sm_of_block, MismatchLog* log);
// L1: each block reads its `region_bytes` of `buffer` (filled with Pattern{address, seed} over
// the whole buffer) `rounds` times through the L1 (ld.ca), checking every word.
void integrity_l1(const std::uint32_t* buffer, std::uint32_t region_bytes, std::uint32_t seed, int blocks,
                  int threads, int rounds, std::uint32_t pass, std::uint32_t* sm_of_block, MismatchLog* log);

// Host side of a word's pattern (the kernels' own rule).
std::uint32_t integrity_word(Pattern p, std::uint64_t index);

}  // namespace archbench
