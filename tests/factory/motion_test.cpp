// Prescribed Dirichlet motion, release, gravity_scale and wind through scene files: parse, build,
// run the Simulation and read the constrained vertices back through Model::full_positions.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "core/error.hpp"
#include "mesh/selection.hpp"
#include "scene/factory.hpp"
#include "scene/parse_scene.hpp"

namespace simrun {
namespace {

namespace fs = std::filesystem;

class MotionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            ("simrun_motion_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  /// A 1 x 0.1 x 0.1 bar (4 x 1 x 1 cells of 6 tets: rk4 at dt = 0.01 is stable below the
  /// 6-split's highest frequency, not the 5-split's), dt = 0.01, no gravity unless `extra`
  /// (top-level keys) sets it; `dirichlet` is the JSON array's body.
  SceneConfig scene(const std::string& dirichlet, const std::string& extra = "",
                    const std::string& integrator = "si", int steps = 10,
                    const std::string& object_extra = "") {
    std::ofstream(m_dir / "s.json")
        << R"({"time": {"dt": 0.01, "steps": )" << steps << "}, "
        << (extra.find("\"gravity\"") == std::string::npos ? R"("gravity": [0, 0, 0],)" : "")
        << R"("integrator": {"type": ")" << integrator << R"("}, "output": {"frames": []},
      "objects": [{"mesh": {"box": {"size": [1, 0.1, 0.1], "cells": [4, 1, 1], "split": 6}},
        "material": {"model": "linear", "E": 1e5, "nu": 0.3, "density": 1000},
        "dirichlet": [)"
        << dirichlet << "]" << object_extra << "}]" << extra << "}";
    return parse_scene(m_dir / "s.json");
  }

  /// Runs the scene, calling check(step, t, full positions, full velocities) after every step.
  RunResult run(const SceneConfig& s,
                const std::function<void(int, double, const VecX&, const VecX&)>& check) {
    auto sim = build_simulation(s);
    RunSettings settings = run_settings(s);
    settings.out_dir = m_dir / "out";
    return sim->run(settings, [&](int step) {
      const Model& model = sim->model();
      check(step, sim->state().t, model.full_positions(sim->state().q),
            model.full_velocities(sim->state().v));
    });
  }

  /// Rest positions of the bar and the vertices of one of its sides.
  std::vector<int> side(const SceneConfig& s, const std::string& name) {
    Selection sel;
    sel.kind = Selection::Kind::kSide;
    sel.side = name;
    return select_vertices(build_model(s).frames.mesh, sel);
  }
  MatX3 rest(const SceneConfig& s) { return build_model(s).frames.mesh.vertices; }

  void expect_input_error(const std::string& dirichlet, const std::string& extra,
                          const std::string& pointer) {
    try {
      scene(dirichlet, extra);
      FAIL() << "expected InputError naming " << pointer;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(pointer), std::string::npos) << e.what();
    }
  }

  fs::path m_dir;
};

constexpr const char* kFixedMinusX = R"({"select": {"side": "-x"}})";

TEST_F(MotionTest, TranslateMovesTheSelectionToXPlusVtAtEveryStep) {
  for (const std::string integrator : {"si", "be", "bdf2", "rk4"}) {
    const SceneConfig s = scene(std::string(kFixedMinusX) + R"(, {"select": {"side": "+x"},
        "motion": {"translate": {"velocity": [0.1, 0.02, 0]}}})",
                                "", integrator);
    const std::vector<int> end = side(s, "+x"), fixed = side(s, "-x");
    const MatX3 X = rest(s);
    int checked = 0;
    const RunResult r = run(s, [&](int step, double t, const VecX& x, const VecX& v) {
      EXPECT_NEAR(t, 0.01 * step, 1e-12);
      for (int i : end) {
        const Vec3 expected = X.row(i).transpose() + t * Vec3(0.1, 0.02, 0);
        EXPECT_NEAR((x.segment<3>(3 * i) - expected).norm(), 0.0, 1e-12) << integrator;
        EXPECT_NEAR((v.segment<3>(3 * i) - Vec3(0.1, 0.02, 0)).norm(), 0.0, 1e-12);
      }
      for (int i : fixed) EXPECT_EQ(x.segment<3>(3 * i), X.row(i).transpose());
      ++checked;
    });
    EXPECT_EQ(r.status, RunStatus::kFinished) << integrator << ": " << r.message;
    EXPECT_EQ(checked, 10);
  }
}

TEST_F(MotionTest, ShakeIsSinusoidalForItsStepsThenBackAtRest) {
  // 5 Hz for 20 steps of 0.01 s = one period; then held at rest for 10 more steps.
  const SceneConfig s = scene(std::string(kFixedMinusX) + R"(, {"select": {"side": "+x"},
      "motion": {"shake": {"direction": [0, 2, 0], "amplitude": 0.02, "frequency": 5, "steps": 20}}})",
                              "", "be", 30);
  const std::vector<int> end = side(s, "+x");
  const MatX3 X = rest(s);
  bool moved_in_between = false;
  const RunResult r = run(s, [&](int step, double t, const VecX& x, const VecX& v) {
    for (int i : end) {
      const Vec3 u = x.segment<3>(3 * i) - X.row(i).transpose();
      if (step <= 20) {
        EXPECT_NEAR((u - 0.02 * std::sin(2 * M_PI * 5 * t) * Vec3::UnitY()).norm(), 0.0, 1e-14);
        if (u.norm() > 0.019) moved_in_between = true;  // the peak at step 5 (t = 1/4 period)
      } else {
        EXPECT_NEAR(u.norm(), 0.0, 1e-14) << "step " << step;  // 0.02 sin(2 pi) ~ 5e-18
        EXPECT_EQ(v.segment<3>(3 * i), Vec3::Zero());
      }
    }
  });
  EXPECT_EQ(r.status, RunStatus::kFinished) << r.message;
  EXPECT_TRUE(moved_in_between);
}

