#include "scene/friction_terms.hpp"

#include "core/error.hpp"

namespace simrun {

std::unique_ptr<FrictionTerm> make_friction_term(const SceneConfig& scene,
                                                 const ContactBarrier& barrier,
                                                 std::vector<std::string>& notes) {
  if (!scene.contact || !(scene.contact->friction > 0.0)) return nullptr;
  FrictionSettings settings;
  settings.mu = scene.contact->friction;
  settings.epsv = scene.contact->epsv;
  settings.dt = scene.time.dt;
  auto term = std::make_unique<FrictionTerm>(barrier, settings);
  notes.push_back("friction: mu = " + short_number(settings.mu) +
                  ", eps_v = " + short_number(settings.epsv) + " m/s, sticking below " +
                  short_number(term->threshold()) + " m per step (eps_v dt), lagged per step");
  return term;
}

}  // namespace simrun
