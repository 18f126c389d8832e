/// Multilevel Newton directions (see multilevel_solver.hpp).
#include "multilevel/multilevel_solver.hpp"

#include <omp.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/parallel.hpp"
#include "core/pattern_algebra.hpp"
#include "core/timer.hpp"

namespace simrun {
namespace {

/// One subspace level: U and the pseudo-inverses of its 12x12 block-Jacobi blocks.
class SubspaceLevel {
 public:
  explicit SubspaceLevel(const RowSpMat& U) : m_U(U), m_blocks(U.cols() / 12) {}

  int size() const { return static_cast<int>(m_U.cols()); }

  /// The assembled alternative: R = U^T H U as a dense matrix, shifted by 1e-12 of its largest
  /// diagonal entry so that directions U cannot move (a zero column: a handle whose support is a
  /// single vertex has no linear DOFs) stay solvable, and factorized (LLT, LDLT when H is not
  /// positive definite; with require_positive a failed LLT is kNumericalIssue instead, since
  /// U^T H U indefinite proves H indefinite). By rows i of H: T_i = sum_j H_ij U_j (a dense scratch
  /// row), then R += U_i^T T_i, so the cost is about nnz(H) nnz(U row) + nnz(U) nnz(T row), never a
  /// general sparse-sparse product.
  Status assemble(const RowSpMat& H, bool require_positive) {
    const int size = this->size();
    // Rows split over the threads, each with a reduced matrix of its own (lower triangle only:
    // the Cholesky reads no more), summed at the end; small systems and meshes stay serial.
    const int threads = size <= 2000 && H.outerSize() >= kParallelElementThreshold
                            ? std::max(1, thread_count())
                            : 1;
    std::vector<MatX> partial(threads);
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      MatX& reduced = partial[t];
      reduced.setZero(size, size);
      VecX scratch = VecX::Zero(size);
      std::vector<char> touched(size, 0);
      std::vector<int> columns;
#pragma omp for schedule(static)
      for (int i = 0; i < H.outerSize(); ++i) {
        if (m_U.outerIndexPtr()[i + 1] == m_U.outerIndexPtr()[i]) continue;  // U_i = 0
        columns.clear();
        for (RowSpMat::InnerIterator h_ij(H, i); h_ij; ++h_ij)
          for (RowSpMat::InnerIterator u(m_U, h_ij.col()); u; ++u) {
            if (!touched[u.col()]) touched[u.col()] = 1, columns.push_back(u.col());
            scratch[u.col()] += h_ij.value() * u.value();
          }
        for (RowSpMat::InnerIterator u(m_U, i); u; ++u)
          for (int b : columns)
            if (b >= u.col()) reduced(b, u.col()) += u.value() * scratch[b];
        for (int b : columns) scratch[b] = 0.0, touched[b] = 0;
      }
    }
    MatX& reduced = partial[0];
    for (int t = 1; t < threads; ++t) reduced += partial[t];
    const double shift = 1e-12 * reduced.diagonal().cwiseAbs().maxCoeff();
    reduced.diagonal().array() += shift;
    m_llt.compute(reduced);
    m_use_ldlt = m_llt.info() != Eigen::Success;
    if (m_use_ldlt && require_positive) return Status::kNumericalIssue;
    if (m_use_ldlt) {
      m_ldlt.compute(reduced);
      if (m_ldlt.info() != Eigen::Success) return Status::kNumericalIssue;
    }
    return Status::kSuccess;
  }

  /// U q with q = (U^T H U)^-1 U^T r (after assemble()).
  VecX solve_assembled(const VecX& r) const {
    const VecX rhs = m_U.transpose() * r;
    const VecX q = m_use_ldlt ? VecX(m_ldlt.solve(rhs)) : VecX(m_llt.solve(rhs));
    return m_U * q;
  }

