// Kharevych time adaptivity: the sigma rules' gradients (thesis Sec. 3.3.6)
// against central differences of their values, on a nonlinear mass-spring chain under gravity.
#include "integrate/adaptive_sigma.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "integrate/adaptive_systems.hpp"

namespace simrun {
namespace {

/// Relative error of `rule`'s gradient at x against central differences.
double gradient_error(SigmaRule& rule, Model& model, const VecX& x) {
  VecX g;
  rule.gradient(model, x, g);
  VecX fd(x.size());
  const double step = 1e-6;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    VecX plus = x, minus = x;
    plus[i] += step;
    minus[i] -= step;
    fd[i] = (rule.value(model, plus) - rule.value(model, minus)) / (2 * step);
  }
  return (g - fd).norm() / std::max(fd.norm(), 1e-30);
}

TEST(AdaptiveSigma, GradientsMatchCentralDifferences) {
  test::AdaptiveChain chain =
      test::adaptive_chain(4, 50.0, 1.0, Vec3::Zero(), Vec3::Zero(), Vec3(0, -9.81, 0));
  Model& model = *chain.model;
  // A random, strongly deformed configuration: springs stretched and compressed, so W, its
  // gradient and Hessian are all far from their rest values.
  std::srand(7);
  const VecX x = chain.initial.q + 0.2 * VecX::Random(chain.initial.q.size());
  const double w = model.potential_energy(x);
  for (const std::string& name : sigma_rule_names()) {
    AdaptiveSettings s;
    s.rule = name;
    s.c = 1.5;
    s.epsilon = 0.01;
    s.sigma_min = 0.02;
    s.energy_scale = 10.0 + std::abs(w);  // keeps W / scale + 1 > 0 under gravity
    auto rule = make_sigma_rule(s);
    rule->begin(w + 3.0);  // E_0 - W > 0: the equispaced rules' smooth branch
    const double value = rule->value(model, x);
    ASSERT_TRUE(std::isfinite(value)) << name;
    if (name == "constant") {
      EXPECT_EQ(value, 1.5);
      continue;
    }
    EXPECT_GT(value, s.sigma_min) << name;
    // Central differences at step 1e-6 on O(1) values: truncation ~1e-12 x third derivative,
    // round-off ~1e-16 / 1e-6 = 1e-10 relative; 1e-6 leaves room and still catches a wrong
    // factor or sign (which gives errors of order 1).
    EXPECT_LT(gradient_error(*rule, model, x), 1e-6) << name;
  }
}

TEST(AdaptiveSigma, RulesMatchTheirFormulas) {
  test::AdaptiveChain chain = test::adaptive_chain(3, 80.0, 1.2, Vec3::Zero());
  Model& model = *chain.model;
  const VecX& x = chain.initial.q;
  const double w = model.potential_energy(x);
  VecX g;
  model.potential_gradient(x, g);
  ASSERT_GT(w, 0.0);
  AdaptiveSettings s;
  s.epsilon = 0.01;
  s.sigma_min = 0.02;
  s.c = 2.0;
  s.rule = "energy";
  EXPECT_DOUBLE_EQ(make_sigma_rule(s)->value(model, x), 0.02 + 2.0 / (w / 10.0 + 1.0));
  s.rule = "acceleration";
  EXPECT_DOUBLE_EQ(make_sigma_rule(s)->value(model, x), 0.02 + 1.0 / (2.0 * g.norm() + 0.01));
  s.rule = "equispaced_poses";
  auto poses = make_sigma_rule(s);
  poses->begin(w + 1.0);
  EXPECT_DOUBLE_EQ(poses->value(model, x), 0.02 + 1.0 / std::sqrt(1.0 + 0.01));
  s.rule = "equispaced_phase_space";
  auto phase = make_sigma_rule(s);
  phase->begin(w + 1.0);
  EXPECT_DOUBLE_EQ(phase->value(model, x), 0.02 + 1.0 / std::sqrt(1.0 + g.squaredNorm() + 0.01));
  // Below E_0 - W = 0 the gap is clamped: sigma stays defined and bounded by 1/sqrt(eps).
  poses->begin(w - 1.0);
  EXPECT_DOUBLE_EQ(poses->value(model, x), 0.02 + 1.0 / std::sqrt(0.01));
}

TEST(AdaptiveSigma, UnknownRuleNamesTheKnownOnes) {
  AdaptiveSettings s;
  s.rule = "equispaced";
  try {
    make_sigma_rule(s);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("/time/adaptive/rule"), std::string::npos) << message;
    EXPECT_NE(message.find("equispaced_phase_space"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace simrun
