// Host interface of the HostLink kernels (kernels/hostlink.cu): a word pattern written and
// checked on the device, in device memory or in mapped host memory.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace archbench {

// The word at index i of a buffer filled with `seed`.
inline std::uint32_t pattern_word(std::size_t i, std::uint32_t seed) {
  return static_cast<std::uint32_t>(i * 2654435761u) ^ seed;
}
void fill_pattern(std::uint32_t* words, std::size_t count, std::uint32_t seed);
// Words that differ from the pattern (0: the buffer holds what fill_pattern would write).
std::uint64_t count_pattern_mismatches(const std::uint32_t* words, std::size_t count, std::uint32_t seed);

}  // namespace archbench
