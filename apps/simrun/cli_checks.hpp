#pragma once
/// Option checks shared by the subcommands, with messages a person can read.
#include <CLI/CLI.hpp>
#include <string>

namespace simrun::app {

/// A whole number of at least `minimum` (CLI11's PositiveNumber names the largest double, 309
/// digits, in its message).
inline CLI::Validator at_least(long minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        long value = 0;
        const bool whole = CLI::detail::lexical_cast(text, value);
        if (whole && value >= minimum) return {};
        return "expected a whole number >= " + std::to_string(minimum) + ", found '" + text + "'";
      },
      "INT>=" + std::to_string(minimum));
}

}  // namespace simrun::app
