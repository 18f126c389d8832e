// The exponential family (ERE, SIERE, SBDF2ERE, STR-SBDF2ERE) against dense 2n x 2n
// references written straight from the survey's equations (17, 20, 22-26) on a small
// neo-Hookean cantilever away from rest (indefinite K, Rayleigh damping), plus the identities
// that tie them together: s = 0 is SI, s = n without damping is ERE. Dense exponentials come
// from Eigen's MatrixFunctions; eigenvectors from a dense generalized eigensolver.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <random>
#include <unsupported/Eigen/MatrixFunctions>

#include "integrate/integrator.hpp"
#include "integrate/spectral_split.hpp"
#include "material/material.hpp"
#include "mesh/box.hpp"
#include "model/elastic_energy.hpp"
#include "model/gravity_energy.hpp"

namespace simrun {
namespace {

/// A 0.3 x 0.1 x 0.1 m box of 3 x 1 x 1 cubes (6 tets each), neo-Hookean (E = 1e5, nu = 0.3,
/// rho = 1000), lumped mass, gravity, the x = 0 face fixed: 36 free DOFs.
struct SmallBody {
  TetMesh mesh;
  TetElements elements;
  std::unique_ptr<Model> model;

  explicit SmallBody(RayleighDamping damping, const std::string& material = "neohookean") {
    mesh = make_box(Vec3(0.3, 0.1, 0.1), Eigen::Vector3i(3, 1, 1), 6);
    elements = precompute_tet_elements(mesh.vertices, mesh.tets);
    const double rho = 1000.0;
    std::vector<std::unique_ptr<EnergyTerm>> terms;
    terms.push_back(std::make_unique<ElasticEnergy>(
        elements, std::shared_ptr<Material>(make_material(material)),
        std::vector<LameParameters>(mesh.num_tets(), lame_from_young_poisson(1e5, 0.3)),
        mesh.num_vertices()));
    VecX lumped = VecX::Zero(3 * mesh.num_vertices());
    for (int e = 0; e < mesh.num_tets(); ++e)
      for (int a = 0; a < 4; ++a)
        lumped.segment<3>(3 * mesh.tets(e, a)).array() += rho * elements.volume[e] / 4;
    terms.push_back(
        std::make_unique<GravityEnergy>(Vec3(0, -9.81, 0), lumped, VecX(as_flat(mesh.vertices))));
    std::vector<int> fixed;
    for (int v = 0; v < mesh.num_vertices(); ++v)
      if (mesh.vertices(v, 0) == 0.0) fixed.push_back(v);
    model =
        std::make_unique<Model>(mesh.vertices, elements, VecX::Constant(mesh.num_tets(), rho), true,
                                DofMap(mesh.num_vertices(), fixed), std::move(terms), damping);
  }

  /// A state away from rest: the bar bent and squeezed so that K(q) is indefinite.
  State deformed() const {
    const VecX rest = model->restrict_vector(model->rest_positions());
    std::mt19937 rng(7);
    std::normal_distribution<double> normal;
    State s{rest, VecX(rest.size()), 0.0};
    for (Eigen::Index i = 0; i < rest.size(); ++i) {
      s.q[i] += 0.012 * normal(rng);
      s.v[i] = 0.3 * normal(rng);
    }
    return s;
  }
};

/// The first-order system at a state, dense: J = [[0, I], [-M^-1 K, -M^-1 D]], F = [v; M^-1 f].
struct DenseSystem {
  MatX M, K, D, J;
  VecX f, F;
  Eigen::Index n = 0;

  DenseSystem(Model& model, const State& s) : n(s.q.size()) {
    M = model.lumped_mass().asDiagonal();
    SpMat K_sparse, K_rest;
    model.stiffness(s.q, K_sparse, false);
    K = MatX(K_sparse);
    model.stiffness(model.restrict_vector(model.rest_positions()), K_rest, false);
    // Rayleigh damping on the rest stiffness, or on the unprojected K(q) ("current" with
    // newton.projection = never, as the pencil tests set).
    const MatX K_damping = model.damping().stiffness_at_rest ? MatX(K_rest) : K;
    D = model.damping().mass * M + model.damping().stiffness * K_damping;
    VecX g;
    model.potential_gradient(s.q, g);
    f = -g - D * s.v;
    const MatX Minv = M.inverse();
    J = MatX::Zero(2 * n, 2 * n);
    J.topRightCorner(n, n).setIdentity();
    J.bottomLeftCorner(n, n) = -Minv * K;
    J.bottomRightCorner(n, n) = -Minv * D;
    F.resize(2 * n);
    F << s.v, Minv * f;
  }

