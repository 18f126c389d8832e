#pragma once
/// Every energy term simrun has, each on a small model, for the tests that must hold for all of
/// them (tests/model/energy_term_fd_test.cpp). A new EnergyTerm is covered by adding one entry to
/// term_cases(); the elastic term is listed once per registered material.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "contact/penalty_plane.hpp"
#include "fem/tet_elements.hpp"
#include "material/material.hpp"
#include "material/voigt.hpp"
#include "mesh/boundary.hpp"
#include "mesh/box.hpp"
#include "model/elastic_energy.hpp"
#include "model/gravity_energy.hpp"
#include "model/model.hpp"
#include "model/spring_energy.hpp"
#include "model/wind_load.hpp"

namespace simrun::testing {

struct TermCase {
  std::string name;
  /// A model whose only potential term is the one under test, with vertex 0 fixed (so the
  /// Hessian slots of constrained DOFs are exercised), and the rest positions (full).
  std::function<std::unique_ptr<Model>()> make;
  bool allows_inversion = true;  ///< random states may invert elements
};

/// A 2 x 1 x 1 box, 6-split (12 tets), with the given terms and vertex 0 fixed.
inline std::unique_ptr<Model> box_model_with(
    const std::function<std::unique_ptr<EnergyTerm>(const TetMesh&, const TetElements&)>& term) {
  const TetMesh mesh = make_box(Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(2, 1, 1), 6);
  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(term(mesh, elements));
  return std::make_unique<Model>(mesh.vertices, elements, VecX::Constant(mesh.num_tets(), 1000.0),
                                 true, DofMap(mesh.num_vertices(), {0}), std::move(terms),
                                 RayleighDamping{});
}

inline std::vector<TermCase> term_cases() {
  std::vector<TermCase> cases;
  for (const std::string& name : material_names()) {
    std::shared_ptr<const Material> material = make_material(name);
    cases.push_back({"elastic_" + name,
                     [material] {
                       return box_model_with([&](const TetMesh& mesh, const TetElements& e) {
                         // Heterogeneous parameters: each element its own E.
                         std::vector<LameParameters> lame;
                         for (int k = 0; k < mesh.num_tets(); ++k)
                           lame.push_back(lame_from_young_poisson(1e5 * (1.0 + 0.1 * k), 0.3));
                         ElementMaterials parameters(lame);
                         if (material->needs_stiffness_tensor())  // an anisotropic tensor
                           for (const LameParameters& l : lame) {
                             VoigtTensor C = isotropic_voigt(l.mu, l.lambda);
                             C(0, 4) = C(4, 0) = 0.2 * l.mu;
                             C(2, 2) *= 1.5;
                             parameters.stiffness.push_back(C);
                           }
                         return std::make_unique<ElasticEnergy>(e, material, parameters,
                                                                mesh.num_vertices());
                       });
                     },
                     material->allows_inversion()});
  }
  cases.push_back({"gravity", [] {
                     return box_model_with([](const TetMesh& mesh, const TetElements&) {
                       const VecX mass = VecX::LinSpaced(3 * mesh.num_vertices(), 1.0, 2.0);
                       return std::make_unique<GravityEnergy>(Vec3(0.3, -9.81, 0.1), mass,
                                                              VecX(as_flat(mesh.vertices)));
                     });
                   }});
  cases.push_back(
      {"spring", [] {
         return box_model_with([](const TetMesh& mesh, const TetElements&) {
           // The box's edges as springs, plus one long diagonal.
           EdgeList springs = {{0, mesh.num_vertices() - 1}};
           for (int e = 0; e < mesh.num_tets(); ++e)
             springs.push_back({mesh.tets(e, 0), mesh.tets(e, 1)});
           const VecX k = VecX::LinSpaced(static_cast<Eigen::Index>(springs.size()), 10.0, 100.0);
           return std::make_unique<SpringEnergy>(springs, k, VecX(as_flat(mesh.vertices)));
         });
       }});
  cases.push_back({"wind", [] {
                     return box_model_with([](const TetMesh& mesh, const TetElements&) {
                       WindSettings w;
                       w.pressure = 20.0;
                       w.direction = Vec3(1.0, 0.2, 0.0);
                       w.gust_amplitude = 0.5;
                       w.gust_frequency = 2.0;
                       w.sway_angle_deg = 10.0;
                       w.sway_frequency = 0.5;
                       auto wind = std::make_unique<WindLoad>(w, VecX(as_flat(mesh.vertices)),
                                                              boundary_faces(mesh));
                       wind->set_time(0.3);
                       return wind;
                     });
                   }});
  cases.push_back({"penalty_plane", [] {
                     return box_model_with([](const TetMesh& mesh, const TetElements&) {
                       // A tilted plane through the box's middle: at rest the y = 0 vertices are
                       // 0.12-0.37 m below it and the y = 0.5 ones as far above; the random states
                       // keep free vertices on both sides, none closer than 9 mm to the plane
                       // (d = 0, where the Hessian jumps, is 9000 FD steps away).
                       return std::make_unique<PenaltyPlane>(
                           Vec3(0.5, 0.25, 0.25), Vec3(0.2, 1.0, -0.1), 1e3, mesh.num_vertices());
                     });
                   }});
  cases.push_back({"penalty_plane_per_area", [] {
                     return box_model_with([](const TetMesh& mesh, const TetElements&) {
                       // The same plane with k_i = k_A A_i (interior vertices: 0).
                       return std::make_unique<PenaltyPlane>(Vec3(0.5, 0.25, 0.25),
                                                             Vec3(0.2, 1.0, -0.1),
                                                             1e4 * boundary_vertex_areas(mesh));
                     });
                   }});
  return cases;
}

}  // namespace simrun::testing
