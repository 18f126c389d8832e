#pragma once
/// The multilevel inexact-Newton direction of Trusty et al. (Secs. 3.2 and 3.7, Algs. 1-2; their
/// g is a typo for -g): per Newton system H d = b (b = -g), an affine-level PCG solve,
/// an SMS-level PCG solve on the residual it leaves, and a fixed-count Jacobi-PCG polish of the
/// full space on what remains; d = d_affine + d_sms + d_fine goes to Newton's CCD-filtered line
/// search. A LinearSolver, so every Newton of simrun can use it.
#include <memory>

#include "multilevel/subspace_basis.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

/// The two subspaces, in the free DOFs of the model.
struct MultilevelBases {
  RowSpMat affine;  ///< U_a: 12 columns per object
  RowSpMat sms;     ///< U_s: 12 columns per handle
  /// Z with U_s Z = U_a (subspace_basis.hpp affine_in_handles): the affine level in SMS
  /// coefficients, the coarse space of the SMS PCG. Empty: none (no deflation).
  MatX affine_in_sms;
};

struct MultilevelSolverSettings {
  double subspace_tolerance = 1e-4;  ///< relative residual of the affine and SMS PCG solves
  int subspace_max_iterations = 1000;
  int fine_iterations = 20;  ///< Jacobi-PCG iterations of the full-space polish (0: none)
  /// How the subspace systems are solved. kMatrixFree: the paper's block-Jacobi PCG with
  /// products U^T (H (U q)). kAssembled: U^T H U formed once per Newton iteration (sparse, 12x12
  /// blocks coupling handles with overlapping support) and solved by CHOLMOD, a few-core
  /// alternative (not the paper's, Sec. 3.7.1); exact subspace solves, no subspace CG iterations.
  enum class Products { kMatrixFree, kAssembled } products = Products::kMatrixFree;
  /// Matrix-free only: the SMS PCG's coarse space. kAffine: deflated PCG (Saad, Yeung, Erhel
  /// and Guyomarc'h 2000) with Z = MultilevelBases::affine_in_sms, the exact embedding of each
  /// object's affine field. Block-Jacobi leaves the near-rigid motions of a stiff body as a few
  /// isolated eigenvalues near (M / h^2) / K, which keep CG iterating as E grows (on a thin
  /// plate at E = 1e10: condition 2.3e6, 2.3e6 / 61 of it from those 6; docs/multilevel.md);
  /// deflation solves them exactly with one 12 x 12 system per object and keeps the matrix-free
  /// products. Costs 12 products H U_a per object and set-up. kNone: the paper's plain PCG.
  enum class SmsDeflation { kNone, kAffine } sms_deflation = SmsDeflation::kAffine;
  /// With kAffine: this many Ritz vectors of the lowest eigenvalues of the preconditioned SMS
  /// matrix join the coarse space, harvested from each solve's search directions (together with
  /// the previous ones) and used from the next Newton iteration on (k more columns in the
  /// set-up's product H U Z). Aimed at what the affine field leaves: a stiff thin body's soft
  /// bending modes. 0: the affine field only. 16 kept the 64k-tet plate of
  /// trusty_fig14_stiffness.py flat within 1.4x from E = 1e6 to 1e10 (affine alone: 1.9x).
  int sms_ritz_vectors = 16;
  /// Take the Newton matrix in parts (solve/hessian_parts.hpp: the cubature elastic Hessian in
  /// the subspace levels, the lagged one in the polish) instead of whole.
  bool hessian_parts = false;
  /// With parts: which matrix forms the polish's right-hand side r = b - H* d_s (Trusty et al.
  /// Alg. 1 is unclear): kLagged, H* = H_lag (the consistent correction, one more product), or
  /// kSubspace, H* = the subspace matrix (Alg. 1 as printed).
  enum class FineResidual { kLagged, kSubspace } fine_residual = FineResidual::kLagged;
};

/// solve(b) returns the multilevel direction, not A^{-1} b: the subspace solves are Galerkin
/// (U^T H U q = U^T r, matrix-free products U^T (H (U q)), 12x12 block-Jacobi preconditioners
/// D_h = U_h^T H U_h inverted on their range), the polish is a fixed number of CG iterations.
/// On a symmetric positive definite H every stage lowers the quadratic model
/// d^T H d / 2 - b^T d, so d is a descent direction; a stage that meets non-positive curvature
/// stops with what it has. stats(): `iterations` sums all levels, `level_iterations` and
/// `level_seconds` split them (affine, SMS, fine).
std::unique_ptr<LinearSolver> make_multilevel_solver(std::shared_ptr<const MultilevelBases> bases,
                                                     MultilevelSolverSettings settings = {});

}  // namespace simrun
