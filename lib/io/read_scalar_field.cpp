#include "io/read_scalar_field.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "mesh/text_reader.hpp"

namespace simrun {

VecX read_scalar_field(const std::filesystem::path& path, int expected_count) {
  // A value takes ~25 bytes as text; 128 a value plus 64 KiB of comments is far more than a real
  // field file needs, and keeps a wrong file (a mesh, a device, a sparse file) from being read.
  const std::uintmax_t max_bytes =
      (std::uintmax_t{64} << 10) + 128 * static_cast<std::uintmax_t>(std::max(0, expected_count));
  TextReader in(path, '#', "field file", max_bytes);
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(std::max(0, expected_count)));
  for (std::string token; in.next_token(token);) {
    if (static_cast<long>(values.size()) >= expected_count) {
      in.fail("expected " + std::to_string(expected_count) +
              " values (one per element), found more");
    }
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(token.c_str(), &end);
    // Decimal numbers only: strtod also reads hexadecimal ("0x10" is 16) and "inf"/"nan".
    // Underflow (1e-320) reads as the tiny number it is; overflow (1e400) is refused.
    const std::size_t digits = token.find_first_not_of("+-");
    const bool hexadecimal = digits != std::string::npos && token.size() > digits + 1 &&
                             token[digits] == '0' && (token[digits + 1] | 0x20) == 'x';
    if (end != token.c_str() + token.size() || hexadecimal || !std::isfinite(value) ||
        (errno == ERANGE && std::abs(value) > 1.0))
      in.fail("expected a number, found '" + token + "'");
    values.push_back(value);
  }
  if (static_cast<int>(values.size()) != expected_count) {
    throw InputError(path.string() + ": expected " + std::to_string(expected_count) +
                     " values (one per element), found " + std::to_string(values.size()));
  }
  return Eigen::Map<const VecX>(values.data(), static_cast<Eigen::Index>(values.size()));
}

}  // namespace simrun
