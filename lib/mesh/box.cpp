#include "mesh/box.hpp"

#include <array>
#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "mesh/orient.hpp"

namespace simrun {
namespace {

using Corner = std::array<int, 3>;  // local (a, b, c) in {0, 1}^3

// Tets of one cube in local corners. Kuhn: one tet per axis permutation, walking from corner
// (0,0,0) to (1,1,1) along the edges. Five-split: cut off the four corners of one parity, keep
// the central tet of the other parity; `even` says which corners are cut off.
std::vector<std::array<Corner, 4>> cube_tets(int tets_per_cube, bool cut_even) {
  std::vector<std::array<Corner, 4>> out;
  if (tets_per_cube == 6) {
    const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (const auto& p : perms) {
      std::array<Corner, 4> tet{};
      Corner c{0, 0, 0};
      tet[0] = c;
      for (int s = 0; s < 3; ++s) {
        c[p[s]] = 1;
        tet[s + 1] = c;
      }
      out.push_back(tet);
    }
    return out;
  }
  std::array<Corner, 4> central{};
  int n_central = 0;
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 2; ++b) {
      for (int c = 0; c < 2; ++c) {
        const bool even = (a + b + c) % 2 == 0;
        if (even != cut_even) {
          central[n_central++] = {a, b, c};
          continue;
        }
        std::array<Corner, 4> tet{};
        tet[0] = {a, b, c};
        for (int axis = 0; axis < 3; ++axis) {
          tet[axis + 1] = {a, b, c};
          tet[axis + 1][axis] = 1 - tet[axis + 1][axis];
        }
        out.push_back(tet);
      }
    }
  }
  out.push_back(central);
  return out;
}

}  // namespace

TetMesh make_box(const Vec3& size, const Eigen::Vector3i& cells, int tets_per_cube) {
  for (int d = 0; d < 3; ++d) {
    if (!(size(d) > 0.0) || !std::isfinite(size(d))) {
      std::ostringstream s;
      s << "box size[" << d << "]: expected a positive finite length, found " << size(d);
      throw InputError(s.str());
    }
    require(cells(d) >= 1, "box cells[" + std::to_string(d) +
                               "]: expected a positive cell count, found " +
                               std::to_string(cells(d)));
  }
  require(tets_per_cube == 5 || tets_per_cube == 6,
          "box split: expected 5 or 6 tets per cube, found " + std::to_string(tets_per_cube));
  const long n_cells = static_cast<long>(cells(0)) * cells(1) * cells(2);
  require(n_cells * tets_per_cube < (1L << 30), "box cells: expected fewer than 2^30 tets, found " +
                                                    std::to_string(n_cells * tets_per_cube));

  const int nx = cells(0) + 1, ny = cells(1) + 1, nz = cells(2) + 1;
  auto index = [&](int i, int j, int k) { return i + nx * (j + ny * k); };
  TetMesh mesh;
  mesh.vertices.resize(static_cast<long>(nx) * ny * nz, 3);
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        mesh.vertices.row(index(i, j, k)) << size(0) * i / cells(0), size(1) * j / cells(1),
            size(2) * k / cells(2);
      }
    }
  }
  mesh.tets.resize(n_cells * tets_per_cube, 4);
  const auto even_cube = cube_tets(tets_per_cube, true);
  const auto odd_cube = cube_tets(tets_per_cube, false);
  int t = 0;
  for (int k = 0; k < cells(2); ++k) {
    for (int j = 0; j < cells(1); ++j) {
      for (int i = 0; i < cells(0); ++i) {
        const auto& local = (i + j + k) % 2 == 0 ? even_cube : odd_cube;
        for (const auto& tet : local) {
          for (int a = 0; a < 4; ++a)
            mesh.tets(t, a) = index(i + tet[a][0], j + tet[a][1], k + tet[a][2]);
          ++t;
        }
      }
    }
  }
  orient_tets(mesh, "box");
  return mesh;
}

}  // namespace simrun
