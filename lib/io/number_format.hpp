#pragma once
/// Text form of doubles for CSV, OBJ and PVD: the shortest decimal that parses back to exactly
/// the same double (std::to_chars round-trip guarantee), "nan"/"inf"/"-inf" for non-finite values.
#include <string>

namespace simrun {

/// Appends the shortest round-trip decimal form of `value` to `out`.
void append_double(std::string& out, double value);

/// The shortest round-trip decimal form of `value` (0.1 -> "0.1", 3.0 -> "3", 1e-300 -> "1e-300").
std::string format_double(double value);

}  // namespace simrun
