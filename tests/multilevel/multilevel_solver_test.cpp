// The multilevel direction (Trusty et al. Algs. 1-2, g read as -g as the text intends): Galerkin
// subspace solves, the fixed-count polish, descent, and convergence to H^{-1} b as the polish
// grows.
#include "multilevel/multilevel_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/SparseCholesky>

#include "fem/tet_elements.hpp"
#include "mesh/box.hpp"
#include "multilevel/handle_weights.hpp"
#include "multilevel/multilevel_setup.hpp"
#include "multilevel/scalar_operators.hpp"

namespace simrun {
namespace {

/// A vector Laplace "stiffness" kron(L_w, I3) + a small mass on a 2 x 1 x 1 box with a stiff
/// (1e4 x) slab, and bases: one affine handle and 4 slab handles.
struct Problem {
  SpMat H;  // lower triangle and upper (full)
  std::shared_ptr<MultilevelBases> bases;
  VecX b;
};

Problem make_problem() {
  const TetMesh mesh = make_box(Vec3(2.0, 1.0, 1.0), Eigen::Vector3i(16, 4, 4), 6);
  const int n = mesh.num_vertices();
  std::vector<int> label(mesh.num_tets()), center(4, -1);
  VecX youngs = VecX::Ones(mesh.num_tets());
  for (int e = 0; e < mesh.num_tets(); ++e) {
    double cx = 0.0;
    for (int a = 0; a < 4; ++a) cx += mesh.vertices(mesh.tets(e, a), 0) / 4.0;
    label[e] = std::min(3, static_cast<int>(cx / 0.5));
    if (label[e] == 2) youngs[e] = 1e4;
  }
  for (int p = 0; p < 4; ++p) {
    double best = 1e300;
    for (int e = 0; e < mesh.num_tets(); ++e)
      if (label[e] == p)
        for (int a = 0; a < 4; ++a) {
          const int v = mesh.tets(e, a);
          const double d =
              (mesh.vertices.row(v) - Eigen::RowVector3d(0.25 + 0.5 * p, 0.5, 0.5)).squaredNorm();
          if (d < best) best = d, center[p] = v;
        }
  }
  const SpMat L = weighted_laplacian(mesh.vertices, mesh.tets, youngs);
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int j = 0; j < L.outerSize(); ++j)
    for (SpMat::InnerIterator it(L, j); it; ++it)
      for (int c = 0; c < 3; ++c) entries.emplace_back(3 * it.row() + c, 3 * j + c, it.value());
  const VecX volume = lumped_vertex_volume(mesh.vertices, mesh.tets);
  for (int v = 0; v < n; ++v)
    for (int c = 0; c < 3; ++c) entries.emplace_back(3 * v + c, 3 * v + c, 1e-2 * volume[v]);
  Problem p;
  p.H.resize(3 * n, 3 * n);
  p.H.setFromTriplets(entries.begin(), entries.end());

