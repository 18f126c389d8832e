#pragma once
/// The spectral split of the SIERE family (Chen thesis Sec. 6.3.1, Eqs. 6.2-6.8, Algorithm 1;
/// survey eqs. 23-25): the s lowest modes of K(q) w = lambda M w (U^T M U = I) carry the
/// "G" part of the dynamics, advanced exactly by the reduced exponential, the rest ("H") is
/// handled semi-implicitly:
///   G(u) = [U U^T M v; U U^T f],   H(u) = [v - U U^T M v; M^-1 (f - M U U^T f)],
///   J_G = [[0, U U^T M], [-U S U^T M, 0]],  S = U^T K U (= Lambda for a fresh basis),
///   (I - tau J_H) = (I - tau J) + tau J_G  (a rank-2s correction, solved by Woodbury).
#include <array>
#include <memory>
#include <string>

#include "integrate/first_order_system.hpp"
#include "solve/eigen_solver.hpp"
#include "solve/low_rank_update.hpp"
#include "solve/subspace_tracking.hpp"

namespace simrun {

/// A factorization of A = scale (K - sigma M), positive definite, that the eigensolve may
/// use for its shift-invert instead of factorizing K - sigma M itself (see
/// GeneralizedEigenSolver::compute_factorized).
struct LentShift {
  InverseOperator* inverse = nullptr;
  double sigma = 0.0;
  double scale = 1.0;
};

class SpectralSplit {
 public:
  /// modes = s (0: no split, the H part is everything); the basis is recomputed every
  /// `refresh_every` calls of update() (1: every step), warm-started from the last one.
  /// track_subspace: between the Lanczos refreshes, follow the lowest modes by one block
  /// subspace iteration per step with the step's own factorization (see update()).
  SpectralSplit(int modes, int refresh_every, const LinearSolverFactory& make_solver,
                bool track_subspace = false, const GeneralizedEigenSettings& eigensolver = {});

  /// Brings the basis up to date for K = system.stiffness() and computes S = U^T K U. When due
  /// (every refresh_every calls), a Spectra shift-invert Lanczos solve for the s lowest modes
  /// (plus guard vectors when tracking). Otherwise the kept basis, or, when tracking and
  /// `step_matrix` (solves with this step's factorized M + tau D + tau^2 K) is given, one subspace
  /// iteration W <- (M + tau D + tau^2 K)^-1 M W on the s + p kept Ritz vectors with a
  /// Rayleigh-Ritz step on (K, M): s + p back-solves, no extra factorization, and a fresh
  /// (diagonal) S. Any M-orthonormal U gives a consistent split (stale-basis formulas); the
  /// iteration only keeps it close to the lowest modes (for Rayleigh damping on the current
  /// stiffness exactly their subspace; with rest-stiffness damping one close to it).
  /// kNotConverging / kNumericalIssue when the eigensolve fails.
  /// `lent`: when given and its shift is small against the last solve's highest wanted
  /// eigenvalue (|sigma| <= kLentShiftRatio lambda), the Lanczos solve shift-inverts with it (no
  /// factorization of its own).
  Status update(const Model& model, const FirstOrderSystem& system, StepStats& stats,
                InverseOperator* step_matrix = nullptr, const LentShift* lent = nullptr);
  /// Forgets the basis (the next update() solves afresh), e.g. after a release.
  void reset() {
    m_calls = 0;
    m_U.resize(0, 0);
  }

  int rank() const { return static_cast<int>(m_U.cols()); }
  /// The requested s.
  int modes() const { return m_modes; }
  /// The reduced exponential part, delta_G = blkdiag(U, U) t phi_1(t J'_G) [U^T M v; U^T f]
  /// with J'_G = [[0, I], [-S, 0]] (per-mode closed forms for a fresh basis), in momentum form:
  /// dq = U y_q, dp = M U y_v.
  void exponential_part(const VecX& v, const VecX& f, double t, VecX& dq, VecX& dp) const;
  /// The H part in momentum form: [v - U U^T M v; f - M U U^T f].
  void high_part(const VecX& v, const VecX& f, VecX& r_q, VecX& p_v) const;
  /// x = (I - tau J_H)^-1 b for b in momentum form ([b_q; M b_v]), x ordinary, as a Woodbury
  /// update of `base` = (I - tau J)^-1 with the rank-2s term tau J_G (eq. 6.8; 2s + 1
  /// back-solves with base). kNumericalIssue when the capacitance matrix is singular.
  /// `pencil`: base's matrix M + tau D + tau^2 K is pencil->scale (K - pencil->sigma M) and
  /// pencil->inverse solves with it; then (I - tau J)^-1 of the update's 2s columns follows
  /// from Z_M = (M + tau D + tau^2 K)^-1 M U alone (s back-solves in one block, see the .cpp).
  Status solve(InverseOperator& base, double tau, const VecX& b, VecX& x,
               const LentShift* pencil = nullptr);

