#pragma once
/// The potential energy terms of a scene: one elastic term per tet object (its material model
/// and per-element parameters), the springs of every mass-spring object, gravity (with each
/// object's gravity_scale) and wind.
#include <memory>
#include <string>
#include <vector>

#include "fem/tet_elements.hpp"
#include "model/energy_term.hpp"
#include "scene/merged_objects.hpp"

namespace simrun {

struct SceneTerms {
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  bool time_dependent_loads = false;  ///< gusty or swaying wind
  std::vector<std::string> notes;     ///< for simrun.log
};

/// nodal_mass: lumped mass per DOF [kg] (tets and particles); surface: outward boundary faces.
/// Throws InputError naming /objects/i/material/model for an unknown model.
SceneTerms make_energy_terms(const SceneConfig& scene, const MergedObjects& objects,
                             const TetElements& elements, const VecX& nodal_mass,
                             const MatX3i& surface);

}  // namespace simrun
