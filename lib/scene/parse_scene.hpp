#pragma once
/// Scene loading: file -> "extends" -> `--set` overrides -> schema validation with defaults ->
/// semantic checks -> SceneConfig. Every problem found is reported at once in one InputError,
/// one line per problem: "FILE: /json/pointer: expected ..., found ...".
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scene/scene_config.hpp"

namespace simrun {

/// integrator.newton.max_iterations when a scene with "contact" does not give it (20 without).
inline constexpr int kContactNewtonIterations = 100;

/// The normalized scene of `file`: "extends" chains merged (scene_extends.hpp), `overrides`
/// ("/json/pointer=VALUE", scene_overrides.hpp) applied, validated against the embedded schema,
/// every default filled ("name" defaults to the file's stem, object names to "object<i>", the
/// Newton cap to 20, or kContactNewtonIterations with "contact"), and
/// relative paths (mesh files, output.dir) made absolute against the folder of the file that
/// wrote them (for --set values and defaults: the scene file's folder).
/// Throws InputError listing every problem.
nlohmann::json load_normalized_scene(const std::filesystem::path& file,
                                     const std::vector<std::string>& overrides = {});

/// load_normalized_scene + conversion to structs; SceneConfig::source is `file` (absolute) and
/// SceneConfig::normalized the normalized JSON.
SceneConfig parse_scene(const std::filesystem::path& file,
                        const std::vector<std::string>& overrides = {});

/// Indented text of a normalized scene, ending in a newline (`simrun validate`, run.json).
std::string normalized_scene_text(const nlohmann::json& normalized);
inline std::string normalized_scene_text(const SceneConfig& scene) {
  return normalized_scene_text(scene.normalized);
}

}  // namespace simrun
