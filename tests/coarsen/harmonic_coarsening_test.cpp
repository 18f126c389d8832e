// Numerical coarsening (Kharevych thesis Ch. 4): the force/torque projection, the harmonic
// displacements and the homogenized coarse tensors, on box meshes where the answers are known:
// a homogeneous body coarsens to its own tensor, a layered bar to the harmonic mean, and every
// coarse tet matches the fine energy of the harmonic fields (Eq. 4.2).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cstdio>
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
  // The cavity carries no load: the harmonic solve reports its faces as traction-free.
  const TetElements el = elements_of(box);
  const auto h = solve_harmonic_displacements(box, el, uniform_tensors(box, 1e6, 0.3), {}, "box");
  EXPECT_EQ(h.cavity_faces, 12);
  EXPECT_LT(h.max_relative_residual, 1e-10);
}

/// A duplicated tet makes each of its faces a face of two or three tets: the boundary misses
/// its faces and is no closed surface, so the harmonic problems' load would be wrong. It is bad
/// input, named (with a valid mesh, a tet mesh's boundary is always closed: mesh/boundary.hpp).
TEST(BoundaryShells, OverlappingTetsAreBadInputNamingAFaceAndItsTets) {
  TetMesh box = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(2, 1, 1), 6);
  const TetElements valid = elements_of(box);
  EXPECT_NO_THROW(
      solve_harmonic_displacements(box, valid, uniform_tensors(box, 1e6, 0.3), {}, "box"));
  const int n = box.num_tets();
  box.tets.conservativeResize(n + 1, 4);
  box.tets.row(n) = box.tets.row(3);
  try {
    solve_harmonic_displacements(box, elements_of(box), uniform_tensors(box, 1e6, 0.3), {},
                                 "reference mesh");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("reference mesh: the fine mesh has tets that overlap"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("faces of more than two tets"), std::string::npos) << message;
    // The face's tets, ascending: the copy (index n) last, the original (3) among them.
    const size_t list = message.find("of tets ");
    ASSERT_NE(list, std::string::npos) << message;
    const std::string tets = message.substr(list, message.find(" (a duplicated", list) - list);
    EXPECT_NE(tets.find(" 3, "), std::string::npos) << tets;
    EXPECT_EQ(tets.substr(tets.size() - std::to_string(n).size()), std::to_string(n)) << tets;
  }
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

