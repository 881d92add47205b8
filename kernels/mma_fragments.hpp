// Where mma.sync m16n8k16's fragments sit (PTX ISA, "Matrix fragments for mma.m16n8k16", 16-bit
// types): the row and column of the matrix element that a lane holds in one of its halves (A: 8
// halves in 4 registers; B: 4 halves in 2) or one of its accumulators (C and D: 4). The integrity
// screen builds its inputs and its references from these, and names a wrong result by them.
#pragma once
#include "kernels/host_device.hpp"

namespace archbench {

struct RowCol {
  int row, col;
};
// A, 16 x 16 row-major: halves 0-1 row g, 2-3 row g + 8, 4-5 row g, 6-7 row g + 8 (g = lane / 4);
// columns 2 (lane % 4) and the next, 8 further for halves 4-7.
ARCHBENCH_HOST_DEVICE inline RowCol mma_a_element(int lane, int half) {
  return {lane / 4 + ((half / 2) % 2) * 8, (lane % 4) * 2 + half % 2 + (half / 4) * 8};
}
// B, 16 x 8 (k x n): halves 0-1 rows 2 (lane % 4) and the next, 2-3 eight further; column lane / 4.
ARCHBENCH_HOST_DEVICE inline RowCol mma_b_element(int lane, int half) {
  return {(lane % 4) * 2 + half % 2 + (half / 2) * 8, lane / 4};
}
// C and D, 16 x 8: registers 0-1 row lane / 4, 2-3 eight further; columns 2 (lane % 4) and the next.
ARCHBENCH_HOST_DEVICE inline RowCol mma_c_element(int lane, int reg) {
  return {lane / 4 + (reg / 2) * 8, (lane % 4) * 2 + reg % 2};
}

}  // namespace archbench
