#include "scene/json_schema_validator.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "core/string_distance.hpp"

namespace simrun {

using nlohmann::json;

namespace {

/// nearest_name, plus one swap of adjacent letters ("fats" -> "fast"), which nearest_name counts
/// as two edits but is one typo.
std::string suggest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string near = nearest_name(name, candidates);
  if (!near.empty()) return near;
  for (const auto& c : candidates) {
    if (c.size() != name.size()) continue;
    for (std::size_t i = 0; i + 1 < name.size(); ++i) {
      std::string swapped = name;
      std::swap(swapped[i], swapped[i + 1]);
      if (swapped == c) return c;
    }
  }
  return "";
}

/// Quoted list: 'a', 'b', 'c'.
std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", '" : "'") + names[i] + "'";
  return s;
}

std::string type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::string:
      return "string";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    default:
      return "number";
  }
}

bool is_integral(const json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  const double x = value.get<double>();
  return std::isfinite(x) && x == std::floor(x) && std::abs(x) < 9.0e15;
}

bool has_type(const json& value, const std::string& type) {
  if (type == "number") return value.is_number();
  if (type == "integer") return is_integral(value);
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "null") return value.is_null();
  throw std::invalid_argument("JSON Schema: unknown type '" + type + "'");
}

std::vector<std::string> type_list(const json& schema) {
  if (!schema.contains("type")) return {};
  const json& t = schema["type"];
  if (t.is_string()) return {t.get<std::string>()};
  return t.get<std::vector<std::string>>();
}

/// Appends compact JSON for `value` to `out` (as json::dump() would write it) until `out` is
/// longer than `limit`; returns false once it is. Each level of nesting adds at least one
/// character, so the recursion is at most `limit` deep whatever the depth of `value`, and a huge
/// value costs only the characters shown.
bool dump_prefix(const json& value, std::size_t limit, std::string& out) {
  if (out.size() > limit) return false;
  if (value.is_array()) {
    out += '[';
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it != value.begin()) out += ',';
      if (!dump_prefix(*it, limit, out)) return false;
    }
    out += ']';
  } else if (value.is_object()) {
    out += '{';
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it != value.begin()) out += ',';
      out += json(it.key()).dump(-1, ' ', false, json::error_handler_t::replace);
      out += ':';
      if (!dump_prefix(it.value(), limit, out)) return false;
    }
    out += '}';
  } else {
    // Scalars are not nested; replace (not throw on) bytes that are not UTF-8.
    out += value.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  return out.size() <= limit;
}

/// Compact JSON of `value`, cut to its first 45 characters and "..." when longer than 48.
std::string short_dump(const json& value) {
  std::string s;
  if (!dump_prefix(value, 48, s) || s.size() > 48) s = s.substr(0, 45) + "...";
  return s;
}

/// A value as it reads in a message: strings quoted, everything else as compact JSON.
std::string literal(const json& value) {
  std::string s = value.is_string() ? value.get<std::string>() : short_dump(value);
  if (s.size() > 48) s = s.substr(0, 45) + "...";
  if (!value.is_string()) return s;
  // Appending instead of "'" + s + "'" sidesteps a GCC 12 -Wrestrict false positive.
  std::string quoted(1, '\'');
  quoted.append(s).push_back('\'');
  return quoted;
}

std::vector<std::string> required_keys(const json& schema) {
  if (!schema.contains("required")) return {};
  return schema["required"].get<std::vector<std::string>>();
}

size_t utf8_length(const std::string& s) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

void collect_unsupported(const json& schema, const std::string& pointer,
                         std::vector<std::string>& out) {
  if (!schema.is_object()) return;  // boolean schemas are fine
  const auto& supported = supported_schema_keywords();
  for (const auto& [key, sub] : schema.items()) {
    const std::string here = append_pointer(pointer, key);
    if (std::find(supported.begin(), supported.end(), key) == supported.end()) {
      out.push_back(here);
    } else if (key == "properties" || key == "$defs") {
      for (const auto& [name, s] : sub.items())
        collect_unsupported(s, append_pointer(here, name), out);
    } else if (key == "items" || key == "additionalProperties") {
      collect_unsupported(sub, here, out);
    } else if (key == "oneOf" || key == "anyOf") {
      for (size_t i = 0; i < sub.size(); ++i)
        collect_unsupported(sub[i], append_pointer(here, std::to_string(i)), out);
    }
  }
}

