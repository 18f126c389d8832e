#pragma once
#include "material/material.hpp"

namespace simrun {

/// Small-strain isotropic linear elasticity:
///   eps = (F + F^T)/2 - I,  psi = mu eps:eps + lambda/2 tr(eps)^2,
///   P = 2 mu eps + lambda tr(eps) I,  dP[dF] = mu (dF + dF^T) + lambda tr(dF) I.
/// Not rotation invariant (rotations produce strain); defined for inverted elements.
class LinearElastic final : public Material {
 public:
  std::string_view name() const override { return "linear"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override;
  Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const override;
  Mat9 first_piola_derivative(const Mat3& F, const MaterialParameters& p) const override;
  /// dP/dF is already PSD for mu > 0, lambda >= -2 mu / 3; returned unchanged.
  Mat9 first_piola_derivative_psd(const Mat3& F, const MaterialParameters& p) const override {
    return first_piola_derivative(F, p);
  }
  bool is_quadratic() const override { return true; }
  bool allows_inversion() const override { return true; }
};

}  // namespace simrun