  /// D_h = U_h^T H U_h for every handle h (Trusty et al. Sec. 3.7.1), by rows of H: each entry
  /// H_ij adds H_ij u_i u_j^T to the blocks of the handles that rows i and j of U share. The
  /// blocks are inverted on their range (eigenvalues below 1e-12 of the largest count as zero:
  /// a handle whose support is too small to span its linear DOFs).
  void build_preconditioner(const RowSpMat& H) {
    std::vector<Mat12> D(m_blocks.size(), Mat12::Zero());
    for (int i = 0; i < H.outerSize(); ++i) {
      for (RowSpMat::InnerIterator h_ij(H, i); h_ij; ++h_ij) {
        const int j = h_ij.col();
        RowSpMat::InnerIterator a(m_U, i), b(m_U, j);
        while (a && b) {
          const int ha = a.col() / 12, hb = b.col() / 12;
          if (ha < hb) {
            ++a;
          } else if (hb < ha) {
            ++b;
          } else {  // the handle's (up to) 4 entries in each row
            RowSpMat::InnerIterator b_start = b;
            for (; a && a.col() / 12 == ha; ++a)
              for (b = b_start; b && b.col() / 12 == ha; ++b)
                D[ha](a.col() % 12, b.col() % 12) += h_ij.value() * a.value() * b.value();
          }
        }
      }
    }
    m_D = D;
    for (size_t h = 0; h < D.size(); ++h) {
      const Eigen::SelfAdjointEigenSolver<Mat12> eigen(D[h]);
      const Vec12 lambda = eigen.eigenvalues();
      const double cutoff = 1e-12 * lambda.cwiseAbs().maxCoeff();
      Vec12 inverse = Vec12::Zero();
      for (int k = 0; k < 12; ++k)
        if (lambda[k] > cutoff) inverse[k] = 1.0 / lambda[k];
      m_blocks[h] = eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose();
    }
  }

  /// Ritz vectors kept beside the affine coarse space (0: affine only).
  void set_ritz_vectors(int count) { m_ritz_wanted = std::max(0, count); }

  /// The coarse space of the deflated PCG: W = U^T H U Z and the (pseudo-)inverse of
  /// E = Z^T W, from one product of H with the dense block U Z, where Z is the affine embedding
  /// `affine` followed by the Ritz vectors harvested from the earlier solves (if any). An empty
  /// `affine` turns deflation off; so does an E with a clearly negative eigenvalue (H
  /// indefinite: the plain PCG then meets the negative curvature itself and reports it, as
  /// without deflation).
  void build_deflation(const RowSpMat& H, const MatX& affine) {
    m_Z.resize(0, 0);
    if (affine.size() == 0 || affine.rows() != size()) return;
    MatX Z = affine;
    m_affine_columns = static_cast<int>(affine.cols());
    if (m_ritz.cols() > 0) {
      Z.conservativeResize(Eigen::NoChange, affine.cols() + m_ritz.cols());
      Z.rightCols(m_ritz.cols()) = m_ritz;
    }
    const MatX UZ = m_U * Z;
    const MatX HUZ = H * UZ;
    MatX W = m_U.transpose() * HUZ;
    if (!W.allFinite()) return;  // NaN or inf in H: no deflation
    MatX E = Z.transpose() * W;
    E = 0.5 * (E + E.transpose());
    const Eigen::SelfAdjointEigenSolver<MatX> eigen(E);
    if (eigen.info() != Eigen::Success) return;
    const VecX lambda = eigen.eigenvalues();
    const double scale = lambda.cwiseAbs().maxCoeff();
    if (!(scale > 0.0) || lambda.minCoeff() < -1e-12 * scale) return;
    VecX inverse = VecX::Zero(lambda.size());
    for (Eigen::Index k = 0; k < lambda.size(); ++k)
      if (lambda[k] > 1e-12 * scale) inverse[k] = 1.0 / lambda[k];
    m_Einv = eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose();
    m_W = std::move(W);
    m_Z = std::move(Z);
  }