/// A coarse cube of five tets cut in half by a soft layer (x < 1/2, E 1e5; stiff 1e7 beyond;
/// nu = 0, so h_11 is the exact 1D field u_x' = 1/E). The plane x = 1/2 leaves 1/8 of the corner
/// tets with one vertex at x = 0 on the soft side, 7/8 of those with three, and half of the
/// central tet. Eq. 4.5 gives each tet its own share of the compliance: with the coarse strain
/// of H_11 the cell's mean compliance cbar, the exact identity G_q^T C_q G_q = A_q makes the
/// coarse stress of H_11 in tet q c_q / cbar (c_q: the tet's mean compliance), 0.26 and 1.74
/// here, not the unit stress the fine field carries. So H_11 is no coarse equilibrium: pulled
/// by the same unit traction, the coarse cube takes displacements that correspond to no fine
/// field and stretches further than the fine body, although its energy of H_11 is the fine
/// energy of h_11 (Eq. 4.2). It can only stretch further: H_11 is admissible, so the coarse
/// minimum -W_c / 2 of the potential is at most its value there, -W_f / 2 (W: the work of the
/// pull). This is the method's limit where an interface cuts a coarse cell
/// (docs/coarsening.md). With the interface on the face between two coarse cubes the tets
/// still differ (the lateral fields are not affine in a cell next to the interface), but far
/// less.
TEST(HomogenizedTensors, ACellCutByALayerGivesItsTetsUnequalStressesAndComesOutSofter) {
  const double soft = 1e5, stiff = 1e7;
  const TetMesh fine = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(4, 2, 2), 6);
  const TetElements fine_el = elements_of(fine);
  std::vector<VoigtTensor> tensors(fine.num_tets());
  std::vector<double> E(fine.num_tets());
  for (int e = 0; e < fine.num_tets(); ++e) {
    double x = 0.0;
    for (int a = 0; a < 4; ++a) x += fine.vertices(fine.tets(e, a), 0) / 4.0;
    E[e] = x < 0.5 ? soft : stiff;
    tensors[e] = isotropic_voigt(E[e] / 2.0, 0.0);
  }
  // The pull's compliance (work of the unit traction S_11 n) of a coarse mesh with its tensors.
  const auto pulled_work = [](const TetMesh& mesh, const std::vector<VoigtTensor>& C) {
    const auto pulled = solve_harmonic_displacements(mesh, elements_of(mesh), C, {}, "coarse");
    return pulled.loads.col(0).dot(pulled.fields.col(0));
  };
  const double fine_work = pulled_work(fine, tensors);
  const double mean_compliance = 0.5 / soft + 0.5 / stiff;
  EXPECT_NEAR(fine_work, mean_compliance, 1e-9 * mean_compliance);  // unit cube: 1D stretch

  const TetMesh cut = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(1, 1, 1), 5);
  const Coarsened c = coarsen(fine, tensors, cut);
  for (int p = 0; p < fine.num_tets(); ++p) {  // h_11 is the 1D field
    const LoadCaseStrains G =
        load_case_strains(fine_el.grad[p], fine_el.tets.row(p), c.harmonic.fields);
    ASSERT_LT((G.col(0) - Vec6::Unit(0) / E[p]).norm(), 1e-9 / E[p]) << p;
  }
  const TetElements cut_el = elements_of(cut);
  std::vector<double> soft_fraction(cut.num_tets(), 0.0);
  for (int k = 0; k < c.overlaps.size(); ++k)
    if (E[c.overlaps.fine[k]] == soft)
      soft_fraction[c.overlaps.coarse[k]] +=
          c.overlaps.volume[k] / cut_el.volume[c.overlaps.coarse[k]];
  std::vector<double> sorted = soft_fraction;
  std::sort(sorted.begin(), sorted.end());
  const std::vector<double> expected_fractions = {1.0 / 8, 1.0 / 8, 0.5, 7.0 / 8, 7.0 / 8};
  for (int q = 0; q < cut.num_tets(); ++q) {
    EXPECT_NEAR(sorted[q], expected_fractions[q], 1e-12);
    const LoadCaseStrains Gq =
        load_case_strains(cut_el.grad[q], cut_el.tets.row(q), c.result.coarse_fields);
    const Vec6 stress = c.result.tensors[q] * Gq.col(0);
    const double tet_compliance = soft_fraction[q] / soft + (1.0 - soft_fraction[q]) / stiff;
    // An identity up to the roundoff through G_q^-1 (cond G_q < 1e3 here).
    EXPECT_NEAR(stress[0], tet_compliance / mean_compliance, 1e-9) << q;
  }
  // Eq. 4.2 summed over the cell: the coarse energy of H_11 is the fine energy of h_11.
  const SpMat K = voigt_stiffness(cut_el, c.result.tensors, DofMap(cut.num_vertices(), {}));
  const VecX H = c.result.coarse_fields.col(0);
  EXPECT_NEAR(H.dot(K * H), fine_work, 1e-10 * fine_work);
  const auto coarse_pull = solve_harmonic_displacements(cut, cut_el, c.result.tensors, {}, "cut");
  EXPECT_NEAR(coarse_pull.loads.col(0).dot(H), fine_work, 1e-10 * fine_work);  // same load
  const double cut_ratio = pulled_work(cut, c.result.tensors) / fine_work;
  // With the interface on the face between two coarse cubes, each tet holds one material.
  const TetMesh aligned = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(2, 1, 1), 5);
  const double aligned_ratio =
      pulled_work(aligned, coarsen(fine, tensors, aligned).result.tensors) / fine_work;
  std::printf(
      "unit pull, coarse / fine compliance: cell cut by the layer %.4f, layer on a coarse face "
      "%.6f\n",
      cut_ratio, aligned_ratio);
  // Measured 1.44 and 1.07; the margins leave room for roundoff only in what must hold (>= 1)
  // and keep the mechanism's size: the cut cell is the far softer one.
  EXPECT_GT(aligned_ratio, 1.0 - 1e-9);
  EXPECT_GT(cut_ratio, aligned_ratio + 0.3);
}

/// A box [0, size] turned by `degrees` about an oblique axis through its centre and scaled by
/// `scale` about it, placed with its centre at `centre`.
TetMesh turned_box(double size, int cells, int split, double degrees, const Vec3& centre) {
  TetMesh box = make_box(Vec3::Constant(size), Eigen::Vector3i::Constant(cells), split);
  transform_mesh(box, Vec3::Ones(), Vec3::Zero(), 0.0, Vec3::Constant(-0.5 * size));
  transform_mesh(box, Vec3::Ones(), Vec3(1, 2, 3), degrees, centre);
  return box;
}

/// Two materials split by the plane y = 0.5 (fine tets by centroid).
std::vector<VoigtTensor> two_material_tensors(const TetMesh& fine) {
  std::vector<VoigtTensor> tensors(fine.num_tets());
  for (int e = 0; e < fine.num_tets(); ++e) {
    double y = 0.0;
    for (int a = 0; a < 4; ++a) y += fine.vertices(fine.tets(e, a), 1) / 4.0;
    const LameParameters lame = lame_from_young_poisson(y > 0.5 ? 1e7 : 1e5, 0.3);
    tensors[e] = isotropic_voigt(lame.mu, lame.lambda);
  }
  return tensors;
}

