// Numerical coarsening end to end (docs/coarsening.md): a bar with a soft slice pulled along its
// axis, on a fine mesh and on a coarse mesh with the homogenized tensors ("harmonic") or the
// averaged Lame parameters: the harmonic coarse run follows the fine one far better (the
// series-spring effect of the slice), `simrun coarsen` writes its tensors, and bad input names
// its pointer.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/cli.hpp"
#include "app/scenes.hpp"

namespace {

using cli::Result;
using cli::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

/// `simrun coarsen` on `scene`, written to NAME.json, into the folder NAME.
Result coarsen(TempDir& tmp, const json& scene, const std::string& name) {
  return cli::run(
      {"coarsen", tmp.write(name + ".json", scene).string(), "-o", (tmp / name).string()});
}

/// A 1 x 0.2 x 0.2 m linear bar fixed at x = 0 with a soft slice (E 1e5 in 1e7) at x in
/// [0.4, 0.45], pulled by gravity along +x and brought to rest by mass damping. Coarse 10 x 2 x 2
/// cubes (5-tet split; the slice fills half a coarse cell), fine 40 x 4 x 4.
json bar_scene(const std::string& method) {
  json scene = json::parse(R"({
    "name": "soft_slice",
    "time": { "dt": 0.05, "steps": 40 },
    "objects": [ {
      "mesh": { "box": { "size": [1.0, 0.2, 0.2], "cells": [10, 2, 2], "split": 5 } },
      "reference": { "mesh": { "box": { "size": [1.0, 0.2, 0.2], "cells": [40, 4, 4] } } },
      "material": { "model": "linear", "E": 1e7, "nu": 0.3, "density": 1000 },
      "regions": [ { "select": { "box": { "min": [0.4, -1, -1], "max": [0.45, 1, 1] } }, "E": 1e5 } ],
      "dirichlet": [ { "select": { "side": "-x" } } ] } ],
    "gravity": [9.81, 0, 0],
    "damping": { "mass": 50 },
    "integrator": { "type": "be" },
    "reference": { "run": true },
    "output": { "frames": [] }
  })");
  scene["objects"][0]["coarsening"]["method"] = method;
  return scene;
}

/// A tet mesh written as TetGen's .node/.ele pair (0-based), for meshes a box cannot make.
struct TetFile {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::array<int, 4>> tets;

  /// The index of the vertex at x, added unless one is there already (to 1e-12 m).
  int vertex(const std::array<double, 3>& x) {
    std::array<long long, 3> key;
    for (int d = 0; d < 3; ++d) key[d] = std::llround(x[d] * 1e12);
    const auto [it, added] = index.emplace(key, static_cast<int>(vertices.size()));
    if (added) vertices.push_back(x);
    return it->second;
  }
  std::map<std::array<long long, 3>, int> index;
  /// Writes dir/stem.node and dir/stem.ele; returns the .node path.
  fs::path write(const TempDir& dir, const std::string& stem) const {
    std::ostringstream node, ele;
    node.precision(17);
    node << vertices.size() << " 3 0 0\n";
    for (size_t i = 0; i < vertices.size(); ++i)
      node << i << " " << vertices[i][0] << " " << vertices[i][1] << " " << vertices[i][2] << "\n";
    ele << tets.size() << " 4 0\n";
    for (size_t i = 0; i < tets.size(); ++i)
      ele << i << " " << tets[i][0] << " " << tets[i][1] << " " << tets[i][2] << " " << tets[i][3]
          << "\n";
    dir.write(stem + ".ele", ele.str());
    return dir.write(stem + ".node", node.str());
  }
};

/// Cubes of side h from x = x0 (cells along x, one across), each split into the 6 tets around
/// its main diagonal (the reader orients them).
void add_cubes(TetFile& mesh, double x0, double h, int cells) {
  for (int c = 0; c < cells; ++c) {
    int v[8];
    for (int k = 0; k < 8; ++k)
      v[k] = mesh.vertex({x0 + (c + (k & 1)) * h, ((k >> 1) & 1) * h, ((k >> 2) & 1) * h});
    const int paths[6][2] = {{1, 2}, {1, 4}, {2, 1}, {2, 4}, {4, 1}, {4, 2}};
    for (const auto& p : paths) mesh.tets.push_back({v[0], v[p[0]], v[p[0] | p[1]], v[7]});
  }
}

