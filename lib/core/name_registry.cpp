#include "core/name_registry.hpp"

#include "core/string_distance.hpp"

namespace simrun {

std::string unknown_name_message(std::string_view what, std::string_view name,
                                 const std::vector<std::string>& known) {
  std::string message =
      "unknown " + std::string(what) + " '" + std::string(name) + "' (available: ";
  for (std::size_t k = 0; k < known.size(); ++k) message += (k ? ", " : "") + known[k];
  message += ")";
  if (auto near = nearest_name(name, known); !near.empty()) {
    message += "; did you mean '" + near + "'?";
  }
  return message;
}

}  // namespace simrun
