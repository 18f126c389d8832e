#pragma once
#include "material/material.hpp"

namespace simrun {

/// Corotated linear elasticity with a per-element 6x6 Voigt tensor C (MaterialParameters::
/// stiffness; engineering shear, see voigt.hpp): the corotational coarse-mesh model of numerical
/// coarsening (Kharevych thesis Sec. 2.2.3; Ch. 4, corotational coarse runs as in Sec. 4.5):
///   F = R S from the signed SVD F = U diag(sigma) V^T (R = U V^T, det R = +1,
///   S = V diag(sigma) V^T, so S^2 = F^T F and det S = det F),
///   e = engineering_strain(S - I),  psi = 1/2 e^T C e.
/// With C = isotropic_voigt(mu, lambda) it is `corotated`: psi = mu |S - I|^2 + lambda/2
/// tr(S - I)^2 = mu sum (s_a - 1)^2 + lambda/2 (sum s_a - 3)^2. Stress and tangent come from
/// implicit differentiation of S^2 = F^T F (derivation in the .cpp), not from differentiating
/// the SVD. Rotation invariant (psi(Q F) = psi(F)); the material axes of C turn with R.
/// Inversion: allowed, as for `corotated` (the signed SVD gives det S = det F < 0, and the
/// energy pushes back through J = 0). The tangent is singular where sigma_i + sigma_j = 0; the
/// quotients are bounded there by guarded_sum, as in `corotated`.
/// PSD projection: the default 9x9 eigenvalue clamp (no closed-form eigensystem for general C).
class AnisotropicCorotated final : public Material {
 public:
  std::string_view name() const override { return "anisotropic_corotated"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override;
  Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const override;
  Mat9 first_piola_derivative(const Mat3& F, const MaterialParameters& p) const override;
  /// |psi| + |C|_inf |F|_F^2 (|C|_inf the max row sum): psi sums products C_ab e_a e_b of either
  /// sign with |e| <~ |S| + 1 = |F| + 1, and S carries the SVD's rounding ~1e-16 |F|.
  double energy_density_magnitude(const Mat3& F, const MaterialParameters& p) const override;
  bool needs_stiffness_tensor() const override { return true; }
  bool allows_inversion() const override { return true; }
};

}  // namespace simrun
