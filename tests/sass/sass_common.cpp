#include "sass_common.hpp"

namespace {

std::string run(const std::string& cmd) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
  return out;
}

std::vector<Function> parse_sass(const std::string& text) {
  std::vector<Function> fns;
  std::string arch;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (auto p = line.find("code for sm_"); p != std::string::npos) {
      arch = line.substr(p + 9);
      arch = arch.substr(0, arch.find_first_of(" \t\r"));
    } else if (auto f = line.find("Function : "); f != std::string::npos) {
      fns.push_back({arch, line.substr(f + 11), {}, {}, {}});
    } else if (!fns.empty() && line.find("/*") != std::string::npos && line.find("*/") != std::string::npos) {
      // "        /*00f0*/                   LDG.E.STRONG.SM R21, desc[UR6][R2.64] ;"
      const auto end_addr = line.find("*/");
      std::istringstream ins(line.substr(end_addr + 2));
      std::string tok;
      ins >> tok;
      if (!tok.empty() && tok[0] == '@') ins >> tok;
      if (!tok.empty() && tok[0] != '/') {
        fns.back().opcodes.push_back(tok);
        fns.back().text.push_back(line.substr(end_addr + 2));
        fns.back().address.push_back(std::strtol(line.c_str() + line.find("/*") + 2, nullptr, 16));
      }
    }
  }
  return fns;
}

}  // namespace

std::vector<Function>& sass() {
  static std::vector<Function> fns =
      parse_sass(run(std::string("\"") + ARCHBENCH_CUOBJDUMP + "\" -sass \"" + ARCHBENCH_BINARY + "\" 2>&1"));
  return fns;
}

bool is_sm90(const Function& f) { return f.arch.rfind("sm_90", 0) == 0; }

std::vector<const Function*> kernels(const std::string& kernel, const std::string& tag) {
  std::vector<const Function*> out;
  for (const Function& f : sass())
    if (is_sm90(f) && f.name.find(kernel) != std::string::npos && f.name.find(tag) != std::string::npos)
      out.push_back(&f);
  return out;
}

std::map<std::string, int> loads(const Function& f) {
  std::map<std::string, int> m;
  for (const std::string& op : f.opcodes)
    if (op.rfind("LDG", 0) == 0 || op.rfind("LD.", 0) == 0 || op == "LD") ++m[op];
  return m;
}

std::vector<std::string> timed_opcodes(const Function& f) {
  std::vector<std::string> out;
  int clocks = 0;
  for (std::size_t i = 0; i < f.opcodes.size(); ++i) {
    if (f.opcodes[i] == "CS2R" && f.text[i].find("SR_CLOCKLO") != std::string::npos)
      ++clocks;
    else if (clocks == 1)
      out.push_back(f.opcodes[i]);
  }
  return clocks == 2 ? out : std::vector<std::string>{};
}

int expect_whole_passes_of_wide_shared_accesses(const std::string& kernel, const std::string& opcode, int per_pass) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find(kernel) == std::string::npos) continue;
    int width = 0;
    EXPECT_EQ(std::sscanf(f.name.c_str() + f.name.find("ILi"), "ILi%dE", &width), 1) << f.name;
    const std::string wide = opcode + (width == 16 ? ".128" : width == 8 ? ".64" : "");
    int n = 0;
    for (const auto& op : timed_opcodes(f)) n += op == wide;
    EXPECT_GE(n, per_pass) << f.name << ": " << wide;
    EXPECT_EQ(n % per_pass, 0) << f.name << ": " << wide << " merged or dropped";
    ++checked;
  }
  return checked;
}

int count_prefix(const Function& f, const std::string& prefix) {
  int n = 0;
  for (const auto& op : f.opcodes) n += op.rfind(prefix, 0) == 0;
  return n;
}

int count_opcode(const Function& f, const std::string& opcode) {
  int n = 0;
  for (const auto& op : f.opcodes) n += op == opcode;
  return n;
}
