#pragma once
#include "material/principal_stretch.hpp"

namespace simrun {

/// Neo-Hookean in the isochoric/volumetric split used by the Kharevych thesis (Eq. 2.4, the
/// modified neo-Hookean of Bonet & Burton) and by the EigenFit authors' GAUSS code
/// (Kharevych thesis Sec. 2.2.1, Eqs. 2.4 and 2.10; the Chen thesis gives no formula):
///   psi = C1 (I1bar - 3) + D1 (J - 1)^2,   I1bar = J^(-2/3) |F|^2,
///   P = C1 J^(-2/3) (2 F - 2/3 |F|^2 F^-T) + 2 D1 J (J - 1) F^-T     (Kharevych Eq. 2.10).
///
/// Coefficient convention. This model takes the same Lame parameters as every other model
/// (mu = E / (2 (1 + nu)) is the Lame shear modulus) and sets, as GAUSS does,
///   C1 = mu / 2,   D1 = lambda / 2.
/// So C1 (which Kharevych's Eq. 2.4 calls "mu") is HALF the Lame shear modulus; the small-strain
/// shear modulus of this model is mu, the same as the linear material. Kharevych writes the
/// volumetric term as kappa/2 (J - 1)^2 with kappa the bulk modulus; GAUSS's D1 = lambda/2
/// makes the small-strain bulk modulus lambda, not lambda + 2/3 mu, so this model is 2/3 mu
/// softer in pure compression than the linear material with the same E, nu. We keep GAUSS's
/// choice to reproduce the EigenFit experiments.
///
/// Inversion: not allowed (Kharevych Eq. 2.4 is undefined for J <= 0; J^(-2/3) blows up at
/// J = 0). For J <= 0 energy_density is +infinity and P, dP/dF are all-NaN, as for neohookean.
class NeoHookeanIsochoric final : public PrincipalStretchMaterial {
 public:
  std::string_view name() const override { return "neohookean_isochoric"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override;
  Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const override;
  bool allows_inversion() const override { return false; }

 protected:
  StretchDerivatives stretch_derivatives(const Vec3& sigma,
                                         const MaterialParameters& p) const override;
  bool tangent_defined(const Mat3& F) const override { return F.determinant() > 0.0; }
};

}  // namespace simrun
