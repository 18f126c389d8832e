#pragma once
/// The one exception type for problems a user can act on (bad scene, bad mesh, bad option).
/// The message names the file, JSON pointer or element, what was expected and what was found.
/// Solvers and integrators do not throw on numerical trouble: they return a status.
#include <cstdio>
#include <stdexcept>
#include <string>

namespace simrun {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// `value` with `digits` significant digits (printf %g), for numbers in messages and notes.
inline std::string short_number(double value, int digits = 4) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

/// Throws InputError(message) when `ok` is false.
inline void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

}  // namespace simrun
