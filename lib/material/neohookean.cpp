#include "material/neohookean.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "material/principal_stretch.hpp"

namespace simrun {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// psihat(sigma) = mu/2 (sum s_a^2 - 3) - mu log J + lambda/2 (log J)^2, J = s_0 s_1 s_2:
//   psi_a = mu s_a + (lambda log J - mu) / s_a,
//   d2psi/ds_a ds_b = delta_ab (mu + (mu - lambda log J) / s_a^2) + lambda / (s_a s_b),
//   twist = mu + (lambda log J - mu) / (s_i s_j),  flip = mu + (mu - lambda log J) / (s_i s_j)
// (Smith et al. 2019, neo-Hookean eigensystem, written for these Lame parameters; verified by the
// FD tests).
StretchDerivatives derivatives(const Vec3& s, const MaterialParameters& p) {
  const double log_j = std::log(s.prod());
  const double c = p.lambda * log_j - p.mu;
  StretchDerivatives d;
  for (int a = 0; a < 3; ++a) {
    d.gradient[a] = p.mu * s[a] + c / s[a];
    for (int b = 0; b < 3; ++b) d.hessian(a, b) = p.lambda / (s[a] * s[b]);
    d.hessian(a, a) += p.mu - c / (s[a] * s[a]);
  }
  for (int n = 0; n < 3; ++n) {
    const double inv = 1.0 / (s[kPairI[n]] * s[kPairJ[n]]);
    d.twist[n] = p.mu + c * inv;
    d.flip[n] = p.mu - c * inv;
  }
  return d;
}
}  // namespace

double NeoHookean::energy_density(const Mat3& F, const MaterialParameters& p) const {
  const double J = F.determinant();
  if (!(J > 0.0)) return std::numeric_limits<double>::infinity();
  const double log_j = std::log(J);
  return 0.5 * p.mu * (F.squaredNorm() - 3.0) - p.mu * log_j + 0.5 * p.lambda * log_j * log_j;
}

Mat3 NeoHookean::first_piola(const Mat3& F, const MaterialParameters& p) const {
  const double J = F.determinant();
  if (!(J > 0.0)) return Mat3::Constant(kNaN);
  const Mat3 F_inv_t = F.inverse().transpose();
  return p.mu * (F - F_inv_t) + p.lambda * std::log(J) * F_inv_t;
}

StretchDerivatives NeoHookean::stretch_derivatives(const Vec3& sigma,
                                                   const MaterialParameters& p) const {
  return derivatives(sigma, p);
}

}  // namespace simrun
