#include "core/name_registry.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace simrun {
namespace {

using Maker = std::function<int()>;

NameRegistry<Maker> numbers() {
  return NameRegistry<Maker>("number", {{"one", [] { return 1; }}, {"two", [] { return 2; }}});
}

std::string error_for(const NameRegistry<Maker>& registry, const std::string& name) {
  try {
    registry.find(name);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(NameRegistry, FindsEachRegisteredNameInOrder) {
  const auto registry = numbers();
  EXPECT_EQ(registry.find("one")(), 1);
  EXPECT_EQ(registry.find("two")(), 2);
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"one", "two"}));
}

TEST(NameRegistry, UnknownNameListsTheAlternativesAndSuggestsATypo) {
  EXPECT_EQ(error_for(numbers(), "tow"),
            "unknown number 'tow' (available: one, two); did you mean 'two'?");
}

TEST(NameRegistry, NoSuggestionForANameFarFromEvery) {
  EXPECT_EQ(error_for(numbers(), "seventeen"), "unknown number 'seventeen' (available: one, two)");
}

}  // namespace
}  // namespace simrun
