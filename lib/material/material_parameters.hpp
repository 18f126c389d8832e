#pragma once
/// What an element's material carries: Lame parameters for the isotropic models, optionally a
/// full 6x6 elasticity tensor (homogenized coarse elements, Kharevych thesis Ch. 4) and a
/// damping parameter (step-size independent viscous damping, thesis Sec. 2.3), per element.
#include <Eigen/Core>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "material/lame.hpp"

namespace simrun {

/// 6x6 elasticity tensor in Voigt notation with engineering shear strains: stress
/// [s11 s22 s33 s23 s13 s12] = C [e11 e22 e33 2e23 2e13 2e12], symmetric positive definite.
using VoigtTensor = Eigen::Matrix<double, 6, 6>;

/// One element's parameters as a material model reads them (a view into ElementMaterials).
struct MaterialParameters {
  MaterialParameters() = default;
  MaterialParameters(const LameParameters& lame) : mu(lame.mu), lambda(lame.lambda) {}  // NOLINT
  MaterialParameters(double mu_, double lambda_, const VoigtTensor* stiffness_ = nullptr,
                     double damping_ = 0.0)
      : mu(mu_), lambda(lambda_), stiffness(stiffness_), damping(damping_) {}

  double mu = 0.0;                         ///< shear modulus [Pa]
  double lambda = 0.0;                     ///< first Lame parameter [Pa]
  const VoigtTensor* stiffness = nullptr;  ///< anisotropic models only, else null
  double damping = 0.0;                    ///< viscous damping parameter k_D [s]
};

/// Per-element material parameters of one elastic body (structure of arrays: the isotropic
/// models' assembly loops read 16 bytes per element, not a 6x6 tensor).
struct ElementMaterials {
  std::vector<LameParameters> lame;    ///< one per element
  std::vector<VoigtTensor> stiffness;  ///< one per element, or empty (isotropic models)
  VecX damping;                        ///< one per element, or empty (no viscous damping)

  ElementMaterials() = default;
  ElementMaterials(std::vector<LameParameters> lame_)  // NOLINT: a Lame table is a material table
      : lame(std::move(lame_)) {}

  int size() const { return static_cast<int>(lame.size()); }
  MaterialParameters operator[](int e) const {
    return {lame[e].mu, lame[e].lambda, stiffness.empty() ? nullptr : &stiffness[e],
            damping.size() == 0 ? 0.0 : damping[e]};
  }
  /// Throws std::invalid_argument when the optional tables do not have one entry per element.
  void check() const {
    if (!stiffness.empty() && stiffness.size() != lame.size())
      throw std::invalid_argument("ElementMaterials: " + std::to_string(stiffness.size()) +
                                  " stiffness tensors for " + std::to_string(lame.size()) +
                                  " elements");
    if (damping.size() != 0 && damping.size() != static_cast<Eigen::Index>(lame.size()))
      throw std::invalid_argument("ElementMaterials: damping table of the wrong size");
  }
};

}  // namespace simrun
