#include "material/neohookean_isochoric.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "material/principal_stretch.hpp"

namespace simrun {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// C1 = mu/2, D1 = lambda/2: see the header (GAUSS convention, half the shear modulus).
double c1(const MaterialParameters& p) { return 0.5 * p.mu; }
double d1(const MaterialParameters& p) { return 0.5 * p.lambda; }

// psihat = C1 (g I_C - 3) + D1 (J - 1)^2, g = J^(-2/3), I_C = sum s^2, p_a = J / s_a:
//   psi_a = C1 g (2 s_a - 2/3 I_C / s_a) + 2 D1 (J - 1) p_a,
//   d2psi/ds_a ds_b = C1 g [2 d_ab - 4/3 (s_a/s_b + s_b/s_a) + 4/9 I_C/(s_a s_b)
//                           + 2/3 I_C d_ab / s_a^2] + 2 D1 [p_a p_b + (a != b) (J - 1) s_c],
//   twist = C1 g (2 - 2/3 I_C / (s_i s_j)) + 2 D1 (J - 1) s_k,
//   flip  = C1 g (2 + 2/3 I_C / (s_i s_j)) - 2 D1 (J - 1) s_k.
// Derived here from the definition of the quotients (principal_stretch.hpp); FD-tested.
StretchDerivatives derivatives(const Vec3& s, const MaterialParameters& p) {
  const double C = c1(p), D = d1(p);
  const double J = s.prod();
  const double g = 1.0 / std::cbrt(J * J);
  const double ic = s.squaredNorm();
  const Vec3 others(s[1] * s[2], s[0] * s[2], s[0] * s[1]);
  StretchDerivatives d;
  for (int a = 0; a < 3; ++a) {
    d.gradient[a] = C * g * (2.0 * s[a] - 2.0 / 3.0 * ic / s[a]) + 2.0 * D * (J - 1.0) * others[a];
    for (int b = 0; b < 3; ++b) {
      d.hessian(a, b) =
          C * g * (-4.0 / 3.0 * (s[a] / s[b] + s[b] / s[a]) + 4.0 / 9.0 * ic / (s[a] * s[b])) +
          2.0 * D * others[a] * others[b];
    }
    d.hessian(a, a) += C * g * (2.0 + 2.0 / 3.0 * ic / (s[a] * s[a]));
  }
  for (int n = 0; n < 3; ++n) {
    const int i = kPairI[n], j = kPairJ[n];
    const double volume = 2.0 * D * (J - 1.0) * s[kPairK[n]];
    d.hessian(i, j) += volume;
    d.hessian(j, i) += volume;
    const double shear = 2.0 / 3.0 * ic / (s[i] * s[j]);
    d.twist[n] = C * g * (2.0 - shear) + volume;
    d.flip[n] = C * g * (2.0 + shear) - volume;
  }
  return d;
}
}  // namespace

double NeoHookeanIsochoric::energy_density(const Mat3& F, const MaterialParameters& p) const {
  const double J = F.determinant();
  if (!(J > 0.0)) return std::numeric_limits<double>::infinity();
  return c1(p) * (F.squaredNorm() / std::cbrt(J * J) - 3.0) + d1(p) * (J - 1.0) * (J - 1.0);
}

Mat3 NeoHookeanIsochoric::first_piola(const Mat3& F, const MaterialParameters& p) const {
  const double J = F.determinant();
  if (!(J > 0.0)) return Mat3::Constant(kNaN);
  const Mat3 F_inv_t = F.inverse().transpose();
  const double g = 1.0 / std::cbrt(J * J);
  return c1(p) * g * (2.0 * F - 2.0 / 3.0 * F.squaredNorm() * F_inv_t) +
         2.0 * d1(p) * J * (J - 1.0) * F_inv_t;
}

StretchDerivatives NeoHookeanIsochoric::stretch_derivatives(const Vec3& sigma,
                                                            const MaterialParameters& p) const {
  return derivatives(sigma, p);
}

}  // namespace simrun
