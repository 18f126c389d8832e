#include "solve/newton.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "solve/linear_solver.hpp"
#include "test_matrices.hpp"

namespace simrun {
namespace {

/// Phi(x) = sum_i (a_i x_i^4 + b_i x_i^2 - c_i x_i) + 1/2 x^T L x with L a weighted path
/// Laplacian: strictly convex (Hessian >= 2 min b_i > 0). Logs |g| of every gradient call.
class QuarticChain : public NewtonObjective {
 public:
  explicit QuarticChain(int n) : m_a(n), m_b(n), m_c(n) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.5, 1.5), v(-3.0, 3.0);
    for (int i = 0; i < n; ++i) {
      m_a[i] = u(rng);
      m_b[i] = u(rng);
      m_c[i] = v(rng);
    }
    m_L = 2.0 * test::laplacian_1d_free(n);
  }
  double value(const VecX& x) override {
    return (m_a.array() * x.array().pow(4) + m_b.array() * x.array().square() -
            m_c.array() * x.array())
               .sum() +
           0.5 * x.dot(m_L * x);
  }
  void gradient(const VecX& x, VecX& g) override {
    g = (4.0 * m_a.array() * x.array().cube() + 2.0 * m_b.array() * x.array() - m_c.array())
            .matrix() +
        m_L * x;
    residuals.push_back(g.norm());
  }
  void hessian(const VecX& x, SpMat& H, bool /*project*/) override {
    H = m_L;  // its pattern contains the diagonal, so every call has the same pattern
    for (int i = 0; i < x.size(); ++i)
      H.coeffRef(i, i) += 12.0 * m_a[i] * x[i] * x[i] + 2.0 * m_b[i];
  }
  std::vector<double> residuals;

 private:
  VecX m_a, m_b, m_c;
  SpMat m_L;
};

TEST(Newton, ConvergesQuadraticallyOnConvexProblem) {
  QuarticChain phi(50);
  VecX x = VecX::Zero(50);
  auto solver = make_cholmod_solver();
  NewtonSettings settings;
  settings.tolerance = 1e-10;
  const NewtonStats stats = newton_minimize(phi, x, *solver, settings);
  ASSERT_EQ(stats.status, Status::kSuccess);
  EXPECT_LT(stats.residual, 1e-10);
  EXPECT_LE(stats.iterations, 10);  // gradient descent would need hundreds (cond ~ 30)
  EXPECT_EQ(solver->stats().symbolic_analyses, 1);  // same Hessian pattern every iteration
  EXPECT_EQ(solver->stats().ldlt_fallbacks, 0);     // convex: always LLT

  // Quadratic convergence: r_{k+1} <= C r_k^2 once in the basin. With this seed the observed
  // C is ~0.1 (residuals 1.3e-1, 1.6e-3, 2.8e-7, 8e-15); C = 1 keeps a 10x margin, while any
  // linearly convergent method (r_{k+1} ~ rho r_k) violates it as soon as r_k < rho / C.
  // Pairs ending below 1e-14 are at the roundoff level of g (|x| ~ 1, n = 50) and are skipped.
  int checked = 0;
  const auto& r = phi.residuals;
  for (size_t k = 0; k + 1 < r.size(); ++k) {
    if (r[k] > 0.2 || r[k + 1] < 1e-14) continue;
    EXPECT_LE(r[k + 1], 1.0 * r[k] * r[k]) << "k = " << k;
    ++checked;
  }
  EXPECT_GE(checked, 2);
  // The last step gains many digits at once (at least 4 orders of magnitude).
  ASSERT_GE(r.size(), 2u);
  EXPECT_LT(r.back(), 1e-4 * r[r.size() - 2]);
}

