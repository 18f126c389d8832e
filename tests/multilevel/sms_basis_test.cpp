// The SMS weights and LBS bases (Trusty et al. Secs. 3.4-3.5.1, Eqs. 7-11): partition of
// unity, compact support, exact reproduction of affine fields, Dirichlet-aware weights.
#include <gtest/gtest.h>

#include "slab_scene.hpp"

namespace simrun {
namespace {

TEST(SmsBasis, WeightsAreAPartitionOfUnityWithCompactSupport) {
  const SlabScene s = slab_scene(4);
  const int n = s.mesh.num_vertices();
  const HandleWeights w = sms_handle_weights(s.mesh.vertices, s.mesh.tets, s.youngs, s.label,
                                             s.center, std::vector<bool>(n, false), true);
  ASSERT_EQ(w.phi.rows(), n);
  ASSERT_EQ(w.phi.cols(), 4);
  const VecX row_sum = w.phi * VecX::Ones(4);
  EXPECT_LT((row_sum - VecX::Ones(n)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_GE(MatX(w.phi).minCoeff(), 0.0);
  // Handle 0's subdomain is slabs 0 and 1 (x <= 1): it vanishes on slabs 2 and 3.
  for (SpMat::InnerIterator it(w.phi, 0); it; ++it)
    EXPECT_LE(s.mesh.vertices(it.row(), 0), 1.0 + 1e-12) << "vertex " << it.row();
  // and is one at its centre.
  EXPECT_NEAR(MatX(w.phi)(s.center[0], 0), 1.0, 1e-12);
}

TEST(SmsBasis, ReproducesAffineFieldsExactly) {
  const SlabScene s = slab_scene(3);
  const int n = s.mesh.num_vertices();
  const HandleWeights w = sms_handle_weights(s.mesh.vertices, s.mesh.tets, s.youngs, s.label,
                                             s.center, std::vector<bool>(n, false), true);
  expect_reproduces_affine_fields(s.mesh.vertices, w);
}

TEST(SmsBasis, DirichletAwareWeightsVanishAtFixedVerticesAndBlendTowardsThem) {
  const SlabScene s = slab_scene(4);
  const int n = s.mesh.num_vertices();
  std::vector<bool> fixed(n, false);
  for (int v = 0; v < n; ++v) fixed[v] = s.mesh.vertices(v, 0) < 1e-9;
  const HandleWeights aware =
      sms_handle_weights(s.mesh.vertices, s.mesh.tets, s.youngs, s.label, s.center, fixed, true);
  const HandleWeights plain =
      sms_handle_weights(s.mesh.vertices, s.mesh.tets, s.youngs, s.label, s.center, fixed, false);
  const VecX aware_sum = aware.phi * VecX::Ones(4);
  for (int v = 0; v < n; ++v) {
    if (fixed[v]) {
      EXPECT_EQ(aware_sum[v], 0.0);
      EXPECT_NEAR(aware.dirichlet_weight[v], 1.0, 1e-12);
    } else {
      EXPECT_NEAR(aware_sum[v] + aware.dirichlet_weight[v], 1.0, 1e-12);
    }
  }
  // Next to the clamp the handles' share grows smoothly from 0: the vertices one cell in
  // (x = 0.125) keep less than all of it with the Dirichlet-aware weights, all of it without.
  int checked = 0;
  const VecX plain_sum = plain.phi * VecX::Ones(4);
  for (int v = 0; v < n; ++v) {
    if (std::abs(s.mesh.vertices(v, 0) - 0.125) > 1e-9) continue;
    ++checked;
    EXPECT_GT(aware_sum[v], 0.0);
    EXPECT_LT(aware_sum[v], 0.9);
    EXPECT_NEAR(plain_sum[v], 1.0, 1e-12);
  }
  EXPECT_GT(checked, 0);
}

TEST(SmsBasis, StiffMaterialWidensTheWeightsItCarries) {
  // A stiff half (x > 0) should be moved rigidly by fewer weight transitions: the weight of the
  // handle in the stiff middle slab stays larger across its slab than with uniform E.
  SlabScene s = slab_scene(3);
  const int n = s.mesh.num_vertices();
  const HandleWeights uniform = sms_handle_weights(s.mesh.vertices, s.mesh.tets, s.youngs, s.label,
                                                   s.center, std::vector<bool>(n), true);
  for (int e = 0; e < s.mesh.num_tets(); ++e)
    if (s.label[e] == 1) s.youngs[e] = 1e9;
  const HandleWeights stiff = sms_handle_weights(s.mesh.vertices, s.mesh.tets, s.youngs, s.label,
                                                 s.center, std::vector<bool>(n), true);
  double uniform_mass = 0.0, stiff_mass = 0.0;
  for (SpMat::InnerIterator it(uniform.phi, 1); it; ++it) uniform_mass += it.value();
  for (SpMat::InnerIterator it(stiff.phi, 1); it; ++it) stiff_mass += it.value();
  EXPECT_GT(stiff_mass, 1.05 * uniform_mass);
}

TEST(SmsBasis, AffineHandleSitsAtTheCentreOfMassAndVanishesAtTheClamp) {
  const TetMesh mesh = make_box(Vec3(2.0, 1.0, 1.0), Eigen::Vector3i(4, 2, 2), 6);
  const int n = mesh.num_vertices();
  VecX mass = VecX::Ones(n);
  VecX dirichlet = VecX::Zero(n);
  dirichlet[0] = 1.0;
  dirichlet[1] = 0.25;
  const AffineHandles a = affine_handles(mesh.vertices, mass, std::vector<int>(n, 0), 1, dirichlet);
  EXPECT_LT((a.origin.row(0) - Eigen::RowVector3d(1.0, 0.5, 0.5)).norm(), 1e-12);  // centre
  const MatX phi = a.phi;
  EXPECT_EQ(phi(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(phi(1, 0), 0.75);
  EXPECT_DOUBLE_EQ(phi(2, 0), 1.0);
}

}  // namespace
}  // namespace simrun
