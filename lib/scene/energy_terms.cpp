#include "scene/energy_terms.hpp"

#include "coarsen/galerkin_stiffness.hpp"
#include "core/error.hpp"
#include "material/material.hpp"
#include "mesh/orient.hpp"
#include "model/elastic_energy.hpp"
#include "model/gravity_energy.hpp"
#include "model/spring_energy.hpp"
#include "model/wind_load.hpp"

namespace simrun {

namespace {

/// Elements [begin, end) of `all` (global vertex numbering kept).
TetElements slice(const TetElements& all, int begin, int end) {
  TetElements part;
  part.tets = all.tets.middleRows(begin, end - begin);
  part.volume = all.volume.segment(begin, end - begin);
  part.grad.assign(all.grad.begin() + begin, all.grad.begin() + end);
  part.dm_inverse.assign(all.dm_inverse.begin() + begin, all.dm_inverse.begin() + end);
  return part;
}

/// Refuses an initial state (twist, axial scale) that inverts a tet of object i when its material
/// has no energy for inverted tets (the log J of the neo-Hookean models): the run would stop at
/// step 1 with a non-finite force. det(x1 - x0, x2 - x0, x3 - x0) changes sign with the tet.
void require_oriented_start(const SceneConfig& scene, const MergedObjects& objects, size_t i,
                            const Material& material) {
  if (material.allows_inversion()) return;
  int inverted = 0, first = -1;
  for (int t = objects.tet_offset[i]; t < objects.tet_offset[i + 1]; ++t) {
    const double start = signed_volume6(objects.initial_positions, objects.mesh.tets, t);
    if (start * signed_volume6(objects.mesh, t) > 0.0) continue;
    if (first < 0) first = t - objects.tet_offset[i];
    ++inverted;
  }
  const int tets = objects.tet_offset[i + 1] - objects.tet_offset[i];
  require(inverted == 0,
          scene.source.string() + ": " + object_pointer(i) +
              "/initial: the initial state inverts " + std::to_string(inverted) + " of " +
              plural(static_cast<std::size_t>(tets), "tet") + " (tet " + std::to_string(first) +
              " first), and '" + scene.objects[i].material.model +
              "' has no energy for inverted tets: reduce the twist or scale, refine the mesh "
              "along the twist axis, or use a material that allows inversion (e.g. "
              "'stable_neohookean')");
}

}  // namespace

SceneTerms make_energy_terms(const SceneConfig& scene, const MergedObjects& objects,
                             const TetElements& elements, const VecX& nodal_mass,
                             const MatX3i& surface) {
  SceneTerms out;
  auto& terms = out.terms;
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    if (scene.objects[i].material.model == "mass_spring") continue;  // springs below
    if (objects.galerkin_stiffness[i].nonZeros() > 0) {  // coarsening's Galerkin baseline
      const int begin = objects.vertex_offset[i], count = objects.vertex_offset[i + 1] - begin;
      terms.push_back(std::make_unique<GalerkinStiffness>(
          objects.galerkin_stiffness[i], begin,
          VecX(as_flat(objects.mesh.vertices).segment(3 * begin, 3 * count))));
      continue;
    }
    // A coarsened object runs the anisotropic form of its model with its homogenized tensors.
    const bool coarsened = scene.objects[i].coarsening.method != CoarseningConfig::Method::kNone;
    std::shared_ptr<const Material> material;
    try {
      material = make_material((coarsened ? "anisotropic_" : "") + scene.objects[i].material.model);
    } catch (const InputError& e) {
      throw InputError(scene.source.string() + ": " + object_pointer(i) +
                       "/material/model: " + e.what());
    }
    require_oriented_start(scene, objects, i, *material);
    std::vector<LameParameters> lame;
    for (int e = objects.tet_offset[i]; e < objects.tet_offset[i + 1]; ++e) {
      lame.push_back(lame_from_young_poisson(objects.youngs[e], objects.poisson[e]));
    }
    ElementMaterials parameters(std::move(lame));
    if (coarsened || scene.objects[i].material.C)
      parameters.stiffness.assign(objects.stiffness.begin() + objects.tet_offset[i],
                                  objects.stiffness.begin() + objects.tet_offset[i + 1]);
    auto elastic = std::make_unique<ElasticEnergy>(
        slice(elements, objects.tet_offset[i], objects.tet_offset[i + 1]), material,
        std::move(parameters), objects.num_vertices());
    // IPC contact promises frames without inverted tets for every material (docs/contact.md).
    const bool contact = scene.contact.has_value();
    elastic->keep_tets_oriented(contact);
    if (contact && material->allows_inversion())
      out.notes.push_back("contact: " + object_pointer(i) + " is '" +
                          scene.objects[i].material.model +
                          "', whose energy allows inverted tets; the contact line search keeps "
                          "every tet's volume positive, so a step that could only converge "
                          "through an inversion fails (exit 2). 'neohookean' resists inversion.");
    terms.push_back(std::move(elastic));
  }
  if (!objects.springs.empty()) {
    terms.push_back(std::make_unique<SpringEnergy>(objects.springs, objects.spring_stiffness,
                                                   VecX(as_flat(objects.mesh.vertices))));
  }
  VecX weighed_mass = nodal_mass;  // per-object gravity_scale
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    const int begin = objects.vertex_offset[i], count = objects.vertex_offset[i + 1] - begin;
    weighed_mass.segment(3 * begin, 3 * count) *= scene.objects[i].gravity_scale;
  }
  terms.push_back(std::make_unique<GravityEnergy>(scene.gravity, weighed_mass,
                                                  VecX(as_flat(objects.mesh.vertices))));
  if (scene.wind) {
    const WindConfig& w = *scene.wind;
    const WindSettings settings{w.pressure,  w.direction,      w.gust_amplitude, w.gust_frequency,
                                w.sway_axis, w.sway_angle_deg, w.sway_frequency};
    terms.push_back(
        std::make_unique<WindLoad>(settings, VecX(as_flat(objects.mesh.vertices)), surface));
    out.time_dependent_loads = w.gust_amplitude != 0.0 || w.sway_angle_deg != 0.0;
  }
  return out;
}

}  // namespace simrun
