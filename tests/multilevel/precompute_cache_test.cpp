// The multilevel precomputation cache: a round trip reproduces the weights exactly, any change
// of input misses, and damaged files are misses with a reason (never a crash or stale reuse).
#include "multilevel/precompute_cache.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "mesh/box.hpp"

namespace simrun {
namespace {

MultilevelInput box_input() {
  const TetMesh mesh = make_box(Vec3(2.0, 1.0, 1.0), Eigen::Vector3i(8, 4, 4), 6);
  MultilevelInput in;
  in.rest = mesh.vertices;
  in.tets = mesh.tets;
  in.youngs = VecX::Constant(mesh.num_tets(), 1e6);
  in.material.assign(mesh.num_tets(), 0);
  in.tet_offset = {0, mesh.num_tets()};
  const int n = mesh.num_vertices();
  in.fixed.assign(n, false);
  for (int v = 0; v < n; ++v) in.fixed[v] = mesh.vertices(v, 0) < 1e-9;
  in.vertex_mass = VecX::Ones(n);
  in.full_to_free.assign(3 * n, -1);
  for (int v = 0; v < n; ++v)
    if (!in.fixed[v])
      for (int c = 0; c < 3; ++c) in.full_to_free[3 * v + c] = in.num_free++;
  return in;
}

struct TempFolder {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("simrun_mlcache_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempFolder() { std::filesystem::create_directories(path); }
  ~TempFolder() { std::filesystem::remove_all(path); }
};

TEST(MultilevelCache, RoundTripGivesTheSameWeightsAndBases) {
  TempFolder dir;
  const MultilevelInput in = box_input();
  MultilevelSetupSettings settings;
  settings.partitions = 6;
  const std::uint64_t hash = multilevel_input_hash(in, settings);
  const auto file = multilevel_cache_file(dir.path, hash);
  EXPECT_FALSE(load_multilevel_cache(file, hash, in).has_value());  // nothing saved yet
  MultilevelPrecompute computed = compute_multilevel_weights(in, settings);
  save_multilevel_cache(file, hash, computed);
  std::string problem;
  auto loaded = load_multilevel_cache(file, hash, in, &problem);
  ASSERT_TRUE(loaded.has_value()) << problem;
  EXPECT_EQ(loaded->element_label, computed.element_label);
  EXPECT_EQ(loaded->origin_vertex, computed.origin_vertex);
  EXPECT_EQ(loaded->object_of_vertex, computed.object_of_vertex);
  EXPECT_EQ(loaded->handles, computed.handles);
  EXPECT_EQ((loaded->dirichlet_weight - computed.dirichlet_weight).norm(), 0.0);
  EXPECT_EQ(MatX(loaded->phi - computed.phi).norm(), 0.0);
  assemble_multilevel_bases(in, computed);
  assemble_multilevel_bases(in, *loaded);
  EXPECT_EQ(MatX(loaded->bases->sms - computed.bases->sms).norm(), 0.0);
  EXPECT_EQ(MatX(loaded->bases->affine - computed.bases->affine).norm(), 0.0);
}

TEST(MultilevelCache, AnyChangeOfInputOrSettingsChangesTheHash) {
  const MultilevelInput in = box_input();
  const MultilevelSetupSettings settings;
  const std::uint64_t base = multilevel_input_hash(in, settings);
  MultilevelInput moved = in;
  moved.rest(3, 1) += 1e-12;
  MultilevelInput stiffer = in;
  stiffer.youngs[5] *= 2.0;
  MultilevelInput freed = in;
  freed.fixed[0] = !freed.fixed[0];
  MultilevelSetupSettings more = settings;
  more.partitions += 1;
  MultilevelSetupSettings plain = settings;
  plain.dirichlet_aware = false;
  for (std::uint64_t other :
       {multilevel_input_hash(moved, settings), multilevel_input_hash(stiffer, settings),
        multilevel_input_hash(freed, settings), multilevel_input_hash(in, more),
        multilevel_input_hash(in, plain)})
    EXPECT_NE(other, base);
}

TEST(MultilevelCache, DamagedFilesAreMissesWithAReason) {
  TempFolder dir;
  const MultilevelInput in = box_input();
  MultilevelSetupSettings settings;
  settings.partitions = 4;
  const std::uint64_t hash = multilevel_input_hash(in, settings);
  const auto file = multilevel_cache_file(dir.path, hash);
  save_multilevel_cache(file, hash, compute_multilevel_weights(in, settings));
  const auto size = std::filesystem::file_size(file);
  std::string problem;
  // Another input's hash.
  EXPECT_FALSE(load_multilevel_cache(file, hash + 1, in, &problem).has_value());
  EXPECT_NE(problem.find("another input"), std::string::npos) << problem;
  // Truncated.
  std::filesystem::resize_file(file, size / 2);
  problem.clear();
  EXPECT_FALSE(load_multilevel_cache(file, hash, in, &problem).has_value());
  EXPECT_NE(problem.find("truncated"), std::string::npos) << problem;
  // Not a cache at all.
  std::ofstream(file, std::ios::trunc) << "hello";
  problem.clear();
  EXPECT_FALSE(load_multilevel_cache(file, hash, in, &problem).has_value());
  EXPECT_NE(problem.find("not a simrun multilevel cache"), std::string::npos) << problem;
}

TEST(MultilevelCache, TheCubatureRuleRoundTripsAndDamagedRulesAreMisses) {
  TempFolder dir;
  const std::uint64_t hash = 0x1234;
  const auto file = multilevel_cubature_file(dir.path, hash);
  EXPECT_NE(file.filename().string().find("_cubature.bin"), std::string::npos);
  EXPECT_FALSE(load_multilevel_cubature(file, hash, 5).has_value());  // absent: a plain miss
  CachedCubature rule;
  rule.weight = VecX::Zero(5);
  rule.weight << 0.0, 1.5, 0.0, 2.25, 0.125;
  rule.worst_residual = 3e-10;
  rule.weights_only_partitions = 2;
  save_multilevel_cubature(file, hash, rule);
  const std::optional<CachedCubature> loaded = load_multilevel_cubature(file, hash, 5);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->weight, rule.weight);
  EXPECT_EQ(loaded->worst_residual, rule.worst_residual);
  EXPECT_EQ(loaded->weights_only_partitions, 2);
  std::string problem;
  EXPECT_FALSE(load_multilevel_cubature(file, hash + 1, 5, &problem).has_value());
  EXPECT_NE(problem.find("another input"), std::string::npos) << problem;
  problem.clear();
  EXPECT_FALSE(load_multilevel_cubature(file, hash, 6, &problem).has_value());  // other mesh
  EXPECT_NE(problem.find("truncated or inconsistent"), std::string::npos) << problem;
  rule.weight[1] = -1.0;
  save_multilevel_cubature(file, hash, rule);
  problem.clear();
  EXPECT_FALSE(load_multilevel_cubature(file, hash, 5, &problem).has_value());
  EXPECT_NE(problem.find("negative"), std::string::npos) << problem;
  std::ofstream(file, std::ios::trunc) << "hello";
  problem.clear();
  EXPECT_FALSE(load_multilevel_cubature(file, hash, 5, &problem).has_value());
  EXPECT_NE(problem.find("not a simrun cubature cache"), std::string::npos) << problem;
}

}  // namespace
}  // namespace simrun
