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

}  // namespace

KrylovStats expv(double t, const LinearOperator& A, double norm_estimate, const VecX& v, VecX& w,
                 const KrylovSettings& settings) {
  KrylovStats stats;
  const Eigen::Index n = v.size();
  const int m = std::max(2, std::min(settings.dimension, static_cast<int>(n)));
  const double tol = settings.tolerance;
  const double anorm = std::max(norm_estimate, std::numeric_limits<double>::min());
  constexpr double kBreakdown = 1e-7;  // btol: h_{j+1,j} below this ends Arnoldi exactly
  constexpr double kSafety = 0.9, kAcceptance = 1.2;  // gamma, delta
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

  MatX V(n, m + 1);
  MatX H(m + 2, m + 2);
  VecX p(n);
  while (t_now < t_out) {
    if (stats.substeps >= settings.max_substeps) {
      stats.status = Status::kNotConverging;
      return stats;
    }
    ++stats.substeps;
    double t_step = std::min(t_out - t_now, t_new);
    V.setZero();
    H.setZero();
    V.col(0) = w / beta;
    int mb = m;  // basis size built
    int k1 = 2;  // 0 after a happy breakdown
    double avnorm = 0.0;
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
        return stats;
      }
      if (s < kBreakdown) {  // invariant subspace: exp is exact in it, finish in one substep
        k1 = 0;
        mb = j + 1;
        t_step = t_out - t_now;
        stats.happy_breakdown = true;
        break;
      }
      H(j + 1, j) = s;
      V.col(j + 1) = p / s;
    }
    if (k1 != 0) {
      H(m + 1, m) = 1.0;  // augmentation for the error estimate
      A(V.col(m), p);
      ++stats.vectors;
      avnorm = p.norm();
    }
    // Exponentiate, shrinking the substep until the local error estimate meets the tolerance.
    MatX F;
    double error = 0.0, xm = 1.0 / m;
    for (int rejections = 0;; ++rejections) {
      const int mx = mb + k1;
      F = (sign * t_step * H.topLeftCorner(mx, mx)).exp();
      if (k1 == 0) {
        error = kBreakdown;
        break;
      }
      const double phi1 = std::abs(beta * F(m, 0));
      const double phi2 = std::abs(beta * F(m + 1, 0) * avnorm);
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
        return stats;
      }
      if (error <= kAcceptance * t_step * tol) break;
      if (rejections >= settings.max_rejections) {
        stats.status = Status::kNotConverging;
        return stats;
      }
      ++stats.rejections;
      t_step = round_step(kSafety * t_step * std::pow(t_step * tol / error, xm));
    }
    const int used = mb + std::max(0, k1 - 1);
    w = V.leftCols(used) * (beta * F.col(0).head(used));
    beta = w.norm();
    if (!std::isfinite(beta)) {
      stats.status = Status::kNumericalIssue;
      return stats;
    }
    t_now += t_step;
    t_new = round_step(kSafety * t_step * std::pow(t_step * tol / error, xm));
    stats.error_estimate += std::max(error, round_off);
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
