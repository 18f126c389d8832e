// Numerical coarsening (Kharevych thesis Ch. 4): the force/torque projection, the harmonic
// displacements and the homogenized coarse tensors, on box meshes where the answers are known:
// a homogeneous body coarsens to its own tensor, a layered bar to the harmonic mean, and every
// coarse tet matches the fine energy of the harmonic fields (Eq. 4.2).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <random>

#include "coarsen/harmonic_displacements.hpp"
#include "coarsen/homogenized_tensors.hpp"
#include "coarsen/rigid_motion.hpp"
#include "coarsen/tet_overlap.hpp"
#include "core/error.hpp"
#include "fem/tet_elements.hpp"
#include "material/voigt.hpp"
#include "mesh/box.hpp"
#include "mesh/transform.hpp"

namespace simrun {
namespace {

TetElements elements_of(const TetMesh& mesh) {
  return precompute_tet_elements(mesh.vertices, mesh.tets);
}

std::vector<VoigtTensor> uniform_tensors(const TetMesh& mesh, double E, double nu) {
  const LameParameters lame = lame_from_young_poisson(E, nu);
  return std::vector<VoigtTensor>(mesh.num_tets(), isotropic_voigt(lame.mu, lame.lambda));
}

/// [s11 s22 s33 s23 s13 s12] of a symmetric stress.
Vec6 voigt_stress(const Mat3& S) {
  return (Vec6() << S(0, 0), S(1, 1), S(2, 2), S(1, 2), S(0, 2), S(0, 1)).finished();
}

Vec3 net_force(const VecX& b) {
  Vec3 f = Vec3::Zero();
  for (int i = 0; i < b.size() / 3; ++i) f += b.segment<3>(3 * i);
  return f;
}

Vec3 net_torque(const MatX3& X, const VecX& b) {
  Vec3 t = Vec3::Zero();
  for (int i = 0; i < X.rows(); ++i) t += X.row(i).transpose().cross(b.segment<3>(3 * i));
  return t;
}

TEST(RigidMotion, TheProjectedLoadHasNoNetForceOrTorque) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatX3 X(40, 3);
  VecX w(40), b(120);
  for (int i = 0; i < 40; ++i) {
    X.row(i) << u(rng) + 2.0, u(rng), 0.3 * u(rng);
    w[i] = 1.0 + u(rng) * 0.5;
  }
  for (int i = 0; i < 120; ++i) b[i] = u(rng);
  remove_net_force_and_torque(X, w, b);
  EXPECT_LT(net_force(b).norm(), 1e-13);
  // Torque about the origin: zero net force makes it independent of the point.
  EXPECT_LT(net_torque(X, b).norm(), 1e-13);
}

TEST(RigidMotion, RemovingTheRigidPartKillsAnInfinitesimalRigidMotionAndKeepsADeformation) {
  const TetMesh box = make_box(Vec3(2.0, 1.0, 0.5), Eigen::Vector3i(4, 2, 2), 6);
  const int n = box.num_vertices();
  const VecX w = VecX::Ones(n);
  const Vec3 t(0.1, -0.2, 0.3), omega(0.02, -0.05, 0.01);
  VecX rigid(3 * n), stretch(3 * n);
  for (int i = 0; i < n; ++i) {
    const Vec3 x = box.vertices.row(i).transpose();
    rigid.segment<3>(3 * i) = t + omega.cross(x);
    stretch.segment<3>(3 * i) = Vec3(0.01 * (x[0] - 1.0), 0.0, 0.0);  // centred: no rigid part
  }
  VecX both = rigid + stretch;
  remove_rigid_motion(box.vertices, w, both);
  EXPECT_LT((both - stretch).norm(), 1e-14);
}

TEST(RigidMotion, PinningSixDofsLeavesNoRigidMotion) {
  const TetMesh box = make_box(Vec3(1.0, 0.3, 0.2), Eigen::Vector3i(5, 2, 1), 6);
  const auto pins = rigid_pin_dofs(box.vertices);
  // The 6 rigid fields restricted to the pinned DOFs form a nonsingular 6x6 matrix.
  Eigen::Matrix<double, 6, 6> R;
  for (int k = 0; k < 6; ++k) {
    const int v = pins[k] / 3, c = pins[k] % 3;
    const Vec3 x = box.vertices.row(v).transpose();
    for (int m = 0; m < 3; ++m) R(k, m) = (c == m) ? 1.0 : 0.0;
    for (int m = 0; m < 3; ++m) R(k, 3 + m) = Vec3::Unit(m).cross(x)[c];
  }
  EXPECT_GT(std::abs(R.determinant()), 1e-6);
}

TEST(BoundaryShells, ACavityIsAnInnerShellWithNegativeVolume) {
  TetMesh box = make_box(Vec3(3.0, 3.0, 3.0), Eigen::Vector3i(3, 3, 3), 6);
  // Remove the tets of the central cell (centroids in (1, 2)^3).
  std::vector<int> kept;
  for (int e = 0; e < box.num_tets(); ++e) {
    Vec3 c = Vec3::Zero();
    for (int a = 0; a < 4; ++a) c += box.vertices.row(box.tets(e, a)).transpose() / 4.0;
    if (!((c.array() > 1.0).all() && (c.array() < 2.0).all())) kept.push_back(e);
  }
  MatX4i tets(kept.size(), 4);
  for (size_t k = 0; k < kept.size(); ++k) tets.row(k) = box.tets.row(kept[k]);
  box.tets = tets;
  const BoundaryShells shells = boundary_shells(box);
  ASSERT_EQ(shells.num_shells(), 2);
  std::vector<double> volumes = shells.volume;
  std::sort(volumes.begin(), volumes.end());
  EXPECT_NEAR(volumes[0], -1.0, 1e-12);
  EXPECT_NEAR(volumes[1], 27.0, 1e-12);
  EXPECT_FALSE(shells.open[0] || shells.open[1]);
  // The cavity carries no load: the harmonic solve reports its faces as traction-free.
  const TetElements el = elements_of(box);
  const auto h = solve_harmonic_displacements(box, el, uniform_tensors(box, 1e6, 0.3), {}, "box");
  EXPECT_EQ(h.cavity_faces, 12);
  EXPECT_LT(h.max_relative_residual, 1e-10);
}

TEST(HarmonicDisplacements, AHomogeneousBodyHasTheUniformStrainOfEachUnitStress) {
  const TetMesh box = make_box(Vec3(1.0, 0.6, 0.4), Eigen::Vector3i(5, 3, 2), 6);
  const TetElements el = elements_of(box);
  const auto C = uniform_tensors(box, 2e6, 0.3);
  const auto h = solve_harmonic_displacements(box, el, C, {}, "box");
  EXPECT_LT(h.max_relative_residual, 1e-10);
  EXPECT_LT(h.removed_load_fraction, 1e-12);  // fine normals: the load is already balanced
  // eps(h_j) = C^-1 S_j in every tet (engineering Voigt).
  const VoigtTensor compliance = C[0].inverse();
  for (int e = 0; e < el.size(); ++e) {
    const LoadCaseStrains G = load_case_strains(el.grad[e], el.tets.row(e), h.fields);
    for (int j = 0; j < 6; ++j) {
      const Vec6 expected = compliance * voigt_stress(load_case_stress(j));
      ASSERT_LT((G.col(j) - expected).norm(), 1e-9 * expected.norm())
          << "tet " << e << " case " << j;
    }
  }
}

/// The Voigt stress vector of S_j is e_j (the unit stress of case j).
TEST(HarmonicDisplacements, TheUnitStressesAreTheVoigtBasis) {
  for (int j = 0; j < 6; ++j) {
    const Mat3 S = load_case_stress(j);
    EXPECT_TRUE(S.isApprox(S.transpose()));
    const Vec6 voigt = voigt_stress(S);
    const Vec6 expected = Vec6::Unit(j) * (j < 3 ? 1.0 : 0.5);
    EXPECT_TRUE(voigt.isApprox(expected)) << j;
  }
}

struct Coarsened {
  TetMesh fine, coarse;
  std::vector<VoigtTensor> fine_tensors;
  HarmonicDisplacements harmonic;
  TetOverlaps overlaps;
  HomogenizedTensors result;
};

Coarsened coarsen(const TetMesh& fine, std::vector<VoigtTensor> tensors, const TetMesh& coarse,
                  HarmonicOptions options = {}) {
  Coarsened c{fine, coarse, std::move(tensors), {}, {}, {}};
  const TetElements fine_el = elements_of(fine), coarse_el = elements_of(coarse);
  c.harmonic = solve_harmonic_displacements(fine, fine_el, c.fine_tensors, options, "test");
  c.overlaps = tet_overlaps(fine, coarse);
  c.result = homogenize_tensors(fine, fine_el, c.fine_tensors, c.harmonic.fields, coarse, coarse_el,
                                c.overlaps);
  return c;
}

TEST(HomogenizedTensors, AHomogeneousBodyCoarsensToItsOwnTensor) {
  const TetMesh fine = make_box(Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(8, 4, 4), 6);
  const TetMesh coarse = make_box(Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(2, 1, 1), 5);
  const auto tensors = uniform_tensors(fine, 1e6, 0.35);
  const Coarsened c = coarsen(fine, tensors, coarse);
  for (int q = 0; q < coarse.num_tets(); ++q) {
    EXPECT_NEAR(c.result.covered_fraction[q], 1.0, 1e-12);
    EXPECT_LT((c.result.tensors[q] - tensors[0]).norm(), 1e-8 * tensors[0].norm()) << q;
  }
}

TEST(HomogenizedTensors, ACoarseTetPartlyOutsideGetsTheCoveredFractionOfTheTensor) {
  const TetMesh fine = make_box(Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(8, 4, 4), 6);
  // A coarse box sticking out by 10 % along x and y.
  TetMesh coarse = make_box(Vec3(1.1, 0.55, 0.5), Eigen::Vector3i(2, 1, 1), 6);
  const auto tensors = uniform_tensors(fine, 1e6, 0.3);
  const Coarsened c = coarsen(fine, tensors, coarse);
  int partly_outside = 0;
  for (int q = 0; q < coarse.num_tets(); ++q) {
    const double f = c.result.covered_fraction[q];
    partly_outside += f < 1.0 - 1e-9;
    EXPECT_LT((c.result.tensors[q] - f * tensors[0]).norm(), 1e-8 * tensors[0].norm()) << q;
  }
  EXPECT_GT(partly_outside, 0);
}

/// Rigid-soft-rigid along x with nu = 0: the exact field is 1D (u_x' = 1/E(x) under unit
/// stress), and the coarse stiffness along x, averaged over the coarse volume, is the harmonic
/// mean (E_avg of springs in series), far from the arithmetic mean.
TEST(HomogenizedTensors, ALayeredBarGivesTheHarmonicMeanAlongTheLayers) {
  const TetMesh fine = make_box(Vec3(3.0, 0.5, 0.5), Eigen::Vector3i(12, 2, 2), 6);
  const TetMesh coarse = make_box(Vec3(3.0, 0.5, 0.5), Eigen::Vector3i(1, 1, 1), 6);
  const TetElements el = elements_of(fine);
  const double stiff = 1e8, soft = 1e5;
  std::vector<VoigtTensor> tensors(fine.num_tets());
  for (int e = 0; e < fine.num_tets(); ++e) {
    double x = 0.0;
    for (int a = 0; a < 4; ++a) x += fine.vertices(fine.tets(e, a), 0) / 4.0;
    const double E = (x > 1.0 && x < 2.0) ? soft : stiff;
    tensors[e] = isotropic_voigt(E / 2.0, 0.0);
  }
  const Coarsened c = coarsen(fine, tensors, coarse);
  const double harmonic = 3.0 / (2.0 / stiff + 1.0 / soft);
  double mean = 0.0, volume = 0.0;
  const TetElements coarse_el = elements_of(coarse);
  for (int q = 0; q < coarse.num_tets(); ++q) {
    mean += coarse_el.volume[q] * c.result.tensors[q](0, 0);
    volume += coarse_el.volume[q];
  }
  EXPECT_NEAR(mean / volume, harmonic, 1e-8 * harmonic);
  EXPECT_LT(harmonic, 0.01 * (2.0 * stiff + soft) / 3.0);
}

/// Eq. 4.2: for every combination c of the harmonic fields, the coarse energy on T_q equals the
/// fine energy integrated over T_q, on a non-conforming, rotated coarse mesh of a two-material
/// body.
TEST(HomogenizedTensors, EachCoarseTetMatchesTheFineEnergyOfTheHarmonicFields) {
  const TetMesh fine = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(6, 6, 6), 6);
  TetMesh coarse = make_box(Vec3(0.8, 0.8, 0.8), Eigen::Vector3i(2, 2, 2), 5);
  for (int i = 0; i < coarse.num_vertices(); ++i)
    coarse.vertices.row(i) += Eigen::RowVector3d(0.1, 0.1, 0.1);
  const TetElements el = elements_of(fine);
  std::vector<VoigtTensor> tensors(fine.num_tets());
  for (int e = 0; e < fine.num_tets(); ++e) {
    double y = 0.0;
    for (int a = 0; a < 4; ++a) y += fine.vertices(fine.tets(e, a), 1) / 4.0;
    const LameParameters lame = lame_from_young_poisson(y > 0.5 ? 1e7 : 1e5, 0.3);
    tensors[e] = isotropic_voigt(lame.mu, lame.lambda);
  }
  const Coarsened c = coarsen(fine, tensors, coarse);
  const TetElements coarse_el = elements_of(coarse);
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  for (int q = 0; q < coarse.num_tets(); ++q) {
    Vec6 combination;
    for (int j = 0; j < 6; ++j) combination[j] = normal(rng);
    double fine_energy = 0.0;
    for (int k = 0; k < c.overlaps.size(); ++k) {
      if (c.overlaps.coarse[k] != q) continue;
      const int p = c.overlaps.fine[k];
      const Vec6 e = load_case_strains(el.grad[p], el.tets.row(p), c.harmonic.fields) * combination;
      fine_energy += c.overlaps.volume[k] * 0.5 * e.dot(tensors[p] * e);
    }
    const Vec6 e =
        load_case_strains(coarse_el.grad[q], coarse_el.tets.row(q), c.result.coarse_fields) *
        combination;
    const double coarse_energy = coarse_el.volume[q] * 0.5 * e.dot(c.result.tensors[q] * e);
    EXPECT_NEAR(coarse_energy, fine_energy, 1e-10 * fine_energy) << q;
    EXPECT_GT(c.result.min_eigenvalue[q], 0.0);
  }
}

