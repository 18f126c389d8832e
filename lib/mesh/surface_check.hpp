#pragma once
/// Checks on triangle surfaces before they are handed to TetGen.
#include <string>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Throws InputError naming `source_name` unless every face has three distinct in-range vertex
/// indices and every undirected edge is used by exactly two faces (closed, edge-manifold). The
/// message names one offending edge by its vertex indices and how many such edges there are.
void require_closed_manifold(const SurfaceMesh& surface, const std::string& source_name);

/// Volume enclosed by a closed surface (divergence theorem; absolute value, so either
/// consistent orientation gives the same result).
double enclosed_volume(const SurfaceMesh& surface);

}  // namespace simrun