TEST_F(MotionTest, TwistRotatesTheSelectionByOmegaTAboutItsCentroidAxis) {
  const SceneConfig s = scene(std::string(kFixedMinusX) + R"(, {"select": {"side": "+x"},
      "motion": {"twist": {"axis": [1, 0, 0], "angular_velocity": 2.0}}})");
  const std::vector<int> end = side(s, "+x");
  const MatX3 X = rest(s);
  const Vec3 center(1.0, 0.05, 0.05);  // centroid of the +x face's 4 vertices
  const RunResult r = run(s, [&](int, double t, const VecX& x, const VecX&) {
    for (int i : end) {
      const Vec3 d = X.row(i).transpose() - center;
      // Right-handed rotation about +x by theta = omega t.
      const double c = std::cos(2.0 * t), sn = std::sin(2.0 * t);
      const Vec3 expected = center + Vec3(d.x(), c * d.y() - sn * d.z(), sn * d.y() + c * d.z());
      EXPECT_NEAR((x.segment<3>(3 * i) - expected).norm(), 0.0, 1e-14);
    }
  });
  EXPECT_EQ(r.status, RunStatus::kFinished) << r.message;
}

TEST_F(MotionTest, ReleasedSelectionIsHeldBeforeStepKAndFallsFromStepKOn) {
  for (const std::string integrator : {"si", "be", "bdf2"}) {
    const SceneConfig s =
        scene(std::string(kFixedMinusX) + R"(, {"select": {"side": "+x"}, "release_step": 5})",
              R"(, "gravity": [0, -9.81, 0])", integrator);
    const std::vector<int> end = side(s, "+x");
    const MatX3 X = rest(s);
    const RunResult r = run(s, [&](int step, double, const VecX& x, const VecX& v) {
      for (int i : end) {
        const double uy = x[3 * i + 1] - X(i, 1);
        if (step < 5) {
          EXPECT_EQ(uy, 0.0) << integrator << " step " << step;
          EXPECT_EQ(v[3 * i + 1], 0.0);
        } else {
          // Free from step 5 on: pulled down by gravity and by the sagging bar.
          EXPECT_LT(uy, 0.0) << integrator << " step " << step;
          EXPECT_LT(v[3 * i + 1], 0.0) << integrator << " step " << step;
        }
      }
    });
    EXPECT_EQ(r.status, RunStatus::kFinished) << integrator << ": " << r.message;
  }
}

TEST_F(MotionTest, ReleaseKeepsThePrescribedVelocity) {
  // The bar moves at 1 m/s along z (initial velocity), its x <= 0.6 part prescribed to do so;
  // that part is let go at step 4. With no strain and no loads the bar keeps moving rigidly at
  // 1 m/s, before and after the release (so the velocity was carried across the release).
  const SceneConfig s = scene(R"({"select": {"box": {"min": [-1, -1, -1], "max": [0.6, 1, 1]}},
                 "motion": {"translate": {"velocity": [0, 0, 1]}}, "release_step": 4})",
                              "", "be", 10, R"(, "initial": {"velocity": [0, 0, 1]})");
  const MatX3 X = rest(s);
  const RunResult r = run(s, [&](int, double t, const VecX& x, const VecX& v) {
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      EXPECT_NEAR(x[3 * i + 2] - X(i, 2), t, 1e-9);
      EXPECT_NEAR(v[3 * i + 2], 1.0, 1e-9);
    }
  });
  EXPECT_EQ(r.status, RunStatus::kFinished) << r.message;
}

