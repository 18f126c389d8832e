#include "mesh/spring_graph.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"

namespace simrun {
namespace {

TEST(SpringGraph, RopeIsAChainAlongMinusY) {
  const TetMesh rope = make_rope(5, 2.0);
  EXPECT_EQ(rope.num_vertices(), 5);
  EXPECT_EQ(rope.num_tets(), 0);
  ASSERT_EQ(rope.edges.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(rope.edges[i][0], i);
    EXPECT_EQ(rope.edges[i][1], i + 1);
  }
  EXPECT_DOUBLE_EQ(rope.vertices(0, 1), 0.0);
  EXPECT_DOUBLE_EQ(rope.vertices(4, 1), -2.0);
  EXPECT_DOUBLE_EQ(rope.vertices(2, 1), -1.0);
  EXPECT_THROW(make_rope(1, 1.0), InputError);
}

TEST(SpringGraph, ElevenByElevenClothHas420Springs) {
  const TetMesh cloth = make_cloth(Eigen::Vector2d(1, 1), Eigen::Vector2i(11, 11), true);
  EXPECT_EQ(cloth.num_vertices(), 121);
  EXPECT_EQ(cloth.num_tets(), 0);
  // Structural 2 * 11 * 10 = 220, shear 2 * 10 * 10 = 200.
  EXPECT_EQ(cloth.edges.size(), 420u);
  std::set<std::pair<int, int>> unique;
  for (const auto& e : cloth.edges) unique.insert({std::min(e[0], e[1]), std::max(e[0], e[1])});
  EXPECT_EQ(unique.size(), 420u);
  double shortest = 1e9, longest = 0;
  for (const auto& e : cloth.edges) {
    const double l = (cloth.vertices.row(e[0]) - cloth.vertices.row(e[1])).norm();
    shortest = std::min(shortest, l);
    longest = std::max(longest, l);
  }
  EXPECT_NEAR(shortest, 0.1, 1e-12);
  EXPECT_NEAR(longest, 0.1 * std::sqrt(2.0), 1e-12);
  EXPECT_EQ(make_cloth(Eigen::Vector2d(2, 1), Eigen::Vector2i(11, 11), false).edges.size(), 220u);
  EXPECT_EQ(make_cloth(Eigen::Vector2d(2, 1), Eigen::Vector2i(3, 2), true).edges.size(),
            2u * 2 + 3u * 1 + 2u * 2);
  EXPECT_NEAR(cloth.vertices.col(1).cwiseAbs().maxCoeff(), 0.0, 0.0);  // horizontal, y = 0
  EXPECT_THROW(make_cloth(Eigen::Vector2d(1, 1), Eigen::Vector2i(1, 4), true), InputError);
}

}  // namespace
}  // namespace simrun
