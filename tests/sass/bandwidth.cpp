// SASS checks: the bandwidth kernels, each cache operator at every width; the stream and reference kernels.
#include <algorithm>

#include "sass_common.hpp"

// --- Bandwidth kernels: bandwidth_kernel<Kind, Ld, St, width>

namespace {

// The SASS each PTX cache operator becomes on sm_90 (the hint moves around the width suffix).
std::string expected_load(const std::string& op, int width) {
  const std::string w = width == 16 ? ".128" : width == 8 ? ".64" : "";
  if (op == "LdDefault") return "LDG.E" + w;
  if (op == "LdCa") return "LDG.E" + w + ".STRONG.SM";
  if (op == "LdCg") return "LDG.E" + w + ".STRONG.GPU";
  if (op == "LdCv") return "LDG.E" + w + ".STRONG.SYS";
  if (op == "LdNc") return "LDG.E" + w + ".CONSTANT";
  if (op == "LdCs") return "LDG.E.EF" + w;
  if (op == "LdLu") return "LDG.E.LU" + w;
  if (op == "LdNa") return "LDG.E.NA" + w;
  if (op == "LdEvictLast") return "LDG.E" + w;  // the policy rides in the descriptor (below)
  return "?";
}
std::string expected_store(const std::string& op, int width) {
  const std::string w = width == 16 ? ".128" : width == 8 ? ".64" : "";
  if (op == "StDefault") return "STG.E" + w;
  if (op == "StWb") return "STG.E" + w + ".STRONG.SM";
  if (op == "StCg") return "STG.E" + w + ".STRONG.GPU";
  if (op == "StWt") return "STG.E" + w + ".STRONG.SYS";
  if (op == "StCs") return "STG.E.EF" + w;
  if (op == "StNa") return "STG.E.NA" + w;
  return "?";
}

// Global loads whose memory descriptor the kernel builds itself rather than loading the
// default one from the constant bank (ULDC.64 URn, c[0x0][0x208]): an L2 cache policy
// (createpolicy + .L2::cache_hint) travels in the descriptor, the opcode stays LDG.E.
int loads_with_own_descriptor(const Function& f) {
  static const std::regex desc(R"(desc\[(UR\d+)\])");
  int own = 0;
  for (std::size_t i = 0; i < f.text.size(); ++i) {
    std::smatch m;
    if (f.opcodes[i].rfind("LDG", 0) != 0 || !std::regex_search(f.text[i], m, desc)) continue;
    const std::string ur = m[1].str();
    for (std::size_t j = i; j-- > 0;) {  // the last instruction before it that writes that register
      std::istringstream ins(f.text[j]);
      std::string op, first;
      ins >> op;
      if (!op.empty() && op[0] == '@') ins >> op;
      ins >> first;
      if (first != ur + ",") continue;
      own += f.text[j].find("c[0x0][0x208]") == std::string::npos;
      break;
    }
  }
  return own;
}

// The most global loads in the timed window that are issued, one after another, before any
// instruction reads a register one of them loads (each load writes regs_per_load registers):
// how many accesses a thread has in flight.
int loads_in_flight(const Function& f, int regs_per_load) {
  int clocks = 0, run = 0, most = 0;
  std::set<int> pending;
  const std::regex reg(R"(\bR(\d+)\b)");
  for (std::size_t i = 0; i < f.opcodes.size(); ++i) {
    if (f.opcodes[i] == "CS2R" && f.text[i].find("SR_CLOCKLO") != std::string::npos) {
      ++clocks;
      continue;
    }
    if (clocks != 1) continue;
    std::string operands = f.text[i].substr(f.text[i].find(f.opcodes[i]) + f.opcodes[i].size());
    std::vector<int> regs;
    for (std::sregex_iterator it(operands.begin(), operands.end(), reg), end; it != end; ++it)
      regs.push_back(std::stoi((*it)[1]));
    if (f.opcodes[i].rfind("LDG", 0) == 0 && !regs.empty()) {
      for (int r = regs[0]; r < regs[0] + regs_per_load; ++r) pending.insert(r);
      most = std::max(most, ++run);
      continue;
    }
    for (std::size_t k = 1; k < regs.size(); ++k)  // the sources (the first register is written)
      if (pending.count(regs[k])) {
        pending.clear();
        run = 0;
        break;
      }
  }
  return most;
}

}  // namespace

