// The inversion-free step bound (model/tet_inversion_step.hpp, issue 14 part 6): the determinant
// cubic against direct evaluation, a tet squashed through itself stops before its inversion time
// with >= 10 % of its volume, random motions keep the kept fraction over the whole step and the
// bound is tight, and ElasticEnergy applies it only for materials that forbid inversion.
#include "model/tet_inversion_step.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>  // determinant
#include <memory>
#include <random>

#include "material/lame.hpp"
#include "material/neohookean.hpp"
#include "material/stvk.hpp"
#include "mesh/box.hpp"
#include "model/elastic_energy.hpp"

namespace simrun {
namespace {

TEST(TetInversionStep, DeterminantCubicMatchesDirectEvaluation) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    const Mat3 D = Mat3::NullaryExpr([&] { return u(rng); });
    const Mat3 E = Mat3::NullaryExpr([&] { return u(rng); });
    const Eigen::Vector4d c = determinant_cubic(D, E);
    for (double t : {-1.3, 0.0, 0.4, 1.0, 2.5})
      EXPECT_NEAR(c[0] + t * c[1] + t * t * c[2] + t * t * t * c[3], (D + t * E).determinant(),
                  1e-12 * (1 + std::pow(std::abs(t), 3)));
  }
}

TEST(TetInversionStep, ASquashedTetStopsBeforeItsInversionTime) {
  // The unit corner tet with its apex pushed down by 2: det(t) = 1 - 2 t, inverted at t = 0.5.
  const Mat3 D = Mat3::Identity();
  Mat3 E = Mat3::Zero();
  E(2, 2) = -2.0;
  const double alpha = tet_volume_step(D, E);
  EXPECT_LT(alpha, 0.5);
  EXPECT_GE((D + alpha * E).determinant(), kKeptVolumeFraction * D.determinant());
  EXPECT_NEAR(alpha, 0.45, 1e-12);  // det = 0.1 exactly there: the bound is tight
  // A sideways shear with the apex squashed through too (a cubic with all coefficients).
  E << 0.3, -0.2, 0.5, 0.1, -1.5, 0.4, -0.7, 0.2, -3.0;
  const double beta = tet_volume_step(D, E);
  for (int k = 0; k <= 1000; ++k)
    EXPECT_GE((D + beta * k / 1000.0 * E).determinant(), kKeptVolumeFraction) << k;
  EXPECT_LT((D + (beta + 1e-9) * E).determinant(), kKeptVolumeFraction + 1e-8);
}

TEST(TetInversionStep, HarmlessMotionsGiveTheFullStep) {
  Mat3 E = Mat3::Identity();  // growing
  EXPECT_EQ(tet_volume_step(Mat3::Identity(), E), 1.0);
  E = Mat3::Zero();
  E(2, 2) = -0.5;  // halves the volume: 50 % is kept
  EXPECT_EQ(tet_volume_step(Mat3::Identity(), E), 1.0);
  // Already inverted: not this bound's business.
  EXPECT_EQ(tet_volume_step(-Mat3::Identity(), Mat3::Identity()), 1.0);
}

TEST(TetInversionStep, RandomMotionsKeepTheFractionAndAreTight) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  int limited = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const Mat3 D = Mat3::Identity() + 0.3 * Mat3::NullaryExpr([&] { return u(rng); });
    const Mat3 E = 3.0 * Mat3::NullaryExpr([&] { return u(rng); });
    const double det0 = D.determinant();
    if (det0 <= 0.0) continue;
    const double alpha = tet_volume_step(D, E);
    for (int k = 0; k <= 200; ++k)
      ASSERT_GE((D + alpha * k / 200.0 * E).determinant(), kKeptVolumeFraction * det0 * (1 - 1e-9))
          << trial << " " << k;
    if (alpha < 1.0) {
      ++limited;
      EXPECT_LT((D + std::min(1.0, alpha + 1e-7) * E).determinant(),
                kKeptVolumeFraction * det0 * (1 + 1e-5))
          << trial;
    }
  }
  EXPECT_GT(limited, 100);  // the cases do exercise the bound
}

TEST(TetInversionStep, ElasticEnergyBoundsMaterialsThatForbidInversionOrAreAskedTo) {
  const TetMesh mesh = make_box(Vec3::Ones(), Eigen::Vector3i(2, 2, 2), 6);
  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  const std::vector<LameParameters> lame(mesh.num_tets(), lame_from_young_poisson(1e5, 0.3));
  const ElasticEnergy neo(elements, std::make_shared<NeoHookean>(), lame, mesh.num_vertices());
  const ElasticEnergy stvk(elements, std::make_shared<StVenantKirchhoff>(), lame,
                           mesh.num_vertices());
  ASSERT_FALSE(neo.material().allows_inversion());
  ASSERT_TRUE(stvk.material().allows_inversion());
  const VecX x = as_flat(mesh.vertices);
  // Flatten the box onto z = 0 and beyond: every tet inverts at t = 0.5.
  VecX dx = VecX::Zero(x.size());
  for (int v = 0; v < mesh.num_vertices(); ++v) dx[3 * v + 2] = -2.0 * x[3 * v + 2];
  const double alpha = neo.max_feasible_step(x, dx);
  EXPECT_NEAR(alpha, 0.45, 1e-9);
  const VecX moved = x + alpha * dx;
  for (int e = 0; e < elements.size(); ++e)
    EXPECT_GE(edge_matrix(elements, e, moved).determinant(),
              kKeptVolumeFraction * edge_matrix(elements, e, x).determinant() * (1 - 1e-12));
  EXPECT_EQ(stvk.max_feasible_step(x, dx), 1.0);
  // A contact scene asks every material to keep its tets oriented: StVK is then bounded alike.
  ElasticEnergy oriented(elements, std::make_shared<StVenantKirchhoff>(), lame,
                         mesh.num_vertices());
  oriented.keep_tets_oriented(true);
  EXPECT_EQ(oriented.max_feasible_step(x, dx), alpha);
}

}  // namespace
}  // namespace simrun
