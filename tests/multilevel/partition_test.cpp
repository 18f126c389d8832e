/// Stiffness- and geometry-aware k-means partition (multilevel/partition.hpp).
#include "multilevel/partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "core/error.hpp"
#include "mesh/box.hpp"
#include "multilevel/scalar_operators.hpp"

namespace simrun {
namespace {

/// Mean x of a tet's vertices.
double barycentre_x(const TetMesh& mesh, int e) {
  double x = 0.0;
  for (int a = 0; a < 4; ++a) x += 0.25 * mesh.vertices(mesh.tets(e, a), 0);
  return x;
}

/// A 2 x 1 x 1 box, material 0 (E = 1) for x < 1 and material 1 (E = 1000) for x > 1.
struct TwoMaterialBox {
  TetMesh mesh = make_box(Vec3(2, 1, 1), Eigen::Vector3i(16, 8, 8), 6);
  VecX youngs = VecX::Ones(mesh.num_tets());
  std::vector<int> material = std::vector<int>(mesh.num_tets(), 0);
  TwoMaterialBox() {
    for (int e = 0; e < mesh.num_tets(); ++e)
      if (barycentre_x(mesh, e) > 1.0) {
        youngs[e] = 1000.0;
        material[e] = 1;
      }
  }
};

/// Checks the invariants every result must have: labels in 0..count-1, none empty, each
/// partition face-connected, each centre a vertex of one of its own tets.
void expect_valid(const TetMesh& mesh, const MeshPartition& p) {
  ASSERT_EQ(static_cast<int>(p.element_label.size()), mesh.num_tets());
  ASSERT_GE(p.count(), 1);
  std::vector<int> size(p.count(), 0);
  for (int l : p.element_label) {
    ASSERT_GE(l, 0);
    ASSERT_LT(l, p.count());
    ++size[l];
  }
  for (int c = 0; c < p.count(); ++c) EXPECT_GT(size[c], 0) << "empty partition " << c;
  // Face connectivity: a flood fill from one tet of each partition reaches all of it.
  const auto adjacency = face_adjacent_tets(mesh.tets);
  std::vector<char> seen(mesh.num_tets(), 0);
  for (int c = 0; c < p.count(); ++c) {
    const int start = static_cast<int>(
        std::find(p.element_label.begin(), p.element_label.end(), c) - p.element_label.begin());
    std::vector<int> stack{start};
    seen[start] = 1;
    int reached = 0;
    while (!stack.empty()) {
      const int e = stack.back();
      stack.pop_back();
      ++reached;
      for (int f : adjacency[e])
        if (!seen[f] && p.element_label[f] == c) seen[f] = 1, stack.push_back(f);
    }
    EXPECT_EQ(reached, size[c]) << "partition " << c << " is not face-connected";
  }
  ASSERT_EQ(p.count(), static_cast<int>(p.center_vertex.size()));
  for (int c = 0; c < p.count(); ++c) {
    bool owned = false;
    for (int e = 0; e < mesh.num_tets() && !owned; ++e)
      owned = p.element_label[e] == c && (mesh.tets.row(e).array() == p.center_vertex[c]).any();
    EXPECT_TRUE(owned) << "centre of partition " << c << " is not a vertex of its tets";
  }
}

/// Fraction of tets whose partition holds tets of both materials.
double straddling_fraction(const MeshPartition& p, const std::vector<int>& material) {
  std::vector<std::set<int>> materials(p.count());
  for (std::size_t e = 0; e < material.size(); ++e)
    materials[p.element_label[e]].insert(material[e]);
  int straddling = 0;
  for (int l : p.element_label) straddling += materials[l].size() > 1;
  return static_cast<double>(straddling) / static_cast<double>(material.size());
}

TEST(Partition, UniformBoxGivesValidDeterministicPartitions) {
  const TetMesh mesh = make_box(Vec3(2, 1, 1), Eigen::Vector3i(12, 6, 6), 6);
  PartitionSettings settings;
  settings.clusters = 12;
  const VecX youngs = VecX::Constant(mesh.num_tets(), 1e6);
  const MeshPartition a = partition_tets(mesh.vertices, mesh.tets, youngs, {}, settings);
  expect_valid(mesh, a);
  EXPECT_LE(a.count(), settings.clusters);
  EXPECT_GE(a.count(), 2);
  EXPECT_GE(a.lloyd_iterations, 1);
  EXPECT_LE(a.lloyd_iterations, settings.max_iterations);
  const MeshPartition b = partition_tets(mesh.vertices, mesh.tets, youngs, {}, settings);
  EXPECT_EQ(a.element_label, b.element_label);
  EXPECT_EQ(a.center_vertex, b.center_vertex);
  EXPECT_EQ(a.lloyd_iterations, b.lloyd_iterations);
}

/// Per partition: its volume and whether most of it is stiff (material 1).
struct PartitionVolumes {
  std::vector<double> total;
  std::vector<bool> mostly_stiff;
  int stiff_count() const {
    return static_cast<int>(std::count(mostly_stiff.begin(), mostly_stiff.end(), true));
  }
};

PartitionVolumes partition_volumes(const TwoMaterialBox& box, const MeshPartition& p) {
  const VecX volume = tet_volumes(box.mesh.vertices, box.mesh.tets);
  std::vector<double> stiff(p.count(), 0.0);
  PartitionVolumes v{std::vector<double>(p.count(), 0.0), {}};
  for (int e = 0; e < box.mesh.num_tets(); ++e) {
    v.total[p.element_label[e]] += volume[e];
    if (box.material[e] == 1) stiff[p.element_label[e]] += volume[e];
  }
  for (int c = 0; c < p.count(); ++c) v.mostly_stiff.push_back(stiff[c] > 0.5 * v.total[c]);
  return v;
}

TEST(Partition, StiffHalfGetsLargerPartitions) {
  // Paper Figs. 10 and 16: stiffness-weighted geodesics are short in stiff regions, so their
  // clusters cover more volume.
  const TwoMaterialBox box;
  PartitionSettings settings;
  settings.clusters = 16;
  const MeshPartition p =
      partition_tets(box.mesh.vertices, box.mesh.tets, box.youngs, box.material, settings);
  expect_valid(box.mesh, p);
  const PartitionVolumes v = partition_volumes(box, p);
  double stiff_sum = 0.0, soft_sum = 0.0;
  int stiff_count = 0, soft_count = 0;
  for (int c = 0; c < p.count(); ++c) {
    (v.mostly_stiff[c] ? stiff_sum : soft_sum) += v.total[c];
    ++(v.mostly_stiff[c] ? stiff_count : soft_count);
  }
  ASSERT_GT(stiff_count, 0);
  ASSERT_GT(soft_count, 0);
  const double stiff_mean = stiff_sum / stiff_count, soft_mean = soft_sum / soft_count;
  // With equal halves and no stiffness awareness the means would match; require 2x.
  EXPECT_GT(stiff_mean, 2.0 * soft_mean) << stiff_count << " stiff, " << soft_count << " soft";
}

TEST(Partition, JumpPenaltyKeepsPartitionsOffTheInterface) {
  const TwoMaterialBox box;
  PartitionSettings settings;
  settings.clusters = 16;
  const MeshPartition plain =
      partition_tets(box.mesh.vertices, box.mesh.tets, box.youngs, box.material, settings);
  settings.jump_penalty = 0.25;  // the stressball's value (paper sec. 4)
  const MeshPartition penalised =
      partition_tets(box.mesh.vertices, box.mesh.tets, box.youngs, box.material, settings);
  expect_valid(box.mesh, penalised);
  const double before = straddling_fraction(plain, box.material);
  const double after = straddling_fraction(penalised, box.material);
  // Measured for seeds 1, 2, 3: 0.636, 0.634, 0.639 without and 0.522, 0.523, 0.521 with the
  // penalty (the stiff half's one big partition stops reaching into the soft half). Require
  // half of that gain; the stiff partition alone is half the tets, so 0.5 is the floor.
  EXPECT_LT(after, before - 0.05) << "straddling fraction without " << before << ", with " << after;
}

TEST(Partition, AContrastCapGivesTheStiffRegionMorePartitions) {
  // With the plain ratio (1000 here) heat crosses the stiff half at once, so its
  // geodesic distances collapse and it ends as few partitions; capping the weight at 10 keeps
  // distances there meaningful.
  const TwoMaterialBox box;
  PartitionSettings settings;
  settings.clusters = 16;
  const MeshPartition plain =
      partition_tets(box.mesh.vertices, box.mesh.tets, box.youngs, box.material, settings);
  settings.contrast_cap = 10.0;
  const MeshPartition capped =
      partition_tets(box.mesh.vertices, box.mesh.tets, box.youngs, box.material, settings);
  expect_valid(box.mesh, capped);
  const int before = partition_volumes(box, plain).stiff_count();
  const int after = partition_volumes(box, capped).stiff_count();
  EXPECT_GT(after, before) << "stiff partitions: " << before << " plain, " << after << " capped";
  // The cap is the weights' largest value; 1 leaves the metric unweighted.
  const VecX w = partition_element_weights(box.mesh.tets, box.youngs, {}, 0.0, 10.0);
  EXPECT_EQ(w.maxCoeff(), 10.0);
  EXPECT_EQ(w.minCoeff(), 1.0);
  EXPECT_EQ(partition_element_weights(box.mesh.tets, box.youngs, {}, 0.0, 1.0),
            VecX::Ones(box.mesh.num_tets()));
}

TEST(Partition, PruningRemovesSmallClusters) {
  const TetMesh mesh = make_box(Vec3(1, 1, 1), Eigen::Vector3i(8, 8, 8), 6);
  PartitionSettings settings;
  settings.clusters = 20;
  settings.prune_interval = 1;
  settings.prune_ratio = 1.0;  // every cluster below the median is a candidate
  const MeshPartition p =
      partition_tets(mesh.vertices, mesh.tets, VecX::Ones(mesh.num_tets()), {}, settings);
  expect_valid(mesh, p);
  EXPECT_GT(p.pruned, 0);
  EXPECT_LT(p.count(), settings.clusters);
}

TEST(Partition, DisconnectedPiecesEachGetPartitions) {
  const TetMesh box = make_box(Vec3(1, 1, 1), Eigen::Vector3i(4, 4, 4), 6);
  const TetMesh small = make_box(Vec3(0.5, 0.5, 0.5), Eigen::Vector3i(2, 2, 2), 6);
  TetMesh mesh;
  mesh.vertices.resize(box.num_vertices() + small.num_vertices(), 3);
  mesh.vertices << box.vertices, small.vertices.rowwise() + Eigen::RowVector3d(3, 0, 0);
  mesh.tets.resize(box.num_tets() + small.num_tets(), 4);
  mesh.tets << box.tets, small.tets.array() + box.num_vertices();
  const VecX youngs = VecX::Ones(mesh.num_tets());
  for (int clusters : {1, 2, 6}) {
    PartitionSettings settings;
    settings.clusters = clusters;
    const MeshPartition p = partition_tets(mesh.vertices, mesh.tets, youngs, {}, settings);
    expect_valid(mesh, p);
    // No partition spans both pieces, and each piece has one: at least 2 partitions, at most
    // max(2, clusters).
    std::set<int> first, second;
    for (int e = 0; e < mesh.num_tets(); ++e)
      (e < box.num_tets() ? first : second).insert(p.element_label[e]);
    for (int l : first) EXPECT_EQ(second.count(l), 0u) << "clusters " << clusters;
    EXPECT_EQ(static_cast<int>(first.size() + second.size()), p.count());
    EXPECT_LE(p.count(), std::max(2, clusters));
  }
}

TEST(Partition, BadSettingsThrowNamingTheSetting) {
  const TetMesh mesh = make_box(Vec3(1, 1, 1), Eigen::Vector3i(1, 1, 1), 6);
  const VecX youngs = VecX::Ones(mesh.num_tets());
  const auto message = [&](const PartitionSettings& s, const VecX& E, const MatX4i& tets) {
    try {
      partition_tets(mesh.vertices, tets, E, {}, s);
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  PartitionSettings s;
  s.clusters = 0;
  EXPECT_NE(message(s, youngs, mesh.tets).find("solver.partitions"), std::string::npos);
  s.clusters = mesh.num_tets() + 1;
  EXPECT_NE(message(s, youngs, mesh.tets).find("solver.partitions"), std::string::npos);
  s.clusters = 1;
  EXPECT_NE(message(s, VecX(), MatX4i(0, 4)).find("solver.partitions"), std::string::npos);
  EXPECT_NE(message(s, VecX::Ones(2), mesh.tets).find("Young"), std::string::npos);
  VecX negative = youngs;
  negative[3] = -1.0;
  EXPECT_NE(message(s, negative, mesh.tets).find("Young"), std::string::npos);
  s.jump_penalty = -0.1;
  EXPECT_NE(message(s, youngs, mesh.tets).find("solver.jump_penalty"), std::string::npos);
  s.jump_penalty = 0.0;
  s.contrast_cap = 0.5;
  EXPECT_NE(message(s, youngs, mesh.tets).find("solver.contrast_cap"), std::string::npos);
  s.contrast_cap = 0.0;
  s.prune_interval = 0;
  EXPECT_NE(message(s, youngs, mesh.tets).find("solver.prune_interval"), std::string::npos);
  // The whole valid range works, up to one partition per tet.
  s.prune_interval = 10;
  s.clusters = mesh.num_tets();
  EXPECT_EQ(message(s, youngs, mesh.tets), "no error");
}

}  // namespace
}  // namespace simrun
