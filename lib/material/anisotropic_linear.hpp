#pragma once
#include "material/material.hpp"

namespace simrun {

/// Small-strain linear elasticity with a per-element 6x6 Voigt tensor C (MaterialParameters::
/// stiffness; engineering shear, see voigt.hpp), the coarse-element model of numerical
/// coarsening (Kharevych thesis Ch. 4; Eq. 2.14 in Voigt form: K_e = V B^T C B):
///   eps = (F + F^T)/2 - I,  e = engineering_strain(eps),  psi = 1/2 e^T C e,
///   P = stress_from_voigt(C e) (symmetric),  dP/dF = B^T C B (B = engineering_strain_operator).
/// With C = isotropic_voigt(mu, lambda) it is `linear`. Not rotation invariant; defined for
/// inverted elements.
class AnisotropicLinear final : public Material {
 public:
  std::string_view name() const override { return "anisotropic_linear"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override;
  Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const override;
  Mat9 first_piola_derivative(const Mat3& F, const MaterialParameters& p) const override;
  /// B^T C B is PSD for an SPD C (check_voigt_tensor); returned unchanged.
  Mat9 first_piola_derivative_psd(const Mat3& F, const MaterialParameters& p) const override {
    return first_piola_derivative(F, p);
  }
  /// |psi| + |C|_inf |F|_F^2 (|C|_inf the max row sum, voigt_row_sum_norm): psi sums products
  /// C_ab e_a e_b of either sign, each of size at most |C|_inf |e|^2 with |e| <~ |F| + 1.
  double energy_density_magnitude(const Mat3& F, const MaterialParameters& p) const override;
  bool is_quadratic() const override { return true; }
  bool needs_stiffness_tensor() const override { return true; }
  bool allows_inversion() const override { return true; }
};

}  // namespace simrun
