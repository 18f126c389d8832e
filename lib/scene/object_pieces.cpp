#include "scene/object_pieces.hpp"

#include <limits>

#include "core/error.hpp"
#include "io/cache_dir.hpp"
#include "io/read_scalar_field.hpp"
#include "mesh/box.hpp"
#include "mesh/embedding.hpp"
#include "mesh/load_mesh.hpp"
#include "mesh/selection.hpp"
#include "mesh/spring_graph.hpp"
#include "mesh/transform.hpp"
#include "scene/initial_state.hpp"
#include "scene/mesh_cache.hpp"

namespace simrun {

namespace {

/// Runs a selection (or a primitive mesh generator), prefixing its errors with the scene file
/// and the JSON pointer.
template <class SelectFunction>
auto select_or_explain(const std::string& where, SelectFunction&& select) -> decltype(select()) {
  try {
    return select();
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

TetMesh load_object_mesh(const ObjectConfig& object, size_t index, const std::string& scene_file,
                         std::vector<std::string>& notes) {
  const MeshConfig& m = object.mesh;
  TetMesh mesh;
  int flipped = 0;
  // A primitive's size problems name the scene and the pointer (a file's name its own file).
  const auto primitive = [&](const char* key, auto&& make) {
    return select_or_explain(scene_file + ": " + object_pointer(index) + "/mesh/" + key, make);
  };
  if (m.kind == MeshConfig::Kind::kBox) {
    mesh = primitive("box", [&] { return make_box(m.box_size, m.box_cells, m.box_split); });
  } else if (m.kind == MeshConfig::Kind::kRope) {
    mesh = primitive("rope", [&] { return make_rope(m.rope_particles, m.rope_length); });
  } else if (m.kind == MeshConfig::Kind::kCloth) {
    mesh = primitive("cloth",
                     [&] { return make_cloth(m.cloth_size, m.cloth_particles, m.cloth_shear); });
  } else {
    DecimationResult decimation;
    std::string cached;
    mesh = load_mesh_file_cached(user_cache_dir(), m.file, m.tetgen.quality, m.tetgen.max_volume,
                                 m.tetgen.target_tets, &flipped, m.tetgen.surface_faces,
                                 &decimation, &cached);
    if (!cached.empty())
      notes.push_back(object_pointer(index) + " (" + object.name + "): " + cached);
    if (decimation.collapses > 0)
      notes.push_back(object_pointer(index) + " (" + object.name + "): surface simplified to " +
                      std::to_string(decimation.surface.num_faces()) + " triangles (" +
                      std::to_string(decimation.collapses) +
                      " edge collapses, largest quadric "
                      "error " +
                      std::to_string(decimation.max_error) + " in the file's units)");
  }
  const TransformConfig& t = m.transform;
  flipped += transform_mesh(mesh, t.scale, t.rotate_axis, t.rotate_deg, t.translate);
  if (flipped > 0) {
    notes.push_back(object_pointer(index) + " (" + object.name + "): re-oriented " +
                    std::to_string(flipped) + " negatively oriented tets");
  }
  if (mesh.edges.empty()) {
    notes.push_back(object_pointer(index) + " (" + object.name +
                    "): " + plural(static_cast<size_t>(mesh.num_vertices()), "vertex", "vertices") +
                    ", " + plural(static_cast<size_t>(mesh.num_tets()), "tet"));
  } else {
    notes.push_back(object_pointer(index) + " (" + object.name +
                    "): " + plural(static_cast<size_t>(mesh.num_vertices()), "particle") + ", " +
                    plural(mesh.edges.size(), "spring"));
  }
  return mesh;
}

/// The E file's values, one per element of an `n_tets`-element mesh, checked positive.
VecX read_youngs_file(const std::filesystem::path& file, int n_tets, const std::string& where) {
  VecX youngs;
  try {
    youngs = read_scalar_field(file, n_tets);
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
  // Values are one per element, in element order, so element e is the file's value e + 1.
  for (int e = 0; e < n_tets; ++e)
    require(youngs[e] > 0.0, where + ": " + file.string() + ": value " + std::to_string(e + 1) +
                                 " (element " + std::to_string(e) +
                                 "): expected a positive Young's modulus, found " +
                                 short_number(youngs[e], 6));
  return youngs;
}

/// E of `mesh` sampled from an E file of another mesh of the object (material.E_file_mesh): per
/// element, the value of the listed mesh's element containing its centroid (the nearest element
/// for a centroid outside; lib/mesh/embedding.hpp), so that both meshes see one material field.
VecX sampled_element_field(const ObjectConfig& object, size_t index, const std::string& scene_file,
                           const TetMesh& mesh, const std::string& where,
                           std::vector<std::string>& notes) {
  ObjectConfig listed = object;
  listed.mesh = *object.material.E_file_mesh;
  std::vector<std::string> ignored;
  const TetMesh source = load_object_mesh(listed, index, scene_file, ignored);
  const VecX values = read_youngs_file(object.material.E_file, source.num_tets(), where);
  MatX3 centroids(mesh.num_tets(), 3);
  for (int e = 0; e < mesh.num_tets(); ++e) {
    Vec3 c = Vec3::Zero();
    for (int a = 0; a < 4; ++a) c += mesh.vertices.row(mesh.tets(e, a)).transpose();
    centroids.row(e) = (0.25 * c).transpose();
  }
  const Embedding located = embed_points(source, centroids);
  VecX youngs(mesh.num_tets());
  for (int e = 0; e < mesh.num_tets(); ++e) youngs[e] = values[located.tet[e]];
  notes.push_back(
      object_pointer(index) + " (" + object.name + "): E sampled from " +
      object.material.E_file.filename().string() + " (" + std::to_string(source.num_tets()) +
      " tets of the run's mesh) at " + std::to_string(mesh.num_tets()) + " centroids" +
      (located.num_outside > 0
           ? ", " + std::to_string(located.num_outside) + " outside it took the nearest tet's value"
           : std::string()));
  return youngs;
}

/// Per-tet E (constant, or the E_file field), nu and density, then the regions' overrides.
void assign_material_fields(const ObjectConfig& object, size_t index, const std::string& scene_file,
                            ObjectPieces& p, std::vector<std::string>& notes) {
  const int n_tets = p.mesh.num_tets();
  p.youngs = VecX::Constant(n_tets, object.material.E);
  if (!object.material.E_file.empty()) {
    const std::string where = scene_file + ": " + object_pointer(index) + "/material/E_file";
    p.youngs = object.material.E_file_mesh
                   ? sampled_element_field(object, index, scene_file, p.mesh, where, notes)
                   : read_youngs_file(object.material.E_file, n_tets, where);
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
    // A coarsened object's regions act on its reference mesh; the coarse one may miss them.
    require(!tets.empty() || object.coarsening.method != CoarseningConfig::Method::kNone,
            where + ": selects no element of object '" + object.name + "'");
    for (int e : tets) {
      if (region.E) p.youngs[e] = *region.E;
      if (region.nu) p.poisson[e] = *region.nu;
      if (region.density) p.density[e] = *region.density;
      p.material_region[e] = static_cast<int>(r) + 1;
    }
  }
  p.youngs *= object.material.youngs_scale;  // DAC: E scaled by r_1
  if (object.material.C) p.stiffness.assign(n_tets, *object.material.C);
}

/// Per-spring stiffness and per-particle mass of a mass-spring object, then the regions'
/// overrides: a region's "stiffness" applies to the springs whose midpoint it selects, its
/// "particle_mass" to the particles it selects.
void assign_spring_fields(const ObjectConfig& object, size_t index, const std::string& scene_file,
                          ObjectPieces& p) {
  const auto& edges = p.mesh.edges;
  p.spring_stiffness =
      VecX::Constant(static_cast<Eigen::Index>(edges.size()), object.material.stiffness);
  p.particle_mass = VecX::Constant(p.mesh.num_vertices(), object.material.particle_mass);
  MatX3 midpoints(edges.size(), 3);
  for (size_t s = 0; s < edges.size(); ++s)
    midpoints.row(s) = 0.5 * (p.mesh.vertices.row(edges[s][0]) + p.mesh.vertices.row(edges[s][1]));
  for (size_t r = 0; r < object.regions.size(); ++r) {
    const RegionConfig& region = object.regions[r];
    const std::string where =
        scene_file + ": " + object_pointer(index) + "/regions/" + std::to_string(r) + "/select";
    bool any = false;
    if (region.stiffness) {
      const std::vector<int> springs =
          select_or_explain(where, [&] { return select_vertices(midpoints, region.select); });
      for (int s : springs) p.spring_stiffness[s] = *region.stiffness;
      any = any || !springs.empty();
    }
    if (region.particle_mass) {
      const std::vector<int> particles =
          select_or_explain(where, [&] { return select_vertices(p.mesh.vertices, region.select); });
      for (int v : particles) p.particle_mass[v] = *region.particle_mass;
      any = any || !particles.empty();
    }
    require(any,
            where + ": selects no spring midpoint or particle of object '" + object.name + "'");
  }
}

/// One DirichletGroup per dirichlet entry (motions are set once the initial positions are known).
void add_dirichlet_groups(const ObjectConfig& object, size_t index, const std::string& scene_file,
                          double dt, ObjectPieces& p) {
  for (size_t d = 0; d < object.dirichlet.size(); ++d) {
    const std::string where =
        scene_file + ": " + object_pointer(index) + "/dirichlet/" + std::to_string(d) + "/select";
    const std::vector<int> vertices = select_or_explain(
        where, [&] { return select_vertices(p.mesh, object.dirichlet[d].select); });
    require(!vertices.empty(), where + ": selects no vertex of object '" + object.name + "'");
    // release_step k: constrained in steps 1..k-1, free in steps that start at (k - 1) dt.
    const DirichletConfig& config = object.dirichlet[d];
    double release_time = std::numeric_limits<double>::infinity();
    if (config.release_step > 0) release_time = (config.release_step - 1) * dt;
    if (config.release_time) release_time = *config.release_time;
    p.groups.push_back({vertices, {}, release_time});
  }
}

}  // namespace

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
  p.start = m.start;
  return p;
}

ObjectPieces build_object(const ObjectConfig& object, size_t index, const std::string& scene_file,
                          double dt, std::vector<std::string>& notes) {
  ObjectPieces p;
  p.mesh = load_object_mesh(object, index, scene_file, notes);
  if (p.mesh.edges.empty())
    assign_material_fields(object, index, scene_file, p, notes);
  else
    assign_spring_fields(object, index, scene_file, p);
  add_dirichlet_groups(object, index, scene_file, dt, p);
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

}  // namespace simrun
