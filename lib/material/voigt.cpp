#include "material/voigt.hpp"

#include <Eigen/Eigenvalues>
#include <stdexcept>
#include <string>

#include "core/error.hpp"

namespace simrun {

namespace {
// Voigt slot -> tensor index pair, in the order [11 22 33 23 13 12].
constexpr int kVoigtI[6] = {0, 1, 2, 1, 0, 0};
constexpr int kVoigtJ[6] = {0, 1, 2, 2, 2, 1};
}  // namespace

VoigtTensor isotropic_voigt(double mu, double lambda) {
  VoigtTensor C = VoigtTensor::Zero();
  C.topLeftCorner<3, 3>().setConstant(lambda);
  for (int a = 0; a < 3; ++a) {
    C(a, a) += 2.0 * mu;
    C(3 + a, 3 + a) = mu;
  }
  return C;
}

Vec6 engineering_strain(const Mat3& eps) {
  Vec6 e;
  for (int a = 0; a < 6; ++a) {
    const int i = kVoigtI[a], j = kVoigtJ[a];
    e[a] = i == j ? eps(i, i) : eps(i, j) + eps(j, i);
  }
  return e;
}

Mat3 stress_from_voigt(const Vec6& stress) {
  Mat3 sigma;
  for (int a = 0; a < 6; ++a) {
    sigma(kVoigtI[a], kVoigtJ[a]) = stress[a];
    sigma(kVoigtJ[a], kVoigtI[a]) = stress[a];
  }
  return sigma;
}

VoigtStrainOperator engineering_strain_operator() {
  VoigtStrainOperator B = VoigtStrainOperator::Zero();
  for (int a = 0; a < 6; ++a) {
    const int i = kVoigtI[a], j = kVoigtJ[a];
    B(a, i + 3 * j) = 1.0;
    B(a, j + 3 * i) = 1.0;  // the same entry again when i == j
  }
  return B;
}

void check_voigt_tensor(const VoigtTensor& C, std::string_view where) {
  const std::string prefix = std::string(where) + ": stiffness tensor ";
  require(C.allFinite(), prefix + "has a non-finite entry");
  const double size = C.cwiseAbs().maxCoeff();
  const double asymmetry = (C - C.transpose()).cwiseAbs().maxCoeff();
  require(asymmetry <= 1e-10 * size,
          prefix + "is not symmetric (max |C_ij - C_ji| = " + short_number(asymmetry) +
              " with max |C_ij| = " + short_number(size) + ")");
  const Vec6 values = Eigen::SelfAdjointEigenSolver<VoigtTensor>(C).eigenvalues();
  require(values[0] > 1e-12 * values[5], prefix + "is not positive definite (smallest eigenvalue " +
                                             short_number(values[0]) + ", largest " +
                                             short_number(values[5]) + ")");
}

double voigt_row_sum_norm(const VoigtTensor& C) { return C.cwiseAbs().rowwise().sum().maxCoeff(); }

const VoigtTensor& required_stiffness(const MaterialParameters& p, std::string_view model) {
  if (p.stiffness == nullptr)
    throw std::invalid_argument("material '" + std::string(model) +
                                "' needs a stiffness tensor per element; none was given");
  return *p.stiffness;
}

}  // namespace simrun
