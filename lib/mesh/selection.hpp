#pragma once
/// Geometric selections of vertices or elements (for Dirichlet constraints and material regions).
#include <string>
#include <vector>

#include "mesh/tet_mesh.hpp"

namespace simrun {

struct Selection {
  enum class Kind {
    kAll,       ///< everything
    kSide,      ///< vertices within `tol` of a bounding-box face, e.g. side = "-x"
    kBox,       ///< axis-aligned box [min, max]
    kSphere,    ///< ball of `radius` around `center`
    kVertices,  ///< explicit vertex indices (0-based)
    kRegion,    ///< tets whose region attribute equals `region` (their vertices)
  };
  Kind kind = Kind::kAll;
  std::string side;                             ///< "-x" "+x" "-y" "+y" "-z" "+z" (kSide)
  double tol = 1e-6;                            ///< absolute distance tolerance [m] (kSide)
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();  ///< kBox
  Vec3 center = Vec3::Zero();                   ///< kSphere
  double radius = 0.0;                          ///< kSphere
  std::vector<int> vertices;                    ///< kVertices
  int region = 0;                               ///< kRegion
};

/// Sorted indices of the vertices of `x` inside the selection. Box and sphere tests are
/// inclusive. Throws InputError for an out-of-range vertex index or an unknown side name.
std::vector<int> select_vertices(const MatX3& x, const Selection& s);

/// Like select_vertices(mesh.vertices, s), and for kRegion the vertices of the tets carrying the
/// region attribute.
std::vector<int> select_vertices(const TetMesh& mesh, const Selection& s);

/// Sorted indices of the tets whose centroid is inside the selection; for kRegion the tets with
/// that region attribute; for kVertices and kSide,
/// the tets whose four vertices are all selected.
std::vector<int> select_tets(const TetMesh& mesh, const Selection& s);

}  // namespace simrun
