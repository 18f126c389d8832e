#pragma once
#include "material/principal_stretch.hpp"

namespace simrun {

/// Standard compressible neo-Hookean (Bonet & Wood, "Nonlinear Continuum Mechanics for Finite
/// Element Analysis", 2nd ed., Eq. 6.27; Sifakis & Barbic 2012 course notes, Sec. 3.4):
///   psi = mu/2 (I_C - 3) - mu log J + lambda/2 (log J)^2,   I_C = |F|^2, J = det F,
///   P = mu (F - F^-T) + lambda log J F^-T.
/// mu, lambda are the Lame parameters: the small-strain limit is the linear material.
/// dP/dF and its PSD projection use the analytic eigensystem in the principal stretches
/// (principal_stretch.hpp; Smith et al. 2019).
///
/// Inversion: not allowed (log J). For J <= 0 energy_density returns +infinity (line searches
/// reject the step) and first_piola / first_piola_derivative(_psd) return all-NaN matrices, so
/// any use of an inverted element is a visible non-finite state, never a silent value.
class NeoHookean final : public PrincipalStretchMaterial {
 public:
  std::string_view name() const override { return "neohookean"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override;
  Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const override;
  bool allows_inversion() const override { return false; }

 protected:
  StretchDerivatives stretch_derivatives(const Vec3& sigma,
                                         const MaterialParameters& p) const override;
  bool tangent_defined(const Mat3& F) const override { return F.determinant() > 0.0; }
};

}  // namespace simrun