void collect_refs(const json& node, std::vector<std::string>& refs) {
  if (node.is_object()) {
    for (const auto& [key, sub] : node.items()) {
      if (key == "$ref" && sub.is_string())
        refs.push_back(sub.get<std::string>());
      else if (key != "default" && key != "enum" && key != "const")
        collect_refs(sub, refs);
    }
  } else if (node.is_array()) {
    for (const auto& sub : node) collect_refs(sub, refs);
  }
}

/// "type": false (after reporting) when the value has none of the schema's types; 3.0 where an
/// integer is wanted is normalized to 3.
bool check_type(const json& schema, json& value, const std::string& pointer,
                std::vector<SchemaViolation>& out) {
  const std::vector<std::string> types = type_list(schema);
  if (!types.empty()) {
    const auto it = std::find_if(types.begin(), types.end(),
                                 [&](const std::string& t) { return has_type(value, t); });
    if (it == types.end()) {
      std::string expected;
      for (size_t i = 0; i < types.size(); ++i) expected += (i ? " or " : "") + types[i];
      out.push_back({pointer, "expected " + expected + ", found " + describe_json_value(value)});
      return false;  // further checks would only repeat the type mismatch
    }
    // 3.0 where an integer is wanted is accepted and normalized to 3.
    if (*it == "integer" && value.is_number_float())
      value = static_cast<int64_t>(value.get<double>());
  }
  return true;
}

/// "enum" and "const".
void check_enum_and_const(const json& schema, const json& value, const std::string& pointer,
                          std::vector<SchemaViolation>& out) {
  if (schema.contains("enum")) {
    const json& allowed = schema["enum"];
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
      std::vector<std::string> names;
      for (const auto& a : allowed)
        names.push_back(a.is_string() ? a.get<std::string>() : a.dump());
      std::string message = "expected one of ";
      for (size_t i = 0; i < allowed.size(); ++i) message += (i ? ", " : "") + literal(allowed[i]);
      message += "; found " + literal(value);
      if (value.is_string()) {
        const std::string near = suggest_name(value.get<std::string>(), names);
        if (!near.empty()) message += " (did you mean '" + near + "'?)";
      }
      out.push_back({pointer, message});
    }
  }
  if (schema.contains("const") && value != schema["const"]) {
    out.push_back({pointer, "expected " + literal(schema["const"]) + ", found " + literal(value)});
  }
}

/// A number's bounds, and that it is finite.
void check_number(const json& schema, const json& value, const std::string& pointer,
                  std::vector<SchemaViolation>& out) {
  const double x = value.get<double>();
  const auto bound = [&](const char* key, const char* relation, auto violates) {
    if (!schema.contains(key)) return;
    const double b = schema[key].get<double>();
    if (violates(x, b))
      out.push_back({pointer, std::string("expected a number ") + relation + " " +
                                  schema[key].dump() + ", found " + value.dump()});
  };
  bound("minimum", ">=", [](double v, double b) { return v < b; });
  bound("maximum", "<=", [](double v, double b) { return v > b; });
  bound("exclusiveMinimum", ">", [](double v, double b) { return v <= b; });
  bound("exclusiveMaximum", "<", [](double v, double b) { return v >= b; });
  if (!std::isfinite(x))
    out.push_back({pointer, "expected a finite number, found " + value.dump()});
}

