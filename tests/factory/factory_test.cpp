// The scene factory: region-tag selections, per-element E fields, initial stretch/compress/twist.
#include "scene/factory.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "mesh/box.hpp"
#include "scene/mesh_pair.hpp"
#include "scene/parse_scene.hpp"

namespace simrun {
namespace {

namespace fs = std::filesystem;

class FactoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            ("simrun_factory_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
    // Two tets sharing a face, region attributes 3 and 7.
    write("two.node", "5 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n4 1 1 1\n");
    write("two.ele", "2 4 1\n0 0 1 2 3 3\n1 1 2 3 4 7\n");
  }
  void TearDown() override { fs::remove_all(m_dir); }

  void write(const std::string& name, const std::string& text) {
    std::ofstream(m_dir / name) << text;
  }

  SceneConfig scene(const std::string& object_extra, const std::string& material_extra = "") {
    write("s.json", R"({"time": {"dt": 0.01, "steps": 1}, "objects": [{"mesh": {"file": "two.node"},
      "material": {"model": "linear", "E": 1e5)" +
                        material_extra + R"(})" + object_extra + "}]}");
    return parse_scene(m_dir / "s.json");
  }

  fs::path m_dir;
};

TEST_F(FactoryTest, RegionTagSelectsTetsForMaterialAndVerticesForDirichlet) {
  const SceneConfig s = scene(R"(, "regions": [{"select": {"region": 7}, "E": 2e5}],
      "dirichlet": [{"select": {"region": 3}}])");
  const BuiltModel built = build_model(s);
  EXPECT_DOUBLE_EQ(built.frames.youngs[0], 1e5);
  EXPECT_DOUBLE_EQ(built.frames.youngs[1], 2e5);
  EXPECT_EQ(built.frames.mesh.regions, (std::vector<int>{3, 7}));  // file tags kept
  EXPECT_EQ(built.frames.material_region, (std::vector<int>{0, 1}));
  // Region 3 is tet 0 = vertices 0..3: only vertex 4 stays free.
  EXPECT_EQ(built.model->num_free(), 3);
}

TEST_F(FactoryTest, RegionSelectingNothingIsAnError) {
  const SceneConfig s = scene(R"(, "dirichlet": [{"select": {"region": 5}}])");
  try {
    build_model(s);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/objects/0/dirichlet/0/select"), std::string::npos)
        << e.what();
  }
}

TEST_F(FactoryTest, ElementFieldReplacesEAndRegionsStillOverride) {
  write("E.txt", "# E per tet\n3e5\n4e5 # second\n");
  const SceneConfig s =
      scene(R"(, "regions": [{"select": {"region": 7}, "E": 9e5}])", R"(, "E_file": "E.txt")");
  const BuiltModel built = build_model(s);
  EXPECT_DOUBLE_EQ(built.frames.youngs[0], 3e5);
  EXPECT_DOUBLE_EQ(built.frames.youngs[1], 9e5);
}

TEST_F(FactoryTest, ReferenceMeshSamplesTheRunsElementFieldAtItsCentroids) {
  // The run's mesh: 4 x 1 x 1 cubes of a 1 x 0.25 x 0.25 bar; its E file gives E = 1e5 + 1e6 x
  // at each tet's centroid x. The reference mesh (12 x 3 x 3 cubes) takes, per tet, the value of
  // the run's tet that contains its centroid.
  const TetMesh coarse = make_box(Vec3(1.0, 0.25, 0.25), Eigen::Vector3i(4, 1, 1), 5);
  auto centroid = [](const TetMesh& m, int e) {
    Vec3 c = Vec3::Zero();
    for (int a = 0; a < 4; ++a) c += m.vertices.row(m.tets(e, a)).transpose();
    return Vec3(0.25 * c);
  };
  std::string values;
  for (int e = 0; e < coarse.num_tets(); ++e)
    values += std::to_string(1e5 + 1e6 * centroid(coarse, e).x()) + "\n";
  write("E.txt", values);
  write("pair.json", R"({"time": {"dt": 0.01, "steps": 1}, "objects": [{
      "mesh": {"box": {"size": [1, 0.25, 0.25], "cells": [4, 1, 1]}},
      "reference": {"mesh": {"box": {"size": [1, 0.25, 0.25], "cells": [12, 3, 3]}}},
      "eigenfit": {"method": "none"},
      "material": {"model": "linear", "E_file": "E.txt"}}]})");
  const SceneConfig s = parse_scene(m_dir / "pair.json");
  const BuiltModel run = build_model(s);  // the run's mesh reads the file as it is
  ASSERT_EQ(run.frames.youngs.size(), coarse.num_tets());
  const BuiltModel fine = build_model(reference_scene(s));
  const TetMesh& mesh = fine.frames.mesh;
  ASSERT_EQ(fine.frames.youngs.size(), mesh.num_tets());
  for (int e = 0; e < mesh.num_tets(); ++e) {
    const Vec3 c = centroid(mesh, e);
    // The containing run tet: the one whose barycentric coordinates of c are all >= 0.
    int containing = -1;
    for (int q = 0; q < coarse.num_tets() && containing < 0; ++q) {
      Eigen::Matrix3d D;
      for (int a = 0; a < 3; ++a)
        D.col(a) =
            (coarse.vertices.row(coarse.tets(q, a + 1)) - coarse.vertices.row(coarse.tets(q, 0)))
                .transpose();
      const Vec3 w = D.inverse() * (c - coarse.vertices.row(coarse.tets(q, 0)).transpose());
      if (w.minCoeff() >= -1e-12 && w.sum() <= 1 + 1e-12) containing = q;
    }
    ASSERT_GE(containing, 0) << "centroid of reference tet " << e;
    EXPECT_EQ(fine.frames.youngs[e], run.frames.youngs[containing]) << e;
  }
}

