#include "mesh/boundary.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>

namespace simrun {

namespace {

// Face opposite local vertex f, ordered so its normal points away from that vertex when the tet
// is positively oriented.
constexpr int kFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

struct FaceEntry {
  std::array<int, 3> key;  // sorted vertex indices
  int tet, face;
};

/// The four faces of every tet, sorted by vertex triple (equal triples adjacent), then by tet.
std::vector<FaceEntry> sorted_faces(const TetMesh& mesh) {
  std::vector<FaceEntry> entries;
  entries.reserve(4 * static_cast<std::size_t>(mesh.num_tets()));
  for (int t = 0; t < mesh.num_tets(); ++t) {
    for (int f = 0; f < 4; ++f) {
      std::array<int, 3> key{mesh.tets(t, kFace[f][0]), mesh.tets(t, kFace[f][1]),
                             mesh.tets(t, kFace[f][2])};
      std::sort(key.begin(), key.end());
      entries.push_back({key, t, f});
    }
  }
  std::sort(entries.begin(), entries.end(), [](const FaceEntry& a, const FaceEntry& b) {
    return a.key != b.key ? a.key < b.key : a.tet * 4 + a.face < b.tet * 4 + b.face;
  });
  return entries;
}

}  // namespace

MatX3i boundary_faces(const TetMesh& mesh) {
  const std::vector<FaceEntry> entries = sorted_faces(mesh);
  std::vector<std::pair<int, int>> single;  // (tet, face) used once
  for (std::size_t i = 0; i < entries.size();) {
    std::size_t j = i + 1;
    while (j < entries.size() && entries[j].key == entries[i].key) ++j;
    if (j - i == 1) single.emplace_back(entries[i].tet, entries[i].face);
    i = j;
  }
  std::sort(single.begin(), single.end());
  MatX3i faces(static_cast<long>(single.size()), 3);
  for (std::size_t i = 0; i < single.size(); ++i) {
    const auto [t, f] = single[i];
    for (int c = 0; c < 3; ++c) faces(static_cast<long>(i), c) = mesh.tets(t, kFace[f][c]);
  }
  return faces;
}

std::vector<OversharedFace> overshared_faces(const TetMesh& mesh) {
  const std::vector<FaceEntry> entries = sorted_faces(mesh);
  std::vector<OversharedFace> found;
  for (std::size_t i = 0; i < entries.size();) {
    std::size_t j = i + 1;
    while (j < entries.size() && entries[j].key == entries[i].key) ++j;
    if (j - i > 2) {
      OversharedFace face{entries[i].key, {}};
      for (std::size_t k = i; k < j; ++k) face.tets.push_back(entries[k].tet);
      found.push_back(face);
    }
    i = j;
  }
  return found;
}

std::vector<int> boundary_vertices(const TetMesh& mesh) {
  const MatX3i faces = boundary_faces(mesh);
  std::vector<int> v(faces.data(), faces.data() + faces.size());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

VecX boundary_vertex_areas(const TetMesh& mesh) {
  VecX area = VecX::Zero(mesh.num_vertices());
  const MatX3i faces = boundary_faces(mesh);
  for (Eigen::Index f = 0; f < faces.rows(); ++f) {
    const Vec3 a = mesh.vertices.row(faces(f, 0)), b = mesh.vertices.row(faces(f, 1)),
               c = mesh.vertices.row(faces(f, 2));
    const double third = (b - a).cross(c - a).norm() / 6.0;  // |triangle| / 3
    for (int k = 0; k < 3; ++k) area[faces(f, k)] += third;
  }
  return area;
}

}  // namespace simrun
