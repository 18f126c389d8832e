// The Galerkin baseline of numerical coarsening (Kharevych Fig. 4.5): K_c = P^T K_f P with P the
// barycentric interpolation of the coarse vertices to the fine ones. On a coarse mesh equal to
// the fine one it is K_f itself, and on any coarse mesh around the fine one it keeps the fine
// energy of every affine displacement (P reproduces affine fields exactly).
#include "coarsen/galerkin_stiffness.hpp"

#include <gtest/gtest.h>

#include "coarsen/harmonic_displacements.hpp"
#include "fem/tet_elements.hpp"
#include "material/voigt.hpp"
#include "mesh/box.hpp"
#include "mesh/transform.hpp"

namespace simrun {
namespace {

/// Two materials split by the plane x = 0.4 (fine tets by centroid), so K_f is heterogeneous.
std::vector<VoigtTensor> two_materials(const TetMesh& mesh) {
  std::vector<VoigtTensor> tensors;
  for (int e = 0; e < mesh.num_tets(); ++e) {
    double x = 0.0;
    for (int a = 0; a < 4; ++a) x += mesh.vertices(mesh.tets(e, a), 0) / 4.0;
    const LameParameters lame = lame_from_young_poisson(x < 0.4 ? 2e7 : 3e5, x < 0.4 ? 0.3 : 0.45);
    tensors.push_back(isotropic_voigt(lame.mu, lame.lambda));
  }
  return tensors;
}

TEST(GalerkinStiffness, ACoarseMeshEqualToTheFineOneGivesTheFineStiffness) {
  const TetMesh mesh = make_box(Vec3(1.0, 0.3, 0.2), Eigen::Vector3i(5, 2, 2), 5);
  const TetElements el = precompute_tet_elements(mesh.vertices, mesh.tets);
  const SpMat K = voigt_stiffness(el, two_materials(mesh), DofMap(mesh.num_vertices(), {}));
  const SpMat Kc = galerkin_coarse_stiffness(mesh, K, mesh);
  // Every vertex is a vertex of its tet: P is the identity up to the roundoff of the
  // barycentric coordinates (1e-16 relative).
  EXPECT_LT(SpMat(Kc - K).norm(), 1e-12 * K.norm());
}

/// u = A X + b on a coarse mesh turned by 25 degrees that sticks out of the fine one all around:
/// the energy 1/2 u^T K_c u is the fine one, sum_p V_p 1/2 e^T C_p e with e the engineering
/// strain of sym(A) (rigid parts carry none).
TEST(GalerkinStiffness, AnAffineDisplacementKeepsItsFineEnergy) {
  const TetMesh fine = make_box(Vec3(1.0, 0.3, 0.2), Eigen::Vector3i(10, 3, 2), 6);
  TetMesh coarse = make_box(Vec3(1.6, 1.6, 1.6), Eigen::Vector3i(2, 2, 2), 5);
  transform_mesh(coarse, Vec3::Ones(), Vec3::Zero(), 0.0, Vec3::Constant(-0.8));
  transform_mesh(coarse, Vec3::Ones(), Vec3(1, 2, 3), 25.0, Vec3(0.5, 0.15, 0.1));
  const TetElements el = precompute_tet_elements(fine.vertices, fine.tets);
  const std::vector<VoigtTensor> tensors = two_materials(fine);
  const SpMat K = voigt_stiffness(el, tensors, DofMap(fine.num_vertices(), {}));
  const SpMat Kc = galerkin_coarse_stiffness(fine, K, coarse);

  Mat3 A;
  A << 1.0, -2.0, 0.5, 3.0, -0.7, 1.5, -1.0, 0.2, 2.0;
  A *= 1e-3;
  const Vec3 b(2e-3, -1e-3, 4e-3);
  VecX u(3 * coarse.num_vertices());
  for (int i = 0; i < coarse.num_vertices(); ++i)
    u.segment<3>(3 * i) = A * coarse.vertices.row(i).transpose() + b;
  const Mat3 eps = 0.5 * (A + A.transpose());
  Vec6 e;
  e << eps(0, 0), eps(1, 1), eps(2, 2), 2 * eps(1, 2), 2 * eps(0, 2), 2 * eps(0, 1);
  double expected = 0.0;
  for (int p = 0; p < fine.num_tets(); ++p) expected += el.volume[p] * 0.5 * e.dot(tensors[p] * e);
  // Roundoff: the rigid part b is of the size of the strain times the body, so K u loses no
  // more than a few digits to cancellation; 1e-9 leaves three orders of margin.
  EXPECT_NEAR(0.5 * u.dot(Kc * u), expected, 1e-9 * expected);

  // A nonzero skew part changes nothing: the rigid rotation has no energy.
  VecX rotated = u;
  const Mat3 W = (Mat3() << 0, -1, 2, 1, 0, -3, -2, 3, 0).finished() * 1e-3;
  for (int i = 0; i < coarse.num_vertices(); ++i)
    rotated.segment<3>(3 * i) += W * coarse.vertices.row(i).transpose();
  EXPECT_NEAR(0.5 * rotated.dot(Kc * rotated), expected, 1e-9 * expected);
}

}  // namespace
}  // namespace simrun
