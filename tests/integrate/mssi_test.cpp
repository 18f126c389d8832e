// MSSI (Chen thesis Ch. 5) on a mass-spring graph against its formulas written out densely:
// K_s = sum_springs k s^ s^T (material part only), derived form (M + h D + h^2 K_s) dv =
// h (f - h K_s v) and literal eq. 5.8 (M + h^2 K_s) dv = h f; and equal to SI where there are
// no springs (the elastic term's material Hessian is its full Hessian).
#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include "integrate/integrator.hpp"
#include "model/gravity_energy.hpp"
#include "model/model_fixture.hpp"
#include "model/spring_energy.hpp"

namespace simrun {
namespace {

/// A bent chain of four particles with a closing spring, particle 0 fixed, stretched and
/// squeezed so the geometric stiffness (1 - l0/l)(I - s^ s^T) is far from zero.
struct Chain {
  MatX3 rest;
  EdgeList springs = {{0, 1}, {1, 2}, {2, 3}, {3, 1}};
  VecX k = (VecX(4) << 100, 200, 300, 400).finished();
  std::unique_ptr<Model> model;

  explicit Chain(RayleighDamping damping) {
    rest = MatX3(4, 3);
    rest << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0.3, 0.4, 0.8;
    const VecX point_mass = VecX::Constant(12, 0.5);
    std::vector<std::unique_ptr<EnergyTerm>> terms;
    terms.push_back(std::make_unique<SpringEnergy>(springs, k, VecX(as_flat(rest))));
    terms.push_back(
        std::make_unique<GravityEnergy>(Vec3(0, -9.81, 0), point_mass, VecX(as_flat(rest))));
    TetElements no_tets;
    no_tets.tets.resize(0, 4);
    no_tets.volume.resize(0);
    model = std::make_unique<Model>(rest, no_tets, VecX(), true, point_mass, DofMap(4, {0}),
                                    std::move(terms), damping);
  }

  State state() const {
    VecX q = model->restrict_vector(as_flat(rest));
    q << 1.3, 0.1, 0.0, 0.8, 0.7, 0.2, 0.2, 0.5, 0.5;  // particles 1..3
    VecX v(9);
    v << 0.1, -0.2, 0.3, 0.0, 0.4, -0.1, 0.2, 0.2, -0.3;
    return State{q, v, 0.0};
  }

  /// sum k s^ s^T over free DOFs (particle i has free DOFs 3 (i - 1)).
  MatX material_stiffness(const VecX& q) const {
    MatX K = MatX::Zero(9, 9);
    const auto position = [&](int i) {
      return i == 0 ? Vec3(rest.row(0)) : Vec3(q.segment<3>(3 * (i - 1)));
    };
    for (size_t s = 0; s < springs.size(); ++s) {
      const auto [i, j] = springs[s];
      const Vec3 n = (position(i) - position(j)).normalized();
      const Mat3 B = k[s] * n * n.transpose();
      for (const auto& [a, b, sign] :
           {std::tuple{i, i, 1.0}, {j, j, 1.0}, {i, j, -1.0}, {j, i, -1.0}})
        if (a > 0 && b > 0) K.block<3, 3>(3 * (a - 1), 3 * (b - 1)) += sign * B;
    }
    return K;
  }
};

State mssi_step(const Chain& chain, const State& s, double h, bool literal) {
  IntegratorSettings settings;
  settings.mssi_literal = literal;
  auto mssi = make_integrator("mssi", settings);
  State out = s;
  StepStats stats;
  EXPECT_EQ(mssi->step(*chain.model, out, h, stats), Status::kSuccess);
  return out;
}

TEST(Mssi, MatchesTheDenseFormulasOnSprings) {
  const RayleighDamping damping{3.0, 0.0, true};
  const Chain chain(damping);
  const State s = chain.state();
  const double h = 0.02;
  const MatX Ks = chain.material_stiffness(s.q);
  const MatX M = chain.model->lumped_mass().asDiagonal();
  const MatX D = damping.mass * M;
  VecX g;
  chain.model->potential_gradient(s.q, g);
  const VecX f = -g - D * s.v;

  const VecX derived_dv = (M + h * D + h * h * Ks).ldlt().solve(h * (f - h * Ks * s.v));
  const State derived = mssi_step(chain, s, h, false);
  EXPECT_LT((derived.v - (s.v + derived_dv)).norm(), 1e-12 * derived_dv.norm());
  EXPECT_LT((derived.q - (s.q + h * derived.v)).norm(), 1e-12);

  const VecX literal_dv = (M + h * h * Ks).ldlt().solve(h * f);
  const State literal = mssi_step(chain, s, h, true);
  EXPECT_LT((literal.v - (s.v + literal_dv)).norm(), 1e-12 * literal_dv.norm());
  // The two forms differ (by the -h K_s v and h D terms): the setting matters.
  EXPECT_GT((literal.v - derived.v).norm(), 1e-3 * derived_dv.norm());
}

TEST(Mssi, IsSemiImplicitEulerWithoutSprings) {
  const auto box =
      testing::make_box_model(Vec3(0.2, 0.1, 0.1), Eigen::Vector3i(2, 1, 1), 6, true, {0, 3, 6, 9},
                              1000.0, Vec3(0, -9.81, 0), RayleighDamping{1.0, 1e-4, true});
  const VecX rest = box.model->restrict_vector(box.model->rest_positions());
  State s{rest, VecX::LinSpaced(rest.size(), -0.1, 0.1), 0.0};
  State si = s, mssi = s;
  IntegratorSettings settings;
  auto a = make_integrator("si", settings), b = make_integrator("mssi", settings);
  for (int i = 0; i < 5; ++i) {
    StepStats stats;
    ASSERT_EQ(a->step(*box.model, si, 0.01, stats), Status::kSuccess);
    ASSERT_EQ(b->step(*box.model, mssi, 0.01, stats), Status::kSuccess);
  }
  EXPECT_LT((si.q - mssi.q).norm(), 1e-12 * (si.q - rest).norm());
  EXPECT_LT((si.v - mssi.v).norm(), 1e-10 * si.v.norm());
}

}  // namespace
}  // namespace simrun
