#include "mesh/spring_graph.hpp"

#include <string>

#include "core/error.hpp"

namespace simrun {

TetMesh make_rope(int particles, double length) {
  require(particles >= 2,
          "rope: expected at least 2 particles, found " + std::to_string(particles));
  require(length > 0.0, "rope: expected a positive length, found " + std::to_string(length));
  TetMesh mesh;
  mesh.vertices = MatX3::Zero(particles, 3);
  for (int i = 0; i < particles; ++i) mesh.vertices(i, 1) = -length * i / (particles - 1);
  mesh.tets.resize(0, 4);
  for (int i = 0; i + 1 < particles; ++i) mesh.edges.push_back({i, i + 1});
  return mesh;
}

TetMesh make_cloth(const Eigen::Vector2d& size, const Eigen::Vector2i& particles, bool shear) {
  const int nx = particles[0], nz = particles[1];
  require(nx >= 2 && nz >= 2, "cloth: expected at least 2 x 2 particles, found " +
                                  std::to_string(nx) + " x " + std::to_string(nz));
  require(size[0] > 0.0 && size[1] > 0.0, "cloth: expected a positive size");
  TetMesh mesh;
  mesh.vertices = MatX3::Zero(nx * nz, 3);
  auto id = [nx](int i, int j) { return i + nx * j; };
  for (int j = 0; j < nz; ++j) {
    for (int i = 0; i < nx; ++i) {
      mesh.vertices(id(i, j), 0) = size[0] * i / (nx - 1);
      mesh.vertices(id(i, j), 2) = size[1] * j / (nz - 1);
    }
  }
  mesh.tets.resize(0, 4);
  for (int j = 0; j < nz; ++j)
    for (int i = 0; i + 1 < nx; ++i) mesh.edges.push_back({id(i, j), id(i + 1, j)});
  for (int j = 0; j + 1 < nz; ++j)
    for (int i = 0; i < nx; ++i) mesh.edges.push_back({id(i, j), id(i, j + 1)});
  if (shear) {
    for (int j = 0; j + 1 < nz; ++j) {
      for (int i = 0; i + 1 < nx; ++i) {
        mesh.edges.push_back({id(i, j), id(i + 1, j + 1)});
        mesh.edges.push_back({id(i + 1, j), id(i, j + 1)});
      }
    }
  }
  return mesh;
}

}  // namespace simrun
