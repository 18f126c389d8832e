#pragma once
/// Text form of doubles for CSV, OBJ and PVD: the shortest decimal that parses back to exactly
/// the same double (std::to_chars round-trip guarantee), "nan"/"inf"/"-inf" for non-finite values.
#include <string>

namespace simrun {

/// Appends the shortest round-trip decimal form of `value` to `out`.
void append_double(std::string& out, double value);

/// The shortest round-trip decimal form of `value` (0.1 -> "0.1", 3.0 -> "3", 1e-300 -> "1e-300").
std::string format_double(double value);

/// A simulation time for people: 15 significant digits, so t = n dt reads as the decimal the
/// user wrote (35 x 0.01 -> "0.35", not "0.35000000000000003"). For the "t" columns and frame
/// times; within 1e-15 relative of the exact double.
std::string format_time(double t);

}  // namespace simrun
