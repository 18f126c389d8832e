#include "mesh/selection.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace simrun {
namespace {

// Axis and direction of a side name such as "-x"; throws for anything else.
std::pair<int, int> parse_side(const std::string& side) {
  if (side.size() == 2 && (side[0] == '-' || side[0] == '+') && side[1] >= 'x' && side[1] <= 'z')
    return {side[1] - 'x', side[0] == '-' ? -1 : 1};
  throw InputError("selection side: expected one of -x +x -y +y -z +z, found '" + side + "'");
}

bool inside(const Vec3& p, const Selection& s) {
  switch (s.kind) {
    case Selection::Kind::kBox:
      return (p.array() >= s.min.array()).all() && (p.array() <= s.max.array()).all();
    case Selection::Kind::kSphere:
      return (p - s.center).squaredNorm() <= s.radius * s.radius;
    default:
      return true;
  }
}

}  // namespace

std::vector<int> select_vertices(const MatX3& x, const Selection& s) {
  const int n = static_cast<int>(x.rows());
  std::vector<int> out;
  switch (s.kind) {
    case Selection::Kind::kRegion:
      throw InputError("selection by region needs the tets: use select_vertices(mesh, s)");
    case Selection::Kind::kVertices:
      for (std::size_t i = 0; i < s.vertices.size(); ++i) {
        const int v = s.vertices[i];
        if (v < 0 || v >= n) {
          throw InputError("selection vertices[" + std::to_string(i) + "]: vertex index " +
                           std::to_string(v) + " is out of range, expected 0.." +
                           std::to_string(n - 1) + " (the mesh has " + std::to_string(n) +
                           " vertices)");
        }
        out.push_back(v);
      }
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      return out;
    case Selection::Kind::kSide: {
      const auto [axis, dir] = parse_side(s.side);
      if (n == 0) return out;
      const double plane = dir < 0 ? x.col(axis).minCoeff() : x.col(axis).maxCoeff();
      for (int i = 0; i < n; ++i)
        if (std::abs(x(i, axis) - plane) <= s.tol) out.push_back(i);
      return out;
    }
    default:
      for (int i = 0; i < n; ++i)
        if (inside(x.row(i).transpose(), s)) out.push_back(i);
      return out;
  }
}

std::vector<int> select_vertices(const TetMesh& mesh, const Selection& s) {
  if (s.kind != Selection::Kind::kRegion) return select_vertices(mesh.vertices, s);
  std::vector<int> out;
  for (int t : select_tets(mesh, s))
    for (int c = 0; c < 4; ++c) out.push_back(mesh.tets(t, c));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> select_tets(const TetMesh& mesh, const Selection& s) {
  std::vector<int> out;
  if (s.kind == Selection::Kind::kRegion) {
    for (int t = 0; t < mesh.num_tets(); ++t)
      if (t < static_cast<int>(mesh.regions.size()) && mesh.regions[t] == s.region)
        out.push_back(t);
    return out;
  }
  if (s.kind == Selection::Kind::kVertices || s.kind == Selection::Kind::kSide) {
    std::vector<char> selected(mesh.num_vertices(), 0);
    for (int v : select_vertices(mesh.vertices, s)) selected[v] = 1;
    for (int t = 0; t < mesh.num_tets(); ++t) {
      bool all = true;
      for (int c = 0; c < 4; ++c) all = all && selected[mesh.tets(t, c)];
      if (all) out.push_back(t);
    }
    return out;
  }
  for (int t = 0; t < mesh.num_tets(); ++t) {
    Vec3 centroid = Vec3::Zero();
    for (int c = 0; c < 4; ++c) centroid += mesh.vertices.row(mesh.tets(t, c)).transpose();
    if (inside(centroid / 4.0, s)) out.push_back(t);
  }
  return out;
}

}  // namespace simrun
