#pragma once
#include "material/principal_stretch.hpp"

namespace simrun {

/// Corotated linear elasticity (Mueller & Gross 2004; McAdams et al. 2011; named, without a
/// formula, in Chen thesis Sec. 2.1.5):
///   psi = mu |F - R|^2 + lambda/2 tr(R^T F - I)^2 = mu sum (s_a - 1)^2 + lambda/2 (sum s_a - 3)^2,
///   P = 2 mu (F - R) + lambda tr(R^T F - I) R,
/// with s_a the signed singular values and R = U V^T the rotation of the signed SVD (the polar
/// rotation when det F > 0). Variant: the volume term is tr(R^T F - I)^2, not the (J - 1)^2 of
/// Stomakhin et al. 2012's "fixed corotated". Small-strain limit: the linear material with the
/// same mu, lambda.
/// Inversion: allowed. For det F < 0, R is the rotation that maps F to diag(s) with a negative
/// smallest s_3, so the energy pushes the element back through J = 0 (Irving et al. 2004).
/// The tangent is singular where s_i + s_j = 0 (R not differentiable; twist quotients are
/// bounded there by guarded_sum).
class CorotatedLinear final : public PrincipalStretchMaterial {
 public:
  std::string_view name() const override { return "corotated"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override;
  Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const override;
  bool allows_inversion() const override { return true; }

 protected:
  StretchDerivatives stretch_derivatives(const Vec3& sigma,
                                         const MaterialParameters& p) const override;
};

}  // namespace simrun
