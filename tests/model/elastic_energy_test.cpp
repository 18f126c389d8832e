#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/parallel.hpp"
#include "fem/element_coloring.hpp"
#include "model_fixture.hpp"

namespace simrun {
namespace {

using testing::make_box_model;

VecX randomly_deformed(const VecX& rest, double amplitude, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  VecX q = rest;
  for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += u(rng);
  return q;
}

TEST(ElasticEnergy, RigidTranslationHasNoEnergyOrForce) {
  auto box = make_box_model(Vec3(1.0, 0.2, 0.3), Eigen::Vector3i(4, 2, 2), 5, true, {});
  VecX q = box.model->restrict_vector(box.model->rest_positions());
  for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += Vec3(0.3, -1.7, 2.2)[i % 3];
  EXPECT_NEAR(box.model->potential_energy(q), 0.0, 1e-12);
  VecX g;
  box.model->potential_gradient(q, g);
  // Forces are sums of terms ~ E * area ~ 1e4 N; round-off is 1e-16 of that per term.
  EXPECT_LT(g.cwiseAbs().maxCoeff(), 1e-9);
}

TEST(ElasticEnergy, PatchTestAffineDisplacementGivesConstantStrainAndNoInteriorForce) {
  auto box = make_box_model(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(3, 3, 3), 5, true, {});
  Mat3 A;
  A << 1.01, 0.02, -0.03, 0.01, 0.98, 0.04, -0.02, 0.03, 1.05;
  const Vec3 b(0.1, 0.2, -0.3);
  VecX q = box.model->rest_positions();
  for (int v = 0; v < box.mesh.num_vertices(); ++v) {
    q.segment<3>(3 * v) = A * box.mesh.vertices.row(v).transpose() + b;
  }
  for (int e = 0; e < box.elements.size(); ++e) {
    EXPECT_LT((deformation_gradient(box.elements, e, q) - A).norm(), 1e-13) << "element " << e;
  }
  VecX g;
  box.model->potential_gradient(q, g);
  // Interior vertices of a 3x3x3 grid: i, j, k in {1, 2}. Net force cancels to round-off of the
  // element forces (|P| ~ 1e5 Pa times areas ~ 0.1 m^2).
  for (int k = 1; k <= 2; ++k)
    for (int j = 1; j <= 2; ++j)
      for (int i = 1; i <= 2; ++i) {
        const int v = i + 4 * (j + 4 * k);
        EXPECT_LT(g.segment<3>(3 * v).norm(), 1e-8) << "vertex " << v;
      }
}

TEST(Mass, ConsistentAndLumpedTotalsEqualDensityTimesVolume) {
  const double rho = 1200.0, volume = 0.5 * 0.1 * 0.1;
  for (bool lumped : {true, false}) {
    auto box = make_box_model(Vec3(0.5, 0.1, 0.1), Eigen::Vector3i(10, 2, 2), 5, lumped, {}, rho);
    const SpMat& M = box.model->mass();
    // Total mass: 1^T M 1 over the x DOFs.
    VecX ex = VecX::Zero(M.rows());
    for (Eigen::Index i = 0; i < ex.size(); i += 3) ex[i] = 1.0;
    EXPECT_NEAR(ex.dot(M * ex), rho * volume, 1e-12 * rho * volume) << "lumped " << lumped;
    EXPECT_NEAR(box.model->lumped_mass().sum() / 3.0, rho * volume, 1e-12 * rho * volume);
  }
}

TEST(ElementColoring, BlocksOfOneColorAreVertexDisjointAndCoverEveryElement) {
  const TetMesh mesh = make_box(Vec3(1, 1, 1), Eigen::Vector3i(8, 6, 5), 6);
  for (int block_size : {1, 16, 64}) {
    const ElementColoring coloring =
        color_element_blocks(mesh.tets, mesh.num_vertices(), block_size);
    std::vector<int> covered(mesh.num_tets(), 0);
    for (const auto& color : coloring.colors) {
      std::set<int> seen;
      for (int b : color) {
        std::set<int> block_vertices;
        for (int e = coloring.block_begin(b); e < coloring.block_end(b); ++e) {
          ++covered[e];
          for (int a = 0; a < 4; ++a) block_vertices.insert(mesh.tets(e, a));
        }
        for (int v : block_vertices)
          EXPECT_TRUE(seen.insert(v).second) << "block size " << block_size;
      }
    }
    for (int e = 0; e < mesh.num_tets(); ++e) EXPECT_EQ(covered[e], 1) << "element " << e;
  }
}

TEST(ElementColoring, ParallelAssemblyEqualsSerial) {
  // 30 x 12 x 12 cells x 6 = 25920 tets: above the threshold, so two threads really run.
  auto box = testing::make_box_model(Vec3(2, 1, 1), Eigen::Vector3i(30, 12, 12), 6, true, {});
  ASSERT_GE(box.mesh.num_tets(), kParallelElementThreshold);
  const VecX q =
      randomly_deformed(box.model->restrict_vector(box.model->rest_positions()), 0.01, 3);
  VecX g1, g2;
  SpMat K1, K2;
  set_thread_count(1);
  box.model->potential_gradient(q, g1);
  box.model->stiffness(q, K1, false);
  set_thread_count(2);
  box.model->potential_gradient(q, g2);
  box.model->stiffness(q, K2, false);
  set_thread_count(1);
  // Same sums in a different order: round-off only.
  EXPECT_LT((g1 - g2).cwiseAbs().maxCoeff(), 1e-9 * g1.cwiseAbs().maxCoeff());
  const Eigen::Map<const VecX> k1(K1.valuePtr(), K1.nonZeros()), k2(K2.valuePtr(), K2.nonZeros());
  EXPECT_LT((k1 - k2).cwiseAbs().maxCoeff(), 1e-9 * k1.cwiseAbs().maxCoeff());
}

TEST(Gravity, EnergyIsZeroAtRestAndForceIsWeight) {
  auto box = make_box_model(Vec3(1, 1, 1), Eigen::Vector3i(2, 2, 2), 6, true, {}, 1000.0,
                            Vec3(0, -9.81, 0));
  const VecX rest = box.model->restrict_vector(box.model->rest_positions());
  EXPECT_NEAR(box.model->potential_energy(rest), 0.0, 1e-12);
  VecX g;
  box.model->potential_gradient(rest, g);
  double fy = 0.0;
  for (Eigen::Index i = 1; i < g.size(); i += 3) fy -= g[i];
  EXPECT_NEAR(fy, -9.81 * 1000.0, 1e-8);
  VecX lifted = rest;
  for (Eigen::Index i = 1; i < lifted.size(); i += 3) lifted[i] += 0.5;
  EXPECT_NEAR(box.model->potential_energy(lifted), 9.81 * 1000.0 * 0.5, 1e-8);
}

}  // namespace
}  // namespace simrun
