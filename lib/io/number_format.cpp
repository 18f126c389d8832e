#include "io/number_format.hpp"

#include <array>
#include <charconv>
#include <cstdio>

namespace simrun {

void append_double(std::string& out, double value) {
  // 32 characters hold any shortest double form ("-2.2250738585072014e-308" is 24).
  if (value == 0.0) value = 0.0;  // "-0" reads as a sign error in a table
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), result.ptr);
}

std::string format_double(double value) {
  std::string out;
  append_double(out, value);
  return out;
}

std::string format_time(double t) {
  if (t == 0.0) return "0";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.15g", t);
  return buffer;
}

}  // namespace simrun
