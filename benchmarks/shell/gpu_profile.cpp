#include "benchmarks/shell/gpu_profile.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>
#if ARCHBENCH_HAVE_ZLIB
#include <zlib.h>
#endif

namespace archbench {
namespace {

// The file's text; a gzip file (most committed runs are .json.gz) is inflated.
std::string read_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(path + ": a directory, not a result file");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read: " + (errno ? std::strerror(errno) : "unknown reason"));
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (raw.size() < 2 || static_cast<unsigned char>(raw[0]) != 0x1f || static_cast<unsigned char>(raw[1]) != 0x8b)
    return raw;
#if ARCHBENCH_HAVE_ZLIB
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) throw std::runtime_error(path + ": cannot read");
  std::string text;
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(gz, buf, sizeof buf)) > 0) text.append(buf, std::size_t(n));
  const bool ok = n == 0;
  gzclose(gz);
  if (!ok) throw std::runtime_error(path + ": a damaged gzip file");
  return text;
#else
  throw std::runtime_error(path +
                           ": a gzip file, and this build has no zlib (install zlib1g-dev and rebuild, or gunzip it)");
#endif
}

}  // namespace

GpuInfo gpu_info_from_result(const std::string& path) {
  const nlohmann::json doc = nlohmann::json::parse(read_text(path), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) throw std::runtime_error(path + ": not valid JSON");
  if (!doc.is_object() || !doc.contains("context") || !doc["context"].is_object())
    throw std::runtime_error(path + ": not an archbench result (no 'context' object)");
  const nlohmann::json& ctx = doc["context"];
  // Google Benchmark's custom context values are strings.
  const auto text = [&](const char* key) -> std::string {
    const std::string k = std::string("gpu_") + key;
    if (!ctx.contains(k) || !ctx[k].is_string()) throw std::runtime_error(path + ": its context lacks '" + k + "'");
    return ctx[k].get<std::string>();
  };
  const auto number = [&](const char* key) -> double {
    const std::string v = text(key);
    try {
      return std::stod(v);
    } catch (const std::exception&) {
      throw std::runtime_error(path + ": context 'gpu_" + std::string(key) + "' is not a number ('" + v + "')");
    }
  };
  GpuInfo i;
  i.name = text("name");
  i.uuid = text("uuid");
  const std::string cc = text("compute_capability");
  const auto dot = cc.find('.');
  if (dot == std::string::npos) throw std::runtime_error(path + ": compute capability '" + cc + "' is not M.m");
  i.cc_major = std::stoi(cc.substr(0, dot));
  i.cc_minor = std::stoi(cc.substr(dot + 1));
  i.sm_count = int(number("sm_count"));
  i.max_sm_clock_mhz = number("max_sm_clock_mhz");
  i.mem_clock_mhz = number("mem_clock_mhz");
  i.bus_width_bits = int(number("mem_bus_width_bits"));
  i.dram_peak_bytes_per_s = number("dram_peak_bytes_per_second");
  i.total_mem_bytes = std::size_t(number("total_mem_bytes"));
  i.l2_bytes = std::size_t(number("l2_bytes"));
  i.max_persisting_l2_bytes = std::size_t(number("max_persisting_l2_bytes"));
  i.smem_per_sm_bytes = std::size_t(number("smem_per_sm_bytes"));
  i.smem_per_block_bytes = std::size_t(number("smem_per_block_bytes"));
  i.smem_per_block_optin_bytes = std::size_t(number("smem_per_block_optin_bytes"));
  i.reserved_smem_per_block_bytes = std::size_t(number("reserved_smem_per_block_bytes"));
  i.max_threads_per_sm = int(number("max_threads_per_sm"));
  i.max_blocks_per_sm = int(number("max_blocks_per_sm"));
  i.regs_per_sm = int(number("regs_per_sm"));
  const int warps = int(number("max_warps_per_sm"));
  i.warp_size = warps > 0 ? i.max_threads_per_sm / warps : 32;
  i.ecc = text("ecc_enabled") == "true";
  i.driver_version = int(number("cuda_driver_api_version"));
  i.runtime_version = int(number("cuda_runtime_version"));
  if (i.sm_count <= 0 || i.l2_bytes == 0 || i.smem_per_sm_bytes == 0)
    throw std::runtime_error(path + ": its context describes no usable GPU (SMs, L2 or shared memory 0)");
  return i;
}

}  // namespace archbench