TEST_F(FactoryTest, ElementFieldErrorsNameFileLineAndCounts) {
  write("short.txt", "3e5\n");
  write("bad.txt", "3e5\nabc\n");
  write("negative.txt", "3e5 -1\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"short.txt", "expected 2 values (one per element), found 1"},
      {"bad.txt", "bad.txt:2: expected a number, found 'abc'"},
      {"negative.txt",
       "negative.txt: value 2 (element 1): expected a positive Young's modulus, found -1"},
      {"missing.txt", "missing.txt"}};
  for (const auto& [file, expected] : cases) {
    // A missing file is caught while parsing (path checks), the others when the model is built.
    try {
      build_model(scene("", R"(, "E_file": ")" + file + "\""));
      FAIL() << file;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("E_file"), std::string::npos) << e.what();
    }
  }
}

TEST_F(FactoryTest, InitialStretchAndCompressScaleAlongTheAxisFromTheMinusEnd) {
  for (const auto& [key, factor] :
       std::vector<std::pair<std::string, double>>{{"stretch", 1.25}, {"compress", 0.75}}) {
    const SceneConfig s =
        scene(R"(, "initial": {")" + key + R"(": {"axis": "x", "amount": 0.25}})");
    const BuiltModel built = build_model(s);
    const VecX x = built.model->full_positions(built.initial.q);
    // Vertex 1 is at x = 1, vertex 0 at x = 0 (the -x end, which stays).
    EXPECT_DOUBLE_EQ(x[3 * 1], factor) << key;
    EXPECT_DOUBLE_EQ(x[3 * 0], 0.0) << key;
    EXPECT_DOUBLE_EQ(x[3 * 1 + 1], 0.0) << key;                             // other axes untouched
    EXPECT_GT(built.model->potential_energy(built.initial.q), 0.0) << key;  // pre-strained
  }
}

TEST_F(FactoryTest, ContactBoundsTheLineSearchOfMaterialsThatAllowInversion) {
  // Two corotated tets 1 m above an IPC plane, squashed flat along z by a step that would invert
  // both at half its length: with "contact" the step is cut where every tet keeps 10 % of its
  // volume (model/tet_inversion_step.hpp); without, corotated allows it whole.
  const std::string lift = R"(, "transform": {"translate": [0, 0, 1]})";
  for (const bool contact : {false, true}) {
    write("s.json", std::string(R"({"time": {"dt": 0.01, "steps": 1}, "objects": [{"mesh":
      {"file": "two.node")") +
                        lift + R"(}, "material": {"model": "corotated", "E": 1e5}}],
      "integrator": {"type": "be"})" +
                        (contact ? R"(, "contact": {"dhat": 1e-3},
      "obstacles": [{"plane": {"point": [0, 0, 0], "normal": [0, 0, 1]}}])"
                                 : "") +
                        "}");
    const BuiltModel built = build_model(parse_scene(m_dir / "s.json"));
    const VecX q = built.initial.q;
    VecX dq = VecX::Zero(q.size());
    for (Eigen::Index i = 2; i < q.size(); i += 3) dq[i] = -2.0 * (q[i] - 1.0);  // z -> 2 - z
    const double alpha = built.model->max_feasible_step(q, dq);
    if (contact) {
      EXPECT_LT(alpha, 0.5);
      EXPECT_GT(alpha, 0.4);
    } else {
      EXPECT_EQ(alpha, 1.0);
    }
  }
}

}  // namespace
}  // namespace simrun