/// The 1 x 0.2 x 0.2 bar as five cubes, each split into 24 tets around its centre (one per half
/// of a face's quarter, through the face's centre). The centre of the cube [0.2, 0.4] moves to
/// `height` x 0.2 m from the face x = 0.4 (off the face's centre, so that the fine fields across
/// it are not affine), which makes the four tets on that face (28-31) slivers of that height.
TetFile sliver_bar(double height) {
  TetFile mesh;
  const double h = 0.2;
  for (int c = 0; c < 5; ++c) {
    const double x0 = c * h;
    std::array<double, 3> centre = {x0 + h / 2, h / 2, h / 2};
    if (c == 1) centre = {x0 + h - height * h, 0.63 * h, 0.71 * h};
    const int middle = mesh.vertex(centre);
    for (int axis = 0; axis < 3; ++axis)
      for (int side = 0; side < 2; ++side) {
        std::array<std::array<double, 3>, 4> quad;
        const int a = (axis + 1) % 3, b = (axis + 2) % 3;
        const int corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        for (int k = 0; k < 4; ++k) {
          quad[k][axis] = side * h, quad[k][a] = corners[k][0] * h, quad[k][b] = corners[k][1] * h;
          quad[k][0] += x0;
        }
        std::array<double, 3> face = {0, 0, 0};
        for (const auto& q : quad)
          for (int d = 0; d < 3; ++d) face[d] += q[d] / 4;
        const int f = mesh.vertex(face);
        for (int k = 0; k < 4; ++k)
          mesh.tets.push_back({middle, f, mesh.vertex(quad[k]), mesh.vertex(quad[(k + 1) % 4])});
      }
  }
  return mesh;
}

TEST(CoarseningCli, HarmonicTensorsFollowTheFineRunBetterThanAveraging) {
  TempDir tmp;
  const cli::ScopedEnv cache("SIMRUN_CACHE_DIR", (tmp / "cache").string());  // computed here
  double error[3];
  const char* methods[3] = {"harmonic", "average_lame", "galerkin"};
  for (int m = 0; m < 3; ++m) {
    const auto scene = tmp.write(std::string(methods[m]) + ".json", bar_scene(methods[m]));
    const fs::path out = tmp / methods[m];
    const Result r = cli::run({"run", scene.string(), "-o", out.string()});
    ASSERT_EQ(r.code, 0) << r.describe();
    EXPECT_NE(r.err.find("/objects/0/coarsening: 3200 fine tets onto 200 coarse"),
              std::string::npos)
        << r.err;
    error[m] = cli::column(out / "error.csv", "mean_pos_err").back();
    std::printf("%s: final mean position error %.3g m\n", methods[m], error[m]);
    if (m == 0) {
      // The display map (Eqs. 4.6-4.7) puts back the fine detail of the slice.
      const double mapped = cli::column(out / "error.csv", "map_mean_pos_err").back();
      std::printf("harmonic with the display map: %.3g m\n", mapped);
      EXPECT_LT(mapped, 0.75 * error[0]);
    }
  }
  // Measured: harmonic 9.7e-5 m (4.5e-5 through the display map), averaged 1.2e-3 m (the
  // slice stretches the bar by ~3 mm).
  EXPECT_LT(error[0], 0.25 * error[1]) << error[0] << " vs " << error[1];
  EXPECT_LT(error[0], 0.25 * error[2]) << error[0] << " vs " << error[2];
}

TEST(CoarseningCli, CoarsenWritesOneTensorPerCoarseTetAndTheHarmonicFields) {
  TempDir tmp;
  const auto scene = tmp.write("bar.json", bar_scene("harmonic"));
  const fs::path out = tmp / "coarsen";
  const Result r = cli::run({"coarsen", scene.string(), "-o", out.string()});
  ASSERT_EQ(r.code, 0) << r.describe();
  const std::vector<double> tets = cli::column(out / "object0_tensors.csv", "tet");
  EXPECT_EQ(tets.size(), 200u);
  for (double c : cli::column(out / "object0_tensors.csv", "min_eigenvalue")) EXPECT_GT(c, 0.0);
  const std::vector<double> covered = cli::column(out / "object0_tensors.csv", "covered_fraction");
  for (double f : covered) EXPECT_NEAR(f, 1.0, 1e-9);
  EXPECT_TRUE(fs::exists(out / "object0_harmonic.vtu"));
  EXPECT_TRUE(fs::exists(out / "object0_coarse.vtu"));
  EXPECT_TRUE(fs::exists(out / "report.txt"));
}

