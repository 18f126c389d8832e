#pragma once
/// Voigt notation for anisotropic elasticity tensors (MaterialParameters::stiffness): order
/// [11 22 33 23 13 12], engineering shear strains, so stress = C e and psi = 1/2 e^T C e with
/// e = [e11 e22 e33 2e23 2e13 2e12] (Kharevych thesis Secs. 2.1.2, 2.2.2 and 4.4.1,
/// reordered to this project's convention in material_parameters.hpp).
#include <Eigen/Core>
#include <string_view>

#include "core/types.hpp"
#include "material/material_parameters.hpp"

namespace simrun {

using Vec6 = Eigen::Matrix<double, 6, 1>;
/// Linear map from column-major vec(A) of a 3x3 matrix to engineering_strain(A).
using VoigtStrainOperator = Eigen::Matrix<double, 6, 9>;

/// The isotropic tensor: lambda + 2 mu on the normal diagonal, lambda off it, mu (not 2 mu) on
/// the shear diagonal, so 1/2 e^T C e = mu eps:eps + lambda/2 tr(eps)^2.
VoigtTensor isotropic_voigt(double mu, double lambda);

/// [e11 e22 e33 e23+e32 e13+e31 e12+e21]: the engineering strain of the symmetric part of
/// `eps` (for a symmetric eps the shear entries are 2 eps_ij).
Vec6 engineering_strain(const Mat3& eps);

/// The symmetric stress tensor whose Voigt vector is [s11 s22 s33 s23 s13 s12].
Mat3 stress_from_voigt(const Vec6& stress);

/// The 6x9 B with B vec(A) = engineering_strain(A). Its transpose maps a Voigt stress s to
/// vec(stress_from_voigt(s)), so a quadratic 1/2 e^T C e with e = B vec(F - I) has the
/// constant 9x9 Hessian B^T C B.
VoigtStrainOperator engineering_strain_operator();

/// Throws InputError naming `where` when C has a non-finite entry, is not symmetric
/// (max |C - C^T| > 1e-10 max |C|) or not positive definite (smallest eigenvalue <= 1e-12 times
/// the largest); the message gives the asymmetry or the eigenvalues found.
void check_voigt_tensor(const VoigtTensor& C, std::string_view where);

/// Max absolute row sum of C: bounds |C e|_inf / |e|_inf, the scale energy_density_magnitude of
/// the anisotropic models multiplies |F|^2 by.
double voigt_row_sum_norm(const VoigtTensor& C);

/// *p.stiffness; throws std::invalid_argument naming `model` when the element has no tensor (a
/// caller bug: ElasticEnergy refuses such models without tensors up front).
const VoigtTensor& required_stiffness(const MaterialParameters& p, std::string_view model);

}  // namespace simrun
