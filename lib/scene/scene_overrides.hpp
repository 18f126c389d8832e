#pragma once
/// Command-line overrides `--set /json/pointer=VALUE`, applied to the merged scene (after
/// "extends", before validation).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace simrun {

struct SceneOverride {
  std::string pointer;   ///< RFC 6901 JSON pointer, e.g. "/objects/0/material/E"
  nlohmann::json value;  ///< VALUE parsed as JSON, or VALUE as a string if it is not JSON
};

/// Splits "POINTER=VALUE" at the first '='. VALUE is parsed as JSON (1e6, true, [0,1,0],
/// "\"si\"") and taken as a bare string when it does not parse (si, out/run1).
/// Throws InputError when there is no '=' or the pointer does not start with '/'.
SceneOverride parse_override(const std::string& text);

/// Sets the value at `o.pointer`: the parent must exist; in an object the key is replaced or
/// created (validation then reports an unknown key), in an array an existing index is replaced
/// and "-" appends. Throws InputError naming the pointer otherwise.
void apply_override(nlohmann::json& scene, const SceneOverride& o);

/// parse_override + apply_override for each text, in order.
void apply_overrides(nlohmann::json& scene, const std::vector<std::string>& overrides);

}  // namespace simrun
