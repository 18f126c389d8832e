#include "material/linear_elastic.hpp"

namespace simrun {

namespace {
Mat3 small_strain(const Mat3& F) { return 0.5 * (F + F.transpose()) - Mat3::Identity(); }
}  // namespace

double LinearElastic::energy_density(const Mat3& F, const MaterialParameters& p) const {
  const Mat3 eps = small_strain(F);
  const double tr = eps.trace();
  return p.mu * eps.squaredNorm() + 0.5 * p.lambda * tr * tr;
}

Mat3 LinearElastic::first_piola(const Mat3& F, const MaterialParameters& p) const {
  const Mat3 eps = small_strain(F);
  return 2.0 * p.mu * eps + p.lambda * eps.trace() * Mat3::Identity();
}

Mat9 LinearElastic::first_piola_derivative(const Mat3& /*F*/, const MaterialParameters& p) const {
  Mat9 D = Mat9::Zero();
  // Column (k,l) of dP/dF is dP for dF = e_k e_l^T: mu (e_k e_l^T + e_l e_k^T) + lambda d_kl I.
  for (int l = 0; l < 3; ++l) {
    for (int k = 0; k < 3; ++k) {
      const int col = k + 3 * l;
      D(k + 3 * l, col) += p.mu;
      D(l + 3 * k, col) += p.mu;
      if (k == l) {
        for (int i = 0; i < 3; ++i) D(i + 3 * i, col) += p.lambda;
      }
    }
  }
  return D;
}

}  // namespace simrun