/// A second run with the same inputs reads the tensors from the cache (and gets the same
/// numbers); a changed material recomputes them.
TEST(CoarseningCli, ARunWithUnchangedInputsReusesTheCachedTensors) {
  TempDir tmp;
  const fs::path cache = tmp / "cache";
  const cli::ScopedEnv cache_env("SIMRUN_CACHE_DIR", cache.string());
  json scene = bar_scene("harmonic");
  scene["time"]["steps"] = 3;
  const auto file = tmp.write("bar.json", scene);
  const Result first = cli::run({"run", file.string(), "-o", (tmp / "a").string()});
  const Result second = cli::run({"run", file.string(), "-o", (tmp / "b").string()});
  const Result changed = cli::run(
      {"run", file.string(), "-o", (tmp / "c").string(), "--set", "/objects/0/regions/0/E=2e5"});
  ASSERT_EQ(first.code, 0) << first.describe();
  ASSERT_EQ(second.code, 0) << second.describe();
  ASSERT_EQ(changed.code, 0) << changed.describe();
  EXPECT_NE(first.err.find("cached in " + cache.string()), std::string::npos) << first.err;
  EXPECT_NE(second.err.find("inputs unchanged, reused"), std::string::npos) << second.err;
  EXPECT_EQ(changed.err.find("inputs unchanged, reused"), std::string::npos) << changed.err;
  EXPECT_EQ(cli::lines(tmp / "a" / "energy.csv"), cli::lines(tmp / "b" / "energy.csv"));
  EXPECT_NE(cli::lines(tmp / "a" / "energy.csv"), cli::lines(tmp / "c" / "energy.csv"));
}

/// The coarse mass is the fine mass (Kharevych Sec. 4.3.4), as a user reads it from the tensors
/// file: density x volume summed over the coarse tets, with a denser region (3000 kg/m^3 on
/// x in [0.6, 0.8], cell faces of the fine mesh) and a coarse mesh reaching 2 cm beyond the bar
/// on every side, so coarse tets stick out of it. By hand: 0.04 m^3 x 1000 + 0.008 m^3 x 2000 = 56
/// kg.
TEST(CoarseningCli, TheTensorsFileGivesTheFineMassAsDensityTimesVolume) {
  TempDir tmp;
  json scene = bar_scene("harmonic");
  scene["objects"][0]["regions"].push_back(
      {{"select", {{"box", {{"min", {0.6, -1, -1}}, {"max", {0.8, 1, 1}}}}}}, {"density", 3000}});
  scene["objects"][0]["mesh"]["box"]["size"] = {1.04, 0.24, 0.24};
  scene["objects"][0]["mesh"]["transform"]["translate"] = {-0.02, -0.02, -0.02};
  const Result r = coarsen(tmp, scene, "dense");
  const fs::path out = tmp / "dense";
  ASSERT_EQ(r.code, 0) << r.describe();
  const auto density = cli::column(out / "object0_tensors.csv", "density");
  const auto volume = cli::column(out / "object0_tensors.csv", "volume");
  const auto covered = cli::column(out / "object0_tensors.csv", "covered_fraction");
  ASSERT_EQ(density.size(), volume.size());
  double mass = 0.0, coarse_volume = 0.0;
  int partly_outside = 0;
  for (size_t q = 0; q < density.size(); ++q) {
    mass += density[q] * volume[q];
    coarse_volume += volume[q];
    partly_outside += covered[q] < 0.99;
  }
  EXPECT_GT(partly_outside, 0);
  EXPECT_NEAR(coarse_volume, 1.04 * 0.24 * 0.24, 1e-12);
  // Exact overlap volumes: roundoff only (1e-16 per clip over ~1e4 clips), hence 1e-10.
  EXPECT_NEAR(mass, 56.0, 1e-10 * 56.0);
}

