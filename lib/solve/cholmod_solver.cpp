/// CHOLMOD supernodal Cholesky with simplicial LDL' and LU fallbacks (see linear_solver.hpp).
#include <cholmod.h>

#include <Eigen/SparseLU>
#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/parallel.hpp"
#include "core/timer.hpp"
#include "solve/linear_solver.hpp"
#include "solve/supernodal_solve.hpp"

namespace simrun {
namespace {

/// A factorization whose pivot ratio (cholmod_rcond: min/max of D, or of diag(L)^2 for LL') is
/// below this is treated as singular. rcond >= 1/cond(A) for symmetric A, so this only rejects
/// matrices with cond(A) > 1e13, whose solutions would keep fewer than ~3 correct digits in
/// double precision; exactly singular matrices give a pivot of 0 or of roundoff size
/// (~1e-16 relative), far below it.
constexpr double kSingularRcond = 1e-13;

/// Systems at least this large solve with the subtree-parallel substitution when several
/// threads are allowed (smaller ones finish before a second thread has started).
constexpr Eigen::Index kParallelSolveDimension = 10000;

/// cholmod_start / cholmod_finish as RAII, with the options this solver relies on.
struct CholmodCommon {
  CholmodCommon() {
    cholmod_start(&common);
    common.print = 0;                        // no printing from the library
    common.error_handler = nullptr;          // statuses are read from common.status
    common.supernodal = CHOLMOD_SUPERNODAL;  // BLAS-3 supernodes for the main path
    common.final_ll = false;                 // the simplicial fallback stays LDL'
  }
  ~CholmodCommon() { cholmod_finish(&common); }
  CholmodCommon(const CholmodCommon&) = delete;
  CholmodCommon& operator=(const CholmodCommon&) = delete;
  cholmod_common common;
};

/// Owns one cholmod_factor* (symbolic or numeric); frees it through the common it came from.
class FactorHandle {
 public:
  explicit FactorHandle(cholmod_common& common) : m_common(common) {}
  ~FactorHandle() { reset(); }
  FactorHandle(const FactorHandle&) = delete;
  FactorHandle& operator=(const FactorHandle&) = delete;

  void reset(cholmod_factor* L = nullptr) {
    if (m_factor) cholmod_free_factor(&m_factor, &m_common);
    m_factor = L;
  }
  cholmod_factor* get() const { return m_factor; }

 private:
  cholmod_common& m_common;
  cholmod_factor* m_factor = nullptr;
};

/// Owns one cholmod_dense* (solve output or workspace).
class DenseHandle {
 public:
  explicit DenseHandle(cholmod_common& common) : m_common(common) {}
  ~DenseHandle() { cholmod_free_dense(&m_dense, &m_common); }
  DenseHandle(const DenseHandle&) = delete;
  DenseHandle& operator=(const DenseHandle&) = delete;
  cholmod_dense** handle() { return &m_dense; }
  const cholmod_dense* get() const { return m_dense; }

 private:
  cholmod_common& m_common;
  cholmod_dense* m_dense = nullptr;
};

/// Supernodal LL' through CHOLMOD's int interface. The symbolic analysis is cached per sparsity
/// pattern; solves reuse CHOLMOD-owned workspace (cholmod_solve2), so a solve after the first
/// costs the two triangular solves, two permutations and one copy of the result.
class CholmodSolver final : public LinearSolver {
 public:
  CholmodSolver()
      : m_common(m_cc.common),
        m_llt(m_common),
        m_ldlt(m_common),
        m_x(m_common),
        m_y(m_common),
        m_e(m_common) {}

  CholmodSolver(const CholmodSolver&) = delete;
  CholmodSolver& operator=(const CholmodSolver&) = delete;

  Status factorize(const SpMat& A) override { return factorize_impl(A, /*allow_indefinite=*/true); }
  Status factorize_positive_definite(const SpMat& A) override {
    return factorize_impl(A, /*allow_indefinite=*/false);
  }
  void solve(const VecX& b, VecX& x) override;
  void solve(const MatX& B, MatX& X) override;
  const LinearSolverStats& stats() const override { return m_stats; }
  void reset_stats() override { m_stats = {}; }