// A tag type in a mangled name, "NS1_<length><name>", from pos on (pos moves past it).
std::string next_tag(const std::string& name, std::size_t& pos) {
  pos = name.find("NS1_", pos) + 4;
  std::size_t len = 0;
  while (std::isdigit(static_cast<unsigned char>(name[pos]))) len = len * 10 + (name[pos++] - '0');
  pos += len;
  return name.substr(pos - len, len);
}

TEST(Sass, BandwidthKernelsUseTheNamedCacheOperatorAtEveryWidth) {
  int checked = 0, pinned = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("dev2bw16bandwidth_kernel") == std::string::npos) continue;
    // _ZN9archbench3dev2bw16bandwidth_kernelILNS1_4KindE2ENS1_4LdCgENS1_4StCgELi16ELi4ELb0EEEv...
    const auto k = f.name.find("KindE");
    ASSERT_NE(k, std::string::npos) << f.name;
    std::size_t pos = k + 5;
    const int kind = f.name[pos] - '0';
    pos += 2;  // digit, 'E'
    const std::string ld = next_tag(f.name, pos), st = next_tag(f.name, pos);
    int width = 0, unroll = 0, is_pinned = 0;
    ASSERT_EQ(std::sscanf(f.name.c_str() + pos, "ELi%dELi%dELb%dE", &width, &unroll, &is_pinned), 3) << f.name;
    const bool loads = kind != 1, stores = kind != 0;  // Kind: read, write, copy, rmw
    const auto ops = timed_opcodes(f);
    ASSERT_FALSE(ops.empty()) << f.name;
    int n_load = 0, n_store = 0, other_global = 0;
    for (const auto& op : ops) {
      if (loads && op == expected_load(ld, width))
        ++n_load;
      else if (stores && op == expected_store(st, width))
        ++n_store;
      else if (op.rfind("LDG", 0) == 0 || op.rfind("STG", 0) == 0)
        ++other_global;
    }
    // `unroll` accesses of each kind in the loop and `unroll - 1` predicated ones in the slice's
    // last, partial group (never a loop of single accesses: the group has fewer than `unroll`);
    // the fold's STG.E.64 for the self-check is the only other global access in the window (it
    // may share the store's opcode).
    EXPECT_EQ(n_load, loads ? 2 * unroll - 1 : 0) << f.name << ": " << expected_load(ld, width);
    const bool check_matches = expected_store(st, width) == "STG.E.64" && stores;
    EXPECT_EQ(n_store, stores ? 2 * unroll - 1 + (check_matches ? 1 : 0) : 0)
        << f.name << ": " << expected_store(st, width);
    EXPECT_EQ(other_global, check_matches ? 0 : 1) << f.name;
    // `unroll` loads in flight per thread, as bytes_in_flight_per_sm claims (at 4 and 8 B ptxas
    // once scheduled a fold before the 4th load: DRAM reads a quarter slower). Unroll 8 at 16 B
    // holds its 32 value registers within the 64 a 1024-thread block allows by folding one
    // early: 7 in flight.
    if (loads && kind == 0) {
      const int want = unroll * width / 4 >= 32 ? unroll - 1 : unroll;
      EXPECT_GE(loads_in_flight(f, width / 4), want) << f.name << ": loads in flight";
    }
    ++checked;
    pinned += is_pinned;  // the instantiation for chosen SMs times the same loop
  }
  // Every variant x width at unroll 4, plus the DRAM tuning's other unrolls at 16 B.
  EXPECT_GE(checked - pinned, int(archbench::bw_variants().size()) * 3) << "every variant x width";
  EXPECT_EQ(pinned, 5) << "the five shape variants at 16 B, for chosen SMs";
  EXPECT_EQ(archbench::bw_variants().size(), 18u);
}