  std::vector<int> full_to_free(3 * n);
  for (int i = 0; i < 3 * n; ++i) full_to_free[i] = i;
  const HandleWeights w = sms_handle_weights(mesh.vertices, mesh.tets, youngs, label, center,
                                             std::vector<bool>(n), true);
  MatX3 origin(4, 3);
  for (int h = 0; h < 4; ++h) origin.row(h) = mesh.vertices.row(w.origin_vertex[h]);
  const AffineHandles affine =
      affine_handles(mesh.vertices, volume, std::vector<int>(n, 0), 1, VecX());
  p.bases = std::make_shared<MultilevelBases>();
  p.bases->affine =
      lbs_basis(mesh.vertices, affine.phi, affine.origin, affine.length, full_to_free, 3 * n);
  p.bases->sms =
      lbs_basis(mesh.vertices, w.phi, origin, VecX::Constant(4, 0.25), full_to_free, 3 * n);
  // A smooth load plus a little noise.
  p.b.resize(3 * n);
  for (int v = 0; v < n; ++v) {
    const Eigen::RowVector3d X = mesh.vertices.row(v);
    p.b.segment<3>(3 * v) = volume[v] * Vec3(std::sin(2 * X[0]), X[1] * X[0], 1.0 + 0.1 * (v % 7));
  }
  return p;
}

TEST(MultilevelSolver, SubspaceStagesAreGalerkinSolutionsAndTheDirectionDescends) {
  const Problem p = make_problem();
  MultilevelSolverSettings settings;
  settings.fine_iterations = 0;
  settings.subspace_tolerance = 1e-10;
  auto solver = make_multilevel_solver(p.bases, settings);
  ASSERT_EQ(solver->factorize(p.H), Status::kSuccess);
  VecX d;
  solver->solve(p.b, d);
  // d is in the span of the bases and the final residual is H-orthogonal to the SMS space.
  const VecX residual = p.b - p.H * d;
  const VecX projected = p.bases->sms.transpose() * residual;
  EXPECT_LT(projected.norm(), 1e-8 * (p.bases->sms.transpose() * p.b).norm());
  EXPECT_GT(p.b.dot(d), 0.0);
  const auto& stats = solver->stats();
  EXPECT_GT(stats.level_iterations[0], 0);
  EXPECT_GT(stats.level_iterations[1], 0);
  EXPECT_EQ(stats.level_iterations[2], 0);
  EXPECT_EQ(stats.iterations, stats.level_iterations[0] + stats.level_iterations[1]);
}

TEST(MultilevelSolver, PolishDrivesTheDirectionToTheNewtonStep) {
  const Problem p = make_problem();
  Eigen::SimplicialLDLT<SpMat> exact(p.H);
  const VecX newton = exact.solve(p.b);
  double previous = 1e300;
  for (int polish : {0, 10, 40, 400}) {
    MultilevelSolverSettings settings;
    settings.fine_iterations = polish;
    auto solver = make_multilevel_solver(p.bases, settings);
    ASSERT_EQ(solver->factorize(p.H), Status::kSuccess);
    VecX d;
    solver->solve(p.b, d);
    // CG lowers the error in the energy norm (not necessarily in the 2-norm) at every iteration.
    const VecX e = d - newton;
    const double error = std::sqrt(e.dot(p.H * e) / newton.dot(p.H * newton));
    EXPECT_LT(error, previous) << polish << " polish iterations";
    EXPECT_GT(p.b.dot(d), 0.0);
    previous = error;
  }
  EXPECT_LT(previous, 1e-6);
}

TEST(MultilevelSolver, TheSubspacesBeatThePolishAlone) {
  // Same fine-iteration budget: with the subspace stages the direction is much closer to the
  // Newton step on this stiff-slab problem than Jacobi-PCG alone (an empty SMS level).
  const Problem p = make_problem();
  Eigen::SimplicialLDLT<SpMat> exact(p.H);
  const VecX newton = exact.solve(p.b);
  auto empty = std::make_shared<MultilevelBases>();
  empty->affine.resize(p.H.rows(), 0);
  empty->sms.resize(p.H.rows(), 0);
  MultilevelSolverSettings settings;
  settings.fine_iterations = 20;
  double error[2];
  int k = 0;
  for (const auto& bases : {std::shared_ptr<const MultilevelBases>(p.bases),
                            std::shared_ptr<const MultilevelBases>(empty)}) {
    auto solver = make_multilevel_solver(bases, settings);
    ASSERT_EQ(solver->factorize(p.H), Status::kSuccess);
    VecX d;
    solver->solve(p.b, d);
    error[k++] = (d - newton).norm() / newton.norm();
  }
  EXPECT_LT(error[0], 0.5 * error[1]) << error[0] << " vs " << error[1];
}

TEST(MultilevelSolver, AssembledSubspaceSolvesEqualTheMatrixFreeOnesAtTightTolerance) {
  const Problem p = make_problem();
  VecX d[2];
  int k = 0;
  for (auto products : {MultilevelSolverSettings::Products::kMatrixFree,
                        MultilevelSolverSettings::Products::kAssembled}) {
    MultilevelSolverSettings settings;
    settings.products = products;
    settings.subspace_tolerance = 1e-13;
    settings.fine_iterations = 5;
    auto solver = make_multilevel_solver(p.bases, settings);
    ASSERT_EQ(solver->factorize(p.H), Status::kSuccess);
    solver->solve(p.b, d[k++]);
  }
  EXPECT_LT((d[0] - d[1]).norm(), 1e-8 * d[1].norm());
}

/// A free thin plate, 1 x 0.0125 x 1 m (L / t = 80, as trusty_fig14_stiffness.py --body plate),
/// 16 x 2 x 16 cells: the linear-elastic stiffness at E = 1 Pa (nu = 0.4), the lumped mass over
/// h^2 (rho = 1000, h = 0.01 s), the multilevel bases of 16 partitions, and a load (gravity and
/// a push up at one corner, as a first contact).
struct PlateProblem {
  SpMat K1, mass;  // full (both triangles)
  MultilevelPrecompute precompute;
  /// The SMS level alone (no affine level before it), with its deflation space: its PCG then
  /// sees the right-hand side's affine part, as it does in the solver when the affine level
  /// leaves one of rounding size (on trusty_fig14_stiffness.py's 16k-tet plate at E = 1e10, half
  /// the SMS right-hand side of the contact step's first Newton iteration).
  std::shared_ptr<MultilevelBases> sms_only;
  VecX b;
  SpMat newton_matrix(double E) const { return SpMat(mass + E * K1); }
};

PlateProblem make_plate() {
  const TetMesh mesh = make_box(Vec3(0.2, 0.0025, 0.2), Eigen::Vector3i(16, 2, 16), 6);
  const int n = mesh.num_vertices();
  const TetElements el = precompute_tet_elements(mesh.vertices, mesh.tets);
  const double nu = 0.4, mu = 1.0 / (2.0 * (1.0 + nu)), lambda = nu / ((1.0 + nu) * (1.0 - 2 * nu));
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int e = 0; e < el.size(); ++e) {
    const TetGradients& G = el.grad[e];
    // Isotropic linear elasticity: K_ab(i, k) = V (lambda G_ai G_bk + mu G_ak G_bi
    // + mu delta_ik G_a . G_b).
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int i = 0; i < 3; ++i)
          for (int k = 0; k < 3; ++k) {
            const double value =
                el.volume[e] * (lambda * G(a, i) * G(b, k) + mu * G(a, k) * G(b, i) +
                                (i == k ? mu * G.row(a).dot(G.row(b)) : 0.0));
            entries.emplace_back(3 * mesh.tets(e, a) + i, 3 * mesh.tets(e, b) + k, value);
          }
  }
  PlateProblem p;
  p.K1.resize(3 * n, 3 * n);
  p.K1.setFromTriplets(entries.begin(), entries.end());
  const VecX mass = 1000.0 * lumped_vertex_volume(mesh.vertices, mesh.tets);
  entries.clear();
  for (int v = 0; v < n; ++v)
    for (int c = 0; c < 3; ++c) entries.emplace_back(3 * v + c, 3 * v + c, mass[v] / 1e-4);
  p.mass.resize(3 * n, 3 * n);
  p.mass.setFromTriplets(entries.begin(), entries.end());

  MultilevelInput in;
  in.rest = mesh.vertices;
  in.tets = mesh.tets;
  in.youngs = VecX::Constant(mesh.num_tets(), 1.0);
  in.material.assign(mesh.num_tets(), 0);
  in.tet_offset = {0, mesh.num_tets()};
  in.fixed.assign(n, false);
  in.vertex_mass = mass;
  in.full_to_free.resize(3 * n);
  for (int i = 0; i < 3 * n; ++i) in.full_to_free[i] = i;
  in.num_free = 3 * n;
  MultilevelSetupSettings settings;
  settings.partitions = 16;
  p.precompute = build_multilevel(in, settings);
  p.sms_only = std::make_shared<MultilevelBases>(*p.precompute.bases);
  p.sms_only->affine.resize(3 * n, 0);
  p.b = VecX::Zero(3 * n);
  for (int v = 0; v < n; ++v) {
    p.b[3 * v + 1] = -9.81 * mass[v];
    if (mesh.vertices(v, 0) < 0.02 && mesh.vertices(v, 2) < 0.02 && mesh.vertices(v, 1) < 1e-9)
      p.b[3 * v + 1] += 2.0;
  }
  return p;
}

