#include "scene/factory.hpp"

#include <algorithm>
#include <limits>

#include "core/error.hpp"
#include "fem/mass.hpp"
#include "io/read_scalar_field.hpp"
#include "material/material.hpp"
#include "mesh/boundary.hpp"
#include "mesh/box.hpp"
#include "mesh/load_mesh.hpp"
#include "mesh/spring_graph.hpp"
#include "mesh/transform.hpp"
#include "model/dirichlet_motion.hpp"
#include "model/elastic_energy.hpp"
#include "model/gravity_energy.hpp"
#include "model/spring_energy.hpp"
#include "model/wind_load.hpp"
#include "scene/initial_state.hpp"

namespace simrun {

namespace {

std::string object_pointer(size_t index) { return "/objects/" + std::to_string(index); }

/// Runs a selection, prefixing its errors with the scene file and the selection's JSON pointer.
template <class SelectFunction>
std::vector<int> select_or_explain(const std::string& where, SelectFunction&& select) {
  try {
    return select();
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

TetMesh load_object_mesh(const ObjectConfig& object, size_t index,
                         std::vector<std::string>& notes) {
  const MeshConfig& m = object.mesh;
  TetMesh mesh;
  int flipped = 0;
  if (m.kind == MeshConfig::Kind::kBox) {
    mesh = make_box(m.box_size, m.box_cells, m.box_split);
  } else if (m.kind == MeshConfig::Kind::kRope) {
    mesh = make_rope(m.rope_particles, m.rope_length);
  } else if (m.kind == MeshConfig::Kind::kCloth) {
    mesh = make_cloth(m.cloth_size, m.cloth_particles, m.cloth_shear);
  } else {
    mesh = load_mesh_file(m.file, m.tetgen.quality, m.tetgen.max_volume, m.tetgen.target_tets,
                          &flipped);
  }
  const TransformConfig& t = m.transform;
  flipped += transform_mesh(mesh, t.scale, t.rotate_axis, t.rotate_deg, t.translate);
  if (flipped > 0) {
    notes.push_back(object_pointer(index) + " (" + object.name + "): re-oriented " +
                    std::to_string(flipped) + " negatively oriented tets");
  }
  if (mesh.edges.empty()) {
    notes.push_back(object_pointer(index) + " (" + object.name +
                    "): " + std::to_string(mesh.num_vertices()) + " vertices, " +
                    std::to_string(mesh.num_tets()) + " tets");
  } else {
    notes.push_back(object_pointer(index) + " (" + object.name +
                    "): " + std::to_string(mesh.num_vertices()) + " particles, " +
                    std::to_string(mesh.edges.size()) + " springs");
  }
  return mesh;
}

/// Elements [begin, end) of `all` (global vertex numbering kept).
TetElements slice(const TetElements& all, int begin, int end) {
  TetElements part;
  part.tets = all.tets.middleRows(begin, end - begin);
  part.volume = all.volume.segment(begin, end - begin);
  part.grad.assign(all.grad.begin() + begin, all.grad.begin() + end);
  part.dm_inverse.assign(all.dm_inverse.begin() + begin, all.dm_inverse.begin() + end);
  return part;
}

struct ObjectPieces {
  TetMesh mesh;
  MatX3 initial_positions;
  VecX youngs, poisson, density;
  std::vector<int> material_region;  ///< 1 + index of the last scene region covering a tet, or 0
  std::vector<int> fixed;
  std::vector<DirichletGroup> groups;  ///< one per dirichlet entry (object vertex numbering)
};

/// The scene's motion as the model's PrescribedMotion of the vertices at `x0` (rows).
PrescribedMotion prescribed_motion(const MotionConfig& m, const MatX3& x0, double dt) {
  PrescribedMotion p;
  switch (m.kind) {
    case MotionConfig::Kind::kFixed:
      p.kind = PrescribedMotion::Kind::kFixed;
      break;
    case MotionConfig::Kind::kTranslate:
      p.kind = PrescribedMotion::Kind::kTranslate;
      break;
    case MotionConfig::Kind::kShake:
      p.kind = PrescribedMotion::Kind::kShake;
      break;
    case MotionConfig::Kind::kTwist:
      p.kind = PrescribedMotion::Kind::kTwist;
      break;
  }
  p.velocity = m.velocity;
  p.direction = m.direction.normalized();
  p.amplitude = m.amplitude;
  p.frequency = m.frequency;
  p.axis = m.axis.normalized();
  p.point = m.point ? *m.point : Vec3(x0.colwise().mean().transpose());
  p.angular_velocity = m.angular_velocity;
  if (m.steps > 0) p.duration = m.steps * dt;
  if (m.duration > 0.0) p.duration = m.duration;
  return p;
}

ObjectPieces build_object(const ObjectConfig& object, size_t index, const std::string& scene_file,
                          double dt, std::vector<std::string>& notes) {
  ObjectPieces p;
  p.mesh = load_object_mesh(object, index, notes);
  const int n_tets = p.mesh.num_tets();
  p.youngs = VecX::Constant(n_tets, object.material.E);
  if (!object.material.E_file.empty()) {
    const std::string where = scene_file + ": " + object_pointer(index) + "/material/E_file";
    try {
      p.youngs = read_scalar_field(object.material.E_file, n_tets);
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.what());
    }
    for (int e = 0; e < n_tets; ++e) {
      require(p.youngs[e] > 0.0, where + ": element " + std::to_string(e) +
                                     ": expected a positive Young's modulus, found " +
                                     std::to_string(p.youngs[e]));
    }
  }
  p.poisson = VecX::Constant(n_tets, object.material.nu);
  p.density = VecX::Constant(n_tets, object.material.density);
  if (p.mesh.regions.empty()) p.mesh.regions.assign(n_tets, 0);
  p.material_region.assign(n_tets, 0);
  for (size_t r = 0; r < object.regions.size(); ++r) {
    const RegionConfig& region = object.regions[r];
    const std::string where =
        scene_file + ": " + object_pointer(index) + "/regions/" + std::to_string(r) + "/select";
    const std::vector<int> tets =
        select_or_explain(where, [&] { return select_tets(p.mesh, region.select); });
    require(!tets.empty(), where + ": selects no element of object '" + object.name + "'");
    for (int e : tets) {
      if (region.E) p.youngs[e] = *region.E;
      if (region.nu) p.poisson[e] = *region.nu;
      if (region.density) p.density[e] = *region.density;
      p.material_region[e] = static_cast<int>(r) + 1;
    }
  }
  for (size_t d = 0; d < object.dirichlet.size(); ++d) {
    const std::string where =
        scene_file + ": " + object_pointer(index) + "/dirichlet/" + std::to_string(d) + "/select";
    const std::vector<int> vertices = select_or_explain(
        where, [&] { return select_vertices(p.mesh, object.dirichlet[d].select); });
    require(!vertices.empty(), where + ": selects no vertex of object '" + object.name + "'");
    p.fixed.insert(p.fixed.end(), vertices.begin(), vertices.end());
    // release_step k: constrained in steps 1..k-1, free in steps that start at (k - 1) dt.
    const DirichletConfig& config = object.dirichlet[d];
    double release_time = std::numeric_limits<double>::infinity();
    if (config.release_step > 0) release_time = (config.release_step - 1) * dt;
    if (config.release_time) release_time = *config.release_time;
    p.groups.push_back({vertices, {}, release_time});
  }
  p.initial_positions = p.mesh.vertices;
  for (const auto& scale : object.initial.axial_scales)
    apply_axial_scale(p.initial_positions, scale);
  if (object.initial.twist) apply_twist(p.initial_positions, *object.initial.twist);
  for (size_t d = 0; d < p.groups.size(); ++d) {
    MatX3 x0(p.groups[d].vertices.size(), 3);
    for (size_t k = 0; k < p.groups[d].vertices.size(); ++k)
      x0.row(k) = p.initial_positions.row(p.groups[d].vertices[k]);
    p.groups[d].motion = prescribed_motion(object.dirichlet[d].motion, x0, dt);
  }
  return p;
}

}  // namespace

BuiltModel build_model(const SceneConfig& scene) {
  BuiltModel built;
  std::vector<ObjectPieces> objects;
  int n_vertices = 0, n_tets = 0;
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    objects.push_back(
        build_object(scene.objects[i], i, scene.source.string(), scene.time.dt, built.notes));
    n_vertices += objects.back().mesh.num_vertices();
    n_tets += objects.back().mesh.num_tets();
  }

