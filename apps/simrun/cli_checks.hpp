#pragma once
/// Option checks shared by the subcommands, with messages a person can read.
#include <CLI/CLI.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace simrun::app {

/// A whole number of at least `minimum` (CLI11's PositiveNumber names the largest double, 309
/// digits, in its message).
inline CLI::Validator at_least(long minimum, long maximum = std::numeric_limits<int>::max()) {
  return CLI::Validator(
      [minimum, maximum](std::string& text) -> std::string {
        long value = 0;
        const bool whole = CLI::detail::lexical_cast(text, value);
        if (whole && value >= minimum && value <= maximum) return {};
        // A number too large for the option's type would reach CLI11's bare "Could not convert".
        if (whole && value > maximum)
          return "expected a whole number from " + std::to_string(minimum) + " to " +
                 std::to_string(maximum) + ", found '" + text + "'";
        return "expected a whole number >= " + std::to_string(minimum) + ", found '" + text + "'";
      },
      "INT>=" + std::to_string(minimum));
}

/// A path that is not empty (`-o ""` would silently mean the scene's default folder).
inline CLI::Validator not_empty_path() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "expected a folder, found an empty path" : std::string();
      },
      "PATH");
}

/// A wall time: "300" or "300s" seconds, "5m" minutes, "1h" hours -> seconds. Throws
/// std::invalid_argument unless it is a finite number > 0 with one of these forms.
inline double parse_wall_time(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = used > 0 ? text.substr(used) : "?";
  const double scale = unit.empty() || unit == "s" ? 1.0
                       : unit == "m"               ? 60.0
                       : unit == "h"               ? 3600.0
                                                   : 0.0;
  if (scale == 0.0 || !(value > 0) || !std::isfinite(value * scale))
    throw std::invalid_argument("not a wall time: '" + text + "'");
  return value * scale;
}

/// Checks a wall-time option (parse_wall_time).
inline CLI::Validator wall_time() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          parse_wall_time(text);
          return {};
        } catch (const std::exception&) {
          return "expected a wall time > 0 such as 300, 30s, 5m, 1h; found '" + text + "'";
        }
      },
      "T|Ts|Tm|Th");
}

}  // namespace simrun::app
