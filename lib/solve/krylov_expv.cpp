#include "solve/krylov_expv.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <unsupported/Eigen/MatrixFunctions>

namespace simrun {

namespace {

/// Rounds a step up to two significant digits (Expokit does this so that step sizes stay tidy).
double round_step(double step) {
  if (!(step > 0.0) || !std::isfinite(step)) return step;
  const double s = std::pow(10.0, std::floor(std::log10(step)) - 1.0);
  return std::ceil(step / s) * s;
}

constexpr double kBreakdown = 1e-7;  // btol: h_{j+1,j} below this ends Arnoldi exactly
constexpr double kSafety = 0.9, kAcceptance = 1.2;  // gamma, delta

/// One substep's Krylov basis: V, the Hessenberg matrix H (augmented for the error estimate),
/// the Arnoldi vector p, the basis size built (mb), k1 (0 after a happy breakdown) and
/// |A v_{m+1}| (avnorm).
struct KrylovBasis {
  KrylovBasis(Eigen::Index n, int m) : V(n, m + 1), H(m + 2, m + 2), p(n) {}
  MatX V;
  MatX H;
  VecX p;
  int mb = 0;
  int k1 = 2;
  double avnorm = 0.0;
};

/// Arnoldi from w / beta into `b`. A happy breakdown makes t_step the rest of the interval,
/// `t_rest`; false (stats.status set) on a non-finite vector.
bool build_basis(const LinearOperator& A, const VecX& w, double beta, int m, double t_rest,
                 double& t_step, KrylovBasis& b, KrylovStats& stats) {
  MatX& V = b.V;
  MatX& H = b.H;
  VecX& p = b.p;
  V.setZero();
  H.setZero();
  V.col(0) = w / beta;
  b.mb = m;  // basis size built
  b.k1 = 2;  // 0 after a happy breakdown
  b.avnorm = 0.0;
  for (int j = 0; j < m; ++j) {
    A(V.col(j), p);
    ++stats.vectors;
    for (int i = 0; i <= j; ++i) {
      H(i, j) = V.col(i).dot(p);
      p -= H(i, j) * V.col(i);
    }
    const double s = p.norm();
    if (!std::isfinite(s)) {
      stats.status = Status::kNumericalIssue;
      return false;
    }
    if (s < kBreakdown) {  // invariant subspace: exp is exact in it, finish in one substep
      b.k1 = 0;
      b.mb = j + 1;
      t_step = t_rest;
      stats.happy_breakdown = true;
      break;
    }
    H(j + 1, j) = s;
    V.col(j + 1) = p / s;
  }
  if (b.k1 != 0) {
    H(m + 1, m) = 1.0;  // augmentation for the error estimate
    A(V.col(m), p);
    ++stats.vectors;
    b.avnorm = p.norm();
  }
  return true;
}

/// exp(sign t_step H) of an accepted substep, its local error estimate and the exponent of
/// the next step's size rule.
struct SubstepExponential {
  MatX F;
  double error = 0.0;
  double xm = 1.0;
};

/// Exponentiates, shrinking t_step until the local error estimate meets the tolerance; false
/// (stats.status set) when it does not within the rejections allowed or is not finite.
bool exponentiate(const KrylovBasis& b, int m, double beta, double sign,
                  const KrylovSettings& settings, double& t_step, SubstepExponential& e,
                  KrylovStats& stats) {
  const double tol = settings.tolerance;
  MatX& F = e.F;
  double& error = e.error;
  double& xm = e.xm;
  error = 0.0;
  xm = 1.0 / m;
  for (int rejections = 0;; ++rejections) {
    const int mx = b.mb + b.k1;
    F = (sign * t_step * b.H.topLeftCorner(mx, mx)).exp();
    if (b.k1 == 0) {
      error = kBreakdown;
      break;
    }
    const double phi1 = std::abs(beta * F(m, 0));
    const double phi2 = std::abs(beta * F(m + 1, 0) * b.avnorm);
    if (phi1 > 10.0 * phi2) {
      error = phi2;
      xm = 1.0 / m;
    } else if (phi1 > phi2) {
      error = (phi1 * phi2) / (phi1 - phi2);
      xm = 1.0 / m;
    } else {
      error = phi1;
      xm = 1.0 / (m - 1);
    }
    if (!std::isfinite(error)) {
      stats.status = Status::kNumericalIssue;
      return false;
    }
    if (error <= kAcceptance * t_step * tol) break;
    if (rejections >= settings.max_rejections) {
      stats.status = Status::kNotConverging;
      return false;
    }
    ++stats.rejections;
    t_step = round_step(kSafety * t_step * std::pow(t_step * tol / error, xm));
  }
  return true;
}

}  // namespace

KrylovStats expv(double t, const LinearOperator& A, double norm_estimate, const VecX& v, VecX& w,
                 const KrylovSettings& settings) {
  KrylovStats stats;
  const Eigen::Index n = v.size();
  const int m = std::max(2, std::min(settings.dimension, static_cast<int>(n)));
  const double tol = settings.tolerance;
  const double anorm = std::max(norm_estimate, std::numeric_limits<double>::min());
  w = v;
  double beta = w.norm();
  const double t_out = std::abs(t);
  if (beta == 0.0 || t_out == 0.0) return stats;
  const double sign = t < 0.0 ? -1.0 : 1.0;
  // First substep from the a-priori bound of the Krylov error (Expokit).
  const double fact =
      std::pow((m + 1) / std::numbers::e, m + 1) * std::sqrt(2.0 * std::numbers::pi * (m + 1));
  double t_new = round_step((1.0 / anorm) * std::pow((fact * tol) / (4.0 * beta * anorm), 1.0 / m));
  double t_now = 0.0;
  const double round_off = anorm * std::numeric_limits<double>::epsilon();

  KrylovBasis basis(n, m);
  while (t_now < t_out) {
    if (stats.substeps >= settings.max_substeps) {
      stats.status = Status::kNotConverging;
      return stats;
    }
    ++stats.substeps;
    double t_step = std::min(t_out - t_now, t_new);
    if (!build_basis(A, w, beta, m, t_out - t_now, t_step, basis, stats)) return stats;
    // Exponentiate, shrinking the substep until the local error estimate meets the tolerance.
    SubstepExponential e;
    if (!exponentiate(basis, m, beta, sign, settings, t_step, e, stats)) return stats;
    const int used = basis.mb + std::max(0, basis.k1 - 1);
    w = basis.V.leftCols(used) * (beta * e.F.col(0).head(used));
    beta = w.norm();
    if (!std::isfinite(beta)) {
      stats.status = Status::kNumericalIssue;
      return stats;
    }
    t_now += t_step;
    t_new = round_step(kSafety * t_step * std::pow(t_step * tol / e.error, e.xm));
    stats.error_estimate += std::max(e.error, round_off);
    if (beta == 0.0) break;
  }
  return stats;
}

KrylovStats phi1v(double t, const LinearOperator& A, double norm_estimate, const VecX& b, VecX& y,
                  const KrylovSettings& settings) {
  const Eigen::Index n = b.size();
  // The augmented operator [[A, b], [0, 0]] on [x; x_last]: [A x + x_last b; 0].
  VecX head(n), Ax(n);
  const LinearOperator augmented = [&](const VecX& x, VecX& out) {
    head = x.head(n);
    A(head, Ax);
    out.resize(n + 1);
    out.head(n) = Ax + x[n] * b;
    out[n] = 0.0;
  };
  VecX start = VecX::Zero(n + 1), end;
  start[n] = 1.0;
  // |[[A, b], [0, 0]]|_inf <= |A|_inf + |b|_inf.
  const double norm = norm_estimate + b.cwiseAbs().maxCoeff();
  KrylovStats stats = expv(t, augmented, norm, start, end, settings);
  y = end.head(n);
  return stats;
}

}  // namespace simrun
