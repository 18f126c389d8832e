#pragma once
/// Lame parameters from engineering constants.

namespace simrun {

struct LameParameters {
  double mu = 0.0;      ///< shear modulus [Pa]
  double lambda = 0.0;  ///< first Lame parameter [Pa]
};

/// mu = E / (2 (1 + nu)), lambda = E nu / ((1 + nu)(1 - 2 nu)).
inline LameParameters lame_from_young_poisson(double E, double nu) {
  return {E / (2.0 * (1.0 + nu)), E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))};
}

}  // namespace simrun
