#pragma once
#include "material/principal_stretch.hpp"

namespace simrun {

/// Stable neo-Hookean (Smith, de Goes, Kim 2018, "Stable Neo-Hookean Flesh Simulation", ACM TOG
/// 37(2)): the paper's final energy with the log(I_C + 1) rest-stability term, the alpha that
/// makes the rest state stress-free and its Lame reparametrization (written from memory of the
/// paper and re-derived here; the linearization below is the check):
///   psi = m/2 (I_C - 3) + l/2 (J - alpha)^2 - m/2 log(I_C + 1) - psi_rest,
///   m = 4/3 mu,  l = lambda + 5/6 mu,  alpha = 1 + 3 m / (4 l)  (= 1 + mu / l),
///   P = m (1 - 1/(I_C + 1)) F + l (J - alpha) cof F,   cof F = J F^-T.
/// With this reparametrization the small-strain limit is the linear material with the given
/// Lame mu, lambda (checked by linearizing: Q = 3m/2 |eps|^2 + (l - 5m/8) tr(eps)^2).
/// alpha makes the rest state stress-free; psi_rest = l/2 (1 - alpha)^2 - m/2 log 4 is
/// subtracted so that psi(I) = 0 (a constant; the paper keeps it).
/// Inversion: allowed. psi is a polynomial in J, finite and smooth for any F, and pushes
/// inverted elements back (J - alpha < 0 there).
class StableNeoHookean final : public PrincipalStretchMaterial {
 public:
  std::string_view name() const override { return "stable_neohookean"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override;
  Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const override;
  bool allows_inversion() const override { return true; }

 protected:
  StretchDerivatives stretch_derivatives(const Vec3& sigma,
                                         const MaterialParameters& p) const override;
};

}  // namespace simrun
