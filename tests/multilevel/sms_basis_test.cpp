// The SMS weights and LBS bases (Trusty et al., digest 002 sections 3.1-3.4): partition of
// unity, compact support, exact reproduction of affine fields, Dirichlet-aware weights.
#include <gtest/gtest.h>

#include "mesh/box.hpp"
#include "multilevel/handle_weights.hpp"
#include "multilevel/subspace_basis.hpp"

namespace simrun {
namespace {

/// A 2 x 1 x 1 box cut into `slabs` partitions along x, each partition's centre the vertex
/// nearest to its slab's centre.
struct SlabScene {
  TetMesh mesh;
  std::vector<int> label;
  std::vector<int> center;
  VecX youngs;
};

SlabScene slab_scene(int slabs) {
  SlabScene s;
  s.mesh = make_box(Vec3(2.0, 1.0, 1.0), Eigen::Vector3i(4 * slabs, 4, 4), 6);
  const MatX3& X = s.mesh.vertices;
  const double x_min = X.col(0).minCoeff(), width = (X.col(0).maxCoeff() - x_min) / slabs;
  s.label.resize(s.mesh.num_tets());
  for (int e = 0; e < s.mesh.num_tets(); ++e) {
    double cx = 0.0;
    for (int a = 0; a < 4; ++a) cx += X(s.mesh.tets(e, a), 0) / 4.0;
    s.label[e] = std::min(slabs - 1, static_cast<int>((cx - x_min) / width));
  }
  s.center.assign(slabs, -1);
  for (int p = 0; p < slabs; ++p) {
    const Eigen::RowVector3d c(x_min + (p + 0.5) * width, 0.0, 0.0);
    double best = 1e300;
    for (int e = 0; e < s.mesh.num_tets(); ++e) {
      if (s.label[e] != p) continue;
      for (int a = 0; a < 4; ++a) {
        const int v = s.mesh.tets(e, a);
        const double d = (X.row(v) - c).squaredNorm();
        if (d < best) best = d, s.center[p] = v;
      }
    }
  }
  s.youngs = VecX::Constant(s.mesh.num_tets(), 1e6);
  return s;
}

std::vector<int> identity_dofs(int num_vertices) {
  std::vector<int> full_to_free(3 * num_vertices);
  for (size_t i = 0; i < full_to_free.size(); ++i) full_to_free[i] = static_cast<int>(i);
  return full_to_free;
}

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
  MatX3 origin(3, 3);
  VecX length(3);
  for (int h = 0; h < 3; ++h) origin.row(h) = s.mesh.vertices.row(w.origin_vertex[h]);
  length << 0.5, 0.7, 1.3;
  const RowSpMat U = lbs_basis(s.mesh.vertices, w.phi, origin, length, identity_dofs(n), 3 * n);
  // The field u(X) = A X + t, and handle h's q: translation A x_h + t, linear part A l_h.
  Mat3 A;
  A << 0.1, -0.3, 0.2, 0.05, 0.4, -0.1, 0.3, 0.0, 0.25;
  const Vec3 t(1.0, -2.0, 0.5);
  VecX q(36);
  for (int h = 0; h < 3; ++h)
    for (int c = 0; c < 3; ++c) {
      q[12 * h + 4 * c] = A.row(c).dot(origin.row(h)) + t[c];
      for (int k = 0; k < 3; ++k) q[12 * h + 4 * c + 1 + k] = A(c, k) * length[h];
    }
  const VecX u = U * q;
  for (int v = 0; v < n; ++v) {
    const Vec3 expected = A * s.mesh.vertices.row(v).transpose() + t;
    EXPECT_LT((u.segment<3>(3 * v) - expected).norm(), 1e-12) << "vertex " << v;
  }
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
