#include "scene/scene_checks.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <string>

#include "core/error.hpp"
#include "material/voigt.hpp"
#include "scene/adaptive_time.hpp"

namespace simrun {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::array<const char*, 6> kMeshExtensions = {".node", ".mesh", ".msh",
                                                        ".off",  ".obj",  ".stl"};

void check_mesh_file(const json& mesh, const std::string& pointer,
                     std::vector<SchemaViolation>& out) {
  const fs::path file = mesh.at("file").get<std::string>();
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
  if (std::find(kMeshExtensions.begin(), kMeshExtensions.end(), ext) == kMeshExtensions.end()) {
    out.push_back(
        {pointer + "/file",
         "expected a mesh file ending in .node, .mesh, .msh, .off, .obj or .stl, found '" +
             file.string() + "'"});
    return;
  }
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    out.push_back({pointer + "/file", "mesh file not found: " + file.string()});
  else if (ext == ".node" && !fs::is_regular_file(fs::path(file).replace_extension(".ele"), ec))
    out.push_back({pointer + "/file", "TetGen .node file without its .ele beside it: " +
                                          fs::path(file).replace_extension(".ele").string()});
}

void check_select(const json& select, const std::string& pointer,
                  std::vector<SchemaViolation>& out) {
  if (!select.contains("box")) return;
  const json& box = select["box"];
  for (int i = 0; i < 3; ++i)
    if (box["min"][i].get<double>() > box["max"][i].get<double>()) {
      out.push_back({pointer + "/box", "expected min <= max in every coordinate, found min " +
                                           box["min"].dump() + " and max " + box["max"].dump()});
      return;
    }
}

bool is_zero_vector(const json& v) {
  return v[0].get<double>() == 0.0 && v[1].get<double>() == 0.0 && v[2].get<double>() == 0.0;
}

void require_nonzero(const json& parent, const char* key, const std::string& pointer,
                     const std::string& what, std::vector<SchemaViolation>& out) {
  if (parent.contains(key) && is_zero_vector(parent[key]))
    out.push_back(
        {pointer + "/" + key, "expected a non-zero " + what + ", found " + parent[key].dump()});
}

/// At most one of two keys that say the same thing in other units.
void require_not_both(const json& parent, const char* a, const char* b, const std::string& pointer,
                      std::vector<SchemaViolation>& out) {
  if (parent.contains(a) && parent.contains(b))
    out.push_back({pointer, std::string("expected '") + a + "' or '" + b + "', found both"});
}

/// "coarsening" (docs/coarsening.md): needs a reference mesh, a linear or corotated material,
/// and excludes EigenFit/DAC on the same object.
void check_coarsening(const json& object, const std::string& at, const std::string& eigenfit,
                      std::vector<SchemaViolation>& out) {
  const std::string method = object.at("coarsening").at("method").get<std::string>();
  if (method == "none") return;
  const std::string pointer = at + "/coarsening/method";
  if (!object.contains("reference"))
    out.push_back({pointer, "'" + method +
                                "' homogenizes a finer mesh of the object onto this one: add "
                                "\"reference\": {\"mesh\": {...}} (the fine mesh) to the object"});
  if (eigenfit != "none")
    out.push_back({pointer, "choose one of coarsening and eigenfit ('" + eigenfit +
                                "') for an object, not both"});
  const std::string model = object.at("material").at("model").get<std::string>();
  if (method == "galerkin" && model != "linear")
    out.push_back({at + "/material/model",
                   "the 'galerkin' baseline (a constant P^T K_f P) is "
                   "linear elasticity: expected 'linear', found '" +
                       model + "'"});
  if (model != "linear" && model != "corotated")
    out.push_back({at + "/material/model",
                   "numerical coarsening homogenizes linear elasticity (Kharevych thesis "
                   "Sec. 4.5): expected 'linear' or 'corotated', found '" +
                       model + "'"});
}

/// "C" goes with the anisotropic models and they need it; it must be symmetric positive definite.
void check_anisotropic(const json& object, const std::string& at,
                       std::vector<SchemaViolation>& out) {
  const json& material = object.at("material");
  const std::string model = material.at("model").get<std::string>();
  const bool anisotropic = model.rfind("anisotropic_", 0) == 0;
  if (anisotropic && !material.contains("C"))
    out.push_back({at + "/material", "'" + model +
                                         "' needs its 6x6 elasticity tensor \"C\" (Voigt order "
                                         "11 22 33 23 13 12, engineering shear)"});
  if (!material.contains("C")) return;
  if (!anisotropic) {
    out.push_back({at + "/material/C", "\"C\" is the tensor of the anisotropic models; '" + model +
                                           "' takes E and nu"});
    return;
  }
  VoigtTensor C;
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < 6; ++k) C(i, k) = material["C"][i][k].get<double>();
  try {
    check_voigt_tensor(C, "the tensor");
  } catch (const InputError& e) {
    out.push_back({at + "/material/C", e.what()});
  }
}