/// An array's "minItems", "maxItems" and "uniqueItems" (its items are checked by the caller).
void check_array_size_and_uniqueness(const json& schema, const json& value,
                                     const std::string& pointer,
                                     std::vector<SchemaViolation>& out) {
  const size_t n = value.size();
  if (schema.contains("minItems") && n < schema["minItems"].get<size_t>())
    out.push_back({pointer, "expected at least " + schema["minItems"].dump() + " item(s), found " +
                                std::to_string(n) + ": " + short_dump(value)});
  if (schema.contains("maxItems") && n > schema["maxItems"].get<size_t>())
    out.push_back({pointer, "expected at most " + schema["maxItems"].dump() + " item(s), found " +
                                std::to_string(n) + ": " + short_dump(value)});
  if (schema.value("uniqueItems", false)) {
    // First occurrence of each value, in O(n log n) (json's < orders numbers by value like its
    // ==); at most kMaxListedDuplicates are listed so that a huge array gives a short message.
    constexpr size_t kMaxListedDuplicates = 10;
    std::map<json, size_t> first;
    size_t duplicates = 0;
    for (size_t i = 0; i < n; ++i) {
      const auto [it, inserted] = first.emplace(value[i], i);
      if (inserted) continue;
      if (++duplicates <= kMaxListedDuplicates)
        out.push_back(
            {append_pointer(pointer, std::to_string(i)),
             "duplicate of item " + std::to_string(it->second) + ": " + literal(value[i])});
    }
    if (duplicates > kMaxListedDuplicates)
      out.push_back({pointer, std::to_string(duplicates - kMaxListedDuplicates) +
                                  " more duplicate items not listed (the items must be unique)"});
  }
}

/// The alternatives of a oneOf or anyOf none of which matched: each resolved, its violations,
/// and those whose type accepts the value.
struct FailedAlternatives {
  std::vector<const json*> resolved;
  std::vector<std::vector<SchemaViolation>> errors;
  std::vector<size_t> typed;
};

/// An object value: reports the violations of the one alternative its required keys select,
/// or, when the alternatives are all told apart by required keys, the keys it should have.
/// False when neither applies.
bool report_keyed_alternative(const FailedAlternatives& f, const json& value,
                              const std::string& pointer, std::vector<SchemaViolation>& out) {
  // Alternatives told apart by their required keys ({"side": ..} vs {"box": ..}).
  std::vector<size_t> keyed;
  std::vector<std::string> discriminators;
  bool all_keyed = true;
  for (size_t i : f.typed) {
    const auto required = required_keys(*f.resolved[i]);
    if (required.empty()) all_keyed = false;
    for (const auto& k : required)
      if (std::find(discriminators.begin(), discriminators.end(), k) == discriminators.end())
        discriminators.push_back(k);
    if (!required.empty() && std::all_of(required.begin(), required.end(),
                                         [&](const std::string& k) { return value.contains(k); }))
      keyed.push_back(i);
  }
  if (keyed.size() == 1) {
    out.insert(out.end(), f.errors[keyed[0]].begin(), f.errors[keyed[0]].end());
    return true;
  }
  if (!all_keyed) return false;
  std::vector<std::string> present;
  std::string hints;
  for (const auto& [key, _] : value.items()) {
    present.push_back(key);
    const std::string near = suggest_name(key, discriminators);
    if (keyed.empty() && !near.empty() && near != key)
      hints += " (did you mean '" + near + "' for '" + key + "'?)";
  }
  out.push_back({pointer, "expected an object with exactly one of the keys " +
                              quoted_list(discriminators) + ", found " +
                              (present.empty() ? std::string("an empty object")
                                               : "keys " + quoted_list(present)) +
                              hints});
  return true;
}

}  // namespace

std::string SchemaViolation::to_string() const {
  return (pointer.empty() ? std::string("(root)") : pointer) + ": " + message;
}

const std::vector<std::string>& supported_schema_keywords() {
  static const std::vector<std::string> keywords = {"$schema",
                                                    "$id",
                                                    "$ref",
                                                    "$defs",
                                                    "$comment",
                                                    "title",
                                                    "description",
                                                    "default",
                                                    "examples",
                                                    "type",
                                                    "enum",
                                                    "const",
                                                    "minimum",
                                                    "maximum",
                                                    "exclusiveMinimum",
                                                    "exclusiveMaximum",
                                                    "minLength",
                                                    "items",
                                                    "minItems",
                                                    "maxItems",
                                                    "uniqueItems",
                                                    "properties",
                                                    "required",
                                                    "additionalProperties",
                                                    "oneOf",
                                                    "anyOf"};
  return keywords;
}

