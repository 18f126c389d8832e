#include <gtest/gtest.h>

#include "core/error.hpp"
#include "integrate/integrator.hpp"

namespace simrun {
namespace {

TEST(IntegratorRegistry, EveryIssueIntegratorIsConstructibleByName) {
  for (const char* name :
       {"fe", "rk4", "symplectic_euler", "verlet", "si", "be", "im", "trapezoidal", "bdf2", "sbdf2",
        "tr_bdf2", "sdirk2", "newmark", "generalized_alpha"}) {
    const auto integrator = make_integrator(name, IntegratorSettings{});
    ASSERT_NE(integrator, nullptr) << name;
    EXPECT_EQ(integrator->name(), name);
  }
}

TEST(IntegratorRegistry, UnknownNameSuggestsTheNearestOne) {
  try {
    make_integrator("tr_bdf", IntegratorSettings{});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'tr_bdf2'"), std::string::npos) << e.what();
  }
}

TEST(IntegratorRegistry, GeneralizedAlphaRejectsRhoOutsideUnitInterval) {
  IntegratorSettings s;
  s.rho_inf = 1.5;
  EXPECT_THROW(make_integrator("generalized_alpha", s), InputError);
}

}  // namespace
}  // namespace simrun
