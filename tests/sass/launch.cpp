// SASS checks: the programmatic-dependent-launch stamps.
#include "sass_common.hpp"

TEST(Sass, PdlStampKernelsWaitForTheGridBeforeTheirStamp) {
  int pdl = 0, plain = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("stamp_kernel") == std::string::npos) continue;
    const bool is_pdl = f.name.find("ELb1E") != std::string::npos;
    bool waits = false;
    for (const auto& op : f.opcodes) waits = waits || op.rfind("ACQBULK", 0) == 0;
    EXPECT_EQ(waits, is_pdl) << f.name << ": griddepcontrol.wait (ACQBULK) in the pdl kernel only";
    (is_pdl ? pdl : plain)++;
  }
  EXPECT_EQ(pdl, 5) << "one pdl kernel per parameter size";
  EXPECT_EQ(plain, 5) << "one per parameter size";
}
