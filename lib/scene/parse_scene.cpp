#include "scene/parse_scene.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "scene/scene_checks.hpp"
#include "scene/scene_extends.hpp"
#include "scene/scene_from_json.hpp"
#include "scene/scene_overrides.hpp"
#include "scene/scene_schema.hpp"

namespace simrun {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// True when `pointer` is `prefix` or lies below it.
bool is_within(const std::string& pointer, const std::string& prefix) {
  return pointer.compare(0, prefix.size(), prefix) == 0 &&
         (pointer.size() == prefix.size() || pointer[prefix.size()] == '/');
}

[[noreturn]] void throw_violations(const fs::path& file,
                                   const std::vector<SchemaViolation>& violations,
                                   const std::vector<SceneOverride>& overrides) {
  std::string message;
  for (const auto& v : violations) {
    if (!message.empty()) message += "\n";
    message += file.string() + ": " + v.to_string();
    // Point at the command line when the bad value came from there.
    for (const auto& o : overrides)
      if (is_within(v.pointer, o.pointer)) {
        message += " (from --set " + o.pointer + "=" + o.value.dump() + ")";
        break;
      }
  }
  throw InputError(message);
}

}  // namespace

json load_normalized_scene(const fs::path& file, const std::vector<std::string>& override_texts) {
  const fs::path absolute = fs::absolute(file).lexically_normal();
  json scene = read_scene_with_extends(absolute);

  std::vector<SceneOverride> overrides;
  for (const auto& text : override_texts) {
    overrides.push_back(parse_override(text));
    // The base scene is read before any override applies: an override of it would be ignored.
    const std::string& pointer = overrides.back().pointer;
    if (pointer == "/extends" || pointer.rfind("/extends/", 0) == 0)
      throw InputError("--set " + overrides.back().pointer +
                       ": \"extends\" is read before the overrides; name the base scene in " +
                       file.string() + " instead");
  }
  if (!overrides.empty()) {
    // Fill defaults first so that `--set /integrator/type=be` works when the scene has no
    // "integrator" section; problems are reported by the validation after the overrides.
    scene_schema_validator().validate_and_fill(scene);
    for (const auto& o : overrides) apply_override(scene, o);
  }

  std::vector<SchemaViolation> violations = scene_schema_validator().validate_and_fill(scene);
  if (!violations.empty()) throw_violations(file, violations, overrides);

  // Defaults the schema cannot state: they depend on the file name, the position, or on which
  // of two alternative keys is present.
  if (!scene.contains("name")) scene["name"] = absolute.stem().string();
  if (!scene["time"].contains("steps") && !scene["time"].contains("end"))
    scene["time"]["steps"] = 100;
  if (!scene["output"].contains("every") && !scene["output"].contains("interval"))
    scene["output"]["every"] = 1;
  // Contact impacts need many more Newton iterations than smooth steps (46-132 in the contact
  // evidence scenes, docs/contact.md): a cap that fits them.
  json& newton = scene["integrator"]["newton"];
  if (!newton.contains("max_iterations"))
    newton["max_iterations"] = scene.contains("contact") ? kContactNewtonIterations : 20;
  json& objects = scene["objects"];
  for (std::size_t i = 0; i < objects.size(); ++i)
    if (!objects[i].contains("name")) objects[i]["name"] = "object" + std::to_string(i);
  // Input paths from --set are relative to the scene file itself; the output folder, like any
  // command-line tool's, to where simrun runs (default: out/NAME).
  resolve_scene_paths(scene, absolute.parent_path());
  json& output = scene["output"];
  if (!output.contains("dir")) output["dir"] = "out/" + scene["name"].get<std::string>();
  output["dir"] = fs::absolute(output["dir"].get<std::string>()).lexically_normal().string();

  violations = check_scene_semantics(scene);
  if (!violations.empty()) throw_violations(file, violations, overrides);
  return scene;
}

SceneConfig parse_scene(const fs::path& file, const std::vector<std::string>& overrides) {
  SceneConfig config = scene_from_json(load_normalized_scene(file, overrides));
  config.source = fs::absolute(file).lexically_normal();
  return config;
}

namespace {

/// A scalar's JSON text; bytes that are not UTF-8 (a path in a folder named in another encoding)
/// become U+FFFD instead of an exception.
std::string dump_text(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

/// Like json::dump(2), but an array of scalars stays on one line ([0, -9.81, 0]).
void write_indented(const json& value, int indent, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent + 2), ' ');
  if (value.is_object() && !value.empty()) {
    out += "{\n";
    std::size_t i = 0;
    for (const auto& [key, member] : value.items()) {
      out += pad + dump_text(json(key)) + ": ";
      write_indented(member, indent + 2, out);
      out += ++i < value.size() ? ",\n" : "\n";
    }
    out += std::string(static_cast<std::size_t>(indent), ' ') + "}";
  } else if (value.is_array() && !value.empty()) {
    const bool flat =
        std::none_of(value.begin(), value.end(), [](const json& v) { return v.is_structured(); });
    if (flat) {
      out += "[";
      for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + dump_text(value[i]);
      out += "]";
      return;
    }
    out += "[\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += pad;
      write_indented(value[i], indent + 2, out);
      out += i + 1 < value.size() ? ",\n" : "\n";
    }
    out += std::string(static_cast<std::size_t>(indent), ' ') + "]";
  } else {
    out += dump_text(value);
  }
}

}  // namespace

std::string normalized_scene_text(const json& normalized) {
  std::string out;
  write_indented(normalized, 0, out);
  return out + "\n";
}

}  // namespace simrun