/// A damaged cache file, with a flipped byte (bit rot) or cut short (a full disk), is recomputed
/// and rewritten, never trusted; the recomputed run is the same as the first.
TEST(CoarseningCli, ADamagedCacheFileIsRecomputed) {
  TempDir tmp;
  const fs::path cache = tmp / "cache";
  const cli::ScopedEnv cache_env("SIMRUN_CACHE_DIR", cache.string());
  json scene = bar_scene("harmonic");
  scene["time"]["steps"] = 2;
  scene["reference"]["run"] = false;
  const auto file = tmp.write("bar.json", scene);
  const Result first = cli::run({"run", file.string(), "-o", (tmp / "first").string()});
  ASSERT_EQ(first.code, 0) << first.describe();
  fs::path entry;
  for (const auto& f : fs::directory_iterator(cache))
    if (f.path().filename().string().rfind("coarsening-", 0) == 0) entry = f.path();
  ASSERT_FALSE(entry.empty());
  const auto size = fs::file_size(entry);
  const auto damages = std::vector<std::pair<std::string, std::function<void()>>>{
      {"a flipped byte in the tensors",
       [&] {
         std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
         f.seekg(static_cast<std::streamoff>(size / 2));
         const char c = static_cast<char>(f.get());
         f.seekp(static_cast<std::streamoff>(size / 2));
         f.put(static_cast<char>(c ^ 0x04));
       }},
      {"cut to half its size", [&] { fs::resize_file(entry, size / 2); }},
  };
  for (const auto& [what, damage] : damages) {
    damage();
    const fs::path out = tmp / "again";
    const Result r = cli::run({"run", file.string(), "-o", out.string(), "--force"});
    ASSERT_EQ(r.code, 0) << what << "\n" << r.describe();
    EXPECT_EQ(r.err.find("inputs unchanged, reused"), std::string::npos) << what << "\n" << r.err;
    EXPECT_NE(r.err.find("cached in " + cache.string()), std::string::npos) << what;
    EXPECT_EQ(fs::file_size(entry), size) << what;  // rewritten whole
    EXPECT_EQ(cli::lines(tmp / "first" / "energy.csv"), cli::lines(out / "energy.csv")) << what;
  }
  // The rewritten file is good again.
  const Result reused = cli::run({"run", file.string(), "-o", (tmp / "reused").string()});
  EXPECT_NE(reused.err.find("inputs unchanged, reused"), std::string::npos) << reused.err;
}

/// A coarse mesh reaching beyond the object (the thesis allows coarse boundary nodes outside):
/// a bottom layer of coarse cells the bar fills to 0.5 % (the coarse box [1, 0.3, 0.2] shifted
/// down by 0.0995 m). Its tets take the averaged Lame tensor instead of a homogenized one that
/// is indefinite or hundreds of times too stiff, with a warning (before, the coarsening failed or
/// the run's Newton did not converge); a run reusing the cache repeats the warning. A layer the
/// bar does not reach at all leaves coarse vertices without mass or stiffness: an error naming
/// them.
TEST(CoarseningCli, NearlyEmptyCoarseTetsTakeTheAveragedTensorWithAWarning) {
  TempDir tmp;
  const cli::ScopedEnv cache("SIMRUN_CACHE_DIR", (tmp / "cache").string());  // computed here
  json scene = bar_scene("harmonic");
  scene["objects"][0]["mesh"]["box"]["size"] = {1.0, 0.3, 0.2};
  scene["objects"][0]["mesh"]["box"]["cells"] = {10, 3, 2};
  scene["objects"][0]["mesh"]["transform"]["translate"] = {0.0, -0.0995, 0.0};
  const Result r = coarsen(tmp, scene, "low");
  ASSERT_EQ(r.code, 0) << r.describe();
  EXPECT_NE(r.err.find("filled to less than 5 % by the fine mesh take the averaged Lame tensor"),
            std::string::npos)
      << r.err;

  // A run with the same inputs reuses the cached tensors and repeats the warning.
  const Result reused = cli::run({"run", tmp.write("low.json", scene).string(), "-o",
                                  (tmp / "low_run").string(), "--steps", "1"});
  ASSERT_EQ(reused.code, 0) << reused.describe();
  EXPECT_NE(reused.err.find("inputs unchanged, reused"), std::string::npos) << reused.err;
  EXPECT_NE(reused.err.find("take the averaged Lame tensor"), std::string::npos) << reused.err;
  EXPECT_NE(reused.err.find("(from the cache)"), std::string::npos) << reused.err;

  scene["objects"][0]["mesh"].erase("transform");  // layer [0.2, 0.3] holds nothing: the 11 x 3
                                                   // vertices at y = 0.3 touch no material
  const Result bare = coarsen(tmp, scene, "wide");
  EXPECT_EQ(bare.code, 1) << bare.describe();
  EXPECT_NE(bare.err.find("/objects/0/mesh: 33 coarse vertices lie only in coarse tets outside"),
            std::string::npos)
      << bare.err;
}

