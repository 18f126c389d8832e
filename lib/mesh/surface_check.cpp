#include "mesh/surface_check.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace simrun {

void require_closed_manifold(const SurfaceMesh& surface, const std::string& source_name) {
  const int n = surface.num_vertices();
  require(surface.num_faces() > 0, source_name + ": expected a closed surface, found no faces");
  std::vector<std::pair<int, int>> edges;
  edges.reserve(3 * static_cast<std::size_t>(surface.num_faces()));
  for (int f = 0; f < surface.num_faces(); ++f) {
    for (int c = 0; c < 3; ++c) {
      const int a = surface.faces(f, c), b = surface.faces(f, (c + 1) % 3);
      if (a < 0 || a >= n || b < 0 || b >= n || a == b) {
        throw InputError(source_name + ": face " + std::to_string(f) + " (0-based) has vertices [" +
                         std::to_string(surface.faces(f, 0)) + ", " +
                         std::to_string(surface.faces(f, 1)) + ", " +
                         std::to_string(surface.faces(f, 2)) +
                         "], expected 3 distinct indices in 0.." + std::to_string(n - 1));
      }
      edges.emplace_back(std::min(a, b), std::max(a, b));
    }
  }
  std::sort(edges.begin(), edges.end());
  long bad = 0;
  std::pair<int, int> first_bad{-1, -1};
  std::size_t first_bad_uses = 0;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    if (j - i != 2) {
      if (bad == 0) {
        first_bad = edges[i];
        first_bad_uses = j - i;
      }
      ++bad;
    }
    i = j;
  }
  if (bad > 0) {
    throw InputError(source_name + ": expected a closed manifold surface (every edge shared by " +
                     "exactly 2 faces), found " + std::to_string(bad) +
                     " bad edge(s), e.g. edge (" + std::to_string(first_bad.first) + ", " +
                     std::to_string(first_bad.second) + ") (0-based vertex indices) used by " +
                     std::to_string(first_bad_uses) + " face(s)");
  }
  // Consistent orientation: the two faces at an edge traverse it in opposite directions. A
  // flipped face would make the enclosed volume (and target_tets' max volume) wrong.
  std::vector<std::pair<int, int>> directed;
  directed.reserve(edges.size());
  for (int f = 0; f < surface.num_faces(); ++f)
    for (int c = 0; c < 3; ++c)
      directed.emplace_back(surface.faces(f, c), surface.faces(f, (c + 1) % 3));
  std::sort(directed.begin(), directed.end());
  long same_direction = 0;
  std::pair<int, int> example{-1, -1};
  for (std::size_t i = 0; i + 1 < directed.size(); ++i)
    if (directed[i] == directed[i + 1]) {
      if (same_direction++ == 0) example = directed[i];
    }
  if (same_direction > 0) {
    throw InputError(source_name + ": the faces are not consistently oriented: " +
                     std::to_string(same_direction) + " edge(s) are traversed in the same " +
                     "direction by both their faces, e.g. edge (" + std::to_string(example.first) +
                     ", " + std::to_string(example.second) +
                     ") (0-based vertex indices); re-orient the faces coherently (e.g. MeshLab's "
                     "\"Re-Orient all faces coherently\") and try again");
  }
}

double enclosed_volume(const SurfaceMesh& surface) {
  double vol6 = 0.0;
  for (int f = 0; f < surface.num_faces(); ++f) {
    const Vec3 a = surface.vertices.row(surface.faces(f, 0));
    const Vec3 b = surface.vertices.row(surface.faces(f, 1));
    const Vec3 c = surface.vertices.row(surface.faces(f, 2));
    vol6 += a.dot(b.cross(c));
  }
  return std::abs(vol6) / 6.0;
}

}  // namespace simrun