  // Merge into one global numbering.
  TetMesh& mesh = built.frames.mesh;
  mesh.vertices.resize(n_vertices, 3);
  mesh.tets.resize(n_tets, 4);
  MatX3 initial_x(n_vertices, 3);
  VecX youngs(n_tets), poisson(n_tets), density(n_tets);
  std::vector<DirichletGroup> groups;
  std::vector<int> vertex_offset, tet_offset;
  VecX point_mass = VecX::Zero(3 * n_vertices);  // particles of mass-spring objects [kg]
  EdgeList springs;
  std::vector<double> spring_stiffness;
  int v0 = 0, t0 = 0;
  size_t object_index = 0;
  for (const auto& p : objects) {
    vertex_offset.push_back(v0);
    tet_offset.push_back(t0);
    const int nv = p.mesh.num_vertices(), nt = p.mesh.num_tets();
    mesh.vertices.middleRows(v0, nv) = p.mesh.vertices;
    initial_x.middleRows(v0, nv) = p.initial_positions;
    mesh.tets.middleRows(t0, nt) = p.mesh.tets.array() + v0;
    mesh.regions.insert(mesh.regions.end(), p.mesh.regions.begin(), p.mesh.regions.end());
    built.frames.material_region.insert(built.frames.material_region.end(),
                                        p.material_region.begin(), p.material_region.end());
    youngs.segment(t0, nt) = p.youngs;
    poisson.segment(t0, nt) = p.poisson;
    density.segment(t0, nt) = p.density;
    const MaterialConfig& material = scene.objects[object_index++].material;
    for (const auto& edge : p.mesh.edges) {
      springs.push_back({edge[0] + v0, edge[1] + v0});
      spring_stiffness.push_back(material.stiffness);
      mesh.edges.push_back(springs.back());
    }
    if (!p.mesh.edges.empty())
      point_mass.segment(3 * v0, 3 * nv).setConstant(material.particle_mass);
    for (DirichletGroup group : p.groups) {
      for (int& v : group.vertices) v += v0;
      groups.push_back(std::move(group));
    }
    v0 += nv;
    t0 += nt;
  }
  vertex_offset.push_back(v0);
  tet_offset.push_back(t0);
  built.frames.youngs = youngs;
  built.frames.poisson = poisson;
  built.frames.density = density;
  built.frames.surface = boundary_faces(mesh);

  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  const VecX nodal_mass = lumped_mass_per_dof(elements, density, n_vertices) + point_mass;