 private:
  /// LL', then (when allowed) the LDL' and LU fallbacks.
  Status factorize_impl(const SpMat& A, bool allow_indefinite);
  /// True when A's pattern differs from the one the cached symbolic factors were built for.
  bool pattern_changed(const SpMat& A) const;
  /// Non-owning CHOLMOD view of A (compressed), lower triangle referenced (stype = -1).
  static cholmod_sparse view_of(const SpMat& A);
  /// Numeric factorization into `factor`; true when CHOLMOD finished it with usable pivots.
  bool factor_numeric(cholmod_sparse& A, cholmod_factor* factor);
  /// Symbolic analysis with the given CHOLMOD_SIMPLICIAL / CHOLMOD_SUPERNODAL mode.
  cholmod_factor* analyze(cholmod_sparse& A, int supernodal);
  /// One backward-error and condition check of a fallback factorization (see the .cpp).
  bool fallback_is_reliable(const SpMat& A);
  /// x = A^{-1} b for ncols column-major right-hand sides with the active factorization.
  void solve_raw(const double* b, Eigen::Index ncols, double* x);
  /// solve_raw plus stats.
  void solve_into(const double* b, Eigen::Index ncols, double* x);

  // Declaration order matters: everything CHOLMOD allocated is freed before cholmod_finish.
  CholmodCommon m_cc;
  cholmod_common& m_common;
  FactorHandle m_llt;         ///< supernodal LL' (symbolic kept across calls)
  FactorHandle m_ldlt;        ///< simplicial LDL' fallback, analyzed on first need per pattern
  DenseHandle m_x, m_y, m_e;  ///< solve output and workspaces, reused by cholmod_solve2
  cholmod_factor* m_active = nullptr;  ///< CHOLMOD factor used by solve, if any
  Eigen::SparseLU<SpMat> m_lu;         ///< last-resort pivoting fallback
  bool m_lu_active = false;
  SpMat m_compressed;                 ///< copy of A when the caller passes uncompressed storage
  std::vector<int> m_outer, m_inner;  ///< pattern of the last symbolic analysis
  Eigen::Index m_n = -1;
  LinearSolverStats m_stats;
  std::unique_ptr<SupernodalSolve> m_parallel_solve;  ///< plan for m_llt's structure
  int m_llt_generation = 0;                           ///< counts m_llt's symbolic analyses
  int m_plan_generation = -1;                         ///< the analysis the plan was made for
};

cholmod_sparse CholmodSolver::view_of(const SpMat& A) {
  cholmod_sparse view{};
  view.nrow = static_cast<size_t>(A.rows());
  view.ncol = static_cast<size_t>(A.cols());
  view.nzmax = static_cast<size_t>(A.nonZeros());
  // CHOLMOD's signature is non-const but it only reads the input matrix.
  view.p = const_cast<int*>(A.outerIndexPtr());
  view.i = const_cast<int*>(A.innerIndexPtr());
  view.nz = nullptr;
  view.x = const_cast<double*>(A.valuePtr());
  view.z = nullptr;
  view.stype = -1;  // lower triangle; a fully stored symmetric A has its upper part ignored
  view.itype = CHOLMOD_INT;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = 1;  // Eigen keeps inner indices sorted within each column
  view.packed = 1;
  return view;
}

bool CholmodSolver::pattern_changed(const SpMat& A) const {
  if (A.rows() != m_n || !m_llt.get()) return true;
  const auto nnz = static_cast<size_t>(A.nonZeros());
  if (nnz != m_inner.size()) return true;
  return !std::equal(m_outer.begin(), m_outer.end(), A.outerIndexPtr()) ||
         !std::equal(m_inner.begin(), m_inner.end(), A.innerIndexPtr());
}

cholmod_factor* CholmodSolver::analyze(cholmod_sparse& A, int supernodal) {
  const Timer timer;
  m_common.supernodal = supernodal;
  cholmod_factor* L = cholmod_analyze(&A, &m_common);
  m_common.supernodal = CHOLMOD_SUPERNODAL;
  m_stats.symbolic_seconds += timer.seconds();
  ++m_stats.symbolic_analyses;
  if (!L) throw std::runtime_error("CHOLMOD symbolic analysis failed (out of memory?)");
  return L;
}

bool CholmodSolver::factor_numeric(cholmod_sparse& A, cholmod_factor* factor) {
  const Timer timer;
  const int ok = cholmod_factorize(&A, factor, &m_common);
  m_stats.factor_seconds += timer.seconds();
  if (!ok || m_common.status == CHOLMOD_NOT_POSDEF || factor->minor < factor->n) return false;
  // Written so that a NaN pivot ratio fails.
  const double rcond = cholmod_rcond(factor, &m_common);
  return rcond >= kSingularRcond;
}

Status CholmodSolver::factorize_impl(const SpMat& A_in, bool allow_indefinite) {
  if (A_in.rows() != A_in.cols()) throw std::invalid_argument("factorize: matrix is not square");
  const SpMat* A = &A_in;
  if (!A_in.isCompressed()) {
    m_compressed = A_in;
    m_compressed.makeCompressed();
    A = &m_compressed;
  }
  m_active = nullptr;
  m_lu_active = false;
  ++m_stats.factorizations;
  cholmod_sparse view = view_of(*A);

  if (pattern_changed(*A)) {
    m_ldlt.reset();
    m_llt.reset(analyze(view, CHOLMOD_SUPERNODAL));
    ++m_llt_generation;
    m_n = A->rows();
    m_outer.assign(A->outerIndexPtr(), A->outerIndexPtr() + A->outerSize() + 1);
    m_inner.assign(A->innerIndexPtr(), A->innerIndexPtr() + A->nonZeros());
  }

  if (factor_numeric(view, m_llt.get())) {
    m_active = m_llt.get();
    return Status::kSuccess;
  }
  if (!allow_indefinite) return Status::kNumericalIssue;

  // LL' failed: A is indefinite (or singular). First fallback: CHOLMOD's simplicial LDL'. It
  // needs nonzero, not positive, pivots in the fill-reducing order, which holds for the
  // indefinite matrices we meet (Hessians of unprojected energies, K - sigma M with sigma inside
  // the spectrum) except on a measure-zero set, costs half an LU and reuses CHOLMOD's ordering
  // machinery (Eigen::SimplicialLDLT is the same algorithm with a slower ordering). Without
  // pivoting it has no stability guarantee, so it is accepted only after a backward-error check.
  ++m_stats.ldlt_fallbacks;
  if (!m_ldlt.get()) m_ldlt.reset(analyze(view, CHOLMOD_SIMPLICIAL));
  if (factor_numeric(view, m_ldlt.get())) {
    m_active = m_ldlt.get();
    if (fallback_is_reliable(*A)) return Status::kSuccess;
    m_active = nullptr;
  }

  // Last resort for nonsingular matrices that need pivoting (a zero leading minor such as
  // tridiag(-1, 1, -1), or [[0 1][1 0]] which needs 2x2 pivots): LU with partial pivoting.
  // Neither CHOLMOD nor Eigen has a sparse Bunch-Kaufman LDL', and LU is robust for any
  // nonsingular matrix at twice the cost of LDL'; this path is rare, so its allocations are fine.
  ++m_stats.lu_fallbacks;
  const Timer timer;
  m_lu.compute(SpMat(A->selfadjointView<Eigen::Lower>()));
  m_stats.factor_seconds += timer.seconds();
  if (m_lu.info() == Eigen::Success) {
    m_lu_active = true;
    if (fallback_is_reliable(*A)) return Status::kSuccess;
    m_lu_active = false;
  }
  return Status::kNumericalIssue;
}

bool CholmodSolver::fallback_is_reliable(const SpMat& A) {
  const Timer timer;
  // A fixed +-1 right-hand side (seeded locally: no global state) has components along every
  // singular vector with overwhelming probability, so |x| / |b| estimates |A^{-1}|.
  std::mt19937 rng(20240611);
  VecX b(m_n), x(m_n);
  for (auto& v : b) v = (rng() & 1u) ? 1.0 : -1.0;
  solve_raw(b.data(), 1, x.data());
  const VecX r = A.selfadjointView<Eigen::Lower>() * x - b;
  const VecX col_sums = SpMat(A.cwiseAbs()).selfadjointView<Eigen::Lower>() * VecX::Ones(m_n);
  const double norm_a = col_sums.maxCoeff();  // |A|_1
  const double norm_x = x.lpNorm<1>(), norm_b = b.lpNorm<1>();
  m_stats.factor_seconds += timer.seconds();
  // Backward error: a stable factorization gives ~n eps; 1e-10 still allows n ~ 1e6 but flags
  // the element growth of an unstable pivot order (which shows up as 1e-6 and worse).
  const double backward_error = r.lpNorm<1>() / (norm_a * norm_x + norm_b);
  // |A|_1 |x|_1 / |b|_1 <= cond_1(A): same singularity threshold as the pivot ratio.
  const double cond_estimate = norm_a * norm_x / norm_b;
  return x.allFinite() && backward_error <= 1e-10 && cond_estimate * kSingularRcond < 1.0;
}

void CholmodSolver::solve_raw(const double* b, Eigen::Index ncols, double* x) {
  if (m_lu_active) {
    Eigen::Map<const MatX> B(b, m_n, ncols);
    Eigen::Map<MatX>(x, m_n, ncols) = m_lu.solve(B);
    return;
  }
  if (!m_active) throw std::logic_error("solve: no valid factorization (factorize failed?)");
  const int threads = thread_count();
  if (ncols == 1 && threads > 1 && m_n >= kParallelSolveDimension && m_active == m_llt.get() &&
      m_active->is_super && m_active->is_ll) {
    if (!m_parallel_solve || m_plan_generation != m_llt_generation ||
        m_parallel_solve->threads() != threads) {
      m_parallel_solve = std::make_unique<SupernodalSolve>(*m_active, threads);
      m_plan_generation = m_llt_generation;
    }
    m_parallel_solve->solve(*m_active, b, x);
    return;
  }
  cholmod_dense rhs{};
  rhs.nrow = static_cast<size_t>(m_n);
  rhs.ncol = static_cast<size_t>(ncols);
  rhs.nzmax = rhs.nrow * rhs.ncol;
  rhs.d = rhs.nrow;
  rhs.x = const_cast<double*>(b);  // read only
  rhs.z = nullptr;
  rhs.xtype = CHOLMOD_REAL;
  rhs.dtype = CHOLMOD_DOUBLE;
  if (!cholmod_solve2(CHOLMOD_A, m_active, &rhs, nullptr, m_x.handle(), nullptr, m_y.handle(),
                      m_e.handle(), &m_common))
    throw std::runtime_error("CHOLMOD solve failed (out of memory?)");
  std::copy_n(static_cast<const double*>(m_x.get()->x), rhs.nzmax, x);
}

void CholmodSolver::solve_into(const double* b, Eigen::Index ncols, double* x) {
  const Timer timer;
  solve_raw(b, ncols, x);
  m_stats.solve_seconds += timer.seconds();
  ++m_stats.solves;
}

void CholmodSolver::solve(const VecX& b, VecX& x) {
  if (b.size() != m_n) throw std::invalid_argument("solve: right-hand side has the wrong size");
  x.resize(m_n);  // no allocation when x already has the size
  solve_into(b.data(), 1, x.data());
}

void CholmodSolver::solve(const MatX& B, MatX& X) {
  if (B.rows() != m_n) throw std::invalid_argument("solve: right-hand sides have the wrong size");
  X.resize(m_n, B.cols());
  if (B.cols() > 0) solve_into(B.data(), B.cols(), X.data());
}

}  // namespace

std::unique_ptr<LinearSolver> make_cholmod_solver() { return std::make_unique<CholmodSolver>(); }

}  // namespace simrun
