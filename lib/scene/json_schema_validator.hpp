#pragma once
/// A validator for the subset of JSON Schema 2020-12 that schemas/scene.schema.json uses:
/// type, enum, const, minimum/maximum/exclusiveMinimum/exclusiveMaximum, minLength,
/// items/minItems/maxItems/uniqueItems, properties/required/additionalProperties (false or a
/// schema), oneOf/anyOf and "$ref" to "#/..." (e.g. "#/$defs/vec3"). Annotations (title,
/// description, default, $schema, $id, $defs) are read but not checked.
///
/// Unlike a first-error validator it collects every problem, each with the JSON pointer of the
/// offending value, what was expected and what was found, suggests the nearest allowed key for an
/// unknown one, and for a failed oneOf reports only the alternative the value was evidently meant
/// to be (the one whose required keys are present) instead of every alternative's complaints.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace simrun {

struct SchemaViolation {
  std::string pointer;  ///< JSON pointer of the offending value ("" = the document root)
  std::string message;  ///< what was expected and what was found

  /// "/objects/0/material/E: expected number, found string \"abc\"" ("(root)" for "").
  std::string to_string() const;
};

/// Keywords the validator implements; a schema using any other keyword is a programming error
/// (see unsupported_schema_keywords).
const std::vector<std::string>& supported_schema_keywords();

/// JSON pointers (within `schema`) of keywords the validator does not implement. Empty for a
/// schema this validator can enforce completely.
std::vector<std::string> unsupported_schema_keywords(const nlohmann::json& schema);

class JsonSchemaValidator {
 public:
  /// `schema` is the root document; "$ref"s are resolved within it.
  explicit JsonSchemaValidator(nlohmann::json schema);

  /// Checks `instance` and fills every absent property that has a "default" (recursively, also
  /// inside array items and inside the chosen oneOf/anyOf alternative). Returns all violations,
  /// depth first in key order (nlohmann::json sorts keys); empty when `instance` is valid.
  std::vector<SchemaViolation> validate_and_fill(nlohmann::json& instance) const;

  /// As validate_and_fill on a copy: `instance` is left untouched.
  std::vector<SchemaViolation> validate(const nlohmann::json& instance) const;

  const nlohmann::json& schema() const { return m_schema; }

 private:
  void check(const nlohmann::json& schema, nlohmann::json& value, const std::string& pointer,
             std::vector<SchemaViolation>& out) const;
  void check_object(const nlohmann::json& schema, nlohmann::json& value, const std::string& pointer,
                    std::vector<SchemaViolation>& out) const;
  void check_alternatives(const nlohmann::json& schema, const std::string& keyword,
                          nlohmann::json& value, const std::string& pointer,
                          std::vector<SchemaViolation>& out) const;
  const nlohmann::json& resolve(const nlohmann::json& schema) const;

  nlohmann::json m_schema;
};

/// `pointer` extended by one reference token, escaped per RFC 6901 ("~" -> "~0", "/" -> "~1").
std::string append_pointer(const std::string& pointer, const std::string& token);

/// A short, single-line rendering of a JSON value for messages: its type and (abbreviated) value,
/// e.g. `string "abc"`, `number 0.5`, `object {"a":1,...}`.
std::string describe_json_value(const nlohmann::json& value);

}  // namespace simrun
