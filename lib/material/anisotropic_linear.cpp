#include "material/anisotropic_linear.hpp"

#include <cmath>

#include "material/voigt.hpp"

namespace simrun {

namespace {
/// e = engineering_strain((F + F^T)/2 - I); engineering_strain symmetrizes by itself.
Vec6 small_strain(const Mat3& F) { return engineering_strain(F - Mat3::Identity()); }
}  // namespace

double AnisotropicLinear::energy_density(const Mat3& F, const MaterialParameters& p) const {
  const Vec6 e = small_strain(F);
  return 0.5 * e.dot(required_stiffness(p, name()) * e);
}

// dpsi = (C e) . de = sigma : sym(dF) = sigma : dF for the symmetric sigma, so P = sigma.
Mat3 AnisotropicLinear::first_piola(const Mat3& F, const MaterialParameters& p) const {
  return stress_from_voigt(required_stiffness(p, name()) * small_strain(F));
}

Mat9 AnisotropicLinear::first_piola_derivative(const Mat3& /*F*/,
                                               const MaterialParameters& p) const {
  static const VoigtStrainOperator B = engineering_strain_operator();
  const VoigtTensor& C = required_stiffness(p, name());
  // Small fixed sizes: coefficient-wise products (lazyProduct) instead of Eigen's blocked GEMM.
  const Eigen::Matrix<double, 6, 9> CB = C.lazyProduct(B);
  return B.transpose().lazyProduct(CB);
}

double AnisotropicLinear::energy_density_magnitude(const Mat3& F,
                                                   const MaterialParameters& p) const {
  return std::abs(energy_density(F, p)) +
         voigt_row_sum_norm(required_stiffness(p, name())) * F.squaredNorm();
}

}  // namespace simrun
