#pragma once
/// One named term of the potential energy (elastic, gravity, later springs, contact...).
/// Positions x are full (3n, constrained DOFs at their prescribed values); gradients are full;
/// Hessians are written into the free-DOF system pattern the term was bound to.
#include <string>

#include "core/types.hpp"
#include "fem/dof_map.hpp"

namespace simrun {

class EnergyTerm {
 public:
  virtual ~EnergyTerm() = default;
  /// Column name in energy.csv.
  virtual std::string name() const = 0;
  virtual double energy(const VecX& x) const = 0;
  /// g += dE/dx (full space).
  virtual void add_gradient(const VecX& x, VecX& g) const = 0;
  /// Precomputes where the term's Hessian entries go in `pattern` (free DOFs).
  virtual void bind(const SpMat& pattern, const DofMap& dofs) = 0;
  /// values += d2E/dx2 restricted to free DOFs, into the bound pattern's value array. With
  /// project_psd, each element contribution is projected to be positive semidefinite.
  virtual void add_hessian(const VecX& x, double* values, bool project_psd) const = 0;
  /// True when the Hessian does not depend on x (quadratic energy).
  virtual bool is_quadratic() const = 0;
  /// Time-dependent loads (wind) take the time at which the next step's forces act; the
  /// default term does not depend on time.
  virtual void set_time(double /*t*/) {}
};

}  // namespace simrun
