// The system pattern built from vertex adjacency equals the union of every tet's and stencil's
// DOF couplings (a triplet reference), and the compact element slots address the same entries
// as a search in that pattern.
#include "fem/tet_pattern.hpp"

#include <gtest/gtest.h>

#include "mesh/box.hpp"

namespace simrun {
namespace {

SpMat reference_pattern(const MatX4i& tets, const DofMap& dofs, const StencilList& stencils) {
  std::vector<Eigen::Triplet<double, int>> entries;
  auto couple = [&](const std::vector<int>& vertices) {
    for (int a : vertices)
      for (int b : vertices)
        for (int i = 0; i < 3; ++i)
          for (int k = 0; k < 3; ++k) {
            const int r = dofs.free_index(3 * a + i), c = dofs.free_index(3 * b + k);
            if (r >= 0 && c >= 0) entries.emplace_back(r, c, 1.0);
          }
  };
  for (int e = 0; e < tets.rows(); ++e) couple({tets(e, 0), tets(e, 1), tets(e, 2), tets(e, 3)});
  for (const Stencil& s : stencils) {
    std::vector<int> v;
    for (int x : s)
      if (x >= 0) v.push_back(x);
    couple(v);
  }
  for (int i = 0; i < dofs.num_free(); ++i) entries.emplace_back(i, i, 1.0);
  SpMat A(dofs.num_free(), dofs.num_free());
  A.setFromTriplets(entries.begin(), entries.end());
  A.makeCompressed();
  return A;
}

TEST(TetPattern, EqualsTheUnionOfElementAndStencilCouplings) {
  const TetMesh mesh = make_box(Vec3(1, 1, 0.5), Eigen::Vector3i(3, 2, 1), 6);
  const DofMap dofs(mesh.num_vertices(), {0, 5, 7});
  const StencilList stencils = {{1, mesh.num_vertices() - 1, -1, -1}, {2, 3, 4, 6}, {0, 8, -1, -1}};
  const SpMat A = build_tet_pattern(mesh.tets, dofs, stencils);
  const SpMat R = reference_pattern(mesh.tets, dofs, stencils);
  ASSERT_EQ(A.nonZeros(), R.nonZeros());
  EXPECT_TRUE(
      std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1, R.outerIndexPtr()));
  EXPECT_TRUE(std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), R.innerIndexPtr()));
}

TEST(TetSlots, AddressTheEntriesOfEachElementBlock) {
  const TetMesh mesh = make_box(Vec3(1, 1, 0.5), Eigen::Vector3i(3, 2, 1), 5);
  const DofMap dofs(mesh.num_vertices(), {0, 5, 7});
  const SpMat pattern = build_tet_pattern(mesh.tets, dofs);
  const TetSlots slots(mesh.tets, dofs, pattern);
  for (int e = 0; e < mesh.num_tets(); ++e) {
    // A block whose entry (r, c) is 1000 r + c + 1 lands where find_slot says.
    Mat12 block;
    for (int r = 0; r < 12; ++r)
      for (int c = 0; c < 12; ++c) block(r, c) = 1000.0 * r + c + 1;
    std::vector<double> values(pattern.nonZeros(), 0.0);
    slots.add(e, block, values.data());
    std::vector<double> expected(pattern.nonZeros(), 0.0);
    for (int r = 0; r < 12; ++r)
      for (int c = 0; c < 12; ++c) {
        const int row = dofs.free_index(3 * mesh.tets(e, r / 3) + r % 3);
        const int col = dofs.free_index(3 * mesh.tets(e, c / 3) + c % 3);
        if (row >= 0 && col >= 0) expected[find_slot(pattern, row, col)] += block(r, c);
      }
    EXPECT_EQ(values, expected) << "element " << e;
  }
}

}  // namespace
}  // namespace simrun
