#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/name_registry.hpp"
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
NameRegistry<Factory>::Entry entry() {
  return {std::string(Model().name()), [] { return std::make_unique<Model>(); }};
}

/// The registry: scene name -> model. A model added here is covered by the generic FD tests
/// (tests/material/material_test.cpp) at once.
const NameRegistry<Factory>& registry() {
  static const NameRegistry<Factory> models(
      "material model",
      {entry<LinearElastic>(), entry<CorotatedLinear>(), entry<StVenantKirchhoff>(),
       entry<NeoHookean>(), entry<NeoHookeanIsochoric>(), entry<StableNeoHookean>(), entry<Arap>(),
       entry<AnisotropicLinear>(), entry<AnisotropicCorotated>()});
  return models;
}
}  // namespace

std::vector<std::string> material_names() { return registry().names(); }

std::unique_ptr<Material> make_material(std::string_view name) { return registry().find(name)(); }

}  // namespace simrun