TEST_F(MotionTest, GravityScaleMultipliesTheObjectsWeight) {
  const SceneConfig one = scene(kFixedMinusX, R"(, "gravity": [0, -9.81, 0])");
  std::ofstream(m_dir / "twenty.json") << R"({"extends": "s.json",
      "objects": [{"mesh": {"box": {"size": [1, 0.1, 0.1], "cells": [4, 1, 1], "split": 6}},
        "material": {"model": "linear", "E": 1e5, "nu": 0.3, "density": 1000},
        "dirichlet": [{"select": {"side": "-x"}}], "gravity_scale": 20}]})";
  const SceneConfig twenty = parse_scene(m_dir / "twenty.json");
  VecX g1, g20;
  const BuiltModel a = build_model(one), b = build_model(twenty);
  a.model->potential_gradient(a.initial.q, g1);
  b.model->potential_gradient(b.initial.q, g20);
  // At rest only gravity contributes: dU/dq = -m g per DOF. Total bar mass 10 kg; the fixed -x
  // face carries 1/8 of it (4 cells along x, half a cell per end face).
  EXPECT_NEAR(g1.sum(), 9.81 * 10.0 * 7.0 / 8.0, 1e-9);
  EXPECT_NEAR((g20 - 20.0 * g1).norm(), 0.0, 1e-9);
}

TEST_F(MotionTest, WindPushesWithPressureTimesProjectedArea) {
  // A free bar (no constraints), wind toward +x on the 0.1 x 0.1 end face: 50 Pa * 0.01 m^2.
  const SceneConfig s = scene("", R"(, "wind": {"pressure": 50, "direction": [1, 0, 0]})");
  const BuiltModel built = build_model(s);
  VecX g;
  built.model->potential_gradient(built.initial.q, g);
  Vec3 force = Vec3::Zero();
  for (Eigen::Index i = 0; i < g.size(); ++i) force[i % 3] -= g[i];
  EXPECT_NEAR((force - Vec3(0.5, 0, 0)).norm(), 0.0, 1e-12);
  bool has_wind_column = false;
  for (const auto& [name, value] : built.model->energies(built.initial.q, built.initial.v))
    has_wind_column = has_wind_column || name == "wind";
  EXPECT_TRUE(has_wind_column);
  // Run: the bar accelerates at F / m = 0.5 N / 10 kg (center of mass), so after t = 0.1 s its
  // momentum is F t = 0.05 kg m/s along x (BE conserves linear momentum under constant force).
  auto sim = build_simulation(s);
  RunSettings settings = run_settings(s);
  settings.out_dir = m_dir / "out";
  EXPECT_EQ(sim->run(settings).status, RunStatus::kFinished);
  const VecX p = sim->model().mass() * sim->state().v;
  double px = 0.0;
  for (Eigen::Index i = 0; i < p.size(); i += 3) px += p[i];
  EXPECT_NEAR(px, 0.05, 1e-9);
}

TEST_F(MotionTest, BadMotionInputNamesTheJsonPointer) {
  expect_input_error(R"({"select": {"side": "+x"}, "motion": {"shake": {"direction": [0, 1, 0],
      "amplitude": 0.1, "frequency": 2, "steps": -3}}})",
                     "", "/objects/0/dirichlet/0/motion/shake/steps");
  expect_input_error(R"({"select": {"side": "+x"}, "motion": {"twist": {"axis": [0, 0, 0],
      "angular_velocity": 1}}})",
                     "", "/objects/0/dirichlet/0/motion/twist/axis");
  expect_input_error(R"({"select": {"side": "+x"}, "motion": {"shake": {"direction": [0, 0, 0],
      "amplitude": 0.1, "frequency": 2}}})",
                     "", "/objects/0/dirichlet/0/motion/shake/direction");
  expect_input_error(R"({"select": {"side": "+x"}, "motion": {"translate": {}}})", "",
                     "/objects/0/dirichlet/0/motion/translate");
  expect_input_error(R"({"select": {"side": "+x"}, "release_step": 0})", "",
                     "/objects/0/dirichlet/0/release_step");
  expect_input_error(kFixedMinusX, R"(, "wind": {"pressure": 1, "direction": [0, 0, 0]})",
                     "/wind/direction");
  expect_input_error(kFixedMinusX, R"(, "wind": {"pressure": -1, "direction": [1, 0, 0]})",
                     "/wind/pressure");
}

}  // namespace
}  // namespace simrun
