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
    if (end != token.c_str() + token.size() || errno == ERANGE || !std::isfinite(value))
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
