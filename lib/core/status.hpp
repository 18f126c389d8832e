#pragma once
/// Outcome of a solver or an integrator step (Spectra style: a value, not an exception).
#include <string_view>

namespace simrun {

enum class Status {
  kSuccess,         ///< converged / step taken
  kNotConverging,   ///< iteration cap reached or no descent
  kNumericalIssue,  ///< factorization failed, NaN, energy blow-up
};

inline std::string_view to_string(Status s) {
  switch (s) {
    case Status::kSuccess:
      return "success";
    case Status::kNotConverging:
      return "not_converging";
    case Status::kNumericalIssue:
      return "numerical_issue";
  }
  return "unknown";
}

}  // namespace simrun