// The dynamic-distribution, shared-data and line-list kernels: every global access in the timed
// window is the named operator at 16 B (besides the ticket atomics, the list reads from shared
// memory, the claimed-work count and the fold), `unroll` or a multiple of them in flight.
TEST(Sass, BandwidthDynamicSharedAndLineKernelsUseTheNamedOperator) {
  int dynamic = 0, shared = 0, lines = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("dev2bw") == std::string::npos) continue;
    const bool by_block = f.name.find("bandwidth_block_dynamic_kernel") != std::string::npos;
    const bool is_dynamic = by_block || f.name.find("bandwidth_dynamic_kernel") != std::string::npos;
    const bool is_shared = f.name.find("bandwidth_shared_kernel") != std::string::npos;
    const bool is_lines = f.name.find("bandwidth_lines_kernel") != std::string::npos;
    if (!is_dynamic && !is_shared && !is_lines) continue;
    std::size_t pos = 0;
    int kind = 0;
    if (is_dynamic) {
      pos = f.name.find("KindE") + 5;
      kind = f.name[pos] - '0';
      pos += 2;
    }
    const std::string ld = next_tag(f.name, pos);
    const std::string st = is_dynamic ? next_tag(f.name, pos) : "";
    int width = 16, unroll = 0;
    if (is_lines)
      ASSERT_EQ(std::sscanf(f.name.c_str() + pos, "ELi%dE", &unroll), 1) << f.name;
    else
      ASSERT_EQ(std::sscanf(f.name.c_str() + pos, "ELi%dELi%dE", &width, &unroll), 2) << f.name;
    const bool loads = kind != 1, stores = is_dynamic && kind != 0;
    const auto ops = timed_opcodes(f);
    ASSERT_FALSE(ops.empty()) << f.name;
    int n_load = 0, n_store = 0, atomics = 0, lds = 0, other_global = 0;
    for (const auto& op : ops) {
      if (loads && op == expected_load(ld, width))
        ++n_load;
      else if (stores && op == expected_store(st, width))
        ++n_store;
      else if (op.rfind("ATOMG", 0) == 0)
        ++atomics;
      else if (op == "LDS")
        ++lds;
      else if (op == "STG.E" || op == "STG.E.64")
        continue;  // claimed work, the fold
      else if (op.rfind("LDG", 0) == 0 || op.rfind("STG", 0) == 0)
        ++other_global;
    }
    EXPECT_EQ(other_global, 0) << f.name;
    if (loads) {
      EXPECT_TRUE(n_load >= unroll && n_load % unroll == 0) << f.name << ": " << n_load << " loads";
    }
    if (stores) {
      EXPECT_TRUE(n_store >= unroll && n_store % unroll == 0) << f.name << ": " << n_store << " stores";
    }
    // A warp claims its first ticket and the next (ahead) in the window; a block its first before it.
    EXPECT_EQ(atomics, is_dynamic ? (by_block ? 1 : 2) : 0) << f.name << ": tickets claimed in the timed window";
    if (is_lines) {
      EXPECT_EQ(lds, unroll) << f.name << ": one list read per access";
    }
    dynamic += is_dynamic;
    shared += is_shared;
    lines += is_lines;
  }
  EXPECT_GE(dynamic, 15 + 8);  // by warps, and by blocks
  EXPECT_EQ(shared, 3);
  EXPECT_EQ(lines, 3);
}