TEST(Newton, StopsOnSmallStep) {
  QuarticChain phi(20);
  VecX x = VecX::Zero(20);
  auto solver = make_cholmod_solver();
  NewtonSettings settings;
  settings.tolerance = 0.0;  // only the step criterion can stop it
  settings.step_tolerance = 1e-9;
  const NewtonStats stats = newton_minimize(phi, x, *solver, settings);
  EXPECT_EQ(stats.status, Status::kSuccess);
  // A Newton step below 1e-9 means the gradient is ~|H| * 1e-9 (|H| < ~60 here).
  EXPECT_LT(stats.residual, 1e-6);
}

TEST(Newton, IterationCapReportsNotConverging) {
  QuarticChain phi(50);
  VecX x = VecX::Constant(50, 3.0);
  auto solver = make_cholmod_solver();
  NewtonSettings settings;
  settings.tolerance = 1e-10;
  settings.max_iterations = 2;
  const NewtonStats stats = newton_minimize(phi, x, *solver, settings);
  EXPECT_EQ(stats.status, Status::kNotConverging);
  EXPECT_EQ(stats.iterations, 2);
  EXPECT_GT(stats.residual, 1e-10);
}

/// Phi(x) = sum_i sqrt(1 + x_i^2) + mu/2 x_i^2: convex, but far from 0 the curvature is ~mu
/// while the slope is ~1, so the full Newton step -g/H ~ -x (1 + 1/(mu |x|)) overshoots and ends
/// in a 2-cycle near x = +-1/mu.
class SoftAbs : public NewtonObjective {
 public:
  static constexpr double mu = 0.01;
  double value(const VecX& x) override {
    double f = 0.0;
    for (double xi : x) f += std::hypot(1.0, xi) + 0.5 * mu * xi * xi;
    return f;
  }
  void gradient(const VecX& x, VecX& g) override {
    g.resize(x.size());
    for (int i = 0; i < x.size(); ++i) g[i] = x[i] / std::hypot(1.0, x[i]) + mu * x[i];
  }
  void hessian(const VecX& x, SpMat& H, bool /*project*/) override {
    VecX d(x.size());
    for (int i = 0; i < x.size(); ++i) d[i] = std::pow(std::hypot(1.0, x[i]), -3.0) + mu;
    H = test::diagonal(d);
  }
};

TEST(Newton, LineSearchTamesOvershootingFullSteps) {
  SoftAbs phi;
  const VecX x0 = (VecX(3) << 3.0, -4.0, 5.0).finished();
  NewtonSettings settings;
  settings.tolerance = 1e-10;
  settings.max_iterations = 50;
  auto solver = make_cholmod_solver();

  VecX x = x0;
  const NewtonStats damped = newton_minimize(phi, x, *solver, settings);
  EXPECT_EQ(damped.status, Status::kSuccess);
  EXPECT_LT(x.norm(), 1e-9);  // the minimizer is 0 and H(0) = 1 + mu, so |x| ~ |g|
  EXPECT_GT(damped.line_search_steps, 0);

  settings.line_search = false;
  x = x0;
  const NewtonStats full = newton_minimize(phi, x, *solver, settings);
  EXPECT_EQ(full.status, Status::kNotConverging);
  EXPECT_EQ(full.iterations, 50);
  EXPECT_GT(full.residual, 1.0);  // stuck in the 2-cycle at |x| ~ 100, |g| ~ 2
}

/// Double well Phi = sum x^4/4 - x^2/2: the Hessian 3x^2 - 1 is negative for |x| < 1/sqrt(3),
/// where the (LDLT) Newton direction points uphill.
class DoubleWell : public NewtonObjective {
 public:
  double value(const VecX& x) override {
    return (0.25 * x.array().pow(4) - 0.5 * x.array().square()).sum();
  }
  void gradient(const VecX& x, VecX& g) override { g = (x.array().cube() - x.array()).matrix(); }
  void hessian(const VecX& x, SpMat& H, bool /*project*/) override {
    H = test::diagonal((3.0 * x.array().square() - 1.0).matrix());
  }
};

