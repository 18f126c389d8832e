// The comparison weights of Trusty et al. Figs. 3-5 (and their Sec. 2.1): compact
// RBFs, global biharmonic coordinates and skinning eigenmodes, on the slab fixture of the SMS
// tests. What each must be: RBF a compact partition of unity, biharmonic coordinates a global
// interpolating partition of unity, eigenmodes M-orthogonal with the constant first.
#include "multilevel/alternative_weights.hpp"

#include <gtest/gtest.h>

#include "multilevel/scalar_operators.hpp"
#include "slab_scene.hpp"

namespace simrun {
namespace {

std::vector<bool> clamped_at_x0(const SlabScene& s) {
  std::vector<bool> fixed(s.mesh.num_vertices(), false);
  for (int v = 0; v < s.mesh.num_vertices(); ++v) fixed[v] = s.mesh.vertices(v, 0) < 1e-9;
  return fixed;
}

/// Fraction of (vertex, handle) pairs with |phi| above `threshold`.
double support_fraction(const SpMat& phi, double threshold) {
  long count = 0;
  for (int h = 0; h < phi.outerSize(); ++h)
    for (SpMat::InnerIterator it(phi, h); it; ++it) count += std::abs(it.value()) > threshold;
  return double(count) / (double(phi.rows()) * phi.cols());
}

TEST(AlternativeWeights, NamesRoundTripAndUnknownNamesAreRefused) {
  for (HandleBasis b :
       {HandleBasis::kSms, HandleBasis::kRbf, HandleBasis::kBiharmonic, HandleBasis::kEigenmodes})
    EXPECT_EQ(handle_basis_from_name(handle_basis_name(b)), b);
  EXPECT_THROW(handle_basis_from_name("splines"), std::invalid_argument);
}

TEST(AlternativeWeights, RbfWeightsAreACompactPartitionOfUnity) {
  const SlabScene s = slab_scene(4);
  const int n = s.mesh.num_vertices();
  const HandleWeights w =
      rbf_handle_weights(s.mesh.vertices, s.mesh.tets, s.label, s.center, std::vector<bool>(n));
  const VecX row_sum = w.phi * VecX::Ones(4);
  EXPECT_LT((row_sum - VecX::Ones(n)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_GE(MatX(w.phi).minCoeff(), 0.0);
  EXPECT_EQ(w.zero_sum_vertices, 0);
  // Handle 0's radius is the distance from its origin (0.25, 0, 0) to the farthest vertex of
  // its slab (0, 1, 1) or (0.5, 1, 1), longer than to slab 1's centre: nothing beyond it.
  const Eigen::RowVector3d origin = s.mesh.vertices.row(w.origin_vertex[0]);
  ASSERT_LT((origin - Eigen::RowVector3d(0.25, 0.0, 0.0)).norm(), 1e-12);
  const double radius = std::sqrt(0.25 * 0.25 + 2.0);
  int outside = 0;
  for (int v = 0; v < n; ++v) outside += (s.mesh.vertices.row(v) - origin).norm() > radius;
  EXPECT_GT(outside, n / 4);
  for (SpMat::InnerIterator it(w.phi, 0); it; ++it)
    EXPECT_LT((s.mesh.vertices.row(it.row()) - origin).norm(), radius * 1.00001);
  EXPECT_LT(support_fraction(w.phi, 0.0), 0.9);
  expect_reproduces_affine_fields(s.mesh.vertices, w);
}

TEST(AlternativeWeights, BiharmonicCoordinatesInterpolateAndSumToOneEverywhere) {
  const SlabScene s = slab_scene(4);
  const int n = s.mesh.num_vertices();
  const HandleWeights w = biharmonic_coordinate_weights(s.mesh.vertices, s.mesh.tets, s.label,
                                                        s.center, std::vector<bool>(n), true);
  const MatX phi = w.phi;
  for (int h = 0; h < 4; ++h)
    for (int g = 0; g < 4; ++g) EXPECT_EQ(phi(w.origin_vertex[h], g), h == g ? 1.0 : 0.0);
  const VecX row_sum = phi.rowwise().sum();
  // 1e-8: the sum is one up to the Cholesky solve of the bilaplacian (condition ~ 1 / h^4).
  EXPECT_LT((row_sum - VecX::Ones(n)).cwiseAbs().maxCoeff(), 1e-8);
  // Global: every handle reaches the far end of the bar (decaying, not compact).
  EXPECT_GT(support_fraction(w.phi, 1e-9), 0.9);
  expect_reproduces_affine_fields(s.mesh.vertices, w, 1e-7);  // the 1e-8 sums times |A x + t| ~ 3
}

TEST(AlternativeWeights, BiharmonicCoordinatesVanishAtAClampWithItsWeightCompletingTheSum) {
  const SlabScene s = slab_scene(4);
  const int n = s.mesh.num_vertices();
  const std::vector<bool> fixed = clamped_at_x0(s);
  const HandleWeights w =
      biharmonic_coordinate_weights(s.mesh.vertices, s.mesh.tets, s.label, s.center, fixed, true);
  const VecX row_sum = w.phi * VecX::Ones(4);
  for (int v = 0; v < n; ++v) {
    if (fixed[v]) {
      EXPECT_EQ(row_sum[v], 0.0);
    }
    EXPECT_NEAR(row_sum[v] + w.dirichlet_weight[v], 1.0, 1e-12);
  }
  // The clamp is in the solve, not only cut off afterwards: one cell in (x = 0.125) the handles
  // keep well below all of the weight (unclamped coordinates sum to one there).
  int checked = 0;
  for (int v = 0; v < n; ++v) {
    if (std::abs(s.mesh.vertices(v, 0) - 0.125) > 1e-9) continue;
    ++checked;
    EXPECT_GT(row_sum[v], 0.0);
    EXPECT_LT(row_sum[v], 0.9);
  }
  EXPECT_GT(checked, 0);
}

TEST(AlternativeWeights, HandlesWithoutAFreeVertexGetNoWeight) {
  // Slab 0 (x <= 0.5) is fixed: its handle has no origin, the others keep theirs.
  const SlabScene s = slab_scene(4);
  const int n = s.mesh.num_vertices();
  std::vector<bool> fixed(n, false);
  for (int v = 0; v < n; ++v) fixed[v] = s.mesh.vertices(v, 0) < 0.5 + 1e-9;
  for (HandleBasis basis :
       {HandleBasis::kRbf, HandleBasis::kBiharmonic, HandleBasis::kEigenmodes}) {
    SCOPED_TRACE(handle_basis_name(basis));
    const HandleWeights w = handle_weights_of(basis, s.mesh.vertices, s.mesh.tets, s.youngs,
                                              s.label, s.center, fixed, true);
    EXPECT_EQ(w.origin_vertex[0], -1);
    const MatX phi = w.phi;
    EXPECT_EQ(phi.col(0).cwiseAbs().maxCoeff(), 0.0);
    for (int h = 1; h < 4; ++h) EXPECT_GT(phi.col(h).cwiseAbs().maxCoeff(), 0.0);
    if (basis == HandleBasis::kBiharmonic) {  // the columns belong to their handles
      for (int h = 1; h < 4; ++h)
        for (int g = 1; g < 4; ++g) EXPECT_EQ(phi(w.origin_vertex[h], g), h == g ? 1.0 : 0.0);
    }
  }
}

TEST(AlternativeWeights, AnObjectWithEveryVertexFixedGetsNoWeights) {
  const SlabScene s = slab_scene(4);
  const std::vector<bool> fixed(s.mesh.num_vertices(), true);
  for (HandleBasis basis : {HandleBasis::kRbf, HandleBasis::kBiharmonic, HandleBasis::kEigenmodes})
    for (bool aware : {true, false}) {
      SCOPED_TRACE(std::string(handle_basis_name(basis)) + (aware ? " aware" : " plain"));
      const HandleWeights w = handle_weights_of(basis, s.mesh.vertices, s.mesh.tets, s.youngs,
                                                s.label, s.center, fixed, aware);
      EXPECT_EQ(w.phi.nonZeros(), 0);
      EXPECT_EQ(w.phi.cols(), 4);
    }
}

TEST(AlternativeWeights, SkinningEigenmodesAreMassOrthogonalWithTheConstantFirst) {
  const SlabScene s = slab_scene(4);
  const int n = s.mesh.num_vertices();
  const HandleWeights w = skinning_eigenmode_weights(s.mesh.vertices, s.mesh.tets, s.youngs,
                                                     s.label, s.center, std::vector<bool>(n), true);
  const MatX phi = w.phi;
  ASSERT_EQ(phi.cols(), 4);
  EXPECT_LT((phi.col(0) - VecX::Ones(n)).cwiseAbs().maxCoeff(), 1e-8);
  const VecX volume = lumped_vertex_volume(s.mesh.vertices, s.mesh.tets);
  const MatX gram = phi.transpose() * volume.asDiagonal() * phi;
  for (int a = 0; a < 4; ++a) {
    EXPECT_NEAR(phi.col(a).cwiseAbs().maxCoeff(), 1.0, 1e-12);
    for (int b = 0; b < a; ++b)
      EXPECT_LT(std::abs(gram(a, b)), 1e-8 * std::sqrt(gram(a, a) * gram(b, b)));
  }
  // The second mode of a 2 m bar varies along x: cos(pi x / 2) up to sign; 0.05 allows the P1
  // discretization error on 16 cells along x.
  double largest_error = 0.0;
  for (int v = 0; v < n; ++v)
    largest_error = std::max(
        largest_error,
        std::abs(std::abs(phi(v, 1)) - std::abs(std::cos(M_PI * s.mesh.vertices(v, 0) / 2.0))));
  EXPECT_LT(largest_error, 0.05);
}

TEST(AlternativeWeights, SkinningEigenmodesFollowTheMaterial) {
  // A stiff middle slab moves nearly rigidly in the low modes: the second mode's variation
  // across it shrinks.
  SlabScene s = slab_scene(3);
  const int n = s.mesh.num_vertices();
  auto spread_in_middle = [&](const SlabScene& scene) {
    const MatX phi =
        skinning_eigenmode_weights(scene.mesh.vertices, scene.mesh.tets, scene.youngs, scene.label,
                                   scene.center, std::vector<bool>(n), true)
            .phi;
    double low = 1e300, high = -1e300;
    for (int v = 0; v < n; ++v) {
      const double x = scene.mesh.vertices(v, 0);
      if (x < 2.0 / 3.0 + 1e-9 || x > 4.0 / 3.0 - 1e-9) continue;
      low = std::min(low, phi(v, 1)), high = std::max(high, phi(v, 1));
    }
    return high - low;
  };
  const double uniform = spread_in_middle(s);
  for (int e = 0; e < s.mesh.num_tets(); ++e)
    if (s.label[e] == 1) s.youngs[e] = 1e9;
  EXPECT_LT(spread_in_middle(s), 0.1 * uniform);  // contrast 1000: far below a tenth
}

TEST(AlternativeWeights, DirichletAwareEigenmodesVanishAtTheClamp) {
  const SlabScene s = slab_scene(4);
  const std::vector<bool> fixed = clamped_at_x0(s);
  const MatX phi = skinning_eigenmode_weights(s.mesh.vertices, s.mesh.tets, s.youngs, s.label,
                                              s.center, fixed, true)
                       .phi;
  for (int v = 0; v < s.mesh.num_vertices(); ++v)
    if (fixed[v]) {
      EXPECT_EQ(phi.row(v).cwiseAbs().maxCoeff(), 0.0);
    }
  // The first Dirichlet mode of a bar clamped at x = 0 is sin(pi x / 4), largest at the free end,
  // and the affine handle's weight 1 - phi_DBC is that mode.
  const HandleWeights w = skinning_eigenmode_weights(s.mesh.vertices, s.mesh.tets, s.youngs,
                                                     s.label, s.center, fixed, true);
  EXPECT_GT(phi.col(0).minCoeff(), -1e-12);
  for (int v = 0; v < s.mesh.num_vertices(); ++v) {
    const double x = s.mesh.vertices(v, 0);
    EXPECT_NEAR(phi(v, 0), std::sin(M_PI * x / 4.0), 0.03) << "x = " << x;  // P1, 16 cells
    EXPECT_NEAR(1.0 - w.dirichlet_weight[v], phi(v, 0), 1e-15);
  }
}

}  // namespace
}  // namespace simrun