/// SMS PCG iterations of one matrix-free solve (no polish) and its direction.
int sms_iterations(const PlateProblem& p, double E,
                   MultilevelSolverSettings::SmsDeflation deflation, double tolerance,
                   VecX* direction = nullptr) {
  MultilevelSolverSettings settings;
  settings.products = MultilevelSolverSettings::Products::kMatrixFree;
  settings.sms_deflation = deflation;
  settings.subspace_tolerance = tolerance;
  settings.fine_iterations = 0;
  auto solver = make_multilevel_solver(p.sms_only, settings);
  EXPECT_EQ(solver->factorize(p.newton_matrix(E)), Status::kSuccess);
  VecX d;
  solver->solve(p.b, d);
  if (direction) *direction = d;
  return solver->stats().level_iterations[1];
}

TEST(MultilevelSolver, AffineDeflationKeepsTheSmsIterationsFlatFromSoftToStiff) {
  // Trusty et al. Fig. 14's claim on a thin plate: block-Jacobi leaves the six rigid motions,
  // whose curvature is only the mass M / h^2, as isolated eigenvalues E-times smaller than the
  // elastic ones, and the plain SMS PCG iterates longer as E grows; deflating each object's
  // affine field (which the SMS space reproduces exactly) solves them exactly.
  const PlateProblem p = make_plate();
  using D = MultilevelSolverSettings::SmsDeflation;
  const int plain_soft = sms_iterations(p, 1e6, D::kNone, 1e-4);
  const int plain_stiff = sms_iterations(p, 1e10, D::kNone, 1e-4);
  const int deflated_soft = sms_iterations(p, 1e6, D::kAffine, 1e-4);
  const int deflated_stiff = sms_iterations(p, 1e10, D::kAffine, 1e-4);
  // Measured: plain 63 -> 179 (2.8x), deflated 38 -> 47 (1.24x). The bounds are the issue's
  // "flat within 2x" and its premise; a deflation that did nothing would fail the second.
  EXPECT_GT(plain_stiff, 2 * plain_soft) << "the premise: the plain PCG grows with E";
  EXPECT_LE(deflated_stiff, 2 * deflated_soft)
      << deflated_soft << " -> " << deflated_stiff << " (plain " << plain_soft << " -> "
      << plain_stiff << ")";
  EXPECT_LT(deflated_stiff, plain_stiff);
}