TEST(Newton, FallsBackToGradientStepOnIndefiniteHessian) {
  DoubleWell phi;
  VecX x = (VecX(2) << 0.1, -0.2).finished();
  auto solver = make_cholmod_solver();
  NewtonSettings settings;
  settings.tolerance = 1e-10;
  const NewtonStats stats = newton_minimize(phi, x, *solver, settings);
  ASSERT_EQ(stats.status, Status::kSuccess);
  EXPECT_GT(solver->stats().ldlt_fallbacks, 0);  // the indefinite region was visited
  // Descent from either side of the hill reaches the well on that side; H(+-1) = 2, so the
  // position error is ~|g| / 2.
  EXPECT_NEAR(x[0], 1.0, 1e-9);
  EXPECT_NEAR(x[1], -1.0, 1e-9);
}

/// A double well along u = (x0 + x1)/sqrt 2 and a stiff spring along w = (x0 - x1)/sqrt 2:
/// Phi = u^4/4 - u^2/2 + 2 w^2. The Hessian R^T diag(3u^2 - 1, 4) R has the positive diagonal
/// (3u^2 + 3)/2 everywhere but is indefinite for |u| < 1/sqrt 3, which only a solve can find.
/// The projection takes |3u^2 - 1|.
class RotatedDoubleWell : public NewtonObjective {
 public:
  double value(const VecX& x) override {
    const double u = (x[0] + x[1]) / std::sqrt(2.0), w = (x[0] - x[1]) / std::sqrt(2.0);
    return 0.25 * std::pow(u, 4) - 0.5 * u * u + 2.0 * w * w;
  }
  void gradient(const VecX& x, VecX& g) override {
    const double u = (x[0] + x[1]) / std::sqrt(2.0), w = (x[0] - x[1]) / std::sqrt(2.0);
    const double du = u * u * u - u, dw = 4.0 * w;
    g = (VecX(2) << du + dw, du - dw).finished() / std::sqrt(2.0);
  }
  void hessian(const VecX& x, SpMat& H, bool project) override {
    const double u = (x[0] + x[1]) / std::sqrt(2.0);
    const double huu = project ? std::abs(3.0 * u * u - 1.0) : 3.0 * u * u - 1.0, hww = 4.0;
    Eigen::Matrix2d dense;
    dense << huu + hww, huu - hww, huu - hww, huu + hww;
    H = (0.5 * dense).sparseView();
  }
};

TEST(Newton, AutoProjectsWhenAnIterativeSolveProvesTheHessianIndefinite) {
  // The diagonal test passes, so only the CG solve meets the negative curvature; `auto` must
  // then project (projected_iterations) rather than step along the truncated answer.
  RotatedDoubleWell phi;
  VecX x = (VecX(2) << 0.2, -0.1).finished();  // u = 0.07, inside the indefinite band
  auto solver = make_pcg_solver({1e-12, 100});
  NewtonSettings settings;
  settings.tolerance = 1e-10;
  settings.projection = HessianProjection::kAuto;
  const NewtonStats stats = newton_minimize(phi, x, *solver, settings);
  ASSERT_EQ(stats.status, Status::kSuccess);
  EXPECT_GT(stats.projected_iterations, 0);
  EXPECT_NEAR((x[0] + x[1]) / std::sqrt(2.0), 1.0, 1e-9);  // the well on u's side
  EXPECT_NEAR(x[0] - x[1], 0.0, 1e-9);
}

class NanGradient : public NewtonObjective {
 public:
  double value(const VecX&) override { return 0.0; }
  void gradient(const VecX& x, VecX& g) override {
    g = VecX::Constant(x.size(), std::numeric_limits<double>::quiet_NaN());
  }
  void hessian(const VecX& x, SpMat& H, bool /*project*/) override {
    H = test::diagonal(VecX::Ones(x.size()));
  }
};

TEST(Newton, NanReportsNumericalIssue) {
  NanGradient phi;
  VecX x = VecX::Ones(3);
  auto solver = make_cholmod_solver();
  const NewtonStats stats = newton_minimize(phi, x, *solver, NewtonSettings{});
  EXPECT_EQ(stats.status, Status::kNumericalIssue);
}

}  // namespace
}  // namespace simrun