/// Bad meshes (issue 9's list). A sliver coarse tet makes the harmonic strain matrix G_q
/// ill-conditioned: a warning names the slivers; a flatter one makes the homogenized tensor
/// indefinite: exit 1 naming the same tets and G_q's condition.
TEST(CoarseningCli, SliverCoarseTetsAreNamedAsIllConditionedOrNotPositiveDefinite) {
  TempDir tmp;
  json scene = bar_scene("harmonic");
  scene["reference"]["run"] = false;
  scene["objects"][0]["reference"]["mesh"]["box"]["cells"] = {40, 8, 8};
  scene["objects"][0]["mesh"] = {{"file", sliver_bar(1e-3).write(tmp, "sliver3").string()}};
  const Result warned = coarsen(tmp, scene, "s3");
  ASSERT_EQ(warned.code, 0) << warned.describe();
  EXPECT_NE(warned.err.find("warning: /objects/0/coarsening: 4 coarse tet(s) with an "
                            "ill-conditioned harmonic strain matrix (cond G_q > 1e4; slivers?): "
                            "28, 29, 30, 31"),
            std::string::npos)
      << warned.err;
  // What the warning is for: the slivers' tensors are thousands of times stiffer than the
  // stiffest material (1e7 Pa) in some strain (measured: cond 2.2-3.4e4, largest eigenvalue
  // 0.9-1.5e11 Pa).
  const auto condition = cli::column(tmp / "s3" / "object0_tensors.csv", "condition");
  const auto largest = cli::column(tmp / "s3" / "object0_tensors.csv", "max_eigenvalue");
  ASSERT_GE(largest.size(), 32u);
  for (int q = 28; q < 32; ++q) {
    EXPECT_GT(condition[q], 1e4) << q;
    EXPECT_GT(largest[q], 1e3 * 1e7) << q;
  }
  scene["objects"][0]["mesh"] = {{"file", sliver_bar(1e-5).write(tmp, "sliver5").string()}};
  const Result failed = coarsen(tmp, scene, "s5");
  EXPECT_EQ(failed.code, 1) << failed.describe();
  EXPECT_NE(failed.err.find("/objects/0/coarsening: the homogenized tensor is not positive "
                            "definite on 4 coarse tet(s): 28, 29, 30, 31 (the first filled to "
                            "100 % by the fine mesh, cond G_q "),
            std::string::npos)
      << failed.err;
  // The same coarse mesh without the sliver is fine and quiet.
  scene["objects"][0]["mesh"] = {{"file", sliver_bar(0.5).write(tmp, "good").string()}};
  const Result good = coarsen(tmp, scene, "g");
  ASSERT_EQ(good.code, 0) << good.describe();
  EXPECT_EQ(good.err.find("warning"), std::string::npos) << good.err;
}

