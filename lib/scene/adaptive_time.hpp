#pragma once
/// The scene's "time": {"adaptive": {...}} (Kharevych time adaptivity,
/// integrate/adaptive_variational.hpp): parsing and the checks the schema cannot state.
#include <nlohmann/json.hpp>
#include <vector>

#include "integrate/adaptive_settings.hpp"
#include "scene/json_schema_validator.hpp"

namespace simrun {

/// The settings of a schema-validated (defaults filled) "adaptive" object.
AdaptiveSettings adaptive_from_json(const nlohmann::json& adaptive);

/// Adaptive runs need "end", an integrator with an adaptive form, no damping, no moving or
/// released boundary and no wind; the reversible scheme a symmetric sigma and Lagrangian.
void check_adaptive_time(const nlohmann::json& scene, std::vector<SchemaViolation>& out);

}  // namespace simrun
