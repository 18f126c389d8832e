#include "integrate/spectral_split.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <unsupported/Eigen/MatrixFunctions>

#include "core/symmetric_product.hpp"

namespace simrun {

std::array<double, 4> mode_phi1(double lambda, double t) {
  const double x2 = lambda * t * t;  // signed (omega t)^2
  if (std::abs(x2) < 1e-4) {
    // Series in lambda t^2 (the same for both signs); truncation error ~ (lambda t^2)^3 / 5040.
    const double p11 = t * (1.0 - x2 / 6.0 + x2 * x2 / 120.0);
    const double p12 = t * t * (0.5 - x2 / 24.0 + x2 * x2 / 720.0);
    const double p21 = -x2 / 2.0 + x2 * x2 / 24.0;
    return {p11, p12, p21, p11};
  }
  if (lambda > 0.0) {
    const double w = std::sqrt(lambda), c = std::cos(w * t), s = std::sin(w * t);
    return {s / w, (1.0 - c) / lambda, c - 1.0, s / w};
  }
  const double k = std::sqrt(-lambda), c = std::cosh(k * t), s = std::sinh(k * t);
  return {s / k, (c - 1.0) / (-lambda), c - 1.0, s / k};
}

SpectralSplit::SpectralSplit(int modes, int refresh_every, const LinearSolverFactory& make_solver,
                             bool track_subspace, const GeneralizedEigenSettings& eigensolver)
    : m_modes(modes),
      m_refresh_every(std::max(1, refresh_every)),
      m_track(track_subspace),
      m_eigen(make_solver, eigensolver) {}

Status SpectralSplit::track(const Model& model, const FirstOrderSystem& system,
                            InverseOperator& step_matrix, StepStats& stats) {
  VecX values;
  const TrackedModes tracked = track_lowest_modes(
      step_matrix, [&](const MatX& X) { return model.apply_mass_block(X); },
      [&](const MatX& X) { return symmetric_product_block(system.stiffness(), X); }, m_W, m_MW,
      values);
  stats.eigen_products += tracked.back_solves;
  if (tracked.status != Status::kSuccess) return tracked.status;
  const int s = std::min<int>(m_modes, static_cast<int>(m_W.cols()));
  m_U = m_W.leftCols(s);
  m_S = values.head(s).asDiagonal();
  m_last_top_eigenvalue = values[values.size() - 1];
  return Status::kSuccess;
}

Status SpectralSplit::update(const Model& model, const FirstOrderSystem& system, StepStats& stats,
                             InverseOperator* step_matrix, const LentShift* lent) {
  const int s = std::min(m_modes, system.size());
  if (s <= 0) {
    m_U.resize(system.size(), 0);
    m_MU = m_U;
    m_S.resize(0, 0);
    return Status::kSuccess;
  }
  const bool due = m_calls % m_refresh_every == 0 || m_U.rows() != system.size();
  ++m_calls;
  if (due) {
    const int wanted = m_track ? std::min(s + subspace_guard_vectors(s), system.size()) : s;
    // The lent shift sigma = -(1 + tau alpha) / (tau^2 + tau beta) is as good as the own one
    // (near zero or just below lambda_min) only while |sigma| is small against the wanted
    // eigenvalues: Lanczos converges at the rate (lambda_s - sigma) / (lambda_{s+1} - sigma),
    // which tends to 1 for |sigma| >> lambda_s (a soft body at a large step: 48 instead of 21
    // back-solves on the survey's Fig. 4 beam at E = 1e5, h = 0.01). Judged on the last solve's
    // highest wanted eigenvalue; the first solve uses the own shift.
    const bool borrow = lent != nullptr && lent->inverse != nullptr &&
                        m_last_top_eigenvalue > 0.0 &&
                        std::abs(lent->sigma) <= kLentShiftRatio * m_last_top_eigenvalue;
    const GeneralizedEigenResult r =
        borrow ? m_eigen.compute_factorized(system.stiffness(), model.mass(), wanted,
                                            *lent->inverse, lent->sigma, lent->scale)
               : m_eigen.compute(system.stiffness(), model.mass(), wanted);
    stats.eigen_solves += 1;
    stats.eigen_iters += r.iterations;
    stats.eigen_products += r.operator_products;
    stats.eigen_s += r.seconds;
    // The shift-invert factorization (none when lent), and the probes that put its shift below
    // an indefinite K's lowest eigenvalue; the back-solves are eigen_products.
    if (!r.borrowed_factorization) stats.factorizations += 1 + r.shift_probes;
    // Borrowed back-solves go through the step's solver, whose meter counts them in `solves`:
    // they are counted once, in eigen_products.
    if (r.borrowed_factorization) stats.solves -= r.operator_products;
    if (r.status != Status::kSuccess || r.values.size() < wanted) return Status::kNotConverging;
    m_last_top_eigenvalue = r.values[wanted - 1];
    m_W = r.vectors;
    m_MW.resize(0, 0);
    m_U = r.vectors.leftCols(s);
    m_S = r.values.head(s).asDiagonal();
    m_fresh = true;
  } else if (m_track && step_matrix != nullptr) {
    if (const Status st = track(model, system, *step_matrix, stats); st != Status::kSuccess)
      return st;
    m_fresh = true;
  } else {
    m_fresh = false;
  }
  m_MU = model.apply_mass_block(m_U);
  if (!m_fresh) {
    // A kept basis: S = U^T K U is a dense s x s matrix at the current K.
    m_S = m_U.transpose() * symmetric_product_block(system.stiffness(), m_U);
    m_S = 0.5 * (m_S + m_S.transpose()).eval();
  }
  stats.eigenpairs = s;
  return Status::kSuccess;
}

void SpectralSplit::exponential_part(const VecX& v, const VecX& f, double t, VecX& dq,
                                     VecX& dp) const {
  const int s = rank();
  const Eigen::Index n = v.size();
  if (s == 0) {
    dq = VecX::Zero(n);
    dp = VecX::Zero(n);
    return;
  }
  const VecX a = m_MU.transpose() * v;  // U^T M v
  const VecX b = m_U.transpose() * f;   // U^T f
  VecX yq(s), yv(s);
  if (m_fresh) {
    for (int l = 0; l < s; ++l) {
      const auto P = mode_phi1(m_S(l, l), t);
      yq[l] = P[0] * a[l] + P[1] * b[l];
      yv[l] = P[2] * a[l] + P[3] * b[l];
    }
  } else {
    // t phi_1(t J') = the top-right block of exp(t [[J', I], [0, 0]]), J' = [[0, I], [-S, 0]].
    MatX augmented = MatX::Zero(4 * s, 4 * s);
    augmented.block(0, s, s, s).setIdentity();
    augmented.block(s, 0, s, s) = -m_S;
    augmented.block(0, 2 * s, 2 * s, 2 * s).setIdentity();
    const MatX E = (t * augmented).exp();
    const MatX P = E.block(0, 2 * s, 2 * s, 2 * s);
    VecX ab(2 * s);
    ab << a, b;
    const VecX y = P * ab;
    yq = y.head(s);
    yv = y.tail(s);
  }
  dq = m_U * yq;
  dp = m_MU * yv;
}

void SpectralSplit::high_part(const VecX& v, const VecX& f, VecX& r_q, VecX& p_v) const {
  if (rank() == 0) {
    r_q = v;
    p_v = f;
    return;
  }
  r_q = v - m_U * (m_MU.transpose() * v);
  p_v = f - m_MU * (m_U.transpose() * f);
}

Status SpectralSplit::solve(InverseOperator& base, double tau, const VecX& b, VecX& x,
                            const LentShift* pencil) {
  const int s = rank();
  if (s == 0) {
    base.solve(b, x);
    return x.allFinite() ? Status::kSuccess : Status::kNumericalIssue;
  }
  const Eigen::Index n = m_U.rows();
  // tau J_G = Y Z^T with, for inputs in momentum form,
  //   Y = [[tau U, 0], [0, -tau M U S]],   Z = [[0, M U], [M U, 0]],   C = I.
  MatX Z = MatX::Zero(2 * n, 2 * s);
  Z.bottomLeftCorner(n, s) = m_MU;
  Z.topRightCorner(n, s) = m_MU;
  Status st;
  if (pencil != nullptr && pencil->inverse != nullptr) {
    // base = (I - tau J)^-1 maps [r_q; p_v] to y_v = A^-1 (p_v - tau K r_q), y_q = r_q + tau y_v
    // (A = M + tau D + tau^2 K). On the columns of Y:
    //   [tau U; 0]:         y_v = -tau^2 A^-1 K U,  y_q = tau U + tau y_v
    //   [0; -tau M U S]:    y_v = -tau Z_M S,       y_q = tau y_v,      Z_M = A^-1 M U.
    // A = a M + c K (a = -sigma scale, c = scale) gives K U = (A U - a M U) / c, so
    // A^-1 K U = (U - a Z_M) / c: an identity, exact for any U (no eigen-residual enters),
    // which halves the back-solves (s instead of 2s, and no products with K).
    const double c = pencil->scale, a = -pencil->sigma * pencil->scale;
    MatX ZM;
    pencil->inverse->solve(m_MU, ZM);
    MatX A_inv_Y(2 * n, 2 * s);
    A_inv_Y.bottomLeftCorner(n, s) = (-tau * tau / c) * (m_U - a * ZM);
    A_inv_Y.topLeftCorner(n, s) = tau * (m_U + A_inv_Y.bottomLeftCorner(n, s));
    A_inv_Y.bottomRightCorner(n, s) = -tau * ZM * m_S;
    A_inv_Y.topRightCorner(n, s) = tau * A_inv_Y.bottomRightCorner(n, s);
    st = m_update.setup_solved(base, std::move(A_inv_Y), MatX::Identity(2 * s, 2 * s), Z);
  } else {
    MatX Y = MatX::Zero(2 * n, 2 * s);
    Y.topLeftCorner(n, s) = tau * m_U;
    Y.bottomRightCorner(n, s) = -tau * m_MU * m_S;
    st = m_update.setup(base, Y, MatX::Identity(2 * s, 2 * s), Z);
  }
  if (st != Status::kSuccess) return st;
  m_update.solve(b, x);
  return x.allFinite() ? Status::kSuccess : Status::kNumericalIssue;
}

namespace {
std::string failure_in_words(Status status, bool in_eigensolve, int modes) {
  if (in_eigensolve)
    return "the eigensolve of the " + std::to_string(modes) + " lowest modes did not converge";
  return status == Status::kNumericalIssue
             ? "M + tau D + tau^2 K (or its low-rank update) is singular"
             : "the linear solve failed";
}
}  // namespace

SplitSolver::SplitSolver(const IntegratorSettings& settings)
    : system(settings.linear_solver, projects_damping(settings)),
      inverse(settings.linear_solver),
      // The eigensolver's shift-invert needs an exact factorization whatever the scene's solver.
      split(settings.modes > 0 ? settings.modes + settings.rigid_modes : 0, settings.eigen_refresh,
            make_cholmod_solver, settings.eigen_tracking, settings.eigensolver),
      m_project_damping(projects_damping(settings)) {}

bool damping_in_pencil(const Model& model, bool project_damping) {
  if (!model.has_damping()) return true;
  const RayleighDamping& d = model.damping();
  if (d.stiffness == 0.0) return true;  // D = alpha M
  // FirstOrderSystem::linearize: the rest stiffness (equal to K(q) only for a quadratic
  // energy), or the current one, PSD-projected when the Newton settings project (then not K(q)).
  if (d.stiffness_at_rest) return model.is_quadratic();
  return !project_damping || model.is_quadratic();
}

Status SplitSolver::prepare(const Model& model, double tau, StepStats& stats,
                            std::string& failure) {
  const int fallbacks = inverse.solver().stats().ldlt_fallbacks;
  if (const Status s = inverse.factorize(model, system, tau); s != Status::kSuccess) {
    failure = failure_in_words(s, false, split.modes());
    return s;
  }
  // M + tau D + tau^2 K = (1 + tau alpha) M + (tau^2 + tau beta) K = scale (K - sigma M).
  const RayleighDamping& d = model.damping();
  const double alpha = model.has_damping() ? d.mass : 0.0;
  const double beta = model.has_damping() ? d.stiffness : 0.0;
  const double scale = tau * tau + tau * beta;
  m_pencil = LentShift();
  m_pencil_tau = tau;
  if (scale > 0.0 && damping_in_pencil(model, m_project_damping)) {
    m_pencil.inverse = &inverse.factorized_solver();
    m_pencil.sigma = -(1.0 + tau * alpha) / scale;
    m_pencil.scale = scale;
  }
  // For the shift-invert, a Cholesky factorization (no indefinite fallback) certifies
  // sigma < lambda_min (Sylvester), so the eigenvalues nearest sigma are the lowest.
  const bool lend =
      m_pencil.inverse != nullptr && inverse.solver().stats().ldlt_fallbacks == fallbacks;
  LentShift lent = lend ? m_pencil : LentShift();
  if (const Status s = split.update(model, system, stats, &inverse.factorized_solver(),
                                    lent.inverse != nullptr ? &lent : nullptr);
      s != Status::kSuccess) {
    failure = failure_in_words(s, true, split.modes());
    return s;
  }
  return Status::kSuccess;
}

VecX SplitSolver::split_force(const VecX& v, double weight, double t) const {
  VecX r_q, p_v, dq, dp;
  split.high_part(v, system.force(), r_q, p_v);
  split.exponential_part(v, system.force(), t, dq, dp);  // t phi_1(t J_G) G
  const Eigen::Index n = v.size();
  VecX b(2 * n);
  b.head(n) = weight * r_q + (weight / t) * dq;
  b.tail(n) = weight * p_v + (weight / t) * dp;
  return b;
}

Status SplitSolver::solve(double tau, const VecX& b, VecX& x, std::string& failure) {
  const bool pencil = m_pencil.inverse != nullptr && tau == m_pencil_tau;
  const Status s = split.solve(inverse, tau, b, x, pencil ? &m_pencil : nullptr);
  if (s != Status::kSuccess) failure = failure_in_words(s, false, split.modes());
  return s;
}

}  // namespace simrun
