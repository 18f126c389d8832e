#pragma once
/// Generalized-alpha (Chung & Hulbert 1993; Ascher et al. survey, Sec. 3.4) parametrized by the
/// spectral radius at infinite step rho_inf in [0, 1] (settings.rho_inf, default 0.5):
///   alpha_m = (2 rho - 1)/(rho + 1),  alpha_f = rho/(rho + 1),
///   gamma = 1/2 - alpha_m + alpha_f,  beta = (1 - alpha_m + alpha_f)^2 / 4,
/// in the convention M[(1-a_m) a_1 + a_m a_0] = f((1-a_f) q_1 + a_f q_0, ...). Second order,
/// unconditionally stable, numerical dissipation of high frequencies controlled by rho_inf
/// (rho_inf = 1 is the trapezoidal / average-acceleration rule). Same solver as Newmark.
#include "integrate/newmark.hpp"

namespace simrun {

class GeneralizedAlpha final : public Newmark {
 public:
  explicit GeneralizedAlpha(const IntegratorSettings& settings);
};

}  // namespace simrun
