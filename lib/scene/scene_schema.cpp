#include "scene/scene_schema.hpp"

namespace simrun {

const nlohmann::json& scene_schema() {
  static const nlohmann::json schema = nlohmann::json::parse(scene_schema_text());
  return schema;
}

const JsonSchemaValidator& scene_schema_validator() {
  static const JsonSchemaValidator validator(scene_schema());
  return validator;
}

}  // namespace simrun
