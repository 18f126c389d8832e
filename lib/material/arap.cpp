#include "material/arap.hpp"

#include "material/principal_stretch.hpp"

namespace simrun {

namespace {
// psihat = k sum (s_a - 1)^2, k = mu:  psi_a = 2 k (s_a - 1),  d2psi = 2 k I,
//   twist = 2 k - 4 k / (s_i + s_j),  flip = 2 k   (Smith et al. 2019, ARAP eigensystem).
StretchDerivatives derivatives(const Vec3& s, const MaterialParameters& p) {
  const double k = p.mu;
  StretchDerivatives d;
  d.gradient = 2.0 * k * (s - Vec3::Ones());
  d.hessian = 2.0 * k * Mat3::Identity();
  for (int n = 0; n < 3; ++n) {
    d.twist[n] = 2.0 * k - 4.0 * k / guarded_sum(s[kPairI[n]], s[kPairJ[n]]);
    d.flip[n] = 2.0 * k;
  }
  return d;
}
}  // namespace

double Arap::energy_density(const Mat3& F, const MaterialParameters& p) const {
  return p.mu * (signed_svd(F).sigma - Vec3::Ones()).squaredNorm();
}

Mat3 Arap::first_piola(const Mat3& F, const MaterialParameters& p) const {
  const SignedSvd svd = signed_svd(F);
  return 2.0 * p.mu * (F - svd.U * svd.V.transpose());
}

StretchDerivatives Arap::stretch_derivatives(const Vec3& sigma, const MaterialParameters& p) const {
  return derivatives(sigma, p);
}

}  // namespace simrun
