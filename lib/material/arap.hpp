#pragma once
#include "material/principal_stretch.hpp"

namespace simrun {

/// As-rigid-as-possible energy (Chao et al. 2010, Chen thesis Sec. 3.4.2; the principal-stretch
/// form of the authors' GAUSS code):  psi = k sum (s_a - 1)^2 = k |F - R|^2,  P = 2 k (F - R),
/// with the stiffness k = MaterialParameters.mu (the Lame shear modulus: the small-strain shear
/// modulus is then mu, as for the linear material). lambda is ignored: ARAP has no separate
/// volume term (its small-strain bulk modulus is 2/3 mu). A scene's "stiffness parameter 1e6 Pa"
/// (Chen, Ch. 6) is this k.
/// s_a are the signed singular values and R = U V^T the rotation of the signed SVD.
/// Inversion: allowed, as for corotated (same R; tangent singular where s_i + s_j = 0).
class Arap final : public PrincipalStretchMaterial {
 public:
  std::string_view name() const override { return "arap"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override;
  Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const override;
  bool allows_inversion() const override { return true; }

 protected:
  StretchDerivatives stretch_derivatives(const Vec3& sigma,
                                         const MaterialParameters& p) const override;
};

}  // namespace simrun
