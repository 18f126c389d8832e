#include "scene/json_schema_validator.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "scene/scene_schema.hpp"
#include "support/test_paths.hpp"

namespace simrun {
namespace {

using nlohmann::json;

std::string joined(const std::vector<SchemaViolation>& violations) {
  std::string s;
  for (const auto& v : violations) s += v.to_string() + "\n";
  return s;
}

const json kSchema = json::parse(R"({
  "type": "object",
  "additionalProperties": false,
  "required": ["count"],
  "properties": {
    "count": {"type": "integer", "minimum": 1},
    "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1, "default": 0.5},
    "mode": {"type": "string", "enum": ["fast", "exact"], "default": "fast"},
    "point": {"$ref": "#/$defs/vec2", "default": [0, 0]},
    "inner": {"$ref": "#/$defs/inner", "default": {}},
    "list": {"type": "array", "items": {"$ref": "#/$defs/inner"}},
    "shape": {"oneOf": [
      {"title": "circle", "type": "object", "additionalProperties": false, "required": ["circle"],
       "properties": {"circle": {"type": "number"}, "fill": {"type": "boolean", "default": true}}},
      {"title": "square", "type": "object", "additionalProperties": false, "required": ["square"],
       "properties": {"square": {"type": "number"}}}
    ]},
    "scale": {"oneOf": [{"type": "number"}, {"$ref": "#/$defs/vec2"}]},
    "flag": {"const": true}
  },
  "$defs": {
    "vec2": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
    "inner": {"type": "object", "additionalProperties": false,
              "properties": {"depth": {"type": "integer", "default": 3}}}
  }
})");

TEST(JsonSchemaValidator, FillsDefaultsRecursivelyIncludingArrayItemsAndChosenAlternative) {
  const JsonSchemaValidator validator(kSchema);
  json doc = json::parse(R"({"count": 2, "list": [{}, {"depth": 7}], "shape": {"circle": 1}})");
  EXPECT_EQ(joined(validator.validate_and_fill(doc)), "");
  EXPECT_EQ(doc["ratio"], 0.5);
  EXPECT_EQ(doc["mode"], "fast");
  EXPECT_EQ(doc["point"], json::parse("[0, 0]"));
  EXPECT_EQ(doc["inner"]["depth"], 3);    // default {} then its own defaults
  EXPECT_EQ(doc["list"][0]["depth"], 3);  // inside array items
  EXPECT_EQ(doc["list"][1]["depth"], 7);  // written values win
  EXPECT_EQ(doc["shape"]["fill"], true);  // inside the matching oneOf branch
  EXPECT_FALSE(doc.contains("scale"));    // no default, stays absent
}

TEST(JsonSchemaValidator, ValidateLeavesInputUntouched) {
  const JsonSchemaValidator validator(kSchema);
  const json doc = json::parse(R"({"count": 2})");
  EXPECT_TRUE(validator.validate(doc).empty());
  EXPECT_EQ(doc, json::parse(R"({"count": 2})"));
}

TEST(JsonSchemaValidator, CollectsEveryErrorWithPointerExpectedAndFound) {
  const JsonSchemaValidator validator(kSchema);
  json doc = json::parse(R"({"ratio": 1, "mode": "fats", "point": [1], "inner": {"depht": 1},
                             "list": [{"depth": "deep"}], "flag": false})");
  const std::string errors = joined(validator.validate_and_fill(doc));
  EXPECT_NE(errors.find("(root): missing required key 'count'"), std::string::npos) << errors;
  EXPECT_NE(errors.find("/ratio: expected a number < 1, found 1"), std::string::npos) << errors;
  EXPECT_NE(
      errors.find("/mode: expected one of 'fast', 'exact'; found 'fats' (did you mean 'fast'?)"),
      std::string::npos)
      << errors;
  EXPECT_NE(errors.find("/point: expected at least 2 item(s), found 1"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("/inner/depht: unknown key 'depht' (did you mean 'depth'?)"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("/list/0/depth: expected integer, found string \"deep\""),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("/flag: expected true, found false"), std::string::npos) << errors;
  EXPECT_EQ(validator.validate(doc).size(), 7u) << errors;
}

TEST(JsonSchemaValidator, UnknownKeyWithoutNearNameListsAllowedKeys) {
  const JsonSchemaValidator validator(kSchema);
  const std::string errors =
      joined(validator.validate(json::parse(R"({"count": 1, "inner": {"zzzzzz": 1}})")));
  EXPECT_NE(errors.find("/inner/zzzzzz: unknown key 'zzzzzz'; allowed keys here: 'depth'"),
            std::string::npos)
      << errors;
}

TEST(JsonSchemaValidator, IntegralFloatIsAcceptedAsIntegerAndNormalized) {
  const JsonSchemaValidator validator(kSchema);
  json doc = json::parse(R"({"count": 3.0})");
  EXPECT_TRUE(validator.validate_and_fill(doc).empty());
  EXPECT_TRUE(doc["count"].is_number_integer());
  EXPECT_EQ(joined(validator.validate(json::parse(R"({"count": 2.5})"))),
            "/count: expected integer, found number 2.5\n");
}

TEST(JsonSchemaValidator, OneOfReportsTheAlternativeNamedByItsKeys) {
  const JsonSchemaValidator validator(kSchema);
  // Meant as a square (its key is present): only the square's complaint, not the circle's.
  EXPECT_EQ(joined(validator.validate(json::parse(R"({"count": 1, "shape": {"square": "big"}})"))),
            "/shape/square: expected number, found string \"big\"\n");
  EXPECT_EQ(joined(validator.validate(
                json::parse(R"({"count": 1, "shape": {"square": 1, "fill": true}})"))),
            "/shape/fill: unknown key 'fill'; allowed keys here: 'square'\n");
  // No alternative's key: say which keys would do, with a suggestion.
  EXPECT_EQ(
      joined(validator.validate(json::parse(R"({"count": 1, "shape": {"circel": 1}})"))),
      "/shape: expected an object with exactly one of the keys 'circle', 'square', found keys "
      "'circel' (did you mean 'circle' for 'circel'?)\n");
  // Two alternatives' keys at once.
  EXPECT_EQ(
      joined(
          validator.validate(json::parse(R"({"count": 1, "shape": {"circle": 1, "square": 1}})"))),
      "/shape: expected an object with exactly one of the keys 'circle', 'square', found keys "
      "'circle', 'square'\n");
  // Wrong type for every alternative.
  EXPECT_EQ(joined(validator.validate(json::parse(R"({"count": 1, "scale": "x"})"))),
            "/scale: expected number or array, found string \"x\"\n");
  // Alternatives told apart by type: the array one reports.
  EXPECT_EQ(joined(validator.validate(json::parse(R"({"count": 1, "scale": [1]})"))),
            "/scale: expected at least 2 item(s), found 1: [1]\n");
}

TEST(JsonSchemaValidator, DanglingRefIsRejectedAtConstruction) {
  EXPECT_THROW(JsonSchemaValidator(json::parse(R"({"$ref": "#/$defs/missing"})")),
               std::invalid_argument);
}

TEST(SceneSchema, UsesOnlyKeywordsTheValidatorImplements) {
  const auto unsupported = unsupported_schema_keywords(scene_schema());
  EXPECT_TRUE(unsupported.empty()) << "first: " << unsupported.front();
  EXPECT_EQ(unsupported_schema_keywords(json::parse(R"({"properties": {"a": {"pattern": "x"}}})")),
            std::vector<std::string>{"/properties/a/pattern"});
}

TEST(SceneSchema, EmbeddedTextIsTheSchemaFile) {
  std::ifstream in(std::string(SIMRUN_SOURCE_DIR) + "/schemas/scene.schema.json");
  std::stringstream file;
  file << in.rdbuf();
  EXPECT_EQ(scene_schema_text(), file.str());
  EXPECT_EQ(scene_schema()["$schema"], "https://json-schema.org/draft/2020-12/schema");
}

/// Every "default" in the schema must satisfy its own schema, or a scene that omits the key
/// would be rejected (or worse, accepted with an invalid value).
void check_defaults(const JsonSchemaValidator& validator, const json& node, const std::string& at) {
  if (node.is_object()) {
    if (node.contains("default")) {
      json wrapper = {{"$defs", scene_schema()["$defs"]}};
      for (const auto& [k, v] : node.items())
        if (k != "default") wrapper[k] = v;
      const JsonSchemaValidator local(wrapper);
      EXPECT_TRUE(local.validate(node["default"]).empty()) << "default at " << at;
    }
    for (const auto& [k, v] : node.items())
      if (k != "default" && k != "enum" && k != "const") check_defaults(validator, v, at + "/" + k);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      check_defaults(validator, node[i], at + "/" + std::to_string(i));
  }
}

TEST(SceneSchema, EveryDefaultIsValid) {
  check_defaults(scene_schema_validator(), scene_schema(), "");
}

TEST(SceneSchema, EveryPropertyIsDocumented) {
  std::vector<std::string> undocumented;
  std::function<void(const json&, const std::string&)> walk = [&](const json& node,
                                                                  const std::string& at) {
    if (!node.is_object()) return;
    if (node.contains("properties"))
      for (const auto& [name, property] : node["properties"].items()) {
        const bool documented =
            property.contains("description") ||
            (property.contains("$ref") &&
             scene_schema()["$defs"][property["$ref"].get<std::string>().substr(8)].contains(
                 "description"));
        if (!documented) undocumented.push_back(at + "/properties/" + name);
      }
    for (const auto& [k, v] : node.items()) {
      if (v.is_object()) walk(v, at + "/" + k);
      if (v.is_array())
        for (std::size_t i = 0; i < v.size(); ++i)
          walk(v[i], at + "/" + k + "/" + std::to_string(i));
    }
  };
  walk(scene_schema(), "");
  EXPECT_TRUE(undocumented.empty()) << "first: " << undocumented.front();
}

// uniqueItems: each duplicate names its first occurrence; 1 and 1.0 are the same value (as
// json's ==); a 20,000-item array with every item repeated lists 10 and counts the rest (it was
// quadratic with a 1.4 MB message).
TEST(JsonSchemaValidator, UniqueItemsNamesFirstOccurrenceAndStaysShortOnHugeArrays) {
  const JsonSchemaValidator validator(json::parse(R"({"type": "array", "uniqueItems": true})"));
  const auto small = validator.validate(json::parse(R"(["a", 1, "b", 1.0, "a"])"));
  ASSERT_EQ(small.size(), 2u) << joined(small);
  EXPECT_EQ(small[0].pointer, "/3");
  EXPECT_NE(small[0].message.find("duplicate of item 1"), std::string::npos) << joined(small);
  EXPECT_EQ(small[1].pointer, "/4");
  EXPECT_NE(small[1].message.find("duplicate of item 0"), std::string::npos) << joined(small);

  json huge = json::array();
  for (int i = 0; i < 20000; ++i) huge.push_back(i % 10000);
  const auto many = validator.validate(huge);
  ASSERT_EQ(many.size(), 11u);
  EXPECT_NE(many.back().message.find("9990 more duplicate"), std::string::npos) << joined(many);
  EXPECT_LT(joined(many).size(), 2000u);
}

}  // namespace
}  // namespace simrun
