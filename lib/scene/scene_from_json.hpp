#pragma once
/// Conversion of a normalized scene (validated, defaults filled, paths absolute) to SceneConfig.
#include <nlohmann/json.hpp>

#include "mesh/selection.hpp"
#include "scene/scene_config.hpp"

namespace simrun {

/// A schema-valid "select" object ({"side": "-x", "tol": 1e-6}, {"box": {"min", "max"}},
/// {"sphere": {"center", "radius"}}, {"vertices": [..]}, {"all": true}) as a Selection.
Selection selection_from_json(const nlohmann::json& select);

/// The structs of a normalized scene; `normalized` is copied into SceneConfig::normalized.
/// Expects what load_normalized_scene() produces: a value of the wrong shape is a bug and throws
/// nlohmann::json::exception.
SceneConfig scene_from_json(const nlohmann::json& normalized);

}  // namespace simrun
