#pragma once
/// Following the lowest modes of K w = lambda M w from step to step without an eigensolve of
/// its own (Chen thesis Sec. 6.3.1's per-step partial eigendecomposition, made cheap): one block
/// subspace iteration with a matrix the step has factorized anyway, A = M + tau D + tau^2 K (or
/// any positive multiple of K - sigma M with sigma below the spectrum), then a Rayleigh-Ritz
/// step on (K, M). With D = alpha M + beta K, A^-1 M has the eigenvectors of (K, M) and damps
/// mode i by 1 / (1 + tau alpha + (tau^2 + tau beta) lambda_i): the lowest ones dominate, and
/// mode i (of s, with p guard vectors) converges by the factor
/// (1 + tau^2 lambda_i) / (1 + tau^2 lambda_{s+p+1}) per call. A K that has changed since A was
/// formed (a projected stiffness, another linearization) only slows it: the Ritz pairs are
/// always those of (K, M) on the iterated subspace. Used by the SIERE split and by EigenFit.
#include <functional>

#include "core/status.hpp"
#include "core/types.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

/// Guard vectors kept beyond the s wanted modes: the convergence factor above takes
/// lambda_{s+p+1} instead of lambda_{s+1}.
inline int subspace_guard_vectors(int s) { return s / 2 > 3 ? s / 2 : 3; }

struct TrackedModes {
  Status status = Status::kSuccess;
  int back_solves = 0;  ///< columns solved with A
};

/// W <- Ritz vectors of (K, M) on span(A^-1 M W), M-orthonormal, in ascending order of their Ritz
/// values (written to `values`). kNumericalIssue when A's solve or the small eigenproblem fails
/// (W and values untouched). `mass` and `stiffness` apply M and K to a block of columns.
/// `MW`: M W, kept between calls (the Rayleigh-Ritz step has M Y, so the new M W costs a small
/// product instead of a pass over M); computed afresh when its shape is not W's, so callers that
/// set W themselves clear it.
TrackedModes track_lowest_modes(InverseOperator& A, const std::function<MatX(const MatX&)>& mass,
                                const std::function<MatX(const MatX&)>& stiffness, MatX& W,
                                MatX& MW, VecX& values);

}  // namespace simrun
