// The numbers simrun prints in tables and messages: shortest round-trip doubles without "-0",
// times to 15 digits (t = n dt accumulates round-off that a person should not see), and
// counted nouns ("1 spring", "2 springs").
#include "io/number_format.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"

namespace simrun {
namespace {

TEST(NumberFormat, NegativeZeroIsWrittenAsZero) {
  EXPECT_EQ(format_double(-0.0), "0");
  EXPECT_EQ(format_double(0.0), "0");
  std::string row;
  append_double(row, -0.0);
  EXPECT_EQ(row, "0");
}

TEST(NumberFormat, DoublesRoundTripInTheirShortestForm) {
  EXPECT_EQ(format_double(0.1), "0.1");
  EXPECT_EQ(format_double(-2.5e-300), "-2.5e-300");
  const double awkward = 1.9999999999999793;  // 200 steps of 0.01 added up
  EXPECT_EQ(std::stod(format_double(awkward)), awkward);
}

TEST(NumberFormat, TimesHideTheRoundOffOfAddedUpSteps) {
  double t = 0.0;
  for (int i = 0; i < 200; ++i) t += 0.01;
  ASSERT_NE(t, 2.0);  // the sum really is off by a few ulps
  EXPECT_EQ(format_time(t), "2");
  EXPECT_EQ(format_time(0.0), "0");
  EXPECT_EQ(format_time(-0.0), "0");
  EXPECT_EQ(format_time(0.05), "0.05");
  EXPECT_EQ(format_time(1.0 / 3.0), "0.333333333333333");
}

TEST(NumberFormat, CountedNounsTakeTheSingularForOne) {
  EXPECT_EQ(plural(1, "spring"), "1 spring");
  EXPECT_EQ(plural(2, "spring"), "2 springs");
  EXPECT_EQ(plural(0, "spring"), "0 springs");
  EXPECT_EQ(plural(1, "vertex", "vertices"), "1 vertex");
  EXPECT_EQ(plural(3, "vertex", "vertices"), "3 vertices");
}

}  // namespace
}  // namespace simrun
