#pragma once
/// A constraint enforced by moving the state after each accepted time step instead of through an
/// energy (Chen thesis Sec. 4.2: "the collision is resolved by projecting each particle onto the
/// closest point on the sphere"). The step loop (sim/simulated_system.hpp) applies every
/// projection once per accepted step, for every integrator; integrators never see it inside a
/// step. A projected state differs from what the integrator produced, so multistep integrators
/// (BDF2, SBDF2ERE, Newmark's kept acceleration, BE's predictor) find that their history does
/// not belong to it (same_state) and restart from it as they do after a release.
#include <string>

#include "core/types.hpp"
#include "fem/dof_map.hpp"

namespace simrun {

class StateProjection {
 public:
  virtual ~StateProjection() = default;
  /// What it is, for notes and messages ("sphere obstacle").
  virtual std::string name() const = 0;
  /// Moves full positions x and velocities v (3n each) of the vertices whose DOFs are free in
  /// `dofs` (constrained vertices follow their prescribed motion and are left alone). Returns
  /// the number of vertices it changed.
  virtual int project(const DofMap& dofs, VecX& x, VecX& v) const = 0;
};

}  // namespace simrun