  /// Block-Jacobi PCG on U^T H U q = U^T r (products U^T (H (U q)), never forming U^T H U);
  /// returns U q. Stops at the relative tolerance, the iteration cap, or at non-positive
  /// curvature (keeping the iterate so far; `indefinite` is then set). With a coarse space
  /// (build_deflation) it is deflated PCG (Saad et al. 2000, Alg. 3.6): q starts at the coarse
  /// solution Z E^-1 Z^T rhs, so the residual is orthogonal to Z, and every search direction is
  /// made A-orthogonal to Z (p = z - Z E^-1 W^T z + beta p): CG then iterates on the spectrum
  /// without the coarse space's eigenvalues.
  VecX solve(const RowSpMat& H, const VecX& r, double tolerance, int max_iterations,
             int& iterations, bool& indefinite) {
    const VecX rhs = m_U.transpose() * r;
    VecX q = VecX::Zero(rhs.size());
    const double target = tolerance * rhs.norm();
    iterations = 0;
    if (rhs.norm() == 0.0) return VecX::Zero(r.size());
    VecX residual = rhs;
    const bool deflate = m_Z.size() > 0;
    if (deflate) {
      const VecX coarse = m_Einv * (m_Z.transpose() * rhs);
      q.noalias() = m_Z * coarse;
      residual.noalias() -= m_W * coarse;
    }
    // The preconditioned residual, made A-orthogonal to the coarse space.
    auto direction = [&](const VecX& res) {
      VecX z = precondition(res);
      if (deflate) z.noalias() -= m_Z * (m_Einv * (m_W.transpose() * z));
      return z;
    };
    VecX z = direction(residual);
    VecX p = z;
    double rz = residual.dot(z);
    // The search directions and their products, for the Ritz vectors (harvest_ritz).
    const bool harvest = deflate && m_ritz_wanted > 0;
    std::vector<VecX> directions, products;
    bool curved = true;
    for (; iterations < max_iterations && residual.norm() > target; ++iterations) {
      const VecX Up = m_U * p;
      const VecX Ap = m_U.transpose() * (H * Up);
      const double curvature = p.dot(Ap);
      if (!(curvature > 0.0)) {
        // p = 0 (a residual in the blocks' null space) proves nothing about H.
        if (p.squaredNorm() > 0.0) indefinite = true;
        curved = false;
        break;
      }
      if (harvest && static_cast<int>(directions.size()) < kRitzDirections) {
        directions.push_back(p);
        products.push_back(Ap);
      }
      const double alpha = rz / curvature;
      q.noalias() += alpha * p;
      residual.noalias() -= alpha * Ap;
      z = direction(residual);
      const double rz_next = residual.dot(z);
      p = z + (rz_next / rz) * p;
      rz = rz_next;
    }
    if (harvest && curved && !directions.empty()) harvest_ritz(directions, products);
    return m_U * q;
  }

 private:
  /// Search directions a solve keeps for the Rayleigh-Ritz step.
  static constexpr int kRitzDirections = 200;