void check_motion(const json& motion, const std::string& pointer,
                  std::vector<SchemaViolation>& out) {
  if (motion.contains("shake"))
    require_nonzero(motion["shake"], "direction", pointer + "/shake", "shake direction", out);
  if (motion.contains("twist"))
    require_nonzero(motion["twist"], "axis", pointer + "/twist", "twist axis", out);
  for (const auto& [kind, body] : motion.items())
    require_not_both(body, "steps", "duration", pointer + "/" + kind, out);
}

}  // namespace

/// The Kharevych viscous damping: variational integrators and nonlinear materials only.
void check_viscous_damping(const json& scene, std::vector<SchemaViolation>& out) {
  const json& viscous = scene.at("damping").at("viscous");
  const std::string integrator = scene.at("integrator").at("type").get<std::string>();
  if (integrator != "variational_midpoint" && integrator != "variational_alpha" &&
      integrator != "verlet")
    out.push_back({"/damping/viscous",
                   "step-size independent damping is applied by the variational integrators "
                   "(variational_midpoint, variational_alpha, verlet), found integrator '" +
                       integrator + "'; other integrators take Rayleigh damping"});
  if (integrator == "verlet" && viscous.at("form").get<std::string>() == "implicit")
    out.push_back({"/damping/viscous/form",
                   "'implicit' damping is solved inside an implicit step's minimization; verlet "
                   "is explicit: use 'explicit' or variational_midpoint"});
  const double alpha =
      integrator == "variational_alpha" ? scene.at("integrator").at("alpha").get<double>() : 0.5;
  if (viscous.at("form").get<std::string>() == "implicit" && (alpha <= 0.0 || alpha >= 1.0))
    out.push_back({"/damping/viscous/form",
                   "'implicit' damping is solved inside the implicit step's minimization, but "
                   "alpha = " +
                       std::to_string(static_cast<int>(alpha)) +
                       " makes variational_alpha explicit: use 0 < alpha < 1 or 'explicit'"});
  const json& objects = scene.at("objects");
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::string model = objects[i].at("material").at("model").get<std::string>();
    if (model == "linear" || model == "corotated" || model == "mass_spring")
      out.push_back({"/objects/" + std::to_string(i) + "/material/model",
                     "step-size independent damping (/damping/viscous) measures each step's "
                     "deformation with a nonlinear material's energy (Kharevych Sec. 2.3); a '" +
                         model +
                         "' material takes Rayleigh damping instead: set /damping/stiffness "
                         "(beta [s])"});
  }
}

/// Kharevych's reversible corotational integrator splits the corotated material's force.
void check_reversible_corotated(const json& scene, std::vector<SchemaViolation>& out) {
  const json& objects = scene.at("objects");
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::string model = objects[i].at("material").at("model").get<std::string>();
    if (model != "corotated")
      out.push_back({"/objects/" + std::to_string(i) + "/material/model",
                     "the reversible_corotated integrator (Kharevych Eq. 3.33) rotates the linear "
                     "elastic response per element: expected 'corotated', found '" +
                         model + "'"});
  }
}

