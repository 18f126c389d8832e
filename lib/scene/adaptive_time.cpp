#include "scene/adaptive_time.hpp"

#include <string>

#include "integrate/adaptive_quadrature.hpp"

namespace simrun {

using nlohmann::json;

AdaptiveSettings adaptive_from_json(const json& j) {
  AdaptiveSettings s;
  s.rule = j.at("rule").get<std::string>();
  s.scheme = j.at("scheme").get<std::string>();
  s.sigma_at = j.contains("sigma_at")     ? j["sigma_at"].get<std::string>()
               : s.scheme == "reversible" ? "midpoint"
                                          : "start";
  s.epsilon = j.at("epsilon").get<double>();
  s.sigma_min = j.at("sigma_min").get<double>();
  s.c = j.at("c").get<double>();
  s.energy_scale = j.at("energy_scale").get<double>();
  s.tolerance = j.at("tolerance").get<double>();
  s.max_iterations = j.at("max_iterations").get<int>();
  return s;
}

void check_adaptive_time(const json& scene, std::vector<SchemaViolation>& out) {
  const json& time = scene.at("time");
  if (!time.contains("adaptive")) return;
  const std::string pointer = "/time/adaptive";
  const json& integrator = scene.at("integrator");
  const std::string type = integrator.at("type").get<std::string>();
  const double alpha = integrator.contains("alpha") ? integrator["alpha"].get<double>() : 0.5;
  const std::vector<QuadraturePoint> quadrature = adaptive_quadrature(type, alpha);
  if (quadrature.empty())
    out.push_back({pointer,
                   "time adaptivity needs a variational integrator (verlet, "
                   "symplectic_euler, variational_midpoint, variational_alpha), found '" +
                       type + "'"});
  if (!time.contains("end"))
    out.push_back({"/time/end",
                   "an adaptive run needs the end time 'end' (its step count "
                   "follows from the steps sigma chooses)"});
  const AdaptiveSettings s = adaptive_from_json(time["adaptive"]);
  if (s.scheme == "reversible") {
    if (s.sigma_at != "midpoint")
      out.push_back({pointer + "/sigma_at",
                     "the reversible scheme needs a symmetric sigma "
                     "('midpoint'), found '" +
                         s.sigma_at + "'"});
    if (!quadrature.empty() && !is_symmetric_quadrature(quadrature))
      out.push_back({pointer + "/scheme",
                     "the reversible scheme needs a symmetric Lagrangian (Eq. 3.29: verlet or "
                     "variational_midpoint), found '" +
                         type + "'" + (type == "variational_alpha" ? " with alpha != 0.5" : "")});
  }
  // Rayleigh damping enters by the forced form (thesis Sec. 3.3.5); the viscous one does not.
  if (scene.at("damping").contains("viscous"))
    out.push_back({"/damping/viscous",
                   "adaptive steps take Rayleigh damping (\"mass\", \"stiffness\") but not the "
                   "viscous damping; remove /damping/viscous or /time/adaptive"});
  if (scene.contains("wind"))
    out.push_back({pointer, "adaptive steps take no time-dependent loads; remove /wind"});
  const json& objects = scene.at("objects");
  for (size_t i = 0; i < objects.size(); ++i) {
    if (objects[i].contains("reference"))
      out.push_back({"/objects/" + std::to_string(i) + "/reference",
                     "adaptive runs do not step reference meshes alongside (their steps differ), "
                     "see /time/adaptive"});
    if (!objects[i].contains("dirichlet")) continue;
    const json& groups = objects[i]["dirichlet"];
    for (size_t k = 0; k < groups.size(); ++k)
      for (const char* key : {"motion", "release_step", "release_time"})
        if (groups[k].contains(key))
          out.push_back(
              {"/objects/" + std::to_string(i) + "/dirichlet/" + std::to_string(k) + "/" + key,
               "adaptive steps take fixed boundaries only (no motion or release), "
               "see /time/adaptive"});
  }
}

}  // namespace simrun