// The grid-order kernels: each thread's `unroll` accesses are the named operator at 16 B, each
// exactly once (no pass loop), and the only other global operations are the per-SM timing
// atomics (minimum start, maximum end: two each) and, for a read, the fold's conditional store.
TEST(Sass, BandwidthGridOrderKernelsMakeEachAccessOnce) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("bandwidth_grid_kernel") == std::string::npos) continue;
    std::size_t pos = f.name.find("KindE") + 5;
    const int kind = f.name[pos] - '0';
    pos += 2;
    const std::string ld = next_tag(f.name, pos);
    const std::string st = next_tag(f.name, pos);
    int width = 0, unroll = 0;
    ASSERT_EQ(std::sscanf(f.name.c_str() + pos, "ELi%dELi%dE", &width, &unroll), 2) << f.name;
    const bool loads = kind != 1, stores = kind != 0;
    int n_load = 0, n_store = 0, atomics = 0, other_global = 0;
    for (const auto& op : f.opcodes) {
      if (loads && op == expected_load(ld, width))
        ++n_load;
      else if (stores && op == expected_store(st, width))
        ++n_store;
      else if (op.rfind("ATOMG", 0) == 0 || op.rfind("RED", 0) == 0)
        ++atomics;
      else if (!stores && op == "STG.E.64")
        continue;  // a read's fold, stored only on the marker
      else if (op.rfind("LDG", 0) == 0 || op.rfind("STG", 0) == 0)
        ++other_global;
    }
    EXPECT_EQ(n_load, loads ? unroll : 0) << f.name << ": " << expected_load(ld, width);
    if (ld == "LdEvictLast") {
      EXPECT_EQ(loads_with_own_descriptor(f), unroll) << f.name << ": the L2 policy";
    }
    EXPECT_EQ(n_store, stores ? unroll : 0) << f.name << ": " << expected_store(st, width);
    EXPECT_EQ(atomics, 4) << f.name << ": the timing atomics";
    EXPECT_EQ(other_global, 0) << f.name;
    ++checked;
  }
  // read ld.nc (unroll 1, 2, 4 and 8), write st and st.cs, copy ld+st, ld.cg+st.cg and
  // ld.evict_last+st (unroll 1 and 2)
  EXPECT_EQ(checked, 14);
}

// The L1 read kernel: its timed window holds whole passes of kSmemReadsPerThreadPerPass loads of
// the named operator at its width (none merged: a thread's addresses in a pass differ) and no
// other global access but the fold's store.
TEST(Sass, L1BandwidthKernelMakesEveryLoadOfAPass) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("l1_read_kernel") == std::string::npos) continue;
    std::size_t pos = f.name.find("l1_read_kernel");
    const std::string ld = next_tag(f.name, pos);
    int width = 0;
    ASSERT_EQ(std::sscanf(f.name.c_str() + pos, "ELi%dE", &width), 1) << f.name;
    int n = 0, other_global = 0;
    for (const auto& op : timed_opcodes(f)) {
      if (op == expected_load(ld, width))
        ++n;
      else if (op == "STG.E.64")
        continue;  // the fold, stored before the end clock (warp_clock_stop)
      else if (op.rfind("LDG", 0) == 0 || op.rfind("STG", 0) == 0)
        ++other_global;
    }
    // Exactly one pass's loads: an unrolled pass loop kept one load of each address for 4 passes
    // (a multiple of 8 loads, the L1 read 4x its limit).
    EXPECT_EQ(n, archbench::kSmemReadsPerThreadPerPass) << f.name << ": " << expected_load(ld, width);
    EXPECT_EQ(other_global, 0) << f.name;
    ++checked;
  }
  EXPECT_EQ(checked, 9);  // ld, ld.ca and ld.nc at 4, 8 and 16 B
}

TEST(Sass, SharedMemoryBandwidthKernelUsesWideLds) {
  EXPECT_EQ(
      expect_whole_passes_of_wide_shared_accesses("smem_read_kernel", "LDS", archbench::kSmemReadsPerThreadPerPass), 3);
}

TEST(Sass, StreamReadIsOneWideL2LoadPerElement) {
  const auto fns = kernels("stream_read_kernel", "");
  for (const Function* f : fns) {
    const int wide_cg = count_opcode(*f, "LDG.E.128.STRONG.GPU");
    EXPECT_GE(wide_cg, 1) << f->name << ": 16-byte ld.global.cg loads (the census reads every slice and channel)";
    EXPECT_EQ(count_prefix(*f, "LDG"), wide_cg) << f->name << ": no other load";
  }
  EXPECT_EQ(fns.size(), 1u);
}

TEST(Sass, ReferenceStoreKernelIsOneEightByteStorePerElement) {
  // Bandwidth's reference row: the store loop a user writes, one 8-byte store per element, no load.
  const auto fns = kernels("reference_store_kernel", "");
  for (const Function* f : fns) {
    EXPECT_GE(count_opcode(*f, "STG.E.64"), 1) << f->name;
    EXPECT_EQ(count_prefix(*f, "LDG"), 0) << f->name;
  }
  EXPECT_EQ(fns.size(), 1u);
}
