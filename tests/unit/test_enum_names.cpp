// One table per enum, read both ways (kernels/shared/enum_names.hpp), and the tables the fixtures write
// with it: every value of each enum has its name, and each name reads back as its value.
#include <gtest/gtest.h>

#include "kernels/shared/atomics_check.hpp"
#include "kernels/shared/enum_names.hpp"
#include "fixtures/harness/p2p_links.hpp"
#include "kernels/shared/tensor_ops.hpp"

namespace archbench {
namespace {

enum class Colour { red, green, blue };
constexpr EnumName<Colour> kColours[] = {{Colour::red, "red"}, {Colour::green, "green"}};

TEST(EnumNames, ReadBothWaysWithAFallback) {
  EXPECT_STREQ(name_of(kColours, Colour::green), "green");
  EXPECT_STREQ(name_of(kColours, Colour::blue), "?");
  EXPECT_STREQ(name_of(kColours, Colour::blue, "none"), "none");
  EXPECT_EQ(value_named(kColours, "red"), Colour::red);
  EXPECT_FALSE(value_named(kColours, "blue").has_value());
  static_assert(name_of(kColours, Colour::red)[0] == 'r', "usable at compile time");
}

TEST(EnumNames, TheFixturesNamesAreTheSuitesNames) {
  // The names that benchmark names and counters carry: a change here renames results.
  EXPECT_STREQ(tensor_dtype_name(TensorDtype::e4m3), "e4m3");
  EXPECT_STREQ(tensor_fill_name(TensorFill::random), "random");
  EXPECT_STREQ(contention_name(Contention::near_l2), "near_l2");
  EXPECT_STREQ(link_type_name(LinkType::nvswitch), "nvswitch");
  EXPECT_STREQ(link_type_name(LinkType::unknown), "unknown");
}

}  // namespace
}  // namespace archbench
