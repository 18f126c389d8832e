#pragma once
/// Quality tetrahedral meshing of a closed surface with TetGen.
#include <string>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Tetrahedralizes the volume bounded by `surface` with TetGen (switches p, q<quality_ratio>,
/// a<max_volume>, A, z, Q: quiet, never exits). quality_ratio = 0 disables quality refinement,
/// otherwise it must be >= 1; max_volume = 0 is unbounded; target_tets > 0 overrides max_volume
/// with enclosed volume / target_tets. That bounds tet size only: TetGen keeps every surface
/// triangle, so a finely triangulated surface gives many more tets than target_tets.
/// Regions from TetGen's A switch (one tag per enclosed region) go into TetMesh::regions.
/// Throws InputError naming `source_name` for bad options, for a surface that is not closed and
/// manifold (see require_closed_manifold) or when TetGen fails (e.g. self-intersections). Tets come
/// out positively oriented.
TetMesh tetrahedralize(const SurfaceMesh& surface, double quality_ratio, double max_volume,
                       int target_tets, const std::string& source_name);

}  // namespace simrun
