#include "material/stable_neohookean.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "material/principal_stretch.hpp"

namespace simrun {

namespace {
struct Coefficients {
  double m, l, alpha;
};

// Smith et al. 2018: alpha = 1 + 3m/(4l) from P(I) = 0; m, l match the linear material.
Coefficients coefficients(const MaterialParameters& p) {
  const double m = 4.0 / 3.0 * p.mu;
  const double l = p.lambda + 5.0 / 6.0 * p.mu;
  return {m, l, 1.0 + 0.75 * m / l};
}

Mat3 cofactor(const Mat3& F) {
  Mat3 C;
  C.col(0) = F.col(1).cross(F.col(2));
  C.col(1) = F.col(2).cross(F.col(0));
  C.col(2) = F.col(0).cross(F.col(1));
  return C;
}

// psihat = m/2 (sum s^2 - 3) + l/2 (J - alpha)^2 - m/2 log(I_C + 1), J = prod s, p_a = J / s_a:
//   psi_a = m s_a (1 - 1/(I_C + 1)) + l (J - alpha) p_a,
//   d2psi/ds_a ds_b = delta_ab m (1 - 1/(I_C+1)) + 2 m s_a s_b / (I_C+1)^2 + l p_a p_b
//                     + (a != b) l (J - alpha) s_c,
//   twist/flip (i,j; k the third) = m (1 - 1/(I_C+1)) +/- l (J - alpha) s_k
// (derived here from the quotient definitions in principal_stretch.hpp; FD-tested).
StretchDerivatives derivatives(const Vec3& s, const MaterialParameters& p) {
  const Coefficients c = coefficients(p);
  const double ic1 = s.squaredNorm() + 1.0;
  const double J = s.prod();
  const double shear = c.m * (1.0 - 1.0 / ic1);
  const double volume = c.l * (J - c.alpha);
  const Vec3 others(s[1] * s[2], s[0] * s[2], s[0] * s[1]);  // J / s_a without dividing
  StretchDerivatives d;
  d.gradient = shear * s + volume * others;
  d.hessian = (2.0 * c.m / (ic1 * ic1)) * s * s.transpose() + c.l * others * others.transpose();
  for (int a = 0; a < 3; ++a) d.hessian(a, a) += shear;
  for (int n = 0; n < 3; ++n) {
    const double off = volume * s[kPairK[n]];
    d.hessian(kPairI[n], kPairJ[n]) += off;
    d.hessian(kPairJ[n], kPairI[n]) += off;
    d.twist[n] = shear + off;
    d.flip[n] = shear - off;
  }
  return d;
}
}  // namespace

double StableNeoHookean::energy_density(const Mat3& F, const MaterialParameters& p) const {
  const Coefficients c = coefficients(p);
  const double ic = F.squaredNorm();
  const double dj = F.determinant() - c.alpha;
  const double rest = 0.5 * c.l * (1.0 - c.alpha) * (1.0 - c.alpha) - 0.5 * c.m * std::log(4.0);
  return 0.5 * c.m * (ic - 3.0) + 0.5 * c.l * dj * dj - 0.5 * c.m * std::log(ic + 1.0) - rest;
}

Mat3 StableNeoHookean::first_piola(const Mat3& F, const MaterialParameters& p) const {
  const Coefficients c = coefficients(p);
  const double ic = F.squaredNorm();
  return c.m * (1.0 - 1.0 / (ic + 1.0)) * F + c.l * (F.determinant() - c.alpha) * cofactor(F);
}

StretchDerivatives StableNeoHookean::stretch_derivatives(const Vec3& sigma,
                                                         const MaterialParameters& p) const {
  return derivatives(sigma, p);
}

}  // namespace simrun
