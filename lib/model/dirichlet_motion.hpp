#pragma once
/// Prescribed (moving) Dirichlet constraints and their release during a run.
///
/// Each Dirichlet group is a set of vertices with a motion relative to their initial positions
/// X0: fixed (x = X0), translate (x = X0 + v t), shake (x = X0 + A d sin(2 pi f t)) or twist
/// (rotation about an axis line at angular velocity omega, x = p + R(a, omega t)(X0 - p)). A
/// motion may begin at a time `start` (held at X0 before; t above is then t - start) and stop
/// after `duration` seconds of motion; the vertices are then held where the motion left them
/// (for a shake whose duration is a whole number of periods, that is X0). A group may be
/// released at a time T: its vertices are constrained in every step that starts before T and
/// free in every step that starts at T or later, keeping the prescribed velocity they had at the
/// start of that step (the scene's "release_step": k is T = (k - 1) dt: constrained during steps
/// 1..k-1, free from step k on).
/// Chen thesis Sec. 3.4.2 (Figs. 3.7-3.8): EigenFit shakes the armadillo's feet for 30 frames
/// and releases one leg mid-run; the authors' GAUSS code moves pinned vertices a fixed step/frame.
#include <limits>
#include <vector>

#include "core/types.hpp"

namespace simrun {

struct PrescribedMotion {
  enum class Kind { kFixed, kTranslate, kShake, kTwist };
  Kind kind = Kind::kFixed;
  Vec3 velocity = Vec3::Zero();    ///< translate [m/s]
  Vec3 direction = Vec3::UnitX();  ///< shake: unit direction
  double amplitude = 0.0;          ///< shake: displacement amplitude [m]
  double frequency = 0.0;          ///< shake [Hz]
  Vec3 axis = Vec3::UnitX();       ///< twist: unit axis direction
  Vec3 point = Vec3::Zero();       ///< twist: a point on the axis line [m]
  double angular_velocity = 0.0;   ///< twist: [rad/s], right-handed about `axis`
  double duration = std::numeric_limits<double>::infinity();  ///< motion time [s], then held
  double start = 0.0;  ///< the motion begins at this time [s]; held at x0 before

  /// Position at time t of a vertex that starts at x0.
  Vec3 position(const Vec3& x0, double t) const;
  /// Velocity at time t of that vertex (zero once the motion has stopped).
  Vec3 velocity_at(const Vec3& x0, double t) const;
  /// Largest speed of a vertex starting at one of the rows of x0 [m/s].
  double max_speed(const MatX3& x0) const;
};

struct DirichletGroup {
  std::vector<int> vertices;  ///< global vertex indices
  PrescribedMotion motion;
  /// Free in steps that start at or after this time [s]; infinity = never released.
  double release_time = std::numeric_limits<double>::infinity();
};

/// All Dirichlet groups of a scene. A vertex selected by several groups belongs to the last one
/// (its motion and release apply).
class DirichletSchedule {
 public:
  DirichletSchedule() = default;
  /// initial: full 3n initial positions (the X0 of every motion). time_tolerance: a step that
  /// starts within this of a release time counts as starting at it (accumulated round-off of t).
  DirichletSchedule(std::vector<DirichletGroup> groups, const VecX& initial,
                    double time_tolerance = 1e-12);

  /// Sorted vertices constrained in a step that starts at time t.
  std::vector<int> constrained_vertices(double t) const;
  /// True when some group is ever released.
  bool has_releases() const;
  /// Writes the prescribed positions and velocities at time t into the entries of every
  /// vertex owned by a group (full 3n vectors; other entries untouched).
  void fill(double t, VecX& x, VecX& v) const;
  /// True when some group moves (not merely fixed) or is released.
  bool is_time_dependent() const;
  /// True when some group moves: the boundary then does work on the body (a release does not).
  bool has_moving_groups() const;
  /// Largest prescribed speed over all groups [m/s].
  double max_speed() const;

 private:
  std::vector<DirichletGroup> m_groups;
  std::vector<int> m_owner;  ///< per vertex: owning group or -1
  VecX m_initial;
  double m_time_tolerance = 1e-12;
};

}  // namespace simrun
