// Writes a stride chain (fixtures/harness/chase_builder.hpp, stride_chain) straight into device memory,
// so that a chase over hundreds of MB is not built and copied from the host (0.4 s per array of
// 4x an H200's L2: a third of a full run's MemLatency). Set-up only: nothing here is timed, so it is not in
// any feature's method files (benchmarks/methods.json).
#pragma once
#include <cstddef>
#include <cstdint>

namespace archbench {

// The chain's elements are the 32-bit words 0, s, 2s, ..., (count - 1) s of a footprint of
// `words` words; each holds the next element, the last one the first; every other word is 0.
// Pointer form: the 8 bytes at word j hold the address of the next element (s must be even).
// Index form: word j holds the next element's index.
void fill_stride_chain_pointers(std::uint64_t* d, std::size_t words, std::size_t stride_words, std::size_t count);
void fill_stride_chain_indices(std::uint32_t* d, std::size_t words, std::size_t stride_words, std::size_t count);

}  // namespace archbench
