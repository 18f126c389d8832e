#include "integrate/generalized_alpha.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace simrun {

namespace {

double checked_rho(double rho) {
  if (!(rho >= 0.0 && rho <= 1.0))
    throw InputError("generalized_alpha: rho_inf must be in [0, 1], got " + std::to_string(rho));
  return rho;
}

}  // namespace

GeneralizedAlpha::GeneralizedAlpha(const IntegratorSettings& s)
    : Newmark(
          s, "generalized_alpha", (2 * checked_rho(s.rho_inf) - 1) / (s.rho_inf + 1),
          s.rho_inf / (s.rho_inf + 1),
          0.25 *
              std::pow(1 - (2 * s.rho_inf - 1) / (s.rho_inf + 1) + s.rho_inf / (s.rho_inf + 1), 2),
          0.5 - (2 * s.rho_inf - 1) / (s.rho_inf + 1) + s.rho_inf / (s.rho_inf + 1)) {}

}  // namespace simrun
