#include "core/string_distance.hpp"

#include <gtest/gtest.h>

namespace simrun {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("", ""), 0);
  EXPECT_EQ(edit_distance("density", "density"), 0);
  EXPECT_EQ(edit_distance("densty", "density"), 1);    // deletion
  EXPECT_EQ(edit_distance("densitty", "density"), 1);  // insertion
  EXPECT_EQ(edit_distance("dansity", "density"), 1);   // substitution
  EXPECT_EQ(edit_distance("fats", "fast"), 1);         // adjacent swap
  EXPECT_EQ(edit_distance("abc", "xyz"), 3);
}

TEST(NearestName, SuggestsOnlyPlausibleTypos) {
  const std::vector<std::string> keys = {"dt", "steps", "density", "depth"};
  EXPECT_EQ(nearest_name("densty", keys), "density");
  EXPECT_EQ(nearest_name("depht", keys), "depth");
  EXPECT_EQ(nearest_name("stpes", keys), "steps");
  EXPECT_EQ(nearest_name("gravity", keys), "");
}

}  // namespace
}  // namespace simrun
