#pragma once
/// Integrator settings are one flat object for every type (interface contract): a setting of
/// another type is valid JSON but has no effect. A user who sets `"modes": 10` with `"ere"`
/// believes something changed; this says it did not.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace simrun {

/// One note per integrator setting of the normalized scene that differs from its schema default
/// and that the chosen integrator type does not read ("integrator: /integrator/modes = 10 has no
/// effect with 'ere' (used by siere, sbdf2ere, str_sbdf2ere)"). Eigen settings count as read
/// when an object uses EigenFit.
std::vector<std::string> unused_integrator_settings(const nlohmann::json& normalized);

}  // namespace simrun