/// "contact" (docs/contact.md): the integrators that minimize an incremental potential with the
/// barrier, IPC planes instead of penalty planes, and what is not available yet.
void check_contact(const json& scene, std::vector<SchemaViolation>& out) {
  const std::string type = scene.at("integrator").at("type").get<std::string>();
  if (type != "be" && type != "bdf2")
    out.push_back({"/integrator/type",
                   "IPC contact runs with 'be' or 'bdf2' (incremental "
                   "potentials with a CCD-limited line search), found '" +
                       type + "'"});
  if (scene.contains("obstacles")) {
    const json& obstacles = scene["obstacles"];
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
      const std::string at = "/obstacles/" + std::to_string(i);
      if (obstacles[i].contains("sphere"))
        out.push_back({at + "/sphere",
                       "sphere obstacles are projections and do not combine with "
                       "IPC contact; use planes"});
      else
        for (const char* key : {"stiffness", "pressure_stiffness"})
          if (obstacles[i]["plane"].contains(key))
            out.push_back({at + "/plane/" + key,
                           "with \"contact\" a plane is an IPC barrier "
                           "plane, it has no penalty stiffness"});
    }
  }
  const json& objects = scene.at("objects");
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const std::string at = "/objects/" + std::to_string(i);
    if (objects[i].at("material").at("model").get<std::string>() == "mass_spring")
      out.push_back(
          {at + "/material/model", "mass-spring objects have no surface for IPC contact yet"});
    // Contact keeps every tet oriented through the elastic term's line-search bound; the
    // Galerkin baseline is a constant matrix without elements to bound.
    const json* coarsening =
        objects[i].contains("coarsening") ? &objects[i]["coarsening"] : nullptr;
    if (coarsening && coarsening->value("method", "none") == "galerkin")
      out.push_back({at + "/coarsening/method",
                     "the 'galerkin' baseline is a constant stiffness matrix with no elements "
                     "for IPC contact to keep oriented; use 'harmonic' or 'average_lame'"});
  }
}

