#pragma once
/// The IPC log barrier on squared distances (Li et al. 2020; Ascher et al. survey, Sec. 5.1,
/// Eq. 28), s = d^2 and s_hat = d_hat^2:
///   b(s) = -(s - s_hat)^2 ln(s / s_hat)   for 0 < s < s_hat,   0 for s >= s_hat,   +inf for s <= 0
///   b'(s) = (s_hat - s) (2 ln(s / s_hat) - s_hat / s + 1)
///   b''(s) = (s_hat / s + 2) s_hat / s - 2 ln(s / s_hat) - 3
/// C2 at s_hat (b = b' = b'' = 0 there), convex and decreasing on (0, s_hat).
#include <cmath>
#include <limits>

namespace simrun {

inline double barrier(double s, double s_hat) {
  if (s >= s_hat) return 0.0;
  if (!(s > 0.0)) return std::numeric_limits<double>::infinity();
  const double r = s - s_hat;
  return -r * r * std::log(s / s_hat);
}

inline double barrier_first_derivative(double s, double s_hat) {
  if (s >= s_hat) return 0.0;
  return (s_hat - s) * (2.0 * std::log(s / s_hat) - s_hat / s + 1.0);
}

inline double barrier_second_derivative(double s, double s_hat) {
  if (s >= s_hat) return 0.0;
  const double q = s_hat / s;
  return (q + 2.0) * q - 2.0 * std::log(s / s_hat) - 3.0;
}

}  // namespace simrun