  /// The split of survey eq. 23 with the s lowest modes: J_G, G = [P v; U U^T f], H = F - G.
  void split(int s, const State& state, MatX& J_G, VecX& G, VecX& H, VecX* eigenvalues = nullptr) {
    Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(K, M);
    const MatX U = eig.eigenvectors().leftCols(s);
    if (eigenvalues) *eigenvalues = eig.eigenvalues();
    const MatX P = U * U.transpose() * M;
    J_G = MatX::Zero(2 * n, 2 * n);
    J_G.topRightCorner(n, n) = P;
    J_G.bottomLeftCorner(n, n) = -U * (U.transpose() * K * U) * U.transpose() * M;
    G.resize(2 * n);
    G << P * state.v, U * U.transpose() * f;
    H = F - G;
  }
};

/// Dense t phi_1(t A) b from the augmented exponential (thesis eq. 4.5).
VecX dense_phi1(double t, const MatX& A, const VecX& b) {
  const Eigen::Index n = A.rows();
  MatX augmented = MatX::Zero(n + 1, n + 1);
  augmented.topLeftCorner(n, n) = A;
  augmented.topRightCorner(n, 1) = b;
  return (t * augmented).exp().topRightCorner(n, 1);
}

VecX stack(const State& s) {
  VecX u(2 * s.q.size());
  u << s.q, s.v;
  return u;
}

State step(const std::string& name, IntegratorSettings settings, Model& model, State s, double h,
           int steps = 1) {
  auto integrator = make_integrator(name, settings);
  for (int i = 0; i < steps; ++i) {
    StepStats stats;
    EXPECT_EQ(integrator->step(model, s, h, stats), Status::kSuccess) << name;
  }
  return s;
}

/// |a - b| relative to the increment b - start.
double relative_difference(const VecX& a, const VecX& b, const VecX& start) {
  return (a - b).norm() / (b - start).norm();
}

const RayleighDamping kDamped{2.0, 1e-3, true};
/// Rotation-aware damping (issue 13 part 6): beta K(q) on the current, unprojected stiffness
/// ("stiffness_at": "current" with newton.projection "never", as DenseSystem forms it).
const RayleighDamping kDampedCurrent{2.0, 1e-3, false};

/// Settings for `damping`: the projection "never" that makes current damping K(q) itself.
IntegratorSettings settings_for(const RayleighDamping& damping) {
  IntegratorSettings settings;
  if (!damping.stiffness_at_rest) settings.newton.projection = HessianProjection::kNever;
  return settings;
}

TEST(ExponentialFamily, TheDeformedStateHasAnIndefiniteStiffness) {
  SmallBody body(kDamped);
  const State s = body.deformed();
  DenseSystem dense(*body.model, s);
  MatX J_G;
  VecX G, H, lambda;
  dense.split(3, s, J_G, G, H, &lambda);
  EXPECT_LT(lambda[0], 0.0);  // the split then exercises the sinh/cosh branch
  EXPECT_GT(lambda[3] - lambda[2], 1e-2 * std::abs(lambda[3]));  // an unambiguous 3-mode split
}

TEST(ExponentialFamily, EreMatchesTheDenseExponential) {
  for (const RayleighDamping& damping : {kDamped, kDampedCurrent}) {
    SmallBody body(damping);
    const State s = body.deformed();
    DenseSystem dense(*body.model, s);
    const double h = 0.01;
    const VecX expected = stack(s) + dense_phi1(h, dense.J, dense.F);  // survey eq. 17
    IntegratorSettings settings = settings_for(damping);
    settings.krylov.tolerance = 1e-10;
    const State got = step("ere", settings, *body.model, s, h);
    EXPECT_LT(relative_difference(stack(got), expected, stack(s)), 1e-7)
        << "damping at rest " << damping.stiffness_at_rest;
  }
}

/// Two SIERE steps, each against survey eq. 20 / 24a at its start, with the damping `damping`
/// and step h, from the bent bar (`bent`, K(q) indefinite) or from rest with velocities.
/// `borrowed`: D is alpha M + beta K(q), so the step matrix A = M + h D + h^2 K is a multiple of
/// K - sigma M, A is positive definite and |sigma| is small against the first solve's highest
/// eigenvalue: the second step's eigensolve shift-inverts with A's factorization (one
/// factorization per step). Otherwise (D on the rest stiffness, A indefinite, or |sigma| too
/// large) the eigensolver factorizes K - sigma M itself. The Woodbury update takes A^-1 K U from
/// A^-1 M U whenever D is in the pencil, borrowed or not.
void expect_siere_matches_dense(const RayleighDamping& damping, double h, bool bent,
                                bool borrowed) {
  SmallBody body(damping);
  State s = body.deformed();
  if (!bent) s.q = body.model->restrict_vector(body.model->rest_positions());
  IntegratorSettings settings;
  settings.modes = 3;
  settings.newton.projection = HessianProjection::kNever;  // "current" damping on K(q) itself
  auto siere = make_integrator("siere", settings);
  for (int i = 0; i < 2; ++i) {
    DenseSystem dense(*body.model, s);
    MatX J_G;
    VecX G, H;
    dense.split(3, s, J_G, G, H);
    const MatX A = MatX::Identity(2 * dense.n, 2 * dense.n) - h * (dense.J - J_G);
    // Survey eq. 20 / 24a: u1 = u0 + (I - h J_H)^-1 (h H(u0) + h phi_1(h J_G) G(u0)).
    const VecX expected = stack(s) + A.partialPivLu().solve(h * H + dense_phi1(h, J_G, G));
    State got = s;
    StepStats stats;
    ASSERT_EQ(siere->step(*body.model, got, h, stats), Status::kSuccess);
    EXPECT_LT(relative_difference(stack(got), expected, stack(s)), 1e-9) << h << " step " << i;
    if (i == 1 && borrowed) {
      EXPECT_EQ(stats.factorizations, 1) << h;  // the eigensolve shift-inverted with the step's
      EXPECT_EQ(stats.solves, 2) << h;          // the Woodbury block and the step's solve
      EXPECT_GT(stats.eigen_products, 0) << h;
    } else if (i == 1) {
      EXPECT_GE(stats.factorizations, 2) << h;
    }
    s = got;
  }
}

TEST(ExponentialFamily, SiereMatchesTheDenseSplitStep) {
  const RayleighDamping mass_only{2.0, 0.0, true}, current{2.0, 1e-3, false};
  expect_siere_matches_dense(kDamped, 0.05, false, false);  // rest-stiffness D: not in the pencil
  for (const RayleighDamping& d : {RayleighDamping{}, mass_only, current}) {
    // h = 0.01 on the bent bar: M + h D + h^2 K is indefinite (LDL^T), the own shift is used.
    expect_siere_matches_dense(d, 0.01, true, false);
    // From rest, h = 0.1: sigma ~ -1 / h^2 = -100, below a quarter of lambda_3.
    expect_siere_matches_dense(d, 0.1, false, true);
    // h = 0.002: sigma ~ -2.5e5, far below the wanted eigenvalues: the own shift converges
    // faster.
    expect_siere_matches_dense(d, 0.002, false, false);
  }
}

/// SBDF2ERE's second step against survey eq. 22, u1 = u0 + 1/3 (I - 2h/3 J_H)^-1 (u0 - u_-1 +
/// 2h H + 2h phi_1(t J_G) G), with t = h as printed and t = 2h in the consistent form.
void expect_sbdf2ere_matches_dense(bool printed, const RayleighDamping& damping = kDamped) {
  SmallBody body(damping);
  const State s0 = body.deformed();
  const double h = 0.01;
  IntegratorSettings settings = settings_for(damping);
  settings.modes = 3;
  settings.printed_phi_argument = printed;
  const State s1 = step("siere", settings, *body.model, s0, h);  // SBDF2ERE's start-up step
  const State s2 = step("sbdf2ere", settings, *body.model, s0, h, 2);
  DenseSystem dense(*body.model, s1);
  MatX J_G;
  VecX G, H;
  dense.split(3, s1, J_G, G, H);
  const double t = printed ? h : 2 * h;
  const MatX A = MatX::Identity(2 * dense.n, 2 * dense.n) - (2 * h / 3) * (dense.J - J_G);
  const VecX expected = stack(s1) + A.partialPivLu().solve(stack(s1) - stack(s0) + 2 * h * H +
                                                           (2 * h / t) * dense_phi1(t, J_G, G)) /
                                        3;
  EXPECT_LT(relative_difference(stack(s2), expected, stack(s1)), 1e-9);
}

TEST(ExponentialFamily, Sbdf2ereMatchesTheDenseTwoStepFormula) {
  expect_sbdf2ere_matches_dense(false);
  expect_sbdf2ere_matches_dense(true);
  // D = alpha M: the pencil path (borrowed factorization, Woodbury from A^-1 M U) at tau = 2h/3.
  expect_sbdf2ere_matches_dense(false, RayleighDamping{2.0, 0.0, true});
  expect_sbdf2ere_matches_dense(false, kDampedCurrent);  // rotation-aware damping
}

/// STR-SBDF2ERE against survey eqs. 26a-c; phi_1((h/2) J_G) as printed, phi_1(h J_G) consistent.
void expect_str_sbdf2ere_matches_dense(bool printed, const RayleighDamping& damping = kDamped) {
  SmallBody body(damping);
  const State s0 = body.deformed();
  const double h = 0.01;
  const Eigen::Index n = s0.q.size();
  const MatX I = MatX::Identity(2 * n, 2 * n);
  DenseSystem d0(*body.model, s0);
  // Eq. 26a: u_1/2 = u0 + 1/2 (I - h/4 J_0)^-1 h F(u0).
  const VecX half = stack(s0) + (I - (h / 4) * d0.J).partialPivLu().solve(h * d0.F) / 2;
  const State s_half{half.head(n), half.tail(n), h / 2};
  DenseSystem dh(*body.model, s_half);
  MatX J_G;
  VecX G, H;
  dh.split(3, s_half, J_G, G, H);
  // Eqs. 26b, 26c: h phi_1(t J_G) G = (h / t) t phi_1(t J_G) G.
  const double t = printed ? h / 2 : h;
  const VecX rhs = half - stack(s0) + h * H + (h / t) * dense_phi1(t, J_G, G);
  const VecX expected = half + (I - (h / 3) * (dh.J - J_G)).partialPivLu().solve(rhs) / 3;
  IntegratorSettings settings = settings_for(damping);
  settings.modes = 3;
  settings.printed_phi_argument = printed;
  const State got = step("str_sbdf2ere", settings, *body.model, s0, h);
  EXPECT_LT(relative_difference(stack(got), expected, stack(s0)), 1e-9);
}

TEST(ExponentialFamily, StrSbdf2ereMatchesTheDenseStages) {
  expect_str_sbdf2ere_matches_dense(false);
  expect_str_sbdf2ere_matches_dense(true);
  expect_str_sbdf2ere_matches_dense(false, RayleighDamping{2.0, 0.0, true});  // pencil path
  expect_str_sbdf2ere_matches_dense(false, kDampedCurrent);  // rotation-aware damping
}

/// The lowest mode of an undamped linear bar, alone excited and alone in G (s = 1): over 200
/// steps at h omega_1 = 0.5 the printed forms gain energy (amplification |xi| > 1 per step
/// for SBDF2ERE, survey eq. 22), the consistent ones do not.
TEST(ExponentialFamily, PrintedPhiArgumentsGainEnergyConsistentOnesDoNot) {
  SmallBody body(RayleighDamping{}, "linear");
  SpMat K;
  const VecX rest = body.model->restrict_vector(body.model->rest_positions());
  body.model->stiffness(rest, K, false);
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(MatX(K),
                                                     MatX(body.model->lumped_mass().asDiagonal()));
  const double omega = std::sqrt(eig.eigenvalues()[0]);
  VecX g;
  body.model->potential_gradient(rest, g);
  const VecX sag = -MatX(K).ldlt().solve(g);  // static equilibrium under gravity
  const State start{rest + sag + 1e-3 * eig.eigenvectors().col(0), VecX::Zero(rest.size()), 0.0};
  const auto energy = [&](const State& s) {
    return body.model->kinetic_energy(s.v) + body.model->potential_energy(s.q) -
           body.model->potential_energy(rest + sag);
  };
  for (const char* name : {"sbdf2ere", "str_sbdf2ere"}) {
    for (const bool printed : {false, true}) {
      IntegratorSettings settings;
      settings.modes = 1;
      settings.printed_phi_argument = printed;
      const State end = step(name, settings, *body.model, start, 0.5 / omega, 200);
      const double ratio = energy(end) / energy(start);
      if (printed)
        EXPECT_GT(ratio, 10.0) << name << " printed";
      else
        EXPECT_LT(ratio, 1.0 + 1e-6) << name << " consistent";
    }
  }
}

TEST(ExponentialFamily, SiereWithoutModesIsSemiImplicitEuler) {
  SmallBody body(kDamped);
  State s = body.deformed();
  s.q = body.model->restrict_vector(body.model->rest_positions());  // K definite at rest
  IntegratorSettings settings;
  settings.modes = 0;
  const State siere = step("siere", settings, *body.model, s, 0.01, 5);
  const State si = step("si", settings, *body.model, s, 0.01, 5);
  EXPECT_LT((stack(siere) - stack(si)).norm(), 1e-10 * (stack(si) - stack(s)).norm());
}

TEST(ExponentialFamily, SiereWithEveryModeAndNoDampingIsEre) {
  SmallBody body(RayleighDamping{});
  const State s = body.deformed();
  IntegratorSettings settings;
  settings.modes = static_cast<int>(s.q.size());
  settings.krylov.tolerance = 1e-10;
  const State siere = step("siere", settings, *body.model, s, 0.01);
  const State ere = step("ere", settings, *body.model, s, 0.01);
  EXPECT_LT(relative_difference(stack(siere), stack(ere), stack(s)), 1e-7);
}

TEST(ExponentialFamily, CountersReportTheWork) {
  SmallBody body(kDamped);
  const State s = body.deformed();
  IntegratorSettings settings;
  settings.modes = 4;
  settings.eigen_refresh = 2;
  auto siere = make_integrator("siere", settings);
  State state = s;
  int solves = 0;
  for (int i = 0; i < 4; ++i) {
    StepStats stats;
    ASSERT_EQ(siere->step(*body.model, state, 0.01, stats), Status::kSuccess);
    EXPECT_EQ(stats.eigenpairs, 4);
    EXPECT_EQ(stats.krylov_vectors, 0);
    solves += static_cast<int>(stats.eigen_solves);
    if (stats.eigen_solves > 0) {
      EXPECT_GT(stats.eigen_products, 0);
    }
  }
  EXPECT_EQ(solves, 2);  // refreshed every second step

  auto ere = make_integrator("ere", settings);
  StepStats stats;
  state = s;
  ASSERT_EQ(ere->step(*body.model, state, 0.01, stats), Status::kSuccess);
  EXPECT_GE(stats.krylov_substeps, 1);
  EXPECT_GE(stats.krylov_vectors, stats.krylov_substeps);
}

TEST(ExponentialFamily, AStaleBasisStillMatchesTheDenseSplit) {
  // Refresh every 10 steps: the second step uses the basis of the first state, so
  // S = U^T K U is dense and the reduced exponential goes through the 2s x 2s matrix.
  SmallBody body(kDamped);
  const State s0 = body.deformed();
  const double h = 0.01;
  IntegratorSettings settings;
  settings.modes = 3;
  settings.eigen_refresh = 10;
  auto siere = make_integrator("siere", settings);
  State s = s0;
  StepStats stats;
  ASSERT_EQ(siere->step(*body.model, s, h, stats), Status::kSuccess);
  const State s1 = s;
  ASSERT_EQ(siere->step(*body.model, s, h, stats), Status::kSuccess);

  DenseSystem d0(*body.model, s0), d1(*body.model, s1);
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(d0.K, d0.M);
  const MatX U = eig.eigenvectors().leftCols(3);
  const Eigen::Index n = s0.q.size();
  const MatX P = U * U.transpose() * d1.M;
  MatX J_G = MatX::Zero(2 * n, 2 * n);
  J_G.topRightCorner(n, n) = P;
  J_G.bottomLeftCorner(n, n) = -U * (U.transpose() * d1.K * U) * U.transpose() * d1.M;
  VecX G(2 * n);
  G << P * s1.v, U * U.transpose() * d1.f;
  const VecX H = d1.F - G;
  const MatX A = MatX::Identity(2 * n, 2 * n) - h * (d1.J - J_G);
  const VecX expected = stack(s1) + A.partialPivLu().solve(h * H + dense_phi1(h, J_G, G));
  EXPECT_LT(relative_difference(stack(s), expected, stack(s1)), 1e-9);
}

// Subspace tracking (one block iteration per step on the step's factorization) follows the
// modes closely enough that the motion matches Lanczos solves at every step, with one Lanczos
// solve in 20 steps and s + 3 back-solves per step otherwise.
void expect_tracking_follows_lanczos(const RayleighDamping& damping, double tolerance) {
  SmallBody body(damping);
  // Released from rest under gravity: the bar swings down and K(q) changes with the sag.
  const VecX rest = body.model->restrict_vector(body.model->rest_positions());
  const State s0{rest, VecX::Zero(rest.size()), 0.0};
  // Mode i converges by (1 + h^2 lambda_i) / (1 + h^2 lambda_{s+p+1}) per step: tracking suits
  // steps with h^2 lambda_s >~ 1; for h^2 lambda << 1 the iteration barely moves.
  const double h = 0.01;
  IntegratorSettings lanczos;
  lanczos.modes = 3;
  IntegratorSettings tracking = lanczos;
  tracking.eigen_tracking = true;
  tracking.eigen_refresh = 100;
  auto a = make_integrator("siere", lanczos), b = make_integrator("siere", tracking);
  State sa = s0, sb = s0;
  int solves = 0;
  for (int i = 0; i < 20; ++i) {
    StepStats stats_a, stats_b;
    ASSERT_EQ(a->step(*body.model, sa, h, stats_a), Status::kSuccess);
    ASSERT_EQ(b->step(*body.model, sb, h, stats_b), Status::kSuccess);
    solves += static_cast<int>(stats_b.eigen_solves);
    if (i > 0) {
      EXPECT_EQ(stats_b.eigen_products, 3 + 3);  // s + max(3, s/2) guard vectors
    }
  }
  EXPECT_EQ(solves, 1);
  EXPECT_LT(relative_difference(stack(sb), stack(sa), stack(s0)), tolerance);
}

TEST(ExponentialFamily, SubspaceTrackingFollowsTheLanczosBasis) {
  expect_tracking_follows_lanczos(RayleighDamping{}, 1e-3);
  // Rest-stiffness damping makes the iteration operator (M + tau D + tau^2 K)^-1 M differ from
  // K(q)'s (beta / h = 0.2 of K here): the subspace is a little off, the split stays consistent.
  expect_tracking_follows_lanczos(kDamped, 1e-2);
}

TEST(ExponentialFamily, ANonFiniteStateFailsWithAReason) {
  SmallBody body(kDamped);
  for (const char* name : {"ere", "siere", "sbdf2ere", "str_sbdf2ere"}) {
    State s = body.deformed();
    s.q[0] = std::nan("");
    const State before = s;
    IntegratorSettings settings;
    settings.modes = 2;
    auto integrator = make_integrator(name, settings);
    StepStats stats;
    EXPECT_NE(integrator->step(*body.model, s, 0.01, stats), Status::kSuccess) << name;
    EXPECT_FALSE(integrator->failure_detail().empty()) << name;
    EXPECT_EQ(s.v, before.v) << name << " changed the state of a failed step";
  }
}

/// t phi_1(t B), B = [[0, 1], [-lambda, 0]], against the dense augmented exponential.
TEST(ModePhi1, MatchesTheDenseExponentialInEveryBranch) {
  for (const double lambda : {4e4, 30.0, 1e-9, 0.0, -1e-9, -2.0, -400.0}) {
    for (const double t : {1e-3, 0.01, 0.1}) {
      Eigen::Matrix2d B;
      B << 0, 1, -lambda, 0;
      Eigen::Matrix4d augmented = Eigen::Matrix4d::Zero();
      augmented.topLeftCorner<2, 2>() = t * B;
      augmented.topRightCorner<2, 2>().setIdentity();
      const Eigen::Matrix2d expected = t * augmented.exp().topRightCorner<2, 2>();
      const auto got = mode_phi1(lambda, t);
      const Eigen::Matrix2d got_matrix{{got[0], got[1]}, {got[2], got[3]}};
      // 1e-10: the dense reference's scaling and squaring loses ~|tB| eps (|tB| up to 20).
      EXPECT_LT((got_matrix - expected).norm(), 1e-10 * expected.norm())
          << "lambda " << lambda << " t " << t;
    }
  }
}

}  // namespace
}  // namespace simrun