std::vector<std::string> unsupported_schema_keywords(const json& schema) {
  std::vector<std::string> out;
  collect_unsupported(schema, "", out);
  return out;
}

std::string append_pointer(const std::string& pointer, const std::string& token) {
  return (json::json_pointer(pointer) / token).to_string();
}

std::string describe_json_value(const json& value) {
  if (value.is_null()) return "null";
  return type_name(value) + " " + short_dump(value);
}

JsonSchemaValidator::JsonSchemaValidator(json schema) : m_schema(std::move(schema)) {
  // Fail at construction, not in the middle of a user's scene, on a dangling reference.
  std::vector<std::string> refs;
  collect_refs(m_schema, refs);
  for (const auto& ref : refs) {
    json probe = {{"$ref", ref}};
    resolve(probe);
  }
}

const json& JsonSchemaValidator::resolve(const json& schema) const {
  const json* s = &schema;
  for (int depth = 0; s->is_object() && s->contains("$ref"); ++depth) {
    const std::string ref = (*s)["$ref"].get<std::string>();
    if (depth > 32 || ref.empty() || ref[0] != '#')
      throw std::invalid_argument("JSON Schema: unsupported or circular $ref '" + ref + "'");
    const json::json_pointer target(ref.substr(1));
    if (!m_schema.contains(target))
      throw std::invalid_argument("JSON Schema: $ref '" + ref + "' does not resolve");
    s = &m_schema.at(target);
  }
  return *s;
}

std::vector<SchemaViolation> JsonSchemaValidator::validate_and_fill(json& instance) const {
  std::vector<SchemaViolation> out;
  check(m_schema, instance, "", out);
  return out;
}

std::vector<SchemaViolation> JsonSchemaValidator::validate(const json& instance) const {
  json copy = instance;
  return validate_and_fill(copy);
}

void JsonSchemaValidator::check(const json& schema_in, json& value, const std::string& pointer,
                                std::vector<SchemaViolation>& out) const {
  if (schema_in.is_boolean()) {
    if (!schema_in.get<bool>()) out.push_back({pointer, "no value is allowed here"});
    return;
  }
  // Siblings of "$ref" are annotations (default, description) in our schemas; the referenced
  // schema carries the constraints.
  const json& schema = resolve(schema_in);

  if (!check_type(schema, value, pointer, out)) return;
  check_enum_and_const(schema, value, pointer, out);
  if (value.is_number()) check_number(schema, value, pointer, out);

  if (value.is_string() && schema.contains("minLength")) {
    const size_t n = schema["minLength"].get<size_t>();
    if (utf8_length(value.get<std::string>()) < n)
      out.push_back({pointer, n == 1 ? "expected a non-empty string, found ''"
                                     : "expected a string of at least " + std::to_string(n) +
                                           " characters, found " + literal(value)});
  }

  if (value.is_array()) {
    check_array_size_and_uniqueness(schema, value, pointer, out);
    if (schema.contains("items"))
      for (size_t i = 0; i < value.size(); ++i)
        check(schema["items"], value[i], append_pointer(pointer, std::to_string(i)), out);
  }

  if (value.is_object()) check_object(schema, value, pointer, out);

  if (schema.contains("oneOf")) check_alternatives(schema, "oneOf", value, pointer, out);
  if (schema.contains("anyOf")) check_alternatives(schema, "anyOf", value, pointer, out);
}

