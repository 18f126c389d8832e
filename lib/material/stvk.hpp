#pragma once
#include "material/principal_stretch.hpp"

namespace simrun {

/// Saint Venant-Kirchhoff (named in Chen thesis Sec. 2.1.5; Sifakis & Barbic 2012, Sec. 3.3):
///   E = (F^T F - I)/2,  psi = mu E:E + lambda/2 tr(E)^2,  P = F (2 mu E + lambda tr(E) I).
/// Small-strain limit: the linear material with the same mu, lambda.
/// Inversion: allowed. psi is a polynomial in F, finite for every F; note that StVK's
/// resistance to compression vanishes as an element flattens (psi is even in sigma_i), which is
/// the model's known weakness, not an error. dP/dF and its PSD projection use the principal-
/// stretch eigensystem (Smith et al. 2019; quotients derived in stvk.cpp).
class StVenantKirchhoff final : public PrincipalStretchMaterial {
 public:
  std::string_view name() const override { return "stvk"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override;
  Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const override;
  bool allows_inversion() const override { return true; }

 protected:
  StretchDerivatives stretch_derivatives(const Vec3& sigma,
                                         const MaterialParameters& p) const override;
};

}  // namespace simrun
