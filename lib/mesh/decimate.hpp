#pragma once
/// Surface simplification for coarse meshes of a detailed surface (EigenFit's coarse/fine pairs:
/// TetGen keeps every surface triangle, so a coarse tet mesh needs a coarser surface first).
/// Quadric-error-metric edge collapse (Garland and Heckbert, SIGGRAPH 1997): each vertex carries
/// the sum of the squared-distance quadrics of its original faces' planes, an edge collapses to
/// the point minimizing the summed quadric, cheapest first. A collapse is skipped when it would
/// break the closed 2-manifold (the link condition: the edge's endpoints share exactly the two
/// vertices opposite it), flip or degenerate a face, or leave fewer than 4 vertices.
#include "mesh/tet_mesh.hpp"

namespace simrun {

struct DecimationResult {
  SurfaceMesh surface;
  int collapses = 0;
  double max_error = 0.0;  ///< largest sqrt(quadric cost) of a collapse [m] (about a distance)
};

/// Simplifies a closed, consistently oriented triangle surface to at most `target_faces`
/// faces (fewer collapses happen when every remaining edge is blocked by the checks above).
DecimationResult decimate_surface(const SurfaceMesh& surface, int target_faces);

}  // namespace simrun
