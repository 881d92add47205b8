// "16 KiB", "50 MiB", "1.5 MiB": byte counts in words, for messages, progress lines and plots.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>

namespace archbench {

inline std::string human_bytes(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 5) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  if (v == std::floor(v))
    std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  else
    std::snprintf(buf, sizeof buf, "%.3g %s", v, units[u]);
  return buf;
}

}  // namespace archbench
