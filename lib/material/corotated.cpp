#include "material/corotated.hpp"

#include "material/principal_stretch.hpp"

namespace simrun {

namespace {
// psihat = mu sum (s_a - 1)^2 + lambda/2 (sum s_a - 3)^2:
//   psi_a = 2 mu (s_a - 1) + lambda (sum s - 3),   d2psi = 2 mu I + lambda 1 1^T,
//   twist = 2 mu + (2 lambda (sum s - 3) - 4 mu) / (s_i + s_j),   flip = 2 mu
// (Smith et al. 2019, ARAP eigensystem for the mu part; the lambda part is linear in sum s).
StretchDerivatives derivatives(const Vec3& s, const MaterialParameters& p) {
  const double volume = p.lambda * (s.sum() - 3.0);
  StretchDerivatives d;
  d.gradient = 2.0 * p.mu * (s - Vec3::Ones()) + Vec3::Constant(volume);
  d.hessian = Mat3::Constant(p.lambda);
  d.hessian.diagonal().array() += 2.0 * p.mu;
  for (int n = 0; n < 3; ++n) {
    d.twist[n] = 2.0 * p.mu + (2.0 * volume - 4.0 * p.mu) / guarded_sum(s[kPairI[n]], s[kPairJ[n]]);
    d.flip[n] = 2.0 * p.mu;
  }
  return d;
}
}  // namespace

double CorotatedLinear::energy_density(const Mat3& F, const MaterialParameters& p) const {
  const Vec3 s = signed_svd(F).sigma;
  const double tr = s.sum() - 3.0;
  return p.mu * (s - Vec3::Ones()).squaredNorm() + 0.5 * p.lambda * tr * tr;
}

Mat3 CorotatedLinear::first_piola(const Mat3& F, const MaterialParameters& p) const {
  const SignedSvd svd = signed_svd(F);
  return stretch_first_piola(svd, derivatives(svd.sigma, p).gradient);
}

StretchDerivatives CorotatedLinear::stretch_derivatives(const Vec3& sigma,
                                                        const MaterialParameters& p) const {
  return derivatives(sigma, p);
}

}  // namespace simrun
