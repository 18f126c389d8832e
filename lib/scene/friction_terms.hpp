#pragma once
/// The scene's IPC friction term (docs/contact.md): contact.friction = mu, contact.epsv = eps_v,
/// the step h = time.dt, on the pairs of the scene's contact barrier.
#include <memory>
#include <string>
#include <vector>

#include "contact/friction.hpp"
#include "scene/scene_config.hpp"

namespace simrun {

/// nullptr when the scene has no contact or mu = 0. barrier must outlive the returned term.
std::unique_ptr<FrictionTerm> make_friction_term(const SceneConfig& scene,
                                                 const ContactBarrier& barrier,
                                                 std::vector<std::string>& notes);

}  // namespace simrun
