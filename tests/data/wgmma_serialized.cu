// A wgmma loop that ptxas must patch (no wgmma.fence at the top of the loop, whose accumulators
// the previous iteration's wgmma still owns): it reports C7519 and injects warpgroup.arrive.
// tests/sass/wgmma_serialization_check.sh compiles it through the build's launcher, which must fail.
#include <cstdint>

__global__ void serialized_wgmma(std::uint64_t da, std::uint64_t db, std::uint32_t n, std::uint32_t* out) {
  std::uint32_t s;
  asm volatile(
      "{\n.reg .b32 d<4>;\n.reg .b32 it;\n.reg .pred p;\n"
      "mov.b32 it, %3;\nsetp.ne.b32 p, it, 0;\nwgmma.fence.sync.aligned;\n"
      "loop:\nwgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {d0, d1, d2, d3}, %1, %2, p, 1, 1, 0, 0;\n"
      "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 1;\n"
      "sub.u32 it, it, 1;\nsetp.ne.u32 p, it, 0;\n@p bra loop;\n"
      "wgmma.wait_group.sync.aligned 0;\nadd.f32 %0, d0, d1;\n}\n"
      : "=r"(s)
      : "l"(da), "l"(db), "r"(n));
  *out = s;
}
