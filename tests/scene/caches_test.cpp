// The on-disk caches of docs/caches.md: EigenFit's rest eigensolves and the TetGen meshes of
// surface files. A reuse gives exactly what the computation gave, any change of the inputs is a
// miss, and a damaged or foreign file is recomputed, never trusted.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "scene/mesh_cache.hpp"
#include "scene/rest_eigen_cache.hpp"
#include "support/test_paths.hpp"

namespace simrun {
namespace {

namespace fs = std::filesystem;

struct TempFolder {
  fs::path path;
  TempFolder() {
    path = fs::temp_directory_path() /
           ("simrun_caches_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
  }
  ~TempFolder() { fs::remove_all(path); }
  int files() const {
    if (!fs::exists(path)) return 0;
    return static_cast<int>(std::distance(fs::directory_iterator(path), fs::directory_iterator()));
  }
};

/// A chain of n springs fixed at one end (K tridiagonal) with unequal masses.
void spring_chain(int n, double stiffness, SpMat& K, SpMat& M) {
  std::vector<Eigen::Triplet<double>> k, m;
  for (int i = 0; i < n; ++i) {
    k.emplace_back(i, i, (i + 1 < n ? 2.0 : 1.0) * stiffness);
    if (i + 1 < n) {
      k.emplace_back(i, i + 1, -stiffness);
      k.emplace_back(i + 1, i, -stiffness);
    }
    m.emplace_back(i, i, 1.0 + 0.1 * i);
  }
  K.resize(n, n);
  M.resize(n, n);
  K.setFromTriplets(k.begin(), k.end());
  M.setFromTriplets(m.begin(), m.end());
}

TEST(RestEigenCache, ReusesExactlyWhatItSolvedAndMissesOnAnyChange) {
  TempFolder dir;
  SpMat K, M;
  spring_chain(60, 100.0, K, M);
  RestEigenCache first(dir.path);
  const GeneralizedEigenResult solved = first.solve(K, M, 4);
  EXPECT_EQ(first.stored(), 1);
  EXPECT_EQ(first.reused(), 0);
  EXPECT_EQ(dir.files(), 1);

  RestEigenCache second(dir.path);
  const GeneralizedEigenResult reused = second.solve(K, M, 4);
  EXPECT_EQ(second.reused(), 1);
  EXPECT_EQ(reused.status, Status::kSuccess);
  EXPECT_EQ(reused.values, solved.values);  // bit for bit
  EXPECT_EQ(reused.vectors, solved.vectors);
  EXPECT_NE(second.summary().find("reused 1 rest eigensolve"), std::string::npos);

  // Another stiffness, mass, or mode count: solved again, and the right answer.
  SpMat K2, M2;
  spring_chain(60, 200.0, K2, M2);
  const GeneralizedEigenResult stiffer = second.solve(K2, M, 4);
  EXPECT_NEAR(stiffer.values[0], 2.0 * solved.values[0], 1e-9 * solved.values[0]);
  const GeneralizedEigenResult heavier = second.solve(K, 2.0 * M, 4);
  EXPECT_NEAR(heavier.values[0], 0.5 * solved.values[0], 1e-9 * solved.values[0]);
  const GeneralizedEigenResult more = second.solve(K, M, 5);
  EXPECT_EQ(more.values.size(), 5);
  EXPECT_EQ(second.reused(), 1);
  EXPECT_EQ(second.stored(), 3);
  EXPECT_EQ(dir.files(), 4);
}

TEST(RestEigenCache, DamagedFilesAreRecomputedAndNoFolderMeansNoCache) {
  TempFolder dir;
  SpMat K, M;
  spring_chain(40, 10.0, K, M);
  const GeneralizedEigenResult solved = RestEigenCache(dir.path).solve(K, M, 3);
  ASSERT_EQ(dir.files(), 1);
  const fs::path file = fs::directory_iterator(dir.path)->path();
  for (const auto size : {fs::file_size(file) / 2, std::uintmax_t{10}, std::uintmax_t{0}}) {
    fs::resize_file(file, size);  // truncated: a run killed mid-write by hand, a full disk
    RestEigenCache cache(dir.path);
    const GeneralizedEigenResult again = cache.solve(K, M, 3);
    EXPECT_EQ(cache.reused(), 0);
    EXPECT_EQ(cache.stored(), 1);  // rewritten
    EXPECT_NEAR((again.values - solved.values).norm(), 0.0, 1e-12 * solved.values.norm());
  }
  for (const std::streamoff at : {std::streamoff{25}, std::streamoff{200}}) {
    // A flipped byte in the key (another input's entry under this name) or in the eigenvectors
    // (bit rot): the checksum or the key turns it into a miss.
    RestEigenCache(dir.path).solve(K, M, 3);  // rewrite a good entry first
    {
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(at);
      const char c = static_cast<char>(f.get());
      f.seekp(at);
      f.put(static_cast<char>(c ^ 0x10));
    }
    RestEigenCache cache(dir.path);
    const GeneralizedEigenResult again = cache.solve(K, M, 3);
    EXPECT_EQ(cache.reused(), 0) << "byte " << at;
    EXPECT_EQ(again.values, solved.values);
  }

  RestEigenCache none{fs::path()};
  EXPECT_EQ(none.solve(K, M, 3).values.size(), 3);
  EXPECT_EQ(none.stored() + none.reused(), 0);
  EXPECT_EQ(none.summary(), "");
}

TEST(RestEigenCache, AnUnwritableFolderOnlyCostsTheReuse) {
  SpMat K, M;
  spring_chain(20, 10.0, K, M);
  RestEigenCache cache("/proc/simrun-cannot-write-here");
  EXPECT_EQ(cache.solve(K, M, 2).values.size(), 2);
  EXPECT_EQ(cache.stored(), 0);
  EXPECT_NE(cache.summary().find("could not write"), std::string::npos);
}

const fs::path kSphere = fs::path(SIMRUN_SOURCE_DIR) / "scenes" / "meshes" / "sphere.off";

TEST(MeshCache, ReusesTheTetGenMeshOfTheSameFileAndSettings) {
  TempFolder dir;
  int flipped = -1;
  DecimationResult simplified;
  std::string note;
  const TetMesh meshed =
      load_mesh_file_cached(dir.path, kSphere, 1.5, 0.0, 0, &flipped, 200, &simplified, &note);
  EXPECT_EQ(note, "");
  EXPECT_EQ(dir.files(), 1);
  ASSERT_GT(simplified.collapses, 0);

  int flipped_again = -1;
  DecimationResult simplified_again;
  const TetMesh reused = load_mesh_file_cached(dir.path, kSphere, 1.5, 0.0, 0, &flipped_again, 200,
                                               &simplified_again, &note);
  EXPECT_NE(note.find("reused the TetGen mesh"), std::string::npos);
  EXPECT_EQ(reused.vertices, meshed.vertices);
  EXPECT_EQ(reused.tets, meshed.tets);
  EXPECT_EQ(reused.regions, meshed.regions);
  EXPECT_EQ(flipped_again, flipped);
  EXPECT_EQ(simplified_again.collapses, simplified.collapses);
  EXPECT_EQ(simplified_again.max_error, simplified.max_error);
  EXPECT_EQ(simplified_again.surface.faces, simplified.surface.faces);

  // The same file without the cache gives the same mesh (the cache changes nothing but time).
  const TetMesh direct = load_mesh_file(kSphere, 1.5, 0.0, 0, nullptr, 200);
  EXPECT_EQ(direct.vertices, meshed.vertices);
  EXPECT_EQ(direct.tets, meshed.tets);

  // Other settings, or an edited file under the same name: meshed again.
  load_mesh_file_cached(dir.path, kSphere, 1.5, 0.0, 0, nullptr, 0, nullptr, &note);
  EXPECT_EQ(note, "");
  load_mesh_file_cached(dir.path, kSphere, 1.4, 0.0, 0, nullptr, 200, nullptr, &note);
  EXPECT_EQ(note, "");
  EXPECT_EQ(dir.files(), 3);
  const fs::path edited = dir.path / "edited" / "sphere.off";
  fs::create_directories(edited.parent_path());
  fs::copy_file(kSphere, edited);
  load_mesh_file_cached(dir.path, edited, 1.5, 0.0, 0, nullptr, 200, nullptr, &note);
  EXPECT_NE(note.find("reused"), std::string::npos);  // the contents count, not the name
  std::ofstream(edited, std::ios::app) << "\n# an edit\n";
  load_mesh_file_cached(dir.path, edited, 1.5, 0.0, 0, nullptr, 200, nullptr, &note);
  EXPECT_EQ(note, "");
}

TEST(MeshCache, DamagedEntriesAreMeshedAgainAndVolumeFilesAreNotCached) {
  TempFolder dir;
  const TetMesh meshed = load_mesh_file_cached(dir.path, kSphere, 1.5, 0.0, 0, nullptr, 0, nullptr);
  ASSERT_EQ(dir.files(), 1);
  const fs::path file = fs::directory_iterator(dir.path)->path();
  {
    // A vertex index past the end (bit rot in the tets; the checksum rejects it): not used.
    // Layout: magic (no terminator), key, the vertices' rows and cols and entries, the tets'.
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    const auto tets_at = static_cast<std::streamoff>(std::strlen("simrun-tetgen-mesh-v2") + 8 + 16 +
                                                     sizeof(double) * meshed.vertices.size() + 16);
    f.seekp(tets_at);
    const int bad = 1 << 30;
    f.write(reinterpret_cast<const char*>(&bad), sizeof bad);
  }
  std::string note;
  const TetMesh again =
      load_mesh_file_cached(dir.path, kSphere, 1.5, 0.0, 0, nullptr, 0, nullptr, &note);
  EXPECT_EQ(note, "");
  EXPECT_EQ(again.tets, meshed.tets);
  fs::resize_file(file, 100);
  load_mesh_file_cached(dir.path, kSphere, 1.5, 0.0, 0, nullptr, 0, nullptr, &note);
  EXPECT_EQ(note, "");

  TempFolder other;
  const fs::path node = fs::path(SIMRUN_TEST_DATA) / "meshes" / "two_tets.node";
  EXPECT_EQ(load_mesh_file_cached(other.path, node, 1.5, 0.0, 0, nullptr, 0, nullptr).num_tets(),
            2);
  EXPECT_EQ(other.files(), 0);
  // A missing file is the reader's error, cache or not.
  EXPECT_THROW(load_mesh_file_cached(other.path, other.path / "missing.off", 1.5, 0.0, 0, nullptr,
                                     0, nullptr),
               InputError);
}

}  // namespace
}  // namespace simrun
