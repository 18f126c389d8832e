#include "mesh/orient.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.hpp"

namespace simrun {
namespace {

std::string describe(const std::string& source, int t, const MatX4i& tets) {
  std::ostringstream s;
  s << source << ": tetrahedron " << t << " (0-based) with vertices [" << tets(t, 0) << ", "
    << tets(t, 1) << ", " << tets(t, 2) << ", " << tets(t, 3) << "]";
  return s.str();
}

}  // namespace

double signed_volume6(const MatX3& vertices, const MatX4i& tets, int t) {
  const Vec3 x0 = vertices.row(tets(t, 0));
  Mat3 d;
  for (int c = 0; c < 3; ++c) d.col(c) = vertices.row(tets(t, c + 1)).transpose() - x0;
  return d.determinant();
}

int orient_tets(TetMesh& mesh, const std::string& source_name) {
  const int n = mesh.num_vertices();
  if (!mesh.regions.empty() && static_cast<int>(mesh.regions.size()) != mesh.num_tets()) {
    throw InputError(source_name + ": expected one region tag per tetrahedron (" +
                     std::to_string(mesh.num_tets()) + "), found " +
                     std::to_string(mesh.regions.size()));
  }
  int flipped = 0;
  for (int t = 0; t < mesh.num_tets(); ++t) {
    for (int a = 0; a < 4; ++a) {
      const int v = mesh.tets(t, a);
      if (v < 0 || v >= n) {
        throw InputError(describe(source_name, t, mesh.tets) + ": vertex index " +
                         std::to_string(v) + " is out of range, expected 0.." +
                         std::to_string(n - 1));
      }
      for (int b = 0; b < a; ++b) {
        if (mesh.tets(t, b) == v) {
          throw InputError(describe(source_name, t, mesh.tets) + ": vertex " + std::to_string(v) +
                           " is repeated, expected 4 distinct vertices");
        }
      }
    }
    double longest2 = 0.0;
    for (int a = 0; a < 4; ++a) {
      for (int b = a + 1; b < 4; ++b) {
        longest2 = std::max(
            longest2, (mesh.vertices.row(mesh.tets(t, a)) - mesh.vertices.row(mesh.tets(t, b)))
                          .squaredNorm());
      }
    }
    const double vol6 = signed_volume6(mesh, t);
    // Relative threshold: a sliver this flat has no usable stiffness in double precision.
    if (!(std::abs(vol6) > 1e-12 * longest2 * std::sqrt(longest2))) {
      std::ostringstream s;
      s << describe(source_name, t, mesh.tets) << " is degenerate: 6 * volume = " << vol6
        << ", expected |6V| > 1e-12 * (longest edge " << std::sqrt(longest2) << ")^3";
      throw InputError(s.str());
    }
    if (vol6 < 0) {
      std::swap(mesh.tets(t, 2), mesh.tets(t, 3));
      ++flipped;
    }
  }
  return flipped;
}

}  // namespace simrun