  std::vector<std::unique_ptr<EnergyTerm>> terms;
  for (size_t i = 0; i < objects.size(); ++i) {
    if (scene.objects[i].material.model == "mass_spring") continue;  // springs below
    std::shared_ptr<const Material> material;
    try {
      material = make_material(scene.objects[i].material.model);
    } catch (const InputError& e) {
      throw InputError(scene.source.string() + ": " + object_pointer(i) +
                       "/material/model: " + e.what());
    }
    std::vector<LameParameters> lame;
    for (int e = tet_offset[i]; e < tet_offset[i + 1]; ++e) {
      lame.push_back(lame_from_young_poisson(youngs[e], poisson[e]));
    }
    terms.push_back(std::make_unique<ElasticEnergy>(
        slice(elements, tet_offset[i], tet_offset[i + 1]), material, std::move(lame), n_vertices));
  }
  if (!springs.empty()) {
    terms.push_back(std::make_unique<SpringEnergy>(
        springs,
        Eigen::Map<const VecX>(spring_stiffness.data(),
                               static_cast<Eigen::Index>(spring_stiffness.size())),
        VecX(as_flat(mesh.vertices))));
  }
  VecX weighed_mass = nodal_mass;  // per-object gravity_scale
  for (size_t i = 0; i < objects.size(); ++i) {
    const int begin = vertex_offset[i], count = vertex_offset[i + 1] - begin;
    weighed_mass.segment(3 * begin, 3 * count) *= scene.objects[i].gravity_scale;
  }
  terms.push_back(
      std::make_unique<GravityEnergy>(scene.gravity, weighed_mass, VecX(as_flat(mesh.vertices))));
  if (scene.wind) {
    const WindConfig& w = *scene.wind;
    const WindSettings settings{w.pressure,  w.direction,      w.gust_amplitude, w.gust_frequency,
                                w.sway_axis, w.sway_angle_deg, w.sway_frequency};
    terms.push_back(
        std::make_unique<WindLoad>(settings, VecX(as_flat(mesh.vertices)), built.frames.surface));
    built.time_dependent_loads = w.gust_amplitude != 0.0 || w.sway_angle_deg != 0.0;
  }
  // Release times are compared with step start times that accumulate round-off: a millionth of
  // a step tells them apart from the neighbouring steps.
  const DirichletSchedule schedule(groups, as_flat(initial_x), 1e-6 * scene.time.dt);
  const std::vector<int> fixed = schedule.constrained_vertices(0.0);
  if (schedule.is_time_dependent()) built.schedule = schedule;

