#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/string_distance.hpp"
#include "material/anisotropic_corotated.hpp"
#include "material/anisotropic_linear.hpp"
#include "material/arap.hpp"
#include "material/corotated.hpp"
#include "material/linear_elastic.hpp"
#include "material/material.hpp"
#include "material/neohookean.hpp"
#include "material/neohookean_isochoric.hpp"
#include "material/stable_neohookean.hpp"
#include "material/stvk.hpp"

namespace simrun {

namespace {
using Factory = std::function<std::unique_ptr<Material>()>;

template <class Model>
std::pair<std::string, Factory> entry() {
  return {std::string(Model().name()), [] { return std::make_unique<Model>(); }};
}

/// The registry: scene name -> model. A model added here is covered by the generic FD tests
/// (tests/material/material_test.cpp) at once.
const std::vector<std::pair<std::string, Factory>>& registry() {
  static const std::vector<std::pair<std::string, Factory>> models = {
      entry<LinearElastic>(), entry<CorotatedLinear>(),     entry<StVenantKirchhoff>(),
      entry<NeoHookean>(),    entry<NeoHookeanIsochoric>(), entry<StableNeoHookean>(),
      entry<Arap>(),          entry<AnisotropicLinear>(),   entry<AnisotropicCorotated>(),
  };
  return models;
}
}  // namespace

std::vector<std::string> material_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

std::unique_ptr<Material> make_material(std::string_view name) {
  for (const auto& [known, factory] : registry()) {
    if (name == known) return factory();
  }
  const std::vector<std::string> known = material_names();
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  std::string message =
      "unknown material model '" + std::string(name) + "' (available: " + list + ")";
  if (auto near = nearest_name(name, known); !near.empty())
    message += "; did you mean '" + near + "'?";
  throw InputError(message);
}

}  // namespace simrun
