#include <functional>

#include "core/error.hpp"
#include "core/string_distance.hpp"
#include "integrate/backward_euler.hpp"
#include "integrate/integrator.hpp"
#include "integrate/semi_implicit_euler.hpp"

namespace simrun {

namespace {

using IntegratorFactory = std::function<std::unique_ptr<Integrator>(const IntegratorSettings&)>;

struct RegisteredIntegrator {
  const char* name;
  IntegratorFactory make;
};

template <class T>
IntegratorFactory factory() {
  return [](const IntegratorSettings& s) { return std::make_unique<T>(s); };
}

/// The registry: one line per integrator.
const std::vector<RegisteredIntegrator>& registry() {
  static const std::vector<RegisteredIntegrator> entries = {
      {"si", factory<SemiImplicitEuler>()},
      {"be", factory<BackwardEuler>()},
  };
  return entries;
}

}  // namespace

std::vector<std::string> integrator_names() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.emplace_back(entry.name);
  return names;
}

std::unique_ptr<Integrator> make_integrator(std::string_view name,
                                            const IntegratorSettings& settings) {
  for (const auto& entry : registry()) {
    if (name == entry.name) return entry.make(settings);
  }
  std::string message = "unknown or not yet implemented integrator '" + std::string(name) +
                        "' (available:";
  for (const auto& n : integrator_names()) message += " " + n;
  message += ")";
  if (auto near = nearest_name(name, integrator_names()); !near.empty()) {
    message += "; did you mean '" + near + "'?";
  }
  throw InputError(message);
}

}  // namespace simrun