/// Eq. 4.2: for every combination c of the harmonic fields, the coarse energy on T_q equals the
/// fine energy integrated over T_q, on a non-conforming coarse mesh of a two-material cube that
/// is turned by 15 degrees and sticks out of the fine mesh (its corner vertices are
/// extrapolated, some tets are partly outside).
TEST(HomogenizedTensors, EachCoarseTetMatchesTheFineEnergyOfTheHarmonicFields) {
  const TetMesh fine = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(6, 6, 6), 6);
  const TetMesh coarse = turned_box(1.1, 2, 5, 15.0, Vec3::Constant(0.5));
  const TetElements el = elements_of(fine);
  const std::vector<VoigtTensor> tensors = two_material_tensors(fine);
  const Coarsened c = coarsen(fine, tensors, coarse);
  ASSERT_GT(c.result.coarse_in_fine.num_outside, 0);  // extrapolation is exercised
  int partly_outside = 0;
  const TetElements coarse_el = elements_of(coarse);
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  for (int q = 0; q < coarse.num_tets(); ++q) {
    partly_outside += c.result.covered_fraction[q] < 0.99;
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
    // The match is an algebraic identity (e = G_q c, C_q = G_q^-T A_q G_q^-1), limited by the
    // roundoff through G_q^-1: measured below 3e-15 cond(G_q) on every tet (1.5e-9 on the one
    // tet, a quarter filled, whose extrapolated vertices give cond 5e5; below 1e-12 where cond
    // < 1e3), so 1e-13 cond(G_q) is the 1e-10 for cond up to 1e3.
    EXPECT_NEAR(coarse_energy, fine_energy,
                1e-13 * std::max(1.0, c.result.condition[q]) * fine_energy)
        << q;
    EXPECT_GT(c.result.min_eigenvalue[q], 0.0);
  }
  EXPECT_GT(partly_outside, 0);
}

/// The averaged-Lame baseline against a hand computation: a fine cube with lambda_1, mu_1 on
/// x < 1/2 and lambda_2, mu_2 on x > 1/2 under ONE coarse cube of five tets. The plane x = 1/2
/// cuts a corner tet with one vertex at x = 0 (and three at x = 1) at 1/8 of its volume (the
/// similar tet of half the size), one with three vertices at x = 0 at 7/8, and the central tet
/// in halves (the half-turn about the cube's z axis maps it onto itself and swaps the sides).
TEST(HomogenizedTensors, AveragedLameParametersAreTheVolumeWeightedMeans) {
  const TetMesh fine = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(2, 3, 2), 6);
  const TetMesh coarse = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(1, 1, 1), 5);
  const LameParameters left = lame_from_young_poisson(3e6, 0.2);
  const LameParameters right = lame_from_young_poisson(5e4, 0.45);
  std::vector<LameParameters> lame(fine.num_tets());
  for (int e = 0; e < fine.num_tets(); ++e) {
    double x = 0.0;
    for (int a = 0; a < 4; ++a) x += fine.vertices(fine.tets(e, a), 0) / 4.0;
    lame[e] = x < 0.5 ? left : right;
  }
  const std::vector<LameParameters> averaged =
      average_lame(lame, tet_overlaps(fine, coarse), elements_of(coarse).volume);
  ASSERT_EQ(averaged.size(), 5u);
  int cases[3] = {0, 0, 0};
  for (int q = 0; q < 5; ++q) {
    int at_zero = 0;
    for (int a = 0; a < 4; ++a) at_zero += coarse.vertices(coarse.tets(q, a), 0) == 0.0;
    const double f = at_zero == 1 ? 1.0 / 8.0 : (at_zero == 3 ? 7.0 / 8.0 : 0.5);
    ++cases[at_zero == 1 ? 0 : (at_zero == 3 ? 1 : 2)];
    // Overlap volumes are exact up to roundoff (1e-16 relative per clip).
    EXPECT_NEAR(averaged[q].lambda, f * left.lambda + (1 - f) * right.lambda, 1e-12 * left.lambda)
        << q;
    EXPECT_NEAR(averaged[q].mu, f * left.mu + (1 - f) * right.mu, 1e-12 * left.mu) << q;
  }
  EXPECT_EQ(cases[0], 2);  // two corner tets of each kind and the central one
  EXPECT_EQ(cases[1], 2);
  EXPECT_EQ(cases[2], 1);
}

