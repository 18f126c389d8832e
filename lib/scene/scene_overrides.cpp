#include "scene/scene_overrides.hpp"

#include <algorithm>
#include <cctype>

#include "core/error.hpp"

namespace simrun {

using nlohmann::json;

SceneOverride parse_override(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) throw InputError("--set " + text + ": expected /json/pointer=VALUE");
  SceneOverride o;
  o.pointer = text.substr(0, eq);
  if (o.pointer.empty() || o.pointer[0] != '/')
    throw InputError("--set " + text + ": expected a JSON pointer starting with '/' before '='");
  const std::string value = text.substr(eq + 1);
  o.value = json::parse(value, nullptr, /*allow_exceptions=*/false);
  if (o.value.is_discarded()) o.value = value;
  return o;
}

void apply_override(json& scene, const SceneOverride& o) {
  const std::string where = "--set " + o.pointer;
  json::json_pointer pointer;
  try {
    pointer = json::json_pointer(o.pointer);
  } catch (const json::exception& e) {
    throw InputError(where + ": malformed JSON pointer (use ~0 for '~' and ~1 for '/')");
  }
  if (pointer.empty()) throw InputError(where + ": cannot replace the whole scene");
  const json::json_pointer parent = pointer.parent_pointer();
  const std::string key = pointer.back();
  const std::string parent_text = parent.empty() ? "(root)" : parent.to_string();
  if (!scene.contains(parent)) {
    // Name the first missing step, e.g. /objects/3 of /objects/3/material.
    json::json_pointer missing = parent;
    while (!missing.parent_pointer().empty() && !scene.contains(missing.parent_pointer()))
      missing = missing.parent_pointer();
    const json& holder = scene.at(missing.parent_pointer());
    std::string detail;
    if (holder.is_array()) detail = " is an array of " + std::to_string(holder.size()) + " item(s)";
    throw InputError(where + ": " + missing.to_string() + " does not exist in the scene" +
                     (detail.empty() ? ""
                                     : "; " +
                                           (missing.parent_pointer().empty()
                                                ? std::string("(root)")
                                                : missing.parent_pointer().to_string()) +
                                           detail));
  }

  json& target = scene.at(parent);
  if (target.is_object()) {
    target[key] = o.value;
  } else if (target.is_array()) {
    if (key == "-") {
      target.push_back(o.value);
      return;
    }
    const bool is_index = !key.empty() && std::all_of(key.begin(), key.end(), ::isdigit) &&
                          (key == "0" || key[0] != '0') && key.size() < 10;
    if (!is_index || std::stoul(key) >= target.size())
      throw InputError(where + ": " + parent_text + " is an array of " +
                       std::to_string(target.size()) + " item(s); expected an index 0.." +
                       std::to_string(static_cast<long>(target.size()) - 1) +
                       " or '-' to append, found '" + key + "'");
    target[std::stoul(key)] = o.value;
  } else {
    throw InputError(where + ": " + parent_text + " is a " + target.type_name() +
                     ", not an object or array");
  }
}

void apply_overrides(json& scene, const std::vector<std::string>& overrides) {
  for (const auto& text : overrides) apply_override(scene, parse_override(text));
}

}  // namespace simrun
