#include "material/stvk.hpp"

#include "material/principal_stretch.hpp"

namespace simrun {

namespace {
Mat3 green_strain(const Mat3& F) { return 0.5 * (F.transpose() * F - Mat3::Identity()); }

// psihat = mu sum E_a^2 + lambda/2 (sum E_a)^2 with E_a = (s_a^2 - 1)/2:
//   psi_a = s_a (2 mu E_a + lambda trE),
//   d2psi/ds_a ds_b = d_ab (2 mu E_a + lambda trE + 2 mu s_a^2) + lambda s_a s_b,
//   twist = lambda trE + mu (s_i^2 - s_i s_j + s_j^2 - 1),
//   flip  = lambda trE + mu (s_i^2 + s_i s_j + s_j^2 - 1)
// ((s_i^3 -/+ s_j^3 - s_i -/+ s_j) / (s_i +/- s_j) written out, so no 0/0 at s_i = s_j).
StretchDerivatives derivatives(const Vec3& s, const MaterialParameters& p) {
  const Vec3 E = 0.5 * (s.cwiseProduct(s) - Vec3::Ones());
  const double tr = E.sum();
  StretchDerivatives d;
  d.hessian = p.lambda * s * s.transpose();
  for (int a = 0; a < 3; ++a) {
    const double stress = 2.0 * p.mu * E[a] + p.lambda * tr;
    d.gradient[a] = s[a] * stress;
    d.hessian(a, a) += stress + 2.0 * p.mu * s[a] * s[a];
  }
  for (int n = 0; n < 3; ++n) {
    const double si = s[kPairI[n]], sj = s[kPairJ[n]];
    const double common = p.lambda * tr + p.mu * (si * si + sj * sj - 1.0);
    d.twist[n] = common - p.mu * si * sj;
    d.flip[n] = common + p.mu * si * sj;
  }
  return d;
}
}  // namespace

double StVenantKirchhoff::energy_density(const Mat3& F, const MaterialParameters& p) const {
  const Mat3 E = green_strain(F);
  const double tr = E.trace();
  return p.mu * E.squaredNorm() + 0.5 * p.lambda * tr * tr;
}

Mat3 StVenantKirchhoff::first_piola(const Mat3& F, const MaterialParameters& p) const {
  const Mat3 E = green_strain(F);
  return F * (2.0 * p.mu * E + p.lambda * E.trace() * Mat3::Identity());
}

StretchDerivatives StVenantKirchhoff::stretch_derivatives(const Vec3& sigma,
                                                          const MaterialParameters& p) const {
  return derivatives(sigma, p);
}

}  // namespace simrun
