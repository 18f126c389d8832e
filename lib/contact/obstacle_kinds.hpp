#pragma once
/// The obstacle kinds simrun has, by their scene names (the keys of an "obstacles" entry): the
/// schema lists the same names (tests/scene/schema_registry_test.cpp).
#include <string>
#include <vector>

namespace simrun {

/// "plane" (contact/penalty_plane.hpp), "sphere" (contact/sphere_obstacle.hpp), "mesh" (a
/// static triangle surface of IPC contact, scene/obstacle_surfaces.hpp).
inline std::vector<std::string> obstacle_kinds() { return {"plane", "sphere", "mesh"}; }

}  // namespace simrun
