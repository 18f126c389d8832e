#include "scene/integrator_setting_use.hpp"

#include <algorithm>
#include <utility>

#include "scene/scene_schema.hpp"

namespace simrun {

namespace {

using nlohmann::json;

/// The settings that only some types read, and those types (docs/exponential_integrators.md,
/// README "Integrators").
const std::vector<std::pair<std::string, std::vector<std::string>>>& readers() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> table = {
      {"modes", {"siere", "sbdf2ere", "str_sbdf2ere"}},
      {"eigen_refresh", {"siere", "sbdf2ere", "str_sbdf2ere"}},
      {"eigen_update", {"siere", "sbdf2ere", "str_sbdf2ere"}},
      {"eigensolver", {"siere", "sbdf2ere", "str_sbdf2ere"}},
      {"krylov", {"ere"}},
      {"phi_argument", {"sbdf2ere", "str_sbdf2ere"}},
      {"mssi_form", {"mssi"}},
      {"newmark_beta", {"newmark"}},
      {"newmark_gamma", {"newmark"}},
      {"rho_inf", {"generalized_alpha"}},
      {"alpha", {"variational_alpha"}},
      {"reinject_residual", {"variational_midpoint", "variational_alpha"}},
  };
  return table;
}

/// Whether `value` differs from the schema's default of `property` (objects: any member).
bool differs_from_default(const json& value, const json& property) {
  if (value.is_object() && property.contains("properties")) {
    for (const auto& [key, member] : value.items())
      if (property["properties"].contains(key) &&
          differs_from_default(member, property["properties"][key]))
        return true;
    return false;
  }
  return property.contains("default") && value != property["default"];
}

bool uses_eigenfit(const json& normalized) {
  for (const json& object : normalized.value("objects", json::array()))
    if (object.contains("eigenfit") && object["eigenfit"].value("method", "none") != "none")
      return true;
  return false;
}

}  // namespace

std::vector<std::string> unused_integrator_settings(const json& normalized) {
  std::vector<std::string> notes;
  if (!normalized.contains("integrator")) return notes;
  const json& integrator = normalized["integrator"];
  const std::string type = integrator.value("type", "");
  const json& properties = scene_schema()["$defs"]["integrator"]["properties"];
  const bool eigenfit = uses_eigenfit(normalized);
  for (const auto& [key, types] : readers()) {
    if (!integrator.contains(key) || !properties.contains(key)) continue;
    if (std::find(types.begin(), types.end(), type) != types.end()) continue;
    if (eigenfit && key.rfind("eigen", 0) == 0) continue;  // EigenFit's per-step modes
    if (!differs_from_default(integrator[key], properties[key])) continue;
    std::string used_by;
    for (const std::string& t : types) used_by += (used_by.empty() ? "" : ", ") + t;
    notes.push_back("integrator: warning: /integrator/" + key + " = " + integrator[key].dump() +
                    " has no effect with '" + type + "' (used by " + used_by + ")");
  }
  return notes;
}

}  // namespace simrun
