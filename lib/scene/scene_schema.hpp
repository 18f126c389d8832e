#pragma once
/// The scene format's JSON Schema (schemas/scene.schema.json), embedded in the binary at build
/// time: the single source of truth for `simrun schema`, validation and defaults.
#include <nlohmann/json.hpp>
#include <string_view>

#include "scene/json_schema_validator.hpp"

namespace simrun {

/// The schema file's text, byte for byte (what `simrun schema` prints).
std::string_view scene_schema_text();

/// The schema, parsed once.
const nlohmann::json& scene_schema();

/// A validator for scenes built on scene_schema().
const JsonSchemaValidator& scene_schema_validator();

}  // namespace simrun