  /// The Ritz vectors of the lowest eigenvalues of the preconditioned subspace matrix,
  /// A v = theta D v (D the block-Jacobi blocks), in span[V, P]: the Ritz vectors V of this
  /// set-up's coarse space (A V is in W) and this solve's search directions P (A P recorded). The
  /// directions of a deflated solve are A-orthogonal to the coarse space, so the vectors
  /// approximate what it leaves: the body's softest non-affine motions (a thin plate's bending),
  /// which set the deflated count on stiff thin bodies. Recycled into the next set-up's coarse
  /// space (a form of eigCG, Stathopoulos and Orginos 2010, with the Rayleigh-Ritz step after the
  /// solve).
  void harvest_ritz(const std::vector<VecX>& directions, const std::vector<VecX>& products) {
    const int previous = static_cast<int>(m_Z.cols()) - m_affine_columns;
    const int columns = previous + static_cast<int>(directions.size());
    MatX S(size(), columns), AS(size(), columns);
    if (previous > 0) {
      S.leftCols(previous) = m_Z.rightCols(previous);
      AS.leftCols(previous) = m_W.rightCols(previous);
    }
    for (size_t k = 0; k < directions.size(); ++k) {
      S.col(previous + k) = directions[k];
      AS.col(previous + k) = products[k];
    }
    MatX DS(size(), columns);
    for (size_t h = 0; h < m_D.size(); ++h)
      DS.middleRows<12>(12 * h) = m_D[h] * S.middleRows<12>(12 * h);
    // Unit D-norm columns first: the kept Ritz vectors (unit length, D-norm^2 ~ the blocks'
    // scale) and the search directions (length ~ |r| / that scale) differ by many orders on a
    // stiff body, and B's relative cutoff below would otherwise drop every new direction.
    for (int k = 0; k < columns; ++k) {
      const double norm2 = S.col(k).dot(DS.col(k));
      const double inverse = norm2 > 0.0 && std::isfinite(norm2) ? 1.0 / std::sqrt(norm2) : 0.0;
      S.col(k) *= inverse;
      AS.col(k) *= inverse;
      DS.col(k) *= inverse;
    }
    MatX G = S.transpose() * AS, B = S.transpose() * DS;
    G = 0.5 * (G + G.transpose());
    B = 0.5 * (B + B.transpose());
    // B-orthonormal basis of span S (dropping directions it cannot tell apart), then the
    // ordinary eigenproblem of G in it.
    const Eigen::SelfAdjointEigenSolver<MatX> metric(B);
    const VecX mu = metric.eigenvalues();
    const double cutoff = 1e-10 * mu.cwiseAbs().maxCoeff();
    std::vector<int> kept;
    for (Eigen::Index k = 0; k < mu.size(); ++k)
      if (mu[k] > cutoff) kept.push_back(static_cast<int>(k));
    if (kept.empty()) return;
    MatX T(columns, static_cast<int>(kept.size()));
    for (size_t k = 0; k < kept.size(); ++k)
      T.col(k) = metric.eigenvectors().col(kept[k]) / std::sqrt(mu[kept[k]]);
    const MatX reduced = T.transpose() * G * T;
    const Eigen::SelfAdjointEigenSolver<MatX> ritz(0.5 * (reduced + reduced.transpose()));
    const int count = std::min<int>(m_ritz_wanted, static_cast<int>(kept.size()));
    m_ritz = S * (T * ritz.eigenvectors().leftCols(count));
    for (int k = 0; k < count; ++k) m_ritz.col(k).normalize();
  }

  VecX precondition(const VecX& r) const {
    VecX z(r.size());
    for (size_t h = 0; h < m_blocks.size(); ++h)
      z.segment<12>(12 * h) = m_blocks[h] * r.segment<12>(12 * h);
    return z;
  }

  const RowSpMat& m_U;
  std::vector<Mat12> m_blocks;
  std::vector<Mat12> m_D;    ///< the blocks themselves (the Ritz step's metric)
  MatX m_Z, m_W, m_Einv;     ///< the deflated PCG's coarse space (empty: plain PCG)
  int m_affine_columns = 0;  ///< Z's first columns: the affine embedding; the rest m_ritz
  int m_ritz_wanted = 0;
  MatX m_ritz;  ///< Ritz vectors from the earlier solves (kept across set-ups)
  Eigen::LLT<MatX> m_llt;
  Eigen::LDLT<MatX> m_ldlt;
  bool m_use_ldlt = false;
};

class MultilevelSolver final : public LinearSolver {
 public:
  MultilevelSolver(std::shared_ptr<const MultilevelBases> bases, MultilevelSolverSettings settings)
      : m_bases(std::move(bases)),
        m_settings(settings),
        m_affine(m_bases->affine),
        m_sms(m_bases->sms) {
    m_sms.set_ritz_vectors(m_settings.sms_ritz_vectors);
  }

  Status factorize(const SpMat& A) override { return setup(A, nullptr, false, true); }
  /// As the PCG baseline: a non-positive diagonal entry proves A indefinite.
  Status factorize_positive_definite(const SpMat& A) override {
    return setup(A, nullptr, true, true);
  }

  bool uses_hessian_parts() const override { return m_settings.hessian_parts; }
  /// H_lag = fresh + elastic_lagged for the polish, H_sub = fresh + elastic_cubature for the
  /// subspace levels (H_lag when there is no rule).
  Status factorize_parts(const HessianParts& parts, bool require_positive) override {
    const Timer timer;
    assign_combination(m_lagged_sum, {{1.0, &parts.fresh}, {1.0, &parts.elastic_lagged}});
    if (parts.has_cubature) {
      assign_combination(m_subspace_sum, {{1.0, &parts.fresh}, {1.0, &parts.elastic_cubature}});
      // The cubature visits a fraction of the tets and a lumped mass is diagonal: dropping the
      // pattern's zeros makes the subspace products (and the assembled U^T H U) cost that
      // fraction of the full Hessian's.
      m_subspace_sum.prune(0.0);
    }
    m_stats.factor_seconds += timer.seconds();
    return setup(m_lagged_sum, parts.has_cubature ? &m_subspace_sum : nullptr, require_positive,
                 false);
  }

