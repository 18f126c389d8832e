#include "io/read_scalar_field.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace simrun {

VecX read_scalar_field(const std::filesystem::path& path, int expected_count) {
  std::ifstream in(path);
  if (!in) throw InputError(path.string() + ": cannot open the field file");
  std::vector<double> values;
  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream tokens(line);
    std::string token;
    while (tokens >> token) {
      char* end = nullptr;
      errno = 0;
      const double value = std::strtod(token.c_str(), &end);
      if (end != token.c_str() + token.size() || errno == ERANGE) {
        throw InputError(path.string() + ":" + std::to_string(line_number) +
                         ": expected a number, found '" + token + "'");
      }
      values.push_back(value);
    }
  }
  if (static_cast<int>(values.size()) != expected_count) {
    throw InputError(path.string() + ": expected " + std::to_string(expected_count) +
                     " values (one per element), found " + std::to_string(values.size()));
  }
  return Eigen::Map<const VecX>(values.data(), static_cast<Eigen::Index>(values.size()));
}

}  // namespace simrun
