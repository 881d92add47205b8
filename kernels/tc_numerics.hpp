// Host side of the tensor-core numerics kernels (kernels/tc_numerics.cu): one mma.sync of a
// chosen input type over test vectors, for analysis/tc_numerics.cpp's inference.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace archbench {

// The instructions whose arithmetic the suite finds: one mma.sync shape per input type.
struct TcNumericsOp {
  const char* dtype;  // f16 bf16 tf32 e4m3 e5m2 s8 f64 (analysis/tc_numerics.hpp's tc_format)
  const char* ptx;
  int k;       // products per dot product
  int min_cc;  // 10 x major + minor
  const char* sass;  // the tensor instruction the sm_90 kernel holds (tests/sass/tensor.cpp) ...
  int sass_count;    // ... this many times: 2 where sm_90 has no such instruction (fp8)
  const char* note;  // what the instruction is on sm_90 where it is not one of its own
};
const std::vector<TcNumericsOp>& tc_numerics_ops();

// One mma.sync of `dtype` by one warp, every row of A holding a and every column of B holding b
// (k values, each exact in the type), every element of C holding c: returns D's element after
// checking that all of D (every lane's every register) holds the same (SelfCheckError otherwise).
double run_mma_numerics(const std::string& dtype, const std::vector<double>& a, const std::vector<double>& b, double c);

// The same for wgmma.mma_async m64n8k* (sm_90a): one shape per input type but f64, whose sm_90
// instructions are Hopper's own (fp8 among them, which mma.sync only emulates there).
const std::vector<TcNumericsOp>& tc_numerics_wgmma_ops();
double run_wgmma_numerics(const std::string& dtype, const std::vector<double>& a, const std::vector<double>& b, double c);
// kernels/tc_numerics_wgmma.cu: one launch of op `op_index` of tc_numerics_wgmma_ops() on the A
// (64 x 32 bytes) and B (8 x 32 bytes) images, the accumulators starting at c_bits; every thread's
// four accumulators, raw.
std::vector<std::uint32_t> launch_wgmma_numerics(int op_index, const std::vector<std::uint8_t>& a_image,
                                                 const std::vector<std::uint8_t>& b_image, std::uint32_t c_bits);

}  // namespace archbench