std::vector<SchemaViolation> check_scene_semantics(const json& scene) {
  std::vector<SchemaViolation> out;
  if (scene.at("integrator").at("type").get<std::string>() == "reversible_corotated")
    check_reversible_corotated(scene, out);
  if (scene.at("damping").contains("viscous")) check_viscous_damping(scene, out);
  if (scene.contains("contact")) check_contact(scene, out);
  check_adaptive_time(scene, out);
  require_not_both(scene.at("output"), "every", "interval", "/output", out);
  if (const double cap = scene.at("solver").at("contrast_cap").get<double>();
      cap > 0.0 && cap < 1.0)
    out.push_back({"/solver/contrast_cap", "expected 0 (no cap) or a ratio >= 1, found " +
                                               scene["solver"]["contrast_cap"].dump()});
  if (scene.contains("wind")) {
    const json& wind = scene["wind"];
    require_nonzero(wind, "direction", "/wind", "wind direction", out);
    if (wind.at("sway").at("angle_deg").get<double>() != 0.0)
      require_nonzero(wind["sway"], "axis", "/wind/sway", "sway axis", out);
  }
  if (scene.contains("obstacles")) {
    const json& obstacles = scene["obstacles"];
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
      if (!obstacles[i].contains("plane")) continue;
      const json& plane = obstacles[i]["plane"];
      const std::string at = "/obstacles/" + std::to_string(i) + "/plane";
      require_nonzero(plane, "normal", at, "plane normal", out);
      require_not_both(plane, "stiffness", "pressure_stiffness", at, out);
      if (!plane.contains("pressure_stiffness")) continue;
      // The penalty per boundary area needs a boundary: tets, not particles.
      const json& objects = scene.at("objects");
      for (std::size_t k = 0; k < objects.size(); ++k)
        if (objects[k].at("material").at("model").get<std::string>() == "mass_spring")
          out.push_back({at + "/pressure_stiffness",
                         "mass-spring object /objects/" + std::to_string(k) +
                             " has no boundary area to weigh the penalty by; give 'stiffness' "
                             "[N/m] per vertex"});
    }
  }
  if (scene.at("reference").at("run").get<bool>()) {
    const json& objects = scene.at("objects");
    const bool any = std::any_of(objects.begin(), objects.end(),
                                 [](const json& o) { return o.contains("reference"); });
    if (!any)
      out.push_back({"/reference/run",
                     "a reference run simulates the objects' reference meshes, but no object has "
                     "\"reference\": {\"mesh\": ...}"});
  }
  std::map<std::string, std::string> names;  // object name -> pointer of its first use
  const json& objects = scene.at("objects");
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const json& object = objects[i];
    const std::string at = "/objects/" + std::to_string(i);
    if (object.contains("name")) {
      const std::string name = object["name"].get<std::string>();
      const auto [it, inserted] = names.emplace(name, at + "/name");
      if (!inserted)
        out.push_back(
            {at + "/name", "duplicate object name '" + name + "' (also " + it->second + ")"});
    }

    const json& mesh = object.at("mesh");
    if (mesh.contains("file")) check_mesh_file(mesh, at + "/mesh", out);
    if (const json& material = object.at("material"); material.contains("E_file")) {
      std::error_code ec;
      const fs::path field = material["E_file"].get<std::string>();
      if (!fs::is_regular_file(field, ec))
        out.push_back({at + "/material/E_file", "field file not found: " + field.string()});
    }
    {
      const bool graph = mesh.contains("rope") || mesh.contains("cloth");
      const std::string model = object.at("material").at("model").get<std::string>();
      if (graph && model != "mass_spring")
        out.push_back(
            {at + "/material/model",
             "a rope or cloth mesh is a mass-spring graph: expected 'mass_spring', found '" +
                 model + "'"});
      if (!graph && model == "mass_spring")
        out.push_back(
            {at + "/material/model",
             "'mass_spring' needs a rope or cloth mesh (springs along graph edges), found "
             "a tetrahedral mesh"});
      if (graph && object.at("material").contains("E_file"))
        out.push_back(
            {at + "/material/E_file", "a mass-spring object has no tetrahedra to assign E to"});
      const json& regions = object.at("regions");
      for (std::size_t r = 0; r < regions.size(); ++r) {
        for (const char* key : {"E", "nu", "density", "stiffness", "particle_mass"}) {
          const bool spring_key =
              std::string(key) == "stiffness" || std::string(key) == "particle_mass";
          if (regions[r].contains(key) && spring_key != graph)
            out.push_back({at + "/regions/" + std::to_string(r) + "/" + key,
                           graph ? "a mass-spring object's regions override 'stiffness' and "
                                   "'particle_mass' (it has no tetrahedra)"
                                 : "a tetrahedral object's regions override 'E', 'nu' and "
                                   "'density' ('" +
                                       std::string(key) + "' is for mass-spring objects)"});
        }
      }
    }
    if (object.contains("reference")) {
      const json& reference = object["reference"].at("mesh");
      if (reference.contains("file")) check_mesh_file(reference, at + "/reference/mesh", out);
      if (reference.contains("rope") || reference.contains("cloth") || mesh.contains("rope") ||
          mesh.contains("cloth"))
        out.push_back({at + "/reference/mesh",
                       "a reference mesh is a finer tetrahedral mesh of a tetrahedral object; "
                       "mass-spring graphs have none"});
    }
    const std::string eigenfit = object.at("eigenfit").at("method").get<std::string>();
    if (eigenfit != "none" && !object.contains("reference"))
      out.push_back({at + "/eigenfit/method",
                     "'" + eigenfit +
                         "' fits this mesh's eigenvalues to a finer mesh of the object: add "
                         "\"reference\": {\"mesh\": {...}} to the object"});
    check_coarsening(object, at, eigenfit, out);
    check_anisotropic(object, at, out);
    const json& rotate = mesh.at("transform").at("rotate");
    const json& axis = rotate.at("axis");
    if (rotate.at("angle_deg").get<double>() != 0.0 && axis[0] == 0 && axis[1] == 0 && axis[2] == 0)
      out.push_back(
          {at + "/mesh/transform/rotate/axis", "expected a non-zero rotation axis, found [0,0,0]"});

    const json& regions = object.at("regions");
    for (std::size_t r = 0; r < regions.size(); ++r) {
      const std::string rat = at + "/regions/" + std::to_string(r);
      check_select(regions[r].at("select"), rat + "/select", out);
      if (!regions[r].contains("E") && !regions[r].contains("nu") &&
          !regions[r].contains("density") && !regions[r].contains("stiffness") &&
          !regions[r].contains("particle_mass"))
        out.push_back({rat,
                       "expected at least one of 'E', 'nu', 'density' (or 'stiffness', "
                       "'particle_mass' for a mass-spring object) to override, found only "
                       "'select'"});
    }
    const json& dirichlet = object.at("dirichlet");
    for (std::size_t d = 0; d < dirichlet.size(); ++d) {
      const std::string dat = at + "/dirichlet/" + std::to_string(d);
      check_select(dirichlet[d].at("select"), dat + "/select", out);
      if (dirichlet[d].contains("motion"))
        check_motion(dirichlet[d]["motion"], dat + "/motion", out);
      require_not_both(dirichlet[d], "release_step", "release_time", dat, out);
    }
  }
  return out;
}

}  // namespace simrun
