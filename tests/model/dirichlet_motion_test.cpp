// Prescribed Dirichlet motion (translate, shake, twist), the release schedule, Model's DOF-map
// rebuild on a release, and the wind load.
#include "model/dirichlet_motion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mesh/boundary.hpp"
#include "model/wind_load.hpp"
#include "model_fixture.hpp"

namespace simrun {
namespace {

constexpr double kPi = std::numbers::pi;

PrescribedMotion translate(const Vec3& v) {
  PrescribedMotion m;
  m.kind = PrescribedMotion::Kind::kTranslate;
  m.velocity = v;
  return m;
}

PrescribedMotion shake(double amplitude, double frequency, const Vec3& direction, double duration) {
  PrescribedMotion m;
  m.kind = PrescribedMotion::Kind::kShake;
  m.amplitude = amplitude;
  m.frequency = frequency;
  m.direction = direction;
  m.duration = duration;
  return m;
}

PrescribedMotion twist(const Vec3& axis, const Vec3& point, double omega) {
  PrescribedMotion m;
  m.kind = PrescribedMotion::Kind::kTwist;
  m.axis = axis;
  m.point = point;
  m.angular_velocity = omega;
  return m;
}

TEST(PrescribedMotion, TranslateMovesAtConstantVelocityThenHolds) {
  PrescribedMotion m = translate(Vec3(0.5, -1.0, 2.0));
  const Vec3 x0(1, 2, 3);
  EXPECT_TRUE(m.position(x0, 0.0).isApprox(x0));
  EXPECT_TRUE(m.position(x0, 0.3).isApprox(x0 + 0.3 * Vec3(0.5, -1.0, 2.0)));
  m.duration = 0.2;
  EXPECT_TRUE(m.position(x0, 0.7).isApprox(x0 + 0.2 * Vec3(0.5, -1.0, 2.0)));
  EXPECT_EQ(m.velocity_at(x0, 0.7), Vec3::Zero());
  EXPECT_TRUE(m.velocity_at(x0, 0.1).isApprox(Vec3(0.5, -1.0, 2.0)));
}

TEST(PrescribedMotion, ShakeIsSinusoidalAndBackAtRestAfterWholePeriods) {
  // 2 Hz for 0.5 s = one period: the vertices are back at x0 and held there.
  const PrescribedMotion m = shake(0.1, 2.0, Vec3::UnitY(), 0.5);
  const Vec3 x0(1, 0, 0);
  EXPECT_NEAR((m.position(x0, 0.125) - (x0 + 0.1 * Vec3::UnitY())).norm(), 0.0, 1e-15);  // peak
  EXPECT_NEAR((m.position(x0, 0.5) - x0).norm(), 0.0, 1e-15);
  EXPECT_NEAR((m.position(x0, 3.0) - x0).norm(), 0.0, 1e-15);
  EXPECT_EQ(m.velocity_at(x0, 3.0), Vec3::Zero());
}

// A late start (the thesis' cloth falls first and is shaken from t = 1 s): held at x0 before,
// then the same motion shifted by `start`, its duration counted from the start.
TEST(PrescribedMotion, ALateStartHoldsThenRunsTheShiftedMotion) {
  PrescribedMotion late = shake(0.1, 2.0, Vec3::UnitY(), 0.5);
  late.start = 1.0;
  const PrescribedMotion early = shake(0.1, 2.0, Vec3::UnitY(), 0.5);
  const Vec3 x0(1, 0, 0);
  for (double t : {0.0, 0.4, 0.999}) {
    EXPECT_EQ(late.position(x0, t), x0) << t;
    EXPECT_EQ(late.velocity_at(x0, t), Vec3::Zero()) << t;
  }
  for (double tau : {0.0, 0.125, 0.3, 0.49, 0.7, 2.0}) {
    EXPECT_NEAR((late.position(x0, 1.0 + tau) - early.position(x0, tau)).norm(), 0.0, 1e-15) << tau;
    EXPECT_NEAR((late.velocity_at(x0, 1.0 + tau) - early.velocity_at(x0, tau)).norm(), 0.0, 1e-12)
        << tau;
  }
}

TEST(PrescribedMotion, TwistRotatesAboutTheAxisLineByOmegaT) {
  const PrescribedMotion m = twist(Vec3::UnitX(), Vec3(0, 1, 1), kPi / 2);  // 90 deg per second
  const Vec3 x0(3, 2, 1);  // offset (0, 1, 0) from the axis line
  // After 1 s: (0,1,0) -> (0,0,1) (right-handed about +x).
  EXPECT_NEAR((m.position(x0, 1.0) - Vec3(3, 1, 2)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((m.position(x0, 2.0) - Vec3(3, 0, 1)).norm(), 0.0, 1e-14);
  EXPECT_NEAR(m.max_speed(x0.transpose()), kPi / 2, 1e-14);
}

TEST(PrescribedMotion, VelocityIsTheTimeDerivativeOfPosition) {
  const Vec3 x0(0.3, -0.2, 0.7);
  for (const PrescribedMotion& m :
       {translate(Vec3(1, 2, 3)), shake(0.05, 3.0, Vec3(1, 1, 0).normalized(), 10.0),
        twist(Vec3(0, 0.6, 0.8), Vec3(0.1, 0.2, 0.3), 2.5)}) {
    // Not at t = 0: the motion starts there (held before), a kink in the position.
    for (double t : {0.01, 0.17, 0.61}) {
      const double eps = 1e-6;
      const Vec3 fd = (m.position(x0, t + eps) - m.position(x0, t - eps)) / (2 * eps);
      // Central difference error O(eps^2 |x'''|) ~ 1e-10 here.
      EXPECT_NEAR((fd - m.velocity_at(x0, t)).norm(), 0.0, 1e-8) << static_cast<int>(m.kind);
    }
  }
}

TEST(DirichletSchedule, LaterGroupOwnsSharedVerticesAndReleasesThem) {
  const VecX x0 = VecX::LinSpaced(12, 0.0, 11.0);  // 4 vertices
  DirichletGroup fixed{{0, 1, 2}, {}};             // never released
  DirichletGroup released{{2, 3}, translate(Vec3(1, 0, 0)), 0.4};
  const DirichletSchedule s({fixed, released}, x0, 1e-9);
  EXPECT_EQ(s.constrained_vertices(0.0), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(s.constrained_vertices(0.3), (std::vector<int>{0, 1, 2, 3}));
  // A step starting at 0.4 (within the tolerance: accumulated round-off of t) is free.
  EXPECT_EQ(s.constrained_vertices(0.4 - 1e-12), (std::vector<int>{0, 1}));
  EXPECT_EQ(s.constrained_vertices(0.5), (std::vector<int>{0, 1}));
  EXPECT_TRUE(s.has_releases());
  EXPECT_FALSE(DirichletSchedule({fixed}, x0).has_releases());
  EXPECT_TRUE(s.is_time_dependent());
  VecX x = VecX::Zero(12), v = VecX::Zero(12);
  s.fill(2.0, x, v);
  EXPECT_DOUBLE_EQ(x[3 * 1], x0[3 * 1]);        // fixed
  EXPECT_DOUBLE_EQ(x[3 * 2], x0[3 * 2] + 2.0);  // vertex 2 follows the later (moving) group
  EXPECT_DOUBLE_EQ(v[3 * 3], 1.0);
  EXPECT_FALSE(DirichletSchedule({fixed}, x0).is_time_dependent());
}

TEST(ModelRelease, RebuiltDofMapMatchesAFreshModel) {
  const Vec3 size(1, 0.2, 0.2);
  const Eigen::Vector3i cells(4, 1, 1);
  auto released = testing::make_box_model(size, cells, 6, false, {0, 1, 2, 3, 4, 5, 6, 7}, 1000.0,
                                          Vec3(0, -9.81, 0));
  // Keep only vertices 0..3 fixed, as a model built that way.
  released.model->set_fixed_vertices({0, 1, 2, 3});
  const auto fresh =
      testing::make_box_model(size, cells, 6, false, {0, 1, 2, 3}, 1000.0, Vec3(0, -9.81, 0));
  ASSERT_EQ(released.model->num_free(), fresh.model->num_free());
  EXPECT_NEAR((SpMat(released.model->mass() - fresh.model->mass())).norm(), 0.0, 1e-14);
  const VecX q = fresh.model->restrict_vector(fresh.model->rest_positions()) +
                 VecX::LinSpaced(fresh.model->num_free(), 0.0, 0.01);
  VecX g1, g2;
  released.model->potential_gradient(q, g1);
  fresh.model->potential_gradient(q, g2);
  EXPECT_NEAR((g1 - g2).norm(), 0.0, 1e-9 * g2.norm());
  SpMat K1, K2;
  released.model->stiffness(q, K1, false);
  fresh.model->stiffness(q, K2, false);
  EXPECT_NEAR((SpMat(K1 - K2)).norm(), 0.0, 1e-9 * K2.norm());
}

TEST(ModelPrescribedVelocity, EntersFullVelocitiesAndKineticEnergy) {
  auto box = testing::make_box_model(Vec3(1, 1, 1), Eigen::Vector3i(1, 1, 1), 6, true, {0});
  const int n = box.model->num_vertices();
  VecX x = box.model->rest_positions(), v = VecX::Zero(3 * n);
  v.segment<3>(0) = Vec3(2, 0, 0);  // vertex 0 (constrained) moves at 2 m/s
  box.model->set_constrained_state(x, v);
  const VecX vfree = VecX::Zero(box.model->num_free());
  EXPECT_DOUBLE_EQ(box.model->full_velocities(vfree)[0], 2.0);
  // Vertex 0 of a 1 m^3 cube at 1000 kg/m^3 split in 6 tets: lumped mass = sum of V_e rho / 4
  // over its tets.
  double m0 = 0.0;
  for (int e = 0; e < box.mesh.num_tets(); ++e)
    for (int a = 0; a < 4; ++a)
      if (box.mesh.tets(e, a) == 0) m0 += 1000.0 * box.elements.volume[e] / 4;
  EXPECT_NEAR(box.model->energies(box.model->restrict_vector(x), vfree)[0].second, 0.5 * m0 * 4.0,
              1e-9);
}

TEST(WindLoad, TotalForceIsPressureTimesProjectedWindwardArea) {
  const TetMesh box = make_box(Vec3(2.0, 0.5, 0.25), Eigen::Vector3i(4, 2, 2), 6);
  const VecX rest = as_flat(box.vertices);
  const MatX3i faces = boundary_faces(box);
  auto total_force = [&](const WindLoad& wind) {
    Vec3 f = Vec3::Zero();
    for (Eigen::Index i = 0; i < wind.forces().size(); ++i) f[i % 3] += wind.forces()[i];
    return f;
  };
  WindSettings s;
  s.pressure = 10.0;
  s.direction = Vec3(3, 0, 0);  // normalized by the term; loads the -x face (0.5 x 0.25)
  EXPECT_NEAR((total_force(WindLoad(s, rest, faces)) - Vec3(10.0 * 0.125, 0, 0)).norm(), 0, 1e-12);
  // Oblique in x-y: the -x face (0.125 m^2) and the -y face (2 x 0.25 = 0.5 m^2) both face it,
  // each seen at cos 45 deg.
  s.direction = Vec3(1, 1, 0);
  const Vec3 d = Vec3(1, 1, 0).normalized();
  EXPECT_NEAR((total_force(WindLoad(s, rest, faces)) - 10.0 * (0.125 + 0.5) * d.x() * d).norm(), 0,
              1e-12);
  // Gusts: p(t) = p0 (1 + 0.5 sin(2 pi t)); at t = 1/4 s the pressure is 1.5 p0.
  s.direction = Vec3(0, 0, -1);  // loads the +z face, 2 x 0.5 = 1 m^2
  s.gust_amplitude = 0.5;
  s.gust_frequency = 1.0;
  WindLoad gusty(s, rest, faces);
  gusty.set_time(0.25);
  EXPECT_NEAR((total_force(gusty) - Vec3(0, 0, -15.0)).norm(), 0, 1e-12);
  // The force is -dE/dx and E is zero at rest.
  VecX g = VecX::Zero(rest.size());
  gusty.add_gradient(rest, g);
  EXPECT_NEAR((g + gusty.forces()).norm(), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(gusty.energy(rest), 0.0);
}

TEST(WindLoad, SwayTurnsTheDirectionAboutItsAxis) {
  WindSettings s;
  s.pressure = 1.0;
  s.direction = Vec3::UnitX();
  s.sway_axis = Vec3::UnitY();
  s.sway_angle_deg = 30.0;
  s.sway_frequency = 1.0;
  const TetMesh box = make_box(Vec3(1, 1, 1), Eigen::Vector3i(1, 1, 1), 6);
  const WindLoad wind(s, as_flat(box.vertices), boundary_faces(box));
  // At t = 1/4 s the swing is at its +30 deg extreme: x rotated about +y goes toward -z.
  const double a = 30.0 * kPi / 180.0;
  EXPECT_NEAR((wind.direction_at(0.25) - Vec3(std::cos(a), 0, -std::sin(a))).norm(), 0.0, 1e-14);
  EXPECT_NEAR((wind.direction_at(0.0) - Vec3::UnitX()).norm(), 0.0, 1e-14);
}

}  // namespace
}  // namespace simrun
