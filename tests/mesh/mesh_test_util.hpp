#pragma once
/// Shared helpers of the mesh tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <string>

#include "core/error.hpp"
#include "mesh/orient.hpp"
#include "mesh/tet_mesh.hpp"
#include "support/test_paths.hpp"

namespace simrun::test {

/// tests/data/meshes/<name> (the tests never read ../shared).
inline std::filesystem::path mesh_data(const std::string& name) {
  return std::filesystem::path(SIMRUN_TEST_DATA) / "meshes" / name;
}

/// The message of the InputError thrown by f(), or a test failure if none is thrown.
template <class F>
std::string input_error_message(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an InputError";
  return {};
}

inline double total_volume(const TetMesh& mesh) {
  double v = 0;
  for (int t = 0; t < mesh.num_tets(); ++t) v += signed_volume6(mesh, t) / 6.0;
  return v;
}

inline double min_volume6(const TetMesh& mesh) {
  double v = 1e300;
  for (int t = 0; t < mesh.num_tets(); ++t) v = std::min(v, signed_volume6(mesh, t));
  return v;
}

/// How many tets use each triangle (sorted vertex triple).
inline std::map<std::array<int, 3>, int> face_use(const TetMesh& mesh) {
  std::map<std::array<int, 3>, int> use;
  for (int t = 0; t < mesh.num_tets(); ++t) {
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> f{};
      for (int c = 0, k = 0; c < 4; ++c)
        if (c != skip) f[k++] = mesh.tets(t, c);
      std::sort(f.begin(), f.end());
      ++use[f];
    }
  }
  return use;
}

}  // namespace simrun::test