TEST(MultilevelSolver, AffineDeflationConvergesToTheSameSubspaceDirection) {
  // Deflation changes how the SMS system is solved, not which: at a tight tolerance the deflated
  // PCG, the plain one and the assembled exact solve give the same direction.
  const PlateProblem p = make_plate();
  using D = MultilevelSolverSettings::SmsDeflation;
  for (double E : {1e6, 1e10}) {
    VecX plain, deflated, exact;
    sms_iterations(p, E, D::kNone, 1e-12, &plain);
    sms_iterations(p, E, D::kAffine, 1e-12, &deflated);
    MultilevelSolverSettings settings;
    settings.products = MultilevelSolverSettings::Products::kAssembled;
    settings.fine_iterations = 0;
    auto solver = make_multilevel_solver(p.precompute.bases, settings);
    ASSERT_EQ(solver->factorize(p.newton_matrix(E)), Status::kSuccess);
    solver->solve(p.b, exact);
    // The assembled matrix carries a 1e-12 relative diagonal shift and the stiff system's
    // condition reaches ~1e6: agreement to ~1e-6 is what rounding allows.
    EXPECT_LT((deflated - exact).norm(), 1e-6 * exact.norm()) << "E " << E;
    EXPECT_LT((plain - exact).norm(), 1e-6 * exact.norm()) << "E " << E;
    // At the solver's default tolerance the deflated direction is as close in the energy norm
    // as the plain one's tolerance promises.
    VecX loose;
    sms_iterations(p, E, D::kAffine, 1e-4, &loose);
    const SpMat H = p.newton_matrix(E);
    const VecX e = loose - exact;
    EXPECT_LT(std::sqrt(e.dot(H * e) / exact.dot(H * exact)), 1e-2) << "E " << E;
  }
}