TEST(HarmonicDisplacements, CoarseNormalsAreProjectedToZeroNetForceAndTorque) {
  const TetMesh fine = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(4, 4, 4), 6);
  TetMesh coarse = make_box(Vec3(1.2, 1.2, 1.2), Eigen::Vector3i(1, 1, 1), 6);
  const Mat3 R = Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  for (int i = 0; i < coarse.num_vertices(); ++i)
    coarse.vertices.row(i) =
        (R * (coarse.vertices.row(i).transpose() - Vec3::Constant(0.6)) + Vec3::Constant(0.5))
            .transpose();
  HarmonicOptions options;
  options.normal = NeumannNormal::kCoarse;
  options.coarse = &coarse;
  const auto h = solve_harmonic_displacements(fine, elements_of(fine),
                                              uniform_tensors(fine, 1e6, 0.3), options, "box");
  EXPECT_GT(h.removed_load_fraction, 1e-3);  // the tilted normals did unbalance the load
  for (int j = 0; j < 6; ++j) {
    EXPECT_LT(net_force(h.loads.col(j)).norm(), 1e-13);
    EXPECT_LT(net_torque(fine.vertices, h.loads.col(j)).norm(), 1e-13);
  }
  EXPECT_LT(h.max_relative_residual, 1e-10);
}

TEST(HarmonicDisplacements, FixedVerticesGiveAMixedProblemWithZeroDisplacementThere) {
  const TetMesh box = make_box(Vec3(1.0, 0.2, 0.2), Eigen::Vector3i(5, 1, 1), 6);
  std::vector<int> fixed;
  for (int i = 0; i < box.num_vertices(); ++i)
    if (box.vertices(i, 0) == 0.0) fixed.push_back(i);
  HarmonicOptions options;
  options.fixed_vertices = fixed;
  const auto h = solve_harmonic_displacements(box, elements_of(box), uniform_tensors(box, 1e6, 0.3),
                                              options, "bar");
  EXPECT_LT(h.max_relative_residual, 1e-10);
  for (int v : fixed) EXPECT_EQ(h.fields.row(3 * v).norm(), 0.0);
  // Unit tension along x stretches the free end by about L / E (Poisson contraction aside).
  const int tip = box.num_vertices() - 1;
  EXPECT_NEAR(h.fields(3 * tip, 0), 1.0 / 1e6, 0.2 / 1e6);
}

}  // namespace
}  // namespace simrun
