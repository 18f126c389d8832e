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

/// "1 spring", "2 springs"; with the plural given, "1 vertex", "2 vertices" (for messages).
inline std::string plural(std::size_t count, const std::string& singular,
                          const std::string& plural_form = "") {
  return std::to_string(count) + " " +
         (count == 1            ? singular
          : plural_form.empty() ? singular + "s"
                                : plural_form);
}

/// Throws InputError(message) when `ok` is false.
inline void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

}  // namespace simrun