TEST(MultilevelSolver, RitzVectorsOfEarlierSolvesCutTheStiffCountFurther) {
  // sms_ritz_vectors: the lowest Ritz vectors of one solve join the next set-up's deflation
  // space. On the stiff plate the affine field leaves the soft bending modes; with 16 Ritz
  // vectors the next solve (another load, as the next Newton iteration's) needs fewer
  // iterations, and still converges to the same direction.
  const PlateProblem p = make_plate();
  const SpMat H = p.newton_matrix(1e10);
  VecX other = p.b;  // a push at the opposite corner too
  for (Eigen::Index i = 1; i < other.size(); i += 3)
    if (i % 7 == 1) other[i] += 0.5;
  auto second_solve = [&](int ritz, double tolerance, VecX* direction) {
    MultilevelSolverSettings settings;
    settings.products = MultilevelSolverSettings::Products::kMatrixFree;
    settings.sms_deflation = MultilevelSolverSettings::SmsDeflation::kAffine;
    settings.sms_ritz_vectors = ritz;
    settings.subspace_tolerance = tolerance;
    settings.fine_iterations = 0;
    auto solver = make_multilevel_solver(p.sms_only, settings);
    EXPECT_EQ(solver->factorize(H), Status::kSuccess);
    VecX d;
    solver->solve(p.b, d);
    EXPECT_EQ(solver->factorize(H), Status::kSuccess);  // the next Newton iteration's set-up
    solver->reset_stats();
    solver->solve(other, d);
    if (direction) *direction = d;
    return solver->stats().level_iterations[1];
  };
  const int affine = second_solve(0, 1e-4, nullptr);
  const int ritz = second_solve(16, 1e-4, nullptr);
  // Measured: 47 -> 20 on this plate (the 64k-tet plate of trusty_fig14_stiffness.py at
  // E = 1e10: 62 -> 35 per solve over a Newton step).
  EXPECT_LT(ritz, 0.8 * affine) << affine << " -> " << ritz;
  VecX with_ritz;
  second_solve(16, 1e-12, &with_ritz);
  // The Galerkin solution U (U^T H U)^-1 U^T b by a dense LDL^T without the assembled solver's
  // 1e-12 diagonal shift, which moves the rigid components (eigenvalues 1e-6 of the largest)
  // by ~1e-6.
  const RowSpMat& U = p.sms_only->sms;
  const MatX reduced = MatX(U.transpose() * H * U);
  const VecX exact = U * VecX(reduced.ldlt().solve(VecX(U.transpose() * other)));
  const VecX e = with_ritz - exact;
  // Energy norm: measured 1.65e-7, as for the affine deflation alone (the rounding of the
  // reference and of the stiff system, not of the Ritz vectors).
  const double error = std::sqrt(e.dot(H * e) / exact.dot(H * exact));
  EXPECT_LT(error, 1e-6);
}

TEST(MultilevelSolver, RitzVectorsFollowAChangedMatrix) {
  // The Ritz vectors of a set-up with Ritz vectors already in its deflation space come from
  // the kept vectors and the new solve's search directions together. On the stiff plate the
  // kept vectors have unit length and the directions a length of |r| over the matrix's scale,
  // so the harvest must compare them in a scale-free metric: otherwise it drops every new
  // direction, and after the Hessian changes the Ritz vectors stay those of the old one.
  const PlateProblem p = make_plate();
  const SpMat before = p.newton_matrix(1e10);
  // Another SPD matrix with other soft modes: S H S, one half of the DOFs 30 times stiffer.
  VecX scale = VecX::Ones(before.rows());
  scale.tail(before.rows() / 2).setConstant(std::sqrt(30.0));
  const SpMat after = SpMat(scale.asDiagonal() * before * scale.asDiagonal());
  MultilevelSolverSettings settings;
  settings.products = MultilevelSolverSettings::Products::kMatrixFree;
  settings.sms_deflation = MultilevelSolverSettings::SmsDeflation::kAffine;
  settings.sms_ritz_vectors = 16;
  settings.subspace_tolerance = 1e-4;
  settings.fine_iterations = 0;
  VecX other = p.b;
  for (Eigen::Index i = 1; i < other.size(); i += 3)
    if (i % 7 == 1) other[i] += 0.5;
  // The count of a solve on `after` once the solver has done `history` solves on it (and,
  // with `stale`, first one on `before`).
  auto count_after = [&](bool stale, int history) {
    auto solver = make_multilevel_solver(p.sms_only, settings);
    VecX d;
    if (stale) {
      EXPECT_EQ(solver->factorize(before), Status::kSuccess);
      solver->solve(p.b, d);
    }
    for (int k = 0; k < history; ++k) {
      EXPECT_EQ(solver->factorize(after), Status::kSuccess);
      solver->solve(k % 2 ? other : p.b, d);
    }
    EXPECT_EQ(solver->factorize(after), Status::kSuccess);
    solver->reset_stats();
    solver->solve(other, d);
    return solver->stats().level_iterations[1];
  };
  const int fresh = count_after(false, 1);  // Ritz vectors of `after` alone
  const int stale = count_after(true, 0);   // those of `before`
  const int relearned = count_after(true, 3);
  EXPECT_LE(relearned, fresh + 2) << "fresh " << fresh << ", stale " << stale;
  // Measured: fresh 40, stale 59, relearned 31; with the new directions dropped (the bug this
  // guards against) 45, 59 and 60.
  EXPECT_LT(relearned, stale) << "fresh " << fresh;
}