  void solve(const VecX& b, VecX& x) override {
    if (!m_ready)
      throw std::logic_error("MultilevelSolver::solve without a successful factorize()");
    const Timer timer;
    m_met_indefinite = false;
    VecX d = VecX::Zero(b.size());
    VecX r = b;
    subspace_stage(m_affine, 0, r, d);  // Alg. 2: affine level on -g ...
    subspace_stage(m_sms, 1, r, d);     // ... then the SMS level on what it left
    m_subspace_direction = d;           // d_s, for the paper's stopping rule
    // Alg. 1's r = -g - H* d_s: the subspace levels updated r with their own matrix; the
    // consistent correction uses the polish's (Trusty et al. Alg. 1 prints the subspace H).
    if (m_separate_subspace &&
        m_settings.fine_residual == MultilevelSolverSettings::FineResidual::kLagged)
      r.noalias() = b - m_matrix * d;
    fine_stage(r, d);  // Alg. 1: the full-space polish
    m_stats.iterations =
        m_stats.level_iterations[0] + m_stats.level_iterations[1] + m_stats.level_iterations[2];
    m_stats.residual = b.norm() > 0.0 ? r.norm() / b.norm() : 0.0;
    ++m_stats.solves;
    m_stats.solve_seconds += timer.seconds();
    x = std::move(d);
  }

  void solve(const MatX& B, MatX& X) override { solve_by_columns(*this, B, X); }

  const LinearSolverStats& stats() const override { return m_stats; }
  void reset_stats() override { m_stats = LinearSolverStats{}; }
  /// Non-positive curvature met by a stage, after a set-up that required the whole Hessian to be
  /// positive definite: the stages' answers are truncated (they kept what they had), and on the
  /// hoop stand-in such directions took Newton 4x the iterations (docs/multilevel.md). Never
  /// with the Hessian in parts: a cubature or lagged elastic part can be indefinite where the
  /// true Hessian is not, so it proves nothing about it.
  bool solve_proved_indefinite() const override {
    return m_require_positive && m_whole_hessian && m_met_indefinite;
  }
  const VecX* subspace_direction() const override {
    return m_subspace_direction.size() ? &m_subspace_direction : nullptr;
  }

 private:
  /// A for the polish (and the subspace levels unless `subspace` is given); `whole_hessian`:
  /// A is the Newton matrix itself, not a sum of parts (cubature, lagged).
  Status setup(const SpMat& A, const SpMat* subspace, bool require_positive, bool whole_hessian) {
    const Timer timer;
    ++m_stats.factorizations;
    m_ready = false;
    m_require_positive = require_positive;
    m_whole_hessian = whole_hessian;
    if (A.rows() != m_bases->affine.rows() || A.rows() != m_bases->sms.rows())
      throw std::logic_error("MultilevelSolver: the matrix does not match the bases' DOFs");
    m_matrix = A.selfadjointView<Eigen::Lower>();
    m_separate_subspace = subspace != nullptr;
    if (m_separate_subspace) m_subspace_matrix = subspace->selfadjointView<Eigen::Lower>();
    const RowSpMat& subspace_matrix = m_separate_subspace ? m_subspace_matrix : m_matrix;
    m_inverse_diagonal = m_matrix.diagonal();
    for (Eigen::Index i = 0; i < m_inverse_diagonal.size(); ++i) {
      const double d = m_inverse_diagonal[i];
      if (!std::isfinite(d) || d == 0.0 || (require_positive && d < 0.0))
        return Status::kNumericalIssue;
      m_inverse_diagonal[i] = 1.0 / std::abs(d);
    }
    const Timer preconditioner_timer;
    for (SubspaceLevel* level : {&m_affine, &m_sms}) {
      if (level->size() == 0) continue;
      if (m_settings.products == MultilevelSolverSettings::Products::kAssembled) {
        if (level->assemble(subspace_matrix, require_positive && whole_hessian) != Status::kSuccess)
          return Status::kNumericalIssue;
      } else {
        level->build_preconditioner(subspace_matrix);
      }
    }
    if (m_settings.products == MultilevelSolverSettings::Products::kMatrixFree &&
        m_settings.sms_deflation == MultilevelSolverSettings::SmsDeflation::kAffine &&
        m_sms.size() > 0)
      m_sms.build_deflation(subspace_matrix, m_bases->affine_in_sms);
    m_stats.level_setup_seconds += preconditioner_timer.seconds();
    m_ready = true;
    m_stats.factor_seconds += timer.seconds();
    return Status::kSuccess;
  }