  const RayleighDamping damping{scene.damping.mass, scene.damping.stiffness,
                                scene.damping.stiffness_at == DampingConfig::StiffnessAt::kRest};
  DofMap dofs(n_vertices, fixed);
  require(dofs.num_free() > 0,
          "every vertex of the scene is constrained by 'dirichlet': nothing to simulate");
  built.model = std::make_unique<Model>(mesh.vertices, elements, density, scene.lumped_mass,
                                        point_mass, std::move(dofs), std::move(terms), damping);

  // Initial state: positions (twist) and velocities per object.
  VecX x0 = as_flat(initial_x);
  VecX v_full = VecX::Zero(3 * n_vertices);
  for (size_t i = 0; i < objects.size(); ++i) {
    const int begin = vertex_offset[i], count = vertex_offset[i + 1] - begin;
    VecX mass(count);
    for (int k = 0; k < count; ++k) mass[k] = nodal_mass[3 * (begin + k)];
    const MatX3 v =
        initial_velocities(initial_x.middleRows(begin, count), mass, scene.objects[i].initial);
    v_full.segment(3 * begin, 3 * count) = as_flat(v);
  }
  built.model->set_constrained_positions(x0);
  built.initial.q = built.model->restrict_vector(x0);
  built.initial.v = built.model->restrict_vector(v_full);
  built.initial.t = 0.0;
  const int n_fixed = static_cast<int>(fixed.size());
  built.notes.push_back(
      "model: " + std::to_string(n_vertices) + " vertices, " + std::to_string(n_tets) + " tets, " +
      (springs.empty() ? std::string() : std::to_string(springs.size()) + " springs, ") +
      std::to_string(built.model->num_free()) + " free DOFs, " + std::to_string(n_fixed) +
      " constrained vertices");
  return built;
}

IntegratorSettings integrator_settings(const SceneConfig& scene) {
  IntegratorSettings s;
  s.newton.tolerance = scene.integrator.newton.tolerance;
  s.newton.max_iterations = scene.integrator.newton.max_iterations;
  s.newton.line_search = scene.integrator.newton.line_search;
  s.step_halving = scene.integrator.newton.step_halving;
  const std::string& projection = scene.integrator.newton.projection;
  s.newton.projection = projection == "never"  ? HessianProjection::kNever
                        : projection == "auto" ? HessianProjection::kAuto
                                               : HessianProjection::kAlways;
  s.linear_solver = linear_solver_factory(scene.solver.type);
  s.newmark_beta = scene.integrator.newmark_beta;
  s.newmark_gamma = scene.integrator.newmark_gamma;
  s.rho_inf = scene.integrator.rho_inf;
  return s;
}

RunSettings run_settings(const SceneConfig& scene) {
  RunSettings r;
  r.dt = scene.time.dt;
  r.steps = scene.time.steps ? *scene.time.steps : -1;
  if (scene.time.end) r.end_time = *scene.time.end;
  r.out_dir = scene.output.dir;
  r.output_every = scene.output.every > 0 ? scene.output.every : 1;
  r.output_interval = scene.output.interval;
  r.write_vtu = std::find(scene.output.frames.begin(), scene.output.frames.end(), "vtu") !=
                scene.output.frames.end();
  r.write_surface = scene.output.surface;
  return r;
}

std::unique_ptr<Simulation> build_simulation(const SceneConfig& scene,
                                             std::vector<std::string>* notes) {
  // The integrator first: an unknown name is reported before the meshes are loaded.
  const IntegratorSettings settings = integrator_settings(scene);
  make_integrator(scene.integrator.type, settings);
  BuiltModel built = build_model(scene);
  if (notes) *notes = built.notes;
  SimulatedSystem system(
      scene.name, std::move(built.frames), std::move(built.model),
      [type = scene.integrator.type, settings] { return make_integrator(type, settings); },
      std::move(built.initial));
  if (built.schedule) system.set_dirichlet_schedule(std::move(*built.schedule));
  system.set_time_dependent_loads(built.time_dependent_loads);
  return std::make_unique<Simulation>(std::move(system));
}

}  // namespace simrun
