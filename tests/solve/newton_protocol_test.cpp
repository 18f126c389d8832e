// Newton's solver protocol: residual mode, projection modes, feasible steps, validity, hooks,
// factorization reuse, and the rounding-noise allowance of the line search.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "solve/linear_solver.hpp"
#include "solve/newton.hpp"
#include "test_matrices.hpp"

namespace simrun {
namespace {

/// Phi(x) = 1/2 x^T A x - b^T x with A symmetric (possibly indefinite). Residual r = A x - b.
class Quadratic : public NewtonObjective {
 public:
  Quadratic(SpMat A, VecX b) : m_A(std::move(A)), m_b(std::move(b)) {}
  double value(const VecX& x) override { return 0.5 * x.dot(m_A * x) - m_b.dot(x); }
  void gradient(const VecX& x, VecX& g) override { g = m_A * x - m_b; }
  void hessian(const VecX&, SpMat& H, bool project) override {
    H = m_A;
    if (project) {  // "projection": the absolute values of the (diagonal) entries
      for (int i = 0; i < H.rows(); ++i) H.coeffRef(i, i) = std::abs(H.coeff(i, i)) + 1.0;
    }
  }
  const SpMat& A() const { return m_A; }

 private:
  SpMat m_A;
  VecX m_b;
};

TEST(NewtonProtocol, ResidualModeFindsASaddlePoint) {
  // diag(2, -3, 1): indefinite, so minimization cannot converge to the stationary point, while
  // Newton on the residual reaches it in one step (r is linear).
  test::Triplets t = {{0, 0, 2.0}, {1, 1, -3.0}, {2, 2, 1.0}};
  Quadratic q(test::from_triplets(3, t), VecX::Constant(3, 1.0));
  VecX x = VecX::Zero(3);
  auto solver = make_cholmod_solver();
  NewtonSettings s;
  s.mode = NewtonMode::kResidual;
  s.tolerance = 1e-12;
  const NewtonStats stats = newton_minimize(q, x, *solver, s);
  ASSERT_EQ(stats.status, Status::kSuccess);
  EXPECT_EQ(stats.iterations, 1);
  EXPECT_NEAR(x[0], 0.5, 1e-14);
  EXPECT_NEAR(x[1], -1.0 / 3.0, 1e-14);
  EXPECT_NEAR(x[2], 1.0, 1e-14);
}

/// r(x) = A x + x^3 (componentwise) - b: the gradient of a convex potential, so residual mode and
/// minimization must agree.
class Cubic : public NewtonObjective {
 public:
  Cubic() : m_A(2.0 * test::laplacian_1d_dirichlet(20)), m_b(VecX::LinSpaced(20, -3.0, 4.0)) {}
  double value(const VecX& x) override {
    return 0.5 * x.dot(m_A * x) + 0.25 * x.array().pow(4).sum() - m_b.dot(x);
  }
  void gradient(const VecX& x, VecX& g) override { g = m_A * x + x.array().cube().matrix() - m_b; }
  void hessian(const VecX& x, SpMat& H, bool) override {
    H = m_A;
    for (int i = 0; i < H.rows(); ++i) H.coeffRef(i, i) += 3.0 * x[i] * x[i];
  }