void JsonSchemaValidator::check_object(const json& schema, json& value, const std::string& pointer,
                                       std::vector<SchemaViolation>& out) const {
  static const json kNoProperties = json::object();
  const json& properties = schema.contains("properties") ? schema["properties"] : kNoProperties;

  for (const auto& key : required_keys(schema))
    if (!value.contains(key)) out.push_back({pointer, "missing required key '" + key + "'"});

  std::vector<std::string> allowed;
  for (const auto& [name, _] : properties.items()) allowed.push_back(name);

  for (auto& [key, member] : value.items()) {
    const std::string here = append_pointer(pointer, key);
    if (properties.contains(key)) {
      check(properties[key], member, here, out);
    } else if (schema.contains("additionalProperties")) {
      const json& extra = schema["additionalProperties"];
      if (extra.is_boolean() && !extra.get<bool>()) {
        const std::string near = suggest_name(key, allowed);
        std::string message = "unknown key '" + key + "'";
        if (!near.empty())
          message += " (did you mean '" + near + "'?)";
        else
          message += "; allowed keys here: " + (allowed.empty() ? "none" : quoted_list(allowed));
        out.push_back({here, message});
      } else {
        check(extra, member, here, out);
      }
    }
  }

  // Defaults: an absent key takes its schema's default, which is then checked like a written
  // value so that defaults nested inside it ({} -> {"dt": 0.01, ...}) are filled too.
  for (const auto& [name, property] : properties.items()) {
    if (value.contains(name)) continue;
    const json* with_default = &property;
    if (!property.contains("default")) with_default = &resolve(property);
    if (!with_default->is_object() || !with_default->contains("default")) continue;
    json filled = (*with_default)["default"];
    check(property, filled, append_pointer(pointer, name), out);
    value[name] = std::move(filled);
  }
}

void JsonSchemaValidator::check_alternatives(const json& schema, const std::string& keyword,
                                             json& value, const std::string& pointer,
                                             std::vector<SchemaViolation>& out) const {
  const json& branches = schema[keyword];
  std::vector<json> filled(branches.size(), value);
  FailedAlternatives f;
  f.errors.resize(branches.size());
  std::vector<std::vector<SchemaViolation>>& errors = f.errors;
  std::vector<size_t> passing;
  for (size_t i = 0; i < branches.size(); ++i) {
    check(branches[i], filled[i], pointer, errors[i]);
    if (errors[i].empty()) passing.push_back(i);
  }
  const auto title = [&](size_t i) {
    const json& b = resolve(branches[i]);
    return b.value("title", "alternative " + std::to_string(i));
  };

  if (passing.size() == 1 || (keyword == "anyOf" && !passing.empty())) {
    value = std::move(filled[passing.front()]);
    return;
  }
  if (passing.size() > 1) {
    std::vector<std::string> titles;
    for (size_t i : passing) titles.push_back(title(i));
    out.push_back({pointer, "ambiguous: matches more than one of " + quoted_list(titles)});
    return;
  }

  // Nothing matched. Report the alternative the value was evidently meant to be.
  std::vector<size_t>& typed = f.typed;  // alternatives whose type accepts the value
  std::vector<std::string> all_types;
  for (size_t i = 0; i < branches.size(); ++i) {
    f.resolved.push_back(&resolve(branches[i]));
    const auto types = type_list(*f.resolved.back());
    for (const auto& t : types)
      if (std::find(all_types.begin(), all_types.end(), t) == all_types.end())
        all_types.push_back(t);
    if (types.empty() || std::any_of(types.begin(), types.end(),
                                     [&](const std::string& t) { return has_type(value, t); }))
      typed.push_back(i);
  }
  if (typed.empty()) {
    std::string expected;
    for (size_t i = 0; i < all_types.size(); ++i) expected += (i ? " or " : "") + all_types[i];
    out.push_back({pointer, "expected " + expected + ", found " + describe_json_value(value)});
    return;
  }

  if (value.is_object() && report_keyed_alternative(f, value, pointer, out)) return;

  // Otherwise the closest alternative: the one with the fewest complaints.
  size_t best = typed.front();
  for (size_t i : typed)
    if (errors[i].size() < errors[best].size()) best = i;
  out.insert(out.end(), errors[best].begin(), errors[best].end());
}

}  // namespace simrun