/// The coarse density keeps the fine mass (Kharevych Sec. 4.3.4) with two densities and a coarse
/// mesh that is turned and sticks out of the fine one on every side (coarse tets partly or
/// wholly outside): sum_q rho_q |T_q| = sum_p rho_p |T_p|, here 0.5 (1000 + 3000) kg.
TEST(HomogenizedTensors, TheCoarseMassIsTheFineMass) {
  const TetMesh fine = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(4, 3, 3), 6);
  // Side 1.8: its inscribed sphere (radius 0.9) holds the unit cube (circumradius 0.87).
  const TetMesh coarse = turned_box(1.8, 2, 5, 20.0, Vec3::Constant(0.5));
  VecX density(fine.num_tets());
  for (int e = 0; e < fine.num_tets(); ++e) {
    double x = 0.0;
    for (int a = 0; a < 4; ++a) x += fine.vertices(fine.tets(e, a), 0) / 4.0;
    density[e] = x < 0.5 ? 1000.0 : 3000.0;
  }
  const VecX volumes = elements_of(coarse).volume;
  const TetOverlaps overlaps = tet_overlaps(fine, coarse);
  const VecX rho = coarse_density(density, overlaps, volumes);
  const std::vector<double> held = coarse_covered_volume(overlaps, coarse.num_tets());
  int partly_outside = 0;
  for (int q = 0; q < coarse.num_tets(); ++q) partly_outside += held[q] < 0.99 * volumes[q];
  EXPECT_GT(partly_outside, 0);
  // Exact overlaps: the sums agree to roundoff (1e-16 per clip, a few hundred clips). Densities
  // normalized by the covered volume instead of the whole coarse one would sum to more, since
  // some tets are partly outside.
  EXPECT_NEAR(rho.dot(volumes), 2000.0, 1e-10 * 2000.0);
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

/// The mixed problem (thesis Sec. 4.3.9) on a bar clamped at x = 0 with nu = 0: load case 11
/// is the traction S_11 n on the boundary, i.e. a unit pull on the free end x = L (the clamped
/// face's share goes into the reaction, the sides carry none), whose exact solution is the 1D
/// h = (x / E, 0, 0) (the clamp holds nothing back laterally when nu = 0). P1 elements
/// represent it exactly, so every vertex must match to roundoff. A pure-Neumann solve pinned
/// 3-2-1, or a load projected as in the pure-Neumann case, would miss it at the clamp, as the
/// pure-Neumann field (a free bar, centred) shows.
TEST(HarmonicDisplacements, AClampedBarPulledByTheUnitStressStretchesByXOverE) {
  const TetMesh box = make_box(Vec3(1.0, 0.2, 0.2), Eigen::Vector3i(5, 1, 1), 6);
  const double E = 1e6;
  std::vector<int> fixed;
  for (int i = 0; i < box.num_vertices(); ++i)
    if (box.vertices(i, 0) == 0.0) fixed.push_back(i);
  HarmonicOptions options;
  options.fixed_vertices = fixed;
  const auto C = uniform_tensors(box, E, 0.0);
  const auto mixed = solve_harmonic_displacements(box, elements_of(box), C, options, "bar");
  const auto free = solve_harmonic_displacements(box, elements_of(box), C, {}, "bar");
  double worst = 0.0, free_worst = 0.0;
  for (int v = 0; v < box.num_vertices(); ++v) {
    const Vec3 exact(box.vertices(v, 0) / E, 0.0, 0.0);
    worst = std::max(worst, (mixed.fields.col(0).segment<3>(3 * v) - exact).norm());
    free_worst = std::max(free_worst, (free.fields.col(0).segment<3>(3 * v) - exact).norm());
  }
  // Roundoff of a 72-DOF CHOLMOD solve of an O(E) matrix: 1e-12 of the 1e-6 m stretch.
  EXPECT_LT(worst, 1e-12 / E) << "max |h_11 - x/E e_x|";
  EXPECT_GT(free_worst, 0.4 / E);  // the free field is centred: off by L / 2E at the clamp
  for (int v : fixed) EXPECT_EQ(mixed.fields.row(3 * v).norm(), 0.0);
  // The residual on the free DOFs, from an independent assembly with no DOF eliminated: the
  // solve satisfies K h = b wherever a vertex is free.
  const SpMat K = voigt_stiffness(elements_of(box), C, DofMap(box.num_vertices(), {}));
  std::vector<bool> is_fixed(box.num_vertices(), false);
  for (int v : fixed) is_fixed[v] = true;
  for (int j = 0; j < 6; ++j) {
    const VecX r = K * mixed.fields.col(j) - mixed.loads.col(j);
    double free_residual = 0.0;
    for (int v = 0; v < box.num_vertices(); ++v)
      if (!is_fixed[v]) free_residual = std::max(free_residual, r.segment<3>(3 * v).norm());
    EXPECT_LT(free_residual, 1e-10 * mixed.loads.col(j).norm()) << "case " << j;
  }
}

}  // namespace
}  // namespace simrun
