#pragma once
/// Checks on a schema-valid scene that JSON Schema cannot express.
#include <nlohmann/json.hpp>
#include <vector>

#include "scene/json_schema_validator.hpp"

namespace simrun {

/// Problems in `scene` (validated against the scene schema, defaults filled, paths absolute):
/// duplicate object names, a mesh file that is missing or of an unknown format, a zero rotation
/// axis, a selection box with min > max, a region that overrides nothing. Each names its pointer.
std::vector<SchemaViolation> check_scene_semantics(const nlohmann::json& scene);

}  // namespace simrun
