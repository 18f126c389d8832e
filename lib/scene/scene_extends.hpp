#pragma once
/// Composable scenes: `"extends": "base.json"` and relative paths.
#include <filesystem>
#include <nlohmann/json.hpp>

namespace simrun {

/// `child` merged onto `base`: objects are merged key by key (recursively), the child wins;
/// anything else (arrays, numbers, strings, null) in the child replaces the base value whole.
nlohmann::json merge_json(nlohmann::json base, const nlohmann::json& child);

/// Makes the relative paths of a scene absolute against `folder` (lexically normalized):
/// objects[*].mesh.file and output.dir. Values of the wrong type are left for validation to
/// report. Absolute paths are unchanged, so applying it twice is harmless.
void resolve_scene_paths(nlohmann::json& scene, const std::filesystem::path& folder);

/// Longest chain of scene files extending each other that read_scene_with_extends() follows.
constexpr std::size_t kMaxExtendsChain = 32;

/// Reads a scene file and, recursively, the files it extends; each file's relative paths are
/// resolved against its own folder before merging (merge_json, the extending file wins). The
/// result has no "extends" key. Throws InputError for a missing, non-regular (/dev/zero) or
/// malformed file (naming the file that extends it), a non-object top level, a non-string
/// "extends", a cycle (listing it), or a chain longer than kMaxExtendsChain.
nlohmann::json read_scene_with_extends(const std::filesystem::path& file);

}  // namespace simrun
