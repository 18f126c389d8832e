#pragma once
/// Linear tetrahedral mesh: rest positions, connectivity and an optional per-element region tag.
#include <array>
#include <vector>

#include "core/types.hpp"

namespace simrun {

struct TetMesh {
  MatX3 vertices;            ///< rest positions X, one row per vertex [m]
  MatX4i tets;               ///< vertex indices, positively oriented after orient_tets()
  std::vector<int> regions;  ///< per-tet region attribute (TetGen/Gmsh/Medit tag); empty = none
  /// Mass-spring graph edges (springs), vertex pairs; empty for tet meshes. A rope or cloth is
  /// a "mesh" with vertices and edges and no tets.
  std::vector<std::array<int, 2>> edges;

  int num_vertices() const { return static_cast<int>(vertices.rows()); }
  int num_tets() const { return static_cast<int>(tets.rows()); }
};

/// Closed triangle surface (input to TetGen, output as OBJ).
struct SurfaceMesh {
  MatX3 vertices;
  MatX3i faces;  ///< counter-clockwise seen from outside

  int num_vertices() const { return static_cast<int>(vertices.rows()); }
  int num_faces() const { return static_cast<int>(faces.rows()); }
};

}  // namespace simrun
