#pragma once
/// Shared machinery for isotropic models written in the principal stretches sigma_i of F.
///
/// Signed SVD (Irving, Teran, Fedkiw 2004, "Invertible finite elements"): F = U diag(sigma) V^T
/// with det U = det V = +1; an inverted F (det F < 0) gets a negative smallest sigma_3.
///
/// dP/dF of psi(F) = psihat(sigma) in closed eigen-form (Smith, de Goes, Kim 2019, "Analytic
/// eigensystems for isotropic distortion energies", ACM TOG 2019; the same blocks as Xu et al.
/// 2015, "Nonlinear material design using principal stretches"): in the basis vec(U E V^T),
///   - 3 scaling directions vec(u_a v_a^T): the 3x3 block d2psihat/dsigma2;
///   - for each pair (i,j), twist vec(U (e_i e_j^T - e_j e_i^T) V^T)/sqrt2 with eigenvalue
///       (psi_i + psi_j) / (sigma_i + sigma_j),
///     and flip vec(U (e_i e_j^T + e_j e_i^T) V^T)/sqrt2 with eigenvalue
///       (psi_i - psi_j) / (sigma_i - sigma_j)     (psi_i = dpsihat/dsigma_i).
/// Each model supplies these quotients in a closed form that has no 0/0 at repeated singular
/// values, so the tangent is exact there (tested with sigma_1 - sigma_2 = 1e-7 and = 0).
/// The rigid rotations at rest are the three twists with eigenvalue 0 (psi_i = 0).
#include "core/types.hpp"
#include "material/material.hpp"

namespace simrun {

struct SignedSvd {
  Mat3 U;      ///< rotation, det = +1
  Vec3 sigma;  ///< |sigma_0| >= |sigma_1| >= |sigma_2|; only sigma_2 may be negative
  Mat3 V;      ///< rotation, det = +1
};

SignedSvd signed_svd(const Mat3& F);

/// Derivatives of psihat(sigma). Pairs are ordered (0,1), (0,2), (1,2).
struct StretchDerivatives {
  Vec3 gradient;  ///< psi_i
  Mat3 hessian;   ///< d2psihat / dsigma_i dsigma_j
  Vec3 twist;     ///< (psi_i + psi_j) / (sigma_i + sigma_j)
  Vec3 flip;      ///< (psi_i - psi_j) / (sigma_i - sigma_j), in a closed form without 0/0
};

/// The pair (i, j) and the third index k for pair number n = 0, 1, 2.
inline constexpr int kPairI[3] = {0, 0, 1};
inline constexpr int kPairJ[3] = {1, 2, 2};
inline constexpr int kPairK[3] = {2, 1, 0};

/// P = U diag(psi_i) V^T.
Mat3 stretch_first_piola(const SignedSvd& svd, const Vec3& gradient);

/// dP/dF (9x9, column-major vec(F)) from the eigen-form above. With project = true every
/// negative eigenvalue (of the 3x3 scaling block, the twists and the flips) becomes
/// kPsdEpsilon; eigenvalues >= 0, among them the rigid-rotation zeros, are kept. The result is
/// then the same matrix as project_psd(dP/dF, kPsdEpsilon), at a fraction of the cost. When
/// nothing is negative the projected and unprojected results are bit for bit identical.
Mat9 stretch_tangent(const SignedSvd& svd, const StretchDerivatives& d, bool project);

/// sigma_i + sigma_j kept away from 0 (keeping its sign): twist quotients of the SVD-based
/// models (corotated, ARAP) are singular at sigma_i + sigma_j = 0, where the polar rotation is
/// not differentiable; this bounds them instead of dividing by zero.
double guarded_sum(double a, double b);

/// True when the eigen-form above has a negative eigenvalue (stretch_tangent's projection would
/// change something): a twist or flip quotient, or the scaling block.
bool stretch_tangent_is_indefinite(const StretchDerivatives& d);

/// Base of the models written in psihat(sigma): dP/dF, its projection and both at once from one
/// signed SVD and the model's stretch_derivatives.
class PrincipalStretchMaterial : public Material {
 public:
  Mat9 first_piola_derivative(const Mat3& F, const MaterialParameters& p) const final;
  Mat9 first_piola_derivative_psd(const Mat3& F, const MaterialParameters& p) const final;
  bool first_piola_derivative_pair(const Mat3& F, const MaterialParameters& p, Mat9& D,
                                   Mat9& D_psd) const final;

 protected:
  /// psihat's derivatives at the signed singular values sigma.
  virtual StretchDerivatives stretch_derivatives(const Vec3& sigma,
                                                 const MaterialParameters& p) const = 0;
  /// False where the model is undefined (log J at det F <= 0): dP/dF is then all NaN.
  virtual bool tangent_defined(const Mat3& /*F*/) const { return true; }
};

}  // namespace simrun
