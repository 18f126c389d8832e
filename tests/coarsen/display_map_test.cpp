// The coarse-to-fine display map (Kharevych thesis Eqs. 4.6-4.7): exact for rigid motions of
// the coarse mesh, and it re-injects the fine harmonic fields exactly when the coarse mesh moves
// by a (rotated) combination of their coarse interpolants; tets without fields map
// barycentrically.
#include "coarsen/display_map.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "coarsen/harmonic_displacements.hpp"
#include "coarsen/homogenized_tensors.hpp"
#include "coarsen/tet_overlap.hpp"
#include "material/voigt.hpp"
#include "mesh/box.hpp"

namespace simrun {
namespace {

struct MeshPairFields {
  TetMesh fine, coarse;
  MatX fine_fields, coarse_fields;
  Embedding embedding;
};

/// A two-material box (E 1e6 below z = 0.25, 1e5 above) and a coarser non-nested mesh of it.
MeshPairFields layered_box() {
  MeshPairFields s;
  s.fine = make_box(Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(8, 4, 4), 6);
  s.coarse = make_box(Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(3, 1, 1), 5);
  const TetElements fe = precompute_tet_elements(s.fine.vertices, s.fine.tets);
  const TetElements ce = precompute_tet_elements(s.coarse.vertices, s.coarse.tets);
  std::vector<VoigtTensor> C(s.fine.num_tets());
  for (int e = 0; e < s.fine.num_tets(); ++e) {
    double z = 0.0;
    for (int a = 0; a < 4; ++a) z += s.fine.vertices(s.fine.tets(e, a), 2) / 4.0;
    const LameParameters l = lame_from_young_poisson(z < 0.25 ? 1e6 : 1e5, 0.3);
    C[e] = isotropic_voigt(l.mu, l.lambda);
  }
  s.fine_fields = solve_harmonic_displacements(s.fine, fe, C, {}, "box").fields;
  const HomogenizedTensors h = homogenize_tensors(s.fine, fe, C, s.fine_fields, s.coarse, ce,
                                                  tet_overlaps(s.fine, s.coarse));
  s.coarse_fields = h.coarse_fields;
  s.embedding = embed_points(s.coarse, s.fine.vertices);
  return s;
}

VecX flat(const MatX3& rows) {
  VecX x(3 * rows.rows());
  for (Eigen::Index v = 0; v < rows.rows(); ++v) x.segment<3>(3 * v) = rows.row(v).transpose();
  return x;
}

/// Q (X + u) + t per vertex.
VecX moved(const MatX3& X, const VecX& u, const Mat3& Q, const Vec3& t) {
  VecX x = flat(X) + u;
  for (Eigen::Index v = 0; v < X.rows(); ++v) x.segment<3>(3 * v) = Q * x.segment<3>(3 * v) + t;
  return x;
}

const Mat3 kTurn = Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
const Vec3 kShift(0.3, -1.0, 2.0);

TEST(CoarseToFineMap, MovesTheFineMeshRigidlyWithARigidCoarseMotion) {
  const MeshPairFields s = layered_box();
  const CoarseToFineMap map(s.coarse, s.coarse_fields, std::vector<bool>(s.coarse.num_tets(), true),
                            s.fine.vertices, s.fine_fields, s.embedding);
  const VecX zero_c = VecX::Zero(3 * s.coarse.num_vertices());
  const VecX zero_f = VecX::Zero(3 * s.fine.num_vertices());
  const VecX x = map.positions(moved(s.coarse.vertices, zero_c, kTurn, kShift));
  EXPECT_LT((x - moved(s.fine.vertices, zero_f, kTurn, kShift)).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(CoarseToFineMap, ReinjectsTheFineHarmonicFieldsWhenTheCoarseMeshFollowsTheirInterpolants) {
  const MeshPairFields s = layered_box();
  const CoarseToFineMap map(s.coarse, s.coarse_fields, std::vector<bool>(s.coarse.num_tets(), true),
                            s.fine.vertices, s.fine_fields, s.embedding);
  Eigen::Matrix<double, 6, 1> c;
  c << 1.0, -0.5, 0.3, 0.8, -0.2, 0.4;
  c *= 1e3;  // fields are in m/Pa: strains of about 1e-3
  const VecX coarse_u = s.coarse_fields * c, fine_u = s.fine_fields * c;
  const VecX x = map.positions(moved(s.coarse.vertices, coarse_u, kTurn, kShift));
  const VecX expected = moved(s.fine.vertices, fine_u, kTurn, kShift);
  EXPECT_LT((x - expected).cwiseAbs().maxCoeff(), 1e-10 * fine_u.cwiseAbs().maxCoeff());
  // The barycentric map misses the fine detail that the coarse interpolant cannot hold.
  const VecX barycentric =
      s.embedding.interpolate_flat(s.coarse, moved(s.coarse.vertices, coarse_u, kTurn, kShift));
  EXPECT_GT((barycentric - expected).cwiseAbs().maxCoeff(), 1e-2 * fine_u.cwiseAbs().maxCoeff());
}

TEST(CoarseToFineMap, TetsWithoutFieldsMapBarycentrically) {
  const MeshPairFields s = layered_box();
  const CoarseToFineMap map(s.coarse, s.coarse_fields,
                            std::vector<bool>(s.coarse.num_tets(), false), s.fine.vertices,
                            s.fine_fields, s.embedding);
  VecX xc = flat(s.coarse.vertices);
  for (Eigen::Index i = 0; i < xc.size(); ++i) xc[i] += 0.01 * std::sin(1.7 * i);
  EXPECT_LT((map.positions(xc) - s.embedding.interpolate_flat(s.coarse, xc)).norm(), 1e-15);
}

}  // namespace
}  // namespace simrun
