#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/string_distance.hpp"
#include "material/linear_elastic.hpp"
#include "material/material.hpp"

namespace simrun {

std::unique_ptr<Material> make_material(std::string_view name) {
  if (name == "linear") return std::make_unique<LinearElastic>();
  const std::vector<std::string> known = {"linear"};
  std::string message = "unknown or not yet implemented material model '" + std::string(name) +
                        "' (available: linear)";
  if (auto near = nearest_name(name, known); !near.empty()) message += "; did you mean '" + near + "'?";
  throw InputError(message);
}

}  // namespace simrun
