// The SASS checks' shared parts: the built binary's SASS (cuobjdump -sass), parsed into functions,
// and the helpers more than one feature's checks use. One file per feature beside this one; the
// checks hold each kernel to the instruction it claims to measure, in the expected count, so that
// nothing was folded, hoisted or turned into another instruction.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/shared/pipeline_ops.hpp"
#include "kernels/async_copy.hpp"
#include "kernels/bandwidth.hpp"
#include "kernels/energy.hpp"
#include "kernels/icache.hpp"
#include "kernels/pchase.hpp"
#include "kernels/pipeline.hpp"
#include "kernels/smem.hpp"
#include "kernels/sync.hpp"
#include "kernels/tc_numerics.hpp"
#include "kernels/tensor.hpp"

using archbench::kChainUnroll;

struct Function {
  std::string arch;                  // "sm_90"
  std::string name;                  // mangled
  std::vector<std::string> opcodes;  // first token of each instruction, predicate removed
  std::vector<std::string> text;     // the whole instruction, in the same order
  std::vector<long> address;         // its offset in the function
};

// Every function of the binary's SASS, parsed once.
std::vector<Function>& sass();
bool is_sm90(const Function& f);
// The sm_90 kernels whose mangled name holds `kernel` and `tag`.
std::vector<const Function*> kernels(const std::string& kernel, const std::string& tag);
// Global loads by opcode.
std::map<std::string, int> loads(const Function& f);
// The opcodes between the two clock reads (the timed passes), in order.
std::vector<std::string> timed_opcodes(const Function& f);
// The timed loop of a shared-memory kernel templated on its access width holds whole passes of
// `per_pass` accesses of that width; returns the kernels checked.
int expect_whole_passes_of_wide_shared_accesses(const std::string& kernel, const std::string& opcode, int per_pass);
// Instructions whose opcode starts with `prefix`.
int count_prefix(const Function& f, const std::string& prefix);
// Instructions of `f` whose opcode is exactly `opcode`.
int count_opcode(const Function& f, const std::string& opcode);