/// A fine mesh of two pieces that do not touch: the harmonic problems fix one rigid motion, so
/// the second piece floats and the stiffness is singular. A fine mesh whose tets overlap (one
/// listed twice): its boundary is not a closed surface. Both exit 1 naming the reference mesh.
TEST(CoarseningCli, ADisconnectedOrOverlappingFineMeshIsBadInput) {
  TempDir tmp;
  TetFile pieces;
  add_cubes(pieces, 0.0, 0.2, 2);  // [0, 0.4] and [0.6, 1.0] along x
  add_cubes(pieces, 0.6, 0.2, 2);
  json scene = bar_scene("harmonic");
  scene["reference"]["run"] = false;
  scene["objects"][0]["regions"] = json::array();
  scene["objects"][0]["reference"]["mesh"] = {{"file", pieces.write(tmp, "pieces").string()}};
  const Result apart = coarsen(tmp, scene, "apart");
  EXPECT_EQ(apart.code, 1) << apart.describe();
  EXPECT_NE(apart.err.find("/objects/0/reference/mesh: the fine stiffness is singular with the "
                           "rigid motions fixed (a part of the mesh not connected to the rest"),
            std::string::npos)
      << apart.err;

  TetFile doubled;
  add_cubes(doubled, 0.0, 0.2, 5);
  doubled.tets.push_back(doubled.tets[7]);
  scene["objects"][0]["reference"]["mesh"] = {{"file", doubled.write(tmp, "doubled").string()}};
  const Result overlapping = coarsen(tmp, scene, "doubled");
  EXPECT_EQ(overlapping.code, 1) << overlapping.describe();
  EXPECT_NE(overlapping.err.find("/objects/0/reference/mesh: the fine mesh has tets that overlap"),
            std::string::npos)
      << overlapping.err;
  EXPECT_NE(overlapping.err.find(", 30 (a duplicated tet?)"), std::string::npos) << overlapping.err;
}

TEST(CoarseningCli, BadInputNamesThePointer) {
  TempDir tmp;
  struct Case {
    std::string pointer, value, expected;
  };
  const std::vector<Case> cases = {
      {"/objects/0/material/model", "\"neohookean\"", "/objects/0/material/model"},
      {"/objects/0/eigenfit/method", "\"dac\"", "choose one of coarsening and eigenfit"},
      // A coarse mesh that covers only half of the fine one.
      {"/objects/0/mesh/box/size", "[0.5, 0.2, 0.2]", "does not cover the reference"},
  };
  for (const Case& c : cases) {
    const auto scene = tmp.write("bad.json", bar_scene("harmonic"));
    const Result r = cli::run({"run", scene.string(), "-o", (tmp / "out").string(), "--force",
                               "--set", c.pointer + "=" + c.value});
    EXPECT_EQ(r.code, 1) << c.pointer << "\n" << r.describe();
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.pointer << "\n" << r.err;
  }
  json galerkin_corotated = bar_scene("galerkin");
  galerkin_corotated["objects"][0]["material"]["model"] = "corotated";
  const Result g = cli::run({"run", tmp.write("gc.json", galerkin_corotated).string()});
  EXPECT_EQ(g.code, 1) << g.describe();
  EXPECT_NE(g.err.find("expected 'linear'"), std::string::npos) << g.err;
  // IPC contact keeps tets oriented through the elastic elements, which Galerkin's matrix lacks.
  json galerkin_contact = bar_scene("galerkin");
  galerkin_contact["contact"] = {{"dhat", 1e-3}};
  galerkin_contact["integrator"] = {{"type", "be"}};
  const Result gc = cli::run({"run", tmp.write("gcontact.json", galerkin_contact).string()});
  EXPECT_EQ(gc.code, 1) << gc.describe();
  EXPECT_NE(gc.err.find("/objects/0/coarsening/method"), std::string::npos) << gc.err;
  EXPECT_NE(gc.err.find("no elements for IPC contact"), std::string::npos) << gc.err;
  // "mixed" holds the vertices that stay fixed for the whole run: none at all, or only a group
  // that is released, is bad input naming the option.
  for (const char* dirichlet :
       {R"([])", R"([{ "select": { "side": "-x" }, "release_time": 1 }])"}) {
    json mixed = bar_scene("harmonic");
    mixed["objects"][0]["coarsening"]["boundary"] = "mixed";
    mixed["objects"][0]["dirichlet"] = json::parse(dirichlet);
    mixed["reference"]["run"] = false;
    const Result m = coarsen(tmp, mixed, "mixed");
    EXPECT_EQ(m.code, 1) << dirichlet << "\n" << m.describe();
    EXPECT_NE(m.err.find("/objects/0/coarsening/boundary: 'mixed' holds the object's fixed "
                         "Dirichlet vertices, but it has none that stay fixed for the whole run"),
              std::string::npos)
        << dirichlet << "\n"
        << m.err;
  }
  json no_reference = bar_scene("harmonic");
  no_reference["objects"][0].erase("reference");
  no_reference.erase("reference");
  const Result r = cli::run({"run", tmp.write("noref.json", no_reference).string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("/objects/0/coarsening/method"), std::string::npos) << r.err;
}

}  // namespace
