#include "material/material.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>

namespace simrun {

Mat9 Material::first_piola_derivative_psd(const Mat3& F, const MaterialParameters& p) const {
  return project_psd(first_piola_derivative(F, p), kPsdEpsilon);
}

bool Material::first_piola_derivative_pair(const Mat3& F, const MaterialParameters& p, Mat9& D,
                                           Mat9& D_psd) const {
  D = first_piola_derivative(F, p);
  D_psd = first_piola_derivative_psd(F, p);
  return D_psd != D;
}

double Material::energy_density_magnitude(const Mat3& F, const MaterialParameters& p) const {
  return std::abs(energy_density(F, p)) + (std::abs(p.mu) + std::abs(p.lambda)) * F.squaredNorm();
}

Mat9 project_psd(const Mat9& A, double epsilon) {
  Eigen::SelfAdjointEigenSolver<Mat9> eig(0.5 * (A + A.transpose()));
  Vec9 values = eig.eigenvalues();
  if (values.minCoeff() >= 0.0) return A;
  for (int i = 0; i < 9; ++i) {
    if (values[i] < 0.0) values[i] = epsilon;
  }
  return eig.eigenvectors() * values.asDiagonal() * eig.eigenvectors().transpose();
}

}  // namespace simrun