/// H split into parts: fresh = half its diagonal (a mass), elastic = the rest.
HessianParts split(const SpMat& H) {
  HessianParts parts;
  parts.fresh = SpMat(H.rows(), H.cols());
  parts.fresh.setIdentity();
  parts.fresh.diagonal() = 0.5 * H.diagonal();
  parts.elastic_lagged = H - parts.fresh;
  parts.elastic_valid = true;
  return parts;
}

TEST(MultilevelSolver, PartsWithoutACubatureRuleGiveTheWholeMatrixDirection) {
  const Problem p = make_problem();
  MultilevelSolverSettings settings;
  settings.hessian_parts = true;
  VecX d_whole, d_parts;
  auto whole = make_multilevel_solver(p.bases, settings);
  ASSERT_EQ(whole->factorize(p.H), Status::kSuccess);
  whole->solve(p.b, d_whole);
  auto parted = make_multilevel_solver(p.bases, settings);
  ASSERT_TRUE(parted->uses_hessian_parts());
  ASSERT_EQ(parted->factorize_parts(split(p.H), true), Status::kSuccess);
  parted->solve(p.b, d_parts);
  EXPECT_LT((d_whole - d_parts).norm(), 1e-10 * d_whole.norm());
}

TEST(MultilevelSolver, SubspaceLevelsSolveTheCubatureMatrixAndThePolishTheLaggedOne) {
  // H_sub differs from H_lag (its elastic part halved, as a cubature rule that is not exact on
  // this problem would). The subspace stages are Galerkin for H_sub; with the lagged fine
  // residual (the default) a long polish converges to H_lag^-1 b, with the printed one (r from
  // H_sub) it does not.
  const Problem p = make_problem();
  HessianParts parts = split(p.H);
  parts.elastic_cubature = 0.5 * parts.elastic_lagged;  // H_sub = H / 2 + diag(H) / 4: SPD
  parts.has_cubature = true;
  const SpMat H_sub = parts.fresh + parts.elastic_cubature;
  MultilevelSolverSettings settings;
  settings.hessian_parts = true;
  settings.subspace_tolerance = 1e-12;
  settings.fine_iterations = 0;
  auto subspace_only = make_multilevel_solver(p.bases, settings);
  ASSERT_EQ(subspace_only->factorize_parts(parts, false), Status::kSuccess);
  VecX d;
  subspace_only->solve(p.b, d);
  const VecX projected = p.bases->sms.transpose() * VecX(p.b - H_sub * d);
  EXPECT_LT(projected.norm(), 1e-8 * (p.bases->sms.transpose() * p.b).norm());

  Eigen::SimplicialLDLT<SpMat> exact(p.H);
  const VecX newton = exact.solve(p.b);
  settings.fine_iterations = 2000;
  double error[2];
  int k = 0;
  for (auto residual : {MultilevelSolverSettings::FineResidual::kLagged,
                        MultilevelSolverSettings::FineResidual::kSubspace}) {
    settings.fine_residual = residual;
    auto solver = make_multilevel_solver(p.bases, settings);
    ASSERT_EQ(solver->factorize_parts(parts, false), Status::kSuccess);
    solver->solve(p.b, d);
    EXPECT_GT(p.b.dot(d), 0.0);
    error[k++] = (d - newton).norm() / newton.norm();
  }
  EXPECT_LT(error[0], 1e-6);
  EXPECT_GT(error[1], 1e-3);
}

