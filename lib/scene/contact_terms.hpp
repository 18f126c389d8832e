#pragma once
/// The scene's IPC contact term (docs/contact.md): the collision mesh of every tet object, the
/// plane obstacles as barrier planes, d_hat from the scene's size and the barrier stiffness.
#include <memory>
#include <string>
#include <vector>

#include "contact/contact_barrier.hpp"
#include "scene/merged_objects.hpp"

namespace simrun {

/// nodal_mass: lumped mass per DOF [kg]. Throws InputError when the objects start touching or
/// crossing each other (naming the two objects) or below a plane.
std::unique_ptr<ContactBarrier> make_contact_barrier(const SceneConfig& scene,
                                                     const MergedObjects& objects,
                                                     const VecX& nodal_mass,
                                                     std::vector<std::string>& notes);

}  // namespace simrun
