// A term whose Hessian couplings change during a run (as contact pairs do): the model rebuilds
// its pattern, integrators notice, and the results equal those of a model that had the coupling
// from the start.
#include <gtest/gtest.h>

#include "integrate/integrator.hpp"
#include "model/model_fixture.hpp"
#include "model/spring_energy.hpp"

namespace simrun {
namespace {

/// A spring between two vertices that no tet shares, switched on during the run.
class SwitchableSpring final : public EnergyTerm {
 public:
  /// With `coupled`, the stencil is in the pattern from the start (zero values while off).
  SwitchableSpring(int a, int b, const VecX& rest, bool on, bool coupled)
      : m_spring(EdgeList{{a, b}}, VecX::Constant(1, 5e3), rest), m_on(on), m_coupled(coupled) {}
  void switch_on() {
    m_on = true;
    ++m_version;
  }
  std::string name() const override { return "tether"; }
  double energy(const VecX& x) const override { return m_on ? m_spring.energy(x) : 0.0; }
  void add_gradient(const VecX& x, VecX& g) const override {
    if (m_on) m_spring.add_gradient(x, g);
  }
  void bind(const SpMat& pattern, const DofMap& dofs) override {
    if (m_on || m_coupled) m_spring.bind(pattern, dofs);
  }
  void add_hessian(const VecX& x, double* values, bool project) const override {
    if (m_on) m_spring.add_hessian(x, values, project);
  }
  bool is_quadratic() const override { return !m_on; }
  void add_stencils(StencilList& stencils) const override {
    if (m_on || m_coupled) m_spring.add_stencils(stencils);
  }
  long pattern_version() const override { return m_version; }

 private:
  SpringEnergy m_spring;
  bool m_on;
  bool m_coupled;
  long m_version = 0;
};

struct TetheredBar {
  testing::BoxModel box;
  SwitchableSpring* tether = nullptr;
};

/// The test cantilever (tests/integrate/oscillator.hpp's box) plus a tether from its free tip
/// corner to a vertex on the far side.
TetheredBar make_bar(bool tether_on, bool coupled = false) {
  TetheredBar t;
  RayleighDamping damping;
  damping.stiffness = 1e-3;
  std::vector<int> fixed;
  for (int v = 0; v < 12; ++v)
    if (v % 3 == 0) fixed.push_back(v);
  t.box = testing::make_box_model(Vec3(0.2, 0.1, 0.1), Eigen::Vector3i(2, 1, 1), 6, true, fixed,
                                  1000.0, Vec3(0, -9.81, 0), damping);
  // Rebuild the model with the tether added to its terms.
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  auto tether =
      std::make_unique<SwitchableSpring>(2, 10, t.box.model->rest_positions(), tether_on, coupled);
  t.tether = tether.get();
  terms.push_back(std::make_unique<ElasticEnergy>(
      t.box.elements, std::make_shared<LinearElastic>(),
      std::vector<LameParameters>(t.box.mesh.num_tets(), lame_from_young_poisson(1e6, 0.3)),
      t.box.mesh.num_vertices()));
  terms.push_back(std::move(tether));
  t.box.model = std::make_unique<Model>(
      t.box.mesh.vertices, t.box.elements, VecX::Constant(t.box.mesh.num_tets(), 1000.0), true,
      DofMap(t.box.mesh.num_vertices(), fixed), std::move(terms), damping);
  return t;
}

TEST(PatternChange, ModelRebuildsItsPatternWhenATermsStencilsChange) {
  TetheredBar bar = make_bar(false);
  Model& model = *bar.box.model;
  const SpMat before = model.pattern();
  const long version = model.pattern_version();
  EXPECT_FALSE(model.refresh_pattern());
  bar.tether->switch_on();
  EXPECT_TRUE(model.refresh_pattern());
  EXPECT_EQ(model.pattern_version(), version + 1);
  EXPECT_GT(model.pattern().nonZeros(), before.nonZeros());
  // The mass is the same matrix in the new pattern.
  EXPECT_EQ(MatX(model.mass()).isApprox(MatX(make_bar(false).box.model->mass())), true);
  // K in the new pattern equals a model built with the tether on.
  TetheredBar fresh = make_bar(true);
  const VecX q =
      model.restrict_vector(model.rest_positions()) + VecX::Constant(model.num_free(), 0.01);
  SpMat K1, K2;
  model.stiffness(q, K1, false);
  fresh.box.model->stiffness(q, K2, false);
  EXPECT_EQ(MatX(K1), MatX(K2));
}

TEST(PatternChange, IntegratorsMatchAModelThatHadTheCouplingFromTheStart) {
  // Both runs switch the tether on after 3 steps; one model had its coupling in the pattern
  // (with zero values) from the start, the other gets a new pattern (and symbolic analysis) then.
  for (const char* name : {"be", "si", "bdf2", "sdirk2", "verlet", "newmark"}) {
    TetheredBar grown = make_bar(false), preset = make_bar(false, /*coupled=*/true);
    IntegratorSettings settings;
    settings.newton.tolerance = 1e-12;
    auto a = make_integrator(name, settings), b = make_integrator(name, settings);
    State sa{grown.box.model->restrict_vector(grown.box.model->rest_positions()),
             VecX::Zero(grown.box.model->num_free()), 0.0};
    State sb = sa;
    for (int step = 0; step < 8; ++step) {
      if (step == 3) {
        grown.tether->switch_on();
        preset.tether->switch_on();
      }
      StepStats st;
      ASSERT_EQ(a->step(*grown.box.model, sa, 1e-3, st), Status::kSuccess) << name;
      ASSERT_EQ(b->step(*preset.box.model, sb, 1e-3, st), Status::kSuccess) << name;
    }
    // Other patterns give other elimination orders: equal to round-off (|q| ~ 0.2 m, |v| ~ 0.1).
    EXPECT_LT((sa.q - sb.q).cwiseAbs().maxCoeff(), 1e-13) << name;
    EXPECT_LT((sa.v - sb.v).cwiseAbs().maxCoeff(), 1e-10) << name;
    EXPECT_GT(grown.box.model->pattern().nonZeros(), 0);
  }
}

TEST(PatternChange, AChangeBetweenStepsIsPickedUpByEveryIntegrator) {
  for (const char* name : {"be", "si", "im", "verlet", "rk4"}) {
    TetheredBar bar = make_bar(false);
    auto integrator = make_integrator(name, IntegratorSettings{});
    Model& model = *bar.box.model;
    State s{model.restrict_vector(model.rest_positions()), VecX::Zero(model.num_free()), 0.0};
    for (int step = 0; step < 3; ++step) {
      StepStats st;
      ASSERT_EQ(integrator->step(model, s, 1e-4, st), Status::kSuccess) << name;
    }
    bar.tether->switch_on();
    for (int step = 0; step < 3; ++step) {
      StepStats st;
      ASSERT_EQ(integrator->step(model, s, 1e-4, st), Status::kSuccess) << name;
    }
    EXPECT_TRUE(s.q.allFinite()) << name;
  }
}

}  // namespace
}  // namespace simrun
