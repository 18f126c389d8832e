#pragma once
/// Static triangle-mesh obstacles of IPC contact ("obstacles": [{"mesh": {"file": ...}}]): read,
/// checked, placed, and appended to the merged objects as fixed vertices (no tets, no mass, a
/// Dirichlet group without motion), so that positions, frames and the contact terms see them
/// in the one full vertex numbering.
#include <string>
#include <vector>

#include "scene/merged_objects.hpp"
#include "scene/scene_config.hpp"

namespace simrun {

/// Reads the scene's mesh obstacles and appends them to `objects` (vertices after every
/// object's, in obstacles order; objects.obstacle_surfaces gets their faces in full ids).
/// Throws InputError naming the file and the JSON pointer for a scene without "contact", an
/// unreadable file, a file with no triangle, a degenerate triangle or an edge shared by more than
/// two triangles (not a surface).
void append_obstacle_surfaces(const SceneConfig& scene, MergedObjects& objects,
                              std::vector<std::string>& notes);

}  // namespace simrun