  /// d += U q with q the level's Galerkin solution for the residual r; r -= H U q (H the
  /// subspace matrix).
  void subspace_stage(SubspaceLevel& level, int index, VecX& r, VecX& d) {
    if (level.size() == 0) return;
    const Timer timer;
    const RowSpMat& H = m_separate_subspace ? m_subspace_matrix : m_matrix;
    int iterations = 0;
    const VecX step =
        m_settings.products == MultilevelSolverSettings::Products::kAssembled
            ? level.solve_assembled(r)
            : level.solve(H, r, m_settings.subspace_tolerance, m_settings.subspace_max_iterations,
                          iterations, m_met_indefinite);
    d += step;
    r.noalias() -= H * step;
    m_stats.level_iterations[index] += iterations;
    m_stats.level_seconds[index] += timer.seconds();
    if (iterations >= m_settings.subspace_max_iterations) ++m_stats.capped_solves;
  }

  /// Fixed-count Jacobi-PCG from zero on H d_f = r (Trusty Sec. 3.7.2); d += d_f, r -= H d_f.
  void fine_stage(VecX& r, VecX& d) {
    const Timer timer;
    VecX x = VecX::Zero(r.size());
    VecX residual = r;
    VecX z = m_inverse_diagonal.cwiseProduct(residual);
    VecX p = z, Ap(r.size());
    double rz = residual.dot(z);
    int k = 0;
    for (; k < m_settings.fine_iterations && rz > 0.0; ++k) {
      Ap.noalias() = m_matrix * p;
      const double curvature = p.dot(Ap);
      if (!(curvature > 0.0)) {
        m_met_indefinite = true;
        break;
      }
      const double alpha = rz / curvature;
      x.noalias() += alpha * p;
      residual.noalias() -= alpha * Ap;
      z = m_inverse_diagonal.cwiseProduct(residual);
      const double rz_next = residual.dot(z);
      p = z + (rz_next / rz) * p;
      rz = rz_next;
    }
    d += x;
    r = residual;
    m_stats.level_iterations[2] += k;
    m_stats.level_seconds[2] += timer.seconds();
  }

  std::shared_ptr<const MultilevelBases> m_bases;
  MultilevelSolverSettings m_settings;
  SubspaceLevel m_affine, m_sms;
  RowSpMat m_matrix;           ///< H (whole), or H_lag: the polish's matrix
  RowSpMat m_subspace_matrix;  ///< H_sub when the parts give a cubature rule
  bool m_separate_subspace = false;
  SpMat m_lagged_sum, m_subspace_sum;  ///< the parts' sums (patterns kept between calls)
  VecX m_inverse_diagonal;
  bool m_ready = false;
  bool m_require_positive = false;  ///< the last set-up required a positive definite matrix
  bool m_whole_hessian = false;     ///< the last set-up took the whole Newton matrix
  bool m_met_indefinite = false;    ///< the last solve met non-positive curvature
  LinearSolverStats m_stats;
  VecX m_subspace_direction;
};

}  // namespace

std::unique_ptr<LinearSolver> make_multilevel_solver(std::shared_ptr<const MultilevelBases> bases,
                                                     MultilevelSolverSettings settings) {
  return std::make_unique<MultilevelSolver>(std::move(bases), settings);
}

}  // namespace simrun