 private:
  SpMat m_A;
  VecX m_b;
};

TEST(NewtonProtocol, ResidualModeAgreesWithMinimizationOnAPotential) {
  Cubic phi;
  auto solver = make_cholmod_solver();
  NewtonSettings s;
  s.tolerance = 1e-12;
  VecX x_min = VecX::Constant(20, 3.0), x_res = x_min;
  ASSERT_EQ(newton_minimize(phi, x_min, *solver, s).status, Status::kSuccess);
  s.mode = NewtonMode::kResidual;
  const NewtonStats stats = newton_minimize(phi, x_res, *solver, s);
  ASSERT_EQ(stats.status, Status::kSuccess);
  EXPECT_LT((x_min - x_res).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(NewtonProtocol, AutoProjectionUsesTheTrueHessianWhenDefiniteAndProjectsOtherwise) {
  auto solver = make_cholmod_solver();
  NewtonSettings s;
  s.projection = HessianProjection::kAuto;
  s.tolerance = 1e-12;
  // Definite: the true Hessian, one exact step, no projection.
  Quadratic definite(test::laplacian_1d_dirichlet(10), VecX::Ones(10));
  VecX x = VecX::Zero(10);
  NewtonStats stats = newton_minimize(definite, x, *solver, s);
  ASSERT_EQ(stats.status, Status::kSuccess);
  EXPECT_EQ(stats.iterations, 1);
  EXPECT_EQ(stats.projected_iterations, 0);
  // kAlways on the same problem factorizes the "projected" matrix: more iterations.
  s.projection = HessianProjection::kAlways;
  s.max_iterations = 500;
  x.setZero();
  stats = newton_minimize(definite, x, *solver, s);
  ASSERT_EQ(stats.status, Status::kSuccess);
  EXPECT_GT(stats.iterations, 1);
  EXPECT_EQ(stats.projected_iterations, stats.iterations);
  // Indefinite: kAuto falls back to the projected matrix in each iteration.
  test::Triplets t = {{0, 0, 2.0}, {1, 1, -3.0}};
  Quadratic indefinite(test::from_triplets(2, t), VecX::Ones(2));
  s.projection = HessianProjection::kAuto;
  s.max_iterations = 3;
  VecX y = VecX::Zero(2);
  stats = newton_minimize(indefinite, y, *solver, s);
  EXPECT_EQ(stats.projected_iterations, stats.iterations);
  EXPECT_GT(stats.iterations, 0);
}

/// Phi(x) = sum_i (x_i - 2)^2 on the admissible set x_i < 1 (a wall at 1): max_step keeps every
/// iterate 90% of the way to the wall, as CCD does for contact.
class Walled : public Quadratic {
 public:
  Walled() : Quadratic(2.0 * identity(3), VecX::Constant(3, 4.0)) {}
  double max_step(const VecX& x, const VecX& dx) override {
    ++max_step_calls;
    double alpha = 1.0;
    for (int i = 0; i < x.size(); ++i)
      if (dx[i] > 0.0) alpha = std::min(alpha, 0.9 * (1.0 - x[i]) / dx[i]);
    return alpha;
  }
  bool is_valid(const VecX& x) override { return x.maxCoeff() < 1.0; }
  void begin_line_search(const VecX&) override { ++begins; }
  void end_line_search(const VecX& x) override {
    ++ends;
    EXPECT_LT(x.maxCoeff(), 1.0);
  }
  void on_iterate(const VecX& x) override {
    ++iterates;
    EXPECT_LT(x.maxCoeff(), 1.0);
  }
  int max_step_calls = 0, begins = 0, ends = 0, iterates = 0;

 private:
  static SpMat identity(int n) {
    SpMat I(n, n);
    I.setIdentity();
    return I;
  }
};

TEST(NewtonProtocol, LineSearchRespectsTheFeasibleStepAndCallsTheHooks) {
  Walled phi;
  VecX x = VecX::Zero(3);
  auto solver = make_cholmod_solver();
  NewtonSettings s;
  s.max_iterations = 6;
  const NewtonStats stats = newton_minimize(phi, x, *solver, s);
  // The unconstrained minimum x = 2 is not admissible: Newton creeps toward the wall and stops.
  EXPECT_EQ(stats.status, Status::kNotConverging);
  EXPECT_LT(x.maxCoeff(), 1.0);
  EXPECT_GT(x.minCoeff(), 0.99);  // 1 - 0.1^6
  EXPECT_EQ(phi.max_step_calls, stats.iterations);
  EXPECT_EQ(phi.begins, stats.iterations);
  EXPECT_EQ(phi.ends, stats.iterations);
  EXPECT_EQ(phi.iterates, stats.iterations + 1);  // the initial guess, then every accepted one
}

/// Phi whose evaluation disagrees with its gradient by up to 1e-10 near the minimizer x* (a bump
/// of 1e-10 at x*, invisible to gradient() and hessian()): what the rounding error of a sum of
/// large element energies does to the last Newton iterations, where the true decrease is below
/// it. Such an error is far above eps |Phi| ~ 1e-15; value_magnitude() can report its scale.
class Noisy : public Cubic {
 public:
  Noisy(bool report, VecX x_star) : m_report(report), m_x_star(std::move(x_star)) {}
  double value(const VecX& x) override {
    const double d = (x - m_x_star).norm() / 1e-6;
    return Cubic::value(x) + 1e-10 * std::exp(-d * d);
  }
  double value_magnitude(const VecX& x) override {
    return m_report ? 1e6 + std::abs(Cubic::value(x)) : std::abs(value(x));
  }

 private:
  bool m_report;
  VecX m_x_star;
};

TEST(NewtonProtocol, ArmijoAllowsTheRoundingNoiseOfTheTermsNotOfTheTotal) {
  auto solver = make_cholmod_solver();
  NewtonSettings s;
  s.tolerance = 1e-12;  // far below what the 1e-10 evaluation error can resolve by energy
  VecX x_star = VecX::Constant(20, 3.0);
  Cubic exact;
  ASSERT_EQ(newton_minimize(exact, x_star, *solver, s).status, Status::kSuccess);
  // Without the magnitude the line search rejects every step toward x* once the true decrease
  // is below the error, and gives up.
  Noisy blind(false, x_star);
  VecX x = VecX::Constant(20, 3.0);
  EXPECT_EQ(newton_minimize(blind, x, *solver, s).status, Status::kNotConverging);
  // With it, Newton converges in as many iterations as on the exact function.
  Noisy aware(true, x_star);
  x = VecX::Constant(20, 3.0);
  VecX y = VecX::Constant(20, 3.0);
  const NewtonStats stats = newton_minimize(aware, x, *solver, s);
  EXPECT_EQ(stats.status, Status::kSuccess);
  EXPECT_EQ(stats.iterations, newton_minimize(exact, y, *solver, s).iterations);
}

TEST(NewtonProtocol, ReusedFactorizationIsFactorizedOnceAndReportsNonDescent) {
  Cubic phi;
  auto solver = make_cholmod_solver();
  NewtonSettings s;
  s.tolerance = 1e-10;
  s.reuse_factorization = true;
  s.max_iterations = 200;
  NewtonWorkspace workspace;
  // Near the solution, where the frozen matrix is a good model.
  VecX x_star = VecX::Zero(20);
  {
    auto full = make_cholmod_solver();
    NewtonSettings exact;
    exact.tolerance = 1e-12;
    ASSERT_EQ(newton_minimize(phi, x_star, *full, exact).status, Status::kSuccess);
  }
  VecX x = x_star + VecX::Constant(20, 0.05);
  const NewtonStats stats = newton_solve(phi, x, *solver, s, workspace);
  EXPECT_EQ(stats.status, Status::kSuccess);
  EXPECT_TRUE(workspace.factorized);
  EXPECT_EQ(solver->stats().factorizations, 1);
  EXPECT_GT(stats.iterations, 2);  // simplified Newton: linear convergence
  // A kept factorization of the wrong matrix (here -A) gives ascent directions: the solve stops
  // with kNotConverging so that the caller can fall back to full Newton.
  SpMat negative = -2.0 * test::laplacian_1d_dirichlet(20);
  ASSERT_EQ(solver->factorize(negative), Status::kSuccess);
  x = x_star + VecX::Constant(20, 0.05);
  EXPECT_EQ(newton_solve(phi, x, *solver, s, workspace).status, Status::kNotConverging);
}

TEST(NewtonProtocol, AdaptiveReuseConvergesWithFewerFactorizationsAndRefreshesWhenSlow) {
  Cubic phi;
  NewtonSettings exact;
  exact.tolerance = 1e-12;
  auto solver = make_cholmod_solver();
  VecX x_exact = VecX::Constant(20, 3.0);
  const NewtonStats e = newton_minimize(phi, x_exact, *solver, exact);
  ASSERT_EQ(e.status, Status::kSuccess);
  const int exact_factorizations = solver->stats().factorizations;

  NewtonSettings adaptive = exact;
  adaptive.reuse_contraction = 0.25;
  auto reuse_solver = make_cholmod_solver();
  NewtonWorkspace workspace;
  VecX x = VecX::Constant(20, 3.0);
  const NewtonStats r = newton_solve(phi, x, *reuse_solver, adaptive, workspace);
  ASSERT_EQ(r.status, Status::kSuccess);
  EXPECT_GT(r.reused_iterations, 0);
  EXPECT_LT(reuse_solver->stats().factorizations, exact_factorizations);
  EXPECT_LT((x - x_exact).cwiseAbs().maxCoeff(), 1e-10);

  // A kept factorization of a far-off matrix (100x too stiff) contracts by only ~0.99 per
  // iteration: Newton refactorizes instead of crawling.
  SpMat stiff = 200.0 * test::laplacian_1d_dirichlet(20);
  ASSERT_EQ(reuse_solver->factorize(stiff), Status::kSuccess);
  workspace.factorized = true;
  const int before = reuse_solver->stats().factorizations;
  x = VecX::Constant(20, 3.0);
  const NewtonStats slow = newton_solve(phi, x, *reuse_solver, adaptive, workspace);
  EXPECT_EQ(slow.status, Status::kSuccess);
  EXPECT_GT(reuse_solver->stats().factorizations, before);
  EXPECT_LE(slow.iterations, e.iterations + 8);
}

TEST(NewtonProtocol, FrozenFactorizationIterationsCountAgainstTheCap) {
  // A frozen matrix 100x too stiff contracts by ~0.99 per iteration: the cap must stop it so
  // that the caller can fall back to full Newton (SDIRK's shared stage matrix).
  Cubic phi;
  auto solver = make_cholmod_solver();
  SpMat stiff = 200.0 * test::laplacian_1d_dirichlet(20);
  ASSERT_EQ(solver->factorize(stiff), Status::kSuccess);
  NewtonWorkspace workspace;
  workspace.factorized = true;
  NewtonSettings frozen;
  frozen.reuse_factorization = true;
  frozen.max_iterations = 5;
  frozen.tolerance = 1e-12;
  VecX x = VecX::Constant(20, 3.0);
  const NewtonStats stats = newton_solve(phi, x, *solver, frozen, workspace);
  EXPECT_EQ(stats.status, Status::kNotConverging);
  EXPECT_EQ(stats.iterations, 5);
}

}  // namespace
}  // namespace simrun
