#include "material/principal_stretch.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>
#include <limits>

#include "material/material.hpp"

namespace simrun {

SignedSvd signed_svd(const Mat3& F) {
  Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  SignedSvd s{svd.matrixU(), svd.singularValues(), svd.matrixV()};
  // Move reflections into the smallest singular value (Irving et al. 2004, Sec. 5).
  if (s.U.determinant() < 0.0) {
    s.U.col(2) *= -1.0;
    s.sigma[2] *= -1.0;
  }
  if (s.V.determinant() < 0.0) {
    s.V.col(2) *= -1.0;
    s.sigma[2] *= -1.0;
  }
  return s;
}

Mat3 stretch_first_piola(const SignedSvd& svd, const Vec3& gradient) {
  return svd.U * gradient.asDiagonal() * svd.V.transpose();
}

double guarded_sum(double a, double b) {
  constexpr double kMinimum = 1e-8;  // relative to stretches of order 1
  const double s = a + b;
  if (std::abs(s) >= kMinimum) return s;
  return s < 0.0 ? -kMinimum : kMinimum;
}

namespace {
/// vec(a b^T) in column-major order.
Vec9 vec_outer(const Vec3& a, const Vec3& b) {
  Vec9 v;
  for (int c = 0; c < 3; ++c) v.segment<3>(3 * c) = a * b[c];
  return v;
}

double clamp_eigenvalue(double value, bool project) {
  return (project && value < 0.0) ? kPsdEpsilon : value;
}
}  // namespace

Mat9 stretch_tangent(const SignedSvd& svd, const StretchDerivatives& d, bool project) {
  // Columns: 3 scaling directions, then twist and flip of each pair; orthonormal.
  Mat9 N;
  for (int a = 0; a < 3; ++a) N.col(a) = vec_outer(svd.U.col(a), svd.V.col(a));
  const double r = std::sqrt(0.5);
  for (int n = 0; n < 3; ++n) {
    const Vec9 ij = vec_outer(svd.U.col(kPairI[n]), svd.V.col(kPairJ[n]));
    const Vec9 ji = vec_outer(svd.U.col(kPairJ[n]), svd.V.col(kPairI[n]));
    N.col(3 + n) = r * (ij - ji);
    N.col(6 + n) = r * (ij + ji);
  }
  Mat3 scaling = d.hessian;
  if (project) {
    Eigen::SelfAdjointEigenSolver<Mat3> eig(scaling);
    Vec3 values = eig.eigenvalues();
    if (values.minCoeff() < 0.0) {
      for (int a = 0; a < 3; ++a) values[a] = clamp_eigenvalue(values[a], true);
      scaling = eig.eigenvectors() * values.asDiagonal() * eig.eigenvectors().transpose();
    }
  }
  Mat9 NL;
  NL.leftCols<3>().noalias() = N.leftCols<3>() * scaling;
  for (int n = 0; n < 3; ++n) {
    NL.col(3 + n) = clamp_eigenvalue(d.twist[n], project) * N.col(3 + n);
    NL.col(6 + n) = clamp_eigenvalue(d.flip[n], project) * N.col(6 + n);
  }
  Mat9 D;
  D.noalias() = NL * N.transpose();
  return D;
}

bool stretch_tangent_is_indefinite(const StretchDerivatives& d) {
  if (d.twist.minCoeff() < 0.0 || d.flip.minCoeff() < 0.0) return true;
  return Eigen::SelfAdjointEigenSolver<Mat3>(d.hessian, Eigen::EigenvaluesOnly)
             .eigenvalues()
             .minCoeff() < 0.0;
}

Mat9 PrincipalStretchMaterial::first_piola_derivative(const Mat3& F,
                                                      const MaterialParameters& p) const {
  if (!tangent_defined(F)) return Mat9::Constant(std::numeric_limits<double>::quiet_NaN());
  const SignedSvd svd = signed_svd(F);
  return stretch_tangent(svd, stretch_derivatives(svd.sigma, p), false);
}

Mat9 PrincipalStretchMaterial::first_piola_derivative_psd(const Mat3& F,
                                                          const MaterialParameters& p) const {
  if (!tangent_defined(F)) return Mat9::Constant(std::numeric_limits<double>::quiet_NaN());
  const SignedSvd svd = signed_svd(F);
  return stretch_tangent(svd, stretch_derivatives(svd.sigma, p), true);
}

bool PrincipalStretchMaterial::first_piola_derivative_pair(const Mat3& F,
                                                           const MaterialParameters& p, Mat9& D,
                                                           Mat9& D_psd) const {
  if (!tangent_defined(F)) {
    D = D_psd = Mat9::Constant(std::numeric_limits<double>::quiet_NaN());
    return false;
  }
  const SignedSvd svd = signed_svd(F);
  const StretchDerivatives d = stretch_derivatives(svd.sigma, p);
  D = stretch_tangent(svd, d, false);
  // Nothing negative: stretch_tangent(svd, d, true) would be D bit for bit.
  if (!stretch_tangent_is_indefinite(d)) {
    D_psd = D;
    return false;
  }
  D_psd = stretch_tangent(svd, d, true);
  return true;
}

}  // namespace simrun