TEST(MultilevelSolver, NegativeDiagonalIsReportedAndSolveNeedsAFactorization) {
  const Problem p = make_problem();
  auto solver = make_multilevel_solver(p.bases);
  VecX d;
  EXPECT_THROW(solver->solve(p.b, d), std::logic_error);
  SpMat negative = p.H;
  negative.coeffRef(0, 0) = -1.0;
  EXPECT_EQ(solver->factorize_positive_definite(negative), Status::kNumericalIssue);
}

/// H with one negative-curvature direction hidden behind a positive diagonal: the rank-one
/// update H - c v v^T with v a translation along x (only the small mass resists it) and
/// c v^T v v^T v = 2 v^T H v, a negative curvature that the diagonal test cannot catch.
SpMat indefinite_with_positive_diagonal(const Problem& p, VecX& v) {
  v = VecX::Zero(p.H.rows());
  for (Eigen::Index i = 0; i < v.size(); i += 3) v[i] = 1.0;
  const double rayleigh = v.dot(p.H * v) / v.squaredNorm();
  const MatX update = (2.0 * rayleigh / v.squaredNorm()) * v * v.transpose();
  SpMat H = (MatX(p.H) - update).sparseView();
  return H;
}

TEST(MultilevelSolver, IndefiniteMatricesAreReportedWhenAPositiveDefiniteOneWasRequired) {
  const Problem p = make_problem();
  VecX v;
  const SpMat H = indefinite_with_positive_diagonal(p, v);
  ASSERT_GT(H.diagonal().minCoeff(), 0.0);
  ASSERT_LT(v.dot(H * v), 0.0);
  // Assembled subspace solves: U^T H U is indefinite too (v is affine), so the set-up itself
  // refuses, before any solve.
  MultilevelSolverSettings assembled;
  assembled.products = MultilevelSolverSettings::Products::kAssembled;
  EXPECT_EQ(make_multilevel_solver(p.bases, assembled)->factorize_positive_definite(H),
            Status::kNumericalIssue);
  // Matrix-free: the set-up (diagonal, 12x12 blocks) passes; a stage meets the negative
  // curvature and says so.
  auto matrix_free = make_multilevel_solver(p.bases);
  ASSERT_EQ(matrix_free->factorize_positive_definite(H), Status::kSuccess);
  VecX d;
  matrix_free->solve(p.b, d);
  EXPECT_TRUE(matrix_free->solve_proved_indefinite());
  // Not required to be positive definite (`projection: never`): the stages keep what they have
  // and nothing is reported; an SPD matrix is never reported.
  ASSERT_EQ(matrix_free->factorize(H), Status::kSuccess);
  matrix_free->solve(p.b, d);
  EXPECT_FALSE(matrix_free->solve_proved_indefinite());
  EXPECT_EQ(make_multilevel_solver(p.bases, assembled)->factorize(H), Status::kSuccess);
  ASSERT_EQ(matrix_free->factorize_positive_definite(p.H), Status::kSuccess);
  matrix_free->solve(p.b, d);
  EXPECT_FALSE(matrix_free->solve_proved_indefinite());
}

TEST(MultilevelSolver, ThePolishReportsTheNegativeCurvatureItMeets) {
  // Without subspaces the direction is the polish alone, and b = diag(H) v makes its first
  // Jacobi-CG direction v itself, whose curvature v^T H v < 0: reported deterministically.
  const Problem p = make_problem();
  VecX v;
  const SpMat H = indefinite_with_positive_diagonal(p, v);
  const Eigen::Index n = H.rows();
  auto no_subspaces = std::make_shared<MultilevelBases>();
  no_subspaces->affine.resize(n, 0);
  no_subspaces->sms.resize(n, 0);
  auto solver = make_multilevel_solver(no_subspaces);
  ASSERT_EQ(solver->factorize_positive_definite(H), Status::kSuccess);
  const VecX b = H.diagonal().cwiseProduct(v);
  VecX d;
  solver->solve(b, d);
  EXPECT_TRUE(solver->solve_proved_indefinite());
  ASSERT_EQ(solver->factorize_positive_definite(p.H), Status::kSuccess);
  solver->solve(b, d);
  EXPECT_FALSE(solver->solve_proved_indefinite());
}

}  // namespace
}  // namespace simrun