 private:
  /// One block subspace iteration and Rayleigh-Ritz on m_W (see update()).
  Status track(const Model& model, const FirstOrderSystem& system, InverseOperator& step_matrix,
               StepStats& stats);

  int m_modes;
  int m_refresh_every;
  bool m_track;
  MatX m_W;   ///< tracking: the s + p Ritz vectors (M-orthonormal), U = the first s
  MatX m_MW;  ///< M m_W (track_lowest_modes)
  int m_calls = 0;
  GeneralizedEigenSolver m_eigen;
  /// Borrow the step's factorization for the Lanczos solve when |sigma| <= this times the last
  /// solve's highest wanted eigenvalue (see update()).
  static constexpr double kLentShiftRatio = 0.25;
  double m_last_top_eigenvalue = 0.0;
  MatX m_U;              ///< n x s, M-orthonormal
  MatX m_MU;             ///< M U
  MatX m_S;              ///< U^T K U
  bool m_fresh = false;  ///< the basis was computed at the current K (S is diagonal)
  LowRankUpdate m_update;
};

/// What the split integrators (SIERE, SBDF2ERE, STR-SBDF2ERE) own and do alike: the first-order
/// system, the solve with I - tau J and the split, in the order factorize, update the split
/// (its subspace tracking iterates with that factorization), Woodbury solve; each failure is
/// put in words for run.json.
struct SplitSolver {
  explicit SplitSolver(const IntegratorSettings& settings);

  /// Factorizes M + tau D + tau^2 K at the system's current linearization and brings the split
  /// up to date. When D = alpha M + beta K(q) (or 0) and that factorization is a Cholesky (no
  /// indefinite fallback), the matrix is (tau^2 + tau beta)(K - sigma M) with
  /// sigma = -(1 + tau alpha)/(tau^2 + tau beta) < lambda_min, and the eigensolve may
  /// shift-invert with it (SpectralSplit::update decides by |sigma|): the pencil (K, M) is the
  /// same, so are its eigenpairs (one factorization per step instead of two). Otherwise the
  /// eigensolver factorizes K - sigma M itself. The Woodbury solve uses the pencil either way.
  Status prepare(const Model& model, double tau, StepStats& stats, std::string& failure);
  /// weight (H(u) + phi_1(t J_G) G(u)) in momentum form at the linearized state with velocity v:
  /// the survey's h F-bar (eqs. 20, 22, 26c) for weight h and exponential span t.
  VecX split_force(const VecX& v, double weight, double t) const;
  /// x = (I - tau J_H)^-1 b for b in momentum form.
  Status solve(double tau, const VecX& b, VecX& x, std::string& failure);

  FirstOrderSystem system;
  FirstOrderInverse inverse;
  SpectralSplit split;

 private:
  bool m_project_damping;
  /// The step matrix as scale (K - sigma M) when D is in the pencil (else inverse == nullptr),
  /// at m_pencil_tau.
  LentShift m_pencil;
  double m_pencil_tau = 0.0;
};

/// Whether the first-order system's D is alpha M + beta K with the K(q) of J (or D = 0), so that
/// M + tau D + tau^2 K is a multiple of K - sigma M (see SplitSolver::prepare).
bool damping_in_pencil(const Model& model, bool project_damping);

/// t phi_1(t B) for B = [[0, 1], [-lambda, 0]], i.e. int_0^t exp(s B) ds (one 2x2 block of Chen
/// thesis Eq. 6.6's J'_G): sin/cos for lambda > 0, sinh/cosh for lambda < 0, a series where
/// |lambda| t^2 is small. Returned row-major as {P11, P12, P21, P22}.
std::array<double, 4> mode_phi1(double lambda, double t);

}  // namespace simrun
